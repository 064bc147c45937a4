"""The seating's keys, and the seating with all of them in: what the game starts from.

Each seat announces once its deck key (with its proof), a commitment to its
deck seed and, in an escrow game, its seal key (protocol.md §6). The key
ring keeps them; with the last seat's in, the seating, its keys and their
joint key make one value, ``KeyedSeating``, and the game's first state is a
function of that value (``opening_state``): the fold calls it, once.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2p_ttr.deck import DeckError, JointKey, KeyAnnouncement, SecretKey, Seed, SeedCommitment, check_seal_key
from p2p_ttr.engine.rules import new_game
from p2p_ttr.engine.state import GameState

from .errors import BadProof, Malformed, NotExpected
from .messages import Keys, Seating


@dataclass(frozen=True)
class PeerSecrets:
    """One seat's secrets for one game: its deck key, its seed and, in an
    escrow game, its seal key (the key escrow shares are sealed to, never
    revealed). Never logged; repr redacts."""

    seat: int
    key: SecretKey
    seed: Seed
    seal: SecretKey | None = None

    def __repr__(self) -> str:
        return f"PeerSecrets(seat={self.seat}, key=<redacted>, seed=<redacted>, seal=<redacted>)"


@dataclass(frozen=True)
class KeyedSeating:
    """The seating with every seat's key in: who plays (``seating.seats``),
    what (``seating.game``: board, rules and variant), and the joint key
    every card of the deck is encrypted to."""

    seating: Seating
    keys: tuple[KeyAnnouncement, ...]  # by seat
    commitments: tuple[SeedCommitment, ...]  # by seat: what each seat's seed must be
    joint: JointKey

    @property
    def game_id(self) -> bytes:
        return self.joint.game_id

    def public_keys(self) -> dict[int, int]:
        return {s: k.public_key for s, k in enumerate(self.keys)}

    @property
    def n(self) -> int:
        return len(self.seating.seats)


def opening_state(seated: KeyedSeating) -> GameState:
    """The game's first state, made from the keyed seating alone: the same on every replica."""
    return new_game(seated.seating.game, seated.n)


class KeyRing:
    """Every seat's announced keys so far."""

    def __init__(self) -> None:
        self.keys: dict[int, KeyAnnouncement] = {}
        self.commitments: dict[int, SeedCommitment] = {}
        self.seal_keys: dict[int, int] = {}  # escrow games: seat -> the seal key escrow shares are sealed to

    def announce(self, seat: int, message: Keys, seating: Seating, game_id: bytes) -> KeyedSeating | None:
        """Check and keep ``seat``'s keys for the game ``seating`` opened; the
        keyed seating when they were the last seat's to come.

        Raises:
            NotExpected: the seat announced its keys already.
            Malformed: a key names another seat, or a seal key is missing or extra.
            BadProof: a key's proof fails.
        """
        key, commitment, seal = message.key, message.commitment, message.seal
        if seat in self.keys:
            raise NotExpected(f"seat {seat} already announced its key")
        if key.seat != seat or commitment.seat != seat or (seal is not None and seal.seat != seat):
            raise Malformed("a key announcement names its own seat")
        if (seal is not None) != seating.escrow:
            raise Malformed("keys carry a seal key in an escrow game, and only there")
        try:
            key.verify(game_id)
            if seal is not None:
                check_seal_key(seal, game_id)
        except DeckError as exc:
            raise BadProof(str(exc)) from None
        self.keys[seat] = key
        self.commitments[seat] = commitment
        if seal is not None:
            self.seal_keys[seat] = seal.public_key
        if len(self.keys) < len(seating.seats):
            return None
        keys = tuple(self.keys[s] for s in range(len(seating.seats)))
        commitments = tuple(self.commitments[s] for s in range(len(seating.seats)))
        return KeyedSeating(seating, keys, commitments, JointKey(game_id, tuple(k.public_key for k in keys)))
