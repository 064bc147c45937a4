"""Player keys, their proofs of knowledge, and the joint key.

Player j draws a secret ``x_j`` uniform in ``[1, 2^256)`` and announces
``y_j = G^x_j`` with a Schnorr proof of knowledge of ``x_j``, made
non-interactive by Fiat-Shamir over (domain, game id, seat, G, y_j, t). The
joint ElGamal key is ``Y = prod y_j``; nobody knows its secret ``sum x_j``.

Why the proof: without it, the last player to announce could pick
``y = G^x / prod(other y)`` ("rogue key") and alone know the secret of ``Y``,
i.e. read every card. Binding the proof to the game id and seat stops a
player from replaying someone else's proof (copying a key it cannot use, to
learn nothing but to break liveness, or to splice games).

Proof form ``(t, s)`` with ``s = w + c*x`` over the integers (no reduction
mod Q): ``c`` is 128 bits and ``w`` is uniform in ``[0, 2^512)``, so ``s``
reveals ``c*x < 2^384`` only with statistical distance 2^-128, and the
response is 65 bytes instead of 256. The verifier checks ``G^s == t * y^c``.

The proof cannot bound the size of ``x``: a seat may pick any ``x`` whose
responses still fit 65 bytes (up to ~390 bits) and its proofs verify. So
every secret the proof accepts must also be revealable: a :class:`SecretKey`
(and so a reveal) takes any ``1 <= x < Q``; on the wire ``x`` is 32 bytes as
always for honest keys, or 256 bytes for the (dishonest but valid) ``x >=
2^256`` (:func:`secret_exponent_to_bytes`). Otherwise such a seat could never
be audited and would dodge the blame for whatever it did.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .backend import current_backend
from .drbg import Drbg, RandomSource, fresh_bytes
from .errors import DeckUsageError, InvalidKeyProof, MalformedWire
from .fixedbase import FixedBaseTable, g_pow, generator_table
from .group import (
    ELEMENT_BYTES,
    EXPONENT_BITS,
    EXPONENT_BYTES,
    NONCE_BITS,
    G,
    P,
    Q,
    RESPONSE_BYTES,
    canonical,
    check_element,
    element_to_bytes,
    exp,
)
from .hashing import DOMAIN_KEY_PROOF, DOMAIN_NONCE, Field, challenge
from .wire import (
    MAX_SEATS,
    expect_bytes,
    expect_element,
    expect_game_id,
    expect_list,
    expect_seat,
    expect_uint_bytes,
)

SHORT_SECRET_LIMIT = 2**EXPONENT_BITS
"""Honest secrets are below this; they travel as 32 bytes and use the fast G table."""


def check_secret_exponent(x: object, what: str = "secret exponent") -> int:
    """``x`` if it is a secret exponent the protocol accepts: an int in ``[1, Q)``."""
    if type(x) is not int or not 0 < x < Q:
        raise MalformedWire(f"{what} must be an int in [1, q)")
    return x


def secret_exponent_to_bytes(x: int) -> bytes:
    """The wire form of a secret exponent: 32 bytes below 2^256 (every honest
    key), else 256 bytes. One form per value: the decoder refuses the long
    form of a short value."""
    return x.to_bytes(EXPONENT_BYTES if x < SHORT_SECRET_LIMIT else ELEMENT_BYTES, "big")


def expect_secret_exponent(value: object, what: str = "secret exponent") -> int:
    """Decode :func:`secret_exponent_to_bytes`: 32 bytes, or 256 bytes holding
    a value of at least 2^256; the value must be in ``[1, Q)``."""
    raw = expect_bytes(value, what)
    if len(raw) not in (EXPONENT_BYTES, ELEMENT_BYTES):
        raise MalformedWire(f"{what} must be {EXPONENT_BYTES} or {ELEMENT_BYTES} bytes, got {len(raw)}")
    x = int.from_bytes(raw, "big")
    if x == 0:
        raise MalformedWire(f"{what} is zero")
    if len(raw) == ELEMENT_BYTES and x < SHORT_SECRET_LIMIT:
        raise MalformedWire(f"{what} below 2^256 must be sent as {EXPONENT_BYTES} bytes")
    return check_secret_exponent(x, what)


def secret_public_key(x: int) -> int:
    """``G^x`` for a secret exponent. Through the generator's fixed-base table
    for honest (256-bit) secrets; a longer one takes a plain ``pow`` rather
    than growing that shared table to hundreds of rows."""
    return g_pow(x) if x < SHORT_SECRET_LIMIT else exp(G, x)


@dataclass(frozen=True, slots=True, repr=False)
class SecretKey:
    """A player's secret exponent for one game and seat. Its repr hides ``x``.

    ``1 <= x < Q``: honest keys are below 2^256 (:meth:`generate`), but any
    key a valid proof can announce must be revealable (module docstring).
    Wire (for this peer's own storage, and the end-of-game reveal):
    ``[game_id, seat, x]``, ``x`` as :func:`secret_exponent_to_bytes`
    (32 bytes, or 256 bytes for ``x >= 2^256``).
    """

    game_id: bytes
    seat: int
    x: int
    public_key: int = field(init=False, compare=False)
    """``y = G^x``, computed once at construction."""

    def __post_init__(self) -> None:
        expect_game_id(self.game_id)
        expect_seat(self.seat)
        check_secret_exponent(self.x)
        object.__setattr__(self, "public_key", secret_public_key(self.x))

    def __repr__(self) -> str:
        return f"SecretKey(game_id={self.game_id!r}, seat={self.seat}, x=<redacted>)"

    @classmethod
    def generate(cls, game_id: bytes, seat: int, source: RandomSource | None = None) -> SecretKey:
        """A fresh key from ``source`` (default: the OS CSPRNG)."""
        while True:
            x = int.from_bytes(fresh_bytes(source, EXPONENT_BYTES), "big")
            if x:
                return cls(game_id, seat, x)

    def to_wire(self) -> list[object]:
        return [self.game_id, self.seat, secret_exponent_to_bytes(self.x)]

    @classmethod
    def from_wire(cls, data: object) -> SecretKey:
        game_id, seat, x = expect_list(data, "secret key", 3)
        return cls(
            expect_game_id(game_id),
            expect_seat(seat),
            expect_secret_exponent(x, "secret exponent"),
        )


def proof_nonce(secret: SecretKey, source: RandomSource | None, *statement: Field) -> int:
    """A 512-bit proof nonce, hedged: HMAC of the secret, the statement and fresh bytes.

    A repeated nonce would reveal ``x`` from two proofs; deriving it from the
    secret and the exact statement keeps it unique even if the random source
    is broken, and the fresh bytes keep it unpredictable if it is not.
    """
    drbg = Drbg(
        secret_exponent_to_bytes(secret.x),
        DOMAIN_NONCE,
        secret.game_id,
        secret.seat,
        *statement,
        fresh_bytes(source, 32),
    )
    return drbg.integer("nonce", 0, NONCE_BITS)


def _key_challenge(game_id: bytes, seat: int, y: int, t: int, domain: bytes = DOMAIN_KEY_PROOF) -> int:
    return challenge(domain, game_id, seat, element_to_bytes(G), element_to_bytes(y), element_to_bytes(t))


@dataclass(frozen=True, slots=True)
class KeyAnnouncement:
    """A public key with its proof of knowledge.

    Wire: ``[seat, y(256 bytes), t(256 bytes), s(65 bytes)]``.
    """

    seat: int
    public_key: int
    commitment: int
    response: int

    def __post_init__(self) -> None:
        expect_seat(self.seat)
        check_element(self.public_key, "public key")
        check_element(self.commitment, "key proof commitment")
        if type(self.response) is not int or not 0 <= self.response < 2 ** (8 * RESPONSE_BYTES):
            raise MalformedWire("key proof response out of range")

    def to_wire(self) -> list[object]:
        return [
            self.seat,
            element_to_bytes(self.public_key),
            element_to_bytes(self.commitment),
            self.response.to_bytes(RESPONSE_BYTES, "big"),
        ]

    @classmethod
    def from_wire(cls, data: object) -> KeyAnnouncement:
        seat, y, t, s = expect_list(data, "key announcement", 4)
        return cls(
            expect_seat(seat),
            expect_element(y, "public key"),
            expect_element(t, "key proof commitment"),
            expect_uint_bytes(s, "key proof response", RESPONSE_BYTES),
        )

    def verify(self, game_id: bytes, domain: bytes = DOMAIN_KEY_PROOF) -> None:
        """Raise :class:`InvalidKeyProof` unless the proof holds for this game
        and seat (and purpose: ``domain``, the deck key's unless said)."""
        c = _key_challenge(expect_game_id(game_id), self.seat, self.public_key, self.commitment, domain)
        expected = canonical(self.commitment * exp(self.public_key, c) % P)
        if generator_table().pow(self.response) != expected:
            raise InvalidKeyProof(
                f"seat {self.seat}: the public key has no valid proof of knowledge "
                "for this game and seat",
                seat=self.seat,
            )


def announce_key(secret: SecretKey, source: RandomSource | None = None,
                 domain: bytes = DOMAIN_KEY_PROOF) -> KeyAnnouncement:
    """The announcement of ``secret``'s public key with a fresh proof (for
    the purpose ``domain``: the deck key's unless said; escrow.py announces
    a seal key with its own, so that neither proof stands for the other)."""
    y = secret.public_key
    # (the deck key's nonce statement is as it always was: seeded games replay)
    purpose: tuple[Field, ...] = () if domain == DOMAIN_KEY_PROOF else (domain,)
    w = proof_nonce(secret, source, "key", element_to_bytes(y), *purpose)
    t = g_pow(w)
    c = _key_challenge(secret.game_id, secret.seat, y, t, domain)
    return KeyAnnouncement(secret.seat, y, t, w + c * secret.x)


@dataclass(frozen=True, eq=False)
class JointKey:
    """The game's public keys by seat (``0..n-1``) and the joint key ``Y``.

    Build it with :meth:`from_announcements`, which verifies every proof.
    Constructing it directly trusts the keys (the audit does, to keep going
    after reporting a bad proof). Holds the lazily built fixed-base table of
    ``Y`` used by every shuffle.
    """

    game_id: bytes
    public_keys: tuple[int, ...]
    element: int = field(init=False)
    _tables: dict[str, FixedBaseTable] = field(
        init=False, default_factory=dict, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        expect_game_id(self.game_id)
        if not 1 <= len(self.public_keys) <= MAX_SEATS:
            raise DeckUsageError(f"a game has 1..{MAX_SEATS} seats, not {len(self.public_keys)}")
        joint = 1
        for seat, y in enumerate(self.public_keys):
            joint = joint * check_element(y, f"public key of seat {seat}") % P
        object.__setattr__(self, "element", check_element(canonical(joint), "joint key"))

    @classmethod
    def from_announcements(
        cls, game_id: bytes, announcements: Iterable[KeyAnnouncement]
    ) -> JointKey:
        """Verify each announcement and combine; seats must be exactly ``0..n-1``."""
        by_seat: dict[int, KeyAnnouncement] = {}
        for announcement in announcements:
            if announcement.seat in by_seat:
                raise DeckUsageError(f"seat {announcement.seat} announced two keys")
            announcement.verify(game_id)
            by_seat[announcement.seat] = announcement
        if sorted(by_seat) != list(range(len(by_seat))):
            raise DeckUsageError(f"seats must be 0..n-1, got {sorted(by_seat)}")
        return cls(game_id, tuple(by_seat[seat].public_key for seat in range(len(by_seat))))

    @property
    def seats(self) -> int:
        return len(self.public_keys)

    def public_key(self, seat: int) -> int:
        """``y_seat``; raises :class:`DeckUsageError` for a seat not in the game."""
        if type(seat) is not int or not 0 <= seat < len(self.public_keys):
            raise DeckUsageError(f"there is no seat {seat!r} in this game")
        return self.public_keys[seat]

    def table(self) -> FixedBaseTable:
        """The fixed-base table of ``Y`` for the current backend (built on first use)."""
        backend = current_backend()
        table = self._tables.get(backend.name)
        if table is None:
            table = self._tables[backend.name] = FixedBaseTable(self.element, backend=backend)
        return table
