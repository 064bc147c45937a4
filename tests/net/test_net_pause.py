"""Pausing and resuming on the plain prompt, with real processes on
127.0.0.1: the host's `end` is a pause (exit 0, the turn, the exact command
that resumes), every joiner is told and keeps its data, and the commands
printed resume the game with its history in the log. Then which game a
`ttr host` resumes when its data directory holds several (protocol.md §9,
Pause and Faults). Every wait is bounded; every child is killed."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import time
from pathlib import Path

import pytest

from p2p_ttr.cli.hostedgames import LATEST, chosen_game, unfinished_game
from p2p_ttr.net.store import DataDir, StoreError
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.logfile import write_log
from p2p_ttr.table.messages import Seat
from p2p_ttr.table.peer import Peer
from tests.net.test_net_lan import command, free_port

DEADLINE_S = 180  # a bound on every wait, not a time asserted (a busy machine is slow, not wrong)


class Player:
    """A `ttr host`/`ttr join --plain` fed lines on stdin, its output in a file."""

    def __init__(self, tmp: Path, label: str, args: list[str]) -> None:
        self.out = tmp / f"{label}.out"
        with open(self.out, "ab") as out:
            self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT,
                                         env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.start = self.out.stat().st_size

    def text(self) -> str:
        return self.out.read_bytes()[self.start:].decode()

    def type(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def wait_for(self, pattern: str, deadline: float) -> re.Match[str]:
        while True:
            found = re.search(pattern, self.text())
            if found:
                return found
            assert self.proc.poll() is None or re.search(pattern, self.text()), \
                f"ended ({self.proc.returncode}) without {pattern!r}:\n{self.text()[-3000:]}"
            assert time.monotonic() < deadline, f"{pattern!r} never came:\n{self.text()[-3000:]}"
            time.sleep(0.05)

    def ended(self) -> int:
        code = self.proc.wait(timeout=60)
        assert "Traceback" not in self.text(), self.text()
        return code

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def resumed(printed: str) -> list[str]:
    """The resume command a player was shown, run with this interpreter."""
    words = shlex.split(printed)
    assert words[0] == "ttr"
    return command(words[1]) + words[2:] + ["--plain", "--timeout", "60"]


def test_the_host_pauses_every_joiner_is_told_and_the_printed_commands_resume(tmp_path: Path) -> None:
    port = free_port()
    players: list[Player] = []
    try:
        host = Player(tmp_path, "host", command("host") + [
            "--plain", "--players", "2", "--bind", "127.0.0.1", "--port", str(port),
            "--data-dir", str(tmp_path / "H"), "--timeout", "60"])
        players.append(host)
        host.wait_for(r"hosting on port", time.monotonic() + DEADLINE_S)
        ann = Player(tmp_path, "ann", command("join") + [
            f"127.0.0.1:{port}", "--plain", "--name", "Ann", "--data-dir", str(tmp_path / "A"), "--timeout", "60"])
        players.append(ann)
        deadline = time.monotonic() + DEADLINE_S
        for p in (host, ann):
            p.wait_for(r"your move", deadline)
            p.type("keep 1 2")
        for p in (host, ann):
            p.wait_for(r"everyone has chosen their tickets", deadline)

        host.type("end")
        assert host.ended() == 0  # a pause is a normal end
        said = host.text()
        game = host.wait_for(r"paused at turn 1 \(game ([0-9a-f]{8})\): nothing is lost", deadline)[1]
        command_line = host.wait_for(r"resume with: (ttr host [^\n]*)", deadline)[1]
        assert command_line == (f"ttr host --resume {game} --port {port} --bind 127.0.0.1 "
                                f"--data-dir {tmp_path / 'H'} --plain --timeout 60")  # the flags given, kept
        assert "NOT VERIFIED" not in said and "incomplete" not in said

        # Ann is told at once (not "waiting for the host" for two minutes), and keeps her data.
        assert ann.ended() == 0
        told = ann.wait_for(rf"the host paused the game at turn 1 \(game {game}\); it resumes with: "
                            r"(ttr join [^\n]*)", deadline)
        assert told[1] == f"ttr join 127.0.0.1:{port} --data-dir {tmp_path / 'A'} --plain --timeout 60"
        assert "waiting for the host" not in ann.text()
        meta = json.loads(next((tmp_path / "A" / "games").glob("*/meta.json")).read_text())
        assert meta["finished"] is False

        # The printed commands resume; each player's log shows the game so far.
        host = Player(tmp_path, "host", resumed(command_line))
        players.append(host)
        ann = Player(tmp_path, "ann", resumed(told[1]))
        players.append(ann)
        deadline = time.monotonic() + DEADLINE_S
        host.wait_for(rf"resumed game {game}\w* at turn \d+\nthe game so far:\n(.*\n)*You kept ", deadline)
        ann.wait_for(rf"reloaded game {game}\w* at turn \d+\nthe game so far:\n(.*\n)*You kept ", deadline)
        ann.wait_for(r"host is back|your move|plays first", deadline)
        host.wait_for(r"Ann is back", deadline)

        # A joiner pauses for itself: the same command resumes it.
        ann.type("end")
        assert ann.ended() == 0
        assert f"resume with: ttr join 127.0.0.1:{port} --data-dir {tmp_path / 'A'}" in ann.text()
        host.type("end")
        assert host.ended() == 0
    finally:
        for p in players:
            p.kill()


def hosted_game(data: DataDir, names: tuple[str, ...], finished: bool = False) -> str:
    """A game folder as a host leaves it: the seating in the log, meta.json."""
    host = data.identity()
    seats = (Seat(names[0], host.public),) + tuple(Seat(n, Identity.generate().public) for n in names[1:])
    game_id = os.urandom(16)
    store = data.game(game_id)
    store.path.mkdir(parents=True)
    write_log(store.log_path, game_id, [Peer(0, host, lambda v, s: None).open_game(seats, game_id)])
    store.save_meta({"role": "host", "name": names[0], "port": 7311, "finished": finished})
    return game_id.hex()


def test_which_game_a_host_resumes_when_its_data_directory_holds_several(tmp_path: Path) -> None:
    data = DataDir(tmp_path / "D")
    said: list[str] = []
    assert unfinished_game(data, said.append, None) is None  # nothing to resume: a new game
    first = hosted_game(data, ("host", "Ann"))
    assert unfinished_game(data, said.append, None) == first and "resuming it" in said[-1]
    hosted_game(data, ("host", "Old"), finished=True)  # finished games are never offered
    time.sleep(0.01)
    second = hosted_game(data, ("host", "Bob", "Cy"))
    os.utime(data.game(bytes.fromhex(second)).meta_path, (time.time() + 5, time.time() + 5))

    # A script cannot answer: the games are listed, the latest first, and it stops.
    with pytest.raises(StoreError) as stopped:
        unfinished_game(data, said.append, None)
    listed = str(stopped.value)
    assert listed.index(second[:8]) < listed.index(first[:8]) and "Old" not in listed
    assert "host, Bob, Cy; 1 entries, last played" in listed and "--resume alone takes the latest" in listed

    # At a terminal, the player picks one (a wrong answer is asked again), or a new game.
    answers = iter(["7", "2"])
    assert unfinished_game(data, said.append, lambda _: next(answers)) == first
    assert "type a number from 1 to 2, or n" in said
    assert unfinished_game(data, said.append, lambda _: "") == second  # Enter: the latest
    assert unfinished_game(data, said.append, lambda _: "n") is None

    # --resume alone takes the latest; one that matches nothing lists the games there.
    assert chosen_game(data, LATEST) == second
    assert chosen_game(data, first[:6]) == first
    for wanted in ("abcdef99" if not first.startswith("abcdef99") else "0" * 8, "not-hex"):
        with pytest.raises(StoreError) as unknown:
            chosen_game(data, wanted)
        assert f"the unfinished games hosted from {data.path}" in str(unknown.value)
        assert second[:8] in str(unknown.value) and first[:8] in str(unknown.value)


def test_resume_of_an_unknown_game_lists_the_games_and_exits_1(tmp_path: Path) -> None:
    data = DataDir(tmp_path / "D")
    game = hosted_game(data, ("host", "Ann"))
    other = "0" * 8 if not game.startswith("0" * 8) else "f" * 8
    done = subprocess.run(command("host") + ["--plain", "--resume", other, "--data-dir", str(tmp_path / "D"),
                                             "--beacon", "off"],
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 1
    assert f"no game {other!r}" in done.stdout and f"  {game[:8]}  host, Ann; 1 entries" in done.stdout


def test_a_game_whose_first_entry_was_never_written_is_not_resumed(tmp_path: Path) -> None:
    """A full disk while writing the seating: the log holds its header only,
    and nothing reached anyone. `ttr host` says so and starts a new game
    (no `--new` needed, no talk of a joiner's copy of the log); naming it
    with --resume says it never started."""
    data = DataDir(tmp_path / "D")
    data.identity()
    game_id = os.urandom(16)
    store = data.game(game_id)
    store.path.mkdir(parents=True)
    write_log(store.log_path, game_id, [])  # what a failed first append leaves (it is cut back)
    store.save_meta({"role": "host", "name": "host", "port": 7311, "finished": False})
    said: list[str] = []
    assert unfinished_game(data, said.append, None) is None
    assert said == [f"game {game_id.hex()[:8]} hosted from here never started (its first entry was never written: "
                    "nothing of it reached anyone): it is not resumed"]
    with pytest.raises(StoreError, match="no unfinished game"):
        chosen_game(data, LATEST)
    done = subprocess.run(command("host") + ["--plain", "--resume", game_id.hex()[:8], "--data-dir", str(data.path),
                                             "--beacon", "off", "--bind", "127.0.0.1", "--port", "0"],
                          capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
    assert done.returncode == 1 and "never started" in done.stdout and "`ttr host --new` starts" in done.stdout
    assert "joiner's copy" not in done.stdout and "Traceback" not in done.stdout + done.stderr
    new = subprocess.run(command("host") + ["--as-bot", "--players", "2", "--timeout", "2", "--beacon", "off",
                                            "--data-dir", str(data.path), "--bind", "127.0.0.1", "--port", "0"],
                         capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
    assert "never started" in new.stdout + new.stderr and "only 1 of 2 players joined" in new.stdout + new.stderr


def test_flags_that_do_not_fit_the_unfinished_game_are_never_ignored_in_silence(tmp_path: Path) -> None:
    """`ttr host --players 3 --bots 1` beside a paused 4-player game with 3
    bots: a script is told the game is resumed as it is, which flags do not
    apply, and the command that starts the game they describe; at a
    terminal the player chooses. The printed command starts a new game."""
    import argparse

    data = DataDir(tmp_path / "D")
    game = hosted_game(data, ("host", "Bot1", "Bot2", "Bot3"))
    for bot in ("Bot1", "Bot2", "Bot3"):
        (data.path / "bots" / bot / "games" / game).mkdir(parents=True)
    flags = argparse.Namespace(players=3, bots=1, escrow=False, data_dir=data.path)
    said: list[str] = []
    assert unfinished_game(data, said.append, None, flags) == game
    printed = f"ttr host --new --players 3 --bots 1 --data-dir {data.path}"
    assert said[-1] == (f"game {game[:8]} hosted from here is not finished: resuming it as it is; --players 3 (it "
                        f"has 4), --bots 1 (it has 3) do not apply to it (`{printed}` starts a new game with them "
                        "instead)")
    answers = iter(["maybe", "n"])
    assert unfinished_game(data, said.append, lambda _: next(answers), flags) is None
    assert "type r to resume it, or n for a new game" in said
    assert unfinished_game(data, said.append, lambda _: "r", flags) == game
    fitting = argparse.Namespace(players=4, bots=3, escrow=False, data_dir=data.path)
    assert unfinished_game(data, said.append, None, fitting) == game and said[-1].endswith("resuming it "
                                                                                          "(`ttr host --new` starts another)")
    # The same, from the command line, then the command it printed.
    common = ["--bind", "127.0.0.1", "--port", "0", "--beacon", "off", "--timeout", "3"]
    done = subprocess.run(command("host") + ["--players", "3", "--bots", "1", "--as-bot", "--data-dir", str(data.path),
                                             *common],
                          capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
    assert f"(`{printed}` starts a new game with them instead)" in done.stdout + done.stderr
    assert f"resumed game {game}" in done.stdout + done.stderr
    new = subprocess.run(resumed(printed)[:-3] + ["--as-bot", *common], capture_output=True, text=True, timeout=180,
                         stdin=subprocess.DEVNULL)
    told = new.stdout + new.stderr
    assert "hosting on port" in told and "resum" not in told and "of 3 players joined" in told, told
