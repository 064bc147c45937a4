"""The rules: ``apply(state, event) -> state``, the one way a game changes.

An action is checked completely before anything changes; a refused event raises
an ``EngineError`` and leaves the (immutable) state as it was. After an event,
the engine runs its queue of steps until it needs chance (``state.awaiting``)
or a player's decision.

The ``*_problem`` functions say why something is not allowed (None when it is);
``moves.legal_actions`` asks the very same functions, so legality has one home.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace

from .alvin import captured, captures, move_problem, moving
from .board import LOCOMOTIVE, Route
from .cards import CardRef, Deck
from .errors import BadChance, IllegalMove, MalformedEvent, OutOfTurn, UnknownCard
from .events import (
    AbandonTunnel,
    BuildStation,
    BuyTechnology,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawThreeBlind,
    DrawTickets,
    EmptyWarehouses,
    Event,
    FinishTurn,
    KeepTickets,
    LayTrack,
    Mixed,
    MoveAlvin,
    MoveMonster,
    Pass,
    PayTunnel,
    Peek,
    PlaceDepot,
    PlaceMarker,
    PlaceMonster,
    PlaceStartCity,
    Remasked,
    Reveal,
    Shuffled,
    SkipMarker,
    StockWarehouse,
    TakeShares,
)
from . import depots, monstermoves, sharemoves
from . import trackbeds
from .citymarkers import CityMarkers, placing_order
from .game import Game, LocomotiveUse, TicketChoice, Unkept
from .monsters import MONSTERS
from .markerrules import marker_problem, may_mark, network_problem, start_city_problem
from .payments import (
    Payment,
    marker_payment_problem,
    payment_of,
    route_payment,
    route_payment_problem,
    route_payments,
    station_payment_problem,
    station_payments,
    tunnel_extra,
    tunnel_payment_problem,
)
from . import technologies
from .startinglocos import first_shuffle, gifted_locomotives, gifts_of
from .state import (
    FACE_UP_SLOTS,
    GameState,
    NeedMix,
    NeedRemask,
    NeedReveal,
    NeedShuffle,
    Phase,
    PlayerState,
    Step,
    StepAfterDraw,
    StepBeginTicketChoice,
    StepCheckRow,
    StepDeal,
    StepDealTickets,
    StepEndTurn,
    StepFillRow,
    StepGameOver,
    StepMix,
    StepRemask,
    StepShuffle,
    StepTunnelResolve,
    StepTunnelReveal,
    Tunnel,
)

# ---------------------------------------------------------------------------
# Public entry points


def new_game(game: Game, n_players: int) -> GameState:
    """A table of ``game`` for ``n_players``, waiting for its decks to be shuffled.

    Setup: shuffle the decks the game uses, deal each player their starting
    hand, turn 5 cards face up, offer each player their first tickets
    (``Rules.setup_tickets``: Europe deals 1 long and 3 regular, keep 2+)."""
    rules = game.rules
    if not rules.players_allowed(n_players):
        raise ValueError(f"{game.title} is for {rules.min_players} to {rules.max_players} players, not {n_players}")
    board = game.board
    steps: list[Step] = [StepShuffle(Deck.TRAIN, first_shuffle(game, n_players))]
    steps += [StepShuffle(deck, tuple(game.card_ids(deck))) for deck in (Deck.TICKETS, Deck.LONG)
              if game.deck_size(deck)]
    if sharemoves.has_dummy(game, n_players):
        steps.append(StepShuffle(Deck.DUMMY_SHARES, tuple(game.card_ids(Deck.DUMMY_SHARES))))
    steps += [StepDeal(p, rules.cards_dealt) for p in range(n_players)]
    steps.append(StepFillRow())
    for p in range(n_players):
        steps += _offer(p, rules.setup_tickets)
    steps.append(StepBeginTicketChoice())
    supply = PlayerState(trains=rules.trains, stations_left=rules.stations)
    # The starting locomotives are in hand, face up, before the deck is shuffled (startinglocos.py).
    players = tuple(replace(supply, hand=tuple(ref for ref, _ in gifts_of(game, n_players, p)))
                    for p in range(n_players))
    table = GameState(
        game=game,
        n_players=n_players,
        players=players,
        route_owner=(None,) * len(board.routes),
        steps=tuple(steps),
        shares=sharemoves.opening_holdings(game),
        public=dict(gifted_locomotives(game, n_players)),
        technologies=technologies.holdings_at_start(game, n_players),
        track_beds=trackbeds.initial(game),
        markers=CityMarkers.empty(n_players, rules.alvin_city) if rules.city_markers else None,
        monsters=monstermoves.monsters_at_start(game, n_players),
        depots=depots.at_start(game, n_players),
    )
    return _run_steps(table)


def _offer(player: int, choice: TicketChoice) -> list[Step]:
    """The steps dealing ``choice``'s tickets to ``player``, deck by deck."""
    return [StepDealTickets(player, deal.deck, deal.count) for deal in choice.deals]


def apply(state: GameState, event: Event) -> GameState:
    """The state after ``event`` and every step it sets off, up to the next
    decision or chance the game waits for. The state given is never changed.

    Raises:
        MalformedEvent: the event is not one (a route or city that does not exist).
        OutOfTurn: it is not that player's turn, or not this kind of move's phase.
        IllegalMove: a rule forbids it (the message says which).
        UnknownCard: a rule needs the face of a card this state does not know.
        BadChance: a chance event that does not answer what the game waits for.
    """
    match event:
        case Shuffled() | Remasked() | Mixed() | Reveal() | Peek():
            state = _apply_chance(state, event)
        case _:
            state = _apply_action(state, event)
    return _run_steps(state)


def actors(state: GameState) -> tuple[int, ...]:
    """The players whose decision the game waits for now (none while chance is due)."""
    if state.awaiting is not None or state.steps:
        return ()
    if state.phase is Phase.SETUP_TICKETS:
        return tuple(p for p, ps in enumerate(state.players) if ps.offered)
    if state.phase in (Phase.TURN, Phase.TUNNEL, Phase.TICKETS, Phase.SHARES, Phase.LAY_TRACK, Phase.START_CITY,
                       Phase.MARKER, Phase.ALVIN, Phase.MONSTERS, Phase.DEPOT_SETUP, Phase.WAREHOUSES):
        return (state.current,)
    return ()


