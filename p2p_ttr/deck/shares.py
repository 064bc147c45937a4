"""Decryption shares, their proofs, and opening cards.

Seat j's share of the card at ``ref`` with ciphertext ``(a, b)`` is
``d_j = a^x_j``. It comes with a Chaum-Pedersen proof that
``log_G y_j = log_a d_j`` bound, by Fiat-Shamir, to (domain, game id, seat,
deck, epoch, position, G, y_j, a, d_j, t1, t2): a share or proof replayed at
another position, in another game or by another seat fails.

* **Private draw** (:func:`open_private`): every other seat publishes its
  share; the drawer verifies them, adds its own ``a^x`` (never published) and
  looks ``b / prod d`` up. The others' shares alone leave the drawer's
  ``a^x`` missing, so nobody else learns the card.
* **Public reveal** (:func:`open_public`): every seat publishes its share.
* **Playing a card from hand** (:func:`open_played_card`): the owner
  publishes its own share for that position (:func:`make_share`); together
  with the shares published at the draw, anyone can open it, and the proof
  shows the card was the one dealt to that position.

Proof form and why. The proof is ``(t1, t2, s)`` with ``t1 = G^w``,
``t2 = a^w``, ``c`` the 128-bit challenge and ``s = w + c*x`` over the
integers, ``w`` uniform in ``[0, 2^512)`` (statistically hiding ``c*x``, see
:mod:`.keys`). The verifier checks ``G^s = t1 y^c`` and ``a^s = t2 d^c``.
Sending ``t1, t2`` rather than ``c`` costs 256 bytes more but lets
:func:`verify_shares` check many shares at once: with fresh random 64-bit
weights ``rho_i, sigma_i`` (the small-exponents test of Bellare, Garay and
Rabin; a false batch passes with probability <= 2^-64, because every value is
in the prime-order group -- the encoding guarantees it) it checks::

    G^(sum rho_i s_i) == prod t1_i^rho_i t2_i^sigma_i d_i^(sigma_i c_i)
                         * prod_j y_j^(sum rho_i c_i) * prod_a (1/a)^(sum sigma_i s_i)

that is one fixed-base exponentiation and one multi-exponentiation whose
single squaring chain (~580 bits, set by the ``a`` term) serves every term,
instead of two ~520-bit chains per share. Shares of one position share the
base ``a`` and shares of one seat share ``y_j``, so their exponents are
summed first. No per-player table for ``y_j``: inside the shared chain a
``y_j`` term costs ~45 products, a table would cost thousands to build and
save ~20 per share. On failure each share is checked alone to name the seat.
The prover computes ``a^x`` and ``a^w`` from one squaring chain (Yao's
method) and ``G^w`` from the generator table.

Cost, pure Python, counting a squaring as 0.8 of a 2048-bit product (~10 us):
making a share ~720 products (512 squarings + 240 for Yao + 64 for ``G^w``);
verifying the 4 shares of a 5-player private draw ~1200 (580 squarings, ~630
products in the chain, ~70 for ``G^E``, one inversion); the drawer's own
share ~260. The 512-bit nonce sets both chains: it is the price of 128-bit
challenges with 128 bits of statistical hiding over 256-bit exponents.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .deckorder import EpochPosition
from .drbg import RandomSource, fresh_bytes
from .elgamal import Ciphertext, decrypt_with_shares
from .encoding import CardCodec
from .errors import DeckUsageError, InvalidShareProof, MalformedWire
from .fixedbase import g_pow, generator_table, multi_exp, powers_of_one_base
from .group import (
    G,
    P,
    RESPONSE_BYTES,
    canonical,
    check_element,
    element_to_bytes,
    exp,
    inverse,
)
from .hashing import DOMAIN_SHARE_PROOF, challenge
from .keys import JointKey, SecretKey, proof_nonce
from .wire import (
    expect_deck_name,
    expect_element,
    expect_epoch,
    expect_index,
    expect_list,
    expect_seat,
    expect_uint_bytes,
)

WEIGHT_BITS = 64
"""Random weights of the batch test: a false batch passes with probability <= 2^-64."""


@dataclass(frozen=True, slots=True)
class DecryptionShare:
    """Seat's share ``a^x`` of the card at ``ref``, with its proof ``(t1, t2, s)``.

    Wire: ``[deck, epoch, position, seat, share(256), t1(256), t2(256), s(65)]``.
    """

    ref: EpochPosition
    seat: int
    share: int
    t1: int
    t2: int
    response: int

    def __post_init__(self) -> None:
        if type(self.ref) is not EpochPosition:
            raise MalformedWire("share reference must be a EpochPosition")
        expect_seat(self.seat)
        check_element(self.share, "share")
        check_element(self.t1, "share proof t1")
        check_element(self.t2, "share proof t2")
        if type(self.response) is not int or not 0 <= self.response < 2 ** (8 * RESPONSE_BYTES):
            raise MalformedWire("share proof response out of range")

    def to_wire(self) -> list[object]:
        return [
            self.ref.deck,
            self.ref.epoch,
            self.ref.position,
            self.seat,
            element_to_bytes(self.share),
            element_to_bytes(self.t1),
            element_to_bytes(self.t2),
            self.response.to_bytes(RESPONSE_BYTES, "big"),
        ]

    @classmethod
    def from_wire(cls, data: object) -> DecryptionShare:
        deck, epoch, position, seat, share, t1, t2, s = expect_list(data, "decryption share", 8)
        return cls(
            EpochPosition(expect_deck_name(deck), expect_epoch(epoch), expect_index(position, "position")),
            expect_seat(seat),
            expect_element(share, "share"),
            expect_element(t1, "share proof t1"),
            expect_element(t2, "share proof t2"),
            expect_uint_bytes(s, "share proof response", RESPONSE_BYTES),
        )

    def __repr__(self) -> str:
        return f"DecryptionShare(ref={self.ref}, seat={self.seat}, share={self.share:#x}...)"


def _challenge(game_id: bytes, share: DecryptionShare, y: int, a: int) -> int:
    ref = share.ref
    return challenge(
        DOMAIN_SHARE_PROOF,
        game_id,
        share.seat,
        ref.deck,
        ref.epoch,
        ref.position,
        element_to_bytes(G),
        element_to_bytes(y),
        element_to_bytes(a),
        element_to_bytes(share.share),
        element_to_bytes(share.t1),
        element_to_bytes(share.t2),
    )


def make_share(
    secret: SecretKey, ref: EpochPosition, ciphertext: Ciphertext, source: RandomSource | None = None
) -> DecryptionShare:
    """Seat ``secret.seat``'s share of the card at ``ref``, with its proof.

    Also the proof that a card played from hand is the one at ``ref``.
    """
    a = check_element(ciphertext[0], "ciphertext a")
    w = proof_nonce(secret, source, "share", ref.deck, ref.epoch, ref.position, element_to_bytes(a))
    d, t2 = powers_of_one_base(a, (secret.x, w))
    unproven = DecryptionShare(ref, secret.seat, d, g_pow(w), t2, 0)
    c = _challenge(secret.game_id, unproven, secret.public_key, a)
    return DecryptionShare(ref, secret.seat, d, unproven.t1, t2, w + c * secret.x)


def own_share(secret: SecretKey, ciphertext: Ciphertext) -> int:
    """The drawer's own ``a^x``, which it uses and never publishes."""
    return exp(check_element(ciphertext[0], "ciphertext a"), secret.x)


