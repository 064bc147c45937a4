"""Both arithmetic backends, fixed-base tables and multi-exponentiation agree."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_ttr.deck import BackendUnavailable, G, P, create_deck, gmpy2_available, shuffle_step
from p2p_ttr.deck.backend import current_backend, get_backend, set_backend
from p2p_ttr.deck.fixedbase import (
    PIPPENGER_MIN_TERMS,
    FixedBaseTable,
    generator_table,
    multi_exp,
    powers_of_one_base,
    product_is_one,
)
from p2p_ttr.deck.group import Q, canonical

needs_gmpy2 = pytest.mark.skipif(
    not gmpy2_available(), reason="gmpy2 is not importable (install the 'fast' extra)"
)
elements = st.integers(min_value=2, max_value=P - 2)


@pytest.fixture
def restore_backend() -> Iterator[None]:
    name = current_backend().name
    yield
    set_backend(name)


@settings(max_examples=8, deadline=None)
@given(elements, st.integers(0, 2**600))
def test_fixed_base_table_matches_pow(base: int, exponent: int) -> None:
    table = FixedBaseTable(base, bits=16, window=4)  # grows on demand
    assert table.pow(exponent) == canonical(pow(base, exponent, P))
    assert table.rows >= -(-exponent.bit_length() // 4)
    assert generator_table().pow(exponent) == canonical(pow(G, exponent, P))


@settings(max_examples=8, deadline=None)
@given(st.lists(st.tuples(elements, st.integers(0, 2**580)), max_size=6))
def test_multi_exp_matches_pow(terms: list[tuple[int, int]]) -> None:
    expected = 1
    for base, exponent in terms:
        expected = expected * pow(base, exponent, P) % P
    assert multi_exp(terms) == canonical(expected)


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(PIPPENGER_MIN_TERMS, PIPPENGER_MIN_TERMS + 40))
def test_multi_exp_with_many_bases_uses_buckets_and_matches_pow(seed: int, n: int) -> None:
    rng = random.Random(seed)
    # Mixed lengths, as in a proof's batch check: short weights, long responses, zeros.
    terms = [(canonical(rng.randrange(2, P) ** 2 % P), rng.choice([0, rng.getrandbits(64), rng.getrandbits(460)]))
             for _ in range(n)]
    expected = 1
    for base, exponent in terms:
        expected = expected * pow(base, exponent, P) % P
    assert multi_exp(terms) == canonical(expected)


def test_product_is_one_takes_signed_and_long_exponents() -> None:
    a, b = 5 ** 2 % P, 7 ** 2 % P
    long = 2**900 + 3
    assert product_is_one({a: long, b: -5, canonical(pow(b, 5, P) * pow(a, Q - long % Q, P) % P): 1})
    assert not product_is_one({a: long, b: -5})


@settings(max_examples=8, deadline=None)
@given(elements, st.lists(st.integers(0, 2**520), max_size=3), st.integers(1, 6))
def test_powers_of_one_base_matches_pow(base: int, exponents: list[int], k: int) -> None:
    got = powers_of_one_base(base, exponents, digit_bits=k)
    assert got == [canonical(pow(base, e, P)) for e in exponents]


@needs_gmpy2
@settings(max_examples=8, deadline=None)
@given(elements, st.integers(0, 2**600))
def test_backends_agree_on_primitives(x: int, e: int) -> None:
    python, gmp = get_backend("python"), get_backend("gmpy2")
    assert python.powmod(x, e, P) == gmp.powmod(x, e, P)
    assert python.jacobi(x, P) == gmp.jacobi(x, P)
    assert python.invert(x, P) == gmp.invert(x, P)
    for result in (gmp.powmod(x, e, P), gmp.jacobi(x, P), gmp.invert(x, P)):
        assert type(result) is int


@needs_gmpy2
def test_backends_agree_on_tables_and_a_whole_shuffle(restore_backend: None, game_of) -> None:
    game = game_of(2)
    creation = create_deck("train", 0, range(5))
    outputs = {}
    for name in ("python", "gmpy2"):
        set_backend(name)
        table = FixedBaseTable(G, bits=256)
        terms = [(G, 2**300 + 5), (game.joint.element, 2**190 + 7)]
        step = shuffle_step(game.joint, game.seeds[0], 0, "train", 0, creation.ciphertexts())
        outputs[name] = (table.pow(2**255 + 99), multi_exp(terms), step.ciphertexts)
        assert all(type(v) is int for pair in step.ciphertexts for v in pair)
    assert outputs["python"] == outputs["gmpy2"]


def _backend_in_subprocess(value: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, P2P_TTR_POWMOD=value)
    code = "from p2p_ttr.deck import current_backend; print(current_backend().name)"
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )


def test_environment_selects_the_pure_backend() -> None:
    result = _backend_in_subprocess("python")
    assert result.returncode == 0 and result.stdout.strip() == "python"


def test_unknown_backend_is_refused() -> None:
    result = _backend_in_subprocess("turbo")
    assert result.returncode != 0 and "unknown powmod backend 'turbo'" in result.stderr
    with pytest.raises(BackendUnavailable, match="unknown powmod backend"):
        get_backend("turbo")


@needs_gmpy2
def test_environment_selects_gmpy2() -> None:
    result = _backend_in_subprocess("gmpy2")
    assert result.returncode == 0 and result.stdout.strip() == "gmpy2"