# ---------------------------------------------------------------------------
# Small helpers over immutable data


def _with_player(state: GameState, p: int, ps: PlayerState) -> GameState:
    players = list(state.players)
    players[p] = ps
    return state.evolve(players=tuple(players))


def _without(items: tuple[CardRef, ...], remove: Iterable[CardRef]) -> tuple[CardRef, ...]:
    gone = set(remove)
    return tuple(r for r in items if r not in gone)


def kinds_of(state: GameState, refs: Iterable[CardRef]) -> list[str]:
    """The kinds of these train cards; UnknownCard if a face is not known here."""
    board = state.game.board
    kinds = []
    for ref in refs:
        card = state.face(ref)
        if card is None:
            raise UnknownCard(f"the face of card {ref} is not known here; it must be revealed first")
        kinds.append(board.card_kind(card))
    return kinds


def hand_counts(state: GameState, player: int) -> Counter[str]:
    """Counts per kind of the cards in ``player``'s hand whose faces this state knows."""
    board = state.game.board
    counts: Counter[str] = Counter()
    for ref in state.players[player].hand:
        card = state.face(ref)
        if card is not None:
            counts[board.card_kind(card)] += 1
    return counts


def _publish(state: GameState, refs: Iterable[CardRef]) -> GameState:
    """Make the faces of ``refs`` (known here) public, as when they are played."""
    public = dict(state.public)
    private = dict(state.private)
    for ref in refs:
        card = state.face(ref)
        if card is None:
            raise UnknownCard(f"the face of card {ref} is not known here")
        public[ref] = card
        private.pop(ref, None)
    return state.evolve(public=public, private=private)


def _forget(state: GameState, refs: Iterable[CardRef]) -> GameState:
    """Drop knowledge of cards that left play or went back under a deck."""
    refs = set(refs)
    if not any(r in state.public or r in state.private for r in refs):
        return state
    public = {r: c for r, c in state.public.items() if r not in refs}
    private = {r: c for r, c in state.private.items() if r not in refs}
    return state.evolve(public=public, private=private)


# ---------------------------------------------------------------------------
# Who may act


def _expect(state: GameState, player: int, *phases: Phase) -> None:
    if not 0 <= player < state.n_players:
        raise MalformedEvent(f"there is no player {player} at this table")
    if state.awaiting is not None or state.steps:
        raise OutOfTurn(f"player {player} must wait: the table is dealing")
    if state.phase not in phases:
        raise OutOfTurn(f"player {player} cannot do that now (the game is in its {state.phase.value} phase)")
    if state.phase is not Phase.SETUP_TICKETS and state.current != player:
        raise OutOfTurn(f"it is player {state.current}'s turn, not player {player}'s")


def _expect_in_hand(state: GameState, player: int, refs: tuple[CardRef, ...]) -> None:
    hand = set(state.players[player].hand)
    if len(set(refs)) != len(refs):
        raise IllegalMove("the same card is named twice")
    for ref in refs:
        if ref not in hand:
            raise IllegalMove(f"card {ref} is not in player {player}'s hand")


def _payment(state: GameState, refs: tuple[CardRef, ...]) -> Payment:
    pay = payment_of(kinds_of(state, refs))
    if pay is None:
        raise IllegalMove("cards of two different colours cannot be played together")
    return pay


# ---------------------------------------------------------------------------
# Rule predicates shared with move generation


def check_for_some_faces(state: GameState,
                         action: ClaimRoute | BuildStation | PayTunnel | PlaceMarker | Pass | BuyTechnology
                         | MoveMonster) -> None:
    """Raise the error ``apply`` would raise for ``action`` whatever the faces
    of the cards it plays that ``state`` cannot see: if it passes, some faces
    make the action legal. The action is tried with every unseen card a
    locomotive (where locomotives pay for anything, as on Europe, no faces do
    better), then, where the game limits locomotives (``Rules.locomotive_use``),
    with every unseen card of one colour, colour by colour; the first
    attempt's error is the one raised. The table accepts a move into the log
    on this test and opens its cards only then.

    A pass plays the whole hand (it shows that nothing in it can be played):
    here only its public conditions are checked, and the faces decide once
    the hand is open."""
    if isinstance(action, Pass):
        _expect(state, action.player, Phase.TURN)
        _refuse(pass_public_problem(state))
        return
    hidden = [r for r in action.cards if r not in state.public]
    board = state.game.board
    faces = [next(c for c in range(board.n_cards) if board.card_kind(c) == LOCOMOTIVE)]
    if state.game.rules.locomotive_use is not LocomotiveUse.ANY:
        faces += [board.colors.index(color) * board.cards_per_color for color in board.colors]
    first: IllegalMove | None = None
    for face in faces:
        try:
            _apply_action(state.evolve(public={**state.public, **{r: face for r in hidden}}), action)
            return
        except IllegalMove as exc:
            first = first or exc
    assert first is not None
    raise first


def draw_blind_problem(state: GameState) -> str | None:
    if not state.draw_pile and not state.discard and not depots.refill_due(state):
        return "there are no train cards left to draw"
    return None


def draw_face_up_problem(state: GameState, slot: int) -> str | None:
    if not 0 <= slot < FACE_UP_SLOTS or state.face_up[slot] is None:
        return f"there is no face-up card in slot {slot + 1}"
    ref = state.face_up[slot]
    assert ref is not None
    if (state.cards_drawn and state.game.rules.face_up_locomotive_ends_draw
            and state.game.board.card_kind(state.public[ref]) == LOCOMOTIVE):
        return "a face-up locomotive cannot be taken as the second card"
    return None


