"""The real `ttr host --bots 2` on the full screen, in a pseudo-terminal
(tmux): the screen shows the map, the hand and the players; we keep our
first tickets, draw two cards, draw tickets on our next turn, and quit."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


class Terminal:
    """A tmux server of our own (its own socket); each session one window of a
    given size (100x30 unless told)."""

    def __init__(self, socket: str, session: str = "ttr") -> None:
        self.socket = socket
        self.session = session

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True, capture_output=True,
                              text=True).stdout

    def start(self, command: str, size: tuple[int, int] = (100, 30)) -> None:
        self.tmux("new-session", "-d", "-s", self.session, "-x", str(size[0]), "-y", str(size[1]), command)

    def other(self, session: str) -> Terminal:
        """Another window on the same tmux server."""
        return Terminal(self.socket, session)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", self.session, "-l", text)  # -l: "end" is text, not the End key
        self.tmux("send-keys", "-t", self.session, "Enter")

    def key(self, name: str) -> None:
        self.tmux("send-keys", "-t", self.session, name)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.session)

    def wait_for(self, pattern: str, timeout: float = 90.0) -> str:
        """The screen once ``pattern`` shows on it (an event; ``timeout`` only
        bounds the wait, generously: the machine may be busy)."""
        end = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if re.search(pattern, screen):
                return screen
            if time.monotonic() > end:
                raise AssertionError(f"{pattern!r} never showed; the screen:\n{screen}")
            time.sleep(0.2)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    term = Terminal(f"ttr-test-{os.getpid()}-{tmp_path.name}")  # one server per test
    yield term
    subprocess.run(["tmux", "-L", term.socket, "kill-server"], capture_output=True)


def test_host_with_bots_on_the_full_screen(terminal: Terminal, tmp_path: Path) -> None:
    done = tmp_path / "exit"
    command = (f"cd {ROOT} && NO_COLOR=1 {sys.executable} -m p2p_ttr.cli.main host --bots 2 --bind 127.0.0.1 --port 0 "
               f"--data-dir {tmp_path / 'data'} --timeout 30 2>{tmp_path / 'stderr'}; echo $? > {done}; sleep 30")
    terminal.start(command)

    screen = terminal.wait_for(r"OFFERED  keep 2 or more")
    for seen in ("Ticket to Ride: Europe", "PLAYERS", "1 red    you", "2 blue   Bot1", "3 green  Bot2",
                 "YOUR HAND  4 cards", "FACE-UP", "LON", "PAR", "MOS", "─ log ─"):
        assert seen in screen, seen
    assert screen.count("●") + screen.count("■") + screen.count("□") >= 40  # the cities of the map

    terminal.type("keep 1 2")
    terminal.wait_for(r"your move: draw, claim")
    terminal.type("draw")
    terminal.wait_for(r"your move: take your second card")
    terminal.type("draw")
    terminal.wait_for(r"You drew .* from the deck")
    screen = terminal.wait_for(r"turn 4 · +your turn")  # both bots have played
    assert re.search(r"Bot\d (drew|took|claimed|kept|built|went)", screen)
    assert "YOUR HAND  6 cards" in screen

    terminal.type("tickets")
    terminal.wait_for(r"OFFERED  keep 1 or more")
    terminal.type("keep 1")
    terminal.wait_for(r"You kept \w+–\w+ \(\d+\)")

    terminal.type("claim Lisboa Moskva")
    terminal.wait_for(r"there is no route between Lisboa and Moskva")

    terminal.type("quit")
    terminal.wait_for(r"Leave the game\?")
    terminal.type("end")
    screen = terminal.wait_for(r"resume with: ttr host --resume [0-9a-f]{8} --port \d+ --bind 127.0.0.1", timeout=120)
    assert re.search(r"paused at turn \d+ \(game [0-9a-f]{8}\): nothing is lost", screen), screen
    terminal.key("Enter")
    end = time.monotonic() + 20
    while not done.exists() and time.monotonic() < end:
        time.sleep(0.2)
    assert done.read_text().strip() == "0"  # a pause is a normal end
    screen = terminal.screen()  # the full screen is gone: what it printed on leaving stays
    assert "resume with: ttr host --resume" in screen and "NOT VERIFIED" not in screen
    assert "Traceback" not in screen and "Traceback" not in (tmp_path / "stderr").read_text()
