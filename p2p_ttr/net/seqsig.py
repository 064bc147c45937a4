"""The host's signature on each sequenced entry, and proof of equivocation.

    statement = msgpack [b"p2p_ttr/seq/v1", game_id, index, previous head, SHA-256(envelope)]

The previous head is the log head before the entry (32 zero bytes before the
seating). Two different envelopes the host signed for one index after the
same previous head prove that the host showed different logs to different
peers.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from p2p_ttr.table.envelope import GAME_ID_BYTES, HASH_BYTES, pack, unpack_bounded
from p2p_ttr.table.errors import Malformed
from p2p_ttr.table.identity import SIGNATURE_BYTES, Identity, signature_valid
from p2p_ttr.table.table import Table

DOMAIN = b"p2p_ttr/seq/v1"
EMPTY_HEAD = b"\0" * HASH_BYTES


def prev_head(table: Table, index: int) -> bytes:
    """The log head just before entry ``index`` (``table`` holds at least ``index`` entries).
    ``table.heads[0]`` is the genesis head, which the seating already follows."""
    return EMPTY_HEAD if index == 0 else table.heads[index]


def entry_hash(raw: bytes) -> bytes:
    return hashlib.sha256(raw).digest()


def statement(game_id: bytes, index: int, prev_head: bytes, raw: bytes) -> bytes:
    return pack([DOMAIN, game_id, index, prev_head, entry_hash(raw)])


def sign_entry(host: Identity, game_id: bytes, index: int, prev_head: bytes, raw: bytes) -> bytes:
    return host.sign(statement(game_id, index, prev_head, raw))


def entry_signed(host_public: bytes, game_id: bytes, index: int, prev_head: bytes, raw: bytes, sig: bytes) -> bool:
    return signature_valid(host_public, sig, statement(game_id, index, prev_head, raw))


@dataclass(frozen=True)
class EquivocationProof:
    """Two host-signed entries at one index: portable, checkable by anyone."""

    host_public: bytes
    game_id: bytes
    index: int
    prev_head: bytes
    first: bytes
    first_sig: bytes
    second: bytes
    second_sig: bytes

    def valid(self) -> bool:
        return self.first != self.second and all(
            entry_signed(self.host_public, self.game_id, self.index, self.prev_head, raw, sig)
            for raw, sig in ((self.first, self.first_sig), (self.second, self.second_sig))
        )

    def to_bytes(self) -> bytes:
        return pack(
            ["p2p_ttr-equivocation", self.host_public, self.game_id, self.index, self.prev_head,
             self.first, self.first_sig, self.second, self.second_sig]
        )

    @classmethod
    def from_bytes(cls, data: bytes) -> EquivocationProof:
        value = unpack_bounded(data, "equivocation proof") if len(data) < 100_000 else None
        if not (isinstance(value, list) and len(value) == 9 and value[0] == "p2p_ttr-equivocation"):
            raise Malformed("not an equivocation proof")
        _, pub, gid, index, prev, a, sa, b, sb = value
        if not (isinstance(pub, bytes) and isinstance(gid, bytes) and len(gid) == GAME_ID_BYTES
                and type(index) is int and isinstance(prev, bytes) and isinstance(a, bytes)
                and isinstance(b, bytes) and isinstance(sa, bytes) and isinstance(sb, bytes)
                and len(sa) == len(sb) == SIGNATURE_BYTES):
            raise Malformed("malformed equivocation proof")
        return cls(pub, gid, index, prev, a, sa, b, sb)