def claim_problem(state: GameState, player: int, route: Route) -> str | None:
    """Why ``player`` may not claim ``route`` at all this turn, whatever they pay."""
    if state.cards_drawn:
        return "a route cannot be claimed after drawing a card this turn"
    owner = state.route_owner[route.id]
    if owner is not None and not technologies.may_claim_held_route(state, player, owner):
        return f"{route.label} already belongs to player {owner}"
    if owner is not None and route.id in state.players[player].routes:
        return f"player {player} holds {route.label} already"
    kind, which = ("triple", "another") if len(route.parallel) > 1 else ("double", "the other")
    for side in route.parallel:
        side_owner = state.route_owner[side]
        if side_owner == player:
            return f"player {player} already holds {which} side of the {kind} route {route.a}-{route.b}"
        if side_owner is not None and not state.game.rules.both_sides_open(state.n_players):
            return f"in a game of {state.n_players}, only one side of the {kind} route {route.a}-{route.b} is used"
    bed = trackbeds.claim_problem(state, route)
    if bed is not None:
        return bed
    off_network = network_problem(state, player, route)
    if off_network is not None:
        return off_network
    chaos = monstermoves.chaos_claim_problem(state, route)
    if chaos is not None:
        return chaos
    if state.players[player].trains < route.cars:
        mountain = f" ({route.length} and {route.mountain_x} for its mountain crossings)" if route.mountain_x else ""
        return (f"{route.label} needs {route.cars} trains{mountain}; "
                f"player {player} has {state.players[player].trains}")
    return technologies.missing_technology_problem(state, player, route)


def station_problem(state: GameState, player: int, city: str) -> str | None:
    if state.cards_drawn:
        return "a station cannot be built after drawing a card this turn"
    if not state.game.rules.stations:
        return f"{state.game.title} has no stations"
    if state.players[player].stations_left <= 0:
        return f"player {player} has no stations left"
    for p, ps in enumerate(state.players):
        if city in ps.stations:
            return f"{city} already has a station (player {p}'s)"
    return monstermoves.chaos_station_problem(state, city) or depots.station_problem(state, city)


def offer_rule(state: GameState) -> TicketChoice:
    """The rule of the ticket offer in hand: the set-up's first offer, or the draw's."""
    rules = state.game.rules
    return rules.setup_tickets if state.phase is Phase.SETUP_TICKETS else rules.draw_tickets


def draw_tickets_problem(state: GameState) -> str | None:
    if state.cards_drawn:
        return "tickets cannot be drawn after drawing a card this turn"
    if not state.ticket_pile:
        return "the destination ticket deck is empty"
    return None


def can_draw_second_card(state: GameState) -> bool:
    if draw_blind_problem(state) is None:
        return True
    return any(draw_face_up_problem(state, s) is None for s in range(FACE_UP_SLOTS))


def pass_public_problem(state: GameState) -> str | None:
    """Why the player to move may not pass, from public facts alone: a train
    card or a ticket can still be drawn. (``pass_problem`` adds the hand.)"""
    if state.cards_drawn:
        return "the second card must be drawn"
    if draw_blind_problem(state) is None or any(
        draw_face_up_problem(state, s) is None for s in range(FACE_UP_SLOTS)
    ):
        return "a train card can still be drawn"
    if draw_tickets_problem(state) is None:
        return "destination tickets can still be drawn"
    return None


def pass_problem(state: GameState, player: int) -> str | None:
    """Passing is for a player who has no other legal action.

    The rulebook has no pass: "You must perform an action", and a player who
    cannot draw "must then Claim a Route, Draw Destination Tickets or Build a
    Station". A pass is for the player who can do none of these. Whether the
    hand pays for a route or a station depends on its faces, so a pass is
    judged only in a state that knows every card of the hand: the player's
    own view, or the table's once the pass has opened the hand (protocol.md
    §6: a pass shows the hand, which is how every replica agrees on it).
    """
    problem = pass_public_problem(state)
    if problem is not None:
        return problem
    board = state.game.board
    ps = state.players[player]
    faces = [state.face(r) for r in ps.hand]
    if any(face is None for face in faces):
        return "a pass must show the hand: its cards are not all open"
    counts = Counter(board.card_kind(face) for face in faces if face is not None)
    for route in board.routes:
        route = trackbeds.as_built(state, route)
        if claim_problem(state, player, route) is None and any(route_payments(
                state.game, paid_as, counts, technologies.cards_paid_per_locomotive(state, player))
                for paid_as in technologies.payable_as(state, player, route)):
            return f"{route.label} can still be claimed"
    if state.game.rules.stations and station_payments(board, len(ps.stations) + 1, counts):
        city = next((c for c in board.cities if station_problem(state, player, c) is None), None)
        if city is not None:
            return f"a station can still be built (in {city}, for one)"
    return None


# ---------------------------------------------------------------------------
# Actions


