"""Legal-move generation: what a player may do now, from what they can see.

Built only from the predicates in ``rules`` and ``payments``, so it offers
exactly what ``apply`` accepts. Call it on the player's own view (or on an
omniscient state): claims and stations need the faces of the player's hand.

One action is generated per distinct *payment* (colour and number of
locomotives), using the first matching cards of the hand; ``apply`` accepts any
cards of those kinds. Returned tickets are generated in the order drawn;
``apply`` accepts them in any order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from .board import GRAY, LOCOMOTIVE
from .cards import CardRef
from .events import (
    AbandonTunnel,
    Action,
    BuildStation,
    BuyTechnology,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawThreeBlind,
    DrawTickets,
    EmptyWarehouses,
    FinishTurn,
    KeepTickets,
    LayTrack,
    Pass,
    PayTunnel,
    MoveAlvin,
    MoveMonster,
    PlaceDepot,
    PlaceMarker,
    PlaceMonster,
    PlaceStartCity,
    SkipMarker,
    StockWarehouse,
    TakeShares,
)
from . import depots
from .alvin import move_problem
from .markerrules import marker_problem, start_city_problem
from .monstermoves import move_actions, place_actions
from .sharemoves import share_choices
from .payments import Payment, marker_payments, route_payments, station_payments, tunnel_payments
from .standins import uses_stand_ins
from .technologies import (
    buy_actions,
    cards_paid_per_locomotive,
    draw_three_problem,
    payable_as,
    right_of_way_now,
    second_claim_pending,
)
from .trackbeds import as_built, lays
from .rules import (
    actors,
    claim_problem,
    draw_blind_problem,
    draw_face_up_problem,
    draw_tickets_problem,
    offer_rule,
    pass_problem,
)
from .state import FACE_UP_SLOTS, GameState, Phase
from .stations import station_problem


def legal_actions(state: GameState, player: int, only: type[Action] | None = None) -> list[Action]:
    """Every action ``player`` may take now (empty if it is not theirs to act);
    with ``only``, just the actions of that type."""
    if player not in actors(state):
        return []
    if state.phase is Phase.SETUP_TICKETS or state.phase is Phase.TICKETS:
        return _of(only, KeepTickets, lambda: ticket_choices(state, player))
    if state.phase is Phase.TUNNEL:
        return _of(only, PayTunnel, lambda: tunnel_actions(state, player)) + _of(
            only, AbandonTunnel, lambda: [AbandonTunnel(player)]
        )
    if state.phase is Phase.SHARES:
        return _of(only, TakeShares, lambda: list(share_choices(state, player)))
    if second_claim_pending(state):  # the Thermocompressor's second claim, or none
        return _of(only, ClaimRoute, lambda: claim_actions(state, player)) + _of(
            only, FinishTurn, lambda: [FinishTurn(player)])
    if state.phase is Phase.LAY_TRACK:
        return _of(only, LayTrack, lambda: list(lays(state, player)))
    if state.phase is Phase.START_CITY:
        return _of(only, PlaceStartCity, lambda: start_city_actions(state, player))
    if state.phase is Phase.MARKER:
        return _of(only, PlaceMarker, lambda: marker_actions(state, player)) + _of(
            only, SkipMarker, lambda: [SkipMarker(player)])
    if state.phase is Phase.ALVIN:
        return _of(only, MoveAlvin, lambda: alvin_moves(state, player))
    if state.phase is Phase.MONSTERS:
        return _of(only, PlaceMonster, lambda: place_actions(state, player))
    if state.phase is Phase.DEPOT_SETUP:
        return _of(only, PlaceDepot, lambda: depot_actions(state, player))
    if state.phase is Phase.WAREHOUSES:
        return _of(only, EmptyWarehouses, lambda: warehouse_choices(state, player))
    actions = [a for a in draw_actions(state, player) if only is None or isinstance(a, only)]
    if depots.stock_due(state):
        actions += _of(only, StockWarehouse, lambda: stock_actions(state, player))
    actions += _of(only, PlaceDepot, lambda: depot_actions(state, player))
    if not state.cards_drawn and draw_three_problem(state, player) is None and not depots.stock_due(state):
        actions += _of(only, DrawThreeBlind, lambda: [DrawThreeBlind(player)])  # a draw: after the warehouse
    if not state.cards_drawn and not (state.depots is not None and state.depots.stocked):
        if draw_tickets_problem(state) is None:
            actions += _of(only, DrawTickets, lambda: [DrawTickets(player)])
        actions += _of(only, ClaimRoute, lambda: claim_actions(state, player))
        actions += _of(only, BuildStation, lambda: station_actions(state, player))
        if pass_problem(state, player) is None:
            actions += _of(only, Pass, lambda: [Pass(player)])
        actions += _of(only, BuyTechnology, lambda: buy_actions(state, player))
        actions += _of(only, MoveMonster, lambda: move_actions(state, player, hand_by_kind(state, player)))
    return actions


def legal_kinds(state: GameState, player: int) -> list[type[Action]]:
    """The types of the actions ``player`` may take now, cheaply (no full lists)."""
    if player not in actors(state):
        return []
    if state.phase is Phase.SETUP_TICKETS or state.phase is Phase.TICKETS:
        return [KeepTickets]
    if state.phase is Phase.TUNNEL:
        kinds: list[type[Action]] = [PayTunnel] if tunnel_actions(state, player) else []
        return kinds + [AbandonTunnel]
    if state.phase is Phase.SHARES:
        return [TakeShares]
    if second_claim_pending(state):
        pending: list[type[Action]] = [ClaimRoute] if claim_actions(state, player, limit=1) else []
        return pending + [FinishTurn]
    if state.phase is Phase.LAY_TRACK:
        return [LayTrack]
    if state.phase is Phase.START_CITY:
        return [PlaceStartCity]
    if state.phase is Phase.MARKER:
        marking: list[type[Action]] = [PlaceMarker] if marker_actions(state, player) else []
        return marking + [SkipMarker]
    if state.phase is Phase.ALVIN:
        return [MoveAlvin]
    if state.phase is Phase.MONSTERS:
        return [PlaceMonster]
    if state.phase is Phase.DEPOT_SETUP:
        return [PlaceDepot]
    if state.phase is Phase.WAREHOUSES:
        return [EmptyWarehouses]
    kinds = []
    if depots.stock_due(state):
        kinds.append(StockWarehouse)
    if depot_actions(state, player, limit=1):
        kinds.append(PlaceDepot)
    for action in draw_actions(state, player):
        if type(action) not in kinds:
            kinds.append(type(action))
    if not state.cards_drawn and not (state.depots is not None and state.depots.stocked):
        if draw_tickets_problem(state) is None:
            kinds.append(DrawTickets)
        if claim_actions(state, player, limit=1):
            kinds.append(ClaimRoute)
        if station_actions(state, player, limit=1):
            kinds.append(BuildStation)
        if pass_problem(state, player) is None:
            kinds.append(Pass)
        if buy_actions(state, player):
            kinds.append(BuyTechnology)
        if move_actions(state, player, hand_by_kind(state, player)):
            kinds.append(MoveMonster)
    return kinds


def _of(only: type[Action] | None, kind: type[Action], make: Callable[[], list[Action]]) -> list[Action]:
    return make() if only is None or only is kind else []


def draw_actions(state: GameState, player: int) -> list[Action]:
    """The draws of train cards open now (none while a card must first go on a warehouse)."""
    actions: list[Action] = []
    if depots.stock_due(state):
        return actions
    if draw_blind_problem(state) is None:
        actions.append(DrawBlind(player))
    for slot in range(FACE_UP_SLOTS):
        if draw_face_up_problem(state, slot) is None:
            actions.append(DrawFaceUp(player, slot))
    return actions


def hand_by_kind(
    state: GameState, player: int, exclude: Iterable[CardRef] = ()
) -> dict[str, list[CardRef]]:
    """The cards of ``player``'s hand whose faces this state knows, by kind, in hand order."""
    board = state.game.board
    skip = set(exclude)
    by_kind: dict[str, list[CardRef]] = {}
    for ref in state.players[player].hand:
        card = state.face(ref)
        if card is not None and ref not in skip:
            by_kind.setdefault(board.card_kind(card), []).append(ref)
    return by_kind


