"""The hard bot: the medium bot's plan, played with foresight.

On top of the shared plan (see ``medium.PlanningBot``) it

* plans for speed and points: paths are weighed by what they score and by
  the claims they take, not only by their cards (fewer, longer routes); and a
  second plan that favours the routes the hand can already pay for is taken
  when it finishes sooner;
* reads the opponents (``opponents.read_opponents``): a route on its plan that
  an opponent probably wants, and whose loss would cost a long detour, is
  claimed (and its cards gathered) first;
* values a choice of tickets by what it adds at the end: their points and
  the points of the routes their plan claims, less what those trains would
  score on spare routes (long routes make a ticket worth more);
* counts time: the opponents' trains, pace and hands say how many turns are
  left. It keeps tickets only when trains *and* turns allow, draws more only
  when its plan is done and a Monte Carlo estimate over the tickets it has not
  seen says a draw pays, and when time runs short it gives up the tickets it
  cannot finish to make sure of the others;
* rescues a ticket that opponents have cut off with a station, when one
  borrowed route is all that is missing;
* on its last turns, makes the claim (or station) that adds most to its score,
  the longest-path bonus counted (reaching the longest rival trail, passing it),
  and likewise Legendary Asia's Asian Explorer (the largest rival network);
* with its tickets done, spends its trains on the routes that score most per
  turn, favouring those that lengthen its trail towards the longest-path bonus
  (and those that add cities to its largest network, towards the Explorer);
* on Legendary Asia, counts a mountain X as what it is: a car spent that
  scores 2 (its tickets' plans are worth those points too);
* counts only what the game scores (``view.game.rules``): no trail worth on a
  board without the longest-path bonus, stations only where there are any;
  where the Globetrotter is played (most tickets completed), a ticket
  completed by a last claim, or drawn and kept, is worth a share of it on
  top of its points (not in the choice of tickets offered: measured, it
  made hard keep too many);
* on the United Kingdom, weighs every technology no route needs against its
  price (``techvalue.py``: Boiler Lagging's point a claim, Diesel Power's
  card a claim, Risky Contracts by its chance of the most tickets, the
  Booster by the locomotives it will pay with other cards, weighed before
  the technologies its plan needs, ...), and buys Right of Way to take back
  a route its tickets want (``rightofway.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations
from typing import NamedTuple

from p2p_ttr.engine.events import Action, BuildStation, ClaimRoute, DrawTickets
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.moves import claim_actions, station_actions
from p2p_ttr.engine.scoring import PlayerClaims, largest_network, longest_trail
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.technologies import right_of_way_now
from p2p_ttr.engine.techstate import BOOSTER

from .medium import PlanningBot, Situation, kinds
from .monsterplay import weighed_monster_move
from .opponents import Reading, read_opponents
from .trackpieces import choose_lay
from .markerplay import rivals_cities_cost
from .planning import (
    CARDS_PER_DRAW_TURN,
    CostTable,
    Plan,
    borrowable,
    detour_cost,
    efforts,
    hand_of,
    laid_colors,
    missing_cards,
    plan_tickets,
    points_for,
    route_costs,
    shortest_path,
    ticket_results,
    trains_of,
    turns_left,
    turns_needed,
)
from .rightofway import right_of_way_buy
from .sharechoice import share_gain
from .techvalue import PRICED_TECHNOLOGIES, worth_buying

# Route weights: each claim is a turn, and long routes score more per train.
CLAIM_TURN_EFFORT = 0.5
POINTS_EFFORT = 0.05
# Old West: the effort a point scored for a rival (their city marker on the route's end) is worth avoiding.
RIVAL_POINTS_EFFORT = 0.15
# In the hand-aware plan, each card already held for a route takes this much off its cost.
HAND_DISCOUNT = 0.6
# Keeping tickets: a plan is worth its ticket points and the points of its
# routes, less what its trains could have scored on spare routes instead (a
# 6-car route scores 2.5 a car; measured best of 2.1-2.9, bench/README.md),
# less the points lost per turn it overruns the time left.
TRAIN_OPPORTUNITY = 2.5
OVERRUN_PENALTY = 3.0
# Pursue only the tickets that fit in this share of the turns left.
TRIAGE_SLACK = 0.9
# Drawing tickets: only with this many turns left; Monte Carlo samples; the
# gain a draw must promise (about what a turn of drawing cards is worth).
TICKETS_WHEN_TURNS_LEFT = 10.0
TICKET_SAMPLES = 30
TICKET_DRAW_MIN_GAIN = 4.0
# A path through an opponent's route (borrowed by a station) costs this much more.
BORROW_EFFORT = 6.0
# Endgame: with this few turns left the last move scores all it can; with
# this few, claims scoring at least SOON_LEAST_POINTS come before drawing.
LAST_TURNS = 1.0
SOON_TURNS = 2.5
SOON_LEAST_POINTS = 4
# Spare trains and the longest-path bonus (Europe's European Express): the
# worth of a car added to the longest trail, as a share of the bonus, and the
# share of the bonus counted for drawing level with the longest rival trail
# (the rival may still grow).
EXPRESS_TRAIL_SHARE = 0.05
EXPRESS_CATCH_UP = 0.5
# The most-cities bonus (Legendary Asia's Asian Explorer): the worth of a
# city added to the largest network, as a share of the bonus (drawing level
# with the rivals' largest network counts EXPRESS_CATCH_UP of it, as above).
EXPLORER_CITY_SHARE = 0.05
# The Globetrotter (most completed tickets): a rival is reckoned to complete
# this share of the tickets it holds.
RIVAL_COMPLETION = 0.75


@cache
def hard_weights(game: Game) -> tuple[float, ...]:
    """The hard bot's weight of every route of ``game``, by id (cached per game)."""
    return tuple(
        effort + CLAIM_TURN_EFFORT - POINTS_EFFORT * points_for(game, r) for r, effort in enumerate(efforts(game))
    )


