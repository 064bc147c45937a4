"""The hard bot: the medium bot's plan, played with foresight.

On top of the shared plan (see ``medium.PlanningBot``) it

* weighs routes by what they score, not only what they cost: fewer, longer
  routes make fewer claims and score more per train;
* reads the opponents: from the routes each has built it infers which tickets
  they probably hold (tickets their network already goes a long way towards)
  and so which open routes they are likely to claim; a route on its own plan
  that an opponent probably wants, and whose loss would hurt, comes first;
* counts time: the opponents' trains and pace say how many turns are left, so
  it keeps and draws tickets only when trains *and* turns allow, judging a
  ticket draw by Monte Carlo over the tickets it has not seen;
* rescues a ticket that opponents have cut off with a station, when one
  borrowed route is all that is missing;
* on its last turns, makes the claim (or station) that scores most right now;
* with its tickets done, spends spare trains on the routes that score most
  per turn, close to its network for the European Express.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from p2p_ttr.engine.board import STATION_POINTS, Route
from p2p_ttr.engine.events import Action, BuildStation, ClaimRoute, DrawTickets
from p2p_ttr.engine.moves import claim_actions, station_actions
from p2p_ttr.engine.rules import draw_tickets_problem
from p2p_ttr.engine.scoring import PlayerClaims, best_borrowing, ticket_outcomes
from p2p_ttr.engine.state import GameState, Phase

from .medium import PlanningBot, Situation, kinds
from .planning import (
    BOARD,
    CARDS_PER_DRAW_TURN,
    CostTable,
    Plan,
    components,
    detour_cost,
    effort,
    find,
    hand_of,
    missing_cards,
    plan_tickets,
    points_for,
    route_costs,
    shortest_path,
    ticket_ids,
    trains_of,
    turns_left,
    turns_needed,
)

# Route weights: each claim is a turn, and long routes score more per train.
CLAIM_TURN_EFFORT = 0.5
POINTS_EFFORT = 0.05
# What a train spent on a ticket's path could have scored on a long route instead.
TRAIN_OPPORTUNITY = 0.3
# Points lost per turn a plan overruns the turns left (its last tickets fail).
OVERRUN_PENALTY = 3.0
# Monte Carlo ticket draws: samples, and the gain a draw must promise (a turn of
# drawing cards is worth about this much).
TICKET_SAMPLES = 30
TICKET_DRAW_MIN_GAIN = 4.0
# A path through an opponent's route (borrowed by a station) costs this much more.
BORROW_EFFORT = 6.0
# In the hand-aware plan, each card already held for a route takes this much off its cost.
HAND_DISCOUNT = 0.6
# Pursue only what fits in this share of the turns left.
TRIAGE_SLACK = 0.9
# Draw tickets only once the plan is this close (in turns) to done.
TICKETS_WHEN_NEEDING = 3.0
# Blocking: guesses below this chance are ignored; a detour costs its owner
# this many points per unit of effort; block when the damage is at least this.
DENIAL_LEAST_CHANCE = 0.2
DETOUR_POINTS = 0.3
DENIAL_MIN = 8.0
# Claims with cards the plan does not need: at least this many points, any
# claim once this few turns are left.
SURPLUS_WHEN_LEFT = 8.0
SURPLUS_LEAST_POINTS = 4
SURPLUS_SLACK = 2.0
SURPLUS_ANY_WHEN_LEFT = 4.0
# What a card the plan needs is worth, in points.
CARD_POINTS = 1.5
# Of the tickets an opponent holds, about this share is still open mid-game.
OPEN_SHARE = 0.6


def hard_weight(route: Route) -> float:
    return effort(route) + CLAIM_TURN_EFFORT - POINTS_EFFORT * points_for(route.id)


class HardBot(PlanningBot):
    level = "hard"
    TICKET_MARGIN_SETUP = 2
    TICKET_MARGIN = 0
    FERRY_LOCOMOTIVE_BONUS = 1.0
    FEATURES = frozenset(
        {"weights", "hand_plan", "rescue", "triage", "threat", "last", "block", "surplus", "soon", "mc_tickets",
         "timed_keep", "tunnel_pay", "spare"}
    )

    def __init__(self, seed: int, name: str | None = None) -> None:
        super().__init__(seed, name)
        self._reading = Reading((), (0.0,) * len(BOARD.routes))
        self._denial: dict[int, float] = {}
        self._read_owners: tuple[int | None, ...] = ()
        self._rescue_city: str | None = None

    # --- planning --------------------------------------------------------------

    def plan_key(self, view: GameState, player: int) -> object:
        me = view.players[player]
        # The plan follows the hand too (see make_plan).
        return (player, view.n_players, view.route_owner, me.tickets, me.trains, me.stations, me.hand)

    def route_costs(self, view: GameState, player: int) -> CostTable:
        costs = route_costs(view, player, weight=hard_weight if "weights" in self.FEATURES else effort)
        for r in borrowable(view, player):
            costs[r] = 0.0
        return costs

    def make_plan(self, view: GameState, player: int, costs: CostTable, tickets: tuple[int, ...]) -> Plan:
        """The cheaper of two plans: one over the board's costs, one where
        routes the hand can already pay for cost less. Late in a game the
        second finds the path the cards in hand can finish in time."""
        me = view.players[player]
        own = me.routes + borrowable(view, player)
        hand = hand_of(view, player)
        plan = plan_tickets(costs, tickets, own, me.trains)
        if HAND_DISCOUNT and plan.routes and "hand_plan" in self.FEATURES:
            quick = list(costs)
            for r, c in enumerate(costs):
                if c is not None and c > 0.0:
                    held = BOARD.routes[r].length - missing_cards([r], hand)
                    quick[r] = max(0.1, c - HAND_DISCOUNT * held)
            alt = plan_tickets(quick, tickets, own, me.trains)
            if (alt.points, -turns_needed(alt.routes, hand)) > (plan.points, -turns_needed(plan.routes, hand)):
                plan = alt
        if view.route_owner != self._read_owners:
            self._reading = read_opponents(view, player)
            self._denial = denial_values(view, self._reading, DENIAL_LEAST_CHANCE)
            self._read_owners = view.route_owner
        self._rescue_city = None
        if me.stations_left and plan.dropped and "rescue" in self.FEATURES:
            plan = self.rescue(view, player, costs, own, plan)
        return plan

    def rescue(self, view: GameState, player: int, costs: CostTable, own: tuple[int, ...], plan: Plan) -> Plan:
        """Plan a station for the most valuable blocked ticket one borrowed route can save."""
        through = list(costs)
        for r, owner in enumerate(view.route_owner):
            if owner is not None and costs[r] is None:
                through[r] = effort(BOARD.routes[r]) + BORROW_EFFORT
        taken = {c for ps in view.players for c in ps.stations}
        spare = view.players[player].trains - plan.trains
        for t in sorted(plan.dropped, key=lambda t: -BOARD.tickets[t].points):
            ticket = BOARD.tickets[t]
            path = shortest_path(through, ticket.a, ticket.b, plan.routes)
            if path is None:
                continue
            borrowed = [r for r in path.routes if costs[r] is None]
            new = [r for r in path.routes if costs[r] not in (None, 0.0) and r not in plan.routes]
            if len(borrowed) != 1 or trains_of(new) > spare:
                continue
            cities = [c for c in BOARD.routes[borrowed[0]].cities if c not in taken]
            if not cities or 2 * ticket.points <= STATION_POINTS:
                continue
            self._rescue_city = cities[0]
            dropped = tuple(d for d in plan.dropped if d != t)
            return Plan(
                plan.routes + tuple(new),
                plan.trains + trains_of(new),
                plan.cost + path.cost,
                plan.done,
                plan.planned + (t,),
                dropped,
                {**plan.ticket_routes, t: tuple(r for r in path.routes if costs[r] not in (None, 0.0))},
            )
        return plan

    def targets(self, s: Situation) -> tuple[int, ...]:
        if not s.plan.routes:
            return self.spare_routes(s)
        routes = self.triage(s)
        urgency = {r: self.urgency(s, r) for r in routes}
        return tuple(sorted(routes, key=lambda r: (-urgency[r], r)))

    def triage(self, s: Situation) -> tuple[int, ...]:
        """The plan's routes, cut to the tickets it can still finish in time.

        When the plan needs more turns than the game has left, the tickets
        worth most that fit in the time are pursued and the rest given up, so
        that the cards drawn go where they still score."""
        left = turns_left(s.view, s.player)
        if "triage" not in self.FEATURES or turns_needed(s.plan.routes, s.hand) <= TRIAGE_SLACK * left:
            return s.plan.routes
        tickets = [t for t in s.plan.planned if t in s.plan.ticket_routes]
        best: tuple[int, ...] = ()
        best_points = 0
        for size in range(len(tickets), 0, -1):
            for chosen in combinations(tickets, size):
                points = sum(BOARD.tickets[t].points for t in chosen)
                if points <= best_points:
                    continue
                routes = tuple(dict.fromkeys(r for t in chosen for r in s.plan.ticket_routes[t]))
                if turns_needed(routes, s.hand) <= TRIAGE_SLACK * left:
                    best, best_points = routes, points
        return best or s.plan.routes

    def urgency(self, s: Situation, route: int) -> float:
        """Expected loss if the route is taken, plus a little for length."""
        if "threat" not in self.FEATURES:
            return super().urgency(s, route)
        detour = min(detour_cost(s.costs, s.plan, route), 15.0)
        return (0.15 + self._reading.threat[route]) * detour + 0.3 * BOARD.routes[route].length

    def spare_routes(self, s: Situation) -> tuple[int, ...]:
        """With no tickets to work on: the routes scoring most per turn, near
        the bot's network (for the Express), that it can fit in trains and time."""
        if "spare" not in self.FEATURES:
            return super().spare_routes(s)
        left = turns_left(s.view, s.player)
        mine = {c for r in s.me.routes for c in BOARD.routes[r].cities}
        scored: list[tuple[float, int]] = []
        for route in BOARD.routes:
            if route.length > s.me.trains or s.costs[route.id] in (None, 0.0):
                continue
            turns = missing_cards([route.id], s.hand) / CARDS_PER_DRAW_TURN + 1
            value = points_for(route.id) + (0.5 * route.length if mine & set(route.cities) else 0.0)
            if turns > left:
                value *= 0.2
            scored.append((value / turns, route.id))
        scored.sort(key=lambda x: (-x[0], x[1]))
        return tuple(r for _, r in scored[:3])

    # --- a turn ------------------------------------------------------------

    def turn(self, s: Situation) -> Action:
        left = turns_left(s.view, s.player)
        if left <= 1.0 and "last" in self.FEATURES:
            last = self.best_now(s, stations=True)
            if last is not None:
                return last
        claim = self.claim_target(s)
        if claim is not None:
            return claim
        block = self.block(s) if "block" in self.FEATURES else None
        if block is not None:
            return block
        surplus = self.surplus_claim(s, left) if "surplus" in self.FEATURES else None
        if surplus is not None:
            return surplus
        station = self.rescue_station(s)
        if station is not None:
            return station
        if left <= 2.5 and "soon" in self.FEATURES:
            soon = self.best_now(s, stations=False, least=4)
            if soon is not None:
                return soon
        if self.wants_tickets(s):
            return DrawTickets(s.player)
        return self.draw_card(s, second=False)

    def best_now(self, s: Situation, stations: bool, least: int = 1) -> Action | None:
        """The claim (or station) that adds most to the score right now."""
        me = s.me
        tickets = s.tickets
        others = [r for q, ps in enumerate(s.view.players) if q != s.player for r in ps.routes]
        base = ticket_points(PlayerClaims(me.routes, me.stations, tickets), others)
        best: tuple[float, int] | None = None
        by_route: dict[int, list[ClaimRoute]] = {}
        for a in claim_actions(s.view, s.player):
            if isinstance(a, ClaimRoute):
                by_route.setdefault(a.route, []).append(a)
        chosen: Action | None = None
        for route, claims in by_route.items():
            gain = points_for(route) + ticket_points(PlayerClaims(me.routes + (route,), me.stations, tickets), others) - base
            if gain >= least and (best is None or (gain, -route) > best):
                best, chosen = (gain, -route), self.cheapest_payment(s, claims, s.targets)
        if stations and me.stations_left:
            by_city: dict[str, list[BuildStation]] = {}
            for a in station_actions(s.view, s.player):
                if isinstance(a, BuildStation):
                    by_city.setdefault(a.city, []).append(a)
            for city, builds in sorted(by_city.items()):
                if not any(o is not None and o != s.player for o in (s.view.route_owner[r] for r in BOARD.routes_at[city])):
                    continue
                gain = ticket_points(PlayerClaims(me.routes, me.stations + (city,), tickets), others) - base - STATION_POINTS
                if gain >= least and (best is None or (gain, 0) > best):
                    best, chosen = (gain, 0), self.cheapest_station(s, builds)
        return chosen

    def block(self, s: Situation) -> Action | None:
        """Claim a route an opponent probably needs, if the damage is worth
        the turn and the trains, and the cards are not the plan's."""
        spare = s.me.trains - s.plan.trains
        before = missing_cards(s.targets, s.hand)
        best: tuple[float, int] | None = None
        chosen: ClaimRoute | None = None
        for a in claim_actions(s.view, s.player):
            if not isinstance(a, ClaimRoute):
                continue
            damage = self._denial.get(a.route, 0.0)
            if damage < DENIAL_MIN or BOARD.routes[a.route].length > spare or not self.tunnel_ready(s, a):
                continue
            hand = s.hand.copy()
            for kind in kinds(s.view, a.cards):
                hand[kind] -= 1
            value = damage + points_for(a.route) - CARD_POINTS * (missing_cards(s.targets, hand) - before)
            if value >= DENIAL_MIN and (best is None or (value, -a.route) > best):
                best, chosen = (value, -a.route), a
        return chosen

    def surplus_claim(self, s: Situation, left: float) -> Action | None:
        """Score with cards the plan does not need: claim the route they pay
        for that scores most, if the plan keeps its trains. A claim of three
        or more scores more than a turn of drawing; shorter ones only when the
        game is about to end (cards left in hand score nothing)."""
        if left > SURPLUS_WHEN_LEFT:
            return None
        # A claim costs a turn the plan may need, and must not end the game
        # (2 trains or fewer) while the plan still has routes to claim.
        if s.targets and left - turns_needed(s.targets, s.hand) < SURPLUS_SLACK:
            return None
        spare = s.me.trains - trains_of(s.targets) - (3 if s.targets else 0)
        before = missing_cards(s.targets, s.hand)
        least = 1 if left <= SURPLUS_ANY_WHEN_LEFT else SURPLUS_LEAST_POINTS
        mine = {c for r in s.me.routes for c in BOARD.routes[r].cities}
        best: tuple[float, int] | None = None
        chosen: ClaimRoute | None = None
        for a in claim_actions(s.view, s.player):
            if not isinstance(a, ClaimRoute) or a.route in s.targets:
                continue
            route = BOARD.routes[a.route]
            if points_for(a.route) < least or route.length > spare or not self.tunnel_ready(s, a):
                continue
            hand = s.hand.copy()
            for kind in kinds(s.view, a.cards):
                hand[kind] -= 1
            if missing_cards(s.targets, hand) > before:
                continue
            value = points_for(a.route) + (0.5 * route.length if mine & set(route.cities) else 0.0)
            value += self._denial.get(a.route, 0.0)
            if best is None or (value, -a.route) > best:
                best, chosen = (value, -a.route), a
        return chosen

    def rescue_station(self, s: Situation) -> Action | None:
        if self._rescue_city is None:
            return None
        builds = [
            a for a in station_actions(s.view, s.player) if isinstance(a, BuildStation) and a.city == self._rescue_city
        ]
        return self.cheapest_station(s, builds) if builds else None

    def cheapest_station(self, s: Situation, builds: Sequence[BuildStation]) -> BuildStation:
        def after(a: BuildStation) -> int:
            hand = s.hand.copy()
            for kind in kinds(s.view, a.cards):
                hand[kind] -= 1
            return missing_cards(s.targets, hand)

        return min(builds, key=after)

    # --- tickets --------------------------------------------------------------

    def wants_tickets(self, s: Situation) -> bool:
        if "mc_tickets" not in self.FEATURES:
            return not s.plan.routes and super().wants_tickets(s)
        if draw_tickets_problem(s.view) is not None or s.view.final_turns_left is not None:
            return False
        needed = turns_needed(s.plan.routes, s.hand)
        if needed > TICKETS_WHEN_NEEDING:
            return False
        spare_turns = turns_left(s.view, s.player) - needed - 1
        spare_trains = s.me.trains - s.plan.trains
        if spare_trains < 6 or spare_turns < 4:
            return False
        return self.ticket_draw_gain(s, spare_trains, spare_turns) > TICKET_DRAW_MIN_GAIN

    def ticket_draw_gain(self, s: Situation, spare_trains: int, spare_turns: float) -> float:
        """The expected gain of drawing tickets, by sampling three of the tickets
        the bot has not seen and keeping the best of them it can afford."""
        mine = set(s.tickets)
        pool = [t.id for t in BOARD.regular_tickets if t.id not in mine]
        if not pool:
            return 0.0
        planned = set(s.plan.routes)
        marginal: dict[int, tuple[float, int, float]] = {}  # ticket -> (points, trains, turns)
        for t in pool:
            ticket = BOARD.tickets[t]
            path = shortest_path(s.costs, ticket.a, ticket.b, planned)
            if path is None:
                marginal[t] = (-float(ticket.points), 10**6, float("inf"))
                continue
            new = [r for r in path.routes if s.costs[r] not in (None, 0.0) and r not in planned]
            trains = trains_of(new)
            marginal[t] = (float(ticket.points), trains, len(new) + trains / CARDS_PER_DRAW_TURN)
        total = 0.0
        for _ in range(TICKET_SAMPLES):
            drawn = self._rng.sample(pool, min(3, len(pool)))
            best = -float("inf")
            for size in range(1, len(drawn) + 1):
                for keep in combinations(drawn, size):
                    points = sum(marginal[t][0] for t in keep)
                    trains = sum(marginal[t][1] for t in keep)
                    turns = sum(marginal[t][2] for t in keep)
                    if trains <= spare_trains and turns <= spare_turns:
                        value = points - TRAIN_OPPORTUNITY * trains
                    else:
                        value = -sum(abs(marginal[t][0]) for t in keep)
                    best = max(best, value)
            total += best
        return total / TICKET_SAMPLES

    def ticket_choice_value(
        self, view: GameState, player: int, costs: CostTable, held: tuple[int, ...], keep: tuple[int, ...]
    ) -> tuple[float, ...]:
        if "timed_keep" not in self.FEATURES:
            return super().ticket_choice_value(view, player, costs, held, keep)
        me = view.players[player]
        margin = self.TICKET_MARGIN_SETUP if view.phase is Phase.SETUP_TICKETS else self.TICKET_MARGIN
        own = me.routes + borrowable(view, player)
        plan = plan_tickets(costs, held + keep, own, max(0, me.trains - margin))
        need = turns_needed(plan.routes, hand_of(view, player))
        left = turns_left(view, player)
        overrun = max(0.0, need - 0.9 * left)
        return (plan.points - TRAIN_OPPORTUNITY * plan.trains - OVERRUN_PENALTY * overrun, -float(plan.trains))

    # --- tunnels ---------------------------------------------------------------

    def pays_tunnel(self, s: Situation, route: int, extra: int) -> bool:
        if "tunnel_pay" not in self.FEATURES:
            return super().pays_tunnel(s, route, extra)
        return route in s.plan.routes or points_for(route) >= 2 * extra


