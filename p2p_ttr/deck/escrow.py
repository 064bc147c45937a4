"""Escrow of a seat's secret key among the other seats (opt-in; issue #15).

A seat that may vanish for good can deal its secret exponent ``x`` to the
others so that *all of them together*, and no fewer, can rebuild it and play
the seat on. With that threshold (every other seat), Feldman's verifiable
secret sharing is an additive split:

    x = s_1 + ... + s_m  (mod Q),   C_j = G^s_j,   C_1 * ... * C_m = Y = G^x

Anyone checks the product against the dealer's public key, so the shares
together are the key; each recipient checks its own share against its
commitment. A share travels sealed to its recipient's **seal key**
``E_j = G^e_j``: an ephemeral Diffie-Hellman ``R = G^r``, ``K = E_j^r``, and
AES-256-GCM under a key hashed from ``K`` and the deal's context (game,
dealer, recipient, ``C_j``).

The seal key is a key of its own, announced with its own proof of knowledge
(``announce_seal_key``: bound to game, seat and purpose) and never revealed:
not when its seat forfeits or is carried on (the deck key ``x_j`` then
becomes public), not at the audit. So a seat that leaves takes the shares it
held with it: nobody, and no group short of every seat a secret was dealt
to, ever reads another seat's share. Its price: once any seat has left, no
seat can be carried on any more (its share of each secret is gone).

A recipient whose share does not open, or opens to something that is not
``C_j``'s exponent, publishes a **complaint**: ``K = R^e_j`` with a proof that
it used its own seal key (log_G E_j = log_R K). Anyone can then open the sealed
share with ``K`` and see the dealer cheated; a false complaint is caught by
its proof or because the share opens fine. Reconstruction checks every share
against its commitment and the sum against the dealer's key, so a false
share handed over at the end is named too.

What it costs a player: all the other players together could read that
player's hand. That is why it is opt-in.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from .drbg import RandomSource, fresh_bytes
from .errors import BadEscrow, MalformedWire
from .group import ELEMENT_BYTES, IDENTITY, G, Q, check_element, element_to_bytes, exp, mul
from .hashing import DOMAIN_ESCROW_KEY, DOMAIN_ESCROW_PROOF, DOMAIN_SEAL_KEY_PROOF, challenge, encode_fields
from .keys import KeyAnnouncement, SecretKey, announce_key, proof_nonce
from .wire import expect_bytes, expect_game_id, expect_list, expect_seat, expect_uint_bytes

SHARE_BYTES = ELEMENT_BYTES  # a share is an exponent mod Q, written like an element
_SEALED_BYTES = SHARE_BYTES + 16  # AES-GCM adds its 16-byte tag
# One share per other seat of the largest table a game has (Old West's 6).
MAX_ESCROW_SHARES = 5
_NONCE = b"\0" * 12  # each key seals one share only: R is fresh for every share
_EXPANDED_BYTES = ELEMENT_BYTES + 16  # 2048 + 128 bits reduced mod Q: bias ~2^-128
_RESPONSE_BYTES = 280  # a complaint's response w + c*x: under 2^2177 for any key below Q


@dataclass(frozen=True)
class SealedShare:
    """One recipient's share: its public commitment, and the share sealed to it."""

    recipient: int
    commitment: int  # C_j = G^s_j
    ephemeral: int  # R = G^r
    sealed: bytes  # AES-256-GCM of s_j

    def to_wire(self) -> list[object]:
        return [self.recipient, element_to_bytes(self.commitment), element_to_bytes(self.ephemeral), self.sealed]

    @classmethod
    def from_wire(cls, data: object) -> SealedShare:
        recipient, commitment, ephemeral, sealed = expect_list(data, "sealed share", 4)
        return cls(expect_seat(recipient, "recipient"), _element(commitment, "commitment"),
                   _element(ephemeral, "ephemeral key"), expect_bytes(sealed, "sealed share", _SEALED_BYTES))


@dataclass(frozen=True)
class EscrowDeal:
    """A seat's secret key dealt to every other seat."""

    game_id: bytes
    dealer: int
    shares: tuple[SealedShare, ...]  # by recipient seat, ascending

    def check(self, dealer_key: int, recipients: Mapping[int, int]) -> None:
        """Check the deal in public: one share for every seat of ``recipients``
        (seat -> public key) but the dealer, and the commitments make the
        dealer's key.

        Raises:
            BadEscrow: they do not.
        """
        seats = tuple(s.recipient for s in self.shares)
        wanted = tuple(sorted(s for s in recipients if s != self.dealer))
        if seats != wanted:
            raise BadEscrow(f"seat {self.dealer}'s escrow deals to seats {list(seats)}, not {list(wanted)}")
        product = IDENTITY
        for share in self.shares:
            product = mul(product, share.commitment)
        if product != dealer_key:
            raise BadEscrow(f"seat {self.dealer}'s escrow commitments do not make its key")

    def share_for(self, recipient: int) -> SealedShare:
        for share in self.shares:
            if share.recipient == recipient:
                return share
        raise BadEscrow(f"seat {self.dealer}'s escrow has no share for seat {recipient}")

    def to_wire(self) -> list[object]:
        return [self.game_id, self.dealer, [s.to_wire() for s in self.shares]]

    @classmethod
    def from_wire(cls, data: object) -> EscrowDeal:
        game_id, dealer, shares = expect_list(data, "escrow deal", 3)
        items = expect_list(shares, "escrow shares")
        if not 1 <= len(items) <= MAX_ESCROW_SHARES:
            raise MalformedWire(f"an escrow deals 1 to {MAX_ESCROW_SHARES} shares")
        return cls(expect_game_id(game_id), expect_seat(dealer, "dealer"),
                   tuple(SealedShare.from_wire(s) for s in items))


