"""The medium bot, and the planning machinery the easy and hard bots share.

``PlanningBot`` plays a plan: it joins its tickets by the cheapest paths over
routes still open to it (see ``planning.plan_tickets``), gathers the colours
those routes need, and claims them, bottlenecks first. Every decision is a
method the other levels override: ``EasyBot`` adds beginner mistakes,
``HardBot`` adds foresight.

``MediumBot`` is that plan played straight: it keeps the tickets it can finish
with the trains it has, draws new ones once its tickets are done and it still
has trains for them, and spends spare trains on long routes.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from p2p_ttr.engine.board import LOCOMOTIVE
from p2p_ttr.engine.cards import CardRef
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.engine.events import (
    AbandonTunnel,
    Action,
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawThreeBlind,
    DrawTickets,
    FinishTurn,
    KeepTickets,
    LayTrack,
    Pass,
    PayTunnel,
    PlaceMarker,
)
from p2p_ttr.engine.moves import claim_actions, draw_actions, legal_actions, tunnel_actions
from p2p_ttr.engine.rules import apply, draw_tickets_problem, offer_rule
from p2p_ttr.engine.state import GameState, Phase, PlayerState
from p2p_ttr.engine.technologies import draw_three_problem, second_claim_pending

from .markerplay import alvin_home, best_marker, joined_to_network, marker_options, start_city
from .monsterplay import place_monster, plain_monster_move
from .planning import (
    CostTable,
    Plan,
    blind_gain,
    card_gains,
    detour_cost,
    hand_of,
    laid_colors,
    missing_cards,
    plan_tickets,
    points_for,
    route_costs,
    ticket_ids,
    turns_left,
    unseen_kinds,
)
from .sharechoice import choose_shares
from .techbuying import technology_to_buy
from .techvalue import SCORING_TECHNOLOGIES, Outlook, outlook, worth_buying
from .trackpieces import choose_lay

# A face-up locomotive is worth a little more than the card it stands in for:
# it fits any route.
LOCOMOTIVE_FLEX = 0.3
# Extra weight of a card for the route the bot means to claim next: it makes
# the bot finish one route at a time rather than a bit of everything.
FOCUS_WEIGHT = 0.5


@dataclass(frozen=True)
class Situation:
    """What one decision starts from, derived from the view once."""

    view: GameState
    player: int
    me: PlayerState
    hand: Counter[str]
    costs: CostTable
    tickets: tuple[int, ...]  # kept tickets
    plan: Plan
    targets: tuple[int, ...]  # routes the bot is working towards, most urgent first


class PlanningBot:
    """A bot that plays a ticket plan; the levels tune its choices."""

    level = "planning"
    # Trains kept in reserve when judging which tickets fit.
    TICKET_MARGIN_SETUP = 8
    TICKET_MARGIN = 3
    # Draw new tickets once the old ones are done, if this many trains are left.
    TICKETS_WHEN_TRAINS = 14
    # Pennsylvania's shares: weigh the best rival's points too (sharechoice.py).
    SHARES_AGAINST_RIVALS = False
    # Old West: the points a city marker must be expected to bring for its two cards (markerplay.py).
    MARKER_LEAST_WORTH = 4.0
    # The United Kingdom: the technologies no route needs that the bot weighs against their price (techvalue.py).
    VALUED_TECHNOLOGIES: frozenset[str] = frozenset()

    def __init__(self, seed: int, name: str | None = None) -> None:
        self.name = name or self.level
        self._rng = random.Random(seed)
        self._cache_key: object = None
        self._cache: Situation | None = None

    # --- the protocol -----------------------------------------------------

    def choose(self, view: GameState, player: int) -> Action:
        return legal_or_fallback(view, player, self.decide(view, player))

    def decide(self, view: GameState, player: int) -> Action:
        if view.phase in (Phase.SETUP_TICKETS, Phase.TICKETS):
            return self.keep_tickets(view, player)
        if view.phase is Phase.SHARES:
            return choose_shares(view, player, self.SHARES_AGAINST_RIVALS)
        s = self.situation(view, player)
        if view.phase is Phase.TUNNEL:
            return self.tunnel(s)
        if view.phase is Phase.LAY_TRACK:
            return self.lay_track(s)
        if view.phase is Phase.START_CITY:
            return start_city(view, player, s.plan.routes)
        if view.phase is Phase.MARKER:
            return self.city_marker(s)
        if view.phase is Phase.ALVIN:
            return alvin_home(view, player)
        if view.phase is Phase.MONSTERS:
            return place_monster(view, player, s.plan.routes, self.rivals_want(view, player))
        if second_claim_pending(view):
            return self.second_claim(s)
        if view.cards_drawn:
            return self.draw_card(s, second=True)
        return self.turn(s)

    # --- what the bot knows -----------------------------------------------

    def situation(self, view: GameState, player: int) -> Situation:
        me = view.players[player]
        hand = hand_of(view, player)
        # The plan depends on who owns what and on the bot's tickets and trains,
        # not on its cards: the second draw of a turn reuses the first's.
        key = self.plan_key(view, player)
        if key != self._cache_key or self._cache is None:
            costs = self.route_costs(view, player)
            tickets = tuple(ticket_ids(view, me.tickets))
            plan = joined_to_network(view, player, costs, self.make_plan(view, player, costs, tickets))
            s = Situation(view, player, me, hand, costs, tickets, plan, ())
            s = replace(s, targets=self.targets(s))
            self._cache_key, self._cache = key, s
            return s
        return replace(self._cache, view=view, me=me, hand=hand)

    def rivals_want(self, view: GameState, player: int) -> Sequence[float] | None:
        """How likely the rivals want each route, where this level reads them (None: it does not)."""
        return None

    def route_costs(self, view: GameState, player: int) -> CostTable:
        """The cost table the bot plans over (the levels weigh routes differently)."""
        return route_costs(view, player)

    def make_plan(self, view: GameState, player: int, costs: CostTable, tickets: tuple[int, ...]) -> Plan:
        me = view.players[player]
        return plan_tickets(view.game, costs, tickets, me.routes, me.trains)

    def plan_key(self, view: GameState, player: int) -> object:
        me = view.players[player]
        # France: a piece laid builds a bed and cuts the routes it crosses, so the plan follows the beds too.
        return (view.game, player, view.n_players, view.route_owner, view.track_beds, me.tickets, me.trains,
                view.monsters)

    def targets(self, s: Situation) -> tuple[int, ...]:
        """Routes to work towards, most urgent first: the plan's, bottlenecks
        and long routes first; with no plan, the longest routes still open."""
        if s.plan.routes:
            urgency = {r: self.urgency(s, r) for r in s.plan.routes}
            return tuple(sorted(s.plan.routes, key=lambda r: (-urgency[r], r)))
        return self.spare_routes(s)

    def urgency(self, s: Situation, route: int) -> float:
        detour = detour_cost(s.costs, s.plan, route)
        return min(detour, 20.0) + s.view.game.board.routes[route].length * 0.5

    def spare_routes(self, s: Situation) -> tuple[int, ...]:
        """With no tickets to work on: the longest routes the bot can still fit."""
        routes = s.view.game.board.routes
        fits = [
            r.id
            for r in routes
            if r.cars <= s.me.trains and s.costs[r.id] not in (None, 0.0)
        ]
        fits.sort(key=lambda r: (-routes[r].length, r))
        return tuple(fits[:3])

    # --- a turn -------------------------------------------------------------

    def turn(self, s: Situation) -> Action:
        buy = self.purchase(s)
        if buy is not None:
            return buy
        monster = self.monster_move(s)
        if monster is not None:  # Alvin & Dexter: a free action before the turn's
            return monster
        if s.view.final_turns_left is not None:
            last = self.best_claim(s, list(claim_actions(s.view, s.player)))
            if last is not None:
                return last
        claim = self.claim_target(s)
        if claim is not None:
            return claim
        if not s.plan.routes and self.wants_tickets(s):
            return DrawTickets(s.player)
        return self.draw_card(s, second=False)

    def purchase(self, s: Situation) -> Action | None:
        """The technology to buy before the turn's action (the United Kingdom):
        what the targets need first, else one of ``VALUED_TECHNOLOGIES`` worth more than its price."""
        buy = technology_to_buy(s.view, s.player, s.targets)
        if buy is not None or not self.VALUED_TECHNOLOGIES or s.view.technologies is None:
            return buy
        return worth_buying(s.view, s.player, self.outlook(s), s.hand, self.VALUED_TECHNOLOGIES)

    def outlook(self, s: Situation) -> Outlook:
        """The bot's game left, as a technology's worth reads it (techvalue.py)."""
        done = len(s.plan.done) + len(s.plan.planned)
        return outlook(s.view, s.player, s.plan.routes, done, turns_left(s.view, s.player), s.targets)

    def monster_move(self, s: Situation) -> Action | None:
        """Alvin & Dexter: a monster off a city its tickets need, or a card of a bonus it does not lead (monsterplay.py)."""
        return plain_monster_move(s.view, s.player, s.plan.routes)

    def second_claim(self, s: Situation) -> Action:
        """The Thermocompressor's second claim: the most urgent target the hand pays for, else the turn ends."""
        claim = self.claim_target(s)
        return claim if claim is not None else FinishTurn(s.player)

    def wants_tickets(self, s: Situation) -> bool:
        return (
            draw_tickets_problem(s.view) is None
            and s.view.final_turns_left is None
            and s.me.trains >= self.TICKETS_WHEN_TRAINS
        )

    def claim_target(self, s: Situation) -> Action | None:
        """Claim the most urgent target the hand can pay for."""
        if not s.targets:
            return None
        rank = {r: i for i, r in enumerate(s.targets)}
        claims = [
            a
            for a in claim_actions(s.view, s.player)
            if isinstance(a, ClaimRoute) and a.route in rank and self.tunnel_ready(s, a)
        ]
        if not claims:
            return None
        route = min(claims, key=lambda a: rank[a.route]).route
        return self.cheapest_payment(s, [a for a in claims if a.route == route], s.targets)

    def tunnel_ready(self, s: Situation, claim: ClaimRoute) -> bool:
        """Whether to try this claim now. A tunnel's three turned cards ask for
        more cards a little over half the time: with a card to spare for that,
        try it; without, try it only if drawing would gather nothing else the
        plan needs (then a try is the quickest way to the route)."""
        if not s.view.game.board.routes[claim.route].tunnel or s.view.final_turns_left is not None:
            return True
        if tunnel_spare(s.view, s.hand, claim.cards) >= 1:
            return True
        left = s.hand.copy()
        for kind in kinds(s.view, claim.cards):
            left[kind] -= 1
        return missing_cards(s.view.game, [r for r in s.targets if r != claim.route], left, laid_colors(s.view)) == 0

    def best_claim(self, s: Situation, claims: Sequence[Action]) -> Action | None:
        """The claim scoring the most now: a route completing a ticket, else points."""
        best: tuple[float, int] | None = None
        chosen: Action | None = None
        targets = set(s.plan.routes)
        for a in claims:
            if not isinstance(a, ClaimRoute):
                continue
            value = points_for(s.view.game, a.route) + (0.5 if a.route in targets else 0.0)
            key = (value, -a.route)
            if best is None or key > best:
                best, chosen = key, a
        if chosen is None:
            return None
        assert isinstance(chosen, ClaimRoute)
        same = [a for a in claims if isinstance(a, ClaimRoute) and a.route == chosen.route]
        return self.cheapest_payment(s, same, s.targets)

    def cheapest_payment(self, s: Situation, claims: Sequence[ClaimRoute], targets: Sequence[int]) -> ClaimRoute:
        """Of several ways to pay one route, the one leaving the hand best
        placed for the other targets, then spending fewest locomotives."""
        rest = [r for r in targets if r != claims[0].route]

        def after(a: ClaimRoute) -> tuple[int, int]:
            hand = s.hand.copy()
            locos = 0
            for kind in kinds(s.view, a.cards):
                hand[kind] -= 1
                locos += kind == LOCOMOTIVE
            return (missing_cards(s.view.game, rest, hand, laid_colors(s.view)), locos)

        return min(claims, key=after)

    # --- drawing train cards ----------------------------------------------

    def card_values(self, s: Situation) -> dict[str, float]:
        """What one more card of each kind is worth to the targets."""
        gains = card_gains(s.view.game, s.targets, s.hand.copy(), laid_colors(s.view))
        values: dict[str, float] = {k: float(v) for k, v in gains.items()}
        if s.targets:
            focus = card_gains(s.view.game, s.targets[:1], s.hand.copy(), laid_colors(s.view))
            for k, v in focus.items():
                values[k] += FOCUS_WEIGHT * v
        values[LOCOMOTIVE] = values.get(LOCOMOTIVE, 0.0) + LOCOMOTIVE_FLEX
        return values

    def draw_card(self, s: Situation, second: bool) -> Action:
        values = self.card_values(s)
        blind = blind_gain(values, unseen_kinds(s.view, s.player))
        options: list[tuple[float, Action]] = []
        loco_slot: tuple[float, Action] | None = None
        for a in draw_actions(s.view, s.player):
            if isinstance(a, DrawBlind):
                options.append((blind, a))
            elif isinstance(a, DrawFaceUp):
                kind = face_up_kind(s.view, a.slot)
                if kind == LOCOMOTIVE:
                    loco_slot = (values[kind], a)
                else:
                    options.append((values[kind], a))
        if not options and loco_slot is None:
            return DrawBlind(s.player)  # nothing to draw: the fallback finds what is legal
        options.sort(key=lambda o: -o[0])
        best_two = (options[0][0] if options else 0.0) + max(blind, options[1][0] if len(options) > 1 else 0.0)
        if not second and draw_three_problem(s.view, s.player) is None and 3 * blind > max(
                best_two, loco_slot[0] if loco_slot is not None else 0.0):
            return DrawThreeBlind(s.player)  # Water Tenders: three blind beat the row's best two
        if loco_slot is not None and not second:
            # A face-up locomotive is the whole turn: worth it only if it beats two other cards.
            if loco_slot[0] > best_two or not options:
                return loco_slot[1]
        return options[0][1]

    # --- track pieces (France) ------------------------------------------------

    def lay_track(self, s: Situation) -> Action:
        """A piece on a bed of the plan in a colour held, never across the plan (trackpieces.py)."""
        lay = choose_lay(s.view, s.player, s.plan.routes, s.hand)
        return lay if lay is not None else legal_actions(s.view, s.player)[0]

    # --- tunnels ---------------------------------------------------------------

    def tunnel(self, s: Situation) -> Action:
        tunnel = s.view.tunnel
        assert tunnel is not None
        pays = [a for a in tunnel_actions(s.view, s.player) if isinstance(a, PayTunnel)]
        if pays and self.pays_tunnel(s, tunnel.route, tunnel.extra):
            rest = [r for r in s.targets if r != tunnel.route]
            hand = s.hand.copy()
            for kind in kinds(s.view, tunnel.cards):
                hand[kind] -= 1

            def after(a: PayTunnel) -> tuple[int, int]:
                left = hand.copy()
                used = kinds(s.view, a.cards)
                for kind in used:
                    left[kind] -= 1
                return (missing_cards(s.view.game, rest, left, laid_colors(s.view)), used.count(LOCOMOTIVE))

            return min(pays, key=after)
        return AbandonTunnel(s.player)

    def pays_tunnel(self, s: Situation, route: int, extra: int) -> bool:
        return route in s.plan.routes or extra <= 1

    # --- Old West's city markers ----------------------------------------------

    def city_marker(self, s: Situation) -> Action:
        """A marker where it is worth ``MARKER_LEAST_WORTH``, paid with the cards the targets need least."""
        choice = best_marker(s.view, s.player, self.MARKER_LEAST_WORTH)
        if not isinstance(choice, PlaceMarker):
            return choice
        ways = [a for a in marker_options(s.view, s.player) if a.city == choice.city]
        return min(ways, key=lambda a: self.hand_after(s, a.cards))

    def hand_after(self, s: Situation, cards: Sequence[CardRef]) -> tuple[int, int]:
        """How far the hand left after paying ``cards`` is from the targets, then the locomotives paid."""
        hand = s.hand.copy()
        paid = kinds(s.view, cards)
        for kind in paid:
            hand[kind] -= 1
        return (missing_cards(s.view.game, s.targets, hand, laid_colors(s.view)), paid.count(LOCOMOTIVE))

    # --- tickets ---------------------------------------------------------------

    def keep_tickets(self, view: GameState, player: int) -> Action:
        me = view.players[player]
        offered = me.offered
        costs = self.route_costs(view, player)
        held = tuple(ticket_ids(view, me.tickets))
        best: tuple[float, ...] | None = None
        chosen: tuple[CardRef, ...] = ()
        for keep in offer_rule(view).keeps(offered):
            value = self.ticket_choice_value(view, player, costs, held, tuple(ticket_ids(view, keep)))
            if best is None or value > best:
                best, chosen = value, keep
        return KeepTickets(player, chosen, tuple(r for r in offered if r not in chosen))

    def ticket_choice_value(
        self, view: GameState, player: int, costs: CostTable, held: tuple[int, ...], keep: tuple[int, ...]
    ) -> tuple[float, ...]:
        """How good keeping ``keep`` is, comparable across choices (bigger is better)."""
        me = view.players[player]
        margin = self.TICKET_MARGIN_SETUP if view.phase is Phase.SETUP_TICKETS else self.TICKET_MARGIN
        plan = plan_tickets(view.game, costs, held + keep, me.routes, max(0, me.trains - margin))
        return (float(plan.points), -float(plan.trains))


