"""How the bots play Old West's city markers (engine/citymarkers.py).

- The starting city: every claim grows from it, so it goes where the bot's
  ticket plan is busiest: the free city most of the plan's routes touch,
  then the one with the most routes on the board.
- The plan: a claim must touch the network, so each piece of the ticket
  plan not yet joined to it gets the cheapest path from the starting city
  (``joined_to_network``), claimed first.
- A route into a rival's marked city scores for the rival, not the
  claimer: ``rivals_cities_cost`` makes such routes dearer to plan over
  (the hard bot's).
- Alvin the Alien, once captured, goes where the fewest open routes run
  in: the harder his city is to reach, the longer he stays (``alvin_home``).
- A marker after a claim: every later claim into a marked city pays its
  owner, so a marker is worth the points of the open routes still into that
  city, times the chance someone claims one before the game ends; it costs
  two cards, which the plan may need. ``marker_worth`` is that estimate;
  each level decides what beats the cost.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from p2p_ttr.engine.citymarkers import route_scorers
from p2p_ttr.engine.events import Action, MoveAlvin, PlaceMarker, PlaceStartCity, SkipMarker
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.state import GameState

from .planning import CostTable, Plan, components, find, shortest_path

# The share of a marked city's open routes someone claims before the end, at the start of the game.
CLAIMED_SHARE = 0.4


def start_city(view: GameState, player: int, plan_routes: Sequence[int]) -> Action:
    """The starting city where the plan is busiest (see the module docstring)."""
    board = view.game.board
    touches = Counter(city for r in plan_routes for city in board.routes[r].cities)
    starts = [a for a in legal_actions(view, player, only=PlaceStartCity) if isinstance(a, PlaceStartCity)]
    return max(starts, key=lambda a: (touches[a.city], len(board.routes_at[a.city]), -board.cities.index(a.city)))


def open_route_points(view: GameState, city: str) -> int:
    """The points of the routes into ``city`` nobody holds yet, one side per double or triple route."""
    board = view.game.board
    seen: set[frozenset[int]] = set()
    points = 0
    for r in board.routes_at[city]:
        route = board.routes[r]
        group = frozenset((r, *route.parallel))
        if group in seen or any(view.route_owner[s] is not None for s in group):
            continue
        seen.add(group)
        points += board.route_points[route.length]
    return points


def game_left(view: GameState) -> float:
    """The share of every player's trains still in their supply: how much game is left for a marker to earn in."""
    total = view.game.rules.trains * view.n_players
    return sum(ps.trains for ps in view.players) / total


def marker_worth(view: GameState, city: str) -> float:
    """The points a marker on ``city`` may be expected to bring from now on."""
    return open_route_points(view, city) * CLAIMED_SHARE * game_left(view)


def marker_options(view: GameState, player: int) -> list[PlaceMarker]:
    return [a for a in legal_actions(view, player, only=PlaceMarker) if isinstance(a, PlaceMarker)]


def best_marker(view: GameState, player: int, least_worth: float) -> Action:
    """A marker on the end worth most, if it is worth ``least_worth`` points; else none."""
    options = marker_options(view, player)
    if not options:
        return SkipMarker(player)
    best = max(options, key=lambda a: marker_worth(view, a.city))
    return best if marker_worth(view, best.city) >= least_worth else SkipMarker(player)


def joined_to_network(view: GameState, player: int, costs: CostTable, plan: Plan) -> Plan:
    """``plan`` with, first, the routes that join each of its pieces to the
    player's network (Old West; any other game's plan as it is)."""
    start = view.markers.start_of(player) if view.markers is not None else None
    if start is None or not plan.routes:
        return plan
    game = view.game
    board = game.board
    own = view.players[player].routes
    routes = list(plan.routes)
    for _ in plan.routes:  # each round joins at least one more route: bounded by the plan's size
        parent = components(game, (*own, *routes))
        home = find(parent, start)
        cut_off = {city for r in routes for city in board.routes[r].cities if find(parent, city) != home}
        if not cut_off:
            break
        free = {*routes, *own}
        paths = [p for city in sorted(cut_off) if (p := shortest_path(game, costs, start, city, free)) is not None]
        if not paths:
            break
        new = [r for r in min(paths, key=lambda p: p.cost).routes if r not in free]
        if not new:
            break
        routes = new + routes
    joining = routes[: len(routes) - len(plan.routes)]
    return replace(plan, routes=tuple(routes), trains=plan.trains + sum(board.routes[r].cars for r in joining))


def rivals_cities_cost(view: GameState, player: int, costs: CostTable, lost: float, given: float) -> CostTable:
    """``costs`` with each open route dearer by what its claim would not
    score for ``player`` (``lost`` per point) and would score for rivals
    (``given`` per point), by the markers on its ends now (Old West; any
    other game's costs as they are)."""
    markers = view.markers
    if markers is None:
        return costs
    board = view.game.board
    out = list(costs)
    for r, cost in enumerate(costs):
        route = board.routes[r]
        if cost is None or cost == 0.0 or not any(markers.owner(c) is not None for c in route.cities):
            continue
        scorers = route_scorers(markers, route, player)
        points = board.route_points[route.length]
        mine = scorers.count(player)
        out[r] = cost + lost * points * max(0, 1 - mine) + given * points * (len(scorers) - mine)
    return out


def alvin_home(view: GameState, player: int) -> Action:
    """Where to put Alvin down: the city of ours the fewest open route points run into."""
    homes = [a for a in legal_actions(view, player, only=MoveAlvin) if isinstance(a, MoveAlvin)]
    return min(homes, key=lambda a: open_route_points(view, a.city))
