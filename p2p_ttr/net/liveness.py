"""Liveness: who we are waiting for, for how long, and when to give up."""

from __future__ import annotations

import time
from collections.abc import Callable

from p2p_ttr.table.table import Table

STALL_NOTE_S = 4.0  # say whom we wait for once the log has not grown for this long

HEARTBEAT_S = 1.0
HOST_SILENT_S = 3.0


def waiting_for(table: Table, me: int | None) -> list[int]:
    """The seats (other than ours) the table waits for now."""
    return sorted({o.seat for o in table.obligations() if o.seat != me})


class Progress:
    """Tracks the time since the log last grew, and says so at a gentle pace."""

    def __init__(self, timeout: float, say: Callable[[str], None], waiting: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """``say``: what the player must read (the timeout's question);
        ``waiting``: the repeated notes of whom the table waits for."""
        self.timeout = timeout
        self.say = say
        self.waiting = waiting or say
        self.clock = clock
        self.length = -1
        self.since = clock()
        self._next_note = self.since + 5.0

    def update(self, length: int) -> None:
        if length != self.length:
            self.length = length
            self.since = self.clock()
            self._next_note = self.since + 5.0

    @property
    def stalled_for(self) -> float:
        return self.clock() - self.since

    @property
    def timed_out(self) -> bool:
        return self.stalled_for >= self.timeout

    def note(self, what: str) -> None:
        """Say ``waiting for <what> (N s)`` every few seconds while stalled."""
        now = self.clock()
        if now >= self._next_note:
            self.waiting(f"waiting for {what} ({int(now - self.since)} s)")
            self._next_note = now + (5.0 if now - self.since < 30 else 15.0)

    def extend(self) -> None:
        self.since = self.clock()


def watch(progress: Progress, table: Table, me: int | None, names: tuple[str, ...], scripted: bool,
          log: str, then: str = "") -> str | None:
    """One look at a running game, the same for the host and a joiner: say
    whom the table waits for while it is stalled; at the timeout, offer a
    person `wait` / `end`, or return why a scripted run must stop (and
    ``then``, what to do next)."""
    progress.update(len(table.log))
    waiting = waiting_for(table, me) if progress.stalled_for > STALL_NOTE_S else []
    if waiting:
        progress.note(", ".join(names[s] for s in waiting))
    if progress.timed_out and (waiting or scripted):
        who = ", ".join(names[s] for s in waiting) or "nobody"
        if scripted:
            return f"no progress for {progress.timeout:.0f} s (waiting for {who}); the log so far is {log}{then}"
        progress.say(f"no progress for {int(progress.stalled_for)} s (waiting for {who}): "
                     "type `wait` to keep waiting or `end` to stop")
        progress.extend()
    return None