class MediumBot(PlanningBot):
    """Plans its tickets and plays the plan; no look at the opponents. Of the
    technologies no route needs, it weighs only those that score as it plays."""

    level = "medium"
    VALUED_TECHNOLOGIES = SCORING_TECHNOLOGIES


# ---------------------------------------------------------------------------
# Shared small helpers


def kinds(view: GameState, refs: Sequence[CardRef]) -> list[str]:
    """The kinds of cards whose faces the view knows (the bot's own hand)."""
    out = []
    card_kinds = view.game.board.card_kinds
    for ref in refs:
        card = view.face(ref)
        if card is not None:
            out.append(card_kinds[card])
    return out


def tunnel_spare(view: GameState, hand: Counter[str], cards: Sequence[CardRef]) -> int:
    """Cards left in ``hand`` after paying ``cards`` that could pay a tunnel's extra."""
    paid = kinds(view, cards)
    colours = [k for k in paid if k != LOCOMOTIVE]
    spare = hand[LOCOMOTIVE] - paid.count(LOCOMOTIVE)
    if colours:
        spare += hand[colours[0]] - len(colours)
    return spare


def face_up_kind(view: GameState, slot: int) -> str:
    ref = view.face_up[slot]
    assert ref is not None
    return view.game.board.card_kind(view.public[ref])


# When a plan's action is refused, the first legal action of the earliest kind here.
_FALLBACK_ORDER: tuple[type[Action], ...] = (
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    KeepTickets,
    PayTunnel,
    AbandonTunnel,
    DrawTickets,
    Pass,
    BuildStation,
    LayTrack,
)


def legal_or_fallback(view: GameState, player: int, action: Action) -> Action:
    """``action`` if the engine accepts it in ``view``; otherwise a legal one.

    The check is the engine's own: apply the action to the view (a bot's view
    knows every card an action of its own names)."""
    try:
        apply(view, action)
        return action
    except EngineError:
        pass
    actions = legal_actions(view, player)
    if not actions:
        raise ValueError(f"player {player} has nothing to do in this position")
    for kind in _FALLBACK_ORDER:
        of_kind = [a for a in actions if isinstance(a, kind)]
        if not of_kind:
            continue
        if kind is ClaimRoute:
            return max(of_kind, key=lambda a: points_for(view.game, a.route) if isinstance(a, ClaimRoute) else 0)
        if kind is KeepTickets:
            return min(of_kind, key=lambda a: len(a.keep) if isinstance(a, KeepTickets) else 0)
        return of_kind[0]
    return actions[0]
