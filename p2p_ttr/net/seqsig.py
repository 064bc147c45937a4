"""The host's signature on each sequenced entry, and proof of equivocation.

    statement = msgpack [b"p2p_ttr/seq/v1", game_id, index, previous head, SHA-256(envelope)]

The previous head is the log head before the entry (32 zero bytes before the
seating). The statement itself is the table's (table/relaying.py): a new relay
checks the old relay's receipt in the fold. Two different envelopes the host signed for one index after the
same previous head prove that the host showed different logs to different
peers.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2p_ttr.table.envelope import GAME_ID_BYTES, pack, unpack_bounded
from p2p_ttr.table.errors import Malformed
from p2p_ttr.table.identity import SIGNATURE_BYTES
from p2p_ttr.table.relaying import EMPTY_HEAD, entry_hash
from p2p_ttr.table.relaying import receipt_valid as entry_signed
from p2p_ttr.table.relaying import sign_receipt as sign_entry
from p2p_ttr.table.table import Table

__all__ = ["EMPTY_HEAD", "EquivocationProof", "entry_hash", "entry_signed", "prev_head", "sign_entry"]


def prev_head(table: Table, index: int) -> bytes:
    """The log head just before entry ``index`` (``table`` holds at least ``index`` entries).
    ``table.heads[0]`` is the genesis head, which the seating already follows."""
    return EMPTY_HEAD if index == 0 else table.heads[index]


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
