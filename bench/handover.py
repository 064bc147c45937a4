"""Time a relay hand-over on loopback (design.md §5: under 5 s from the
timeout to the next sequenced move).

    python bench/handover.py [--players N] [--scenario forfeit|vanish]

forfeit: no escrow; the host's player types `forfeit` once the keys are in.
The clock starts when the first follower folds the host's forfeit (the
relay is lost at once: there is no timeout to wait for). Reported: the
hand-over entry (`handover_entry_s`), the next entry the new relay
sequences (`next_entry_s`), and the first move (`handover_s`; here it
includes the rest of the set-up: the deck's shuffles and the deal).

vanish: `--escrow`; the host is SIGKILLed mid-game. The clock starts when
the first follower's relay timeout fires. Reported as above, and
`carried_on_s`: until the host's seat is carried on (its key and seed
rebuilt from escrow, every replica). The first move may come before that
when it needs no card of the host's. The relay timeout itself (3 s here, 20 s by
default) is not counted: it is how long we choose to wait.

Each process writes its milestones to a trace file (`--trace`); the last
line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lan import command, free_port, read_trace

BUDGET_S = 5.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--scenario", choices=("forfeit", "vanish"), default="forfeit")
    args = parser.parse_args()
    root = Path(__file__).resolve().parent.parent
    subprocess.run([sys.executable, "-m", "compileall", "-q",  # (older versions kept the command in cli/)
                    *(str(d) for d in (root / "p2p_ttr", root / "cli") if d.exists())], check=True)
    port = free_port()
    escrow = ["--escrow"] if args.scenario == "vanish" else []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        common = ["--timeout", "90", "--relay-timeout", "3"]
        host_args = ["--bind", "127.0.0.1", "--port", str(port), "--players", str(args.players),
                     "--data-dir", str(tmp / "p0"), "--trace", str(tmp / "p0.trace"), *common, *escrow]
        if args.scenario == "forfeit":
            host = subprocess.Popen(command("host") + host_args + ["--plain", "--name", "Host"],
                                    stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        else:
            host = subprocess.Popen(command("host") + host_args + ["--as-bot", "--json"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        joiners = []
        for p in range(1, args.players):
            time.sleep(0.2)  # seats in join order
            joiners.append(subprocess.Popen(
                command("join") + [f"127.0.0.1:{port}", "--name", f"Bot{p}", "--data-dir", str(tmp / f"p{p}"),
                                   "--trace", str(tmp / f"p{p}.trace"), "--as-bot", "--json", *common],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL))
        try:
            deadline = time.monotonic() + 120
            if args.scenario == "forfeit":
                while not any(e["event"] == "keys_in" for e in read_trace(tmp / "p1.trace")):
                    assert time.monotonic() < deadline, "the keys never came in"
                    time.sleep(0.1)
                assert host.stdin is not None
                host.stdin.write(b"forfeit\nforfeit\n")
                host.stdin.flush()
                host.stdin.close()
            else:
                while not any(e["event"] == "first_turn" for e in read_trace(tmp / "p1.trace")):
                    assert time.monotonic() < deadline, "the game never started"
                    time.sleep(0.1)
                time.sleep(2.0)  # a few moves in
                os.kill(host.pid, signal.SIGKILL)
            outs = [proc.communicate(timeout=300)[0] for proc in joiners]
        finally:
            for proc in [host, *joiners]:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
        traces = [read_trace(tmp / f"p{p}.trace") for p in range(1, args.players)]
    lost = [e["t"] for tr in traces for e in tr if e["event"] == "relay_lost"]
    moved = [e["t"] for tr in traces for e in tr if e["event"] == "moved_after_handover"]
    handed = [e["t"] for tr in traces for e in tr if e["event"] == "handed_over"]
    after = [e["t"] for tr in traces for e in tr if e["event"] == "entry_after_handover"]
    carried = [e["t"] for tr in traces for e in tr if e["event"] == "carried_on"]
    summaries = [json.loads(o.decode().strip().splitlines()[-1]) for o in outs if o.strip()]
    result = {
        "scenario": args.scenario,
        "players": args.players,
        "exit_codes": [proc.returncode for proc in joiners],
        "agree": len({s["digest"] for s in summaries}) == 1 and len(summaries) == args.players - 1,
        "handover_entry_s": round(min(handed) - min(lost), 3) if lost and handed else None,
        "next_entry_s": round(min(after) - min(lost), 3) if lost and after else None,
        "handover_s": round(min(moved) - min(lost), 3) if lost and moved else None,
        "carried_on_s": round(min(carried) - min(lost), 3) if lost and carried else None,
    }
    value = result["handover_s"]
    verdict = "-" if value is None else ("ok" if value < BUDGET_S else "OVER")
    print(f"{'handover_s':16} {value!s:>10}  budget < {BUDGET_S}  {verdict}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
