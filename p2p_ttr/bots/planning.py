"""Pure planning helpers shared by the bot levels.

Everything here is a function of the game (its board and rules; a view
carries it as ``view.game``) and of what a player's view shows:
which routes are still open to the player, shortest paths over them, a plan
joining the player's tickets, what cards such a plan still needs, and what the
unseen train cards can be. No randomness, no I/O, no state between calls.

Costs: a route the player owns costs 0; an open route costs its *effort*, the
cards it needs (its length) plus a little for the locomotives a ferry demands
and for the risk a tunnel asks for more; a route closed to the player (owned by
someone else, or the second side of a double route where the rules open only
one side at this table) is not an edge at all. A cost table is a list indexed by route id, None for closed.

What depends on the board alone (the graph the searches walk, each route's
effort) is worked out once per game and cached by the game (games compare by
identity: one value per loaded game).
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType

from p2p_ttr.engine import trackbeds
from p2p_ttr.engine.board import GRAY, LOCOMOTIVE, TRACK_BED, Route
from p2p_ttr.engine.cards import CardRef
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.monsters import chaos_places
from p2p_ttr.engine.scoring import PlayerClaims, TicketResult, best_borrowing, mountain_points, ticket_outcomes
from p2p_ttr.engine.state import GameState

# Extra effort, in cards, of a ferry's locomotives (scarce) and of a tunnel's gamble.
FERRY_EFFORT = 0.5
TUNNEL_EFFORT = 0.7
# France: a bed with no piece on it waits for one (the player's own after a draw, or anyone's, in a
# colour they choose); with no piece of its length left in the supply it waits for a built bed's
# piece to come back when that bed is claimed, which may be long.
UNBUILT_BED_EFFORT = 1.0
NO_PIECE_EFFORT = 4.0
# No bed built: every board but France (``laid_colors``).
NOTHING_BUILT: Mapping[int, str] = MappingProxyType({})

CostTable = list[float | None]


@dataclass(frozen=True, slots=True)
class Graph:
    """A board as the searches walk it: cities by index and, per city, its routes and their far ends."""

    city_index: Mapping[str, int]
    adjacent: tuple[tuple[tuple[int, int], ...], ...]  # city index -> ((route id, far city index), ...)


@cache
def graph_of(game: Game) -> Graph:
    """The graph of ``game``'s board (worked out once per game)."""
    board = game.board
    index = {c: i for i, c in enumerate(board.cities)}
    adjacent = tuple(
        tuple((r, index[board.routes[r].other_end(c)]) for r in board.routes_at[c]) for c in board.cities
    )
    return Graph(index, adjacent)


def all_kinds(game: Game) -> tuple[str, ...]:
    """Every kind of train card: the colours, then the locomotive."""
    return game.board.colors + (LOCOMOTIVE,)


def points_for(game: Game, route: int) -> int:
    """Points for claiming ``route`` (its mountain crossings' cars included)."""
    board = game.board
    return board.route_points[board.routes[route].length] + mountain_points(game, (route,))


def effort(route: Route) -> float:
    """Cards needed to claim ``route``, padded for ferries and tunnels."""
    return route.length + FERRY_EFFORT * route.ferry_locomotives + (TUNNEL_EFFORT if route.tunnel else 0.0)


@cache
def efforts(game: Game) -> tuple[float, ...]:
    """``effort`` of every route of ``game``'s board, by route id."""
    return tuple(effort(route) for route in game.board.routes)


@cache
def lengths(game: Game) -> tuple[float, ...]:
    """The cars of every route of ``game``'s board, by route id (a weight for ``route_costs``)."""
    return tuple(float(route.cars) for route in game.board.routes)


def route_open_to(view: GameState, player: int, route: Route) -> bool:
    """Whether ``player`` could still claim ``route`` (trains aside)."""
    if view.route_owner[route.id] is not None:
        return False
    for side in route.parallel:
        side_owner = view.route_owner[side]
        if side_owner == player:
            return False
        if side_owner is not None and not view.game.rules.both_sides_open(view.n_players):
            return False
    # Alvin & Dexter: a route into a City in Chaos is closed while the monster stands there.
    if view.monsters is not None and set(route.cities) & chaos_places(view.game.board, view.monsters):
        return False
    # France: a route cut by a track piece, or a bed no piece may be laid on any more, is closed.
    return trackbeds.claimable_some_day(view, route)


