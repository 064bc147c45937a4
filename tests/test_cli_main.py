"""`ttr` itself: its version, and help that offers only what a command has."""

from __future__ import annotations

import pytest

from cli.main import installed_version, main


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
