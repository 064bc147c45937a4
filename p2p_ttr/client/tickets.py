"""A player's destination tickets: which are done, and the shortest way to
finish one over the routes still open to them."""

from __future__ import annotations

from dataclasses import dataclass

from p2p_ttr.bots.planning import borrowable, route_costs, shortest_path
from p2p_ttr.engine.board import Ticket
from p2p_ttr.engine.cards import CardRef
from p2p_ttr.engine.scoring import PlayerClaims, best_borrowing, ticket_outcomes
from p2p_ttr.engine.state import GameState

from .words import BOARD, DASH, plural, route_name


@dataclass(frozen=True)
class TicketRow:
    ticket: Ticket
    done: bool  # joined by the player's routes (and what their stations may borrow)


def ticket_rows(view: GameState, seat: int, refs: tuple[CardRef, ...] | None = None) -> list[TicketRow]:
    """The player's kept tickets (or ``refs``) that the view can read, each
    marked done as the final score would count it today."""
    ps = view.players[seat]
    ids = [face for r in (ps.tickets if refs is None else refs) if (face := view.face(r)) is not None]
    claims = PlayerClaims(ps.routes, ps.stations, tuple(ids))
    borrowed = best_borrowing(BOARD, claims, borrowable(view, seat))
    outcomes = ticket_outcomes(BOARD, claims, borrowed)
    return [TicketRow(BOARD.tickets[t], o.completed) for t, o in zip(ids, outcomes)]


@dataclass(frozen=True)
class Way:
    """The cheapest way between two cities over the player's own and open routes."""

    a: str
    b: str
    routes: tuple[int, ...]  # every route on the way, owned ones included
    to_claim: tuple[int, ...]  # the ones still to claim
    found: bool

    @property
    def trains(self) -> int:
        return sum(BOARD.routes[r].length for r in self.to_claim)

    def lines(self, points: int | None = None) -> list[str]:
        head = f"{self.a}{DASH}{self.b}" + (f" ({points})" if points is not None else "")
        if not self.found:
            return [f"{head}: no way is open any more (every route that could join them is taken)"]
        if not self.to_claim:
            return [f"{head}: done, your routes join them"]
        steps = ", ".join(route_name(BOARD.routes[r]) for r in self.to_claim)
        return [f"{head}: {plural(len(self.to_claim), 'route')} and {plural(self.trains, 'train')} to go: {steps}"]


def way_between(view: GameState, seat: int, a: str, b: str) -> Way:
    """Fewest trains still to place to join ``a`` and ``b``; routes the player
    owns cost nothing, routes closed to them are not used."""
    path = shortest_path(route_costs(view, seat, weight=lambda r: float(r.length)), a, b)
    if path is None:
        return Way(a, b, (), (), False)
    mine = set(view.players[seat].routes)
    return Way(a, b, path.routes, tuple(r for r in path.routes if r not in mine), True)
