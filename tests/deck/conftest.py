"""Shared fixtures for the deck tests: deterministic randomness and small games.

The crypto is slow in pure Python (~10 us per 2048-bit product), so games
are built once per session and cached, decks are small, and property tests
use few examples.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pytest

from p2p_ttr.deck import (
    EpochPosition,
    Ciphertext,
    DeckCreation,
    JointKey,
    KeyAnnouncement,
    RandomSource,
    SecretKey,
    Seed,
    SeedCommitment,
    ShuffleStep,
    announce_key,
    commit_seed,
    create_deck,
    make_share,
    shuffle_step,
)
from p2p_ttr.deck.elgamal import decrypt_with_exponent


def seeded_source(label: str) -> RandomSource:
    """A deterministic stand-in for secrets.token_bytes."""
    counter = itertools.count()

    def source(n: int) -> bytes:
        return hashlib.shake_256(f"{label}/{next(counter)}".encode()).digest(n)

    return source


@dataclass
class Game:
    game_id: bytes
    secrets: list[SecretKey]
    seeds: list[Seed]
    announcements: list[KeyAnnouncement]
    commitments: list[SeedCommitment]
    joint: JointKey
    chains: dict[tuple[str, int, tuple[int, ...]], list[ShuffleStep]] = field(default_factory=dict)

    @property
    def seats(self) -> int:
        return len(self.secrets)

    @property
    def secret_sum(self) -> int:
        return sum(secret.x for secret in self.secrets)

    def chain(self, creation: DeckCreation) -> list[ShuffleStep]:
        """Every seat's honest shuffle step, in seat order (cached)."""
        key = (creation.deck, creation.epoch, creation.cards)
        if key not in self.chains:
            steps: list[ShuffleStep] = []
            current: Sequence[Ciphertext] = creation.ciphertexts()
            for seat in range(self.seats):
                step = shuffle_step(
                    self.joint, self.seeds[seat], seat, creation.deck, creation.epoch, current
                )
                steps.append(step)
                current = step.ciphertexts
            self.chains[key] = steps
        return self.chains[key]

    def final(self, creation: DeckCreation) -> tuple[Ciphertext, ...]:
        return self.chain(creation)[-1].ciphertexts

    def cards(self, creation: DeckCreation) -> list[int]:
        """The card at each final position, decrypted with every secret."""
        codec = creation.codec()
        return [codec.card(m) for m in decrypt_with_exponent(self.final(creation), self.secret_sum)]

    def shares(self, creation: DeckCreation, position: int, seats: Sequence[int]) -> list:
        ref = EpochPosition(creation.deck, creation.epoch, position)
        ciphertext = self.final(creation)[position]
        return [
            make_share(self.secrets[s], ref, ciphertext, seeded_source(f"share/{s}/{ref}"))
            for s in seats
        ]


def build_game(seats: int, game_id: bytes = b"test-game") -> Game:
    source = seeded_source(f"game/{game_id!r}/{seats}")
    secrets = [SecretKey.generate(game_id, seat, source) for seat in range(seats)]
    seeds = [Seed.generate(source) for _ in range(seats)]
    announcements = [announce_key(secret, source) for secret in secrets]
    commitments = [commit_seed(game_id, seat, seeds[seat]) for seat in range(seats)]
    joint = JointKey.from_announcements(game_id, announcements)
    return Game(game_id, secrets, seeds, announcements, commitments, joint)


_games: dict[tuple[int, bytes], Game] = {}


@pytest.fixture(scope="session")
def game_of() -> Callable[..., Game]:
    """``game_of(seats, game_id=b"test-game")``: a cached honest game setup."""

    def get(seats: int, game_id: bytes = b"test-game") -> Game:
        key = (seats, game_id)
        if key not in _games:
            _games[key] = build_game(seats, game_id)
        return _games[key]

    return get


@pytest.fixture(scope="session")
def small_deck() -> DeckCreation:
    return create_deck("train", 0, range(6))


@pytest.fixture(scope="session")
def seeded() -> Callable[[str], RandomSource]:
    """``seeded(label)``: a deterministic random source."""
    return seeded_source
