"""Card references: how the engine names a card whose face it may not know.

A reference is (deck, epoch, position): the card at ``position`` of the shuffled
deck ``deck`` in its ``epoch`` (epoch 0 is the first shuffle; every reshuffle of
the train discards starts a new epoch). A reference never changes while the card
moves between zones, so the mental-poker deck can always find its ciphertext.
The identity of a referenced card is a card id (see ``board``): a train card
0..109 or a ticket 0..45.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple


class Deck(IntEnum):
    """The decks cards are dealt from: train cards, regular tickets, long tickets, and Pennsylvania's dummy order."""

    TRAIN = 0  # the 110 train cards
    TICKETS = 1  # the 40 regular destination tickets
    LONG = 2  # the 6 long destination tickets
    # Pennsylvania with two players: the order in which the dummy's shares are
    # drawn at the end (stockmarket.py); cards 0.. stand for its shares.
    DUMMY_SHARES = 3


class CardRef(NamedTuple):
    """A card by where it was dealt from: deck, epoch (each reshuffle is a new one) and position. Its face may be
    unknown."""

    deck: Deck
    epoch: int
    pos: int

    def __str__(self) -> str:
        return f"{self.deck.name.lower()}/{self.epoch}/{self.pos}"


MAX_EPOCH = 1 << 16  # far more reshuffles than any game can need; bounds the wire
