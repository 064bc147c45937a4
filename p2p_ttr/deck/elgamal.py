"""ElGamal over the residue group: the canonical deck and decryption.

A card ``c`` is encrypted under the joint key ``Y`` as ``(a, b) = (G^r, m_c Y^r)``.
A new deck epoch starts from the public ciphertexts ``(1, m_c)`` (``r = 0``)
of its cards in ascending order; the shuffle chain (see :mod:`.shuffle`)
then permutes and re-randomises them. Decryption needs ``a^X`` with
``X = sum x_j``, which only exists as the product of every seat's share
``a^x_j``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .encoding import CardCodec, card_element
from .errors import InvalidElement, MalformedWire
from .group import IDENTITY, P, Q, canonical, check_element, element_to_bytes, exp, inverse
from .wire import (
    MAX_DECK_SIZE,
    expect_deck_name,
    expect_element,
    expect_epoch,
    expect_index,
    expect_list,
)

Ciphertext = tuple[int, int]
"""``(a, b)``: two encoded group elements."""


def check_inputs(inputs: Sequence[Ciphertext]) -> None:
    """Refuse a chain step's input that is not a list of ciphertexts.

    The identity is allowed (the canonical deck has ``a = 1``); anything
    received from a peer was already checked by its record.
    """
    for index, pair in enumerate(inputs):
        for value, name in zip(pair, "ab"):
            if type(value) is not int or not 1 <= value <= Q:
                raise InvalidElement(f"input ciphertext {index} {name} is not a group element")


def check_ciphertexts(ciphertexts: object, what: str) -> None:
    """Validate a published list of 1..MAX_DECK_SIZE ciphertexts (a chain step's output)."""
    if type(ciphertexts) is not tuple or not 1 <= len(ciphertexts) <= MAX_DECK_SIZE:
        raise MalformedWire(f"{what} holds 1..{MAX_DECK_SIZE} ciphertexts")
    for i, pair in enumerate(ciphertexts):
        if type(pair) is not tuple or len(pair) != 2:
            raise MalformedWire(f"{what}: ciphertext {i} must be an (a, b) pair")
        check_element(pair[0], f"ciphertext {i} a")
        check_element(pair[1], f"ciphertext {i} b")


def ciphertexts_to_wire(ciphertexts: Sequence[Ciphertext]) -> list[object]:
    """``[[a(256 bytes), b(256 bytes)], ...]``."""
    return [[element_to_bytes(a), element_to_bytes(b)] for a, b in ciphertexts]


def ciphertexts_from_wire(data: object, what: str) -> tuple[Ciphertext, ...]:
    """The inverse of :func:`ciphertexts_to_wire`, strict."""
    pairs = expect_list(data, what)
    if not 1 <= len(pairs) <= MAX_DECK_SIZE:
        raise MalformedWire(f"{what} holds 1..{MAX_DECK_SIZE} ciphertexts")
    ciphertexts = []
    for i, pair in enumerate(pairs):
        a, b = expect_list(pair, f"ciphertext {i}", 2)
        ciphertexts.append(
            (expect_element(a, f"ciphertext {i} a"), expect_element(b, f"ciphertext {i} b"))
        )
    return tuple(ciphertexts)


@dataclass(frozen=True, slots=True)
class DeckCreation:
    """The start of a deck epoch: which cards it holds, in ascending order.

    Epoch 0 holds the whole deck; a later epoch (a reshuffled discard pile)
    holds the discarded cards. Wire: ``[deck, epoch, [card, ...]]``.
    """

    deck: str
    epoch: int
    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        expect_deck_name(self.deck)
        expect_epoch(self.epoch)
        if type(self.cards) is not tuple or not 1 <= len(self.cards) <= MAX_DECK_SIZE:
            raise MalformedWire(f"a deck holds 1..{MAX_DECK_SIZE} cards")
        for card in self.cards:
            expect_index(card, "card")
        if any(x >= y for x, y in zip(self.cards, self.cards[1:])):
            raise MalformedWire("deck cards must be distinct and in ascending order")

    def to_wire(self) -> list[object]:
        return [self.deck, self.epoch, list(self.cards)]

    @classmethod
    def from_wire(cls, data: object) -> DeckCreation:
        deck, epoch, cards = expect_list(data, "deck creation", 3)
        cards = expect_list(cards, "deck cards")
        if len(cards) > MAX_DECK_SIZE:
            raise MalformedWire(f"a deck holds 1..{MAX_DECK_SIZE} cards")
        return cls(
            expect_deck_name(deck),
            expect_epoch(epoch),
            tuple(expect_index(card, "card") for card in cards),
        )

    def ciphertexts(self) -> tuple[Ciphertext, ...]:
        """The canonical, unshuffled ciphertexts ``(1, m_c)``."""
        return tuple((IDENTITY, card_element(self.deck, card)) for card in self.cards)

    def codec(self) -> CardCodec:
        """The lookup table for exactly this epoch's cards."""
        return CardCodec(self.deck, self.cards)


def create_deck(deck: str, epoch: int, cards: Iterable[int]) -> DeckCreation:
    """A deck epoch holding ``cards`` (any order; stored ascending)."""
    return DeckCreation(deck, epoch, tuple(sorted(cards)))


def decrypt_with_shares(ciphertext: Ciphertext, shares: Sequence[int]) -> int:
    """``b / prod(shares)``: the plaintext element once every seat's share is in."""
    combined = 1
    for share in shares:
        combined = combined * share % P
    return canonical(ciphertext[1] * inverse(canonical(combined)) % P)


def decrypt_with_exponent(
    ciphertexts: Sequence[Ciphertext], secret_sum: int
) -> tuple[int, ...]:
    """``b / a^X`` for each ciphertext, for the joint secret ``X = sum x_j``.

    For the audit, once every seat revealed its key. One modular inversion
    for the whole list (Montgomery's trick): an inversion costs as much as
    35 products in pure Python.
    """
    masks = [exp(a, secret_sum) for a, _ in ciphertexts]
    # prefix[i] = masks[0] * ... * masks[i-1]
    prefix = [1]
    for mask in masks:
        prefix.append(prefix[-1] * mask % P)
    inverse_all = inverse(canonical(prefix[-1]))  # 1 / (masks[0] * ... * masks[n-1])
    plaintexts = [0] * len(masks)
    for i in range(len(masks) - 1, -1, -1):
        mask_inverse = inverse_all * prefix[i] % P
        plaintexts[i] = canonical(ciphertexts[i][1] * mask_inverse % P)
        inverse_all = inverse_all * masks[i] % P
    return tuple(plaintexts)
