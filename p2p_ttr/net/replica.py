"""Our copy of the game, shared by every part of a peer.

A peer's parts (the follower, the hand-over, our seat's duties, and the
relay's parts on our ROUTER) all read the same ``Replica``: the table
folded from our log, the store that keeps it, our seat's player, and the
host's lobby before the game. A part never keeps a table of its own: when
the log is reloaded or cut back, ``use`` swaps the whole game at once and
every part sees the new one.

It owns no socket and sends nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2p_ttr.client.storefacts import LogDoesNotFold, Remedied, Remedy
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.peer import Decider
from p2p_ttr.table.table import Table

from .history import History
from .lobby import Lobby
from .player import SeatPlayer, load_checked_secrets
from .store import GameStore, StoreError


@dataclass
class Replica:
    """The game under way on this peer (``table`` None before the host's first entry)."""

    identity: Identity
    decide: Decider
    table: Table | None = None
    store: GameStore | None = None
    player: SeatPlayer | None = None
    lobby: Lobby | None = None  # the host's, until the seating

    def close_lobby(self) -> None:
        """The seating is written (or a game resumed): the host's lobby is over."""
        self.lobby = None

    def use(self, table: Table, store: GameStore) -> None:
        """From now on ``table`` and ``store`` are our game."""
        self.table, self.store = table, store
        self.player = SeatPlayer(self.identity, table, store, self.decide)

    @property
    def seat(self) -> int | None:
        """Our seat, once the seating names it."""
        return self.player.seat if self.player is not None else None

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names: the seating's, or the lobby's before it."""
        if self.table is not None and self.table.seats:
            return tuple(s.name for s in self.table.seats)
        return tuple(self.lobby.names) if self.lobby is not None else ()

    def who(self, seat: int) -> str:
        names = self.names
        return names[seat] if 0 <= seat < len(names) else "a peer"

    @property
    def relaying(self) -> bool:
        """Our seat sequences the log: it is the table's relay (or we hold the lobby)."""
        table = self.table
        if table is None or not table.seated:
            return self.lobby is not None
        return table.relay == self.seat

    @property
    def playing(self) -> bool:
        """The game is seated and not complete."""
        return self.table is not None and self.table.seated and not self.table.complete


def fold_log(store: GameStore, entries: list[bytes], remedy: Remedy | None = None) -> tuple[Table, History]:
    """A table folded from ``entries`` (with our secrets from ``store``,
    checked against the log), and the game so far in words. A log that does
    not fold is corrupt: ``remedy`` says what to do about it."""
    secrets = load_checked_secrets(store, entries)
    table = Table(me=secrets)
    history = History(secrets.seat if secrets is not None else None)
    for i, raw in enumerate(entries):
        try:
            table.receive(raw)
        except (TableError, EngineError) as exc:
            trouble = LogDoesNotFold(store.log_path, i, str(exc))
            raise StoreError(trouble if remedy is None else Remedied(trouble, remedy)) from None
        history.step(table)
    return table, history
