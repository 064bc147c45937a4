"""The rules: ``apply(state, event) -> state``, the one way a game changes.

An action is checked completely before anything changes; a refused event raises
an ``EngineError`` and leaves the (immutable) state as it was. After an event,
the engine runs its queue of steps until it needs chance (``state.awaiting``)
or a player's decision.

This module is the turn's skeleton: the common actions (draw, claim, tickets,
pass), the step queue, the end of a turn and of the game. Each board
mechanic's moves and hooks live in its own module, declared once as its
``MECHANIC`` (mechanic.py): stations.py, tunnels.py, trackbeds.py (France),
depots.py (Warehouses and Depots), markerrules.py (Old West's city markers
and Alvin), technologies.py (the United Kingdom), sharemoves.py
(Pennsylvania), monstermoves.py (Alvin & Dexter). mechanics.py lists them in
the order the rules fix; the skeleton walks the list a game plays after a
claim, after a draw, before and as a turn ends, and as the set-up ends, and
dispatches every action to its handler by the action's type. Chance events
are chance.py's; what every handler shares is turnkit.py's.

The ``*_problem`` functions say why something is not allowed (None when it is);
``moves.legal_actions`` asks the very same functions, so legality has one home.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any, assert_never

from .board import LOCOMOTIVE, Route
from .cards import CardRef, Deck
from .chance import apply_chance
from .chance import clashes_with_private as clashes_with_private  # the table's check, asked here
from .errors import IllegalMove, MalformedEvent, OutOfTurn
from .events import (
    BuildStation,
    BuyTechnology,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    Event,
    KeepTickets,
    Mixed,
    MoveMonster,
    Pass,
    PayTunnel,
    Peek,
    PlaceMarker,
    Remasked,
    Reveal,
    Shuffled,
)
from . import depots, monstermoves, sharemoves
from . import trackbeds
from .drawpile import check_row, fill_row, take_cards
from .game import Game, LocomotiveUse, TicketChoice, Unkept
from .markerrules import network_problem
from .mechanic import ClaimTaken, Handles, Then, TurnFlow
from .mechanics import handlers, played, setting_up
from .payments import route_payment, route_payment_problem, route_payments, station_payments
from . import technologies, tunnels
from .startinglocos import first_shuffle, gifted_locomotives, gifts_of
from .state import (
    FACE_UP_SLOTS,
    GameState,
    NeedReveal,
    NeedShuffle,
    NeedMix,
    NeedRemask,
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
)
from .stations import station_problem
from .turnkit import expect, expect_in_hand, expect_route, forget, publish, push, refuse, with_player, without
from .turnkit import kinds_of as kinds_of  # the client reads a hand's kinds here

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
        public=dict(gifted_locomotives(game, n_players)),
    )
    for mechanic in played(game):  # each mechanic's slice of the state (None where it is not played)
        if mechanic.at_start is not None:
            table = mechanic.at_start(table)
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
            state = apply_chance(state, event)
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
# A hand's faces


def hand_counts(state: GameState, player: int) -> Counter[str]:
    """Counts per kind of the cards in ``player``'s hand whose faces this state knows."""
    board = state.game.board
    counts: Counter[str] = Counter()
    for ref in state.players[player].hand:
        card = state.face(ref)
        if card is not None:
            counts[board.card_kind(card)] += 1
    return counts


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
        expect(state, action.player, Phase.TURN)
        refuse(pass_public_problem(state))
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
    for mechanic in played(state.game):  # a mechanic may bar any action now (a draw owed, a second claim)
        if mechanic.refuses is not None:
            refuse(mechanic.refuses(state, action))
    handler = ACTION_HANDLERS.get(type(action))
    if handler is None:
        raise MalformedEvent(f"not an event: {action!r}")
    return handler(state, action, _FLOW)


def _draw_blind(state: GameState, action: DrawBlind, flow: TurnFlow) -> GameState:
    expect(state, action.player, Phase.TURN)
    refuse(draw_blind_problem(state))
    state = state.evolve(cards_drawn=state.cards_drawn + 1, passes=0)
    return push(state, StepDeal(action.player, 1), StepAfterDraw())


def _draw_face_up(state: GameState, action: DrawFaceUp, flow: TurnFlow) -> GameState:
    p, slot = action.player, action.slot
    expect(state, p, Phase.TURN)
    refuse(draw_face_up_problem(state, slot))
    ref = state.face_up[slot]
    assert ref is not None
    ends_draw = (state.game.rules.face_up_locomotive_ends_draw
                 and state.game.board.card_kind(state.public[ref]) == LOCOMOTIVE)
    row = list(state.face_up)
    row[slot] = None
    ps = state.players[p]
    state = with_player(state, p, replace(ps, hand=ps.hand + (ref,)))
    state = state.evolve(
        face_up=tuple(row),
        cards_drawn=2 if ends_draw else state.cards_drawn + 1,
        passes=0,
    )
    return push(state, StepFillRow(), StepAfterDraw())