def _verify_one(share: DecryptionShare, y: int, a: int, c: int) -> None:
    """The two Chaum-Pedersen equations, checked exactly (no weights)."""
    g_side = generator_table().pow(share.response) == canonical(share.t1 * exp(y, c) % P)
    a_side = exp(a, share.response) == canonical(share.t2 * exp(share.share, c) % P)
    if not (g_side and a_side):
        raise InvalidShareProof(
            f"seat {share.seat}: the share for {share.ref} does not match its key",
            seat=share.seat,
        )


def verify_shares(
    joint: JointKey,
    items: Iterable[tuple[DecryptionShare, Ciphertext]],
    source: RandomSource | None = None,
) -> None:
    """Check each share against its seat's key and its ciphertext, in one batch.

    ``items`` pairs each share with the ciphertext at ``share.ref``. Raises
    :class:`InvalidShareProof` naming the first seat whose share is wrong.
    ``source`` supplies the batch weights (default: the OS CSPRNG); they
    must be unpredictable to whoever made the shares.
    """
    prepared = []
    for share, ciphertext in items:
        y = joint.public_key(share.seat)
        a = check_element(ciphertext[0], "ciphertext a")
        prepared.append((share, y, a, _challenge(joint.game_id, share, y, a)))
    if not prepared:
        return
    weight_bytes = WEIGHT_BITS // 8
    weights = fresh_bytes(source, weight_bytes * (2 * len(prepared) - 1))
    # The first share's g-equation gets weight 1: a false equation with
    # weight 1 alone cannot cancel, so soundness stays 2^-64.
    rho_sigma = [1] + [
        int.from_bytes(weights[i : i + weight_bytes], "big")
        for i in range(0, len(weights), weight_bytes)
    ]
    g_exponent = 0
    a_exponents: dict[int, int] = {}
    y_exponents: dict[int, int] = {}
    terms: list[tuple[int, int]] = []
    for k, (share, y, a, c) in enumerate(prepared):
        rho, sigma = rho_sigma[2 * k], rho_sigma[2 * k + 1]
        g_exponent += rho * share.response
        a_exponents[a] = a_exponents.get(a, 0) + sigma * share.response
        y_exponents[y] = y_exponents.get(y, 0) + rho * c
        terms += [(share.t1, rho), (share.t2, sigma), (share.share, sigma * c)]
    terms += y_exponents.items()
    # G^E_g * prod a^E_a == rhs  <=>  G^E_g == rhs * prod (1/a)^E_a: one
    # multi-exponentiation, whose single squaring chain (the ~580 bits of
    # E_a) also serves every shorter right-hand-side exponent.
    terms += ((inverse(a), exponent) for a, exponent in a_exponents.items())
    if generator_table().pow(g_exponent) == multi_exp(terms):
        return
    for entry in prepared:
        _verify_one(*entry)
    raise AssertionError("a batch failed although every share verifies alone")