def _apply_action(state: GameState, action: Event) -> GameState:
    _refuse(technologies.second_claim_problem(state, action))
    _refuse(depots.draw_problem(state, action))
    match action:
        case DrawBlind(p):
            _expect(state, p, Phase.TURN)
            _refuse(draw_blind_problem(state))
            state = state.evolve(cards_drawn=state.cards_drawn + 1, passes=0)
            return _push(state, StepDeal(p, 1), StepAfterDraw())
        case DrawFaceUp(p, slot):
            _expect(state, p, Phase.TURN)
            _refuse(draw_face_up_problem(state, slot))
            ref = state.face_up[slot]
            assert ref is not None
            ends_draw = (state.game.rules.face_up_locomotive_ends_draw
                         and state.game.board.card_kind(state.public[ref]) == LOCOMOTIVE)
            row = list(state.face_up)
            row[slot] = None
            ps = state.players[p]
            state = _with_player(state, p, replace(ps, hand=ps.hand + (ref,)))
            state = state.evolve(
                face_up=tuple(row),
                cards_drawn=2 if ends_draw else state.cards_drawn + 1,
                passes=0,
            )
            return _push(state, StepFillRow(), StepAfterDraw())
        case ClaimRoute(p, route_id, cards):
            return _claim(state, p, route_id, cards)
        case PayTunnel(p, cards):
            return _pay_tunnel(state, p, cards)
        case AbandonTunnel(p):
            _expect(state, p, Phase.TUNNEL)
            assert state.tunnel is not None
            state = state.evolve(discard=state.discard + state.tunnel.revealed, tunnel=None, phase=Phase.TURN)
            return _end_turn(state)
        case DrawTickets(p):
            _expect(state, p, Phase.TURN)
            _refuse(draw_tickets_problem(state))
            state = state.evolve(phase=Phase.TICKETS, passes=0)
            return _push(state, *_offer(p, state.game.rules.draw_tickets))
        case KeepTickets(p, keep, bottom):
            return _keep_tickets(state, p, keep, bottom)
        case BuildStation(p, city, cards):
            return _build_station(state, p, city, cards)
        case Pass(p):
            _expect(state, p, Phase.TURN)
            _refuse(pass_problem(state, p))
            return _end_turn(state.evolve(passes=state.passes + 1))
        case TakeShares(p):
            _expect(state, p, Phase.SHARES)
            _refuse(sharemoves.take_shares_problem(state, action))
            return _end_turn(sharemoves.take_shares(state, action))
        case BuyTechnology(p, name, cards):
            return _buy_technology(state, p, name, cards)
        case DrawThreeBlind(p):
            _expect(state, p, Phase.TURN)
            _refuse(technologies.draw_three_problem(state, p))
            state = state.evolve(cards_drawn=technologies.THREE_BLIND, passes=0)
            return _push(state, StepDeal(p, technologies.THREE_BLIND), StepEndTurn())
        case FinishTurn(p):
            _expect(state, p, Phase.TURN)
            _refuse(technologies.finish_problem(state))
            return _end_turn(state)
        case LayTrack(p, route_id, color):
            _expect(state, p, Phase.LAY_TRACK)
            if not 0 <= route_id < len(state.game.board.routes):
                raise MalformedEvent(f"there is no route {route_id}")
            _refuse(trackbeds.lay_problem(state, state.game.board.routes[route_id], color))
            return _end_turn(state.evolve(track_beds=trackbeds.laid(state, route_id, color), phase=Phase.TURN))
        case PlaceStartCity(p, city):
            return _place_start_city(state, p, city)
        case PlaceMarker(p, city, cards):
            return _place_marker(state, p, city, cards)
        case SkipMarker(p):
            _expect(state, p, Phase.MARKER)
            return _end_turn(_marked(state, None))
        case MoveAlvin(p, city):
            return _move_alvin(state, p, city)
        case PlaceMonster(p, monster, city):
            return _place_monster(state, p, monster, city)
        case MoveMonster(p, monster, city, cards):
            return _move_monster(state, p, monster, city, cards)
        case PlaceDepot(p, city):
            return _place_depot(state, p, city)
        case StockWarehouse(p, seat):
            _expect(state, p, Phase.TURN)
            _refuse(depots.stock_problem(state, seat))
            return depots.stocked(state, seat).evolve(passes=0)
        case EmptyWarehouses(p, seats):
            _expect(state, p, Phase.WAREHOUSES)
            _refuse(depots.empty_problem(state, p, seats))
            return _end_turn(depots.emptied(state, p, seats))
    raise MalformedEvent(f"not an event: {action!r}")


def _refuse(problem: str | None) -> None:
    if problem is not None:
        raise IllegalMove(problem)


def _claim(state: GameState, p: int, route_id: int, cards: tuple[CardRef, ...]) -> GameState:
    _expect(state, p, Phase.TURN)
    board = state.game.board
    if not 0 <= route_id < len(board.routes):
        raise MalformedEvent(f"there is no route {route_id}")
    route = trackbeds.as_built(state, board.routes[route_id])
    _refuse(claim_problem(state, p, route))
    _expect_in_hand(state, p, cards)
    per_locomotive = technologies.cards_paid_per_locomotive(state, p)
    kinds = kinds_of(state, cards)
    # The route's own length, or one space less with Diesel Power: the first reading that pays.
    problems = []
    for paid_as in technologies.payable_as(state, p, route):
        read = route_payment(state.game, paid_as, kinds, per_locomotive)
        problem = read if isinstance(read, str) else route_payment_problem(state.game, paid_as, read, per_locomotive)
        if problem is None:
            break
        problems.append(problem)
    else:
        raise IllegalMove(problems[0])
    pay = read
    assert not isinstance(pay, str)
    state = _publish(state, cards).evolve(passes=0)
    if route.tunnel:
        tunnel = Tunnel(route=route_id, cards=cards, color=pay.color)
        state = state.evolve(tunnel=tunnel)
        return _push(state, StepTunnelReveal(state.game.rules.tunnel_cards), StepTunnelResolve())
    return _take_route(state, p, route, cards)


def _take_route(state: GameState, p: int, route: Route, paid: tuple[CardRef, ...]) -> GameState:
    ps = state.players[p]
    ps = replace(
        ps,
        hand=_without(ps.hand, paid),
        routes=ps.routes + (route.id,),
        trains=ps.trains - route.cars,
    )
    owners = list(state.route_owner)
    beside = owners[route.id] is not None  # Right of Way: the first owner stays the route's owner
    if not beside:
        owners[route.id] = p
    state = _with_player(state, p, ps)
    state = state.evolve(route_owner=tuple(owners), discard=state.discard + paid,
                         track_beds=trackbeds.claimed(state.track_beds, route.id))
    state = depots.after_claim(state, route.id)
    if state.markers is not None:  # Old West: the route is scored now, by the markers on its ends
        markers = state.markers.scored(route, p, state.game.board.route_points[route.length])
        if captures(markers, route):  # Alvin the Alien, where played
            markers = captured(markers, p, state.game.rules.alvin_capture_points)
            if moving(markers):
                return state.evolve(markers=replace(markers, claimed=route.id), phase=Phase.ALVIN)
        return _marker_choice(state.evolve(markers=markers), route)
    state = technologies.after_claim(state, p, route, beside)
    if technologies.turn_goes_on(state):  # the Thermocompressor's second claim is still to come
        return state
    choosing = sharemoves.after_claim(state, route.id)  # Pennsylvania: a share to take before the turn ends
    return _end_turn(state) if choosing is None else choosing


def _marker_choice(state: GameState, route: Route) -> GameState:
    """After a claim of Old West's: the marker choice, where there is one to make; else the turn ends."""
    assert state.markers is not None
    if may_mark(state, state.current, route):
        return state.evolve(markers=replace(state.markers, claimed=route.id), phase=Phase.MARKER)
    return _end_turn(state.evolve(markers=replace(state.markers, claimed=None), phase=Phase.TURN))


