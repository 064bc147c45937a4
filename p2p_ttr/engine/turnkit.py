"""What every action's handler shares, the core's and each mechanic's alike:
who may act now, which cards a move names from its player's hand, what
they pay, and the card moves of playing them.

These raise the ``EngineError`` the move deserves and change nothing: a
handler checks everything first, so a refused event leaves the (immutable)
state as it was.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from .cards import CardRef
from .errors import IllegalMove, MalformedEvent, OutOfTurn, UnknownCard
from .payments import Payment, payment_of
from .state import GameState, Phase, PlayerState, Step

# ---------------------------------------------------------------------------
# Who may act, and on what


def expect(state: GameState, player: int, *phases: Phase) -> None:
    """``player`` may act now, in one of ``phases`` (set-up's ticket choice: anyone offered; else the player to move)."""
    if not 0 <= player < state.n_players:
        raise MalformedEvent(f"there is no player {player} at this table")
    if state.awaiting is not None or state.steps:
        raise OutOfTurn(f"player {player} must wait: the table is dealing")
    if state.phase not in phases:
        raise OutOfTurn(f"player {player} cannot do that now (the game is in its {state.phase.value} phase)")
    if state.phase is not Phase.SETUP_TICKETS and state.current != player:
        raise OutOfTurn(f"it is player {state.current}'s turn, not player {player}'s")


def expect_city(state: GameState, city: str) -> None:
    """``city`` is a city of this board (else the event is not one)."""
    if city not in state.game.board.routes_at:
        raise MalformedEvent(f"there is no city called {city!r}")


def expect_route(state: GameState, route_id: int) -> None:
    """``route_id`` is a route of this board (else the event is not one)."""
    if not 0 <= route_id < len(state.game.board.routes):
        raise MalformedEvent(f"there is no route {route_id}")


def expect_in_hand(state: GameState, player: int, refs: tuple[CardRef, ...]) -> None:
    hand = set(state.players[player].hand)
    if len(set(refs)) != len(refs):
        raise IllegalMove("the same card is named twice")
    for ref in refs:
        if ref not in hand:
            raise IllegalMove(f"card {ref} is not in player {player}'s hand")


def refuse(problem: str | None) -> None:
    """Raise the ``IllegalMove`` a ``*_problem`` function found (None: nothing to refuse)."""
    if problem is not None:
        raise IllegalMove(problem)


# ---------------------------------------------------------------------------
# The cards a move plays


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


def payment(state: GameState, refs: tuple[CardRef, ...]) -> Payment:
    """What ``refs`` pay as one set of cards (one colour, and locomotives)."""
    pay = payment_of(kinds_of(state, refs))
    if pay is None:
        raise IllegalMove("cards of two different colours cannot be played together")
    return pay


def with_player(state: GameState, p: int, ps: PlayerState) -> GameState:
    players = list(state.players)
    players[p] = ps
    return state.evolve(players=tuple(players))


def without(items: tuple[CardRef, ...], remove: Iterable[CardRef]) -> tuple[CardRef, ...]:
    gone = set(remove)
    return tuple(r for r in items if r not in gone)


def publish(state: GameState, refs: Iterable[CardRef]) -> GameState:
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


def discarded_from_hand(state: GameState, p: int, cards: tuple[CardRef, ...]) -> GameState:
    """``cards`` of ``p``'s hand shown and discarded (a free action's price: the turn goes on)."""
    state = publish(state, cards)
    ps = state.players[p]
    return with_player(state, p, replace(ps, hand=without(ps.hand, cards))).evolve(discard=state.discard + cards)


def push(state: GameState, *steps: Step) -> GameState:
    """Run ``steps`` before anything already queued."""
    return state.evolve(steps=steps + state.steps)


def forget(state: GameState, refs: Iterable[CardRef]) -> GameState:
    """Drop knowledge of cards that left play or went back under a deck."""
    refs = set(refs)
    if not any(r in state.public or r in state.private for r in refs):
        return state
    public = {r: c for r, c in state.public.items() if r not in refs}
    private = {r: c for r, c in state.private.items() if r not in refs}
    return state.evolve(public=public, private=private)
