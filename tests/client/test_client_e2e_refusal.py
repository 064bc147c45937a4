"""A refusal on the real full screen at 80x24 (tmux): Ann's game with this
host is unfinished, and the host was started again with --new. Her join is
refused before any game; the last page says why in full (its first line
too, which the log pane cut), with no "the signed log so far: None"; the
command it prints, run as printed, joins the new game."""

from __future__ import annotations

import re
import signal
import sys
import time
from pathlib import Path

from test_client_e2e import ROOT, Terminal, pytestmark, terminal  # noqa: F401 (the fixture, the skip)
from test_client_e2e_pause import exit_code, whole
from test_client_e2e_table import SMALL, free_port

sys.path.insert(0, str(ROOT / "tests" / "net"))
from test_net_lan import Run, wait_for_entries  # noqa: E402


def test_a_refusal_says_why_in_full_at_80x24_and_its_command_joins_the_new_game(terminal: Terminal,
                                                                                tmp_path: Path) -> None:
    run = Run(tmp_path)
    deadline = time.monotonic() + 120
    port = free_port()
    try:
        run.host("host", port, "--players", "2")
        run.wait_said("host", "hosting on port", deadline)
        run.join("Ann", port)
        wait_for_entries(run, "Ann", 12, deadline)  # Ann's game is under way: then both stop dead
        for label in ("host", "Ann"):
            run.procs[label].send_signal(signal.SIGKILL)
            run.procs[label].wait()
        run.host("host", port, "--players", "2", "--new")  # another game at the same address
        run.wait_said("host", "hosting on port", deadline)

        ann = terminal.other("ann")
        ann.start(f"cd {ROOT} && NO_COLOR=1 {sys.executable} -m p2p_ttr.cli.main join 127.0.0.1:{port} --name Ann "
                  f"--data-dir {tmp_path / 'Ann'} --timeout 60 2>{tmp_path / 'ann.err'}; "
                  f"echo $? > {tmp_path / 'ann.exit'}; sleep 60", SMALL)
        screen = ann.wait_for(r"Not in a game", timeout=180)
        page = " ".join(line.strip() for line in screen.split("Not in a game")[1].split("Enter or q leaves")[0]
                        .splitlines())
        assert f"the host at 127.0.0.1:{port} opened a new game, but game" in page, screen  # the first words too
        assert "None" not in screen
        ann.key("Enter")
        assert exit_code(tmp_path, "ann") == "1"
        printed = re.search(r"`(ttr join [^`]*--new[^`]*)` joins the new game instead", whole(ann))
        assert printed is not None, whole(ann)
        assert printed[1] == f"ttr join 127.0.0.1:{port} --new --data-dir {tmp_path / 'Ann'}"

        again = terminal.other("again")
        again.start(f"cd {ROOT} && NO_COLOR=1 {sys.executable} -m p2p_ttr.cli.main {printed[1][4:]} --timeout 60 "
                    f"2>{tmp_path / 'again.err'}; sleep 60", SMALL)
        again.wait_for(r"OFFERED  keep 2 or more", timeout=180)  # seated in the new game
        assert "Traceback" not in (tmp_path / "ann.err").read_text() + (tmp_path / "again.err").read_text()
    finally:
        run.kill_all()
