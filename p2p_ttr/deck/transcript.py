"""The public transcript of a game's deck operations, for the audit.

A :class:`Transcript` is the game id and the ordered deck records, in log
order. Record types and their wire payloads:

* ``key``: :class:`KeyAnnouncement` ``[seat, y, t, s]``
* ``commit``: :class:`SeedCommitment` ``[seat, digest]``
* ``deck``: :class:`DeckCreation` ``[deck, epoch, [card, ...]]``
* ``shuffle``: :class:`ShuffleStep` ``[deck, epoch, seat, [[a, b], ...]]``
* ``remask-deck``: :class:`RemaskCreation` ``[deck, epoch, [[deck, epoch, position], ...]]``
* ``remask``: :class:`RemaskStep` ``[deck, epoch, seat, [[a, b], ...]]``
* ``mix-deck``: :class:`MixCreation` ``[deck, epoch, [[deck, epoch, position], ...]]`` (then ``shuffle`` steps)
* ``share``: :class:`DecryptionShare` ``[deck, epoch, position, seat, d, t1, t2, s]``
* ``open``: :class:`CardOpening` ``[deck, epoch, position, card, claimant]``
* ``reveal``: :class:`SecretReveal` ``[seat, seed, x]``

A tagged record is ``[tag, payload]``; a transcript is
``[game_id, [tagged record, ...]]``. Elements are 256 bytes, ``s`` 65 bytes,
``seed`` and ``digest`` 32 bytes, ``x`` 32 bytes (256 for an ``x >= 2^256``,
see :func:`.keys.secret_exponent_to_bytes`) (see :mod:`.wire`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, TypeAlias

from .commit import SEED_BYTES, Seed, SeedCommitment
from .deckorder import EpochPosition
from .elgamal import DeckCreation
from .errors import MalformedWire
from .keys import (
    KeyAnnouncement,
    SecretKey,
    check_secret_exponent,
    expect_secret_exponent,
    secret_exponent_to_bytes,
)
from .remask import MixCreation, RemaskCreation, RemaskStep
from .shares import DecryptionShare
from .shuffle import ShuffleStep
from .wire import (
    expect_bytes,
    expect_deck_name,
    expect_epoch,
    expect_game_id,
    expect_index,
    expect_list,
    expect_seat,
)

MAX_RECORDS: Final = 100_000


@dataclass(frozen=True, slots=True)
class CardOpening:
    """``claimant`` asserts that the card at ``ref`` is ``card``.

    Logged when a card becomes public: a face-up or tunnel card (the claim of
    whoever completed the shares), a card played from hand (its owner).
    Wire: ``[deck, epoch, position, card, claimant]``.
    """

    ref: EpochPosition
    card: int
    claimant: int

    def __post_init__(self) -> None:
        if type(self.ref) is not EpochPosition:
            raise MalformedWire("opening reference must be a EpochPosition")
        expect_index(self.card, "card")
        expect_seat(self.claimant, "claimant")

    def to_wire(self) -> list[object]:
        return [self.ref.deck, self.ref.epoch, self.ref.position, self.card, self.claimant]

    @classmethod
    def from_wire(cls, data: object) -> CardOpening:
        deck, epoch, position, card, claimant = expect_list(data, "card opening", 5)
        return cls(
            EpochPosition(expect_deck_name(deck), expect_epoch(epoch), expect_index(position, "position")),
            expect_index(card, "card"),
            expect_seat(claimant, "claimant"),
        )


@dataclass(frozen=True, slots=True, repr=False)
class SecretReveal:
    """A seat's end-of-game reveal of its seed and secret exponent.

    Published only when the game is over; the repr still hides both, so logs
    never carry them. Wire: ``[seat, seed(32 bytes), x]``, ``x`` in ``[1, q)``
    as :func:`.keys.secret_exponent_to_bytes` (32 bytes, or 256 for ``x >= 2^256``).
    """

    seat: int
    seed: Seed
    x: int

    def __post_init__(self) -> None:
        expect_seat(self.seat)
        if type(self.seed) is not Seed:
            raise MalformedWire("revealed seed must be a Seed")
        check_secret_exponent(self.x, "revealed exponent")

    def __repr__(self) -> str:
        return f"SecretReveal(seat={self.seat}, seed=<redacted>, x=<redacted>)"

    @classmethod
    def of(cls, secret: SecretKey, seed: Seed) -> SecretReveal:
        """The reveal a seat publishes at the end of the game."""
        return cls(secret.seat, seed, secret.x)

    def to_wire(self) -> list[object]:
        return [self.seat, self.seed.to_wire(), secret_exponent_to_bytes(self.x)]

    @classmethod
    def from_wire(cls, data: object) -> SecretReveal:
        seat, seed, x = expect_list(data, "secret reveal", 3)
        exponent = expect_secret_exponent(x, "revealed exponent")
        return cls(expect_seat(seat), Seed(expect_bytes(seed, "revealed seed", SEED_BYTES)), exponent)


Record: TypeAlias = (
    KeyAnnouncement
    | SeedCommitment
    | DeckCreation
    | ShuffleStep
    | RemaskCreation
    | RemaskStep
    | MixCreation
    | DecryptionShare
    | CardOpening
    | SecretReveal
)

_TAGS: Final[dict[type[Record], str]] = {
    KeyAnnouncement: "key",
    SeedCommitment: "commit",
    DeckCreation: "deck",
    ShuffleStep: "shuffle",
    RemaskCreation: "remask-deck",
    RemaskStep: "remask",
    MixCreation: "mix-deck",
    DecryptionShare: "share",
    CardOpening: "open",
    SecretReveal: "reveal",
}
_TYPES: Final[dict[str, type[Record]]] = {tag: kind for kind, tag in _TAGS.items()}


def record_to_wire(record: Record) -> list[object]:
    """``[tag, payload]`` for any transcript record."""
    return [_TAGS[type(record)], record.to_wire()]


def record_from_wire(data: object) -> Record:
    """The record encoded by ``[tag, payload]``; raises :class:`MalformedWire`."""
    tag, payload = expect_list(data, "transcript record", 2)
    if type(tag) is not str or tag not in _TYPES:
        raise MalformedWire(f"unknown transcript record tag {tag!r}")
    return _TYPES[tag].from_wire(payload)


@dataclass(frozen=True, slots=True)
class Transcript:
    """A game's deck records in log order. Wire: ``[game_id, [[tag, payload], ...]]``."""

    game_id: bytes
    records: tuple[Record, ...]

    def __post_init__(self) -> None:
        expect_game_id(self.game_id)
        if type(self.records) is not tuple or len(self.records) > MAX_RECORDS:
            raise MalformedWire(f"a transcript is a tuple of at most {MAX_RECORDS} records")
        for record in self.records:
            if type(record) not in _TAGS:
                raise MalformedWire(f"{type(record).__name__} is not a transcript record")

    def __repr__(self) -> str:
        return f"Transcript(game_id={self.game_id!r}, records=<{len(self.records)}>)"

    def to_wire(self) -> list[object]:
        return [self.game_id, [record_to_wire(record) for record in self.records]]

    @classmethod
    def from_wire(cls, data: object) -> Transcript:
        game_id, records = expect_list(data, "transcript", 2)
        records = expect_list(records, "transcript records")
        if len(records) > MAX_RECORDS:
            raise MalformedWire(f"a transcript holds at most {MAX_RECORDS} records")
        return cls(expect_game_id(game_id), tuple(record_from_wire(r) for r in records))