def verify_share(joint: JointKey, share: DecryptionShare, ciphertext: Ciphertext) -> None:
    """Check one share (see :func:`verify_shares`)."""
    verify_shares(joint, [(share, ciphertext)])


def _shares_by_seat(
    joint: JointKey, ref: EpochPosition, shares: Iterable[DecryptionShare], seats: Iterable[int]
) -> list[DecryptionShare]:
    """The shares of exactly ``seats`` for ``ref``, in seat order."""
    by_seat: dict[int, DecryptionShare] = {}
    for share in shares:
        if share.ref != ref:
            raise InvalidShareProof(
                f"seat {share.seat}: share is for {share.ref}, not {ref}", seat=share.seat
            )
        if share.seat in by_seat:
            raise DeckUsageError(f"two shares from seat {share.seat} for {ref}")
        joint.public_key(share.seat)
        by_seat[share.seat] = share
    wanted = sorted(seats)
    if sorted(by_seat) != wanted:
        raise DeckUsageError(f"{ref} needs shares from seats {wanted}, got {sorted(by_seat)}")
    return [by_seat[seat] for seat in wanted]


def open_private(
    joint: JointKey,
    secret: SecretKey,
    ref: EpochPosition,
    ciphertext: Ciphertext,
    shares: Iterable[DecryptionShare],
    codec: CardCodec,
    source: RandomSource | None = None,
    own: int | None = None,
) -> int:
    """The card at ``ref``, for its drawer: verify the others' shares, add our own.

    ``shares`` must be exactly one per other seat. ``own`` is the drawer's
    :func:`own_share` if it was computed ahead of time (it depends only on
    the final deck, so a peer can prepare it, like its shares for the next
    positions of the drawing order, while nobody is drawing).
    """
    if secret.game_id != joint.game_id or joint.public_key(secret.seat) != secret.public_key:
        raise DeckUsageError(f"the secret key is not seat {secret.seat}'s key in this game")
    others = _shares_by_seat(
        joint, ref, shares, (seat for seat in range(joint.seats) if seat != secret.seat)
    )
    verify_shares(joint, [(share, ciphertext) for share in others], source)
    if own is None:
        own = own_share(secret, ciphertext)
    values = [own] + [share.share for share in others]
    return codec.card(decrypt_with_shares(ciphertext, values))


def open_public(
    joint: JointKey,
    ref: EpochPosition,
    ciphertext: Ciphertext,
    shares: Iterable[DecryptionShare],
    codec: CardCodec,
    source: RandomSource | None = None,
) -> int:
    """The card at ``ref`` from every seat's share (all verified here)."""
    everyone = _shares_by_seat(joint, ref, shares, range(joint.seats))
    verify_shares(joint, [(share, ciphertext) for share in everyone], source)
    return codec.card(decrypt_with_shares(ciphertext, [share.share for share in everyone]))


def open_played_card(
    joint: JointKey,
    ref: EpochPosition,
    ciphertext: Ciphertext,
    owner_share: DecryptionShare,
    draw_shares: Sequence[DecryptionShare],
    codec: CardCodec,
) -> int:
    """The card its owner plays from hand: verify the owner's share, then open.

    ``draw_shares`` are the other seats' shares published (and verified by
    every peer as they arrived) when the owner drew the card at ``ref``.
    """
    everyone = _shares_by_seat(joint, ref, [owner_share, *draw_shares], range(joint.seats))
    verify_share(joint, owner_share, ciphertext)
    return codec.card(decrypt_with_shares(ciphertext, [share.share for share in everyone]))
