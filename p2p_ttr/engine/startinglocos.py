"""Locomotives given to every player before the deal (the United Kingdom:
"All players will start with 1 Locomotive and the 4 standard dealt Train
cards").

The gift is public: no one has to be kept from seeing it, so it never
enters the mental-poker deck. The train deck's first shuffle (epoch 0)
leaves these locomotives out (the last locomotive ids, one player after
another); they are handed out face up as references just past the end of
that epoch's shuffled cards, positions ``shuffled .. deck size - 1``, which
no shuffled card has, so no share or ciphertext is ever asked of them.
Once played they are discards like any card, and a reshuffle takes them in
(protocol.md §3, starting locomotives).
"""

from __future__ import annotations

from .board import LOCOMOTIVE
from .cards import CardRef, Deck
from .game import Game


def gifted_locomotives(game: Game, n_players: int) -> tuple[tuple[CardRef, int], ...]:
    """The locomotives given before the deal, player after player: each as
    (its reference, its card id); ``Rules.locomotives_dealt`` a player."""
    board = game.board
    count = game.rules.locomotives_dealt * n_players
    if not count:
        return ()
    locomotives = [c for c in range(board.n_cards) if board.card_kind(c) == LOCOMOTIVE]
    given = locomotives[len(locomotives) - count:]
    first = board.n_cards - count
    return tuple((CardRef(Deck.TRAIN, 0, first + k), card) for k, card in enumerate(given))


def first_shuffle(game: Game, n_players: int) -> tuple[int, ...]:
    """The card ids of the train deck's first shuffle: every card but the gifted locomotives."""
    given = {card for _, card in gifted_locomotives(game, n_players)}
    return tuple(c for c in range(game.board.n_cards) if c not in given)


def gifts_of(game: Game, n_players: int, player: int) -> tuple[tuple[CardRef, int], ...]:
    """The locomotives given to ``player``."""
    each = game.rules.locomotives_dealt
    return gifted_locomotives(game, n_players)[player * each:(player + 1) * each]
