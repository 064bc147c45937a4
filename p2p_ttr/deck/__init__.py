"""Mental-poker deck: hidden, fair, auditable cards with no trusted dealer.

Barnett-Smart style ElGamal over the quadratic residues of the RFC 3526
2048-bit safe prime (see :mod:`.group` for the element encoding). Pure
functions over ints and bytes: no sockets, no game rules, no ``random``;
secrets come from a caller-supplied source (default :mod:`secrets`).

Protocol flow for a game ``game_id`` with seats ``0..n-1``:

1. Setup. Each seat makes ``SecretKey.generate`` and ``Seed.generate`` and
   publishes ``announce_key(secret)`` and ``commit_seed(game_id, seat, seed)``.
   Everyone builds ``JointKey.from_announcements`` (verifies every proof).
2. Deck epoch. Everyone computes ``create_deck(deck, epoch, cards)``; then
   seats 0, 1, ..., n-1 in turn publish ``shuffle_step(...)`` on the previous
   output (the first step takes ``creation.ciphertexts()``). The last output
   is the epoch's fixed list; cards are ``EpochPosition(deck, epoch, position)``,
   drawn in a separate order (``initial_order``, ``draw_from_top``,
   ``move_to_bottom``).
3. Private draw of ``ref`` by seat P: every other seat publishes
   ``make_share(secret, ref, ct)``; P calls ``open_private`` (verifies them in
   one batch and adds its own unpublished share).
4. Public reveal: every seat publishes its share; ``open_public``.
5. Playing a card from hand: the owner publishes ``make_share`` for its
   position; anyone calls ``open_played_card`` with the shares of the draw.
6. Reshuffling discards: ``create_deck(deck, epoch + 1, discards)`` and the
   same chain. Returning cards under a deck (unkept tickets):
   ``RemaskCreation(deck, new_epoch, refs)`` and each seat in turn publishes
   ``remask_step(...)`` (re-randomised, same order), so the shares already
   published for the old ciphertexts open nothing. Shuffling earlier cards
   together (the set-up's returned tickets): ``MixCreation(deck, new_epoch,
   refs)`` and the same chain of ``shuffle_step(...)`` on their ciphertexts.
   Every step comes with its proof, ``prove_shuffle`` / ``prove_remask``
   (made from the seed; the next seat need not wait for it), and everyone
   checks every proof (``verify_shuffles`` batches a chain's) before any
   card of the epoch is used.
7. After the game each seat publishes ``SecretReveal.of(secret, seed)``;
   ``audit(Transcript(game_id, records))`` re-executes everything and names
   the seat behind every deviation.

Escrow (opt-in; the table's ``escrow`` messages): ``deal_escrow`` splits a
seat's key (``deal_exponent`` any exponent, such as its seed) among all the
other seats with Feldman commitments, each share sealed to its recipient's
seal key (``announce_seal_key`` / ``check_seal_key``: a key of its own,
never revealed); ``open_escrow_share`` / ``escrow_complaint`` / ``escrow_dealer_cheated`` /
``check_escrow_share`` / ``reconstruct_key`` (see :mod:`.escrow`).

Every public record has ``to_wire()`` (plain lists of ints, bytes and str,
ready for msgpack) and a strict ``from_wire()`` that raises only
:class:`InvalidInput` subclasses. Speed: fixed-base tables for ``G`` and
``Y``, batch share verification, optional gmpy2 backend (``P2P_TTR_POWMOD``).
"""

