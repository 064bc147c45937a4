"""A shuffle step is drawn from its seed and its input."""

from __future__ import annotations

from p2p_ttr.deck import DeckCreation, JointKey, SecretKey, Seed, shuffle_step
from p2p_ttr.deck.group import P

GAME = b"g" * 16


def test_two_inputs_for_one_step_give_unrelated_steps() -> None:
    """A seat shown two inputs for the same step (two logs) must not use the
    same permutation and re-randomisers on both: compared, the two outputs
    would show how it permuted. Its step is drawn from its input too."""
    from p2p_ttr.deck import shuffle_permutation

    keys = [SecretKey.generate(GAME, s) for s in range(3)]
    joint = JointKey(GAME, tuple(k.public_key for k in keys))
    seed = Seed.generate()
    first = DeckCreation("train", 3, tuple(range(30))).ciphertexts()
    second = DeckCreation("train", 3, tuple(range(1, 31))).ciphertexts()
    a, b = shuffle_step(joint, seed, 0, "train", 3, first), shuffle_step(joint, seed, 0, "train", 3, second)
    assert shuffle_permutation(GAME, seed, 0, "train", 3, first) != shuffle_permutation(GAME, seed, 0, "train", 3, second)
    ratios = {((x[0] * pow(y[0], -1, P)) % P) for x, y in zip(a.ciphertexts, b.ciphertexts)}
    assert len(ratios) == len(first)  # no shared re-randomiser links an output of one to the other
