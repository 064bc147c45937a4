"""The game so far, in words, for a player who resumes it: the moves of the
folded log as their seat saw them (p2p_ttr.client.phrases), the latest last;
and each seat's last turn (the panel's LAST TURN, which a resumed screen
would otherwise start empty)."""

from __future__ import annotations

from collections import deque

from p2p_ttr.client.lastturn import LastTurns
from p2p_ttr.client.phrases import changes
from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.view import view_for
from p2p_ttr.table.table import Table

MAX_LINES = 200  # the log pane scrolls; the plain prompt prints them all


class History:
    """Fed the table after each entry is folded; keeps the last ``limit`` lines."""

    def __init__(self, seat: int | None, limit: int = MAX_LINES) -> None:
        self.seat = seat
        self.lines: deque[str] = deque(maxlen=limit)
        self.total = 0
        self.turns = LastTurns()
        self._engine: GameState | None = None
        self._before: GameState | None = None

    def step(self, table: Table) -> None:
        engine, seat = table.engine, self.seat
        if seat is None or engine is None or engine is self._engine:
            return
        self._engine = engine
        now = view_for(engine, seat)
        if self._before is not None:
            for line in changes(self._before, now, seat, tuple(s.name for s in table.seats)):
                self.lines.append(line)
                self.total += 1
            self.turns = self.turns.after(self._before, now, seat)
        self._before = now

