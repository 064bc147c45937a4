"""A deterministic random bit generator: HMAC-SHA256, domain-separated.

A :class:`Drbg` is keyed by ``HMAC(secret, domain || context)``; every output
block is ``HMAC(key, purpose || index || attempt || counter)``. Outputs are
*addressable*: the re-randomiser of card 17 in a shuffle is a function of the
seed and of (game, seat, deck, epoch, "rerandomise", 17) alone, so an auditor
who learns the seed recomputes exactly what the shuffler had to use, and two
different decks, epochs, seats or purposes never share an output. Anyone
without the secret sees independent uniform values (HMAC is a PRF).

Integers are taken from whole blocks and rejection-sampled, never reduced
with ``%``, so they are exactly uniform; :func:`fisher_yates` therefore
draws each of the n! permutations with equal probability.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable

from .errors import DeckUsageError
from .hashing import Field, encode_fields

_BLOCK_BITS = 256


class Drbg:
    """HMAC-SHA256 generator keyed by a secret and a context.

    The repr never shows the key.
    """

    __slots__ = ("_key",)

    def __init__(self, secret: bytes, domain: bytes, *context: Field) -> None:
        self._key = hmac.digest(secret, encode_fields(domain, *context), hashlib.sha256)

    def __repr__(self) -> str:
        return "Drbg(<redacted>)"

    def block(self, purpose: str, index: int, attempt: int = 0, counter: int = 0) -> bytes:
        """One 32-byte output block at the given address."""
        return hmac.digest(
            self._key, encode_fields(purpose, index, attempt, counter), hashlib.sha256
        )

    def integer(self, purpose: str, index: int, bits: int, attempt: int = 0) -> int:
        """A uniform integer in ``[0, 2^bits)`` at the given address."""
        blocks = b"".join(
            self.block(purpose, index, attempt, counter)
            for counter in range(-(-bits // _BLOCK_BITS))
        )
        return int.from_bytes(blocks, "big") >> (len(blocks) * 8 - bits)

    def nonzero_integer(self, purpose: str, index: int, bits: int) -> int:
        """A uniform integer in ``[1, 2^bits)``: zero is re-drawn at the next attempt."""
        attempt = 0
        while True:
            value = self.integer(purpose, index, bits, attempt)
            if value:
                return value
            attempt += 1

    def stream(self, purpose: str) -> BitStream:
        """A sequential stream of bits for ``purpose`` (for rejection sampling)."""
        return BitStream(self, purpose)


class BitStream:
    """Bits from consecutive blocks ``drbg.block(purpose, counter)``."""

    __slots__ = ("_drbg", "_purpose", "_counter", "_pool", "_available")

    def __init__(self, drbg: Drbg, purpose: str) -> None:
        self._drbg = drbg
        self._purpose = purpose
        self._counter = 0
        self._pool = 0
        self._available = 0

    def __repr__(self) -> str:
        return f"BitStream(purpose={self._purpose!r}, <redacted>)"

    def bits(self, k: int) -> int:
        """The next ``k`` bits as an integer in ``[0, 2^k)``."""
        while self._available < k:
            block = self._drbg.block(self._purpose, self._counter)
            self._counter += 1
            self._pool |= int.from_bytes(block, "big") << self._available
            self._available += _BLOCK_BITS
        value = self._pool & ((1 << k) - 1)
        self._pool >>= k
        self._available -= k
        return value

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection sampling (no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        k = (n - 1).bit_length()
        while True:
            value = self.bits(k)
            if value < n:
                return value


def fisher_yates(n: int, stream: BitStream) -> tuple[int, ...]:
    """A uniformly random permutation of ``range(n)`` (Durstenfeld's shuffle).

    ``result[i]`` is the input index whose card lands at output position ``i``.
    """
    permutation = list(range(n))
    for i in range(n - 1, 0, -1):
        j = stream.below(i + 1)
        permutation[i], permutation[j] = permutation[j], permutation[i]
    return tuple(permutation)


RandomSource = Callable[[int], bytes]
"""Where secrets come from: ``source(n)`` returns n fresh random bytes.

Defaults to :func:`secrets.token_bytes`; tests inject a seeded source.
"""


def fresh_bytes(source: RandomSource | None, n: int) -> bytes:
    """``n`` bytes from ``source`` (or the OS CSPRNG), checked for length."""
    data = (source or secrets.token_bytes)(n)
    if type(data) is not bytes or len(data) != n:
        raise DeckUsageError(f"the random source must return {n} bytes")
    return data
