"""Where a networked command's notes go: stdout for a person, stderr when
stdout is reserved for the final JSON."""

from __future__ import annotations

import queue
import sys
import threading
import time
from typing import TextIO

from .history import History


class Console:
    """Where a networked peer's words to its player go (stderr when stdout carries --json)."""

    def __init__(self, quiet_stdout: bool) -> None:
        self.stream: TextIO = sys.stderr if quiet_stdout else sys.stdout

    def say(self, text: str) -> None:
        print(text, file=self.stream, flush=True)

    def waiting(self, text: str) -> None:
        """A note of whom the table waits for, repeated while it stalls; a
        front with a status line that says it already may drop it."""
        self.say(text)

    def resumed(self, history: History) -> None:
        """The game so far, on resuming it: its last lines (a screen also
        takes each seat's last turn from it)."""
        for line in history.told():
            self.say(line)


class LineReader:
    """Lines typed on stdin, read by a daemon thread (never blocks the loop)."""

    def __init__(self) -> None:
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in sys.stdin:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)  # end of input

    def get(self) -> str | None | bool:
        """A line, None at end of input, or False when nothing was typed."""
        try:
            return self.lines.get_nowait()
        except queue.Empty:
            return False


def now() -> float:
    return time.monotonic()


class Quit(Exception):
    """The person at the keyboard stops for now (`end`): raised in the loop,
    which pauses (nothing is lost) and returns."""

