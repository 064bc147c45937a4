"""Pennsylvania's stock shares: the companies, who holds which share, and the majorities.

The board prints railroad logos beside most routes (``StockMarket.route_companies``);
claiming such a route lets the claimer take the next share (the lowest-numbered
left) of one of them. At the end, per company, the biggest holders score the
printed values (1st, 2nd, ...); a tie goes to the holder of the lowest-numbered
share; a holder needs one share to score at all.

With two players a dummy third holder takes a share beside each share a player
takes, chosen by that player among the route's companies. At the end half of
the dummy's shares, rounded up, are drawn at random and only those count in the
majorities; the dummy scores nothing itself but takes its rank. The draw is the
order of a small deck shuffled at set-up through the mental-poker chains
(``Deck.DUMMY_SHARES``, protocol.md "The dummy's shares") and opened only at the
end: card ``i`` stands for the dummy's ``i``-th share, and the first
ceil(n/2) of its first ``n`` cards in deck order are the ones that count.

This module holds only data and pure functions over it; the moves that change
it are in ``sharemoves.py``. It imports nothing of the engine but card references,
so the board and the state can name its types.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .cards import CardRef

DUMMY = -1  # the dummy holder's seat in StockHoldings.holders (two players only)


@dataclass(frozen=True, slots=True)
class Company:
    """A railroad: its code beside the routes, its name, its number of shares and the points per rank."""

    code: str
    name: str
    shares: int
    points_by_rank: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class StockMarket:
    """The board's companies and the companies printed beside each route (by route id)."""

    companies: tuple[Company, ...]
    route_companies: tuple[tuple[str, ...], ...]

    def company(self, code: str) -> Company | None:
        return next((c for c in self.companies if c.code == code), None)

    def index(self, code: str) -> int:
        return next(i for i, c in enumerate(self.companies) if c.code == code)

    @property
    def dummy_cards(self) -> int:
        """The cards of the dummy's order deck: the most shares a dummy can hold.
        Every share the dummy takes comes with one a player takes, so it holds
        at most half of them."""
        return sum(c.shares for c in self.companies) // 2


def stock_market_from(data: Mapping[str, Any]) -> StockMarket | None:
    """The data's companies and route logos (None where the board has no shares).

    Raises:
        ValueError: a route names a company that the data does not list.
    """
    raw = data.get("companies")
    if not raw:
        return None
    companies = tuple(Company(c["code"], c["name"], int(c["shares"]), tuple(int(p) for p in c["points_by_rank"]))
                      for c in raw)
    codes = {c.code for c in companies}
    routes = tuple(tuple(r.get("stock_shares", ())) for r in data["routes"])
    for i, listed in enumerate(routes):
        if not set(listed) <= codes or len(set(listed)) != len(listed):
            raise ValueError(f"route {i} lists unknown or repeated companies: {listed}")
    return StockMarket(companies, routes)


@dataclass(frozen=True, slots=True)
class StockHoldings:
    """The game's slice of shares: public (everyone sees which share is taken).

    ``holders[c]`` is the seat holding share 1, 2, ... of company ``c`` (market
    order) as far as they were taken (``DUMMY`` for the dummy); ``dummy_taken``
    the dummy's shares as (company, share number) in the order it took them;
    ``pending`` the route just claimed whose shares its claimer chooses now;
    ``dummy_order`` the references of the dummy's order deck (two players)."""

    holders: tuple[tuple[int, ...], ...]
    dummy_taken: tuple[tuple[int, int], ...] = ()
    pending: int | None = None
    dummy_order: tuple[CardRef, ...] = ()

    @staticmethod
    def empty(market: StockMarket) -> StockHoldings:
        return StockHoldings(tuple(() for _ in market.companies))

    def left(self, market: StockMarket, code: str) -> int:
        """How many shares of ``code`` are still to be taken."""
        i = market.index(code)
        return market.companies[i].shares - len(self.holders[i])

    def open_companies(self, market: StockMarket, route: int) -> tuple[str, ...]:
        """The companies beside ``route`` that still have a share, in the board's order."""
        return tuple(code for code in market.route_companies[route] if self.left(market, code) > 0)

    def take(self, market: StockMarket, code: str, holder: int) -> StockHoldings:
        """``holder`` takes the next share of ``code`` (which has one left)."""
        i = market.index(code)
        holders = list(self.holders)
        holders[i] = holders[i] + (holder,)
        dummy = self.dummy_taken + ((i, len(holders[i])),) if holder == DUMMY else self.dummy_taken
        return replace(self, holders=tuple(holders), dummy_taken=dummy)

    def held(self, holder: int) -> tuple[tuple[int, int], ...]:
        """(company, share number) of every share ``holder`` holds, market order."""
        return tuple((c, n + 1) for c, seats in enumerate(self.holders) for n, seat in enumerate(seats)
                     if seat == holder)


def counted_dummy_shares(taken: int, order: Sequence[int]) -> frozenset[int]:
    """Which of the dummy's ``taken`` shares (by the order it took them) count:
    the first ceil(taken/2) of the order deck's faces below ``taken``."""
    return frozenset([i for i in order if i < taken][: (taken + 1) // 2])


def share_points(market: StockMarket, holdings: StockHoldings, n_players: int,
                 dummy_counts: frozenset[tuple[int, int]] | None = None) -> tuple[int, ...]:
    """Each player's points from the majorities. The dummy's shares that
    count are ``dummy_counts`` ((company, share number) pairs; None: all)."""
    held = [(seat, c, n) for c, seats in enumerate(holdings.holders) for n, seat in enumerate(seats, start=1)
            if seat != DUMMY or dummy_counts is None or (c, n) in dummy_counts]
    return majority_points(market, held, n_players)


def majority_points(market: StockMarket, held: Iterable[tuple[int, int, int]], n_players: int) -> tuple[int, ...]:
    """Each player's points from the shares ``held``, as (holder, company,
    share number): per company the holders ranked by count, a tie to the
    lower-numbered share, score its values in rank order; the dummy takes
    its rank and scores nothing."""
    counts: list[dict[int, list[int]]] = [{} for _ in market.companies]  # per company: holder -> share numbers
    for holder, c, n in held:
        counts[c].setdefault(holder, []).append(n)
    points = [0] * n_players
    for company, numbers in zip(market.companies, counts):
        ranked = sorted(numbers, key=lambda holder: (-len(numbers[holder]), min(numbers[holder])))
        for rank, holder in enumerate(ranked[: len(company.points_by_rank)]):
            if holder != DUMMY:
                points[holder] += company.points_by_rank[rank]
    return tuple(points)


def dummy_counts_of(holdings: StockHoldings, order: Sequence[int]) -> frozenset[tuple[int, int]]:
    """The dummy's shares that count, as (company, share number), given its order deck's faces."""
    chosen = counted_dummy_shares(len(holdings.dummy_taken), order)
    return frozenset(share for i, share in enumerate(holdings.dummy_taken) if i in chosen)