def route_costs(
    view: GameState, player: int, weights: Callable[[Game], Sequence[float]] = efforts
) -> CostTable:
    """The cost table for ``player``: own routes 0, open routes their weight
    (``weights(game)``: one per route id, cached per game) and, on France,
    the wait of a bed still to be built; others None."""
    weight = weights(view.game)
    costs: CostTable = []
    for route in view.game.board.routes:
        owner = view.route_owner[route.id]
        if owner == player:
            costs.append(0.0)
        elif route_open_to(view, player, route):
            costs.append(weight[route.id] + bed_wait(view, route))
        else:
            costs.append(None)
    return costs


def bed_wait(view: GameState, route: Route) -> float:
    """The extra effort of a track bed no piece lies on yet (0 for any other
    route, a built bed included): a claim must wait for a piece, and longer
    when no piece of its length is left to lay."""
    if route.color != TRACK_BED or trackbeds.laid_color(view, route.id) is not None:
        return 0.0
    if not any(length == route.length for _, length in trackbeds.supply(view)):
        return UNBUILT_BED_EFFORT + NO_PIECE_EFFORT
    return UNBUILT_BED_EFFORT


def laid_colors(view: GameState) -> Mapping[int, str]:
    """France: the colour of the piece on each built bed, by route id (what
    ``missing_cards`` asks for there); empty on any other board."""
    return view.track_beds.colors if view.track_beds is not None else NOTHING_BUILT


def without(costs: CostTable, closed: Iterable[int]) -> CostTable:
    """``costs`` with some routes closed."""
    out = list(costs)
    for r in closed:
        out[r] = None
    return out


@dataclass(frozen=True, slots=True)
class Path:
    """A way between two cities over open and own routes, and what it costs."""

    cost: float
    routes: tuple[int, ...]  # every route on the path, own ones included, from a to b


def shortest_path(game: Game, costs: CostTable, a: str, b: str, free: Iterable[int] = ()) -> Path | None:
    """The cheapest path from ``a`` to ``b`` on ``game``'s board; routes in
    ``free`` cost nothing (routes already planned). None if no path is open."""
    free_set = free if isinstance(free, (set, frozenset)) else set(free)
    graph = graph_of(game)
    adjacent = graph.adjacent
    start, goal = graph.city_index[a], graph.city_index[b]
    if start == goal:
        return Path(0.0, ())
    n = len(adjacent)
    dist = [float("inf")] * n
    via: list[tuple[int, int] | None] = [None] * n  # (route, previous city)
    dist[start] = 0.0
    heap = [(0.0, start)]
    while heap:
        d, city = heapq.heappop(heap)
        if d > dist[city]:
            continue
        if city == goal:
            break
        for route, far in adjacent[city]:
            c = costs[route]
            if c is None:
                continue
            nd = d + (0.0 if route in free_set else c)
            if nd < dist[far]:
                dist[far] = nd
                via[far] = (route, city)
                heapq.heappush(heap, (nd, far))
    if via[goal] is None:
        return None
    routes: list[int] = []
    city = goal
    while city != start:
        step = via[city]
        assert step is not None
        routes.append(step[0])
        city = step[1]
    routes.reverse()
    return Path(dist[goal], tuple(routes))


def trains_of(game: Game, routes: Iterable[int]) -> int:
    board_routes = game.board.routes
    return sum(board_routes[r].cars for r in routes)


# ---------------------------------------------------------------------------
# Connectivity of what a player owns


def components(game: Game, routes: Iterable[int]) -> dict[str, str]:
    """Union-find parents over the cities joined by ``routes``."""
    parent: dict[str, str] = {}
    for r in routes:
        route = game.board.routes[r]
        ra, rb = find(parent, route.a), find(parent, route.b)
        if ra != rb:
            parent[ra] = rb
    return parent


