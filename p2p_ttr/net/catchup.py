"""Catching up, both ways, on our ROUTER.

- A seat that lacks entries asks ``sync``: we send them with the receipt of
  the relay of each (ours we can sign again: Ed25519 is deterministic).
- Our own log may lack entries a seat holds: a resumed relay whose storage
  lost its tail, or a successor about to take over from a shorter log. We
  ``fetch`` them from that seat and ``adopt`` each only at our log's end and
  under the receipt of the relay that sequenced it. A resumed relay is
  ``gated`` (sequences nothing) until every seat in play has said how much
  it holds: signing a new entry at an index a seat holds would be a second
  entry there.

It never sequences a new entry and never decides who relays.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from p2p_ttr.client.doorfacts import Door, DoorDetail, DoorKind
from p2p_ttr.client.livenessfacts import Awaited
from p2p_ttr.client.netnotices import Refetched, Report, SentNone
from p2p_ttr.client.peerexits import LogLacksEntries, SignedEntryUnfolding
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.identity import Identity

from . import frames
from .admission import Admission
from .droplog import DropLog
from .exits import PeerExit
from .followrequests import FollowRequests
from .replica import Replica
from .router import Router
from .seqsig import entry_hash, entry_signed, sign_entry

FETCH_EVERY_S = 2.0  # how often to ask a seat again for entries our log lacks
FETCH_TRIES = 5
WINDOW_BYTES = 8 << 20  # entries in flight to one connection beyond what it said it holds
REWIND_S = 2.0  # a connection's catch-up moves back (another `sync` from earlier) at most this often
MAX_BACKLOGS = 64  # connections catching up at once (seats, watchers, each reconnection)

Note = Callable[[tuple[int, ...], Awaited], None]  # whom we wait for, and to do what (liveness.Progress.note)


@dataclass
class Backlog:
    """What one connection is sent to catch up: entries from ``next`` on."""

    next: int
    rewound: float  # when an ask last moved ``next`` back


class CatchUp:
    """Entries sent to seats that lack them, and fetched from seats that hold more than we do."""

    def __init__(self, replica: Replica, router: Router, admission: Admission, identity: Identity,
                 report: Report, followers: FollowRequests, drops: DropLog | None = None,
                 adopted: Callable[[bytes], None] = lambda raw: None) -> None:
        self.replica = replica
        self.drops = drops or DropLog(report)
        self.router = router
        self.admission = admission
        self.identity = identity
        self.report = report
        self.followers = followers  # the standby's follow requests (standby.py): seats that turned to us
        self.gated = False
        self.peer_len: dict[int, int] = {}  # seat -> the log length it last reported
        self.reported: dict[int, int] = {}  # seat -> the log length it reported in this run
        self.heads: dict[int, bytes | None] = {}  # seat -> its log head at that length, as it said it
        self._fetches: dict[int, tuple[int, int, float]] = {}  # seat -> (from index, times asked, when)
        self.fetched: dict[int, list[int]] = {}  # seat -> indices fetched from it
        self.adopted = adopted  # the owner hears of each entry fetched
        self._backlogs: dict[bytes, Backlog] = {}  # connection -> what it is sent to catch up
        self._acked: dict[bytes, int] = {}  # connection -> the log length it last said it holds
        self._cumulative: list[int] = [0]  # bytes of the log's entries before each index (see _sizes)
        self._receipts: dict[int, tuple[bytes, bytes]] = {}

    # ------------------------------------------------------- seats that lack entries

    def catch_up(self, rid: bytes, start: int, make_durable: Callable[[], None]) -> None:
        """A connection asks for the entries from ``start`` on (``sync``).

        What a connection is sent to catch up is paced by what it says it
        holds (its ``ping``): at most ``WINDOW_BYTES`` of entries it has not
        acknowledged are in flight to it, so a peer that asks and never reads
        costs that much memory, not the whole log again per ask. Asks that go
        back (``sync 0`` again and again) move its backlog back at most once
        per ``REWIND_S``; the others are the same ask (coalesced)."""
        table = self.replica.table
        if table is None or table.game_id is None or start < 0:
            return
        if start > len(table.log):
            # It holds more than we do: an old relay with entries nobody else
            # got, or a seat of a relay whose log lost its tail. Said at once,
            # so that it looks for where the two logs part (a fork check of
            # the whole log: follower.py) instead of waiting for entries that
            # will never come; the heartbeat says it again every second.
            self.router.send(rid, frames.Ping(len(table.log)))
            return
        now = time.monotonic()
        backlog = self._backlogs.get(rid)
        if backlog is None:
            self._make_room()
            # A new catch-up may still go back once at once: its first
            # entries may show the asker a fork (follower.check_for_fork).
            backlog = self._backlogs[rid] = Backlog(start, now - REWIND_S)
        elif start < backlog.next:
            if now - backlog.rewound < REWIND_S:
                return  # asked again too soon: the ask under way answers it
            backlog.next, backlog.rewound = start, now
        else:
            backlog.next = start
        self._acked[rid] = min(self._acked.get(rid, start), start)
        self.pump(rid, make_durable)

    def pump(self, rid: bytes, make_durable: Callable[[], None]) -> None:
        """Send ``rid``'s backlog as far as its window allows."""
        table = self.replica.table
        backlog = self._backlogs.get(rid)
        if table is None or table.game_id is None or backlog is None:
            return
        if backlog.next >= len(table.log):
            del self._backlogs[rid]  # caught up: new entries reach it as they are sequenced
            return
        make_durable()  # what we send from the log must be durable first
        sizes = self._sizes(len(table.log))
        acked = min(self._acked.get(rid, backlog.next), backlog.next)
        me = self.replica.seat
        while backlog.next < len(table.log) and sizes[backlog.next] - sizes[acked] < WINDOW_BYTES:
            index = backlog.next
            raw = table.log[index]
            sig = self._receipt(index)
            if len(sig) != 64:
                if table.relay_at(index) != me:
                    del self._backlogs[rid]
                    return  # another relay's entry without its receipt: we cannot vouch for it
                sig = sign_entry(self.identity, table.game_id, index, table.prev_head(index), raw)
            self.router.send(rid, frames.Entry(index, raw, sig))
            backlog.next += 1

    def acknowledged(self, rid: bytes, seat: int, length: int, make_durable: Callable[[], None],
                     head: bytes | None = None) -> None:
        """A seat's ping on connection ``rid``: the length of its log (it frees
        its window), and its head there (None: it did not say)."""
        self.peer_len[seat] = length
        self.reported[seat] = length
        self.heads[seat] = head
        self._acked[rid] = length
        if rid in self._backlogs:
            self.pump(rid, make_durable)

    def forget(self, rid: bytes) -> None:
        """A connection is gone (or no longer a seat's): its backlog goes."""
        self._backlogs.pop(rid, None)
        self._acked.pop(rid, None)

    def _make_room(self) -> None:
        """Keep at most MAX_BACKLOGS: first forget those of connections no
        longer admitted (a reconnection's old one), then the oldest."""
        if len(self._backlogs) < MAX_BACKLOGS:
            return
        for rid in [r for r in self._backlogs if r not in self.admission.connections.known]:
            self.forget(rid)
        while len(self._backlogs) >= MAX_BACKLOGS:
            oldest = min(self._backlogs, key=lambda r: self._backlogs[r].rewound)
            self.drops.drop(DoorKind(Door.CATCH_UP_DROPPED))
            self.forget(oldest)

    def _sizes(self, length: int) -> list[int]:
        """Cumulative sizes of the log's entries: ``sizes[i]`` is the bytes of entries before ``i``."""
        table = self.replica.table
        assert table is not None
        while len(self._cumulative) <= length:
            i = len(self._cumulative) - 1
            self._cumulative.append(self._cumulative[-1] + len(table.log[i]))
        return self._cumulative

    def _receipt(self, index: int) -> bytes:
        """The receipt of entry ``index`` from our receipts file (read again only when it grew)."""
        if index not in self._receipts and self.replica.store is not None:
            self._receipts = self.replica.store.receipts()
        return self._receipts.get(index, (b"", b""))[1]

    def requested_from(self, seat: int, length: int) -> None:
        """``seat``'s follow request to us, the successor, says it holds ``length`` entries (at least)."""
        self.reported[seat] = max(self.reported.get(seat, 0), length)

    def fetched_from(self, seat: int, index: int) -> None:
        """Entry ``index`` came into our log from ``seat`` (said once we are caught up with every seat)."""
        self.fetched.setdefault(seat, []).append(index)

    def heard_length(self, seat: int, length: int) -> None:
        """A seat's reported log length (kept without a connection: tests, and a successor's fetches)."""
        self.peer_len[seat] = length
        self.reported[seat] = length

    def everyone_has(self, length: int, seats: tuple[int, ...] | None = None) -> bool:
        """Every other seat (of ``seats``; default all) reported holding ``length`` entries."""
        table = self.replica.table
        assert table is not None
        among = range(table.n) if seats is None else seats
        return all(self.peer_len.get(s, 0) >= length for s in among if s != self.replica.seat)

    # ------------------------------------------------------- a log that lacks entries

    def may_fetch_from(self, seat: int) -> bool:
        """Whether we take entries from ``seat`` outside the relayed log: as a
        resumed relay that may have lost its tail, or as the successor from a
        seat that turned to us. Never otherwise: a follower's log grows only
        through the relay it follows."""
        table = self.replica.table
        if table is None or not table.seated:
            return False
        if self.replica.relaying:
            return self.gated
        return table.successor == self.replica.seat and seat in self.followers

    def fetch(self, rid: bytes, seat: int) -> None:
        """Ask ``seat`` for the entries it holds beyond our log, now and then."""
        table = self.replica.table
        assert table is not None
        if self.reported.get(seat, 0) <= len(table.log):
            return
        start, tries, when = self._fetches.get(seat, (-1, 0, 0.0))
        now = time.monotonic()
        if start == len(table.log) and now - when < FETCH_EVERY_S:
            return
        tries = tries + 1 if start == len(table.log) else 1
        if tries > FETCH_TRIES and not self.replica.relaying:
            # A seat that turned to us says it holds more than it can send:
            # it has not turned to us after all (its request is dropped).
            self.report(SentNone(seat, self.reported.get(seat)))
            self.followers.drop(seat)
            self.reported.pop(seat, None)
            self._fetches.pop(seat, None)
            return
        if tries > FETCH_TRIES:
            store = self.replica.store
            raise PeerExit(1, LogLacksEntries(store.log_path if store else None, len(table.log), seat))
        self._fetches[seat] = (len(table.log), tries, now)
        self.router.send(rid, frames.Fetch(len(table.log)))

    def adopt(self, rid: bytes, index: int, raw: bytes, sig: bytes) -> None:
        """An entry a seat holds and our log lacks (it lost it, or we never
        had it before taking over): taken only at our log's end and under
        the signature of the relay that sequenced it."""
        table, store = self.replica.table, self.replica.store
        seat = self.admission.connections.seat_of(rid)
        if table is None or store is None or seat < 0 or not self.may_fetch_from(seat) or index != len(table.log):
            return
        assert table.game_id is not None
        relay = table.sequencer_of(raw)
        if not entry_signed(table.seats[relay].identity, table.game_id, index, table.head, raw, sig):
            self.drops.drop(DoorKind(Door.ENTRY_UNSIGNED, seat), DoorDetail(entry=index))
            return
        try:
            table.receive(raw)
        except (TableError, EngineError) as exc:
            if relay != self.replica.seat:
                # Signed by its own author (a relay entry it wrote itself), or
                # by another relay: a seat's word, and a false one. Dropped.
                self.drops.drop(DoorKind(Door.ENTRY_UNFOLDING, seat), DoorDetail(str(exc), entry=index))
                return
            raise PeerExit(1, SignedEntryUnfolding(index, seat, str(exc))) from None
        store.add_receipt(index, entry_hash(raw), sig)
        store.append(raw)
        self.adopted(raw)
        self.fetched_from(seat, index)
        if self.replica.relaying:
            self.router.queue([conn for conn in self.admission.seat_connections() if conn != rid],
                              frames.Entry(index, raw, sig))

    def caught_up_with_all(self, seats: list[int], awaited: Awaited, note: Note) -> bool:
        """Every seat in ``seats`` said how much of the log it holds, and none holds more than we do."""
        table = self.replica.table
        assert table is not None
        missing = [s for s in seats if s not in self.reported]
        if missing or any(self.reported[s] > len(table.log) for s in seats):
            note(tuple(missing or seats), awaited)
            return False
        for seat, indices in self.fetched.items():
            self.report(Refetched(seat, indices[0], indices[-1]))
        self.fetched.clear()
        return True

    def wait_for_every_seat(self) -> None:
        """We relay a resumed game: sequence nothing until every seat in play
        has said how much of the log it holds (``gate_opens``)."""
        self.gated = True

    def gate_opens(self, note: Note) -> bool:
        """Whether a resumed relay may sequence again: every seat in play has
        said how much of the log it holds, and none holds more than we do.
        True once, when it opens (the caller then sequences what it held back)."""
        table = self.replica.table
        assert table is not None
        if not self.gated:
            return False
        live = [s for s in table.in_play if s != self.replica.seat]
        if not self.caught_up_with_all(live, Awaited.SAY_HELD, note):
            return False
        other = [s for s in live if self.reported[s] and self.heads.get(s) != table.prev_head(self.reported[s])]
        if other:
            # Its log is no prefix of ours: it holds an entry another relay
            # signed where we hold ours, a later term (a hand-over we have not
            # seen). Sequencing now would write our old term past it: we wait
            # to find the hand-over through the successor we reach (follower.py).
            note(tuple(other), Awaited.HOLD_OUR_LOG)
            return False
        self.gated = False
        return True
