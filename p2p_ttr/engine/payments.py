"""Which cards pay for what: routes, stations and a tunnel's extra cards.

A payment is described by its kinds: ``Payment(color, colored, locomotives)``,
``color`` being the one colour played (None when only locomotives are played).
Validation turns the cards actually offered into a Payment and asks the
predicates below; move generation enumerates Payments a hand can afford and
asks the same predicates, so what the client offers and what a peer accepts
cannot disagree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from .board import GRAY, LOCOMOTIVE, Board, Route


class Payment(NamedTuple):
    """How a player pays: ``colored`` cards of ``color`` (None: none) plus ``locomotives``."""

    color: str | None
    colored: int
    locomotives: int

    @property
    def size(self) -> int:
        return self.colored + self.locomotives

    def describe(self) -> str:
        parts = []
        if self.colored:
            parts.append(f"{self.colored} {self.color}")
        if self.locomotives:
            parts.append(f"{self.locomotives} locomotive{'s' if self.locomotives > 1 else ''}")
        return " + ".join(parts) or "nothing"


def payment_of(kinds: Iterable[str]) -> Payment | None:
    """The Payment these card kinds make, or None if they mix two colours."""
    counts = Counter(kinds)
    locos = counts.pop(LOCOMOTIVE, 0)
    if len(counts) > 1:
        return None
    if not counts:
        return Payment(None, 0, locos)
    ((color, n),) = counts.items()
    return Payment(color, n, locos)


def route_payment_problem(route: Route, pay: Payment) -> str | None:
    """Why ``pay`` cannot pay for ``route`` (None if it can)."""
    if pay.size != route.length:
        return f"{route.label} needs {route.length} cards, not {pay.size}"
    if pay.locomotives < route.ferry_locomotives:
        return (
            f"the ferry {route.label} needs {route.ferry_locomotives} "
            f"locomotive{'s' if route.ferry_locomotives > 1 else ''}"
        )
    if route.color != GRAY and pay.color is not None and pay.color != route.color:
        return f"{route.label} must be paid in {route.color}, not {pay.color}"
    return None


def station_payment_problem(station_number: int, pay: Payment) -> str | None:
    """Why ``pay`` cannot build the player's ``station_number``-th station (1..3)."""
    if pay.size != station_number:
        return f"station number {station_number} costs {station_number} cards of one colour, not {pay.size}"
    return None


def tunnel_extra(played: str | None, turned: Iterable[str]) -> int:
    """How many more cards a tunnel costs: each turned card matching the colour
    played, or a locomotive. Paid with locomotives only, only locomotives count."""
    return sum(1 for kind in turned if kind == LOCOMOTIVE or (played is not None and kind == played))


def tunnel_payment_problem(played: str | None, extra: int, pay: Payment) -> str | None:
    """Why ``pay`` cannot pay a tunnel's ``extra`` cards after playing ``played``."""
    if pay.size != extra:
        return f"the tunnel asks for {extra} more card{'s' if extra != 1 else ''}, not {pay.size}"
    if pay.colored and pay.color != played:
        wanted = f"{played} or locomotives" if played else "locomotives"
        return f"the tunnel's extra cards must be {wanted}"
    return None


def affordable(counts: Counter[str], size: int, colors: Iterable[str]) -> Iterator[Payment]:
    """Every Payment of ``size`` cards a hand with ``counts`` can make from
    ``colors`` plus locomotives, fewest locomotives first."""
    locos = counts.get(LOCOMOTIVE, 0)
    for color in colors:
        have = counts.get(color, 0)
        if not have:
            continue
        for n_locos in range(max(0, size - have), min(locos, size - 1) + 1):
            yield Payment(color, size - n_locos, n_locos)
    if locos >= size:
        yield Payment(None, 0, size)


def route_payments(board: Board, route: Route, counts: Counter[str]) -> list[Payment]:
    """The Payments a hand can make for ``route``."""
    colors = board.colors if route.color == GRAY else (route.color,)
    return [p for p in affordable(counts, route.length, colors) if route_payment_problem(route, p) is None]


def station_payments(board: Board, station_number: int, counts: Counter[str]) -> list[Payment]:
    return [
        p
        for p in affordable(counts, station_number, board.colors)
        if station_payment_problem(station_number, p) is None
    ]


def tunnel_payments(board: Board, played: str | None, extra: int, counts: Counter[str]) -> list[Payment]:
    colors = (played,) if played is not None else ()
    return [p for p in affordable(counts, extra, colors) if tunnel_payment_problem(played, extra, p) is None]
