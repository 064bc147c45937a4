"""Shuffle seeds and the commitments published before any shuffle.

Each player draws a fresh 32-byte :class:`Seed` and publishes
``SHA-256(domain, seed, game id, seat)`` before the first shuffle. Every
permutation and re-randomiser that player uses is derived from the seed (see
:mod:`.shuffle`), so revealing the seed after the game lets anyone recompute
the player's every shuffle, and the commitment stops the player from choosing
a different seed afterwards to explain a dishonest shuffle. The digest hides
the seed (a 256-bit random value under a hash).
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Final

from .drbg import RandomSource, fresh_bytes
from .errors import CommitmentMismatch
from .hashing import DOMAIN_COMMIT, digest
from .wire import expect_bytes, expect_game_id, expect_list, expect_seat

SEED_BYTES: Final = 32
DIGEST_BYTES: Final = 32


@dataclass(frozen=True, slots=True, repr=False)
class Seed:
    """A player's secret shuffle seed (32 bytes). Its repr never shows it."""

    value: bytes

    def __post_init__(self) -> None:
        expect_bytes(self.value, "seed", SEED_BYTES)

    def __repr__(self) -> str:
        return "Seed(<redacted>)"

    @classmethod
    def generate(cls, source: RandomSource | None = None) -> Seed:
        """A fresh seed from ``source`` (default: the OS CSPRNG)."""
        return cls(fresh_bytes(source, SEED_BYTES))

    def to_wire(self) -> bytes:
        """The 32 seed bytes (for this peer's own storage, or the end-of-game reveal)."""
        return self.value

    @classmethod
    def from_wire(cls, data: object) -> Seed:
        return cls(expect_bytes(data, "seed", SEED_BYTES))


@dataclass(frozen=True, slots=True)
class SeedCommitment:
    """A seat's published commitment to its seed. Wire: ``[seat, digest(32)]``."""

    seat: int
    digest: bytes

    def __post_init__(self) -> None:
        expect_seat(self.seat)
        expect_bytes(self.digest, "commitment digest", DIGEST_BYTES)

    def to_wire(self) -> list[object]:
        return [self.seat, self.digest]

    @classmethod
    def from_wire(cls, data: object) -> SeedCommitment:
        seat, value = expect_list(data, "seed commitment", 2)
        return cls(expect_seat(seat), expect_bytes(value, "commitment digest", DIGEST_BYTES))


def _commitment_digest(game_id: bytes, seat: int, seed: Seed) -> bytes:
    return digest(DOMAIN_COMMIT, seed.value, expect_game_id(game_id), seat)


def commit_seed(game_id: bytes, seat: int, seed: Seed) -> SeedCommitment:
    """The commitment ``seat`` publishes for ``seed`` in game ``game_id``."""
    return SeedCommitment(seat, _commitment_digest(game_id, seat, seed))


def check_seed(game_id: bytes, commitment: SeedCommitment, seed: Seed) -> None:
    """Raise :class:`CommitmentMismatch` unless ``seed`` opens ``commitment``."""
    expected = _commitment_digest(game_id, commitment.seat, seed)
    if not hmac.compare_digest(expected, commitment.digest):
        raise CommitmentMismatch(
            f"seat {commitment.seat}: the revealed seed does not match its commitment",
            seat=commitment.seat,
        )
