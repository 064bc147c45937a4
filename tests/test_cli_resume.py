"""The command a pause prints resumes the game as it was played: every
flag the player gave that still applies comes back (`--beacon off`, a
`--timeout`, `--plain`), and a seat the relay moved to dials itself (where
the others come back to), never the host the relay moved away from."""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from p2p_ttr.cli.commands import host as host_command
from p2p_ttr.cli.commands import join as join_command
from p2p_ttr.cli.hostedgames import resume_command as host_resume
from p2p_ttr.cli.resumeflags import defaults_of
from p2p_ttr.net.pause import relay_address
from p2p_ttr.net.store import DataDir


def parsed(add_arguments: object, argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)  # type: ignore[operator]
    return parser.parse_args(argv)


def test_the_host_resume_command_keeps_the_flags_given() -> None:
    args = parsed(host_command.add_arguments, ["--beacon", "off", "--timeout", "60", "--plain", "--bots", "3",
                                               "--players", "4", "--data-dir", "/tmp/h", "--name", "Ann"])
    said = host_resume("0123456789abcdef", 7400, args, defaults_of(host_command.add_arguments))
    assert said.startswith("ttr host --resume 01234567 --port 7400 --data-dir /tmp/h")
    assert "--beacon off" in said and "--timeout 60" in said and "--plain" in said
    # The game's shape is the log's now: not given again.
    assert "--bots" not in said and "--players" not in said and "--name" not in said
    plain = parsed(host_command.add_arguments, [])
    assert host_resume("0123456789abcdef", 7400, plain, defaults_of(host_command.add_arguments)) == \
        "ttr host --resume 01234567 --port 7400"


def test_the_join_resume_command_keeps_the_flags_given() -> None:
    args = parsed(join_command.add_arguments, ["10.0.0.5:7311", "--beacon", "7400", "--relay-timeout", "45",
                                               "--advertise", "192.0.2.1:9000", "--as-bot", "--bot-level", "hard"])
    said = join_command.resume_command("10.0.0.5:7311", args)
    assert said.startswith("ttr join 10.0.0.5:7311")
    for words in ("--beacon 7400", "--relay-timeout 45", "--advertise 192.0.2.1:9000", "--as-bot",
                  "--bot-level hard"):
        assert words in said, said
    assert join_command.resume_command("10.0.0.5:7311", parsed(join_command.add_arguments, ["h"])) == \
        "ttr join 10.0.0.5:7311"


@dataclass
class MovedTable:
    """What relay_address reads of a table whose relay moved."""

    relay: int
    handovers: tuple[object, ...] = (object(),)
    reach: dict[int, tuple[str, int]] = field(default_factory=lambda: {0: ("10.0.0.1", 7311),
                                                                        1: ("10.0.0.2", 40123)})


def test_a_seat_the_relay_moved_to_comes_back_to_itself_not_to_the_old_host() -> None:
    assert relay_address(MovedTable(relay=1), 1, "10.0.0.1:7311") == "10.0.0.2:40123"  # type: ignore[arg-type]
    assert relay_address(MovedTable(relay=1), 2, "10.0.0.1:7311") == "10.0.0.2:40123"  # type: ignore[arg-type]
    unmoved = MovedTable(relay=0, handovers=())
    assert relay_address(unmoved, 2, "10.0.0.1:7311") == "10.0.0.1:7311"  # type: ignore[arg-type]


def test_a_second_ttr_on_a_data_directory_in_use_is_told_so_before_any_question(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`ttr host` (or `ttr join`) beside a game still running from the same
    data directory: refused at once, before it asks which game to resume
    (it used to ask, and say the directory was in use only after)."""
    from p2p_ttr.cli.main import main

    for game in ("aa" * 16, "bb" * 16):  # two unfinished games hosted from here: the host would ask which
        folder = tmp_path / "games" / game
        folder.mkdir(parents=True)
        (folder / "meta.json").write_text(json.dumps({"role": "host", "finished": False}))
    running = DataDir(tmp_path)
    running.claim()  # the ttr already playing from there
    assert main(["host", "--data-dir", str(tmp_path), "--bind", "127.0.0.1", "--port", "0", "--beacon", "off"]) == 1
    said = capsys.readouterr()
    told = said.out + said.err
    assert "is in use by another ttr" in told and "unfinished" not in told and "resum" not in told, told
    assert main(["join", "127.0.0.1:1", "--data-dir", str(tmp_path)]) == 1
    said = capsys.readouterr()
    assert "is in use by another ttr" in said.out + said.err