@dataclass(frozen=True)
class Complaint:
    """A recipient shows the key its share was sealed with, and proves it is
    its own: log_G(its public key) = log_R(key)."""

    dealer: int
    recipient: int
    key: int  # K = R^e_recipient (its seal key's secret)
    challenge: int
    response: int

    def to_wire(self) -> list[object]:
        return [self.dealer, self.recipient, element_to_bytes(self.key), self.challenge.to_bytes(16, "big"),
                self.response.to_bytes(_RESPONSE_BYTES, "big")]

    @classmethod
    def from_wire(cls, data: object) -> Complaint:
        dealer, recipient, key, c, z = expect_list(data, "escrow complaint", 5)
        return cls(expect_seat(dealer, "dealer"), expect_seat(recipient, "recipient"), _element(key, "key"),
                   expect_uint_bytes(c, "challenge", 16), expect_uint_bytes(z, "response", _RESPONSE_BYTES))


def announce_seal_key(secret: SecretKey, source: RandomSource | None = None) -> KeyAnnouncement:
    """The announcement of a seat's seal key ``E = G^e`` with its proof of
    knowledge, bound to the game, the seat and this purpose (a deck key's
    proof does not stand for it, nor the other way round)."""
    return announce_key(secret, source, DOMAIN_SEAL_KEY_PROOF)


def check_seal_key(announcement: KeyAnnouncement, game_id: bytes) -> None:
    """Raise :class:`InvalidKeyProof` unless ``announcement`` proves its seal key for this game and seat."""
    announcement.verify(game_id, DOMAIN_SEAL_KEY_PROOF)


def deal_escrow(secret: SecretKey, recipients: Mapping[int, int], source: RandomSource | None = None) -> EscrowDeal:
    """Split ``secret`` among every seat of ``recipients`` (seat -> seal
    key) but its own, each share sealed to its recipient."""
    return deal_exponent(secret.game_id, secret.seat, secret.x, recipients, source)


def deal_exponent(game_id: bytes, dealer: int, exponent: int, recipients: Mapping[int, int],
                  source: RandomSource | None = None) -> EscrowDeal:
    """Split any exponent ``0 <= exponent < Q`` (a secret key, or a shuffle
    seed read as an integer) among every seat of ``recipients`` but the
    dealer's: the commitments then multiply to ``G^exponent``, the image the
    dealer publishes beside the deal (for a key, its public key)."""
    if not 0 <= exponent < Q:
        raise BadEscrow("an escrowed exponent lies in [0, Q)")
    seats = sorted(s for s in recipients if s != dealer)
    if not seats:
        raise BadEscrow("an escrow needs at least one other seat")
    parts = [_random_exponent(source) for _ in seats[1:]]
    parts.insert(0, (exponent - sum(parts)) % Q)
    shares = []
    for seat, part in zip(seats, parts):
        commitment = _g(part)
        r = _random_exponent(source) or 1
        ephemeral = _g(r)
        key = exp(recipients[seat], r)
        box = AESGCM(_seal_key(game_id, dealer, seat, ephemeral, key))
        sealed = box.encrypt(_NONCE, part.to_bytes(SHARE_BYTES, "big"), _context(game_id, dealer, seat, commitment))
        shares.append(SealedShare(seat, commitment, ephemeral, sealed))
    return EscrowDeal(game_id, dealer, tuple(shares))


def escrow_image(exponent: int) -> int:
    """``G^exponent``: what a deal of ``exponent`` must multiply to."""
    return _g(exponent)


def check_escrow_share(deal: EscrowDeal, recipient: int, part: int) -> bool:
    """Whether ``part``, handed over in the clear, is ``recipient``'s share of
    the deal (the exponent of its commitment)."""
    return 0 <= part < Q and _g(part) == deal.share_for(recipient).commitment


