"""The relay moves (protocol.md §9 "Hand-over"), with real processes on
127.0.0.1: the host forfeits and the next seat relays to the end; a host
that forfeits a 2-player game ends it. Every wait is on an event (a line
said, an entry in a log), never on the order processes happen to start in."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from test_net_lan import DEADLINE_S, Run, check_game, command, entries_in, free_port, wait_for_entries

from p2p_ttr.table.logfile import read_log
from p2p_ttr.table.verify import verify_entries


def person_host(run: Run, port: int, players: int, timeout: int = 60) -> subprocess.Popen[bytes]:
    """`ttr host --plain` for a person typing on stdin; what it says goes to host.1.out."""
    run.runs["host"] = 1
    with open(run.tmp / "host.1.out", "wb") as out:
        host = subprocess.Popen(
            command("host") + ["--bind", "127.0.0.1", "--port", str(port), "--plain", "--players", str(players),
                               "--name", "Hoster", "--data-dir", str(run.tmp / "host"), "--timeout", str(timeout)],
            stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT)
    run.procs["host"] = host
    return host


def type_line(proc: subprocess.Popen[bytes], line: str) -> None:
    assert proc.stdin is not None
    proc.stdin.write(line.encode() + b"\n")
    proc.stdin.flush()


def test_the_host_forfeits_and_the_next_seat_relays_to_the_end(tmp_path: Path) -> None:
    """Without escrow: the host's player types `forfeit` mid-game. Its secrets
    go into the log, the table plays its seat, seat 2 takes over the relay
    with seat 3's follow request, and both finish with equal summaries and
    logs that verify and name the hand-over."""
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port = free_port()
    try:
        host = person_host(run, port, 3)
        run.wait_said("host", "hosting on port", deadline)
        run.join_in_order(["J", "K"], lambda label: run.join(label, port), deadline)  # J is seat 2, K seat 3
        wait_for_entries(run, "J", 12, deadline)  # the keys are in
        type_line(host, "forfeit")
        run.wait_said("host", "Forfeit for good?", deadline)
        type_line(host, "forfeit")  # the second confirms
        assert host.wait(timeout=max(1.0, deadline - time.monotonic())) == 0, run.said("host")[-3000:]
        said = run.said("host")
        assert "you forfeited this game; the others play on" in said and "the next seat relays" in said
        run.wait_all(["J", "K"], deadline)
        check_game(run, ["J", "K"])
        assert "we relay from now on" in run.said("J")
        assert "turning to J, who relays next" in run.said("K")
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


def test_a_host_that_forfeits_a_two_player_game_ends_it_and_goes(tmp_path: Path) -> None:
    """Two players: the host's forfeit leaves one seat in play, so the game is
    conceded to the other. The host is told the game ended (not that the
    others play on) and goes as soon as the other holds its forfeit, not
    after its --timeout (here far beyond the test's deadline); the other
    takes the relay, finishes the conceded game and wins, and the host
    follows it to the end (its log verifies); `ttr host` then offers no game
    to resume."""
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port = free_port()
    try:
        host = person_host(run, port, 2, timeout=3600)
        run.wait_said("host", "hosting on port", deadline)
        # J's --timeout beyond the deadline: J, relaying the conceded end,
        # must learn from the host's last words that it holds the end, not
        # wait its timeout out.
        run.join("J", port, timeout=3600)
        run.wait_said("host", "your move", deadline)  # the first tickets: the game is under way
        type_line(host, "forfeit")
        run.wait_said("host", "Forfeit for good?", deadline)
        type_line(host, "forfeit")
        assert host.wait(timeout=max(1.0, deadline - time.monotonic())) == 0, run.said("host")[-3000:]
        said = run.said("host")
        assert "the game is conceded: J is the last one playing" in said
        assert "you forfeited this game, and it ended with that" in said and "the others play on" not in said
        run.wait_all(["J"], deadline)
        (summary,) = check_game(run, ["J"])
        assert summary["conceded"] and summary["conceded_to"] == 1  # to J, seat 2
        (log,) = (tmp_path / "host" / "games").glob("*/game.log")  # the host stayed for the end: its log verifies
        assert verify_entries(read_log(log)[1]).fair
        again = subprocess.run(command("host") + ["--as-bot", "--bind", "127.0.0.1", "--port", "0", "--beacon", "off",
                                                  "--data-dir", str(tmp_path / "host"), "--players", "2",
                                                  "--timeout", "2"],
                               stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=180)
        told = again.stdout + again.stderr
        assert "resuming it" not in told and "only 1 of 2 players joined" in told, told  # a new lobby
    finally:
        run.kill_all()


def test_a_host_that_forfeits_against_its_own_bot_names_a_log_that_verifies(tmp_path: Path) -> None:
    """`ttr host --bots 1`, tickets kept, `forfeit` twice: the game is
    conceded to Bot1. The host's bot is its child, stopped when the host
    goes: so the host stays, following Bot1 (the relay now) until its log
    holds the end (Bot1's shares, every audit), and Bot1 waits for the host
    to hold it. The log the host's last words name verifies, and so does
    Bot1's."""
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    run.runs["host"] = 1
    with open(tmp_path / "host.1.out", "wb") as out:
        host = subprocess.Popen(
            command("host") + ["--bind", "127.0.0.1", "--port", "0", "--plain", "--bots", "1", "--beacon", "off",
                               "--name", "Hoster", "--data-dir", str(tmp_path / "host"), "--timeout", "3600"],
            stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT)
    run.procs["host"] = host
    try:
        run.wait_said("host", "your move", deadline)
        type_line(host, "keep 1 2 3")
        run.wait_said("host", "everyone has chosen their tickets", deadline)
        type_line(host, "forfeit")
        run.wait_said("host", "Forfeit for good?", deadline)
        type_line(host, "forfeit")
        assert host.wait(timeout=max(1.0, deadline - time.monotonic())) == 0, run.said("host")[-3000:]
        said = run.said("host")
        assert "the game is conceded: Bot1 is the last one playing" in said
        assert "that leaves Bot1 alone in play, so the game ends" in said and "next seat relays" not in said
        (log,) = (tmp_path / "host" / "games").glob("*/game.log")
        assert f"the signed log is {log}" in said and said.count(str(log)) == 2  # said once: the line and its command
        verdict = verify_entries(read_log(log)[1])
        assert verdict.fair and verdict.conceded and verdict.conceded_to == 1, verdict
        (bots_log,) = (tmp_path / "host" / "bots" / "Bot1" / "games").glob("*/game.log")
        assert verify_entries(read_log(bots_log)[1]).fair
    finally:
        run.kill_all()
