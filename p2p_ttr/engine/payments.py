"""Which cards pay for what: routes, stations and a tunnel's extra cards.

A payment is described by its kinds: ``Payment(color, colored, locomotives,
stand_ins)``, ``color`` being the one colour played (None when only
locomotives are played), ``stand_ins`` the cards of any kind that stand in
for others where a game allows it (``standins.py``: Nordic's ferries and
Lieksa-Murmansk). Validation turns the cards actually offered into a Payment
(``route_payment``) and asks the predicates below; move generation
enumerates Payments a hand can afford and asks the same predicates, so what
the client offers and what a peer accepts cannot disagree. Which routes
locomotives may pay for is the game's rule (``Rules.locomotives_pay_for``).

Where any cards may be paid as one locomotive (``Rules.cards_per_locomotive``,
the United Kingdom's 4), the number is the paying player's
(``per_locomotive``: the Booster makes it 3, ``technologies.cards_paid_per_locomotive``),
and it holds wherever a locomotive pays: a route's spaces, a ferry's icons,
a technology's price (``locomotives_payment_problem``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from .board import GRAY, LOCOMOTIVE, Board, Route
from .game import Game, LocomotiveUse
from .standins import stand_in_mix, stand_in_mixes, stand_in_problem, uses_stand_ins


class Payment(NamedTuple):
    """How a player pays: ``colored`` cards of ``color`` (None: none) plus
    ``locomotives``, plus ``stand_ins`` (kind, count): cards of any kind that
    stand in for others (``standins.py``)."""

    color: str | None
    colored: int
    locomotives: int
    stand_ins: tuple[tuple[str, int], ...] = ()

    @property
    def stand_in_cards(self) -> int:
        return sum(n for _, n in self.stand_ins)

    @property
    def size(self) -> int:
        return self.colored + self.locomotives + self.stand_in_cards

    def describe(self) -> str:
        parts = []
        if self.colored:
            parts.append(f"{self.colored} {self.color}")
        if self.locomotives:
            parts.append(f"{self.locomotives} locomotive{'s' if self.locomotives > 1 else ''}")
        if self.stand_ins:
            parts.append(" ".join(f"{n} {kind}" for kind, n in self.stand_ins) + " standing in")
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


def route_payment(game: Game, route: Route, kinds: Iterable[str], per_locomotive: int = 0) -> Payment | str:
    """What the cards of these kinds pay for ``route``: the Payment, or why
    they cannot be read as one (two colours mixed where nothing stands in).
    ``per_locomotive``: the cards of any kind that the payer may pay as one
    locomotive (0: none)."""
    counts = Counter(kinds)
    if uses_stand_ins(game, route, per_locomotive):
        mix = stand_in_mix(game, route, counts, per_locomotive)
        return Payment(*mix) if not isinstance(mix, str) else mix
    pay = payment_of(counts.elements())
    return pay if pay is not None else "cards of two different colours cannot be played together"


def route_payment_problem(game: Game, route: Route, pay: Payment, per_locomotive: int = 0) -> str | None:
    """Why ``pay`` cannot pay for ``route`` in ``game`` (None if it can)."""
    if pay.locomotives and not game.rules.locomotives_pay_for(route):
        where = "tunnels" if game.rules.locomotive_use is LocomotiveUse.TUNNELS else "tunnels and ferries"
        return f"on the {game.title} board locomotives pay only for {where}, and {route.label} is neither"
    if pay.stand_ins or uses_stand_ins(game, route, per_locomotive):
        return stand_in_problem(game, route, pay, per_locomotive)
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


def marker_payment_problem(marker_cards: int, pay: Payment) -> str | None:
    """Why ``pay`` cannot place a city marker (Old West: ``marker_cards`` cards of one colour, locomotives allowed)."""
    if pay.size != marker_cards:
        return f"a city marker costs {marker_cards} cards of one colour, not {pay.size}"
    return None


def marker_payments(board: Board, marker_cards: int, counts: Counter[str]) -> list[Payment]:
    return [p for p in affordable(counts, marker_cards, board.colors) if marker_payment_problem(marker_cards, p) is None]


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


def route_payments(game: Game, route: Route, counts: Counter[str], per_locomotive: int = 0) -> list[Payment]:
    """The Payments a hand can make for ``route`` in ``game``."""
    colors = game.board.colors if route.color == GRAY else (route.color,)
    plain = [p for p in affordable(counts, route.length, colors)
             if route_payment_problem(game, route, p, per_locomotive) is None]
    if not uses_stand_ins(game, route, per_locomotive):
        return plain
    mixes = [Payment(*mix) for mix in stand_in_mixes(game, route, counts, per_locomotive)]
    return plain + [p for p in mixes if p not in plain and route_payment_problem(game, route, p, per_locomotive) is None]


def locomotives_payment_problem(kinds: Iterable[str], cost: int, per_locomotive: int) -> str | None:
    """Why cards of these kinds do not pay ``cost`` locomotives (a technology's
    price), where any ``per_locomotive`` cards count as one (0: only locomotives do)."""
    counts = Counter(kinds)
    total = sum(counts.values())
    others = total - counts[LOCOMOTIVE]
    wanted = f"{cost} locomotive{'s' if cost != 1 else ''}"
    if not per_locomotive:
        return None if total == cost and not others else f"the price is {wanted}, paid in locomotives"
    extra = total - cost
    groups = extra // (per_locomotive - 1) if extra >= 0 else 0
    if extra < 0 or extra % (per_locomotive - 1) or groups > cost or others > groups * per_locomotive:
        return (f"the price is {wanted}, each one locomotive or {per_locomotive} cards of any kind, "
                f"which {total} card{'s' if total != 1 else ''} of these kinds do not make")
    return None


def station_payments(board: Board, station_number: int, counts: Counter[str]) -> list[Payment]:
    return [
        p
        for p in affordable(counts, station_number, board.colors)
        if station_payment_problem(station_number, p) is None
    ]


def tunnel_payments(board: Board, played: str | None, extra: int, counts: Counter[str]) -> list[Payment]:
    colors = (played,) if played is not None else ()
    return [p for p in affordable(counts, extra, colors) if tunnel_payment_problem(played, extra, p) is None]
