"""A player's destination tickets: which are done, and the shortest way to
finish one over the routes still open to them."""

from __future__ import annotations

from dataclasses import dataclass

from p2p_ttr.bots.planning import borrowable, lengths, route_costs, shortest_path
from p2p_ttr.engine.board import Ticket
from p2p_ttr.engine.cards import CardRef
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.scoring import PlayerClaims, best_borrowing, ticket_outcomes
from p2p_ttr.engine.state import GameState

from .words import DASH, plural, route_name


@dataclass(frozen=True)
class TicketRow:
    """One of the player's tickets, and whether it is done today."""

    ticket: Ticket
    done: bool  # joined by the player's routes (and what their stations may borrow)


def ticket_rows(view: GameState, seat: int, refs: tuple[CardRef, ...] | None = None) -> list[TicketRow]:
    """The player's kept tickets (or ``refs``) that the view can read, each
    marked done as the final score would count it today."""
    ps = view.players[seat]
    ids = [face for r in (ps.tickets if refs is None else refs) if (face := view.face(r)) is not None]
    claims = PlayerClaims(ps.routes, ps.stations, tuple(ids))
    board = view.game.board
    borrowed = best_borrowing(board, claims, borrowable(view, seat))
    outcomes = ticket_outcomes(board, claims, borrowed)
    return [TicketRow(board.tickets[t], o.completed) for t, o in zip(ids, outcomes)]


@dataclass(frozen=True)
class Way:
    """The cheapest way between two cities over the player's own routes, the
    routes still open to them and the rival routes their stations may borrow."""

    game: Game  # whose board's routes the ids name
    a: str
    b: str
    routes: tuple[int, ...]  # every route on the way, owned and borrowed ones included
    to_claim: tuple[int, ...]  # the ones still to claim
    found: bool
    trains_left: int
    borrowed: tuple[tuple[int, str], ...] = ()  # (rival route, the station city that borrows it)

    @property
    def trains(self) -> int:
        return sum(self.game.board.routes[r].cars for r in self.to_claim)

    @property
    def finishable(self) -> bool:
        return self.found and self.trains <= self.trains_left

    def lines(self, points: int | None = None) -> list[str]:
        head = f"{self.a}{DASH}{self.b}" + (f" ({points})" if points is not None else "")
        if not self.found:
            return [f"{head}: can no longer be finished: every route that could join them is taken"]
        lend = "".join(f"; your station in {city} borrows {route_name(self.game.board.routes[r])}"
                       for r, city in self.borrowed)
        if not self.to_claim:
            return [f"{head}: done, your routes join them{lend}"]
        steps = ", ".join(route_name(self.game.board.routes[r]) for r in self.to_claim)
        if self.trains > self.trains_left:
            return [f"{head}: can no longer be finished: the shortest way needs "
                    f"{plural(self.trains, 'train')} and you have {self.trains_left} left ({steps}){lend}"]
        return [f"{head}: {plural(len(self.to_claim), 'route')} and {plural(self.trains, 'train')} to go "
                f"(you have {self.trains_left}): {steps}{lend}"]


def way_between(view: GameState, seat: int, a: str, b: str) -> Way:
    """Fewest trains still to place to join ``a`` and ``b``: routes the
    player owns cost nothing, closed routes are not used, and each of their
    stations may lend one rival route into its city (as the final score
    counts it)."""
    costs = route_costs(view, seat, weights=lengths)
    lenders = _lenders(view, seat)
    trains = view.players[seat].trains
    best: tuple[float, tuple[int, ...], tuple[tuple[int, str], ...]] | None = None
    for lent in _loans(view, costs, lenders, a, b):
        path = shortest_path(view.game, [0.0 if r in lent else c for r, c in enumerate(costs)], a, b)
        if path is not None and (best is None or path.cost < best[0]):
            used = tuple((r, lent[r]) for r in path.routes if r in lent)
            best = (path.cost, path.routes, used)
    if best is None:
        return Way(view.game, a, b, (), (), False, trains)
    _, routes, borrowed = best
    lent_routes = {r for r, _ in borrowed}
    mine = set(view.players[seat].routes)
    return Way(view.game, a, b, routes, tuple(r for r in routes if r not in mine and r not in lent_routes), True,
               trains, borrowed)


def _lenders(view: GameState, seat: int) -> dict[str, tuple[int, ...]]:
    """Each of the player's station cities and the rival routes into it."""
    return {city: tuple(r for r in view.game.board.routes_at[city]
                        if view.route_owner[r] is not None and view.route_owner[r] != seat)
            for city in view.players[seat].stations}


def _loans(view: GameState, costs: list[float | None], lenders: dict[str, tuple[int, ...]], a: str,
           b: str) -> list[dict[int, str]]:
    """The ways the stations may lend (at most one route each: route -> city)
    worth trying. Usually the way with every rival route free borrows at most
    one per station, and that is the one; else try every way of lending (three
    stations with a handful of rival routes each: a few hundred at most)."""
    free = {r for routes in lenders.values() for r in routes}
    path = shortest_path(view.game, [0.0 if r in free else c for r, c in enumerate(costs)], a, b)
    if path is None:
        return []  # not even with every loan
    lent = _assign([r for r in path.routes if r in free], lenders)
    if lent is not None:
        return [lent]
    loans: list[dict[int, str]] = [{}]
    for city, routes in lenders.items():
        loans = [loan | {r: city} for loan in loans for r in routes if r not in loan] + loans
    return loans


def _assign(routes: list[int], lenders: dict[str, tuple[int, ...]]) -> dict[int, str] | None:
    """A station for each of ``routes``, no station twice; None if there is none."""
    if not routes:
        return {}
    first, rest = routes[0], routes[1:]
    for city, lends in lenders.items():
        if first in lends:
            others = _assign(rest, {c: r for c, r in lenders.items() if c != city})
            if others is not None:
                return {first: city} | others
    return None
