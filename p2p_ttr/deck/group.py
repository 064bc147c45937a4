"""The group: quadratic residues modulo the RFC 3526 2048-bit safe prime.

``P`` is the 2048-bit MODP prime of RFC 3526 ("More Modular Exponential (MODP)
Diffie-Hellman groups for IKE", section 3, group 14). It is a safe prime,
``P = 2Q + 1`` with ``Q`` prime, so the quadratic residues mod ``P`` form a
subgroup of prime order ``Q``. ``G = 4 = 2^2`` is a residue, hence a
generator of that subgroup. Secret exponents and re-randomisers are 256-bit
("short exponents", the sizes RFC 7919 section 5.2 and libTMCG use: 2048-bit
MODP groups give ~112-128 bits of security, so a 256-bit exponent is not the
weak link).

**Element encoding.** Because ``P = 3 (mod 4)``, ``-1`` is a non-residue, so
of the two numbers ``x`` and ``P - x`` exactly one is a residue. An element of
the residue group is therefore written as the *smaller* of the two, an integer
in ``[1, Q]`` (:func:`canonical`). This is the same group (the map "take the
residue among {w, P - w}" is an isomorphism from the encoding back to the
residues) with a membership test that costs one comparison: **any integer
``1 <= w <= Q`` encodes a residue and every residue has exactly one such
encoding.** A Legendre-symbol check would cost ~0.3 ms per element in pure
Python, which is as much as the fixed-base exponentiation a shuffle does per
element; the encoding makes validating a 110-card shuffle free. It also
removes the classic attack on ElGamal over ``Z_p^*`` (marking a ciphertext with
a non-residue so that it can be tracked, or so that a share leaks the parity
of a secret key): the sign that would carry the mark is not representable.

Arithmetic runs on any representatives modulo ``P`` and is normalised with
:func:`canonical` at the end: ``canonical(x * y % P)`` encodes the product of
the elements encoded by ``x`` and ``y`` whatever their signs.

Nothing here is constant-time (CPython integers are not): the deck protects
cards from peers who see messages, not from peers timing each other's CPU.

Received integers go through :func:`check_element`, which also refuses the
identity ``1``: no honest public value (key, share, proof commitment,
shuffled ciphertext) is ever the identity except with negligible probability,
and an identity ``a`` in a shuffled ciphertext would publish the card.
"""

from __future__ import annotations

from typing import Final

from .backend import current_backend
from .errors import InvalidElement

# RFC 3526, section 3: "2048-bit MODP Group", id 14.
# p = 2^2048 - 2^1984 - 1 + 2^64 * ( [2^1918 pi] + 124476 )
P: Final = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD1"
    "29024E088A67CC74020BBEA63B139B22514A08798E3404DD"
    "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245"
    "E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3D"
    "C2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
    "83655D23DCA3AD961C62F356208552BB9ED529077096966D"
    "670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9"
    "DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
    "15728E5A8AACAA68FFFFFFFFFFFFFFFF",
    16,
)
Q: Final = (P - 1) // 2
"""Prime order of the residue group."""
G: Final = 4
"""Generator of the residue group (2 squared)."""
IDENTITY: Final = 1

ELEMENT_BYTES: Final = 256
"""Wire size of a group element: big-endian, canonical value in [2, Q]."""
EXPONENT_BITS: Final = 256
"""Secret keys and re-randomisation exponents are uniform in [1, 2^256)."""
EXPONENT_BYTES: Final = EXPONENT_BITS // 8
CHALLENGE_BITS: Final = 128
"""Fiat-Shamir challenges are 128-bit (soundness 2^-128 per proof)."""
STATISTICAL_BITS: Final = 128
"""Slack that makes a non-reduced response statistically hide the secret."""
NONCE_BITS: Final = EXPONENT_BITS + CHALLENGE_BITS + STATISTICAL_BITS
"""Proof nonces w are uniform in [0, 2^512): s = w + c*x then hides c*x < 2^384."""
RESPONSE_BYTES: Final = (NONCE_BITS + 1 + 7) // 8
"""Wire size of a response s = w + c*x < 2^512 + 2^384 < 2^513: 65 bytes."""


def canonical(x: int) -> int:
    """The encoding of the residue class of ``x`` (``0 <= x < P``, any backend number)."""
    x = int(x)
    return x if x <= Q else P - x


def check_element(x: object, what: str = "element") -> int:
    """Return ``x`` if it encodes a non-identity group element, else raise.

    Raises :class:`InvalidElement` naming ``what`` and the reason.
    """
    if type(x) is not int:
        raise InvalidElement(f"{what} must be an int, got {type(x).__name__}")
    if x <= 0:
        raise InvalidElement(f"{what} is {x}: not in the group")
    if x == IDENTITY:
        raise InvalidElement(f"{what} is the identity")
    if x >= P:
        raise InvalidElement(f"{what} is not reduced modulo p")
    if x > Q:
        raise InvalidElement(
            f"{what} is not canonically encoded (must be at most q; "
            "the same residue class is encoded by p - x)"
        )
    return x


def is_quadratic_residue(x: int) -> bool:
    """Whether ``0 < x < P`` is a quadratic residue (Legendre symbol 1)."""
    return 0 < x < P and current_backend().jacobi(x, P) == 1


def element_from_residue(x: object, what: str = "element") -> int:
    """Encode an integer given in the classic representation (a residue mod P).

    For interoperability with code that represents the subgroup by the
    residues themselves: checks ``1 < x < P`` and that ``x`` is a residue
    (Legendre symbol 1, equivalently ``x^Q = 1``), then returns its encoding.
    """
    if type(x) is not int:
        raise InvalidElement(f"{what} must be an int, got {type(x).__name__}")
    if not 1 < x < P:
        raise InvalidElement(f"{what} is not in the range 1 < x < p")
    if not is_quadratic_residue(x):
        raise InvalidElement(f"{what} is not a quadratic residue modulo p")
    return check_element(canonical(x), what)


def residue_of(element: int) -> int:
    """The quadratic residue mod P encoded by ``element`` (inverse of the above)."""
    return element if is_quadratic_residue(element) else P - element


def mul(x: int, y: int) -> int:
    """The group product, encoded."""
    return canonical(x * y % P)


def inverse(x: int) -> int:
    """The group inverse, encoded."""
    return canonical(current_backend().invert(x, P))


def exp(base: int, exponent: int) -> int:
    """``base ** exponent`` in the group, encoded (variable base, exponent >= 0)."""
    return canonical(current_backend().powmod(base, exponent, P))


def element_to_bytes(x: int) -> bytes:
    """The 256-byte big-endian wire form of an encoded element."""
    return int(x).to_bytes(ELEMENT_BYTES, "big")