def find(parent: dict[str, str], city: str) -> str:
    while (up := parent.get(city, city)) != city:
        city = up
    return city


def ticket_done(game: Game, parent: dict[str, str], ticket: int) -> bool:
    t = game.board.tickets[ticket]
    return find(parent, t.a) == find(parent, t.b)


# ---------------------------------------------------------------------------
# A plan: which routes to claim to complete which tickets


@dataclass(frozen=True)
class Plan:
    """The routes still to claim for a player's tickets, what they need, and which tickets they serve or drop."""

    game: Game  # the game whose routes and tickets these are
    routes: tuple[int, ...]  # routes still to claim, the earliest-planned first
    trains: int  # trains those routes need
    cost: float  # their effort
    done: tuple[int, ...]  # tickets already completed
    planned: tuple[int, ...]  # tickets the routes complete
    dropped: tuple[int, ...]  # tickets it cannot complete (no open path, or too few trains)
    ticket_routes: Mapping[int, tuple[int, ...]] = field(default_factory=dict)  # planned ticket -> its new routes

    @property
    def points(self) -> int:
        """Ticket points if the plan is carried out: completed minus failed."""
        tickets = self.game.board.tickets
        good = sum(tickets[t].points for t in self.done + self.planned)
        return good - sum(tickets[t].points for t in self.dropped)


def plan_tickets(game: Game, costs: CostTable, tickets: Sequence[int], own: Iterable[int], trains: int) -> Plan:
    """A cheap plan for ``tickets``: a greedy Steiner tree over open routes.

    Each ticket in turn is joined by its cheapest path, routes already planned
    counting as free, so later tickets reuse earlier paths. Two orders are tried
    (most valuable first; cheapest first) and the better plan kept: more ticket
    points, then fewer trains. A ticket whose path would overrun ``trains`` is
    dropped. (Trying every ticket first and re-routing each over the others'
    paths found plans a little shorter but played no better.)
    """
    own_set = set(own)
    parent = components(game, own_set)
    done = tuple(t for t in tickets if ticket_done(game, parent, t))
    todo = [t for t in tickets if t not in done]
    if not todo:
        return Plan(game, (), 0, 0.0, done, (), ())
    board_tickets = game.board.tickets
    by_points = sorted(todo, key=lambda t: (-board_tickets[t].points, t))
    base: dict[int, float] = {}
    for t in todo:
        path = shortest_path(game, costs, board_tickets[t].a, board_tickets[t].b)
        base[t] = path.cost if path is not None else float("inf")
    by_cost = sorted(todo, key=lambda t: (base[t], t))
    best: Plan | None = None
    for order in (by_points, by_cost) if by_cost != by_points else (by_points,):
        plan = _greedy_plan(game, costs, order, own_set, trains, done)
        if best is None or (plan.points, -plan.trains) > (best.points, -best.trains):
            best = plan
    assert best is not None
    return best


def _greedy_plan(
    game: Game,
    costs: CostTable, order: Sequence[int], own: set[int], trains: int, done: tuple[int, ...]
) -> Plan:
    planned_routes: list[int] = []
    planned_set: set[int] = set()
    used = 0
    cost = 0.0
    planned: list[int] = []
    dropped: list[int] = []
    per_ticket: dict[int, tuple[int, ...]] = {}
    for t in order:
        ticket = game.board.tickets[t]
        path = shortest_path(game, costs, ticket.a, ticket.b, planned_set)
        if path is None:
            dropped.append(t)
            continue
        new = tuple(r for r in path.routes if r not in own and r not in planned_set)
        extra = trains_of(game, new)
        if used + extra > trains:
            dropped.append(t)
            continue
        used += extra
        cost += path.cost
        planned.append(t)
        per_ticket[t] = tuple(r for r in path.routes if r not in own)
        planned_routes.extend(new)
        planned_set.update(new)
    return Plan(game, tuple(planned_routes), used, cost, done, tuple(planned), tuple(dropped), per_ticket)


