"""The train deck's top and the face-up row: cards taken off the top (a
reshuffle of the discards asked for when it runs out, the warehouses' cards
where depots are played), the row filled, and reset when three locomotives
show.

Every replica decides alike from public facts: see :func:`colored_in_reach`.
"""

from __future__ import annotations

from collections.abc import Callable

from .board import LOCOMOTIVE
from .cards import CardRef, Deck
from . import depots
from .state import FACE_UP_SLOTS, GameState, NeedReveal, Step, StepCheckRow, StepFillRow, StepShuffle
from .turnkit import push


def take_cards(
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
        state = push(state, *steps)
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


def fill_row(state: GameState) -> GameState:
    empty = [slot for slot, ref in enumerate(state.face_up) if ref is None]
    state, placed, interrupted = take_cards(state, len(empty), lambda _: StepFillRow())
    row = list(state.face_up)
    for slot, ref in zip(empty, placed):
        row[slot] = ref
    state = state.evolve(face_up=tuple(row))
    if not interrupted:  # otherwise the resumed fill queues the check
        state = push(state, StepCheckRow())
    if placed:
        state = state.evolve(awaiting=NeedReveal(placed))
    return state


def check_row(state: GameState) -> GameState:
    """"If, at any time, 3 of the 5 face-up cards are locomotives, discard
    all 5 and deal 5 new cards", as often as it takes. A new row can only do
    better if the cards it is dealt from (the draw pile and the discards,
    this row included) hold 3 non-locomotives; when public facts rule that
    out, the row stays until a card is taken (the rulebook is silent; without
    this the redeal would never end)."""
    board = state.game.board
    shown_row = tuple(r for r in state.face_up if r is not None)
    locos = sum(1 for r in shown_row if board.card_kind(state.public[r]) == LOCOMOTIVE)
    if state.game.rules.three_locomotives_reset_row and locos >= 3 and colored_in_reach(state) >= 3:
        state = state.evolve(discard=state.discard + shown_row, face_up=(None,) * FACE_UP_SLOTS)
        return push(state, StepFillRow())
    return state
