"""Pauses in an escrow game that say what they do, with real processes on
127.0.0.1 and people at the line prompt (protocol.md §9, Pause and Escrow
over the network). Each runs the command the screen printed.

- A joiner's `end` in an escrow game does not pause it: the game goes on and
  carries the seat on once it is silent. The quit question and the last page
  say exactly that, and the printed command brings the player back to watch.
- The relay moved to a person (the host vanished); that person's `end`
  pauses everyone. The printed commands dial the relay the log names now,
  not the host that is gone, and the relay of the moment announces the
  game on the beacon, so a plain `ttr join` finds it.
"""

from __future__ import annotations

import os
import shlex
import signal
import time
from pathlib import Path

from test_net_escrow import Watcher
from test_net_lan import DEADLINE_S, Run, check_game, command, free_port
from test_net_pause import Player

RELAY_TIMEOUT = "2"
# A bound on the waits, never a time asserted: carrying a seat on waits for each
# follower's own clock to see it silent for the relay timeout, after a hand-over,
# which two suites at once on two cores can stretch past one DEADLINE_S.
WAIT_S = 2 * DEADLINE_S


def host(run: Run, port: int) -> None:
    run.start("host", command("host") + ["--bind", "127.0.0.1", "--port", str(port), "--players", "3", "--escrow",
                                         "--as-bot", "--json", "--data-dir", str(run.tmp / "host"), "--timeout", "60",
                                         "--relay-timeout", RELAY_TIMEOUT, "--beacon", "off"])


def bot(run: Run, label: str, port: int) -> None:
    run.start(label, command("join") + [f"127.0.0.1:{port}", "--as-bot", "--json", "--name", label, "--data-dir",
                                        str(run.tmp / label), "--timeout", "60", "--relay-timeout", RELAY_TIMEOUT])


def person(run: Run, port: int, *extra: str) -> Player:
    return Player(run.tmp, "Ann", command("join") + [
        f"127.0.0.1:{port}", "--plain", "--name", "Ann", "--data-dir", str(run.tmp / "Ann"), "--timeout", "60",
        "--relay-timeout", RELAY_TIMEOUT, *extra])


def printed(command_line: str, *extra: str) -> list[str]:
    """A `ttr ...` line as the screen printed it, run with this interpreter."""
    words = shlex.split(command_line)
    assert words[0] == "ttr"
    return command(words[1]) + words[2:] + list(extra)


def until(done: object, what: str, deadline: float) -> None:
    while not done():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"{what} never happened"
        time.sleep(0.1)


def test_a_joiners_end_in_an_escrow_game_says_the_seat_is_carried_on_and_the_command_brings_it_back(
        tmp_path: Path) -> None:
    run = Run(tmp_path)
    deadline = time.monotonic() + WAIT_S
    port = free_port()
    ann: Player | None = None
    try:
        host(run, port)
        run.wait_said("host", "hosting on port", deadline)
        bot(run, "J1", port)
        run.wait_said("J1", "in the lobby", deadline)
        ann = person(run, port)
        ann.wait_for(r"your move", deadline)
        ann.type("keep 1 2")
        ann.wait_for(r"everyone has chosen their tickets", deadline)
        ann.type("quit")
        ann.wait_for(r"end\) go: the others carry your seat on", deadline)  # not "for now (... comes back)"
        ann.type("end")
        assert ann.ended() == 0
        said = ann.text()
        assert "the game goes on without you; once you have been silent for 2 s the others carry your seat on" in said
        assert "nothing is lost" not in said
        back = ann.wait_for(r"come back with: (ttr join [^\n]*)", deadline)[1]
        # Every flag given that still applies comes back with it (it dropped --timeout and the others).
        assert back == (f"ttr join 127.0.0.1:{port} --data-dir {tmp_path / 'Ann'} --plain --timeout 60 "
                        f"--relay-timeout {RELAY_TIMEOUT}")
        seen = Watcher(run, "host")
        until(lambda: seen.look().carried_on, "the carry-on", deadline)
        ann = Player(tmp_path, "Ann", printed(back, "--plain", "--timeout", "60"))  # as printed
        ann.wait_for(r"your seat was carried on by the others at entry \d+", deadline)
        assert ann.proc.wait(timeout=max(1.0, deadline - time.monotonic())) == 0, ann.text()[-3000:]
        run.wait_all(["host", "J1"], deadline)
        check_game(run, ["host", "J1"])
    finally:
        if ann is not None:
            ann.kill()
        run.kill_all()