def detour_cost(costs: CostTable, plan: Plan, route: int) -> float:
    """How much more the plan's dearest ticket through ``route`` would cost if
    someone took it: inf when nothing else joins that ticket (a bottleneck)."""
    worst = 0.0
    closed: CostTable | None = None
    for t, routes in plan.ticket_routes.items():
        if route not in routes:
            continue
        ticket = plan.game.board.tickets[t]
        with_it = shortest_path(plan.game, costs, ticket.a, ticket.b)
        if closed is None:
            closed = without(costs, [route])
        without_it = shortest_path(plan.game, closed, ticket.a, ticket.b)
        if with_it is None:
            continue
        if without_it is None:
            return float("inf")
        worst = max(worst, without_it.cost - with_it.cost)
    return worst


# ---------------------------------------------------------------------------
# Cards


def hand_of(view: GameState, player: int) -> Counter[str]:
    """The kinds in ``player``'s hand (their own view knows every face)."""
    counts: Counter[str] = Counter()
    card_kinds = view.game.board.card_kinds
    for ref in view.players[player].hand:
        card = view.face(ref)
        if card is not None:
            counts[card_kinds[card]] += 1
    return counts


def missing_cards(
    game: Game, routes: Iterable[int], hand: Mapping[str, int], built: Mapping[int, str] = NOTHING_BUILT
) -> int:
    """How many more cards a hand needs to claim all of ``routes``.

    Coloured routes ask for their colour, and so does a track bed built in
    a colour (France: ``built``, the colour of the piece on each bed, from
    ``laid_colors``); each gray route is given the colour the hand has most
    to spare (longest gray routes first), and so is a bed no piece lies on
    yet (the bot may lay the piece of its choice there); a ferry's
    locomotives must be locomotives; spare locomotives fill any gap.
    """
    demand: dict[str, int] = {}
    ferry = 0
    grays: list[Route] = []
    board = game.board
    for r in routes:
        route = board.routes[r]
        ferry += route.ferry_locomotives
        color = built.get(r, route.color)
        if color in (GRAY, TRACK_BED):
            grays.append(route)
        else:
            demand[color] = demand.get(color, 0) + route.length - route.ferry_locomotives
    grays.sort(key=lambda g: -g.length)
    for g in grays:
        color = max(board.colors, key=lambda c: hand.get(c, 0) - demand.get(c, 0))
        demand[color] = demand.get(color, 0) + g.length - g.ferry_locomotives
    short = sum(max(0, n - hand.get(c, 0)) for c, n in demand.items())
    locos = hand.get(LOCOMOTIVE, 0)
    spare = max(0, locos - ferry)
    return max(0, short - spare) + max(0, ferry - locos)


def card_gains(
    game: Game, routes: Sequence[int], hand: Counter[str], built: Mapping[int, str] = NOTHING_BUILT
) -> dict[str, int]:
    """Per kind, by how many cards one more card of it shortens ``missing_cards``."""
    base = missing_cards(game, routes, hand, built)
    gains: dict[str, int] = {}
    for kind in all_kinds(game):
        hand[kind] += 1
        gains[kind] = base - missing_cards(game, routes, hand, built)
        hand[kind] -= 1
    return gains


def unseen_kinds(view: GameState, player: int) -> Counter[str]:
    """How many cards of each kind ``player`` has not seen where they are now:
    the draw pile and the unknown cards in other hands."""
    board = view.game.board
    counts: Counter[str] = Counter()
    for kind in board.colors:
        counts[kind] = board.cards_per_color
    counts[LOCOMOTIVE] = board.locomotives
    known = list(view.discard) + [r for r in view.face_up if r is not None]
    for ps in view.players:
        known += ps.hand
    if view.tunnel is not None:
        known += view.tunnel.revealed
    for ref in known:
        card = view.face(ref)
        if card is not None:
            counts[board.card_kind(card)] -= 1
    return counts


