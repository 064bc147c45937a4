"""The relay moves (protocol.md §9 "Hand-over"), with real processes on
127.0.0.1: the host forfeits and the next seat relays to the end."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from test_net_lan import DEADLINE_S, Run, check_game, command, entries_in, free_port, wait_for_entries

from p2p_ttr.table.logfile import read_log
from p2p_ttr.table.verify import verify_entries


def test_the_host_forfeits_and_the_next_seat_relays_to_the_end(tmp_path: Path) -> None:
    """Without escrow: the host's player types `forfeit` mid-game. Its secrets
    go into the log, the table plays its seat, seat 2 takes over the relay
    with seat 3's follow request, and both finish with equal summaries and
    logs that verify and name the hand-over."""
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port = free_port()
    try:
        host = subprocess.Popen(
            command("host") + ["--bind", "127.0.0.1", "--port", str(port), "--plain", "--players", "3",
                               "--name", "Hoster", "--data-dir", str(tmp_path / "host"), "--timeout", "60"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        run.procs["host"] = host
        time.sleep(0.3)
        run.join("J", port)
        time.sleep(0.3)
        run.join("K", port)
        wait_for_entries(run, "J", 12, deadline)  # the keys are in
        assert host.stdin is not None
        host.stdin.write(b"forfeit\nforfeit\n")  # the second confirms
        host.stdin.flush()
        out, _ = host.communicate(timeout=max(1.0, deadline - time.monotonic()))
        said = out.decode()
        assert host.returncode == 0, said[-3000:]
        assert "you forfeited this game" in said and "the next seat relays" in said
        run.wait_all(["J", "K"], deadline)
        check_game(run, ["J", "K"])
        assert "we relay from now on" in run.errors("J") + run.output("J")
        assert "turning to J, who relays next" in run.errors("K") + run.output("K")
        for label in ("J", "K"):
            (log,) = (tmp_path / label / "games").glob("*/game.log")
            verdict = verify_entries(read_log(log)[1])
            assert verdict.fair and list(verdict.table.forfeited) == [0]
            (handed,) = verdict.table.handovers
            assert (handed.old, handed.new) == (0, 1) and handed.index == verdict.table.forfeit_entries[0] + 1
        # The host's own log stops where it left: at its forfeit, or just after.
        assert entries_in(tmp_path / "host") <= verdict.table.forfeit_entries[0] + 2
    finally:
        run.kill_all()
