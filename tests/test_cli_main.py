"""`ttr` itself: its version, and help that offers only what a command has."""

from __future__ import annotations

import pytest

from p2p_ttr.cli.main import installed_version, main


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"ttr {installed_version()}"


def test_join_help_mentions_no_bots_it_cannot_add(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["join", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--bots" not in text and "--as-bot" in text
    with pytest.raises(SystemExit):
        main(["host", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--bots" in text and "seat 0" not in text
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "you play seat 1" in " ".join(capsys.readouterr().out.split())


def test_every_command_is_in_the_readme_table_and_explains_itself(capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    from p2p_ttr.cli.main import load_commands

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    for command in load_commands():
        assert f"| `ttr {command.name}" in readme, command.name
        with pytest.raises(SystemExit) as done:
            main([command.name, "--help"])
        assert done.value.code == 0 and f"usage: ttr {command.name}" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["watch", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--save FILE" in text and "--as-bot" not in text and "--name" not in text


@pytest.mark.parametrize("command", ["host", "join", "watch", "replay", "selfplay", "verify", "score", "tournament"])
def test_no_help_shows_internals(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """What --help shows is for people: no flag only `ttr host` passes its
    bots (--host-pid), no pointer into the design notes."""
    with pytest.raises(SystemExit):
        main([command, "--help"])
    said = capsys.readouterr().out
    assert "--host-pid" not in said and "design.md" not in said, said
