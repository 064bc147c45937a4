"""Unambiguous hashing of structured inputs, with one domain tag per use.

Every hash, HMAC and challenge in the deck goes through :func:`encode_fields`,
which writes each field as a type byte, a 4-byte length and the content, so
no two different field lists encode to the same bytes, and each use has its
own domain tag (``DOMAIN_*`` below). A proof made for one purpose, game, seat
or card position is therefore never valid for another.
"""

from __future__ import annotations

import hashlib
from typing import Final

from .group import CHALLENGE_BITS, ELEMENT_BYTES, IDENTITY, P, canonical

_PREFIX: Final = b"p2p_ttr/deck/v1/"
DOMAIN_CARD: Final = _PREFIX + b"card"
DOMAIN_KEY_PROOF: Final = _PREFIX + b"key-proof"
DOMAIN_SHARE_PROOF: Final = _PREFIX + b"share-proof"
DOMAIN_COMMIT: Final = _PREFIX + b"seed-commitment"
DOMAIN_SHUFFLE: Final = _PREFIX + b"shuffle"
DOMAIN_REMASK: Final = _PREFIX + b"remask"
DOMAIN_NONCE: Final = _PREFIX + b"proof-nonce"
DOMAIN_GENERATOR: Final = _PREFIX + b"generator"
DOMAIN_CHAIN_STATEMENT: Final = _PREFIX + b"chain-statement"
DOMAIN_SHUFFLE_PROOF: Final = _PREFIX + b"shuffle-proof"
DOMAIN_REMASK_PROOF: Final = _PREFIX + b"remask-proof"
DOMAIN_PROOF_RANDOMNESS: Final = _PREFIX + b"chain-proof-randomness"
DOMAIN_ESCROW_KEY: Final = _PREFIX + b"escrow-key"
DOMAIN_ESCROW_PROOF: Final = _PREFIX + b"escrow-complaint"
DOMAIN_SEAL_KEY_PROOF: Final = _PREFIX + b"seal-key-proof"
DOMAIN_CHAIN_INPUT: Final = _PREFIX + b"chain-input"

Field = bytes | int | str


def encode_fields(*fields: Field) -> bytes:
    """Injective encoding of a list of bytes / non-negative ints / strings."""
    out = bytearray()
    for field in fields:
        if isinstance(field, bytes):
            tag, body = b"B", field
        elif isinstance(field, str):
            tag, body = b"S", field.encode("utf-8")
        elif isinstance(field, int) and not isinstance(field, bool) and field >= 0:
            tag, body = b"I", field.to_bytes((field.bit_length() + 7) // 8, "big")
        else:
            raise TypeError(f"cannot hash field {field!r}")
        out += tag
        out += len(body).to_bytes(4, "big")
        out += body
    return bytes(out)


def digest(domain: bytes, *fields: Field) -> bytes:
    """SHA-256 of the domain tag and the encoded fields."""
    return hashlib.sha256(encode_fields(domain, *fields)).digest()


def challenge(domain: bytes, *fields: Field) -> int:
    """A 128-bit Fiat-Shamir challenge (the first 16 bytes of :func:`digest`).

    128 bits suffice: a forger must hit one exact challenge per attempt, so
    soundness is 2^-128 per proof; shorter challenges keep ``y^c`` cheap.
    """
    return int.from_bytes(digest(domain, *fields)[: CHALLENGE_BITS // 8], "big")


_EXPANDED_BYTES: Final = ELEMENT_BYTES + 16  # 2048 + 128 bits: the reduction's bias is ~2^-128


def hash_to_element(domain: bytes, *fields: Field) -> int:
    """A group element nobody knows the logarithm of: SHAKE-256 of the domain
    tag and fields, expanded to 2048 + 128 bits, reduced mod ``P`` and squared
    (squaring lands in the residue group). Cards and the shuffle proof's
    independent generators are made this way, each use with its own domain."""
    counter = 0
    while True:  # loops again with probability ~2^-2047: h = 0 or +-1
        expanded = hashlib.shake_256(encode_fields(domain, *fields, counter))
        h = int.from_bytes(expanded.digest(_EXPANDED_BYTES), "big") % P
        element = canonical(h * h % P)
        if element not in (0, IDENTITY):
            return element
        counter += 1


def challenge_vector(domain: bytes, n: int, *fields: Field) -> tuple[int, ...]:
    """``n`` independent 128-bit Fiat-Shamir challenges: SHAKE-256 of the
    domain tag and fields, cut into 16-byte big-endian integers."""
    size = CHALLENGE_BITS // 8
    stream = hashlib.shake_256(encode_fields(domain, *fields)).digest(size * n)
    return tuple(int.from_bytes(stream[i : i + size], "big") for i in range(0, size * n, size))
