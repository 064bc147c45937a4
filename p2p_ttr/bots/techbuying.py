"""When a bot buys a technology (the United Kingdom's, engine/technologies.py).

A bot buys, before its turn's action, the technology that the most routes
it is working towards still need (ties: the cheaper, then the table's
order), paying with the fewest cards (its real locomotives before groups of
four). Nothing else is worth a purchase to it: a route it does not plan to
claim needs nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from p2p_ttr.engine.events import Action, BuyTechnology
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.technologies import held, route_needs, technology_cards


def missing_technologies(view: GameState, player: int, routes: Sequence[int]) -> Counter[str]:
    """For each technology ``player`` lacks, how many of ``routes`` need it."""
    needs = route_needs(view.game)
    if not needs:
        return Counter()
    mine = held(view, player)
    return Counter(name for r in routes for name in needs[r] if name not in mine)


def technology_to_buy(view: GameState, player: int, wanted: Sequence[int]) -> Action | None:
    """The purchase ``player`` makes now for the routes it wants, if any."""
    missing = missing_technologies(view, player, wanted)
    if not missing:
        return None
    cards = technology_cards(view.game)
    order = list(cards)
    offers = [a for a in legal_actions(view, player, only=BuyTechnology)
              if isinstance(a, BuyTechnology) and a.technology in missing]
    if not offers:
        return None
    return min(offers, key=lambda a: (-missing[a.technology], cards[a.technology].cost,
                                      order.index(a.technology), len(a.cards)))