class Prospect(NamedTuple):
    """A ticket not yet held, as the bot's network stands: what its path from there needs and scores."""

    points: int  # the ticket's
    route_points: int  # the new routes'
    trains: int  # the new routes'
    turns: float  # to gather their cards and claim them


def trails(s: Situation) -> tuple[int, int]:
    """The bot's longest trail and the longest of its rivals' (the longest-path bonus)."""
    board = s.view.game.board
    rival = max((longest_trail(board, ps.routes) for q, ps in enumerate(s.view.players) if q != s.player), default=0)
    return longest_trail(board, s.me.routes), rival


def globetrotter(view: GameState, player: int) -> Callable[[int], float]:
    """What completing ``n`` tickets is worth towards the Globetrotter (0 where
    it is not played). The rivals' completed tickets are secret: each is
    reckoned to complete RIVAL_COMPLETION of the tickets it holds (a public
    count, at least the rules' first keep). Level with the best rival is half the bonus, one ticket more is
    all of it, and the share a rival would have scored is counted too."""
    points = view.game.rules.globetrotter_points
    if not points:
        return lambda n: 0.0
    least = view.game.rules.setup_tickets.keep_min  # what a rival still choosing its first tickets will hold
    rival = max(RIVAL_COMPLETION * max(least, len(ps.tickets)) for q, ps in enumerate(view.players) if q != player)
    denial = 1.0 / max(1, view.n_players - 1)
    return lambda n: points * (1.0 + denial) * min(1.0, max(0.0, (n - rival + 1.0) / 2.0))


def claimed_points(game: Game, routes: Sequence[int]) -> int:
    """What claiming ``routes`` scores: their lengths' points and, on Legendary
    Asia, 2 a mountain car (which a plan's trains already count as spent)."""
    return sum(points_for(game, r) for r in routes)


def networks(s: Situation) -> tuple[int, int]:
    """The cities of the bot's largest network and of its rivals' largest (the Asian Explorer)."""
    board = s.view.game.board
    rival = max((largest_network(board, ps.routes) for q, ps in enumerate(s.view.players) if q != s.player), default=0)
    return largest_network(board, s.me.routes), rival


def race_margin(
    s: Situation, bonus: int, mine: int, rival: int, measure: Callable[[tuple[int, ...]], int]
) -> Callable[[int], float]:
    """What claiming a route does to a bonus for the most of something
    (``measure`` of a player's routes: the longest trail, the largest
    network), against the best rival's ``rival``: the bonus won (or shared)
    by reaching it, and a share of it taken from the rival by passing it
    (nothing where the game has no such bonus)."""
    if not bonus:
        return lambda route: 0.0
    denial = 1.0 / max(1, s.view.n_players - 1)

    def value(amount: int) -> float:
        return bonus * ((amount >= rival) + denial * (amount > rival))

    now = value(mine)
    return lambda route: value(measure(s.me.routes + (route,))) - now


