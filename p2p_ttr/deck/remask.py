"""Re-masking: re-encrypting cards in place, keeping their order.

When a player returns destination tickets under the deck, the tickets must
not keep their old ciphertexts: the returner's decryption share of each would
have to be published for the next drawer, and together with the shares
already published when the returner drew them, anyone could open them. So
the returned cards start a new deck epoch (:class:`RemaskCreation`, which
lists the references of the returned cards in the order the returner chose)
and each seat in turn re-randomises the ciphertexts,
``(a, b) -> (a * G^r, b * Y^r)``, without permuting them (the returner knows
their order, as at the table). Every ``r`` comes from the seat's committed
seed, at DRBG address (game id, seat, deck, epoch; "remask", i), so the audit
reproduces each step from the revealed seed, as for shuffles, and checks that
the epoch decrypts to the returned cards in the same order.

A mixed epoch (:class:`MixCreation`) starts the same way, from earlier
cards' ciphertexts, but its chain is made of shuffle steps: the set-up's
returned tickets shuffled together, so that nobody knows where they lie.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

from .commit import Seed
from .deckorder import EpochPosition
from .drbg import Drbg
from .elgamal import (
    Ciphertext,
    check_inputs,
)
from .errors import MalformedWire
from .group import EXPONENT_BITS
from .hashing import DOMAIN_REMASK
from .keys import JointKey
from .shuffle import ChainStep, rerandomised
from .wire import MAX_DECK_SIZE, expect_deck_name, expect_epoch, expect_list


@dataclass(frozen=True, slots=True)
class RemaskCreation:
    """The start of a re-masked epoch: the earlier cards it holds, in order.

    ``refs[i]`` is the card whose current ciphertext is position ``i``'s
    input. Wire: ``[deck, epoch, [[deck, epoch, position], ...]]``.
    """

    deck: str
    epoch: int
    refs: tuple[EpochPosition, ...]

    def __post_init__(self) -> None:
        expect_deck_name(self.deck)
        expect_epoch(self.epoch)
        if type(self.refs) is not tuple or not 1 <= len(self.refs) <= MAX_DECK_SIZE:
            raise MalformedWire(f"a re-masked epoch holds 1..{MAX_DECK_SIZE} cards")
        if any(type(ref) is not EpochPosition for ref in self.refs):
            raise MalformedWire("a re-masked epoch lists EpochPositions")
        if len(set(self.refs)) != len(self.refs):
            raise MalformedWire("a re-masked epoch lists a card twice")

    def to_wire(self) -> list[object]:
        return [self.deck, self.epoch, [ref.to_wire() for ref in self.refs]]

    @classmethod
    def from_wire(cls, data: object) -> Self:
        deck, epoch, refs = expect_list(data, "remask creation", 3)
        refs = expect_list(refs, "remasked cards")
        if len(refs) > MAX_DECK_SIZE:
            raise MalformedWire(f"a re-masked epoch holds 1..{MAX_DECK_SIZE} cards")
        return cls(
            expect_deck_name(deck),
            expect_epoch(epoch),
            tuple(EpochPosition.from_wire(ref) for ref in refs),
        )


@dataclass(frozen=True, slots=True)
class MixCreation(RemaskCreation):
    """The start of a mixed epoch: earlier cards shuffled together (returned
    tickets, with what is left of their deck). Its inputs are those cards'
    current ciphertexts, as a re-masked epoch's; its steps are shuffle steps
    (permuted and re-randomised, :func:`.shuffle.shuffle_step`), so its
    final list holds the same cards in an order nobody knows. Same wire."""


@dataclass(frozen=True, slots=True, repr=False)
class RemaskStep(ChainStep):
    """A seat's re-masked copies of an epoch's ciphertexts, in the same order."""

    WHAT: ClassVar[str] = "a remask step"


def remask_step(
    joint: JointKey, seed: Seed, seat: int, deck: str, epoch: int, inputs: Sequence[Ciphertext]
) -> RemaskStep:
    """Seat's re-masking of ``inputs`` (the previous seat's output, or the
    returned cards' current ciphertexts) as ``deck`` epoch ``epoch``."""
    check_inputs(inputs)
    return RemaskStep(deck, epoch, seat, rerandomised(joint, _remask_drbg(joint.game_id, seed, seat, deck, epoch), "remask", inputs))


def _remask_drbg(game_id: bytes, seed: Seed, seat: int, deck: str, epoch: int) -> Drbg:
    return Drbg(seed.value, DOMAIN_REMASK, game_id, seat, deck, epoch)


def remask_witness(game_id: bytes, seed: Seed, seat: int, deck: str, epoch: int, size: int) -> tuple[int, ...]:
    """The re-randomiser ``r_i`` of each position of the seat's re-mask step, for its proof."""
    drbg = _remask_drbg(game_id, seed, seat, deck, epoch)
    return tuple(drbg.nonzero_integer("remask", i, EXPONENT_BITS) for i in range(size))