def _move_alvin(state: GameState, p: int, city: str) -> GameState:
    _expect(state, p, Phase.ALVIN)
    markers = state.markers
    assert markers is not None and markers.claimed is not None
    _refuse(move_problem(markers, p, city))
    state = state.evolve(markers=replace(markers, alvin=city))
    return _marker_choice(state, state.game.board.routes[markers.claimed])


def _marked(state: GameState, city: str | None) -> GameState:
    """The marker choice made (a marker on ``city``, or none): back to the turn, which ends."""
    assert state.markers is not None
    markers = replace(state.markers, claimed=None)
    return state.evolve(markers=markers if city is None else markers.place(city, state.current), phase=Phase.TURN)


def _place_start_city(state: GameState, p: int, city: str) -> GameState:
    _expect(state, p, Phase.START_CITY)
    if city not in state.game.board.routes_at:
        raise MalformedEvent(f"there is no city called {city!r}")
    _refuse(start_city_problem(state, city))
    assert state.markers is not None
    state = state.evolve(markers=state.markers.place(city, p))
    order = placing_order(state.n_players)
    if p == order[-1]:
        return _begin_play(state)
    return state.evolve(current=order[order.index(p) + 1])


def _monster_of(state: GameState, name: str, city: str) -> int:
    """The index of the monster called ``name``, once the event names a monster and a city of this game."""
    if state.monsters is None:
        raise IllegalMove(f"{state.game.title} is played without Alvin & Dexter")
    if name not in MONSTERS:
        raise MalformedEvent(f"there is no monster called {name!r}")
    if city not in state.game.board.routes_at:
        raise MalformedEvent(f"there is no city called {city!r}")
    return MONSTERS.index(name)


def _place_monster(state: GameState, p: int, name: str, city: str) -> GameState:
    """A monster placed at set-up; when both stand on the map, the first turn begins."""
    _expect(state, p, Phase.MONSTERS)
    monster = _monster_of(state, name, city)
    _refuse(monstermoves.place_problem(state, monster, city))
    assert state.monsters is not None
    monsters = state.monsters.placed(monster, city)
    due = monstermoves.next_to_place(monsters)
    if due is None:
        return _begin_play(state.evolve(monsters=monsters))
    return state.evolve(monsters=monsters, current=monstermoves.placing_seat(state.n_players, due))


def _move_monster(state: GameState, p: int, name: str, city: str, cards: tuple[CardRef, ...]) -> GameState:
    """A monster moved before the turn's action: its locomotives discarded, the turn goes on."""
    _expect(state, p, Phase.TURN)
    monster = _monster_of(state, name, city)
    _refuse(monstermoves.move_problem(state, p, monster))
    _expect_in_hand(state, p, cards)
    _refuse(monstermoves.reach_problem(state, monster, city, kinds_of(state, cards)))
    return monstermoves.moved(_discarded_from_hand(state, p, cards), p, monster, city)


def _begin_play(state: GameState) -> GameState:
    """Set-up done (every ticket chosen, Old West's starting cities placed): Alvin & Dexter, then the depots,
    are placed where they are played, the last seat first; then seat 0 plays the first turn."""
    if state.monsters is not None and (due := monstermoves.next_to_place(state.monsters)) is not None:
        return state.evolve(phase=Phase.MONSTERS, current=monstermoves.placing_seat(state.n_players, due))
    first = depots.first_placer(state)
    if first is None:
        return state.evolve(phase=Phase.TURN, current=0)
    return state.evolve(phase=Phase.DEPOT_SETUP, current=first)


def _place_depot(state: GameState, p: int, city: str) -> GameState:
    """A depot on ``city``: at set-up, the next player places theirs (then the first turn begins); in a
    turn, a free action before the turn's action."""
    setup = state.phase is Phase.DEPOT_SETUP
    _expect(state, p, Phase.DEPOT_SETUP, Phase.TURN)
    if city not in state.game.board.routes_at:
        raise MalformedEvent(f"there is no city called {city!r}")
    _refuse(depots.place_problem(state, p, city))
    assert state.depots is not None
    state = state.evolve(depots=state.depots.place(city, p))
    if not setup:
        return state
    after = depots.next_placer(state, p)
    return state.evolve(phase=Phase.TURN, current=0) if after is None else state.evolve(current=after)


def _place_marker(state: GameState, p: int, city: str, cards: tuple[CardRef, ...]) -> GameState:
    _expect(state, p, Phase.MARKER)
    if city not in state.game.board.routes_at:
        raise MalformedEvent(f"there is no city called {city!r}")
    _refuse(marker_problem(state, p, city))
    _expect_in_hand(state, p, cards)
    _refuse(marker_payment_problem(state.game.rules.marker_cards, _payment(state, cards)))
    state = _publish(state, cards)
    ps = state.players[p]
    state = _with_player(state, p, replace(ps, hand=_without(ps.hand, cards))).evolve(discard=state.discard + cards)
    return _end_turn(_marked(state, city))


def _pay_tunnel(state: GameState, p: int, cards: tuple[CardRef, ...]) -> GameState:
    _expect(state, p, Phase.TUNNEL)
    tunnel = state.tunnel
    assert tunnel is not None
    _expect_in_hand(state, p, cards)
    if set(cards) & set(tunnel.cards):
        raise IllegalMove("those cards are already paid for the tunnel")
    pay = _payment(state, cards)
    _refuse(tunnel_payment_problem(tunnel.color, tunnel.extra, pay))
    state = _publish(state, cards)
    route = state.game.board.routes[tunnel.route]
    state = state.evolve(discard=state.discard + tunnel.revealed, tunnel=None, phase=Phase.TURN)
    return _take_route(state, p, route, tunnel.cards + cards)