class HardBot(PlanningBot):
    """The medium bot's plan played with foresight: speed, the opponents' wants, time left (see the module docstring)."""

    level = "hard"
    SHARES_AGAINST_RIVALS = True
    TICKET_MARGIN_SETUP = 12
    TICKET_MARGIN = 0
    VALUED_TECHNOLOGIES = PRICED_TECHNOLOGIES

    def __init__(self, seed: int, name: str | None = None) -> None:
        super().__init__(seed, name)
        self._reading: Reading | None = None
        self._read_for: tuple[Game, tuple[int | None, ...]] | None = None  # the game and owners it was read from
        self._rescue_city: str | None = None
        self._right_of_way: int | None = None  # the route Right of Way was bought for, to claim this turn

    # --- planning --------------------------------------------------------------

    def plan_key(self, view: GameState, player: int) -> object:
        me = view.players[player]
        # The plan follows the hand too (see make_plan).
        return (view.game, player, view.n_players, view.route_owner, view.track_beds, me.tickets, me.trains,
                me.stations, me.hand, view.monsters)

    def route_costs(self, view: GameState, player: int) -> CostTable:
        costs = route_costs(view, player, weights=hard_weights)
        for r in borrowable(view, player):
            costs[r] = 0.0
        return rivals_cities_cost(view, player, costs, POINTS_EFFORT, RIVAL_POINTS_EFFORT)

    def make_plan(self, view: GameState, player: int, costs: CostTable, tickets: tuple[int, ...]) -> Plan:
        """The better of two plans: one over the board's costs, one where the
        routes the hand can already pay for cost less. Late in a game the
        second finds the path the cards in hand finish in time."""
        me = view.players[player]
        game = view.game
        own = me.routes + borrowable(view, player)
        hand = hand_of(view, player)
        built = laid_colors(view)
        if (game, view.route_owner) != self._read_for:
            self._reading = read_opponents(view, player)
            self._read_for = (game, view.route_owner)
        plan = plan_tickets(game, costs, tickets, own, me.trains)
        if plan.routes:
            quick = list(costs)
            for r, c in enumerate(costs):
                if c is not None and c > 0.0:
                    held = game.board.routes[r].length - missing_cards(game, [r], hand, built)
                    quick[r] = max(0.1, c - HAND_DISCOUNT * held)
            alt = plan_tickets(game, quick, tickets, own, me.trains)
            if (alt.points, -turns_needed(game, alt.routes, hand, built)) > (
                plan.points, -turns_needed(game, plan.routes, hand, built)
            ):
                plan = alt
        self._rescue_city = None
        if me.stations_left and plan.dropped:
            plan = self.rescue(view, player, costs, plan)
        return plan

    def rescue(self, view: GameState, player: int, costs: CostTable, plan: Plan) -> Plan:
        """Plan a station for the most valuable blocked ticket that one
        borrowed route can save (its own routes still fitting in the trains)."""
        game = view.game
        board = game.board
        through = list(costs)
        for r, owner in enumerate(view.route_owner):
            if owner is not None and costs[r] is None:
                through[r] = efforts(game)[r] + BORROW_EFFORT
        taken = {c for ps in view.players for c in ps.stations}
        spare = view.players[player].trains - plan.trains
        for t in sorted(plan.dropped, key=lambda t: -board.tickets[t].points):
            ticket = board.tickets[t]
            path = shortest_path(game, through, ticket.a, ticket.b, plan.routes)
            if path is None:
                continue
            borrowed = [r for r in path.routes if costs[r] is None]
            mine = tuple(r for r in path.routes if costs[r] not in (None, 0.0))
            new = tuple(r for r in mine if r not in plan.routes)
            if len(borrowed) != 1 or trains_of(game, new) > spare:
                continue
            cities = [c for c in board.routes[borrowed[0]].cities if c not in taken]
            if not cities or 2 * ticket.points <= game.rules.station_points:
                continue
            self._rescue_city = cities[0]
            return Plan(
                game,
                plan.routes + new,
                plan.trains + trains_of(game, new),
                plan.cost + path.cost,
                plan.done,
                plan.planned + (t,),
                tuple(d for d in plan.dropped if d != t),
                {**plan.ticket_routes, t: mine},
            )
        return plan

    def lay_track(self, s: Situation) -> Action:
        """As the medium bot, and a piece that cuts what the others want counts too."""
        threat = self._reading.threat if self._reading is not None else ()
        lay = choose_lay(s.view, s.player, s.plan.routes, s.hand, threat)
        return lay if lay is not None else super().lay_track(s)

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
        game = s.view.game
        left = turns_left(s.view, s.player)
        if turns_needed(game, s.plan.routes, s.hand, laid_colors(s.view)) <= TRIAGE_SLACK * left:
            return s.plan.routes
        tickets = [t for t in s.plan.planned if t in s.plan.ticket_routes]
        best: tuple[int, ...] = ()
        best_points = 0
        for size in range(len(tickets), 0, -1):
            for chosen in combinations(tickets, size):
                points = sum(game.board.tickets[t].points for t in chosen)
                if points <= best_points:
                    continue
                routes = tuple(dict.fromkeys(r for t in chosen for r in s.plan.ticket_routes[t]))
                if turns_needed(game, routes, s.hand, laid_colors(s.view)) <= TRIAGE_SLACK * left:
                    best, best_points = routes, points
        return best or s.plan.routes

    def urgency(self, s: Situation, route: int) -> float:
        """About what losing the route would cost times how likely that is
        soon, plus a little for length (long routes are hard to gather for)."""
        assert self._reading is not None  # read by make_plan, before any target
        detour = min(detour_cost(s.costs, s.plan, route), 15.0)
        return (0.15 + self._reading.threat[route]) * detour + 0.3 * s.view.game.board.routes[route].length

    def spare_routes(self, s: Situation) -> tuple[int, ...]:
        """With no tickets to work on: the routes scoring most per turn (cards
        to gather, plus the claim), favouring those that lengthen the bot's
        trail towards the longest-path bonus (where the game has one); a route
        it cannot finish in time counts little."""
        game = s.view.game
        board = game.board
        bonus = game.rules.longest_path_points
        left = turns_left(s.view, s.player)
        mine = {c for r in s.me.routes for c in board.routes[r].cities}
        trail, rival = trails(s)
        explorer = game.rules.most_cities_points
        network, rival_network = networks(s)
        scored: list[tuple[float, int]] = []
        for route in board.routes:
            if route.cars > s.me.trains or s.costs[route.id] in (None, 0.0):
                continue
            turns = missing_cards(game, [route.id], s.hand, laid_colors(s.view)) / CARDS_PER_DRAW_TURN + 1
            value = float(points_for(game, route.id) + share_gain(s.view, s.player, route.id))
            if bonus and mine & set(route.cities):
                longer = longest_trail(board, s.me.routes + (route.id,))
                value += EXPRESS_TRAIL_SHARE * bonus * (longer - trail)
                if trail < rival <= longer:
                    value += EXPRESS_CATCH_UP * bonus
            if explorer and mine & set(route.cities):
                wider = largest_network(board, s.me.routes + (route.id,))
                value += EXPLORER_CITY_SHARE * explorer * (wider - network)
                if network < rival_network <= wider:
                    value += EXPRESS_CATCH_UP * explorer
            if turns > left:
                value *= 0.2
            scored.append((value / turns, route.id))
        scored.sort(key=lambda x: (-x[0], x[1]))
        return tuple(r for _, r in scored[:3])

    # --- a turn ------------------------------------------------------------

    def rivals_want(self, view: GameState, player: int) -> Sequence[float] | None:
        return self._reading.threat if self._reading is not None else None

    def purchase(self, s: Situation) -> Action | None:
        """The Booster first where it pays (it makes the purchases to come
        cheaper: techvalue.py), then as the medium bot's, and Right of Way
        where a route another holds is worth taking back (rightofway.py)."""
        if s.view.technologies is None:
            return super().purchase(s)
        booster = worth_buying(s.view, s.player, self.outlook(s), s.hand, frozenset({BOOSTER}))
        if booster is not None:
            return booster
        buy = super().purchase(s)
        if buy is not None:
            return buy
        found = right_of_way_buy(s.view, s.player, s.costs, s.tickets, self.outlook(s), s.hand)
        if found is None:
            return None
        self._right_of_way = found[1]
        return found[0]

    def monster_move(self, s: Situation) -> Action | None:
        """Alvin & Dexter: a move that gains the bot more than its locomotives, read against the rivals' wants."""
        threat = self.rivals_want(s.view, s.player)
        return weighed_monster_move(s.view, s.player, threat) if threat is not None else None

    def turn(self, s: Situation) -> Action:
        buy = self.purchase(s)
        if buy is not None:
            return buy
        monster = self.monster_move(s)
        if monster is not None:  # Alvin & Dexter: a free action before the turn's
            return monster
        if self._right_of_way is not None and right_of_way_now(s.view):
            back = [a for a in claim_actions(s.view, s.player)
                    if isinstance(a, ClaimRoute) and a.route == self._right_of_way]
            if back:
                return self.cheapest_payment(s, back, s.targets)
        left = turns_left(s.view, s.player)
        if left <= LAST_TURNS:
            last = self.best_now(s, stations=True)
            if last is not None:
                return last
        claim = self.claim_target(s)
        if claim is not None:
            return claim
        station = self.rescue_station(s)
        if station is not None:
            return station
        if left <= SOON_TURNS:
            soon = self.best_now(s, stations=False, least=SOON_LEAST_POINTS)
            if soon is not None:
                return soon
        if self.wants_tickets(s):
            return DrawTickets(s.player)
        return self.draw_card(s, second=False)

    def best_now(self, s: Situation, stations: bool, least: int = 1) -> Action | None:
        """The claim (or station) adding most to the score right now, if it adds ``least``."""
        me = s.me
        game = s.view.game
        others = [r for q, ps in enumerate(s.view.players) if q != s.player for r in ps.routes]
        tickets_worth = self.tickets_worth(s, others)
        base = tickets_worth(PlayerClaims(me.routes, me.stations, s.tickets))
        best: tuple[float, int] | None = None
        chosen: Action | None = None
        by_route: dict[int, list[ClaimRoute]] = {}
        for a in claim_actions(s.view, s.player):
            if isinstance(a, ClaimRoute):
                by_route.setdefault(a.route, []).append(a)
        express = self.express_margin(s)
        explorer = self.explorer_margin(s)
        for route, claims in by_route.items():
            with_it = PlayerClaims(me.routes + (route,), me.stations, s.tickets)
            gain = (points_for(game, route) + tickets_worth(with_it) - base + express(route) + explorer(route)
                    + share_gain(s.view, s.player, route))
            if gain >= least and (best is None or (gain, -route) > best):
                best, chosen = (gain, -route), self.cheapest_payment(s, claims, s.targets)
        if stations and me.stations_left:
            by_city: dict[str, list[BuildStation]] = {}
            for a in station_actions(s.view, s.player):
                if isinstance(a, BuildStation):
                    by_city.setdefault(a.city, []).append(a)
            for city, builds in sorted(by_city.items()):
                if not any(s.view.route_owner[r] not in (None, s.player) for r in game.board.routes_at[city]):
                    continue  # nothing there to borrow
                with_it = PlayerClaims(me.routes, me.stations + (city,), s.tickets)
                gain = tickets_worth(with_it) - base - game.rules.station_points
                if gain >= least and (best is None or (gain, 0) > best):
                    best, chosen = (gain, 0), self.cheapest_station(s, builds)
        return chosen

    def tickets_worth(self, s: Situation, others: Sequence[int]) -> Callable[[PlayerClaims], float]:
        """What the bot's tickets would score with these claims now (stations
        borrowing from ``others`` at best), the Globetrotter counted."""
        game = s.view.game
        trotter = globetrotter(s.view, s.player)

        def worth(claims: PlayerClaims) -> float:
            results = ticket_results(game, claims, others)
            return sum(t.points for t in results) + trotter(sum(t.completed for t in results))

        return worth

    def express_margin(self, s: Situation) -> Callable[[int], float]:
        """What claiming a route does to the longest-path bonus, against the
        longest rival trail (see ``race_margin``)."""
        board = s.view.game.board
        mine, rival = trails(s)
        return race_margin(s, s.view.game.rules.longest_path_points, mine, rival,
                           lambda routes: longest_trail(board, routes))

    def explorer_margin(self, s: Situation) -> Callable[[int], float]:
        """What claiming a route does to the most-cities bonus (Legendary
        Asia's Asian Explorer), against the rivals' largest network (see ``race_margin``)."""
        board = s.view.game.board
        mine, rival = networks(s)
        return race_margin(s, s.view.game.rules.most_cities_points, mine, rival,
                           lambda routes: largest_network(board, routes))

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
            return missing_cards(s.view.game, s.targets, hand, laid_colors(s.view))

        return min(builds, key=after)

    # --- tickets --------------------------------------------------------------

    def wants_tickets(self, s: Situation) -> bool:
        """Like the medium bot, once the plan is done and trains are left; and
        only with turns to use them and a Monte Carlo estimate that it pays."""
        if s.plan.routes or not super().wants_tickets(s):
            return False
        left = turns_left(s.view, s.player)
        if left < TICKETS_WHEN_TURNS_LEFT:
            return False
        return self.ticket_draw_gain(s, s.me.trains, left - 1) > TICKET_DRAW_MIN_GAIN

    def ticket_draw_gain(self, s: Situation, spare_trains: int, spare_turns: float) -> float:
        """The expected gain of drawing tickets: sample an offer (as many as the
        rules deal) of the tickets the bot has not seen, keep the best of them
        it can afford (at least what the rules ask), average. Tickets kept and
        completed count towards the Globetrotter where it is played."""
        game = s.view.game
        offer = game.rules.draw_tickets
        mine = set(s.tickets)
        pool = [t.id for t in game.board.regular_tickets if t.id not in mine]
        if not pool:
            return 0.0
        planned = set(s.plan.routes)
        marginal: dict[int, Prospect] = {}
        for t in pool:
            ticket = game.board.tickets[t]
            path = shortest_path(game, s.costs, ticket.a, ticket.b, planned)
            if path is None:
                marginal[t] = Prospect(ticket.points, 0, 10**6, float("inf"))
                continue
            new = [r for r in path.routes if s.costs[r] not in (None, 0.0) and r not in planned]
            trains = trains_of(game, new)
            marginal[t] = Prospect(
                ticket.points, claimed_points(game, new), trains, len(new) + trains / CARDS_PER_DRAW_TURN
            )
        trotter = globetrotter(s.view, s.player)
        completing = len(s.plan.done) + len(s.plan.planned)
        total = 0.0
        for _ in range(TICKET_SAMPLES):
            drawn = self._rng.sample(pool, min(offer.size, len(pool)))
            best = -float("inf")
            for size in range(min(offer.keep_min, len(drawn)), len(drawn) + 1):
                for keep in combinations(drawn, size):
                    points = sum(marginal[t].points for t in keep)
                    on_routes = sum(marginal[t].route_points for t in keep)
                    trains = sum(marginal[t].trains for t in keep)
                    turns = sum(marginal[t].turns for t in keep)
                    if trains <= spare_trains and turns <= spare_turns:
                        more = trotter(completing + size) - trotter(completing)
                        best = max(best, points + on_routes - TRAIN_OPPORTUNITY * trains + more)
                    else:
                        best = max(best, -float(points))  # kept and failed
            total += best
        return total / TICKET_SAMPLES

    def ticket_choice_value(
        self, view: GameState, player: int, costs: CostTable, held: tuple[int, ...], keep: tuple[int, ...]
    ) -> tuple[float, ...]:
        """The plan's ticket and route points, less what its trains could
        score elsewhere, less a penalty for every turn it overruns the time left.

        Counting the routes' points makes a plan over long routes worth more
        than one over as many trains of short ones, as it is at the end.
        The Globetrotter is left out here: counted (even at a quarter of its
        worth) it made hard keep more tickets and fail more of them, and win
        less (bench/README.md, "Hard against medium on every board")."""
        game = view.game
        me = view.players[player]
        margin = self.TICKET_MARGIN_SETUP if view.phase is Phase.SETUP_TICKETS else self.TICKET_MARGIN
        own = me.routes + borrowable(view, player)
        plan = plan_tickets(game, costs, held + keep, own, max(0, me.trains - margin))
        need = turns_needed(game, plan.routes, hand_of(view, player), laid_colors(view))
        overrun = max(0.0, need - 0.9 * turns_left(view, player))
        value = plan.points + claimed_points(game, plan.routes) - TRAIN_OPPORTUNITY * plan.trains
        return (value - OVERRUN_PENALTY * overrun, -float(plan.trains))

    # --- tunnels ---------------------------------------------------------------

    def pays_tunnel(self, s: Situation, route: int, extra: int) -> bool:
        return route in s.plan.routes or points_for(s.view.game, route) >= 2 * extra