def open_escrow_share(deal: EscrowDeal, me: SecretKey) -> int:
    """This seat's share of the deal (``me``: its seal key), checked against its commitment.

    Raises:
        BadEscrow: it does not open, or opens to another exponent (then
            publish ``escrow_complaint``).
    """
    share = deal.share_for(me.seat)
    return _unseal(deal, share, exp(share.ephemeral, me.x))


def escrow_complaint(deal: EscrowDeal, me: SecretKey, source: RandomSource | None = None) -> Complaint:
    """The complaint that shows the dealer sealed this seat a false share (``me``: its seal key)."""
    share = deal.share_for(me.seat)
    key = exp(share.ephemeral, me.x)
    w = proof_nonce(me, source, DOMAIN_ESCROW_PROOF, deal.dealer, element_to_bytes(share.ephemeral))
    t1, t2 = _g(w), exp(share.ephemeral, w)
    c = _complaint_challenge(deal, me.seat, me.public_key, share.ephemeral, key, t1, t2)
    return Complaint(deal.dealer, me.seat, key, c, w + c * me.x)


def escrow_dealer_cheated(deal: EscrowDeal, complaint: Complaint, recipient_key: int) -> bool:
    """Judge a complaint in public (``recipient_key``: the complainer's seal
    key): True if the dealer sealed a false share, False if the complaint is
    false (its proof fails, or the share opens)."""
    if complaint.dealer != deal.dealer:
        return False
    share = deal.share_for(complaint.recipient)
    z, c = complaint.response, complaint.challenge
    t1 = mul(_g(z), exp(recipient_key, Q - c % Q))
    t2 = mul(exp(share.ephemeral, z), exp(complaint.key, Q - c % Q))
    if _complaint_challenge(deal, complaint.recipient, recipient_key, share.ephemeral, complaint.key, t1, t2) != c:
        return False
    try:
        _unseal(deal, share, complaint.key)
    except BadEscrow:
        return True
    return False


def reconstruct_key(deal: EscrowDeal, shares: Mapping[int, int], dealer_key: int) -> int:
    """The dealer's secret exponent from every recipient's share
    (``dealer_key``: its image, the public key for a key's deal).

    Raises:
        BadEscrow: a share is missing or is not its commitment's exponent
            (naming the seat that handed it over), or the sum is not the key.
    """
    x = 0
    for share in deal.shares:
        if share.recipient not in shares:
            raise BadEscrow(f"seat {share.recipient}'s share of seat {deal.dealer}'s key is missing")
        part = shares[share.recipient]
        if not 0 <= part < Q or _g(part) != share.commitment:
            raise BadEscrow(f"seat {share.recipient} handed over a false share of seat {deal.dealer}'s key")
        x = (x + part) % Q
    if x == 0 or _g(x) != dealer_key:
        raise BadEscrow(f"the shares of seat {deal.dealer}'s key do not make it")
    return x


def _unseal(deal: EscrowDeal, share: SealedShare, key: int) -> int:
    box = AESGCM(_seal_key(deal.game_id, deal.dealer, share.recipient, share.ephemeral, key))
    try:
        plain = box.decrypt(_NONCE, share.sealed, _context(deal.game_id, deal.dealer, share.recipient,
                                                           share.commitment))
    except InvalidTag:
        raise BadEscrow(f"seat {share.recipient}'s share of seat {deal.dealer}'s key does not open") from None
    part = int.from_bytes(plain, "big")
    if part >= Q or _g(part) != share.commitment:
        raise BadEscrow(f"seat {share.recipient}'s share of seat {deal.dealer}'s key is not its commitment's")
    return part


def _seal_key(game_id: bytes, dealer: int, recipient: int, ephemeral: int, key: int) -> bytes:
    return hashlib.sha256(encode_fields(DOMAIN_ESCROW_KEY, game_id, dealer, recipient,
                                        element_to_bytes(ephemeral), element_to_bytes(key))).digest()


def _context(game_id: bytes, dealer: int, recipient: int, commitment: int) -> bytes:
    return encode_fields(DOMAIN_ESCROW_KEY, game_id, dealer, recipient, element_to_bytes(commitment))


def _complaint_challenge(deal: EscrowDeal, recipient: int, y: int, ephemeral: int, key: int, t1: int,
                         t2: int) -> int:
    return challenge(DOMAIN_ESCROW_PROOF, deal.game_id, deal.dealer, recipient,
                     *(element_to_bytes(e) for e in (y, ephemeral, key, t1, t2)))


def _random_exponent(source: RandomSource | None) -> int:
    return int.from_bytes(fresh_bytes(source, _EXPANDED_BYTES), "big") % Q


def _element(value: object, what: str) -> int:
    return check_element(int.from_bytes(expect_bytes(value, what, ELEMENT_BYTES), "big"), what)


def _g(exponent: int) -> int:
    # Shares and ephemeral keys are full-size exponents: a plain power, not
    # the shared fixed-base table (sized for 256-bit secrets and proofs).
    return exp(G, exponent)
