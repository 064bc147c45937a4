"""What a peer's network loop (``Node.run``) takes from the player's front,
and offers it: typed values, so that no layer reads back the words of
another.

The front is one channel (``PlayerChannel``), called on the loop's own
thread, where reading the table is safe: ``take`` hands the loop the next
thing the player did (start the game, a move, leave), ``turned`` lets the
front show what changed after each turn of the loop. The front looks at the
game through ``Seen``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from p2p_ttr.engine.events import Action
from p2p_ttr.table.table import Table


@dataclass(frozen=True)
class Seen:
    """What the loop's owner shows of itself: the replica (None before the
    seating), our seat, the players' names, and the lobby before the game."""

    table: Table | None = None
    seat: int | None = None
    names: tuple[str, ...] = ()
    lobby: tuple[str, ...] = ()


@dataclass(frozen=True)
class Start:
    """Start the game now (the host, in its lobby)."""


@dataclass(frozen=True)
class Move:
    """The player's move, for the table when it asks our seat (checked against
    the table as it stood when the front chose it)."""

    action: Action


@dataclass(frozen=True)
class Leave:
    """Stop playing: for now (a pause; the same command resumes), or, with
    ``forfeit``, for good."""

    forfeit: bool = False


@dataclass(frozen=True)
class InputClosed:
    """The player's input is gone (stdin closed): play on without it."""


Input = Start | Move | Leave | InputClosed


class PlayerChannel(Protocol):
    """The player's side of the loop."""

    def take(self) -> Input | None:
        """The next thing the player did, or None if nothing (never blocks)."""

    def turned(self) -> None:
        """The loop turned once: show what changed."""


RunLoop = Callable[[PlayerChannel | None], int]
# At the end of the loop (given its exit code): a page title and its lines.
Ending = Callable[[int], tuple[str, list[str]]]
