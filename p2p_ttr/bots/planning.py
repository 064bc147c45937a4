"""Pure planning helpers shared by the bot levels.

Everything here is a function of the board and of what a player's view shows:
which routes are still open to the player, shortest paths over them, a plan
joining the player's tickets, what cards such a plan still needs, and what the
unseen train cards can be. No randomness, no I/O, no state between calls.

Costs: a route the player owns costs 0; an open route costs its *effort*, the
cards it needs (its length) plus a little for the locomotives a ferry demands
and for the risk a tunnel asks for more; a route closed to the player (owned by
someone else, or the second side of a double route in a 2- or 3-player game) is
not an edge at all. A cost table is a list indexed by route id, None for closed.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from p2p_ttr.engine.board import GRAY, LOCOMOTIVE, Route, europe
from p2p_ttr.engine.cards import CardRef
from p2p_ttr.engine.scoring import PlayerClaims, best_borrowing, ticket_outcomes
from p2p_ttr.engine.state import GameState

BOARD = europe()
CITY_INDEX: dict[str, int] = {c: i for i, c in enumerate(BOARD.cities)}
# city index -> ((route id, far city index), ...): the graph the searches walk
ADJACENT: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((r, CITY_INDEX[BOARD.routes[r].other_end(c)]) for r in BOARD.routes_at[c]) for c in BOARD.cities
)
ALL_KINDS: tuple[str, ...] = BOARD.colors + (LOCOMOTIVE,)
# Extra effort, in cards, of a ferry's locomotives (scarce) and of a tunnel's gamble.
FERRY_EFFORT = 0.5
TUNNEL_EFFORT = 0.7

CostTable = list[float | None]


def points_for(route: int) -> int:
    """Points for claiming ``route``."""
    return BOARD.route_points[BOARD.routes[route].length]


def effort(route: Route) -> float:
    """Cards needed to claim ``route``, padded for ferries and tunnels."""
    return route.length + FERRY_EFFORT * route.ferry_locomotives + (TUNNEL_EFFORT if route.tunnel else 0.0)


def route_open_to(view: GameState, player: int, route: Route) -> bool:
    """Whether ``player`` could still claim ``route`` (trains aside)."""
    if view.route_owner[route.id] is not None:
        return False
    if route.twin is not None:
        twin_owner = view.route_owner[route.twin]
        if twin_owner == player:
            return False
        if twin_owner is not None and not view.game.rules.both_sides_open(view.n_players):
            return False
    return True


def route_costs(
    view: GameState, player: int, weight: Callable[[Route], float] = effort
) -> CostTable:
    """The cost table for ``player``: own routes 0, open routes ``weight``, others None."""
    costs: CostTable = []
    for route in BOARD.routes:
        owner = view.route_owner[route.id]
        if owner == player:
            costs.append(0.0)
        elif route_open_to(view, player, route):
            costs.append(weight(route))
        else:
            costs.append(None)
    return costs


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


def shortest_path(costs: CostTable, a: str, b: str, free: Iterable[int] = ()) -> Path | None:
    """The cheapest path from ``a`` to ``b``; routes in ``free`` cost nothing
    (routes already planned). None if no path is open."""
    free_set = free if isinstance(free, (set, frozenset)) else set(free)
    start, goal = CITY_INDEX[a], CITY_INDEX[b]
    if start == goal:
        return Path(0.0, ())
    n = len(ADJACENT)
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
        for route, far in ADJACENT[city]:
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


def trains_of(routes: Iterable[int]) -> int:
    return sum(BOARD.routes[r].length for r in routes)


# ---------------------------------------------------------------------------
# Connectivity of what a player owns


def components(routes: Iterable[int]) -> dict[str, str]:
    """Union-find parents over the cities joined by ``routes``."""
    parent: dict[str, str] = {}
    for r in routes:
        route = BOARD.routes[r]
        ra, rb = find(parent, route.a), find(parent, route.b)
        if ra != rb:
            parent[ra] = rb
    return parent


def find(parent: dict[str, str], city: str) -> str:
    while (up := parent.get(city, city)) != city:
        city = up
    return city


def ticket_done(parent: dict[str, str], ticket: int) -> bool:
    t = BOARD.tickets[ticket]
    return find(parent, t.a) == find(parent, t.b)


# ---------------------------------------------------------------------------
# A plan: which routes to claim to complete which tickets


@dataclass(frozen=True)
class Plan:
    """The routes still to claim for a player's tickets, what they need, and which tickets they serve or drop."""

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
        good = sum(BOARD.tickets[t].points for t in self.done + self.planned)
        return good - sum(BOARD.tickets[t].points for t in self.dropped)


