"""What the player can do with the hand they hold: the routes it pays for
and which of their tickets each one brings closer.

The list is worked out whoever's turn it is (a player plans while the
others play), from ``claim_actions``, the same generator the table's legal
moves come from, so it never lists a route the table would refuse for its
cost or for being closed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from p2p_ttr.engine.board import Route
from p2p_ttr.engine.events import ClaimRoute
from p2p_ttr.engine.moves import claim_actions
from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.trackbeds import as_built

from .tickets import ticket_rows, way_between
from .words import route_points


@dataclass(frozen=True)
class Claimable:
    """A route the player's hand pays for now, and the tickets whose way uses it."""

    route: Route
    tickets: tuple[int, ...]  # the ticket numbers (from 1, as the panel lists them) whose way uses it
    points: int  # what claiming it scores


def claimable(view: GameState, seat: int) -> list[Claimable]:
    """The routes ``seat``'s hand pays for now, the ones on a ticket's
    shortest way first, then the longest (they score the most)."""
    # Mid-turn (a card drawn) no route can be claimed; the list still says
    # what the hand pays for, which is what the player plans with.
    routes = {a.route for a in claim_actions(replace(view, cards_drawn=0), seat) if isinstance(a, ClaimRoute)}
    board = view.game.board
    serves: dict[int, list[int]] = {}
    for number, row in enumerate(ticket_rows(view, seat), 1):
        if row.done:
            continue
        for r in way_between(view, seat, row.ticket.a, row.ticket.b).to_claim:
            twin = board.routes[r].twin  # either side of a double route joins the same cities
            for side in (r,) if twin is None else (r, twin):
                serves.setdefault(side, []).append(number)
    found: dict[tuple[str, str, str, int, bool, int], Claimable] = {}
    for r in sorted(routes):
        route = as_built(view, board.routes[r])  # a built track bed in its piece's colour
        # The two sides of a double route alike in every way are one choice to the player.
        shape = (route.a, route.b, route.color, route.length, route.tunnel, route.ferry_locomotives)
        found.setdefault(shape, Claimable(route, tuple(serves.get(r, ())), route_points(board, route)))
    return sorted(found.values(), key=lambda c: (not c.tickets, -c.route.length, c.route.a, c.route.b, c.route.id))
