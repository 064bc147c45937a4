"""The hash-chained log: its entries, their heads, each seat's last sequence number.

Every entry names the log head its author had applied (``Envelope.head``): a
head this log has had. The chain makes a log's past unforgeable: the head
after entry i is ``sha256(head_{i-1} || sha256(entry_i))``, starting from a
genesis head that depends only on the game id.
"""

from __future__ import annotations

import hashlib

from .envelope import Envelope, check_signature
from .errors import Malformed, NotExpected, Replay, UnknownHead, WrongGame
from .messages import Seat

EMPTY_HEAD = b"\0" * 32  # the head the seating is written at


def genesis(game_id: bytes) -> bytes:
    return hashlib.sha256(b"p2p_ttr/log/v1/genesis" + game_id).digest()


def chain(head: bytes, raw: bytes) -> bytes:
    """The log head after appending the entry ``raw``."""
    return hashlib.sha256(head + hashlib.sha256(raw).digest()).digest()


class LogChain:
    """The entries accepted so far, in order, and what an entry must match to
    be the next one: the game, a seat's signature, a fresh sequence number and
    a head this log has had. It knows nothing of what entries mean."""

    def __init__(self) -> None:
        self.game_id: bytes | None = None
        self.seats: tuple[Seat, ...] = ()
        self.entries: list[bytes] = []
        self.heads: list[bytes] = []  # heads[0] is the genesis head; heads[i + 1] follows entries[i]
        self._head_index: dict[bytes, int] = {}
        self.last_seq: dict[int, int] = {}

    @property
    def head(self) -> bytes:
        return self.heads[-1] if self.heads else EMPTY_HEAD

    def open(self, envelope: Envelope, seats: tuple[Seat, ...]) -> None:
        """Check the first entry, seat 0's seating of ``seats``, and start the chain.

        Raises:
            NotExpected: it is not seat 0's first message.
            UnknownHead: it is not written at the empty log.
            BadSignature: seat 0 of the seating did not sign it.
        """
        if envelope.seat != 0 or envelope.seq != 1:
            raise NotExpected("a game starts with seat 0's seating")
        if envelope.head != EMPTY_HEAD:
            raise UnknownHead("the seating must be written at the empty log")
        check_signature(envelope, seats[0].identity)
        self.game_id, self.seats = envelope.game_id, seats
        self.heads = [genesis(envelope.game_id)]
        self._head_index = {self.heads[0]: 0}

    def check(self, envelope: Envelope) -> None:
        """Check that ``envelope`` may follow: the game, the seat's signature,
        a fresh sequence number and a known head. Its body is not looked at.

        Raises:
            WrongGame, Malformed, BadSignature, Replay, UnknownHead.
        """
        if envelope.game_id != self.game_id:
            assert self.game_id is not None
            raise WrongGame(f"message for game {envelope.game_id.hex()[:8]}, this is {self.game_id.hex()[:8]}")
        if envelope.seat >= len(self.seats):
            raise Malformed(f"there is no seat {envelope.seat} in this game")
        check_signature(envelope, self.seats[envelope.seat].identity)
        if envelope.seq <= self.last_seq.get(envelope.seat, 0):
            raise Replay(f"seat {envelope.seat} already sent message {envelope.seq}")
        if envelope.head not in self._head_index:
            raise UnknownHead(f"seat {envelope.seat} wrote at a log head this table never had")

    def written_after(self, head: bytes) -> int:
        """How many entries the author of a message written at ``head`` had applied (a known head)."""
        return self._head_index[head]

    def append(self, raw: bytes, envelope: Envelope) -> None:
        """Add an entry that passed ``open`` or ``check``."""
        self.entries.append(raw)
        head = chain(self.head, raw)
        self.heads.append(head)
        self._head_index[head] = len(self.heads) - 1
        self.last_seq[envelope.seat] = envelope.seq