def plan_tickets(costs: CostTable, tickets: Sequence[int], own: Iterable[int], trains: int) -> Plan:
    """A cheap plan for ``tickets``: a greedy Steiner tree over open routes.

    Each ticket in turn is joined by its cheapest path, routes already planned
    counting as free, so later tickets reuse earlier paths. Two orders are tried
    (most valuable first; cheapest first) and the better plan kept: more ticket
    points, then fewer trains. A ticket whose path would overrun ``trains`` is
    dropped. (Trying every ticket first and re-routing each over the others'
    paths found plans a little shorter but played no better.)
    """
    own_set = set(own)
    parent = components(own_set)
    done = tuple(t for t in tickets if ticket_done(parent, t))
    todo = [t for t in tickets if t not in done]
    if not todo:
        return Plan((), 0, 0.0, done, (), ())
    by_points = sorted(todo, key=lambda t: (-BOARD.tickets[t].points, t))
    base: dict[int, float] = {}
    for t in todo:
        path = shortest_path(costs, BOARD.tickets[t].a, BOARD.tickets[t].b)
        base[t] = path.cost if path is not None else float("inf")
    by_cost = sorted(todo, key=lambda t: (base[t], t))
    best: Plan | None = None
    for order in (by_points, by_cost) if by_cost != by_points else (by_points,):
        plan = _greedy_plan(costs, order, own_set, trains, done)
        if best is None or (plan.points, -plan.trains) > (best.points, -best.trains):
            best = plan
    assert best is not None
    return best


