"""Where a networked command's notes go: stdout for a person, stderr when
stdout is reserved for the final JSON.

The peer's parts report typed facts (client/netnotices.py), never
sentences; here, where they reach the player, the client's words
(client/networds.py) turn each into its line."""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

from p2p_ttr.client.exitwords import Told, last_words
from p2p_ttr.client.netnotices import Notice
from p2p_ttr.client.networds import history_head, word_notice

from .history import History


class Console:
    """Where a networked peer's words to its player go (stderr when stdout carries --json)."""

    def __init__(self, quiet_stdout: bool) -> None:
        self.stream: TextIO = sys.stderr if quiet_stdout else sys.stdout

    def say(self, text: str) -> None:
        print(text, file=self.stream, flush=True)

    def report(self, notice: Notice, names: tuple[str, ...]) -> None:
        """A fact the peer reports, in words, naming seats by ``names``."""
        self.say(word_notice(notice, names))

    def last_words(self, told: Told, names: tuple[str, ...]) -> str:
        """Say why a run ends and return the words."""
        words = last_words(told, names)
        self.say(words)
        return words

    def waiting(self, notice: Notice, names: tuple[str, ...]) -> None:
        """A note of whom the table waits for, repeated while it stalls; a
        front with a status line that says it already may drop it."""
        self.report(notice, names)

    def resumed(self, history: History) -> None:
        """The game so far, on resuming it: its last lines (a screen also
        takes each seat's last turn from it)."""
        if history.total:
            self.say(history_head(len(history.lines), history.total))
        for line in history.lines:
            self.say(line)


class Reporter:
    """How a peer's parts tell its player a fact: the console, naming seats
    as the game names them when it is told (the seating's, or the lobby's)."""

    def __init__(self, console: Console, names: Callable[[], tuple[str, ...]]) -> None:
        self.console = console
        self.names = names

    def report(self, notice: Notice) -> None:
        self.console.report(notice, self.names())

    def waiting(self, notice: Notice) -> None:
        """A repeated note of whom we wait for (a front with a status line drops it)."""
        self.console.waiting(notice, self.names())


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

