"""What a peer's network loop (``Host.run``, ``Node.run``) offers the player's
front, and takes from it: typed values, so that no layer reads back the
words of another.

The loop calls ``tick`` and ``read_line`` on every turn of its poll and hands
each line read to ``on_line``; the front looks at the game through ``seen``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from p2p_ttr.table.table import Table


@dataclass(frozen=True)
class Seen:
    """What the loop's owner shows of itself: the replica (None before the
    seating), our seat, the players' names, and the lobby before the game."""

    table: Table | None = None
    seat: int | None = None
    names: tuple[str, ...] = ()
    lobby: tuple[str, ...] = ()


OnLine = Callable[[str], None]
ReadLine = Callable[[], str | None | bool]  # a line; None: input closed; False: nothing yet
Tick = Callable[[], None]
RunLoop = Callable[[OnLine | None, ReadLine | None, Tick | None], int]
# At the end of the loop (given its exit code): a page title and its lines.
Ending = Callable[[int], tuple[str, list[str]]]
