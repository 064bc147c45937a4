"""Proofs of shuffle and of re-masking: complete, sound against every
forgery a cheating seat can try, bound to their exact step, strict on the
wire, and identical across backends (the test vectors: test_vectors.py)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import Game
from p2p_ttr.deck import (
    Ciphertext,
    DeckCreation,
    JointKey,
    RemaskStep,
    SecretKey,
    Seed,
    ShuffleStep,
    create_deck,
    remask_step,
    set_backend,
    shuffle_step,
)
from p2p_ttr.deck.errors import InvalidChainProof, InvalidInput
from p2p_ttr.deck.fixedbase import g_pow
from p2p_ttr.deck.group import P, Q, canonical, exp
from p2p_ttr.deck.remaskproof import RemaskProof, prove_remask, verify_remask
from p2p_ttr.deck.shuffleproof import ShuffleProof, generator, prove_shuffle, verify_shuffle

def honest(game: Game, deck: DeckCreation, seat: int) -> tuple[tuple[Ciphertext, ...], ShuffleStep]:
    inputs = deck.ciphertexts() if seat == 0 else game.chain(deck)[seat - 1].ciphertexts
    return inputs, game.chain(deck)[seat]


def test_an_honest_step_proves_at_every_position_and_the_proof_is_deterministic(game_of: Callable[..., Game]) -> None:
    game, deck = game_of(3), create_deck("train", 0, range(8))
    for seat in range(3):
        inputs, step = honest(game, deck, seat)
        proof = prove_shuffle(game.joint, game.seeds[seat], step, inputs)
        verify_shuffle(game.joint, step, inputs, proof)
        assert prove_shuffle(game.joint, game.seeds[seat], step, inputs) == proof  # a re-sent proof is the same


def test_fresh_encryptions_of_a_chosen_order_cannot_be_proven(game_of: Callable[..., Game]) -> None:
    """The last shuffler stacks the deck: it ignores its input and encrypts the
    card list in an order it picks, with randomness it knows."""
    game, deck = game_of(2), create_deck("train", 0, range(8))
    inputs, step = honest(game, deck, 1)
    y = game.joint.element
    chosen = [7, 6, 5, 4, 3, 2, 1, 0]
    fresh = tuple(
        (g_pow(1000 + i), canonical(deck.ciphertexts()[card][1] * exp(y, 1000 + i) % P)) for i, card in enumerate(chosen)
    )
    stacked = ShuffleStep("train", 0, 1, fresh)
    # Whatever proof it sends: one made for its honest step, or one "made" for the stacked output.
    for proof in (
        prove_shuffle(game.joint, game.seeds[1], step, inputs),
        prove_shuffle(game.joint, game.seeds[1], stacked, inputs),
    ):
        with pytest.raises(InvalidChainProof) as caught:
            verify_shuffle(game.joint, stacked, inputs, proof)
        assert caught.value.seat == 1


def test_aliasing_another_positions_ciphertext_cannot_be_proven(game_of: Callable[..., Game]) -> None:
    """A copy of position 0's ciphertext, re-randomised, put at position 1: a decryption oracle."""
    game, deck = game_of(2), create_deck("train", 0, range(8))
    inputs, step = honest(game, deck, 1)
    a, b = step.ciphertexts[0]
    y = game.joint.element
    alias = (canonical(a * g_pow(77) % P), canonical(b * exp(y, 77) % P))
    aliased = ShuffleStep("train", 0, 1, (step.ciphertexts[0], alias, *step.ciphertexts[2:]))
    with pytest.raises(InvalidChainProof):
        verify_shuffle(game.joint, aliased, inputs, prove_shuffle(game.joint, game.seeds[1], aliased, inputs))


def test_a_proof_is_valid_for_its_own_step_only(game_of: Callable[..., Game]) -> None:
    """Replayed at another seat, epoch, deck, game or key, or for another permutation: refused."""
    game, deck = game_of(3), create_deck("train", 0, range(8))
    inputs, step = honest(game, deck, 1)
    proof = prove_shuffle(game.joint, game.seeds[1], step, inputs)
    other_epoch = create_deck("train", 1, range(8))
    e_inputs, e_step = honest(game, other_epoch, 1)
    with pytest.raises(InvalidChainProof):  # another epoch's step, the proof relabelled
        verify_shuffle(game.joint, e_step, e_inputs, dataclasses.replace(proof, epoch=1))
    with pytest.raises(InvalidChainProof):  # the same bytes, claimed for another epoch
        verify_shuffle(game.joint, dataclasses.replace(step, epoch=1), inputs, dataclasses.replace(proof, epoch=1))
    with pytest.raises(InvalidChainProof):  # another deck
        verify_shuffle(game.joint, dataclasses.replace(step, deck="tickets"), inputs,
                       dataclasses.replace(proof, deck="tickets"))
    with pytest.raises(InvalidChainProof):  # another seat
        verify_shuffle(game.joint, dataclasses.replace(step, seat=2), inputs, dataclasses.replace(proof, seat=2))
    other_game = JointKey(b"another-game", game.joint.public_keys)
    with pytest.raises(InvalidChainProof):  # another game
        verify_shuffle(other_game, step, inputs, proof)
    # Another permutation: a step made with another seed, proven with our proof.
    other = shuffle_step(game.joint, Seed(b"\x09" * 32), 1, "train", 0, inputs)
    with pytest.raises(InvalidChainProof):
        verify_shuffle(game.joint, other, inputs, proof)


