"""The DRBG (determinism, separation, no bias) and the card encoding."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_ttr.deck import CardCodec, DeckUsageError, P, Q, Seed, NotACard, card_element
from p2p_ttr.deck.backend import jacobi_python
from p2p_ttr.deck.drbg import BitStream, Drbg, fisher_yates
from p2p_ttr.deck.hashing import DOMAIN_SHUFFLE, encode_fields
from p2p_ttr.deck.shuffle import shuffle_permutation

SEED = Seed(bytes(range(32)))


def test_drbg_is_deterministic_and_addressable() -> None:
    one = Drbg(b"k" * 32, DOMAIN_SHUFFLE, b"game", 0, "train", 0)
    two = Drbg(b"k" * 32, DOMAIN_SHUFFLE, b"game", 0, "train", 0)
    assert one.integer("rerandomise", 17, 256) == two.integer("rerandomise", 17, 256)
    assert one.integer("rerandomise", 17, 256) != one.integer("rerandomise", 18, 256)
    assert 0 < one.nonzero_integer("x", 0, 256) < 2**256
    assert one.integer("nonce", 0, 512) < 2**512


@pytest.mark.parametrize(
    "other",
    [
        (b"game2", 0, "train", 0),  # another game
        (b"game", 1, "train", 0),  # another seat
        (b"game", 0, "tickets", 0),  # another deck
        (b"game", 0, "train", 1),  # another epoch
    ],
)
def test_drbg_contexts_are_separated(other: tuple[bytes, int, str, int]) -> None:
    base = Drbg(b"k" * 32, DOMAIN_SHUFFLE, b"game", 0, "train", 0)
    assert Drbg(b"k" * 32, DOMAIN_SHUFFLE, *other).block("p", 0) != base.block("p", 0)


def test_field_encoding_is_injective_on_tricky_inputs() -> None:
    assert encode_fields(b"ab", b"c") != encode_fields(b"a", b"bc")
    assert encode_fields(1) != encode_fields(b"\x01") != encode_fields("\x01")
    assert encode_fields(0) != encode_fields()
    with pytest.raises(TypeError):
        encode_fields(True)
    with pytest.raises(TypeError):
        encode_fields(-1)


@settings(max_examples=30, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(1, 200))
def test_permutations_are_permutations(seed: bytes, n: int) -> None:
    inputs = tuple((1, 4 + 2 * i) for i in range(n))  # any ciphertexts: only their digest matters here
    permutation = shuffle_permutation(b"game", Seed(seed), 0, "train", 0, inputs)
    assert sorted(permutation) == list(range(n))


def test_bounded_integers_are_in_range_and_unbiased() -> None:
    stream = Drbg(b"s" * 32, b"test").stream("below")
    counts = Counter(stream.below(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    # chi-square with 5 degrees of freedom; 20.5 is the 0.1% critical value
    chi2 = sum((count - 1000) ** 2 / 1000 for count in counts.values())
    assert chi2 < 20.5
    with pytest.raises(ValueError):
        stream.below(0)


def test_fisher_yates_hits_every_permutation_evenly() -> None:
    counts = Counter(fisher_yates(3, Drbg(bytes([i % 256, i // 256]) * 16, b"t").stream("p"))
                     for i in range(3000))
    assert len(counts) == 6
    chi2 = sum((count - 500) ** 2 / 500 for count in counts.values())
    assert chi2 < 20.5


def test_bitstream_uses_bits_in_order() -> None:
    drbg = Drbg(b"s" * 32, b"test")
    stream = BitStream(drbg, "p")
    block = int.from_bytes(drbg.block("p", 0), "big")
    assert stream.bits(8) == block & 0xFF
    assert stream.bits(4) == (block >> 8) & 0xF


def test_card_elements_are_hashed_residues_not_small_integers() -> None:
    elements = [card_element("train", c) for c in range(110)]
    assert len(set(elements)) == 110
    for m in elements:
        assert 2**1024 < m <= Q  # canonical and not small
        assert jacobi_python(m, P) == 1 or jacobi_python(P - m, P) == 1
    assert card_element("tickets", 3) != card_element("train", 3)


def test_codec_looks_cards_up_and_refuses_others() -> None:
    codec = CardCodec("train", [3, 5, 8])
    assert codec.card(card_element("train", 5)) == 5
    assert codec.element(8) == card_element("train", 8)
    with pytest.raises(NotACard, match="not a card of deck 'train'"):
        codec.card(card_element("train", 4))
    with pytest.raises(DeckUsageError):
        codec.element(4)
    with pytest.raises(DeckUsageError, match="twice"):
        CardCodec("train", [1, 1])
