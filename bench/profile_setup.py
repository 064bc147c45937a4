"""Profile one peer's set-up: launch the players as bench/setup.py does, one
seat's process under cProfile, and stop it once every peer has reached its
first turn.

    python bench/profile_setup.py [--root WT] [--seat K] [--players N] [--out FILE] [--top T]

`--root` names the checkout to run (default: this one), so two commits are
profiled by the same script: `python bench/profile_setup.py --root /work/wt-base`.
The seat's stats go to FILE (pstats format; `python -m pstats FILE` browses
them) and the top T functions by cumulative and by own time are printed,
with the CPU seconds the profiled process spent to its first turn (its
trace's `cpu`, interpreter start included; the profiler's own overhead
makes it larger than an unprofiled run's). The profile counts CPU
seconds, not wall time.
"""

from __future__ import annotations

import argparse
import json
import pstats
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from launch import compile_sources, free_port, launch, player_argvs, read_trace

LIMIT_S = 180.0

# Runs in the profiled child: the module under cProfile, stats written when
# the bench sends SIGTERM (the peer never stops by itself before its game ends).
PROFILED = """
import cProfile, os, runpy, signal, sys, time
out, module = sys.argv[1], sys.argv[2]
sys.argv = [module] + sys.argv[3:]
profile = cProfile.Profile(time.process_time)  # CPU seconds: the other peers' turns on the cores are not this one's cost
def stop(signum, frame):
    profile.disable()
    profile.dump_stats(out)
    os._exit(0)
signal.signal(signal.SIGTERM, stop)
profile.enable()
runpy.run_module(module, run_name="__main__", alter_sys=True)
"""


def profile_setup(root: Path, seat: int, players: int, out: Path) -> dict[str, Any]:
    compile_sources(root)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        procs = launch(root, player_argvs(free_port(), players, tmp),
                       heads={seat: [sys.executable, "-c", PROFILED, str(out)]})
        t0 = time.time()
        try:
            while time.time() - t0 < LIMIT_S:
                traces = [read_trace(tmp / f"p{p}.trace") for p in range(players)]
                if all(any(e["event"] == "first_turn" for e in tr) for tr in traces):
                    break
                time.sleep(0.2)  # a bench polls the trace files
            else:
                return {"failed": True}
            procs[seat].send_signal(signal.SIGTERM)
            procs[seat].wait(timeout=60)
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
            for proc in procs:
                proc.wait()
    cpu = [e["cpu"] for e in traces[seat] if e["event"] == "first_turn"]
    return {"root": str(root), "seat": seat, "cpu_to_first_turn": round(cpu[0], 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--seat", type=int, default=1, help="the seat to profile (0 is the host)")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--out", type=Path, default=Path("setup.prof"))
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    result = profile_setup(args.root.resolve(), args.seat, args.players, args.out.resolve())
    if "failed" not in result:
        stats = pstats.Stats(str(args.out))
        stats.sort_stats("cumulative").print_stats(args.top)
        stats.sort_stats("tottime").print_stats(args.top)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