def _draw_tickets(state: GameState, action: DrawTickets, flow: TurnFlow) -> GameState:
    expect(state, action.player, Phase.TURN)
    refuse(draw_tickets_problem(state))
    state = state.evolve(phase=Phase.TICKETS, passes=0)
    return push(state, *_offer(action.player, state.game.rules.draw_tickets))


def _pass(state: GameState, action: Pass, flow: TurnFlow) -> GameState:
    expect(state, action.player, Phase.TURN)
    refuse(pass_problem(state, action.player))
    return _end_turn(state.evolve(passes=state.passes + 1))


def _claim(state: GameState, action: ClaimRoute, flow: TurnFlow) -> GameState:
    p, route_id, cards = action.player, action.route, action.cards
    expect(state, p, Phase.TURN)
    board = state.game.board
    expect_route(state, route_id)
    route = trackbeds.as_built(state, board.routes[route_id])
    refuse(claim_problem(state, p, route))
    expect_in_hand(state, p, cards)
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
    state = publish(state, cards).evolve(passes=0)
    if route.tunnel:
        return tunnels.claimed(state, route_id, cards, pay.color)
    return _take_route(state, p, route, cards)


def _take_route(state: GameState, p: int, route: Route, paid: tuple[CardRef, ...]) -> GameState:
    """``route`` laid by ``p``, paid with ``paid``; then each mechanic the game
    plays has its say, in mechanics.py's order, until one keeps the turn or ends it."""
    ps = state.players[p]
    ps = replace(
        ps,
        hand=without(ps.hand, paid),
        routes=ps.routes + (route.id,),
        trains=ps.trains - route.cars,
    )
    owners = list(state.route_owner)
    beside = owners[route.id] is not None  # Right of Way: the first owner stays the route's owner
    if not beside:
        owners[route.id] = p
    state = with_player(state, p, ps)
    state = state.evolve(route_owner=tuple(owners), discard=state.discard + paid)
    claim = ClaimTaken(p, route, beside)
    for mechanic in played(state.game):
        if mechanic.after_claim is None:
            continue
        answer = mechanic.after_claim(state, claim)
        if answer.then is not Then.NEXT:
            return _FLOW.after(answer)
        state = answer.state
    return _end_turn(state)


def _keep_tickets(state: GameState, action: KeepTickets, flow: TurnFlow) -> GameState:
    p, keep, bottom = action.player, action.keep, action.bottom
    setup = state.phase is Phase.SETUP_TICKETS
    expect(state, p, Phase.SETUP_TICKETS, Phase.TICKETS)
    ps = state.players[p]
    if not ps.offered:
        raise OutOfTurn(f"player {p} has no tickets to choose from")
    if sorted(keep + bottom) != sorted(ps.offered) or len(set(keep + bottom)) != len(ps.offered):
        raise IllegalMove("name each ticket drawn exactly once, as kept or returned")
    choice = offer_rule(state)
    refuse(choice.keep_problem(keep, ps.offered))
    ps = replace(ps, offered=(), tickets=ps.tickets + keep)
    state, remask = _returned(with_player(state, p, ps), choice, bottom)
    if setup:
        if not any(other.offered for other in state.players):
            state = _begin_play(state)
        return push(state, *remask)
    state = state.evolve(phase=Phase.TURN)
    if not remask:
        return _end_turn(state)
    return push(state, *remask, StepEndTurn())


def _returned(state: GameState, choice: TicketChoice, bottom: tuple[CardRef, ...]) -> tuple[GameState, tuple[Step, ...]]:
    """The tickets not kept put away as ``choice`` says, and the chance that asks for.

    Returned tickets go under the deck re-encrypted (see NeedRemask): their
    old references were opened for this player and must not be reused.
    Tickets that go to the box leave the game unseen. Returns to be shuffled
    are gathered, and mixed once nobody is still choosing (NeedMix): their
    faces are forgotten when the mix is done, as a world still deals them."""
    remask: tuple[Step, ...] = ()
    if bottom and choice.unkept in (Unkept.BOTTOM_SHUFFLED, Unkept.SHUFFLED_IN):
        state = state.evolve(returned=state.returned + bottom)
    else:
        state = forget(state, bottom)
    if bottom and choice.unkept is Unkept.BOTTOM:
        remask = (StepRemask(Deck.TICKETS, bottom),)
    if state.returned and not any(other.offered for other in state.players):
        mixed = state.returned if choice.unkept is Unkept.BOTTOM_SHUFFLED else state.ticket_pile + state.returned
        remask += (StepMix(Deck.TICKETS, mixed),)
        state = state.evolve(returned=())
    return state, remask


