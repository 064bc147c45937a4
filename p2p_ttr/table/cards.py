"""Card names between the engine and the deck library, and the card codecs.

The engine names a card ``CardRef(Deck, epoch, pos)``; the deck library names
it ``EpochPosition("train", epoch, pos)``. The codec turns a decrypted group element
back into the card id of its deck.
"""

from __future__ import annotations

from collections.abc import Iterable

from p2p_ttr.deck import CardCodec
from p2p_ttr.deck import EpochPosition as DeckRef
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.game import Game

DECK_NAMES = {Deck.TRAIN: "train", Deck.TICKETS: "tickets", Deck.LONG: "long", Deck.DUMMY_SHARES: "dummy_shares"}


def deck_ref(ref: CardRef) -> DeckRef:
    """The deck library's name for an engine card reference."""
    return DeckRef(DECK_NAMES[ref.deck], ref.epoch, ref.pos)


def engine_deck(name: str) -> Deck | None:
    """The engine's deck called ``name`` on the wire, if there is one."""
    return next((deck for deck, known in DECK_NAMES.items() if known == name), None)


def codec_for(game: Game, deck: Deck) -> CardCodec:
    """The codec of ``deck``'s cards in ``game`` (built once per deck and card
    list: it hashes every card into the group)."""
    cards: Iterable[int] = game.card_ids(deck)
    key = (DECK_NAMES[deck], tuple(cards))
    if key not in _CODECS:
        _CODECS[key] = CardCodec(*key)
    return _CODECS[key]


_CODECS: dict[tuple[str, tuple[int, ...]], CardCodec] = {}