def test_every_part_of_a_proof_is_checked(game_of: Callable[..., Game]) -> None:
    game, deck = game_of(2), create_deck("train", 0, range(5))
    inputs, step = honest(game, deck, 0)
    proof = prove_shuffle(game.joint, game.seeds[0], step, inputs)
    bumped = lambda v: v % Q + 1 if v % Q + 1 > 1 else 2  # noqa: E731 - another group element
    variants = [
        dataclasses.replace(proof, commitments=(bumped(proof.commitments[0]), *proof.commitments[1:])),
        dataclasses.replace(proof, chain=(*proof.chain[:-1], bumped(proof.chain[-1]))),
        dataclasses.replace(proof, t=(*proof.t[:4], bumped(proof.t[4]))),
        dataclasses.replace(proof, t_hat=(bumped(proof.t_hat[0]), *proof.t_hat[1:])),
        dataclasses.replace(proof, s=(proof.s[0] + 1, *proof.s[1:])),
        dataclasses.replace(proof, s=(proof.s[0], (proof.s[1] + 1) % Q, *proof.s[2:])),
        dataclasses.replace(proof, s=(*proof.s[:3], proof.s[3] + 1)),
        dataclasses.replace(proof, s_hat=(*proof.s_hat[:-1], proof.s_hat[-1] + 1)),
        dataclasses.replace(proof, s_prime=(proof.s_prime[0] + 1, *proof.s_prime[1:])),
    ]
    for variant in variants:
        with pytest.raises(InvalidChainProof):
            verify_shuffle(game.joint, step, inputs, variant)


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_the_wire_form_round_trips_and_refuses_anything_else(data: st.DataObject) -> None:
    game = _cached_game()
    deck = create_deck("long", 0, range(3))
    inputs, step = honest(game, deck, 0)
    proof = prove_shuffle(game.joint, game.seeds[0], step, inputs)
    wire = proof.to_wire()
    assert ShuffleProof.from_wire(msgpack.unpackb(msgpack.packb(wire))) == proof
    # Any one field replaced by something else is refused with InvalidInput, never another error.
    index = data.draw(st.integers(0, len(wire) - 1))
    junk = data.draw(st.one_of(st.integers(-5, 2**70), st.binary(max_size=300), st.text(max_size=5),
                               st.lists(st.binary(min_size=256, max_size=256), max_size=4)))
    mutated = list(wire)
    mutated[index] = junk
    try:
        decoded = ShuffleProof.from_wire(mutated)
    except InvalidInput:
        return
    assert decoded != proof or mutated == wire


_game_cache: list[Game] = []


def _cached_game() -> Game:
    from conftest import build_game

    if not _game_cache:
        _game_cache.append(build_game(2, b"wire-game"))
    return _game_cache[0]


def test_a_remask_keeps_its_order_and_proves_it(game_of: Callable[..., Game]) -> None:
    game = game_of(3)
    inputs = game.final(create_deck("tickets", 0, range(6)))[:3]
    for seat in range(3):
        step = remask_step(game.joint, game.seeds[seat], seat, "tickets", 1, inputs)
        proof = prove_remask(game.joint, game.seeds[seat], step, inputs)
        verify_remask(game.joint, step, inputs, proof)
        assert RemaskProof.from_wire(msgpack.unpackb(msgpack.packb(proof.to_wire()))) == proof
        inputs = step.ciphertexts


def test_a_remask_that_swaps_aliases_or_replaces_is_refused(game_of: Callable[..., Game]) -> None:
    game = game_of(3)
    inputs = game.final(create_deck("tickets", 0, range(6)))[:3]
    step = remask_step(game.joint, game.seeds[1], 1, "tickets", 1, inputs)
    y = game.joint.element
    a, b = step.ciphertexts[0]
    victim = game.final(create_deck("tickets", 0, range(6)))[5]  # another player's ticket
    forged = [
        (step.ciphertexts[1], step.ciphertexts[0], step.ciphertexts[2]),  # swapped
        (step.ciphertexts[0], (canonical(a * g_pow(5) % P), canonical(b * exp(y, 5) % P)), step.ciphertexts[2]),
        (step.ciphertexts[0], step.ciphertexts[1], (canonical(victim[0] * g_pow(5) % P),
                                                    canonical(victim[1] * exp(y, 5) % P))),
    ]
    for cts in forged:
        bad = RemaskStep("tickets", 1, 1, cts)
        for proof in (prove_remask(game.joint, game.seeds[1], step, inputs),
                      prove_remask(game.joint, game.seeds[1], bad, inputs)):
            with pytest.raises(InvalidChainProof) as caught:
                verify_remask(game.joint, bad, inputs, proof)
            assert caught.value.seat == 1
    with pytest.raises(InvalidChainProof):  # replayed for another epoch
        verify_remask(game.joint, dataclasses.replace(step, epoch=2), inputs,
                      dataclasses.replace(prove_remask(game.joint, game.seeds[1], step, inputs), epoch=2))


def test_the_generators_are_distinct_group_elements() -> None:
    hs = [generator(i) for i in range(40)]
    assert len(set(hs)) == 40 and all(1 < h <= Q for h in hs)


def test_both_backends_make_the_same_proof_and_accept_each_others(game_of: Callable[..., Game]) -> None:
    game, deck = game_of(2), create_deck("long", 0, range(6))
    inputs, step = honest(game, deck, 1)
    try:
        set_backend("python")
        pure = prove_shuffle(game.joint, game.seeds[1], step, inputs)
        set_backend(None)
        fast = prove_shuffle(game.joint, game.seeds[1], step, inputs)
        verify_shuffle(game.joint, step, inputs, pure)
        set_backend("python")
        verify_shuffle(game.joint, step, inputs, fast)
    finally:
        set_backend(None)
    assert pure == fast
