"""Masks made in advance give exactly the step made without them."""

from __future__ import annotations

import pytest

from p2p_ttr.deck import DeckCreation, JointKey, SecretKey, Seed, shuffle_masks, shuffle_step
from p2p_ttr.deck.errors import DeckUsageError

GAME = b"g" * 16


def test_masks_made_in_advance_reproduce_the_step_exactly() -> None:
    keys = [SecretKey.generate(GAME, s) for s in range(3)]
    joint = JointKey(GAME, tuple(k.public_key for k in keys))
    seed = Seed.generate()
    inputs = DeckCreation("tickets", 1, tuple(range(40))).ciphertexts()
    masks = shuffle_masks(joint, seed, 1, "tickets", 1, 40)
    assert shuffle_step(joint, seed, 1, "tickets", 1, inputs, masks) == shuffle_step(joint, seed, 1, "tickets", 1, inputs)
    assert "redacted" in repr(masks) and str(masks.pairs[0][0]) not in repr(masks)
    with pytest.raises(DeckUsageError):
        shuffle_step(joint, seed, 2, "tickets", 1, inputs, masks)  # another seat's step
    with pytest.raises(DeckUsageError):
        shuffle_step(joint, seed, 1, "tickets", 2, inputs, masks)  # another epoch