def blind_gain(gains: Mapping[str, float], unseen: Mapping[str, int]) -> float:
    """The expected gain of a card drawn blind."""
    total = sum(max(0, n) for n in unseen.values())
    if total <= 0:
        return 0.0
    return sum(gains.get(k, 0.0) * max(0, n) for k, n in unseen.items()) / total


def ticket_ids(view: GameState, refs: Iterable[CardRef]) -> list[int]:
    """The ticket ids behind ``refs`` whose faces the view knows."""
    out = []
    for ref in refs:
        face = view.face(ref)
        if face is not None:
            out.append(face)
    return out


# ---------------------------------------------------------------------------
# Time: how many turns the game has left


# Before a player has placed many trains, assume this pace (trains per turn),
# worth this many turns of evidence.
PRIOR_PACE = 1.1
PRIOR_TURNS = 4
# Useful cards a turn of drawing brings, on average.
CARDS_PER_DRAW_TURN = 1.8
# Trains an average claim places, and how much slower than a pure rush players go.
AVERAGE_CLAIM = 3.0
RUSH_SLACK = 1.2


def turns_taken(view: GameState, player: int) -> int:
    """How many turns ``player`` has played (turns go round from player 0)."""
    rounds, extra = divmod(view.turn, view.n_players)
    return rounds + (1 if player < extra else 0)


def pace(view: GameState, player: int) -> float:
    """Trains ``player`` places per turn, smoothed towards PRIOR_PACE."""
    placed = view.game.rules.trains - view.players[player].trains
    return (placed + PRIOR_PACE * PRIOR_TURNS) / (turns_taken(view, player) + PRIOR_TURNS)


def turns_left(view: GameState, player: int) -> float:
    """About how many more turns ``player`` gets, this one included.

    The game ends one round after someone ends a turn with few trains (the
    rules' ``last_round_trains``); the others' pace says when that will be
    (the player's own end is theirs to choose, so it does not count)."""
    if view.final_turns_left is not None:
        return 1.0
    soonest = float("inf")
    last = view.game.rules.last_round_trains
    for q, ps in enumerate(view.players):
        if q != player:
            at_pace = max(0, ps.trains - last) / pace(view, q)
            soonest = min(soonest, at_pace, RUSH_SLACK * rush_turns(view, q))
    return soonest + 1.0


def rush_turns(view: GameState, player: int) -> float:
    """The fewest turns ``player`` plausibly needs to get down to the trains
    that start the last round: claims of about AVERAGE_CLAIM trains, after
    drawing the cards their hand lacks. A big hand can end the game much
    sooner than the pace says."""
    ps = view.players[player]
    to_place = max(0, ps.trains - view.game.rules.last_round_trains)
    return to_place / AVERAGE_CLAIM + max(0, to_place - len(ps.hand)) / 2


def turns_needed(
    game: Game, routes: Sequence[int], hand: Mapping[str, int], built: Mapping[int, str] = NOTHING_BUILT
) -> float:
    """About how many turns claiming ``routes`` takes: one per claim, plus the draws."""
    return len(routes) + missing_cards(game, routes, hand, built) / CARDS_PER_DRAW_TURN


# ---------------------------------------------------------------------------
# Stations


def borrowable(view: GameState, player: int) -> tuple[int, ...]:
    """Opponents' routes at ``player``'s stations: their tickets may use them."""
    out = []
    for city in view.players[player].stations:
        for r in view.game.board.routes_at[city]:
            owner = view.route_owner[r]
            if owner is not None and owner != player:
                out.append(r)
    return tuple(out)


def ticket_results(game: Game, claims: PlayerClaims, opponent_routes: Sequence[int]) -> tuple[TicketResult, ...]:
    """Each ticket of ``claims`` as it would score now, stations borrowing at best."""
    borrowed = best_borrowing(game.board, claims, opponent_routes)
    return ticket_outcomes(game.board, claims, borrowed)


def ticket_points(game: Game, claims: PlayerClaims, opponent_routes: Sequence[int]) -> int:
    """Ticket points these claims would score now, stations borrowing at best."""
    return sum(t.points for t in ticket_results(game, claims, opponent_routes))
