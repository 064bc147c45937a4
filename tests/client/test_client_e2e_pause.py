"""Pause and resume on two real full-screen clients in tmux, one at 80x24
and one at 160x45: the host's `quit` → `end` pauses (exit 0, the resume
command on screen); the joiner is told at once and shows its own resume
command; both commands, as printed, resume the game, and each log shows the
game so far. Then the joiner pauses for itself."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest

from test_client_e2e import ROOT, Terminal, pytestmark, terminal  # noqa: F401 (the fixture, the skip)
from test_client_e2e_table import LARGE, SMALL, free_port


def run(command: str, tmp: Path, name: str) -> str:
    """``command`` (a `ttr ...` line as a player would type it) in a shell that keeps its exit code."""
    assert command.startswith("ttr ")
    return (f"cd {ROOT} && NO_COLOR=1 {sys.executable} -m p2p_ttr.cli.main {command[4:]} --timeout 60 "
            f"2>>{tmp / (name + '.err')}; echo $? > {tmp / (name + '.exit')}; sleep 60")


def whole(term: Terminal) -> str:
    """The screen with wrapped lines joined again (a long command fills two rows)."""
    return term.tmux("capture-pane", "-p", "-J", "-t", term.session)


def exit_code(tmp: Path, name: str) -> str:
    path = tmp / (name + ".exit")
    end = time.monotonic() + 60
    while not path.exists() and time.monotonic() < end:
        time.sleep(0.1)
    code = path.read_text().strip()
    path.unlink()
    return code


@pytest.mark.parametrize("host_size", [SMALL, LARGE], ids=["host-80x24", "host-160x45"])
def test_pause_and_resume_on_the_full_screen(terminal: Terminal, tmp_path: Path, host_size: tuple[int, int]) -> None:
    port = free_port()
    join_size = LARGE if host_size == SMALL else SMALL
    host, ann = terminal.other("host"), terminal.other("ann")
    host.start(run(f"ttr host --players 2 --bind 127.0.0.1 --port {port} --data-dir {tmp_path / 'H'}",
                   tmp_path, "host"), host_size)
    host.wait_for(r"hosting on port|lobby")
    ann.start(run(f"ttr join 127.0.0.1:{port} --name Ann --data-dir {tmp_path / 'A'}", tmp_path, "ann"), join_size)
    for term in (host, ann):
        term.wait_for(r"OFFERED  keep 2 or more")
        term.type("keep 1 2")
    for term in (host, ann):
        term.wait_for(r"everyone has chosen their tickets")

    host.type("quit")
    host.wait_for(r"Leave the game\?")
    host.type("end")
    screen = host.wait_for(r"paused at turn 1 \(game [0-9a-f]{8}\): nothing is lost")
    game = re.search(r"\(game ([0-9a-f]{8})\)", screen)
    assert game is not None and "resume with: ttr host --resume" in screen and "NOT VERIFIED" not in screen
    # The joiner is told at once, not "waiting for the host" for two minutes.
    screen = ann.wait_for(r"the host paused the game at turn 1")
    assert f"(game {game[1]})" in screen and "waiting for the host" not in screen
    for term, name in ((host, "host"), (ann, "ann")):
        term.key("Enter")  # the last page: Enter leaves
        assert exit_code(tmp_path, name) == "0"
    # Gone from the full screen, each terminal keeps the exact command that resumes.
    host_cmd = re.search(r"resume with: (ttr host [^\n]*)", whole(host))
    ann_cmd = re.search(r"it resumes with: (ttr join [^\n]*)", whole(ann))
    assert host_cmd is not None and ann_cmd is not None, (whole(host), whole(ann))
    # The flags given come back with it (--timeout: every command here is started with it).
    assert host_cmd[1].strip() == (f"ttr host --resume {game[1]} --port {port} --bind 127.0.0.1 "
                                   f"--data-dir {tmp_path / 'H'} --timeout 60")
    assert ann_cmd[1].strip() == f"ttr join 127.0.0.1:{port} --data-dir {tmp_path / 'A'} --timeout 60"

    # Those commands resume: each log shows the game so far, not just "resumed at entry N".
    host, ann = terminal.other("host2"), terminal.other("ann2")
    host.start(run(host_cmd[1].strip(), tmp_path, "host"), host_size)
    ann.start(run(ann_cmd[1].strip(), tmp_path, "ann"), join_size)
    host.wait_for(r"Ann is back")
    for term, size in ((host, host_size), (ann, join_size)):
        # Before the pause, only the tickets were kept: these lines come from the history.
        # A small log pane may show only the last of them: PageUp shows the rows above.
        screen = term.wait_for(r"everyone has chosen their tickets")
        if not re.search(r"\w+ kept 2 tickets", screen):
            term.key("PageUp")
        screen = term.wait_for(r"\w+ kept 2 tickets")
        if size == LARGE:  # room for the whole history in the log pane
            assert "the game so far:" in screen and re.search(r"You kept \w+", screen), screen

    # The joiner pauses for itself: the same command resumes its seat.
    ann.type("end")
    ann.wait_for(r"paused at turn 1")
    ann.key("Enter")
    assert exit_code(tmp_path, "ann") == "0"
    assert f"resume with: {ann_cmd[1].strip()}" in whole(ann)
    host.type("end")
    host.wait_for(r"paused at turn 1")
    host.key("Enter")
    assert exit_code(tmp_path, "host") == "0"
    for name in ("host", "ann"):
        assert "Traceback" not in (tmp_path / f"{name}.err").read_text()