def _build_station(state: GameState, p: int, city: str, cards: tuple[CardRef, ...]) -> GameState:
    _expect(state, p, Phase.TURN)
    if city not in state.game.board.routes_at:
        raise MalformedEvent(f"there is no city called {city!r}")
    _refuse(station_problem(state, p, city))
    ps = state.players[p]
    _expect_in_hand(state, p, cards)
    _refuse(station_payment_problem(len(ps.stations) + 1, _payment(state, cards)))
    state = _publish(state, cards)
    ps = replace(ps, hand=_without(ps.hand, cards), stations=ps.stations + (city,),
                 stations_left=ps.stations_left - 1)
    state = _with_player(state, p, ps).evolve(discard=state.discard + cards, passes=0)
    return _end_turn(state)


def _buy_technology(state: GameState, p: int, name: str, cards: tuple[CardRef, ...]) -> GameState:
    """A technology bought before the turn's action: its cards discarded, the turn goes on."""
    _expect(state, p, Phase.TURN)
    _refuse(technologies.buy_problem(state, p, name))
    _expect_in_hand(state, p, cards)
    _refuse(technologies.price_problem(state, p, name, kinds_of(state, cards)))
    return technologies.with_purchase(_discarded_from_hand(state, p, cards), p, name)


def _discarded_from_hand(state: GameState, p: int, cards: tuple[CardRef, ...]) -> GameState:
    """``cards`` of ``p``'s hand shown and discarded (a free action's price: the turn goes on)."""
    state = _publish(state, cards)
    ps = state.players[p]
    return _with_player(state, p, replace(ps, hand=_without(ps.hand, cards))).evolve(discard=state.discard + cards)


def _keep_tickets(state: GameState, p: int, keep: tuple[CardRef, ...], bottom: tuple[CardRef, ...]) -> GameState:
    setup = state.phase is Phase.SETUP_TICKETS
    _expect(state, p, Phase.SETUP_TICKETS, Phase.TICKETS)
    ps = state.players[p]
    if not ps.offered:
        raise OutOfTurn(f"player {p} has no tickets to choose from")
    if sorted(keep + bottom) != sorted(ps.offered) or len(set(keep + bottom)) != len(ps.offered):
        raise IllegalMove("name each ticket drawn exactly once, as kept or returned")
    choice = offer_rule(state)
    _refuse(choice.keep_problem(keep, ps.offered))
    ps = replace(ps, offered=(), tickets=ps.tickets + keep)
    state = _with_player(state, p, ps)
    # Returned tickets go under the deck re-encrypted (see NeedRemask): their
    # old references were opened for this player and must not be reused.
    # Tickets that go to the box leave the game unseen. Returns to be shuffled
    # are gathered, and mixed once nobody is still choosing (NeedMix): their
    # faces are forgotten when the mix is done, as a world still deals them.
    remask: tuple[Step, ...] = ()
    if bottom and choice.unkept in (Unkept.BOTTOM_SHUFFLED, Unkept.SHUFFLED_IN):
        state = state.evolve(returned=state.returned + bottom)
    else:
        state = _forget(state, bottom)
    if bottom and choice.unkept is Unkept.BOTTOM:
        remask = (StepRemask(Deck.TICKETS, bottom),)
    if state.returned and not any(other.offered for other in state.players):
        mixed = state.returned if choice.unkept is Unkept.BOTTOM_SHUFFLED else state.ticket_pile + state.returned
        remask += (StepMix(Deck.TICKETS, mixed),)
        state = state.evolve(returned=())
    if setup:
        if not any(other.offered for other in state.players):
            # Old West: the starting cities are placed first, from the last seat down.
            first = placing_order(state.n_players)[0] if state.markers is not None else None
            state = _begin_play(state) if first is None else state.evolve(phase=Phase.START_CITY, current=first)
        return _push(state, *remask)
    state = state.evolve(phase=Phase.TURN)
    if not remask:
        return _end_turn(state)
    return _push(state, *remask, StepEndTurn())


def _end_turn(state: GameState) -> GameState:
    if depots.choice_due(state):  # a claim reached a depot: its warehouses may be emptied first
        return state.evolve(phase=Phase.WAREHOUSES)
    state = depots.turn_over(state)
    p = state.current
    state = state.evolve(turn=state.turn + 1, cards_drawn=0)
    if state.final_turns_left is not None:
        left = state.final_turns_left - 1
        if left == 0:
            return _finish(state.evolve(final_turns_left=0))
        state = state.evolve(final_turns_left=left)
    elif state.players[p].trains <= state.game.rules.last_round_trains:
        # Everyone, this player included, gets one more turn.
        state = state.evolve(final_turns_left=state.n_players)
    if state.passes >= state.n_players:
        # Undefined by the rulebook: nobody can do anything. The game ends.
        return _finish(state.evolve(stalled=True))
    return state.evolve(current=(p + 1) % state.n_players, phase=Phase.TURN)


def concede(state: GameState, winner: int | None) -> GameState:
    """End the game now: fewer than two seats are still played by their own
    players (the others forfeited or were carried on), so it is no longer a
    contest (protocol.md §6, Conceded). ``winner``: the seat still in play,
    if any, ranked first (outcome.final_score). What was under way stops: a
    tunnel is given up (its turned cards discarded), queued work and the
    chance awaited are dropped; then the game is scored as at a normal end,
    after its held tickets are revealed.

    Raises:
        OutOfTurn: the game has ended already.
    """
    if state.phase in (Phase.SCORING, Phase.OVER):
        raise OutOfTurn("the game has ended already")
    if winner is not None and not 0 <= winner < state.n_players:
        raise MalformedEvent(f"there is no seat {winner}")
    discard = state.discard + (state.tunnel.revealed if state.tunnel is not None else ())
    state = state.evolve(steps=(), awaiting=None, tunnel=None, discard=discard, conceded=True, conceded_to=winner)
    return _run_steps(_finish(state))


def _finish(state: GameState) -> GameState:
    held = tuple(r for ps in state.players for r in ps.tickets if r not in state.public)
    held += sharemoves.dummy_order_closed(state)
    state = state.evolve(phase=Phase.SCORING)
    if held:
        return _push(state.evolve(awaiting=NeedReveal(held)), StepGameOver())
    return state.evolve(phase=Phase.OVER)


# ---------------------------------------------------------------------------
# Chance


