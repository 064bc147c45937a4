"""How the hard bot plays Europe 1912's warehouses (depotplay.py has the
plainer levels and the wrapper; engine/depots.py the rules).

- Which warehouse a draw feeds: each seat's warehouse is worth the card
  when the bot takes it before any rival (a route of its plan still to
  claim ends in a depot of that seat's, and no rival claims into one
  first), less the card when a rival takes it (the routes the bot reads the
  rivals want into that seat's depots, ``opponents.py``; a rival's own
  depot stands on a city of its tickets, ``OWNER_CLAIMS``).
  The card goes where that is the most: its own warehouse when its plan
  reaches its depot and no rival's does, a warehouse nobody will empty
  rather than one a rival will.
- When to empty: the cards taken are worth about what a card scores while
  turns are left for them (``techvalue.CARD_POINTS``), as many as its plan
  still lacks and a spare route's more (the rest a quarter of that), and
  what a rival would have taken is denied; each warehouse gives a depot back, which
  lowers the bot's chance of the most-unused bonus, read from its lead in
  depots over the best rival (``depot_race``: the rivals still give depots
  back too). The bot takes the warehouses, most cards first, as far as
  they pay.
- Raids: where it would draw, a claim into a depot whose warehouses gain
  that much (a rival's filled by its draws) is made instead, off its plan
  too when the cards taken pay for the claim's cards and trains.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2p_ttr.engine import depots
from p2p_ttr.engine.events import Action, ClaimRoute
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.moves import claim_actions
from p2p_ttr.engine.state import GameState

from .depotplay import most_cards_first
from .opponents import read_opponents
from .planning import hand_of, laid_colors, missing_cards, plan_tickets, points_for, route_costs, ticket_ids, turns_left
from .techvalue import CARD_POINTS, chance_ahead

# A rival's depot stands on a city of its tickets: it is about this likely to claim into it.
OWNER_CLAIMS = 0.8
# With fewer turns than this left, a card taken is worth LATE_CARD_SHARE of a card (few routes left to pay);
# so is a card beyond those the plan still lacks and SPARE_ROUTE_CARDS more (a spare route's).
LATE_TURNS = 3.0
LATE_CARD_SHARE = 0.25
SPARE_ROUTE_CARDS = 4
# A claim off the plan for a warehouse: its trains would score about this much a car on spare routes
# (hard.TRAIN_OPPORTUNITY), and it must gain this much over that and its cards.
RAID_TRAIN_POINTS = 2.5
RAID_MARGIN = 2.0
# The supplies now only guess at how the most-unused bonus ends (the others still give depots back):
# the chance of it is read from the lead in depots as a logistic of this spread (techvalue.chance_ahead).
DEPOT_SPREAD = 1.0


def depot_race(mine: int, rival: int, bonus: int, denial: float) -> float:
    """What the most-unused bonus is worth to the bot with ``mine`` depots
    left against the best rival's ``rival``: its chance of ending level or
    ahead, times the bonus and the rival's share of it denied."""
    return bonus * (1.0 + denial) * chance_ahead(mine - rival, DEPOT_SPREAD) if mine > 0 else 0.0


