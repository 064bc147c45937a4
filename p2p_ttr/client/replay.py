"""A game's log replayed move by move (`ttr replay`): the same screen a
watcher sees, at every moment of the game.

The log is folded from scratch into a table with no secrets, exactly as a
watcher folds it, and the watcher's publisher (snapshot.py) turns the
table after each entry into a snapshot: the public view, the log in words,
every seat's last turn, the status. A *move* is a moment something
happened that the log tells in words (a card taken, a route claimed, the
final round); entries that change the table quietly (shares, a face-up
slot refilled) belong to the move before them, so each move shows the
table as it stood until the next one.

A finished game whose every secret was revealed (``OpenFaces``) can be
shown open: every hand and ticket at every moment.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

from p2p_ttr.engine.errors import EngineError
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.opened import OpenFaces
from p2p_ttr.table.table import Table
from p2p_ttr.table.verify import joint_secret

from .numbering import turn_number
from .snapshot import Publisher, Snapshot


@dataclass(frozen=True)
class Move:
    """One moment of the replay: the last entry it folds, and what the screen shows then."""

    entry: int
    snap: Snapshot


@dataclass(frozen=True)
class LogReplay:
    """Every move of a game's log, and what the log says of its end."""

    moves: tuple[Move, ...]
    entries: int  # the log's length
    table: Table  # folded from every entry that folds
    stopped: str = ""  # why the fold stopped before the log's end (an entry it refuses)
    faces: OpenFaces | None = None  # every secret revealed: hands and tickets can be shown

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.table.seats)

    @property
    def can_open(self) -> bool:
        return self.faces is not None

    def snapshot(self, at: int, opened: bool = False) -> Snapshot:
        """The screen's snapshot at move ``at`` (every hand face up if ``opened`` and the secrets allow)."""
        snap = self.moves[at].snap
        if opened and self.faces is not None and snap.view is not None:
            snap = replace(snap, view=self.faces.opened(snap.view))
        return snap

    def turn_of(self, at: int) -> int:
        """The turn (1 for the first) under way at move ``at``."""
        view = self.moves[at].snap.view
        return turn_number(view) if view is not None else 0

    def made_in(self, at: int) -> int:
        """The turn move ``at`` was made in: the one under way before it (a
        player's last card of a turn leaves the table in the next turn)."""
        return self.turn_of(max(at - 1, 0))

    def first_made_in(self, turn: int) -> int:
        """The first move made in turn ``turn`` or later; the last move if the game never got there."""
        return next((i for i in range(len(self.moves)) if self.made_in(i) >= turn), len(self.moves) - 1)

    def move_of_turn(self, turn: int) -> int:
        """The first move of turn ``turn`` (1 for the first); the last move if the game never got there."""
        return next((i for i in range(len(self.moves)) if self.turn_of(i) >= turn), len(self.moves) - 1)

    def where(self, at: int) -> str:
        """Where move ``at`` stands, in words: 'move 12 of 240 · entry 345 of 2001'."""
        return f"move {at + 1} of {len(self.moves)} · entry {self.moves[at].entry + 1} of {self.entries}"


def replay(entries: list[bytes]) -> LogReplay:
    """Fold ``entries`` into the moves of a replay. A log that stops folding
    is replayed up to the entry it refuses (``stopped`` says why).

    When the log reveals every seat's secret, cards are opened with the
    joint secret (twice as fast: no share's proof to check on the way);
    judging the log is the audit's business (`ttr verify`), not the replay's."""
    secret = joint_secret(entries)
    table = Table(audit_secret=secret)
    ticks = itertools.count()
    publisher = Publisher("replay", clock=lambda: float(next(ticks)))  # the status at every entry
    moves: list[Move] = []
    names: tuple[str, ...] = ()
    stopped = ""
    told = 0  # lines of the log told up to the last move
    for index, raw in enumerate(entries):
        try:
            table.receive(raw)
        except (TableError, EngineError) as exc:
            stopped = f"entry {index} does not fold ({exc.code}): {exc} (`ttr verify` audits the log)"
            break
        names = names or tuple(s.name for s in table.seats)
        snap = publisher.update(table, None, names)
        if snap is None or snap.view is None:
            continue
        if moves and snap.noted == told:
            moves[-1] = Move(index, snap)  # a quiet change: the table as the last move left it
        else:
            moves.append(Move(index, snap))
            told = snap.noted
    faces = OpenFaces(table, secret) if secret is not None and table.complete else None
    return LogReplay(tuple(moves), len(entries), table, stopped, faces)
