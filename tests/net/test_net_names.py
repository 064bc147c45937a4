"""The names a player gets without --name: their login name, capitalised,
for the host and a joiner alike; a joiner whose default name is taken at
the table gets a distinct one (a chosen --name that is taken is still
refused: the player picked it)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_net_lan import DEADLINE_S, Run, command, free_port

from p2p_ttr.cli.names import capitalised, login_name
from p2p_ttr.net.lobby import another_name
from p2p_ttr.table.messages import valid_name


def test_the_login_name_is_written_as_a_name(monkeypatch: pytest.MonkeyPatch) -> None:
    assert capitalised("root") == "Root" and capitalised("ann") == "Ann"
    assert capitalised("McKay") == "McKay" and capitalised("ANN") == "ANN" and capitalised("") == ""
    monkeypatch.setenv("LOGNAME", "bob")
    assert login_name() == "Bob"
    monkeypatch.setenv("LOGNAME", "x" * 40)
    assert login_name() == "X" + "x" * 23  # cut to 24


def test_a_taken_default_name_becomes_the_next_distinct_one() -> None:
    assert another_name("Root") == "Root2" and another_name("Root2") == "Root3" and another_name("Bo9") == "Bo10"
    assert another_name("x" * 24) == "x" * 23 + "2" and another_name("7") == "8"


@given(st.text(min_size=1, max_size=24).filter(valid_name))
def test_another_name_is_always_a_new_valid_name(name: str) -> None:
    new = another_name(name)
    assert new != name and len(new) <= 24 and another_name(new) != new


def test_two_joiners_with_one_login_name_both_sit(tmp_path: Path) -> None:
    """Two `ttr join` with no --name from the same login (ann): the first is
    Ann, the second is told Ann is taken and sits as Ann2 (it used to be
    refused); the host with no --name is the login name too (bob: Bob)."""
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port = free_port()
    host_env = {**os.environ, "LOGNAME": "bob"}
    joiner_env = {**os.environ, "LOGNAME": "ann"}

    def start(label: str, args: list[str], env: dict[str, str]) -> None:
        run.runs[label] = 1
        with open(tmp_path / f"{label}.1.out", "wb") as out:
            run.procs[label] = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                                env=env)

    try:
        start("host", command("host") + ["--bind", "127.0.0.1", "--port", str(port), "--plain", "--beacon", "off",
                                         "--players", "4", "--data-dir", str(tmp_path / "host")], host_env)
        run.wait_said("host", "hosting on port", deadline)
        for label in ("first", "second"):
            start(label, command("join") + [f"127.0.0.1:{port}", "--as-bot", "--data-dir", str(tmp_path / label)],
                  joiner_env)
            run.wait_said(label, "in the lobby", deadline)
        run.wait_said("second", "in the lobby: Bob, Ann, Ann2", deadline)
        assert "the name 'Ann' is taken at this table: joining as 'Ann2'" in run.said("second")
        assert "refused" not in run.said("second")
    finally:
        run.kill_all()