from .audit import (
    AuditReport,
    DeckCheck,
    Deviation,
    KeyCheck,
    OpeningCheck,
    Precomputed,
    RevealCheck,
    ShareCheck,
    ShuffleCheck,
    audit,
)
from .backend import current_backend, gmpy2_available, set_backend
from .commit import Seed, SeedCommitment, check_seed, commit_seed
from .deckorder import EpochPosition, draw_from_top, initial_order, move_to_bottom
from .drbg import RandomSource
from .elgamal import Ciphertext, DeckCreation, create_deck, decrypt_with_exponent, decrypt_with_shares
from .encoding import CardCodec, card_element
from .errors import (
    BackendUnavailable,
    BadEscrow,
    CommitmentMismatch,
    DeckError,
    DeckUsageError,
    InvalidChainProof,
    InvalidElement,
    InvalidInput,
    InvalidKeyProof,
    InvalidShareProof,
    MalformedWire,
    NotACard,
    VerificationError,
)
from .escrow import (
    announce_seal_key,
    check_seal_key,
    Complaint,
    EscrowDeal,
    SealedShare,
    check_escrow_share,
    deal_escrow,
    deal_exponent,
    escrow_complaint,
    escrow_dealer_cheated,
    escrow_image,
    open_escrow_share,
    reconstruct_key,
)
from .fixedbase import g_pow
from .group import G, P, Q, check_element, element_from_residue
from .keys import JointKey, KeyAnnouncement, SecretKey, announce_key
from .remask import MixCreation, RemaskCreation, RemaskStep, remask_step
from .remaskproof import RemaskProof, prove_remask, verify_remask
from .shares import (
    DecryptionShare,
    make_share,
    open_played_card,
    open_private,
    open_public,
    own_share,
    verify_share,
    verify_shares,
)
from .shuffle import ShuffleStep, shuffle_permutation, shuffle_step
from .shuffleproof import ShuffleProof, generators, prove_shuffle, verify_shuffle, verify_shuffles
from .transcript import CardOpening, Record, SecretReveal, Transcript, record_from_wire, record_to_wire
from .wire import expect_bytes, expect_int, expect_list

__all__ = [
    "generators",
    "announce_key",
    "announce_seal_key",
    "check_seal_key",
    "audit",
    "AuditReport",
    "BackendUnavailable",
    "BadEscrow",
    "card_element",
    "CardCodec",
    "CardOpening",
    "check_element",
    "check_seed",
    "Ciphertext",
    "commit_seed",
    "CommitmentMismatch",
    "Complaint",
    "create_deck",
    "current_backend",
    "deal_escrow",
    "deal_exponent",
    "DeckCheck",
    "DeckCreation",
    "DeckError",
    "DeckUsageError",
    "decrypt_with_exponent",
    "decrypt_with_shares",
    "DecryptionShare",
    "Deviation",
    "draw_from_top",
    "element_from_residue",
    "escrow_complaint",
    "escrow_image",
    "check_escrow_share",
    "escrow_dealer_cheated",
    "EscrowDeal",
    "EpochPosition",
    "expect_bytes",
    "expect_int",
    "expect_list",
    "G",
    "g_pow",
    "gmpy2_available",
    "initial_order",
    "InvalidChainProof",
    "InvalidElement",
    "InvalidInput",
    "InvalidKeyProof",
    "InvalidShareProof",
    "JointKey",
    "KeyAnnouncement",
    "KeyCheck",
    "make_share",
    "MalformedWire",
    "MixCreation",
    "move_to_bottom",
    "NotACard",
    "open_escrow_share",
    "open_played_card",
    "open_private",
    "open_public",
    "OpeningCheck",
    "Precomputed",
    "own_share",
    "P",
    "prove_remask",
    "prove_shuffle",
    "Q",
    "RandomSource",
    "reconstruct_key",
    "Record",
    "record_from_wire",
    "record_to_wire",
    "remask_step",
    "RemaskCreation",
    "RemaskProof",
    "RemaskStep",
    "RevealCheck",
    "SealedShare",
    "SecretKey",
    "SecretReveal",
    "Seed",
    "SeedCommitment",
    "set_backend",
    "ShareCheck",
    "shuffle_permutation",
    "shuffle_step",
    "ShuffleCheck",
    "ShuffleProof",
    "ShuffleStep",
    "Transcript",
    "VerificationError",
    "verify_remask",
    "verify_share",
    "verify_shares",
    "verify_shuffle",
    "verify_shuffles",
]