# ---------------------------------------------------------------------------
# Reading the table


def borrowable(view: GameState, player: int) -> tuple[int, ...]:
    """Opponents' routes at the player's stations: the player's tickets may use them."""
    out = []
    for city in view.players[player].stations:
        for r in BOARD.routes_at[city]:
            owner = view.route_owner[r]
            if owner is not None and owner != player:
                out.append(r)
    return tuple(out)


def ticket_points(claims: PlayerClaims, others: Sequence[int]) -> int:
    """Ticket points for these claims, stations borrowing at best."""
    borrowed = best_borrowing(BOARD, claims, others)
    return sum(t.points for t in ticket_outcomes(BOARD, claims, borrowed))


@dataclass(frozen=True)
class Guess:
    """A ticket an opponent probably holds, and what is left of its path."""

    opponent: int
    ticket: int
    chance: float  # about how likely the opponent holds it, still open
    cost: float  # the opponent's cost to finish it
    routes: tuple[int, ...]  # the open routes of its cheapest path


@dataclass(frozen=True)
class Reading:
    """What the bot makes of its opponents from their routes."""

    guesses: tuple[Guess, ...]
    threat: tuple[float, ...]  # per route: about how likely an opponent wants it soon


def read_opponents(view: GameState, player: int) -> Reading:
    """Guess the opponents' tickets from the routes they have built.

    A ticket whose cheapest path an opponent's network already covers a large
    share of is likely one of theirs. Each ticket the bot has not seen is
    weighed by that share (squared, to trust strong evidence more), scaled by
    how many tickets the opponent holds; the remaining path of each guess
    counts towards the threat on its routes."""
    threat = [0.0] * len(BOARD.routes)
    guesses: list[Guess] = []
    mine = set(ticket_ids(view, view.players[player].tickets + view.players[player].offered))
    for q, ps in enumerate(view.players):
        if q == player or not ps.routes:
            continue
        costs = route_costs(view, q)
        fresh = list(costs)
        for r in ps.routes:
            fresh[r] = effort(BOARD.routes[r])
        parent = components(ps.routes)
        weighted: list[tuple[float, int, float, tuple[int, ...]]] = []
        for ticket in BOARD.tickets:
            if ticket.id in mine or find(parent, ticket.a) == find(parent, ticket.b):
                continue
            built = shortest_path(costs, ticket.a, ticket.b)
            if built is None:
                continue
            base = shortest_path(fresh, ticket.a, ticket.b)
            if base is None or base.cost <= 0:
                continue
            share = 1.0 - built.cost / base.cost
            if share <= 0.15:
                continue
            rest = tuple(r for r in built.routes if costs[r] != 0.0)
            weighted.append((share * share, ticket.id, built.cost, rest))
        total = sum(w for w, _, _, _ in weighted)
        if total <= 0:
            continue
        open_tickets = max(1.0, OPEN_SHARE * len(ps.tickets))
        for w, t, cost, routes in weighted:
            chance = min(1.0, open_tickets * w / total)
            guesses.append(Guess(q, t, chance, cost, routes))
            for r in routes:
                threat[r] = min(1.0, threat[r] + chance)
    return Reading(tuple(guesses), tuple(threat))


def denial_values(view: GameState, reading: Reading, least_chance: float) -> dict[int, float]:
    """Per open route, the points the opponents probably lose if the bot
    claims it: a ticket it cuts off costs its owner twice its value (scored
    against instead of for), a detour costs them a little."""
    damage: dict[int, float] = {}
    by_opponent: dict[int, CostTable] = {}
    for g in reading.guesses:
        if g.chance < least_chance:
            continue
        costs = by_opponent.get(g.opponent)
        if costs is None:
            costs = by_opponent[g.opponent] = route_costs(view, g.opponent)
        ticket = BOARD.tickets[g.ticket]
        for r in g.routes:
            closed = list(costs)
            closed[r] = None
            twin = BOARD.routes[r].twin
            if twin is not None and view.n_players < 4:
                closed[twin] = None  # claiming one side closes both
            alt = shortest_path(closed, ticket.a, ticket.b)
            loss = 2.0 * ticket.points if alt is None else DETOUR_POINTS * max(0.0, alt.cost - g.cost)
            damage[r] = damage.get(r, 0.0) + g.chance * loss
    return damage
