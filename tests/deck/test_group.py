"""The group constants, the element encoding and the membership checks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_ttr.deck import G, InvalidElement, P, Q, check_element, element_from_residue
from p2p_ttr.deck.backend import jacobi_python
from p2p_ttr.deck.group import (
    ELEMENT_BYTES,
    canonical,
    exp,
    inverse,
    is_quadratic_residue,
    mul,
    residue_of,
)


def _probably_prime(n: int, bases: tuple[int, ...] = (2, 3, 5, 7)) -> bool:
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for a in bases:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def test_rfc3526_group14_is_a_safe_prime() -> None:
    assert P.bit_length() == 2048
    assert P >> 1984 == 2**64 - 1 and P & (2**64 - 1) == 2**64 - 1  # RFC 3526 shape
    assert P == 2 * Q + 1
    assert P % 8 == 7  # so -1 is a non-residue and 2 is a residue
    assert _probably_prime(Q, (2, 3)) and _probably_prime(P, (2, 3))


def test_generator_is_a_residue_of_order_q() -> None:
    assert G == 4 and is_quadratic_residue(G)
    assert pow(G, Q, P) == 1 and G != 1


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (0, "not in the group"),
        (-5, "not in the group"),
        (1, "identity"),
        (P - 1, "not canonically encoded"),  # -1: a non-residue, and the identity's class
        (P - 4, "not canonically encoded"),  # a non-residue
        (Q + 1, "not canonically encoded"),
        (P, "not reduced"),
        (P + 4, "not reduced"),
        (2**4096, "not reduced"),
    ],
)
def test_bad_elements_are_refused(value: int, words: str) -> None:
    with pytest.raises(InvalidElement, match=words):
        check_element(value, "test value")


@pytest.mark.parametrize("value", [True, 4.0, "4", b"\x04", None])
def test_non_int_elements_are_refused(value: object) -> None:
    with pytest.raises(InvalidElement, match="must be an int"):
        check_element(value)


def test_residues_in_classic_form() -> None:
    assert element_from_residue(G) == G
    residue = pow(G, 12345, P)
    assert element_from_residue(residue) == canonical(residue)
    assert residue_of(element_from_residue(residue)) == residue
    for non_residue in (P - 1, P - 4, P - G * G % P):
        with pytest.raises(InvalidElement, match="not a quadratic residue"):
            element_from_residue(non_residue)
    for outside in (0, 1, P, P + 4):
        with pytest.raises(InvalidElement):
            element_from_residue(outside)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=1, max_value=P - 1))
def test_jacobi_matches_euler(x: int) -> None:
    euler = pow(x, Q, P)
    assert jacobi_python(x, P) == (1 if euler == 1 else -1)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**256), st.integers(0, 2**256))
def test_encoded_arithmetic_matches_residue_arithmetic(e1: int, e2: int) -> None:
    x, y = exp(G, e1), exp(G, e2)
    assert 1 <= x <= Q and 1 <= y <= Q
    assert residue_of(x) == pow(G, e1, P)
    assert residue_of(mul(x, y)) == pow(G, e1 + e2, P)
    assert mul(x, inverse(x)) == 1
    # a representative of either sign gives the same encoded result
    assert canonical(pow(P - x, 3, P)) == exp(x, 3)


def test_element_size() -> None:
    assert ELEMENT_BYTES * 8 == P.bit_length()
