"""Sequencing: what the relay does with each signed envelope.

While our seat is the table's relay, every envelope a seat sends (and every
one of ours) is folded into our table: an accepted one gets the next index,
is stored with our receipt (seqsig.py) and queued for every seat; a refused
one goes back to its author with the reason. The relay cannot forge or hide
anything: every peer checks every entry itself.

Envelopes that come while we may not sequence yet (a resumed relay waiting
for every seat, or a successor before it takes over) are held back, bounded
in count and bytes, and sequenced in order once we may.

It never decides when we relay, nor admits anyone.
"""

from __future__ import annotations

from p2p_ttr.client.doorfacts import Door, DoorDetail, DoorKind
from p2p_ttr.client.netnotices import OwnMessageRefused, Report
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.errorcodes import ErrorCode
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.identity import Identity

from . import frames
from .admission import Admission
from .droplog import DropLog
from .frames import clip
from .replica import Replica
from .router import Router
from .seqsig import entry_hash, sign_entry
from .trace import Trace

MAX_HELD_BACK = 10_000  # envelopes kept while we may not sequence yet
MAX_HELD_BYTES = 64 << 20  # and their bytes


class Sequencer:
    """Gives accepted envelopes their index and receipt, and queues them for every seat."""

    def __init__(self, replica: Replica, router: Router, admission: Admission, identity: Identity,
                 report: Report, trace: Trace, drops: DropLog | None = None) -> None:
        self.replica = replica
        self.drops = drops or DropLog(report)
        self.router = router
        self.admission = admission
        self.identity = identity
        self.report = report
        self.trace = trace
        self.held_back: list[tuple[bytes, bytes]] = []  # (connection, envelope) we may not sequence yet
        self._held_bytes = 0

    def sequence(self, raw: bytes, author: bytes | None) -> bool:
        """Fold ``raw`` (from connection ``author``, or ours if None) and, if
        the table takes it, give it the next index, sign and store it and
        queue it for every seat (``flush`` sends)."""
        table, store = self.replica.table, self.replica.store
        assert table is not None and store is not None
        prev, before = table.head, len(table.log)
        try:
            table.receive(raw)
        except Exception as exc:
            if not isinstance(exc, (TableError, EngineError)) and (author is None or len(table.log) != before):
                raise  # a bug of ours, not bad input
            # Anything else a peer's bytes provoke without touching the log is a malformed message.
            code = exc.code if isinstance(exc, (TableError, EngineError)) else ErrorCode.MALFORMED
            if author is None:
                self.report(OwnMessageRefused(str(code), str(exc)))
            else:
                seat = self.admission.connections.seat_of(author)
                self.drops.drop(DoorKind(Door.MESSAGE_REFUSED, seat, str(code)), DoorDetail(str(exc)))
                self.router.send(author, frames.Rejected(entry_hash(raw), clip(str(code)), clip(str(exc))))
            return False
        assert table.game_id is not None
        index = len(table.log) - 1
        sig = sign_entry(self.identity, table.game_id, index, prev, raw)
        store.add_receipt(index, entry_hash(raw), sig)
        store.append(raw)
        self.trace.folded(table, self.replica.seat)
        self.router.queue(self.admission.seat_connections(), frames.Entry(index, raw, sig))
        return True

    def flush(self) -> None:
        """Make the new entries durable (one fsync for a batch), then send them:
        nobody hears of an entry the relay could forget."""
        store = self.replica.store
        if store is not None:
            self.router.flush(store.sync)

    def envelope(self, rid: bytes, raw: bytes) -> None:
        """An envelope from a seat, while we relay."""
        table = self.replica.table
        if table is None:
            self.router.send(rid, frames.Rejected(entry_hash(raw), ErrorCode.NOT_EXPECTED, "the game has not started"))
            return
        if table.sequencer_of(raw) != self.replica.seat:
            # A hand-over entry is sequenced by its author, the new relay, only.
            self.router.send(rid, frames.Rejected(entry_hash(raw), ErrorCode.NOT_EXPECTED,
                                                  "a relay entry is sequenced by its author, the new relay"))
            return
        self.sequence(raw, rid)

    def hold_back(self, rid: bytes, raw: bytes) -> None:
        """Keep an envelope we may not sequence yet. Bounded in count and bytes."""
        if len(self.held_back) < MAX_HELD_BACK and self._held_bytes + len(raw) <= MAX_HELD_BYTES:
            self.held_back.append((rid, raw))
            self._held_bytes += len(raw)

    def release(self) -> None:
        """Sequence what came while we could not, in order."""
        held, self.held_back, self._held_bytes = self.held_back, [], 0
        for rid, raw in held:
            self.sequence(raw, rid)
        self.flush()