def cards_for(by_kind: dict[str, list[CardRef]], pay: Payment) -> tuple[CardRef, ...] | None:
    """The first cards of a hand (see ``hand_by_kind``) making ``pay``, or None."""
    colored = by_kind.get(pay.color, []) if pay.color is not None else []
    locos = by_kind.get(LOCOMOTIVE, [])
    if len(colored) < pay.colored or len(locos) < pay.locomotives:
        return None
    cards = tuple(colored[: pay.colored]) + tuple(locos[: pay.locomotives])
    for kind, n in pay.stand_ins:  # after the cards above, so none is taken twice
        used = pay.colored if kind == pay.color else pay.locomotives if kind == LOCOMOTIVE else 0
        spare = by_kind.get(kind, [])[used:]
        if len(spare) < n:
            return None
        cards += tuple(spare[:n])
    return cards


def _counts(by_kind: dict[str, list[CardRef]]) -> Counter[str]:
    return Counter({kind: len(refs) for kind, refs in by_kind.items()})


def claim_actions(state: GameState, player: int, limit: int | None = None) -> list[Action]:
    """Every (route, payment) ``player`` can claim with the hand they know."""
    board = state.game.board
    by_kind = hand_by_kind(state, player)
    if not by_kind:
        return []
    counts = _counts(by_kind)
    locos = counts.get(LOCOMOTIVE, 0)
    most = max((n for k, n in counts.items() if k != LOCOMOTIVE), default=0)
    # Many routes share colour, length and ferry count: price each shape once,
    # and pick the cards of each payment once.
    priced: dict[tuple[str, int, int, int, bool], list[tuple[CardRef, ...]]] = {}
    actions: list[Action] = []
    owners = state.route_owner
    per_locomotive = cards_paid_per_locomotive(state, player)
    taken_too = right_of_way_now(state)  # Right of Way: a route another player holds may be claimed
    for route in board.routes:
        route = as_built(state, route)  # a track bed with a piece on it: in the piece's colour
        # Cheap necessary conditions first (taken; too few cards to ever pay);
        # claim_problem and route_payments stay the judges.
        if owners[route.id] is not None and not taken_too:
            continue
        stand_ins = uses_stand_ins(state.game, route, per_locomotive)  # then any cards may count: no cheap bound
        if not stand_ins and (locos < route.ferry_locomotives or route.length > locos + (
                most if route.color == GRAY else counts.get(route.color, 0))):
            continue
        if claim_problem(state, player, route) is not None:
            continue
        shape = (route.color, route.length, route.ferry_locomotives, route.stand_in, route.tunnel)
        if shape not in priced:
            paid = [cards for paid_as in payable_as(state, player, route)  # Diesel Power: a space less too
                    for pay in route_payments(state.game, paid_as, counts, per_locomotive)
                    if (cards := cards_for(by_kind, pay)) is not None]
            priced[shape] = list(dict.fromkeys(paid))
        for cards in priced[shape]:
            actions.append(ClaimRoute(player, route.id, cards))
            if limit is not None and len(actions) >= limit:
                return actions
    return actions


