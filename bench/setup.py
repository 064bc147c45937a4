"""Time the set-up alone: 5 bot processes on 127.0.0.1 as bench/lan.py launches
them, stopped once every peer has reached its first turn.

    python bench/setup.py [--players N] [--runs R] [--root WT]

Prints, per run, seconds after the launch: when the last process came up,
when the last was seated (the lobby's roll call over), the lobby's own time
(the difference) and the last first turn; and the CPU seconds each process
spent up to its first turn, interpreter start included (the largest and
the sum: on 2 cores the set-up's wall time is about the sum over 2). The
last line is one JSON object. To compare commits in one run, alternate
`--root` (default: this checkout) between their worktrees: the same script
launches each commit's own `ttr` (older commits' entry point, cli.main, too).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from launch import compile_sources, free_port, launch, player_argvs, read_trace

LIMIT_S = 180.0  # a set-up that has not reached every first turn by then is reported as failed


def one_setup(root: Path, players: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        t0 = time.time()
        procs = launch(root, player_argvs(free_port(), players, tmp))
        try:
            while time.time() - t0 < LIMIT_S:
                traces = [read_trace(tmp / f"p{p}.trace") for p in range(players)]
                if all(any(e["event"] == "first_turn" for e in tr) for tr in traces):
                    break
                time.sleep(0.2)  # a bench polls the trace files; no test waits so
            else:
                return {"failed": True}
        finally:
            for proc in procs:
                proc.kill()
            for proc in procs:
                proc.wait()

    def last(event: str) -> float:
        return round(max(e["t"] for tr in traces for e in tr if e["event"] == event) - t0, 3)

    cpu = [e["cpu"] for tr in traces for e in tr if e["event"] == "first_turn"]
    return {"started": last("started"), "seated": last("seated"), "lobby": round(last("seated") - last("started"), 3),
            "first_turn": last("first_turn"), "cpu_max": round(max(cpu), 3), "cpu_sum": round(sum(cpu), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="the checkout to run (default: this one)")
    args = parser.parse_args()
    root = args.root.resolve()
    compile_sources(root)
    runs = [one_setup(root, args.players) for _ in range(args.runs)]
    for run in runs:
        print(" ".join(f"{k} {v}" for k, v in run.items()))
    print(json.dumps({"bench": "setup", "root": str(root), "players": args.players, "runs": runs}))


if __name__ == "__main__":
    main()