def test_the_relay_moved_to_a_person_who_pauses_and_the_printed_commands_and_the_beacon_resume(
        tmp_path: Path) -> None:
    run = Run(tmp_path)
    deadline = time.monotonic() + WAIT_S
    port, beacon = free_port(), free_port()
    ann: Player | None = None
    try:
        host(run, port)
        run.wait_said("host", "hosting on port", deadline)
        ann = person(run, port, "--beacon", f"127.0.0.1:{beacon}")  # seat 2: the host's successor
        ann.wait_for(r"in the lobby", deadline)
        bot(run, "J2", port)
        ann.wait_for(r"your move", deadline)
        ann.type("keep 1 2")
        ann.wait_for(r"everyone has chosen their tickets", deadline)
        os.kill(run.procs["host"].pid, signal.SIGKILL)  # the host vanishes for good
        run.procs["host"].wait()
        ann.wait_for(r"we relay from now on", deadline)
        # Ann plays her turns until the table needs the host's seat: then it is carried on.
        seen, turns = Watcher(run, "J2"), 1
        while not seen.look().carried_on:
            assert time.monotonic() < deadline, "the host's seat was never carried on"
            if ann.text().count("your move (help for commands)") > turns:
                turns += 1
                ann.type("draw")
                ann.type("draw")
            time.sleep(0.1)
        ann.type("quit")
        ann.wait_for(r"end\) stop for everyone", deadline)  # Ann relays: her `end` pauses the game
        ann.type("end")
        assert ann.ended() == 0
        mine = ann.wait_for(r"resume with: (ttr join [^\n]*)", deadline)[1]
        relay_port = int(mine.split("--relay-port ")[1].split()[0])
        # Ann relays: her command comes back to where the others come back to
        # (her own reach), not to the host that is gone.
        assert mine == (f"ttr join 127.0.0.1:{relay_port} --relay-port {relay_port} --data-dir {tmp_path / 'Ann'} "
                        f"--plain --timeout 60 --relay-timeout {RELAY_TIMEOUT} --beacon 127.0.0.1:{beacon}")
        # J2 is told by the relay of the moment, and its command dials Ann, not the host that is gone.
        run.wait_said("J2", "the relay (Ann) paused the game at turn", deadline)
        assert run.procs["J2"].wait(timeout=120) == 0
        assert f"it resumes with: ttr join 127.0.0.1:{relay_port} --data-dir {tmp_path / 'J2'}" in run.said("J2")

        # Ann's command as printed (a bot plays her seat on, to finish the game);
        # J2 with a plain `ttr join`: it finds Ann's game on the beacon.
        run.start("Ann", printed(mine, "--as-bot", "--json", "--timeout", "60"))
        run.wait_said("Ann", "we relayed this game when we stopped", deadline)
        run.start("J2", command("join") + ["--beacon", f"127.0.0.1:{beacon}", "--listen", "3", "--as-bot", "--json",
                                           "--name", "J2", "--data-dir", str(tmp_path / "J2"), "--timeout", "60"])
        run.wait_said("J2", f"found Ann's game of Europe at 127.0.0.1:{relay_port}", deadline)
        run.wait_all(["Ann", "J2"], deadline)
        check_game(run, ["Ann", "J2"])
    finally:
        if ann is not None:
            ann.kill()
        run.kill_all()