# ---------------------------------------------------------------------------
# The set-up's end, a turn's end, the game's end


def _begin_play(state: GameState) -> GameState:
    """Set-up done (every ticket chosen): the pieces placed before the first turn,
    mechanic by mechanic (mechanics.SET_UP_ORDER); then seat 0 plays the first turn."""
    for mechanic in setting_up(state.game):
        assert mechanic.set_up is not None
        placing = mechanic.set_up(state)
        if placing is not None:
            return placing
    return state.evolve(phase=Phase.TURN, current=0)


def _first_due(state: GameState, asks: Iterable[Callable[[GameState], Phase | None] | None]) -> Phase | None:
    """The phase of the first decision a mechanic's hook says is due now (None: none is)."""
    for ask in asks:
        due = ask(state) if ask is not None else None
        if due is not None:
            return due
    return None


def _end_turn(state: GameState) -> GameState:
    mechanics = played(state.game)
    due = _first_due(state, (m.before_turn_ends for m in mechanics))  # the depots' warehouses, after a claim
    if due is not None:
        return state.evolve(phase=due)
    for mechanic in mechanics:
        if mechanic.turn_over is not None:
            state = mechanic.turn_over(state)
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
        return push(state.evolve(awaiting=NeedReveal(held)), StepGameOver())
    return state.evolve(phase=Phase.OVER)


# ---------------------------------------------------------------------------
# The step queue


def _run_steps(state: GameState) -> GameState:
    while state.steps and state.awaiting is None:
        step, rest = state.steps[0], state.steps[1:]
        state = _run_step(state.evolve(steps=rest), step)
    return state


def _run_step(state: GameState, step: Step) -> GameState:
    match step:
        case StepShuffle(deck, cards):
            epoch = state.epoch + 1 if deck is Deck.TRAIN else 0
            return state.evolve(awaiting=NeedShuffle(deck, epoch, cards))
        case StepDeal(p, count):
            state, dealt, _ = take_cards(state, count, lambda left: StepDeal(p, left))
            ps = state.players[p]
            return with_player(state, p, replace(ps, hand=ps.hand + dealt))
        case StepDealTickets(p, deck, count):
            pile = state.ticket_pile if deck is Deck.TICKETS else state.long_pile
            drawn, pile = pile[:count], pile[count:]
            state = state.evolve(ticket_pile=pile) if deck is Deck.TICKETS else state.evolve(long_pile=pile)
            ps = state.players[p]
            return with_player(state, p, replace(ps, offered=ps.offered + drawn))
        case StepFillRow():
            return fill_row(state)
        case StepCheckRow():
            return check_row(state)
        case StepTunnelReveal(remaining):
            return tunnels.turned_over(state, remaining)
        case StepTunnelResolve():
            return tunnels.resolved(state, _FLOW)
        case StepAfterDraw():
            return _after_draw(state)
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
        case _:
            assert_never(step)


def _after_draw(state: GameState) -> GameState:
    """The draw done, or a second card still to draw; a mechanic may ask for
    more before the turn ends (France: a track piece laid where one fits)."""
    if state.cards_drawn >= 2 or not can_draw_second_card(state):
        due = _first_due(state, (m.after_draw for m in played(state.game)))
        return _end_turn(state) if due is None else state.evolve(phase=due)
    return state


# ---------------------------------------------------------------------------
# Every action's handler, by the action's type; what a mechanic's handler hands back to this skeleton

_CORE_HANDLERS: tuple[Handles[Any], ...] = (
    Handles(DrawBlind, _draw_blind),
    Handles(DrawFaceUp, _draw_face_up),
    Handles(ClaimRoute, _claim),
    Handles(DrawTickets, _draw_tickets),
    Handles(KeepTickets, _keep_tickets),
    Handles(Pass, _pass),
)
# Every action has one handler here: tests/engine/test_mechanics.py checks the table covers events.Action.
ACTION_HANDLERS: Mapping[type[Event], Handles[Any]] = handlers(_CORE_HANDLERS)
_FLOW = TurnFlow(end_turn=_end_turn, begin_play=_begin_play, take_route=_take_route)
