"""Chance: the deck's answers to what the game waits for (``state.awaiting``).

The engine never shuffles. When it needs chance it asks (``NeedShuffle``,
``NeedRemask``, ``NeedMix``, ``NeedReveal``) and waits; a chance event
(``Shuffled``, ``Remasked``, ``Mixed``, ``Reveal``, ``Peek``) answers, and is
checked here against what was asked and what is known: a face that shows a
card in two places can only come from a false shuffle.
"""

from __future__ import annotations

from typing import assert_never

from .board import LOCOMOTIVE
from .cards import CardRef, Deck
from .errors import BadChance, MalformedEvent
from .events import Mixed, Peek, Remasked, Reveal, Shuffled
from . import sharemoves
from .state import GameState, NeedMix, NeedRemask, NeedReveal, NeedShuffle
from .turnkit import forget


def apply_chance(state: GameState, event: Shuffled | Remasked | Mixed | Reveal | Peek) -> GameState:
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
            return forget(state, need.refs).evolve(awaiting=None, ticket_pile=pile, ticket_epoch=epoch)
        case Shuffled():
            return _shuffled(state, event)
        case Reveal(cards):
            return _revealed(state, cards)
        case Peek(player, cards):
            return _peeked(state, player, cards)
        case _:
            assert_never(event)


def _shuffled(state: GameState, event: Shuffled) -> GameState:
    """A deck's new order, as references (its faces stay hidden until opened)."""
    deck, epoch = event.deck, event.epoch
    need = state.awaiting
    if not isinstance(need, NeedShuffle) or (need.deck, need.epoch) != (deck, epoch):
        raise BadChance(f"no shuffle of {deck.name.lower()} epoch {epoch} was asked for")
    refs = tuple(CardRef(deck, epoch, i) for i in range(len(need.cards)))
    state = state.evolve(awaiting=None)
    if deck is Deck.TRAIN:
        board = state.game.board
        colored = sum(1 for card in need.cards if board.card_kind(card) != LOCOMOTIVE)
        state = forget(state, state.discard)
        return state.evolve(draw_pile=refs, discard=(), epoch=epoch, epoch_colored=colored)
    if deck is Deck.TICKETS:
        return state.evolve(ticket_pile=refs)
    if deck is Deck.DUMMY_SHARES:
        return sharemoves.with_dummy_order(state, refs)
    return state.evolve(long_pile=refs)


def _revealed(state: GameState, cards: tuple[tuple[CardRef, int], ...]) -> GameState:
    """Faces opened to everyone: those the table waits for, or cards in a hand."""
    check_faces(state, cards, private=False)
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


def _peeked(state: GameState, player: int, cards: tuple[tuple[CardRef, int], ...]) -> GameState:
    """Faces opened to ``player`` alone: only their own cards."""
    if not 0 <= player < state.n_players:
        raise MalformedEvent(f"there is no player {player} at this table")
    check_faces(state, cards, private=True)
    ps = state.players[player]
    own = set(ps.hand + ps.tickets + ps.offered)
    if not {r for r, _ in cards} <= own:
        raise BadChance(f"player {player} can only look at their own cards")
    private = dict(state.private)
    private.update(cards)
    return state.evolve(private=private)


def check_faces(state: GameState, cards: tuple[tuple[CardRef, int], ...], private: bool) -> None:
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
