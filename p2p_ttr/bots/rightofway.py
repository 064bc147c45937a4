"""When the hard bot buys Right of Way (the United Kingdom; engine/technologies.py):
to claim, that very turn, a route another player holds that its tickets want back.

A route someone else took is closed to the plan, which goes round it, or
drops a ticket it no longer joins. Right of Way (four locomotives) reopens
one such route for one claim: worth it when the plan with that route
completes more ticket points, or costs much less, than the plan without it,
by more than the price (``techvalue.price``) and ``BUY_MARGIN``, and when the
hand left after paying still pays for the route.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from p2p_ttr.engine.events import BuyTechnology
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.technologies import missing_technology_problem
from p2p_ttr.engine.techstate import RIGHT_OF_WAY

from .planning import CostTable, Plan, efforts, missing_cards, plan_tickets
from .techvalue import BUY_MARGIN, CARD_POINTS, Outlook, paid_from, price


def taken_back_gain(view: GameState, player: int, costs: CostTable, tickets: Sequence[int], before: Plan,
                    route: int) -> float:
    """What reopening ``route`` adds to ``player``'s plan ``before`` for
    ``tickets``, in points: the ticket points it saves and the cards of the
    detour it spares (0 when the plan with it does not take it)."""
    game = view.game
    me = view.players[player]
    opened = list(costs)
    opened[route] = efforts(game)[route]
    after = plan_tickets(game, opened, tickets, me.routes, me.trains)
    if route not in after.routes:
        return 0.0
    return after.points - before.points + CARD_POINTS * (before.cost - after.cost)


def right_of_way_buy(view: GameState, player: int, costs: CostTable, tickets: Sequence[int],
                     o: Outlook, hand: Mapping[str, int]) -> tuple[BuyTechnology, int] | None:
    """The purchase of Right of Way and the route it takes back, if one is worth the price."""
    buys = [a for a in legal_actions(view, player, only=BuyTechnology)
            if isinstance(a, BuyTechnology) and a.technology == RIGHT_OF_WAY]
    if not buys:
        return None
    game = view.game
    me = view.players[player]
    before = plan_tickets(game, costs, tickets, me.routes, me.trains)
    gains: dict[int, float] = {}
    best: tuple[float, int] | None = None
    chosen: tuple[BuyTechnology, int] | None = None
    for buy in buys:
        left = paid_from(view, hand, buy)
        cost = price(view, o, hand, buy)
        for route in game.board.routes:
            owner = view.route_owner[route.id]
            if owner is None or owner == player or route.cars > me.trains:
                continue
            if missing_technology_problem(view, player, route) is not None or missing_cards(game, [route.id], left):
                continue
            if route.id not in gains:
                gains[route.id] = taken_back_gain(view, player, costs, tickets, before, route.id)
            gain = gains[route.id] - cost
            if gain >= BUY_MARGIN and (best is None or (gain, -route.id) > best):
                best, chosen = (gain, -route.id), (buy, route.id)
    return chosen
