"""Who sequences the log, and how the relay moves to another seat.

The relay (seat 0 at first) gives each entry its index and signs a receipt:

    receipt = Ed25519(relay identity) over
              msgpack [b"p2p_ttr/seq/v1", game_id, index, previous head, SHA-256(entry)]

When the relay leaves (forfeits, or goes silent), the next relay is the
lowest seat still in play other than it: every replica computes that from the
log alone. The new relay's first entry is a ``relay`` message (messages.py)
carrying the old relay's receipt of the last entry, so the new relay's log
continues the very past the old relay signed, and one *follow request* from
every other seat in play: each signed "in relay term TERM, I stop following
OLD; I follow NEW from the log of LENGTH entries ending at HEAD".

Each relay's time is a **term**: term 0 is seat 0's, and each hand-over
starts the next. A request counts only for the hand-over at exactly its
length, head and term: it is that seat's promise that the log it follows
ends there for that term (its peer signs nothing else for that term once
it promised). So a request cannot be kept and used later (at another
length), nor for another term, and without every seat in play, there is
no hand-over: two hand-overs out of one term would need a seat that
promised two different ends of it.

This module is pure: the statements and checks. The fold (table.py) applies
a hand-over; the network (net/) collects the requests.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from .envelope import HASH_BYTES, pack
from .errors import BadSignature, NotExpected
from .identity import Identity, signature_valid

SEQ_DOMAIN = b"p2p_ttr/seq/v1"
FOLLOW_DOMAIN = b"p2p_ttr/follow/v2"
EMPTY_HEAD = b"\0" * HASH_BYTES  # the previous head of the seating


def entry_hash(raw: bytes) -> bytes:
    return hashlib.sha256(raw).digest()


def receipt_statement(game_id: bytes, index: int, prev_head: bytes, raw: bytes) -> bytes:
    """What a relay signs for the entry ``raw`` at ``index`` after ``prev_head``."""
    return pack([SEQ_DOMAIN, game_id, index, prev_head, entry_hash(raw)])


def sign_receipt(relay: Identity, game_id: bytes, index: int, prev_head: bytes, raw: bytes) -> bytes:
    return relay.sign(receipt_statement(game_id, index, prev_head, raw))


def receipt_valid(relay_public: bytes, game_id: bytes, index: int, prev_head: bytes, raw: bytes,
                  signature: bytes) -> bool:
    return signature_valid(relay_public, signature, receipt_statement(game_id, index, prev_head, raw))


def follow_statement(game_id: bytes, term: int, old: int, new: int, length: int, head: bytes) -> bytes:
    """What a seat signs when it leaves relay ``old`` (of ``term``) for
    ``new``, holding ``length`` entries ending at ``head``."""
    return pack([FOLLOW_DOMAIN, game_id, term, old, new, length, head])


@dataclass(frozen=True, slots=True)
class FollowRequest:
    """A seat's signed word that it follows the new relay from its log of ``length`` entries."""

    seat: int
    length: int
    head: bytes  # the seat's log head after ``length`` entries
    signature: bytes

    def to_wire(self) -> list[object]:
        return [self.seat, self.length, self.head, self.signature]


def sign_follow(identity: Identity, seat: int, game_id: bytes, term: int, old: int, new: int, length: int,
                head: bytes) -> FollowRequest:
    return FollowRequest(seat, length, head,
                         identity.sign(follow_statement(game_id, term, old, new, length, head)))


def follow_valid(public: bytes, game_id: bytes, term: int, old: int, new: int, request: FollowRequest) -> bool:
    return signature_valid(public, request.signature,
                           follow_statement(game_id, term, old, new, request.length, request.head))


def check_handover(seat: int, old: int, receipt: bytes, requests: tuple[FollowRequest, ...], *, relay: int,
                   successor: int | None, movable: bool, in_play: tuple[int, ...], identities: list[bytes],
                   game_id: bytes, term: int, last: tuple[int, bytes, bytes], head: bytes) -> None:
    """Check that ``seat`` may take the relay over from ``old`` with this
    ``receipt`` and these ``requests`` (protocol.md §6, Relay): it is the
    successor, ``old`` is the relay and may be replaced (``movable``: an
    escrow game, or its seat left), the receipt is the relay's of the
    ``last`` entry (index, previous head, envelope), and every other seat in
    play follows ``seat`` from exactly this log (``head``) in this term.

    Raises:
        NotExpected, BadSignature: it does not hold.
    """
    if seat != successor:
        raise NotExpected(f"seat {seat} is not the next relay (that is seat {successor})")
    if old != relay:
        raise NotExpected(f"the relay is seat {relay}, not seat {old}")
    if not movable:
        # Without escrow a relay still in play is never replaced: its shares
        # open every card, so the game waits for it; and a seat that could
        # replace it at will could read a card, then rewrite the entries
        # after it with the old relay's receipt alone.
        raise NotExpected(f"the relay (seat {relay}) is in play: without escrow only its leaving moves it")
    index, prev, raw = last
    if not receipt_valid(identities[relay], game_id, index, prev, raw, receipt):
        raise BadSignature(f"the receipt of entry {index} is not the relay's (seat {relay}) signature")
    check_requests(requests, set(in_play) - {old, seat}, identities, game_id, term, old, seat, index + 1, head)


def check_requests(requests: tuple[FollowRequest, ...], wanted: set[int], identities: list[bytes], game_id: bytes,
                   term: int, old: int, new: int, length: int, head: bytes) -> None:
    """Check a hand-over's follow requests: one from each seat of
    ``wanted`` (every seat in play but the old and the new relay), each
    that seat's signature for this term, for exactly this log (``length``
    entries ending at ``head``).

    Raises:
        NotExpected: a request is missing or extra, or for another log.
        BadSignature: a request is not its seat's signature for this term.
    """
    if {r.seat for r in requests} != wanted:
        raise NotExpected("a hand-over carries a follow request from every other seat in play: "
                          + (", ".join(f"seat {s}" for s in sorted(wanted)) or "none"))
    for request in requests:
        if not follow_valid(identities[request.seat], game_id, term, old, new, request):
            raise BadSignature(f"seat {request.seat}'s follow request is not its signature for relay term {term}")
        if request.length != length or request.head != head:
            # A request made at another length (kept from earlier, or
            # signed before this log grew) says nothing of this log's end.
            raise NotExpected(f"seat {request.seat} follows from the log of {request.length} entries, "
                              f"not this one of {length}")


def successor(relay: int, in_play: tuple[int, ...]) -> int | None:
    """The next relay when ``relay`` leaves: the lowest seat in play other than it (None: nobody is left)."""
    return next((s for s in in_play if s != relay), None)


@dataclass(frozen=True, slots=True)
class HandedOver:
    """A hand-over in the log: at entry ``index`` the relay moved from ``old`` to ``new``."""

    index: int
    old: int
    new: int
