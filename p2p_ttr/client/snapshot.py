"""What the screen shows, frozen: made on the network thread, read on the UI's.

The table is mutable and belongs to the thread that runs the network loop.
That thread makes a ``Snapshot`` after each step (``Publisher.update``):
immutable data only (the player's view is a frozen GameState), so the
screen can draw it at any time without locks and without ever touching the
table.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.view import public_view, view_for
from p2p_ttr.table.table import Table

from .outcomes import EndMeans
from .lastturn import LastTurns
from .livenessfacts import RelaySilence
from .phrases import Kind, carry_on_asks, forfeits, status_of, told
from .styled import Fragment

STATUS_EVERY_S = 1.0  # how often the "waiting for ..." line is worked out again
MAX_LOG = 2000  # lines kept for the log pane


_LOG_STYLES = {Kind.MINE: "class:log.mine", Kind.MOVE: "class:log.move", Kind.FINAL: "class:log.final"}


@dataclass(frozen=True)
class Snapshot:
    """What the screen shows, frozen: made on the network thread, read on the screen's."""

    role: str = "join"  # "host" or "join"
    seat: int | None = None
    names: tuple[str, ...] = ()
    view: GameState | None = None
    log: tuple[Fragment, ...] = ()  # (style, text), oldest first
    noted: int = 0  # lines noted in all (the log keeps the last MAX_LOG)
    status: str = ""
    our_move: bool = False  # the status asks this player to move
    game: str = ""  # game id, hex
    address: str = ""  # where friends join (the host's screen)
    lobby: tuple[str, ...] = ()  # who is in, before the start
    forfeited: tuple[int, ...] = ()  # seats that left for good, or were carried on: the table plays them
    turns: LastTurns = LastTurns()  # every seat's latest turn, for "since your turn"
    finished: bool = False
    ends: EndMeans | None = None  # what `end` does now (None: as the role says)
    version: int = 0  # grows with every change

    @property
    def started(self) -> bool:
        return self.view is not None


class Publisher:
    """Turns the live table into snapshots. Every method but ``note`` and
    ``snapshot`` runs on the network thread; notes may come from anywhere."""

    def __init__(self, role: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._snap = Snapshot(role=role)
        self._log: list[Fragment] = []
        self._noted = 0
        self._dirty = True
        self._engine: GameState | None = None
        self._before: GameState | None = None
        self._turns = LastTurns()
        self._length = -1
        self._forfeited: tuple[int, ...] = ()
        self._asks: Mapping[int, frozenset[int]] = {}
        self._grew_at = clock()
        self._status_at = 0.0
        self._status = ""
        self._our_move = False
        self._stopped = False
        self.address = ""

    @property
    def snapshot(self) -> Snapshot:
        return self._snap

    def note(self, text: str, style: str = "class:note") -> None:
        with self._lock:
            self._log.append((style, text))
            self._noted += 1
            del self._log[:-MAX_LOG]
            self._dirty = True

    def update(self, table: Table | None, seat: int | None, names: tuple[str, ...],
               lobby: tuple[str, ...] = (), ends: EndMeans | None = None,
               silent: Mapping[int, int] | None = None, relay_silent: RelaySilence | None = None) -> Snapshot | None:
        """A new snapshot if anything the screen shows changed, else None.
        ``silent``: seconds without a heartbeat of each seat the relay calls
        silent; ``relay_silent``: the peer we follow, silent (said first)."""
        now = self.clock()
        engine = table.engine if table is not None else None
        length = len(table.log) if table is not None else 0
        if length != self._length:
            self._length, self._grew_at = length, now
            self._status_at = 0.0
        if table is not None:
            # Before the moves: the caretaker's moves follow the forfeit.
            self._log_carry_on_asks(table, seat, names)
            self._log_forfeits(tuple(sorted(table.forfeited)), seat, names, tuple(table.carried_on),
                               len(table.in_play) < 2)
        view = self._snap.view
        if engine is not self._engine:
            self._engine = engine
            if engine is not None:
                # A watcher (no seat) sees what everyone sees, and nothing more.
                view = view_for(engine, seat) if seat is not None else public_view(engine)
                self._log_moves(view, seat, names)
        if not self._stopped and now - self._status_at >= STATUS_EVERY_S:
            # Before the seating too: a joiner whose host is silent is told so here, not by a note every 5 s.
            self._status_at = now
            owed = table.obligations() if table is not None else []
            status = status_of(owed, view, seat, names, silent, relay_silent)
            stalled = now - self._grew_at
            text = status.text + (f" ({int(stalled)} s)" if status.waiting and stalled >= 3 else "")
            text = "; ".join(t for t in (status.aside, text) if t)  # the aside first: a narrow screen cuts the end
            if text != self._status or status.our_move != self._our_move:
                self._status, self._our_move, self._dirty = text, status.our_move, True
        snap = self._snap
        with self._lock:
            if not self._dirty and view is snap.view and names == snap.names and lobby == snap.lobby \
                    and ends == snap.ends:
                return None
            self._dirty = False
            self._snap = Snapshot(
                role=snap.role, seat=seat, names=names, view=view, log=tuple(self._log), noted=self._noted, status=self._status, our_move=self._our_move,
                game=table.game_id.hex() if table is not None and table.game_id else "", address=self.address,
                lobby=lobby, forfeited=self._forfeited, turns=self._turns,
                finished=table is not None and table.finished, ends=ends,
                version=snap.version + 1)
            return self._snap

    def resumed(self, turns: LastTurns) -> None:
        """Each seat's last turn, as the log so far told it (a resumed game
        starts from its latest state: LAST TURN would be all '-')."""
        with self._lock:
            self._turns, self._dirty = turns, True

    def stop(self, words: str) -> Snapshot:
        """The loop has stopped (the game over, paused, or stopped short):
        nothing is awaited any more, whatever the table last owed, so the
        status line says ``words`` (the last page's title) from now on."""
        self._stopped = True
        with self._lock:
            self._status, self._our_move = words, False
            self._snap = replace(self._snap, status=words, our_move=False, version=self._snap.version + 1)
            return self._snap

    def _log_carry_on_asks(self, table: Table, seat: int | None, names: tuple[str, ...]) -> None:
        asks = table.carry_on_requests
        if asks != self._asks:
            for line in carry_on_asks(self._asks, asks, table.in_play, seat, names):
                self.note(line, "class:log.forfeit")
            self._asks = asks

    def _log_forfeits(self, forfeited: tuple[int, ...], seat: int | None, names: tuple[str, ...],
                      carried: tuple[int, ...] = (), ended: bool = False) -> None:
        if forfeited != self._forfeited:
            for line in forfeits(self._forfeited, forfeited, seat, names, carried, ended):
                self.note(line, "class:log.forfeit")
            self._forfeited = forfeited

    def _log_moves(self, view: GameState, seat: int | None, names: tuple[str, ...]) -> None:
        if self._before is not None:
            for line in told(self._before, view, seat, names):
                self.note(line.text, _LOG_STYLES[line.kind])
            self._turns = self._turns.after(self._before, view, seat)
        self._before = view