def _apply_chance(state: GameState, event: Shuffled | Remasked | Mixed | Reveal | Peek) -> GameState:
    match event:
        case Remasked(deck, epoch):
            need = state.awaiting
            if not isinstance(need, NeedRemask) or (need.deck, need.epoch) != (deck, epoch):
                raise BadChance(f"no re-masking of {deck.name.lower()} epoch {epoch} was asked for")
            fresh = tuple(CardRef(deck, epoch, i) for i in range(len(need.refs)))
            return state.evolve(awaiting=None, ticket_pile=state.ticket_pile + fresh, ticket_epoch=epoch)
        case Mixed(deck, epoch):
            need = state.awaiting
            if not isinstance(need, NeedMix) or (need.deck, need.epoch) != (deck, epoch):
                raise BadChance(f"no mix of {deck.name.lower()} epoch {epoch} was asked for")
            # The mixed cards leave the pile (Old West: all of it) and the new epoch goes under what is left.
            mixed = set(need.refs)
            fresh = tuple(CardRef(deck, epoch, i) for i in range(len(need.refs)))
            pile = tuple(r for r in state.ticket_pile if r not in mixed) + fresh
            return _forget(state, need.refs).evolve(awaiting=None, ticket_pile=pile, ticket_epoch=epoch)
        case Shuffled(deck, epoch):
            need = state.awaiting
            if not isinstance(need, NeedShuffle) or (need.deck, need.epoch) != (deck, epoch):
                raise BadChance(f"no shuffle of {deck.name.lower()} epoch {epoch} was asked for")
            refs = tuple(CardRef(deck, epoch, i) for i in range(len(need.cards)))
            state = state.evolve(awaiting=None)
            if deck is Deck.TRAIN:
                board = state.game.board
                colored = sum(1 for card in need.cards if board.card_kind(card) != LOCOMOTIVE)
                state = _forget(state, state.discard)
                return state.evolve(draw_pile=refs, discard=(), epoch=epoch, epoch_colored=colored)
            if deck is Deck.TICKETS:
                return state.evolve(ticket_pile=refs)
            if deck is Deck.DUMMY_SHARES:
                return sharemoves.with_dummy_order(state, refs)
            return state.evolve(long_pile=refs)
        case Reveal(cards):
            _check_faces(state, cards, private=False)
            need = state.awaiting
            shown = {r for r, _ in cards}
            if isinstance(need, NeedReveal) and shown == set(need.refs):
                state = state.evolve(awaiting=None)
            else:
                held = {r for ps in state.players for r in ps.hand + ps.tickets + ps.offered}
                if not shown <= held:
                    raise BadChance("only the cards the table is waiting for, or cards in a hand, can be revealed")
            public = dict(state.public)
            public.update(cards)
            private = {r: c for r, c in state.private.items() if r not in shown}
            return state.evolve(public=public, private=private)
        case Peek(player, cards):
            if not 0 <= player < state.n_players:
                raise MalformedEvent(f"there is no player {player} at this table")
            _check_faces(state, cards, private=True)
            ps = state.players[player]
            own = set(ps.hand + ps.tickets + ps.offered)
            if not {r for r, _ in cards} <= own:
                raise BadChance(f"player {player} can only look at their own cards")
            private = dict(state.private)
            private.update(cards)
            return state.evolve(private=private)


def _check_faces(state: GameState, cards: tuple[tuple[CardRef, int], ...], private: bool) -> None:
    """Faces must be real cards, agree with what is known, and never show one
    card in two places: that can only come from a false shuffle.

    A public reveal is checked against public faces only, so that every peer
    decides alike; a private peek against everything its replica knows. (A
    public card that clashes with one only this replica knows is for the
    caller to notice: see ``clashes_with_private``.)"""
    maps = (state.public, state.private) if private else (state.public,)
    # A set of the known ids makes the common case (a card not seen yet) cheap;
    # only a hit needs the scan that tells train cards and tickets apart.
    seen = set(state.public.values()).union(*(m.values() for m in maps[1:]))
    for ref, card in cards:
        if card not in state.game.card_ids(ref.deck):
            raise MalformedEvent(f"{card} is not a card of the {ref.deck.name.lower()} deck")
        face = state.public.get(ref) if not private else state.face(ref)
        if face is not None and face != card:
            raise BadChance(f"card {ref} is already known to be {face}, not {card}")
        if card in seen:
            for m in maps:
                for other, known in m.items():
                    if known == card and other != ref and id_space(other.deck) == id_space(ref.deck):
                        raise BadChance(f"card {card} shows up at {ref} while it is at {other}: a shuffle was false")


def id_space(deck: Deck) -> Deck:
    """The decks whose card ids name the same cards: the two ticket decks
    share one numbering (a long ticket's id follows the regular ones); the
    train cards and the dummy's order cards each have their own."""
    return Deck.TICKETS if deck is Deck.LONG else deck


def clashes_with_private(state: GameState) -> str | None:
    """A card this replica knows privately that is also public elsewhere."""
    public = {(id_space(r.deck), c): r for r, c in state.public.items()}
    for ref, card in state.private.items():
        other = public.get((id_space(ref.deck), card))
        if other is not None and other != ref:
            return f"card {card} is at {ref} and at {other}: a shuffle was false"
    return None


# ---------------------------------------------------------------------------
# The step queue


def _push(state: GameState, *steps: Step) -> GameState:
    """Run ``steps`` before anything already queued."""
    return state.evolve(steps=steps + state.steps)


def _run_steps(state: GameState) -> GameState:
    while state.steps and state.awaiting is None:
        step, rest = state.steps[0], state.steps[1:]
        state = _run_step(state.evolve(steps=rest), step)
    return state


