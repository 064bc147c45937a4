"""Proof of re-masking: each output is its own input, re-encrypted, in order.

A re-mask step (returned tickets going under the pile) keeps the order, so
it proves more than a shuffle does: ``e~_i = (a_i * G^r_i, b_i * Y^r_i)``
for every ``i``, the same ``i`` on both sides. Without it a seat could swap
in copies of other ciphertexts (a rival's cards, to be dealt to itself) or
fresh encryptions of tickets it chose.

**The proof** is one Chaum-Pedersen proof for a random combination of the
N re-encryption factors (a batched proof of re-encryption): with 128-bit
``u_i`` hashed from the statement (:func:`~.shuffleproof.statement_digest`,
which covers the group, the key, the context, input and output),
``A = prod (a~_i / a_i)^u_i = G^R`` and ``B = prod (b~_i / b_i)^u_i = Y^R``
with ``R = sum r_i u_i``. If any factor is not of the form ``(G^r, Y^r)``,
the combination is not either, except with probability ~2^-128 over the
``u_i``. Proof ``(ta, tb, s)``: ``ta = G^w``, ``tb = Y^w``, ``c`` hashed from
the statement, ``ta`` and ``tb``, ``s = w + c R`` over the integers (``w``
128 bits longer than ``c R``). The checker tests, weighted and batched,
``G^s prod a_i^(c u_i) = ta prod a~_i^(c u_i)`` and the same with ``Y``, ``b``.

Cost: a few products per card; a re-mask holds 1..3 tickets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .commit import Seed
from .drbg import RandomSource
from .elgamal import Ciphertext, check_inputs
from .errors import DeckUsageError, InvalidChainProof, MalformedWire
from .fixedbase import g_pow, product_is_one
from .group import CHALLENGE_BITS, EXPONENT_BITS, STATISTICAL_BITS, G, check_element, element_to_bytes, exp
from .hashing import DOMAIN_REMASK_PROOF, challenge, challenge_vector
from .keys import JointKey
from .remask import remask_witness
from .shuffle import ChainStep
from .shuffleproof import batch_weights, proof_randomness, statement_digest
from .wire import (
    MAX_DECK_SIZE,
    expect_deck_name,
    expect_element,
    expect_epoch,
    expect_list,
    expect_seat,
    expect_uint_bytes,
)

_R_BITS: Final = EXPONENT_BITS + CHALLENGE_BITS + (MAX_DECK_SIZE - 1).bit_length()
_NONCE_BITS: Final = _R_BITS + CHALLENGE_BITS + STATISTICAL_BITS
S_BYTES: Final = (_NONCE_BITS + 1 + 7) // 8  # 82


@dataclass(frozen=True, slots=True)
class RemaskProof:
    """A seat's proof that its re-mask step of ``deck`` epoch ``epoch``
    re-encrypts each input in place. Wire: ``[deck, epoch, seat, ta, tb, s(82)]``."""

    deck: str
    epoch: int
    seat: int
    ta: int
    tb: int
    s: int

    def __post_init__(self) -> None:
        expect_deck_name(self.deck)
        expect_epoch(self.epoch)
        expect_seat(self.seat)
        check_element(self.ta, "remask proof ta")
        check_element(self.tb, "remask proof tb")
        if type(self.s) is not int or not 0 <= self.s < 2 ** (8 * S_BYTES):
            raise MalformedWire("remask proof response out of range")

    def to_wire(self) -> list[object]:
        return [
            self.deck,
            self.epoch,
            self.seat,
            element_to_bytes(self.ta),
            element_to_bytes(self.tb),
            self.s.to_bytes(S_BYTES, "big"),
        ]

    @classmethod
    def from_wire(cls, data: object) -> RemaskProof:
        deck, epoch, seat, ta, tb, s = expect_list(data, "remask proof", 6)
        return cls(
            expect_deck_name(deck),
            expect_epoch(epoch),
            expect_seat(seat),
            expect_element(ta, "remask proof ta"),
            expect_element(tb, "remask proof tb"),
            expect_uint_bytes(s, "remask proof s", S_BYTES),
        )


def _u_vector(statement: bytes, n: int) -> tuple[int, ...]:
    return challenge_vector(DOMAIN_REMASK_PROOF, n, "u", statement)


def _challenge(statement: bytes, ta: int, tb: int) -> int:
    return challenge(DOMAIN_REMASK_PROOF, "c", statement, element_to_bytes(ta), element_to_bytes(tb))


def prove_remask(joint: JointKey, seed: Seed, step: ChainStep, inputs: Sequence[Ciphertext]) -> RemaskProof:
    """The proof for ``step``, which this seat made with ``seed`` from
    ``inputs`` (:func:`~.remask.remask_step`); deterministic, like the step."""
    check_inputs(inputs)
    n = len(inputs)
    if len(step.ciphertexts) != n:
        raise DeckUsageError("a step has one output per input")
    rerandomisers = remask_witness(joint.game_id, seed, step.seat, step.deck, step.epoch, n)
    statement = statement_digest(joint, "remask", step, inputs)
    w = proof_randomness(seed, "remask", statement).integer("w", 0, _NONCE_BITS)
    ta, tb = g_pow(w), exp(joint.element, w)
    c = _challenge(statement, ta, tb)
    u = _u_vector(statement, n)
    return RemaskProof(step.deck, step.epoch, step.seat, ta, tb, w + c * sum(r * ui for r, ui in zip(rerandomisers, u)))


def verify_remask(
    joint: JointKey,
    step: ChainStep,
    inputs: Sequence[Ciphertext],
    proof: RemaskProof,
    source: RandomSource | None = None,
) -> None:
    """Check ``proof`` for ``step`` on ``inputs``; raise
    :class:`InvalidChainProof` naming the step's seat if it fails."""
    seat = step.seat
    if (proof.deck, proof.epoch, proof.seat) != (step.deck, step.epoch, step.seat):
        raise InvalidChainProof(
            f"seat {seat}: the proof is for {proof.deck} epoch {proof.epoch} seat {proof.seat}", seat=seat
        )
    if len(step.ciphertexts) != len(inputs):
        raise InvalidChainProof(f"seat {seat}: the step has {len(step.ciphertexts)} cards, its input {len(inputs)}", seat=seat)
    statement = statement_digest(joint, "remask", step, inputs)
    u = _u_vector(statement, len(inputs))
    c = _challenge(statement, proof.ta, proof.tb)
    _, weight = batch_weights(source, 2)
    terms: dict[int, int] = {}
    for base, exponent in (
        (G, proof.s),
        (proof.ta, -1),
        (joint.element, weight * proof.s),
        (proof.tb, -weight),
    ):
        terms[base] = terms.get(base, 0) + exponent
    for ((a, b), (a2, b2), ui) in zip(inputs, step.ciphertexts, u):
        for base, exponent in ((a, c * ui), (a2, -c * ui), (b, weight * c * ui), (b2, -weight * c * ui)):
            terms[base] = terms.get(base, 0) + exponent
    if not product_is_one(terms):
        raise InvalidChainProof(
            f"seat {seat}: the proof of its re-mask of {step.deck} epoch {step.epoch} is false", seat=seat
        )
