"""Cards as group elements, and the lookup table back.

Card ``c`` of the deck named ``deck`` is ``m_c = H(domain, deck, c)^2 mod P``
where ``H`` is SHAKE-256 expanded to 2048 + 128 bits and reduced mod ``P``
(the extra 128 bits make the reduction's bias negligible). Squaring puts the
value in the residue group. Cards are never small integers: those have a
known quadratic character and multiplicative relations (``m_6 = m_2 * m_3``),
which would let anyone learn something about a ciphertext's plaintext; hashed
encodings are independent-looking elements. The deck name is part of the
hash, so train card 3 and ticket 3 are unrelated elements.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from .errors import DeckUsageError, NotACard
from .hashing import DOMAIN_CARD, hash_to_element
from .wire import MAX_DECK_SIZE, expect_deck_name

@lru_cache(maxsize=4 * MAX_DECK_SIZE)
def card_element(deck: str, card: int) -> int:
    """The group element encoding ``card`` of the deck named ``deck``."""
    return hash_to_element(DOMAIN_CARD, deck, card)


class CardCodec:
    """The encodings of some cards of one deck, and the reverse table.

    A deck epoch's codec holds exactly the cards that epoch was created from,
    so decrypting anything else (a card swapped in) fails the lookup.
    """

    __slots__ = ("deck", "cards", "_cards")

    def __init__(self, deck: str, cards: Iterable[int]) -> None:
        expect_deck_name(deck)
        self.deck = deck
        self.cards = tuple(cards)
        for card in self.cards:
            if type(card) is not int or not 0 <= card < MAX_DECK_SIZE:
                raise DeckUsageError(f"{card!r} is not a card id (0..{MAX_DECK_SIZE - 1})")
        self._cards = {card_element(deck, c): c for c in self.cards}
        if len(self._cards) != len(self.cards):
            raise DeckUsageError(f"deck {deck!r} lists a card twice")

    def __repr__(self) -> str:
        return f"CardCodec(deck={self.deck!r}, cards={len(self.cards)})"

    def element(self, card: int) -> int:
        """``m_card``; raises :class:`DeckUsageError` for a card not in this codec."""
        if card not in self.cards:
            raise DeckUsageError(f"deck {self.deck!r} has no card {card!r} here")
        return card_element(self.deck, card)

    def card(self, element: int) -> int:
        """The card encoded by ``element``; raises :class:`NotACard` otherwise."""
        card = self._cards.get(element)
        if card is None:
            raise NotACard(f"the decryption is not a card of deck {self.deck!r}")
        return card

    def __contains__(self, element: object) -> bool:
        return element in self._cards