def _take_cards(
    state: GameState, count: int, resume: Callable[[int], Step]
) -> tuple[GameState, tuple[CardRef, ...], bool]:
    """Take up to ``count`` cards from the top of the train deck.

    When the draw pile runs out and there are discards, they must be reshuffled
    first: that is chance, so the engine queues the reshuffle and then
    ``resume(cards still to take)``, and reports that it was interrupted. With
    no discards either, fewer cards are taken.

    Face-up slots left empty because no card remained are filled from the new
    deck as soon as it exists: right after the interrupted deal has taken its
    cards (a blind draw gets the card it was made for), before anything else.
    There are five face-up cards whenever cards remain.
    """
    taken = state.draw_pile[:count]
    state = state.evolve(draw_pile=state.draw_pile[len(taken) :])
    if len(taken) < count and depots.refill_due(state):  # the warehouses' cards become the draw pile
        state = depots.refilled(state)
        more = state.draw_pile[: count - len(taken)]
        state = state.evolve(draw_pile=state.draw_pile[len(more) :])
        taken += more
    if len(taken) < count and state.discard:
        cards = tuple(sorted(state.public[r] for r in state.discard))
        resumed = resume(count - len(taken))
        steps: tuple[Step, ...] = (StepShuffle(Deck.TRAIN, cards), resumed)
        if any(r is None for r in state.face_up) and not isinstance(resumed, StepFillRow):
            steps += (StepFillRow(),)
        state = _push(state, *steps)
        return state, taken, True
    return state, taken, False


def colored_in_reach(state: GameState) -> int:
    """The most non-locomotive train cards that the draw pile, the discards and
    the face-up row can hold together, judged from public facts only, so that
    every replica computes the same number without seeing the deck.

    Faces in the discards and the row are public. The draw pile's are hidden,
    but which cards were shuffled into it is public (``epoch_colored`` of them
    are not locomotives), and so is every card of that shuffle that has since
    left the pile face up (the row, tunnel cards, cards played or revealed).
    Those non-locomotives are no longer in the pile; cards drawn blind are not
    known, so they are counted as still possible. The number is never less
    than the truth, and equals it once every card that left the pile since its
    shuffle left face up."""
    board = state.game.board
    pile = set(state.draw_pile)
    gone = sum(
        1
        for ref, card in state.public.items()
        if ref.deck is Deck.TRAIN and ref.epoch == state.epoch and ref not in pile
        and board.card_kind(card) != LOCOMOTIVE
    )
    in_pile = max(0, min(len(state.draw_pile), state.epoch_colored - gone))
    shown = state.discard + tuple(r for r in state.face_up if r is not None)
    return in_pile + sum(1 for r in shown if board.card_kind(state.public[r]) != LOCOMOTIVE)


def _run_step(state: GameState, step: Step) -> GameState:
    board = state.game.board
    match step:
        case StepShuffle(deck, cards):
            epoch = state.epoch + 1 if deck is Deck.TRAIN else 0
            return state.evolve(awaiting=NeedShuffle(deck, epoch, cards))
        case StepDeal(p, count):
            state, dealt, _ = _take_cards(state, count, lambda left: StepDeal(p, left))
            ps = state.players[p]
            return _with_player(state, p, replace(ps, hand=ps.hand + dealt))
        case StepDealTickets(p, deck, count):
            pile = state.ticket_pile if deck is Deck.TICKETS else state.long_pile
            drawn, pile = pile[:count], pile[count:]
            state = state.evolve(ticket_pile=pile) if deck is Deck.TICKETS else state.evolve(long_pile=pile)
            ps = state.players[p]
            return _with_player(state, p, replace(ps, offered=ps.offered + drawn))
        case StepFillRow():
            empty = [slot for slot, ref in enumerate(state.face_up) if ref is None]
            state, placed, interrupted = _take_cards(state, len(empty), lambda _: StepFillRow())
            row = list(state.face_up)
            for slot, ref in zip(empty, placed):
                row[slot] = ref
            state = state.evolve(face_up=tuple(row))
            if not interrupted:  # otherwise the resumed fill queues the check
                state = _push(state, StepCheckRow())
            if placed:
                state = state.evolve(awaiting=NeedReveal(placed))
            return state
        case StepCheckRow():
            # "If, at any time, 3 of the 5 face-up cards are locomotives, discard
            # all 5 and deal 5 new cards", as often as it takes. A new row can
            # only do better if the cards it is dealt from (the draw pile and the
            # discards, this row included) hold 3 non-locomotives; when public
            # facts rule that out, the row stays until a card is taken (the
            # rulebook is silent; without this the redeal would never end).
            shown_row = tuple(r for r in state.face_up if r is not None)
            locos = sum(1 for r in shown_row if board.card_kind(state.public[r]) == LOCOMOTIVE)
            if state.game.rules.three_locomotives_reset_row and locos >= 3 and colored_in_reach(state) >= 3:
                state = state.evolve(discard=state.discard + shown_row, face_up=(None,) * FACE_UP_SLOTS)
                return _push(state, StepFillRow())
            return state
        case StepTunnelReveal(remaining):
            tunnel = state.tunnel
            assert tunnel is not None
            state, turned, _ = _take_cards(state, remaining, StepTunnelReveal)
            state = state.evolve(tunnel=replace(tunnel, revealed=tunnel.revealed + turned))
            if turned:
                state = state.evolve(awaiting=NeedReveal(turned))
            return state
        case StepTunnelResolve():
            tunnel = state.tunnel
            assert tunnel is not None
            extra = tunnel_extra(tunnel.color, (board.card_kind(state.public[r]) for r in tunnel.revealed))
            if extra == 0:
                route = board.routes[tunnel.route]
                state = state.evolve(discard=state.discard + tunnel.revealed, tunnel=None)
                return _take_route(state, state.current, route, tunnel.cards)
            return state.evolve(tunnel=replace(tunnel, extra=extra), phase=Phase.TUNNEL)
        case StepAfterDraw():
            if state.cards_drawn >= 2 or not can_draw_second_card(state):
                # France: a track piece is laid now, where one fits (else the step is skipped).
                if trackbeds.can_lay(state):
                    return state.evolve(phase=Phase.LAY_TRACK)
                return _end_turn(state)
            return state
        case StepBeginTicketChoice():
            return state.evolve(phase=Phase.SETUP_TICKETS)
        case StepGameOver():
            return state.evolve(phase=Phase.OVER)
        case StepRemask(deck, refs):
            return state.evolve(awaiting=NeedRemask(deck, state.ticket_epoch + 1, refs))
        case StepMix(deck, refs):
            return state.evolve(awaiting=NeedMix(deck, state.ticket_epoch + 1, refs))
        case StepEndTurn():
            return _end_turn(state)
    raise AssertionError(f"unknown step {step!r}")

