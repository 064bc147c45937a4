"""Quick play for every seat of a possible world: the search's rollouts.

A rollout plays a world (see ``worlds``) on from a candidate move, every seat
by ``RolloutPolicy``: the medium bot's plan (join the tickets by the cheapest
paths, gather their colours, claim), cut down to what is cheap enough to play
hundreds of turns a second. It never draws tickets, never builds stations,
and plans again only when a route of its plan is taken. Each seat plays from
its own hand and tickets (the world knows every card, the policy reads only
the seat's own).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from p2p_ttr.engine.board import GRAY, LOCOMOTIVE, TRACK_BED, Board, Route
from p2p_ttr.engine.cards import CardRef
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.engine.events import (
    AbandonTunnel,
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    KeepTickets,
    PayTunnel,
    SkipMarker,
    StockWarehouse,
)
from p2p_ttr.engine import depots
from p2p_ttr.engine.markerrules import network_problem
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.rules import actors, draw_blind_problem, draw_face_up_problem, offer_rule
from p2p_ttr.engine.state import FACE_UP_SLOTS, GameState, Phase
from p2p_ttr.engine.technologies import missing_technology_problem
from p2p_ttr.engine.trackbeds import as_built

from .hard import hard_weights
from .markerplay import alvin_home, joined_to_network, start_city
from .monsterplay import place_monster
from .planning import plan_tickets, points_for, route_costs, route_open_to, shortest_path
from .sharechoice import choose_shares
from .trackpieces import choose_lay
from .worlds import Streams, act
from .techbuying import technology_to_buy

# Trains kept in reserve when choosing tickets (as the medium bot).
TICKET_MARGIN_SETUP = 8
TICKET_MARGIN = 3
# With no tickets left to work on, claim spare routes at least this long
# (shorter ones only when few trains are left).
SPARE_LEAST_LENGTH = 3
# When another player is down to this many trains, the end is near: claim what scores most.
END_NEAR = 5
# A rollout gives up after this many decisions (no game comes near it).
MAX_DECISIONS = 2000

Hand = dict[str, list[CardRef]]


def hand_of(world: GameState, player: int) -> Hand:
    by_kind: Hand = {}
    face = world.face
    card_kinds = world.game.board.card_kinds
    for ref in world.players[player].hand:
        card = face(ref)
        if card is not None:
            by_kind.setdefault(card_kinds[card], []).append(ref)
    return by_kind


def payment(colors: Sequence[str], route: Route, hand: Hand) -> tuple[CardRef, ...] | None:
    """Cards of ``hand`` paying for ``route`` (fewest locomotives; gray in the
    colour held most, of the board's ``colors``), or None."""
    locos = hand.get(LOCOMOTIVE, [])
    length, ferry = route.length, route.ferry_locomotives
    if route.color == GRAY:
        colours = sorted((c for c in colors if c in hand), key=lambda c: -len(hand[c]))
    else:
        colours = [route.color] if route.color in hand else []
    for c in colours:
        have = hand[c]
        need_locos = max(ferry, length - len(have))
        if need_locos <= len(locos) and need_locos < length:
            return tuple(have[: length - need_locos]) + tuple(locos[:need_locos])
    if len(locos) >= length:
        return tuple(locos[:length])
    return None


class RolloutPolicy:
    """Cheap plan-following play for every seat of one world (see the module docstring)."""

    def __init__(self, n_players: int, rng: random.Random) -> None:
        self.rng = rng
        self.decisions = 0  # decisions played so far: the search's budget counts them
        self.plans: list[list[int]] = [[] for _ in range(n_players)]
        self.planned_for: list[tuple[int, ...] | None] = [None] * n_players

    # --- plans -----------------------------------------------------------------

    def tickets(self, world: GameState, p: int) -> tuple[int, ...]:
        out = []
        for ref in world.players[p].tickets:
            card = world.face(ref)
            if card is not None:
                out.append(card)
        return tuple(out)

    def plan(self, world: GameState, p: int) -> list[int]:
        """The routes still to claim for ``p``'s tickets, planned again when one
        was taken by someone else or the tickets changed."""
        ps = world.players[p]
        tickets = self.tickets(world, p)
        plan = self.plans[p]
        owners = world.route_owner
        routes = world.game.board.routes
        if self.planned_for[p] == tickets:
            plan = [r for r in plan if owners[r] != p]
            if all(route_open_to(world, p, routes[r]) for r in plan) and sum(
                routes[r].cars for r in plan
            ) <= ps.trains:
                self.plans[p] = plan
                return plan
        costs = route_costs(world, p, weights=hard_weights)
        made = joined_to_network(world, p, costs, plan_tickets(world.game, costs, tickets, ps.routes, ps.trains))
        plan = sorted(made.routes, key=lambda r: -routes[r].length)
        self.plans[p], self.planned_for[p] = plan, tickets
        return plan

    # --- decisions -------------------------------------------------------------

    def choose(self, world: GameState, p: int) -> Action:
        phase = world.phase
        if phase is Phase.SETUP_TICKETS or phase is Phase.TICKETS:
            return self.keep(world, p)
        if phase is Phase.TUNNEL:
            return self.tunnel(world, p)
        if phase is Phase.SHARES:
            return choose_shares(world, p, against_rivals=True)
        if phase is Phase.START_CITY:
            return start_city(world, p, self.plan(world, p))
        if phase is Phase.MARKER:  # Old West: a rollout keeps its cards for routes
            return SkipMarker(p)
        if phase is Phase.ALVIN:
            return alvin_home(world, p)
        if phase is Phase.MONSTERS:
            return place_monster(world, p, self.plan(world, p))
        hand = hand_of(world, p)
        if phase is Phase.LAY_TRACK:
            lay = choose_lay(world, p, self.plan(world, p), Counter({k: len(v) for k, v in hand.items()}))
            return lay if lay is not None else fallback(world, p)
        if world.cards_drawn:
            return self.draw(world, p, hand, self.plan(world, p), second=True)
        plan = self.plan(world, p)
        buy = technology_to_buy(world, p, plan)
        if buy is not None:
            return buy
        trains = world.players[p].trains
        if world.final_turns_left is not None or any(
            q != p and ps.trains <= END_NEAR for q, ps in enumerate(world.players)
        ):
            claim = self.best_claim(world, p, hand, set(plan), least=1)
            if claim is not None:
                return claim
        board = world.game.board
        for r in plan:
            if missing_technology_problem(world, p, board.routes[r]) is not None:
                continue  # a technology to buy first (the United Kingdom)
            cards = payment(board.colors, as_built(world, board.routes[r]), hand)
            if cards is not None and network_problem(world, p, board.routes[r]) is None:
                return ClaimRoute(p, r, cards)
        if not plan:
            claim = self.best_claim(world, p, hand, set(), least=SPARE_LEAST_LENGTH if trains > 6 else 1)
            if claim is not None:
                return claim
        return self.draw(world, p, hand, plan, second=False)

    def best_claim(self, world: GameState, p: int, hand: Hand, plan: set[int], least: int) -> Action | None:
        """The affordable open route scoring most (plan routes first among equals)."""
        trains = world.players[p].trains
        locos = len(hand.get(LOCOMOTIVE, ()))
        most = max((len(v) for k, v in hand.items() if k != LOCOMOTIVE), default=0)
        owners = world.route_owner
        game = world.game
        colors = game.board.colors
        best: tuple[int, int, int] | None = None
        chosen: Action | None = None
        for route in game.board.routes:
            route = as_built(world, route)
            length = route.length
            if length < least or length > trains or owners[route.id] is not None:
                continue
            if length > locos + (most if route.color == GRAY else len(hand.get(route.color, ()))):
                continue
            if not route_open_to(world, p, route) or missing_technology_problem(world, p, route) is not None \
                    or network_problem(world, p, route) is not None:
                continue
            key = (points_for(game, route.id), route.id in plan, -route.id)
            if best is not None and key <= best:
                continue
            cards = payment(colors, route, hand)
            if cards is not None:
                best, chosen = key, ClaimRoute(p, route.id, cards)
        return chosen

    def draw(self, world: GameState, p: int, hand: Hand, plan: Sequence[int], second: bool) -> Action:
        """A face-up card of a colour the plan lacks most; else blind."""
        board = world.game.board
        deficit = self.deficit(board, hand, plan)
        best_slot, best_gap = -1, 0
        loco_slot = -1
        for slot in range(FACE_UP_SLOTS):
            ref = world.face_up[slot]
            if ref is None:
                continue
            kind = board.card_kinds[world.public[ref]]
            if kind == LOCOMOTIVE:
                loco_slot = slot
                continue
            gap = deficit.get(kind, 0)
            if gap > best_gap:
                best_slot, best_gap = slot, gap
        if best_slot >= 0:
            return DrawFaceUp(p, best_slot)
        if draw_blind_problem(world) is None:
            if not second and loco_slot >= 0 and sum(deficit.values()) >= 4:
                return DrawFaceUp(p, loco_slot)
            return DrawBlind(p)
        for slot in range(FACE_UP_SLOTS):
            if draw_face_up_problem(world, slot) is None:
                return DrawFaceUp(p, slot)
        return DrawBlind(p)  # nothing to draw: the caller falls back on a legal move

    @staticmethod
    def deficit(board: Board, hand: Hand, plan: Sequence[int]) -> dict[str, int]:
        """Per colour, cards the plan's routes still need beyond the hand
        (gray routes in the colour the hand has most of)."""
        demand: dict[str, int] = {}
        grays = []
        for r in plan:
            route = board.routes[r]
            if route.color in (GRAY, TRACK_BED):  # a bed: the piece laid there is the bot's choice
                grays.append(route)
            else:
                demand[route.color] = demand.get(route.color, 0) + route.length - route.ferry_locomotives
        for g in grays:
            colour = max(board.colors, key=lambda c: len(hand.get(c, ())) - demand.get(c, 0))
            demand[colour] = demand.get(colour, 0) + g.length - g.ferry_locomotives
        return {c: n - len(hand.get(c, ())) for c, n in demand.items() if n > len(hand.get(c, ()))}

    def tunnel(self, world: GameState, p: int) -> Action:
        tunnel = world.tunnel
        assert tunnel is not None
        hand = hand_of(world, p)
        paid = set(tunnel.cards)
        for kind in list(hand):
            hand[kind] = [r for r in hand[kind] if r not in paid]
        colour = [] if tunnel.color is None else hand.get(tunnel.color, [])
        locos = hand.get(LOCOMOTIVE, [])
        if len(colour) + len(locos) >= tunnel.extra:
            n = min(len(colour), tunnel.extra)
            return PayTunnel(p, tuple(colour[:n]) + tuple(locos[: tunnel.extra - n]))
        return AbandonTunnel(p)

    def keep(self, world: GameState, p: int) -> Action:
        """The offered tickets scoring most per train of their own path (the
        routes held and planned are free), as many as the trains left allow,
        at least the least the rules ask (the cheapest then), and of a deck
        no more than the rules let keep."""
        ps = world.players[p]
        game = world.game
        setup = world.phase is Phase.SETUP_TICKETS
        rule = offer_rule(world)
        least = rule.keep_least(ps.offered)
        margin = TICKET_MARGIN_SETUP if setup else TICKET_MARGIN
        costs = route_costs(world, p, weights=hard_weights)
        planned = [] if setup else self.plan(world, p)
        free = set(ps.routes) | set(planned)
        rated: list[tuple[float, int, CardRef]] = []
        for ref in ps.offered:
            card = world.face(ref)
            if card is None:
                continue
            ticket = game.board.tickets[card]
            path = shortest_path(game, costs, ticket.a, ticket.b, free)
            trains = 10**6 if path is None else sum(game.board.routes[r].cars for r in path.routes if r not in free)
            rated.append((ticket.points / max(1, trains), trains, ref))
        rated.sort(key=lambda x: (-x[0], x[1]))
        room = ps.trains - margin - sum(game.board.routes[r].cars for r in planned)
        keep: list[CardRef] = []

        def allowed(ref: CardRef) -> bool:
            most = rule.keep_most(ref.deck)
            return most is None or sum(k.deck is ref.deck for k in keep) < most

        for _, trains, ref in rated:
            if trains <= room and allowed(ref):
                keep.append(ref)
                room -= trains
        for _, _, ref in sorted(rated, key=lambda x: x[1]):
            if len(keep) >= least:
                break
            if ref not in keep and allowed(ref):
                keep.append(ref)
        chosen = tuple(r for r in ps.offered if r in keep) or min(rule.keeps(ps.offered), key=len)
        return KeepTickets(p, chosen, tuple(r for r in ps.offered if r not in chosen))


def fallback(world: GameState, p: int) -> Action:
    """A legal move when the policy's was refused: a draw if any, else the first legal one."""
    actions = legal_actions(world, p)
    if not actions:
        raise ValueError(f"player {p} has nothing to do in this world")
    for a in actions:
        if isinstance(a, (DrawBlind, DrawFaceUp, ClaimRoute)):
            return a
    return actions[0]


def play_out(
    world: GameState, policy: RolloutPolicy, rng: random.Random, turns: int | None = None,
    streams: Streams | None = None,
) -> GameState:
    """Play ``world`` on with ``policy`` until the game is over, or until
    ``turns`` more turns are done (at the start of a turn); blind draws from
    ``streams`` if given."""
    stop = None if turns is None else world.turn + turns
    for _ in range(MAX_DECISIONS):
        if world.phase is Phase.OVER or world.phase is Phase.SCORING:
            return world
        if stop is not None and world.turn >= stop and world.phase is Phase.TURN and not world.cards_drawn:
            return world
        who = actors(world)
        if not who:
            return world
        p = who[0]
        policy.decisions += 1
        action = policy.choose(world, p)
        if depots.stock_due(world) and isinstance(action, depots.DRAWS):
            # Europe 1912's warehouses: a rollout puts the card on the drawer's own warehouse, then draws.
            world = act(world, StockWarehouse(p, p), rng, streams)
        try:
            world = act(world, action, rng, streams)
        except EngineError:
            world = act(world, fallback(world, p), rng, streams)
    return world
