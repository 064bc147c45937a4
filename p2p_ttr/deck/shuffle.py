"""One player's shuffle step: a secret permutation and re-randomisation.

Seat j turns the deck ``(a_k, b_k)`` into ``out[i] = (a * G^r_i, b * Y^r_i)``
with ``(a, b) = in[pi(i)]``. Both ``pi`` and every ``r_i`` come from the
seat's committed seed through an HMAC-SHA256 DRBG keyed by
``(seed; game id, seat, deck, epoch)``: ``pi`` from the "permutation" stream
(Fisher-Yates with rejection sampling), ``r_i`` at address
("rerandomise", i), uniform in ``[1, 2^256)``. The output is thus a function
of public inputs and the seed: :func:`shuffle_step` run by the auditor with
the revealed seed must reproduce the published step bit for bit.

Speed: the 2n exponentiations are by the two fixed bases ``G`` and ``Y``,
through their fixed-base tables (31 mulmods each instead of ~330 for
``pow``); the rest is 2 mulmods and one HMAC per card. The DRBG is keyed by
the step's input too (:func:`chain_input_digest`), so nothing of a step can
be made before its input is known: a seat shown two inputs for one step
makes two unrelated steps.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

from .commit import Seed
from .drbg import Drbg, fisher_yates
from .errors import DeckUsageError
from .elgamal import (
    Ciphertext,
    check_ciphertexts,
    check_inputs,
    ciphertexts_from_wire,
    ciphertexts_to_wire,
)
from .fixedbase import generator_table
from .group import EXPONENT_BITS, P, canonical, element_to_bytes
from .hashing import DOMAIN_CHAIN_INPUT, DOMAIN_SHUFFLE, encode_fields
from .keys import JointKey
from .wire import expect_deck_name, expect_epoch, expect_list, expect_seat


@dataclass(frozen=True, slots=True)
class ChainStep:
    """A seat's published output for one deck epoch: one step of the chain in
    which every seat in turn transforms the deck (see ShuffleStep, RemaskStep).

    Wire: ``[deck, epoch, seat, [[a(256 bytes), b(256 bytes)], ...]]``.
    """

    deck: str
    epoch: int
    seat: int
    ciphertexts: tuple[Ciphertext, ...]
    WHAT: ClassVar[str] = "a chain step"

    def __post_init__(self) -> None:
        expect_deck_name(self.deck)
        expect_epoch(self.epoch)
        expect_seat(self.seat)
        check_ciphertexts(self.ciphertexts, self.WHAT)

    def to_wire(self) -> list[object]:
        return [self.deck, self.epoch, self.seat, ciphertexts_to_wire(self.ciphertexts)]

    @classmethod
    def from_wire(cls, data: object) -> Self:
        deck, epoch, seat, pairs = expect_list(data, cls.WHAT, 4)
        return cls(
            expect_deck_name(deck),
            expect_epoch(epoch),
            expect_seat(seat),
            ciphertexts_from_wire(pairs, cls.WHAT),
        )

    def __repr__(self) -> str:  # 220 elements of 617 digits help nobody
        return (
            f"{type(self).__name__}(deck={self.deck!r}, epoch={self.epoch}, seat={self.seat}, "
            f"ciphertexts=<{len(self.ciphertexts)} pairs>)"
        )


@dataclass(frozen=True, slots=True, repr=False)
class ShuffleStep(ChainStep):
    """A seat's shuffle of a deck epoch: permuted and re-randomised."""

    WHAT: ClassVar[str] = "a shuffle step"


def chain_input_digest(inputs: Sequence[Ciphertext]) -> bytes:
    """``SHA256("chain-input"; E(a_0) E(b_0) E(a_1) …)``: what a shuffle step is
    made from. A step's permutation and re-randomisers are drawn from the
    seed *and its input*: a seat shown two inputs for one step (two logs)
    would make two unrelated steps, never the same permutation and masks on
    both (which, compared, would show how it permuted)."""
    flat = b"".join(element_to_bytes(a) + element_to_bytes(b) for a, b in inputs)
    return hashlib.sha256(encode_fields(DOMAIN_CHAIN_INPUT, flat)).digest()


def _shuffle_drbg(game_id: bytes, seed: Seed, seat: int, deck: str, epoch: int, digest: bytes) -> Drbg:
    return Drbg(seed.value, DOMAIN_SHUFFLE, game_id, seat, deck, epoch, digest)


def shuffle_permutation(
    game_id: bytes, seed: Seed, seat: int, deck: str, epoch: int, inputs: Sequence[Ciphertext]
) -> tuple[int, ...]:
    """The permutation seat's step applies to ``inputs``: ``out[i]`` comes from ``in[result[i]]``."""
    drbg = _shuffle_drbg(game_id, seed, seat, deck, epoch, chain_input_digest(inputs))
    return fisher_yates(len(inputs), drbg.stream("permutation"))


def shuffle_witness(
    game_id: bytes, seed: Seed, seat: int, deck: str, epoch: int, inputs: Sequence[Ciphertext]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What the seat's step did to ``inputs``, for its proof of shuffle: the
    permutation and the re-randomiser ``r_i`` of each output position ``i``."""
    drbg = _shuffle_drbg(game_id, seed, seat, deck, epoch, chain_input_digest(inputs))
    permutation = fisher_yates(len(inputs), drbg.stream("permutation"))
    return permutation, tuple(drbg.nonzero_integer("rerandomise", i, EXPONENT_BITS) for i in range(len(inputs)))


def rerandomised(
    joint: JointKey, drbg: Drbg, purpose: str, inputs: Sequence[Ciphertext]
) -> tuple[Ciphertext, ...]:
    """``(a * G^r_i, b * Y^r_i)`` for each ``inputs[i]``, ``r_i`` at DRBG address (purpose, i)."""
    g_pow_raw = generator_table().raw_pow
    y_pow_raw = joint.table().raw_pow
    rerandomiser = drbg.nonzero_integer
    out = []
    for i, (a, b) in enumerate(inputs):
        r = rerandomiser(purpose, i, EXPONENT_BITS)
        out.append((canonical(a * g_pow_raw(r) % P), canonical(b * y_pow_raw(r) % P)))
    return tuple(out)


def shuffle_step(
    joint: JointKey,
    seed: Seed,
    seat: int,
    deck: str,
    epoch: int,
    inputs: Sequence[Ciphertext],
) -> ShuffleStep:
    """Seat's step on ``inputs`` (the previous step's output, or the canonical deck)."""
    check_inputs(inputs)
    digest = chain_input_digest(inputs)
    drbg = _shuffle_drbg(joint.game_id, seed, seat, deck, epoch, digest)
    permutation = fisher_yates(len(inputs), drbg.stream("permutation"))
    permuted = [inputs[source] for source in permutation]
    return ShuffleStep(deck, epoch, seat, rerandomised(joint, drbg, "rerandomise", permuted))
