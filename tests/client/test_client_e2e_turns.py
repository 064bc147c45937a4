"""The real `ttr host --bots 3` at 80x24 (the classic terminal, no map): when
our turn comes back, every bot's last move is on screen, whatever the log
had room for; PageUp then shows the rows of the log above, stopping at the top."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from test_client_e2e import ROOT, Terminal, pytestmark, terminal  # noqa: F401 (the fixture, the skip)

WAIT = 90  # seconds: generous, for a machine busy with other tests (no test asserts a time)
DEEDS = r"(took|drew|claimed|built a station|gave up tunnel|tunnel|passed|kept)"


def test_80x24_shows_what_each_bot_did_since_our_turn(terminal: Terminal, tmp_path: Path) -> None:
    command = (f"cd {ROOT} && NO_COLOR=1 {sys.executable} -m p2p_ttr.cli.main host --bots 3 --bind 127.0.0.1 --port 0 "
               f"--data-dir {tmp_path / 'data'} --timeout 60 2>{tmp_path / 'stderr'}; sleep 60")
    terminal.start(command, (80, 24))
    terminal.wait_for(r"OFFERED  keep 2 or more", timeout=WAIT)
    terminal.type("keep 1 2")
    terminal.wait_for(r"your move: draw, claim", timeout=WAIT)
    terminal.type("draw")
    terminal.wait_for(r"your move: take your second card", timeout=WAIT)
    terminal.type("draw")
    # Our turn again: the three bots have each played a whole turn meanwhile.
    screen = terminal.wait_for(r"turn 5 · +your turn", timeout=WAIT)
    rows = screen.splitlines()
    title = next(i for i, row in enumerate(rows) if row.startswith("PLAYERS"))
    assert "LAST TURN (• since yours)" in rows[title], screen
    for bot in (1, 2, 3):
        row = rows[title + 1 + bot]
        assert f"Bot{bot}" in row, screen
        beside = row.split("│", 1)[1]
        assert re.match(rf" • {DEEDS}", beside), screen  # its whole turn, marked as played since ours
    assert rows[title + 1].split("│", 1)[1].strip().startswith("drew")  # ours: the two cards we drew

    # The log above, a pane at a time, to its first row.
    terminal.key("PageUp")
    screen = terminal.wait_for(r"─ log ─  rows \d+–\d+ of \d+, \d+ newer rows? below \(PageDown\)")
    for _ in range(40):
        terminal.key("PageUp")
    screen = terminal.wait_for(r"─ log ─  rows 1–\d+ of \d+")
    log = screen.split("─ log ─", 1)[1].splitlines()[1:4]
    assert all(row.strip() for row in log), screen  # never a blank pane past the top
    terminal.key("PageDown")
    terminal.type("end")
    terminal.wait_for(r"resume with: ttr host --resume", timeout=WAIT)
    assert "Traceback" not in (tmp_path / "stderr").read_text()
