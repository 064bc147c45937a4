"""Time a whole LAN game: 5 bot processes on 127.0.0.1 (a host and 4 joiners).

    python bench/lan.py [--players N] [--port P] [--timeline]

Measures (design.md §5 budgets): setup, from launching the processes to the
first player's turn (< 6 s for 5 processes on 2 cores), and the CPU seconds
each process spent on it, process start included (< 2 s: what one peer pays
on its own machine; `setup_cpu_max_s` is the largest); the median latency of a private draw, from the
drawer sending its action to the drawn card being known to it (< 50 ms); and
the wall time of the whole game (< 60 s). Each process writes its timings to
a trace file (`--trace`); the last line printed is one JSON object.

`--timeline` also prints the set-up's timeline: for each peer, when (in
seconds after the launch) it came up, was seated, sent each message (its
keys, each chain step and proof, named by deck and epoch), had every key,
saw its hand dealt and reached the first turn; and the critical path (the
order the last event of each step was reached in).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from launch import compile_sources, free_port, read_trace
from p2p_ttr.deck import current_backend

BUDGETS = {"setup_s": 6.0, "setup_cpu_max_s": 2.0, "draw_median_ms": 50.0, "game_s": 60.0}


def command(name: str) -> list[str]:
    from p2p_ttr.cli.main import child_command

    return child_command(name)


def print_timeline(traces: list[list[dict[str, Any]]], t0: float) -> None:
    """Each peer's set-up, event by event, up to its first turn; then every
    event of every peer in time order, so the waits between them show."""
    merged = []
    for seat, trace in enumerate(traces):
        for e in trace:
            if e["event"] in ("sent", "started", "seated", "keys_in", "shuffled", "first_turn"):
                what = e["event"] if e["event"] != "sent" else \
                    f"sent {e['kind']}" + (f" {e['deck']}/{e['epoch']}" if "deck" in e else "")
                merged.append((e["t"] - t0, seat, what))
            if e["event"] == "first_turn":
                break
    print("set-up timeline (s after launch; seat: event):")
    for t, seat, what in sorted(merged):
        print(f"  {t:6.3f}  {seat}: {what}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--timeline", action="store_true", help="print each peer's set-up, event by event")
    args = parser.parse_args()
    port = args.port or free_port()
    compile_sources(Path(__file__).resolve().parent.parent)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        common = ["--as-bot", "--json", "--timeout", "60"]
        procs = []
        t0 = time.time()
        procs.append(subprocess.Popen(
            command("host") + ["--bind", "127.0.0.1", "--port", str(port), "--players", str(args.players),
                               "--data-dir", str(tmp / "p0"), "--trace", str(tmp / "p0.trace"), *common],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL))
        for p in range(1, args.players):
            procs.append(subprocess.Popen(
                command("join") + [f"127.0.0.1:{port}", "--name", f"Bot{p}", "--data-dir", str(tmp / f"p{p}"),
                                   "--trace", str(tmp / f"p{p}.trace"), *common],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL))
        try:
            outs = [proc.communicate(timeout=300)[0] for proc in procs]
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
        game_s = time.time() - t0
        codes = [proc.returncode for proc in procs]
        traces = [read_trace(tmp / f"p{p}.trace") for p in range(args.players)]
    # When each process reached each step of the setup, from the launch (the slowest process).
    steps = {}
    for mark in ("started", "seated", "keys_in", "shuffled", "first_turn"):
        times = [e["t"] for tr in traces for e in tr if e["event"] == mark]
        if times:
            steps[mark] = round(max(times) - t0, 3)
    print("setup steps (s after launch, slowest process):", steps)
    if args.timeline:
        print_timeline(traces, t0)
    first = [e["t"] for e in traces[0] if e["event"] == "first_turn"]
    setup_s = first[0] - t0 if first else float("nan")
    cpu = [e["cpu"] for tr in traces for e in tr if e["event"] == "first_turn" and "cpu" in e]
    draws = [e["latency"] * 1000 for tr in traces for e in tr if e["event"] == "draw_known"]
    summaries = [json.loads(o.decode().strip().splitlines()[-1]) for o in outs if o.strip()]
    digests = {s["digest"] for s in summaries}
    result = {
        "players": args.players,
        "backend": current_backend().name,
        "exit_codes": codes,
        "agree": len(digests) == 1 and len(summaries) == args.players,
        "turns": summaries[0]["turns"] if summaries else None,
        "setup_s": round(setup_s, 3),
        "setup_cpu_s": [round(c, 2) for c in cpu],
        "setup_cpu_max_s": round(max(cpu), 2) if cpu else None,
        "draws": len(draws),
        "draw_median_ms": round(statistics.median(draws), 1) if draws else None,
        "draw_p90_ms": round(statistics.quantiles(draws, n=10)[-1], 1) if len(draws) > 1 else None,
        "game_s": round(game_s, 2),
    }
    for key, budget in BUDGETS.items():
        value = result[key]
        verdict = "-" if value is None else ("ok" if value < budget else "OVER")
        print(f"{key:16} {value!s:>10}  budget < {budget}  {verdict}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