def station_actions(state: GameState, player: int, limit: int | None = None) -> list[Action]:
    board = state.game.board
    ps = state.players[player]
    if ps.stations_left <= 0:
        return []
    by_kind = hand_by_kind(state, player)
    payments = [cards_for(by_kind, pay) for pay in station_payments(board, len(ps.stations) + 1, _counts(by_kind))]
    if not payments:
        return []
    actions: list[Action] = []
    for city in board.cities:
        if station_problem(state, player, city) is not None:
            continue
        for cards in payments:
            assert cards is not None
            actions.append(BuildStation(player, city, cards))
            if limit is not None and len(actions) >= limit:
                return actions
    return actions


def start_city_actions(state: GameState, player: int) -> list[Action]:
    """Every city ``player`` may start from (Old West), in board order."""
    return [PlaceStartCity(player, city) for city in state.game.board.cities if start_city_problem(state, city) is None]


def marker_actions(state: GameState, player: int) -> list[Action]:
    """Every (end of the route just claimed, payment) that places a city marker (Old West)."""
    markers = state.markers
    if markers is None or markers.claimed is None:
        return []
    board = state.game.board
    by_kind = hand_by_kind(state, player)
    payments = [cards for pay in marker_payments(board, state.game.rules.marker_cards, _counts(by_kind))
                if (cards := cards_for(by_kind, pay)) is not None]
    return [PlaceMarker(player, city, cards) for city in board.routes[markers.claimed].cities
            if marker_problem(state, player, city) is None for cards in payments]


def alvin_moves(state: GameState, player: int) -> list[Action]:
    """Every city ``player``, who just captured Alvin the Alien, may put him down in, in the order they marked them."""
    markers = state.markers
    if markers is None:
        return []
    return [MoveAlvin(player, city) for city in markers.cities_of(player) if move_problem(markers, player, city) is None]


def tunnel_actions(state: GameState, player: int) -> list[Action]:
    tunnel = state.tunnel
    if tunnel is None:
        return []
    board = state.game.board
    by_kind = hand_by_kind(state, player, exclude=tunnel.cards)
    actions: list[Action] = []
    for pay in tunnel_payments(board, tunnel.color, tunnel.extra, _counts(by_kind)):
        cards = cards_for(by_kind, pay)
        assert cards is not None
        actions.append(PayTunnel(player, cards))
    return actions


def ticket_choices(state: GameState, player: int) -> list[Action]:
    offered = state.players[player].offered
    return [KeepTickets(player, keep, tuple(r for r in offered if r not in keep))
            for keep in offer_rule(state).keeps(offered)]


def depot_actions(state: GameState, player: int, limit: int | None = None) -> list[Action]:
    """Every city ``player`` may put a depot on now (at set-up, or before the turn's action)."""
    if state.depots is None or state.depots.supply[player] <= 0:
        return []
    out: list[Action] = []
    for city in state.game.board.cities:
        if depots.place_problem(state, player, city) is None:
            out.append(PlaceDepot(player, city))
            if limit is not None and len(out) >= limit:
                break
    return out


def stock_actions(state: GameState, player: int) -> list[Action]:
    """Every warehouse the top card may go on before the draw."""
    return [StockWarehouse(player, seat) for seat in range(state.n_players)
            if depots.stock_problem(state, seat) is None]


def warehouse_choices(state: GameState, player: int) -> list[Action]:
    """Every set of warehouses ``player`` may empty as the turn ends, taking none first."""
    seats = depots.reachable(state, player)
    assert state.depots is not None
    most = state.depots.supply[player]
    chosen = [tuple(s for i, s in enumerate(seats) if mask >> i & 1) for mask in range(1 << len(seats))]
    return [EmptyWarehouses(player, c) for c in sorted(chosen, key=len) if len(c) <= most]
