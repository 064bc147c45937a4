"""Time the set-up alone: 5 bot processes on 127.0.0.1 as bench/lan.py launches
them, stopped once every peer has reached its first turn.

    python bench/setup.py [--players N] [--runs R]

Prints, per run, seconds after the launch: when the last process came up,
when the last was seated (the lobby's roll call over), the lobby's own time
(the difference) and the last first turn. The last line is one JSON object.
To compare commits in one run, alternate: `cd WT && PYTHONPATH=WT python
bench/setup.py` for each worktree WT, in turn.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from lan import command, free_port, read_trace

LIMIT_S = 180.0  # a set-up that has not reached every first turn by then is reported as failed


def one_setup(players: int) -> dict[str, Any]:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        common = ["--as-bot", "--json", "--timeout", "60"]
        t0 = time.time()
        procs = [subprocess.Popen(
            command("host") + ["--bind", "127.0.0.1", "--port", str(port), "--players", str(players),
                               "--data-dir", str(tmp / "p0"), "--trace", str(tmp / "p0.trace"), *common],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
        for p in range(1, players):
            procs.append(subprocess.Popen(
                command("join") + [f"127.0.0.1:{port}", "--name", f"Bot{p}", "--data-dir", str(tmp / f"p{p}"),
                                   "--trace", str(tmp / f"p{p}.trace"), *common],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
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

    return {"started": last("started"), "seated": last("seated"), "lobby": round(last("seated") - last("started"), 3),
            "first_turn": last("first_turn")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    root = Path(__file__).resolve().parent.parent
    subprocess.run([sys.executable, "-m", "compileall", "-q",  # (older versions kept the command in cli/)
                    *(str(d) for d in (root / "p2p_ttr", root / "cli") if d.exists())], check=True)
    runs = [one_setup(args.players) for _ in range(args.runs)]
    for run in runs:
        print(" ".join(f"{k} {v}" for k, v in run.items()))
    print(json.dumps({"bench": "setup", "players": args.players, "runs": runs}))


if __name__ == "__main__":
    main()