def _greedy_plan(
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
        ticket = BOARD.tickets[t]
        path = shortest_path(costs, ticket.a, ticket.b, planned_set)
        if path is None:
            dropped.append(t)
            continue
        new = tuple(r for r in path.routes if r not in own and r not in planned_set)
        extra = trains_of(new)
        if used + extra > trains:
            dropped.append(t)
            continue
        used += extra
        cost += path.cost
        planned.append(t)
        per_ticket[t] = tuple(r for r in path.routes if r not in own)
        planned_routes.extend(new)
        planned_set.update(new)
    return Plan(tuple(planned_routes), used, cost, done, tuple(planned), tuple(dropped), per_ticket)


def detour_cost(costs: CostTable, plan: Plan, route: int) -> float:
    """How much more the plan's dearest ticket through ``route`` would cost if
    someone took it: inf when nothing else joins that ticket (a bottleneck)."""
    worst = 0.0
    closed: CostTable | None = None
    for t, routes in plan.ticket_routes.items():
        if route not in routes:
            continue
        ticket = BOARD.tickets[t]
        with_it = shortest_path(costs, ticket.a, ticket.b)
        if closed is None:
            closed = without(costs, [route])
        without_it = shortest_path(closed, ticket.a, ticket.b)
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
    for ref in view.players[player].hand:
        card = view.face(ref)
        if card is not None:
            counts[BOARD.card_kind(card)] += 1
    return counts


def missing_cards(routes: Iterable[int], hand: Mapping[str, int]) -> int:
    """How many more cards a hand needs to claim all of ``routes``.

    Coloured routes ask for their colour; each gray route is given the colour
    the hand has most to spare (longest gray routes first); a ferry's
    locomotives must be locomotives; spare locomotives fill any gap.
    """
    demand: dict[str, int] = {}
    ferry = 0
    grays: list[Route] = []
    for r in routes:
        route = BOARD.routes[r]
        ferry += route.ferry_locomotives
        if route.color == GRAY:
            grays.append(route)
        else:
            demand[route.color] = demand.get(route.color, 0) + route.length - route.ferry_locomotives
    grays.sort(key=lambda g: -g.length)
    for g in grays:
        color = max(BOARD.colors, key=lambda c: hand.get(c, 0) - demand.get(c, 0))
        demand[color] = demand.get(color, 0) + g.length - g.ferry_locomotives
    short = sum(max(0, n - hand.get(c, 0)) for c, n in demand.items())
    locos = hand.get(LOCOMOTIVE, 0)
    spare = max(0, locos - ferry)
    return max(0, short - spare) + max(0, ferry - locos)


def card_gains(routes: Sequence[int], hand: Counter[str]) -> dict[str, int]:
    """Per kind, by how many cards one more card of it shortens ``missing_cards``."""
    base = missing_cards(routes, hand)
    gains: dict[str, int] = {}
    for kind in ALL_KINDS:
        hand[kind] += 1
        gains[kind] = base - missing_cards(routes, hand)
        hand[kind] -= 1
    return gains


def unseen_kinds(view: GameState, player: int) -> Counter[str]:
    """How many cards of each kind ``player`` has not seen where they are now:
    the draw pile and the unknown cards in other hands."""
    counts: Counter[str] = Counter()
    for kind in BOARD.colors:
        counts[kind] = BOARD.cards_per_color
    counts[LOCOMOTIVE] = BOARD.locomotives
    known = list(view.discard) + [r for r in view.face_up if r is not None]
    for ps in view.players:
        known += ps.hand
    if view.tunnel is not None:
        known += view.tunnel.revealed
    for ref in known:
        card = view.face(ref)
        if card is not None:
            counts[BOARD.card_kind(card)] -= 1
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

    The game ends one round after someone ends a turn with 2 trains or fewer;
    the others' pace says when that will be (the player's own end is theirs to
    choose, so it does not count)."""
    if view.final_turns_left is not None:
        return 1.0
    soonest = float("inf")
    for q, ps in enumerate(view.players):
        if q != player:
            at_pace = max(0, ps.trains - 2) / pace(view, q)
            soonest = min(soonest, at_pace, RUSH_SLACK * rush_turns(view, q))
    return soonest + 1.0


def rush_turns(view: GameState, player: int) -> float:
    """The fewest turns ``player`` plausibly needs to get down to 2 trains:
    claims of about AVERAGE_CLAIM trains, after drawing the cards their hand
    lacks. A big hand can end the game much sooner than the pace says."""
    ps = view.players[player]
    to_place = max(0, ps.trains - 2)
    return to_place / AVERAGE_CLAIM + max(0, to_place - len(ps.hand)) / 2


def turns_needed(routes: Sequence[int], hand: Mapping[str, int]) -> float:
    """About how many turns claiming ``routes`` takes: one per claim, plus the draws."""
    return len(routes) + missing_cards(routes, hand) / CARDS_PER_DRAW_TURN


# ---------------------------------------------------------------------------
# Stations


def borrowable(view: GameState, player: int) -> tuple[int, ...]:
    """Opponents' routes at ``player``'s stations: their tickets may use them."""
    out = []
    for city in view.players[player].stations:
        for r in BOARD.routes_at[city]:
            owner = view.route_owner[r]
            if owner is not None and owner != player:
                out.append(r)
    return tuple(out)


def ticket_points(claims: PlayerClaims, opponent_routes: Sequence[int]) -> int:
    """Ticket points these claims would score now, stations borrowing at best."""
    borrowed = best_borrowing(BOARD, claims, opponent_routes)
    return sum(t.points for t in ticket_outcomes(BOARD, claims, borrowed))
