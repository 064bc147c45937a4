"""What a peer drops or refuses, said at a bounded pace.

Every bad frame, every refused message is worth a line: the first of each
kind is said at once, with its reason; after that a flood of them (2.77
million one-byte frames in 10 s once wrote 87 MB of log) is counted and
summed up once every ``every`` seconds per kind ("dropped 12,345 more bad
frames in the last 10 s"). So what a peer writes about its doors is bounded
by the number of kinds, not by what arrives. It reports typed facts
(``FirstAtDoor``, ``MoreAtDoor``); client/networds.py words them.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from p2p_ttr.client.doorfacts import Door, DoorDetail, DoorKind, FirstAtDoor, MoreAtDoor
from p2p_ttr.client.netnotices import Report

SUMMARY_S = 10.0
MAX_KINDS = 64  # distinct kinds summed up (a door, and whose or which code: never a peer's bytes)


class DropLog:
    """Reports the first drop of each kind, then a count of the rest every ``every`` seconds."""

    def __init__(self, report: Report, every: float = SUMMARY_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.report = report
        self.every = every
        self.clock = clock
        self._count: dict[DoorKind, int] = {}  # kind -> drops since it was last said
        self._said: dict[DoorKind, float] = {}  # kind -> when it was last said

    def drop(self, kind: DoorKind, detail: DoorDetail = DoorDetail()) -> None:
        """One more ``kind``; ``detail`` says why, the first time."""
        now = self.clock()
        last = self._said.get(kind)
        if last is None:
            if len(self._said) >= MAX_KINDS:
                kind = DoorKind(Door.ELSE)
                if kind in self._said:
                    self._count[kind] = self._count.get(kind, 0) + 1
                    return
            self._said[kind] = now
            self.report(FirstAtDoor(kind, detail, self.every))
            return
        self._count[kind] = self._count.get(kind, 0) + 1
        if now - last >= self.every:
            self.flush(kind, now)

    def flush(self, kind: DoorKind, now: float | None = None) -> None:
        count = self._count.pop(kind, 0)
        if count:
            now = self.clock() if now is None else now
            self.report(MoreAtDoor(kind, count, now - self._said.get(kind, now)))
            self._said[kind] = now

    def tick(self) -> None:
        """Say what is due (called from the loop, so that a flood that stops is still summed up)."""
        now = self.clock()
        for kind in [k for k, c in self._count.items() if c and now - self._said[k] >= self.every]:
            self.flush(kind, now)

    def flush_all(self) -> None:
        """Say every count not yet said (we stop: nothing dropped goes unsaid)."""
        for kind in list(self._count):
            self.flush(kind)