class WeighedDepots:
    """Hard: the warehouse fed and those emptied weighed (see the module docstring)."""

    def __init__(self) -> None:
        self._read_for: tuple[Game, tuple[int | None, ...]] | None = None
        self._threat: tuple[float, ...] = ()

    def threat(self, view: GameState, player: int) -> tuple[float, ...]:
        """How likely the rivals want each route (read again when a route is claimed)."""
        key = (view.game, view.route_owner)
        if key != self._read_for:
            self._threat, self._read_for = read_opponents(view, player).threat, key
        return self._threat

    def plan_routes(self, view: GameState, player: int) -> tuple[int, ...]:
        """The routes of the bot's plan for its tickets (planning.py; the medium bot's plan)."""
        me = view.players[player]
        return plan_tickets(view.game, route_costs(view, player), ticket_ids(view, me.tickets), me.routes,
                            me.trains).routes

    def cards_wanted(self, view: GameState, player: int) -> int:
        """The cards the bot's plan still lacks, and a spare route's more."""
        plan = self.plan_routes(view, player)
        return missing_cards(view.game, plan, hand_of(view, player), laid_colors(view)) + SPARE_ROUTE_CARDS

    def reach(self, view: GameState, player: int) -> tuple[list[float], list[float]]:
        """Per seat: whether the bot's plan claims into a depot of that seat's,
        and how likely a rival does first."""
        held = view.depots
        assert held is not None
        board = view.game.board
        mine_at = {city for r in self.plan_routes(view, player) for city in board.routes[r].cities}
        threat = self.threat(view, player)
        ours: list[float] = []
        theirs: list[float] = []
        for seat in range(view.n_players):
            cities = held.cities_of(seat)
            ours.append(float(any(c in mine_at for c in cities)))
            wanted = max((min(1.0, sum(threat[r] for r in board.routes_at[c] if view.route_owner[r] is None))
                          for c in cities), default=0.0)
            opened = any(view.route_owner[r] is None for c in cities for r in board.routes_at[c])
            theirs.append(max(wanted, OWNER_CLAIMS if seat != player and opened else 0.0))
        return ours, theirs

    def warehouse_for(self, view: GameState, player: int) -> int:
        held = view.depots
        assert held is not None
        ours, theirs = self.reach(view, player)
        # The bot gains a card it takes before any rival, and loses one a rival takes.
        return max(range(view.n_players), key=lambda s: (ours[s] * (1.0 - theirs[s]) - theirs[s], s == player,
                                                          -len(held.warehouses[s]), -s))

    def to_empty(self, view: GameState, player: int) -> tuple[int, ...]:
        return self.taken(view, player, depots.reachable(view, player))[0]

    def taken(self, view: GameState, player: int, reachable: Sequence[int]) -> tuple[tuple[int, ...], float]:
        """Of the warehouses of ``reachable`` seats, those worth emptying and what they gain, in points."""
        held = view.depots
        assert held is not None
        seats = most_cards_first(view, tuple(s for s in reachable if held.warehouses[s]))[: held.supply[player]]
        if not seats:
            return (), 0.0
        _, theirs = self.reach(view, player)
        denial = 1.0 / max(1, view.n_players - 1)
        late = turns_left(view, player) < LATE_TURNS
        wanted = 0 if late else self.cards_wanted(view, player)
        values = []
        for s in seats:  # the cards the bot still wants at a card's worth, the rest at LATE_CARD_SHARE of it
            count = len(held.warehouses[s])
            useful = min(count, wanted)
            wanted -= useful
            mine = CARD_POINTS * (useful + LATE_CARD_SHARE * (count - useful))
            values.append(mine + denial * theirs[s] * CARD_POINTS * count)
        count, gain = best_count(view, player, values, denial)
        return tuple(sorted(seats[:count])), gain

    def raid(self, view: GameState, player: int) -> Action | None:
        """The claim into a depot whose warehouses gain most over what the
        claim costs off the plan (its cards, and its trains' worth on spare
        routes less its points), by ``RAID_MARGIN`` (None: the draw stands)."""
        held = view.depots
        assert held is not None
        if not held.supply[player] or not any(held.warehouses):
            return None
        board = view.game.board
        plan = self.plan_routes(view, player)
        best: tuple[float, int] | None = None
        chosen: Action | None = None
        for claim in claim_actions(view, player):
            if not isinstance(claim, ClaimRoute) or board.routes[claim.route].tunnel:
                continue
            route = board.routes[claim.route]
            seats = {owner for c in route.cities if (owner := held.owner(c)) is not None}
            if not seats:
                continue
            _, gain = self.taken(view, player, tuple(seats))
            if claim.route not in plan:
                gain += points_for(view.game, claim.route) - CARD_POINTS * len(claim.cards) - RAID_TRAIN_POINTS * route.cars
            if gain >= RAID_MARGIN and (best is None or (gain, -len(claim.cards)) > best):
                best, chosen = (gain, -len(claim.cards)), claim
        return chosen


def best_count(view: GameState, player: int, values: Sequence[float], denial: float) -> tuple[int, float]:
    """How many of the warehouses worth ``values`` (most first) pay for the depots they give back, and their gain."""
    held = view.depots
    assert held is not None
    bonus = view.game.rules.depot_points
    supply = held.supply[player]
    rival = max(s for q, s in enumerate(held.supply) if q != player)
    now = depot_race(supply, rival, bonus, denial)
    gains = [sum(values[:k]) - (now - depot_race(supply - k, rival, bonus, denial)) for k in range(len(values) + 1)]
    count = max(range(len(gains)), key=lambda k: (gains[k], -k))
    return count, gains[count]
