"""Watchers on our ROUTER: peers with no seat and no secret that follow the
public log (``ttr watch``, protocol.md §9, Watchers).

A watcher says ``hi``, gets its connection's challenge (admission.py) and
answers it with ``watch [version, challenge]``: no name, no key, no
signature, since it is given nothing a stranger may not have. It is then
sent ``watching``, and from there on the entries of the log (each with the
receipt of its relay, exactly as a seat gets them), a ``ping`` a second,
and a ``pause`` signed over its challenge if we stop for now. Nothing else:
never ``welcome``, ``lobby``, ``rejected``, ``fetch`` nor ``silent``. The
log is public by construction (anyone may fold it, ``ttr verify`` does),
so a watcher learns no hidden card.

What a watcher costs the players is bounded here, whatever it sends:

- at most ``MAX_WATCHERS`` at once. A slot is kept by reading, not by
  pinging: a watcher's ``ping`` and ``sync`` say how many entries it holds,
  and only a count that grows, up to what it was sent, is reading. When the
  slots are full, a new watcher takes the slot of the one that read least
  recently, if that one has read nothing for ``IDLE_S`` (so sixteen fakes
  that only ping hold nothing); else it is refused (``full``);
- its frames are counted (``FRAMES_PER_S``, ``FRAME_BURST``): one over the
  rate is forgotten and its frames dropped unread for ``MUTE_S``;
- what it is sent comes from a cursor, the next index it lacks: a ``sync``
  only moves the cursor, and ``pump`` sends from each cursor at most
  ``BYTES_PER_S`` to each watcher and ``ALL_BYTES_PER_S`` to all of them,
  only what the log already holds durably (it runs after the sequencer's
  fsync), and never waits for a watcher: ZeroMQ drops what a slow one
  cannot take, and it asks again;
- one unheard for ``SILENT_S`` is forgotten.

A watcher is never an admitted connection (``Connections``): no seat's
liveness (``silent``), no follow request, no ``everyone_has`` ever counts
one, and it has no part in a hand-over or in escrow.

It never folds, sequences nor admits a seat.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from p2p_ttr.client.doorfacts import Dropped, Dropping
from p2p_ttr.client.hellofacts import WatchersFull
from p2p_ttr.client.hellowords import refusal_reason
from p2p_ttr.client.netnotices import Report, WatcherGone, WatcherJoined, WatcherLeft
from p2p_ttr.errorcodes import ErrorCode

from . import frames
from .admission import Admission
from .frames import NET_VERSION, encode_frame
from .replica import Replica
from .router import Router

MAX_WATCHERS = 16
FRAMES_PER_S, FRAME_BURST = 20.0, 60.0  # a watcher needs a ping a second and a sync now and then
MUTE_S = 10.0  # how long a watcher over its rate is not listened to
MAX_MUTED = 1024
SILENT_S = 10.0  # a watcher unheard this long (it pings every second) has gone
IDLE_S = 10.0  # a watcher that read nothing this long gives its slot to a new one, if all are taken
BYTES_PER_S, ALL_BYTES_PER_S = 2 << 20, 8 << 20  # entries sent to one watcher, and to all of them
FRAMES_PER_PUMP = 64  # entries sent to one watcher in one turn of the loop
CACHED_FRAMES = 512  # encoded entries kept: every watcher is sent the same bytes


@dataclass
class Bucket:
    """A token bucket: ``rate`` a second, at most ``burst`` saved up."""

    rate: float
    burst: float
    level: float
    at: float

    @classmethod
    def full(cls, rate: float, burst: float, now: float) -> Bucket:
        return cls(rate, burst, burst, now)

    def refill(self, now: float) -> None:
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now

    def take(self, amount: float, now: float) -> bool:
        """Take ``amount`` if the bucket holds it, or if it is full (then it
        goes below zero: one thing larger than the burst still gets through)."""
        self.refill(now)
        if self.level < min(amount, self.burst):
            return False
        self.level -= amount
        return True

    def give_back(self, amount: float) -> None:
        """``amount`` was taken and not spent after all."""
        self.level += amount


@dataclass
class WatcherSlot:
    """One admitted watcher: the challenge it answered, the next index it
    lacks, when we last heard it, its two budgets, and what it read: the
    most entries it said it holds (never more than it was sent), and when
    that last grew (or it was admitted)."""

    challenge: bytes
    cursor: int
    heard: float
    frames: Bucket
    sent: Bucket
    read_at: float
    held: int = 0
    sent_upto: int = 0  # the entries it was sent: a claim beyond them is no reading

    def says_it_holds(self, length: int, now: float) -> None:
        """Its ``ping`` or ``sync`` says it holds ``length`` entries: reading, if that grew."""
        length = min(length, self.sent_upto)
        if length > self.held:
            self.held, self.read_at = length, now


class Watchers:
    """The watchers on our ROUTER, and every frame they send or are sent."""

    def __init__(self, replica: Replica, router: Router, admission: Admission, report: Report,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.replica = replica
        self.router = router
        self.admission = admission
        self.report = report
        self.clock = clock
        self.conns: dict[bytes, WatcherSlot] = {}  # connection -> its watcher
        self.muted: dict[bytes, float] = {}  # connection -> until when its frames are dropped unread
        self.budget = Bucket.full(ALL_BYTES_PER_S, ALL_BYTES_PER_S, clock())
        self._signatures: dict[int, bytes] = {}  # index -> its relay's receipt, read from our store
        self._encoded: dict[int, bytes] = {}  # index -> the entry frame, as sent
        self._first = 0  # whose turn it is to be served first (round robin)
        self._table: object = None  # the replica's table our caches were read from

    # ------------------------------------------------------------- frames in

    def is_muted(self, rid: bytes) -> bool:
        """Whether ``rid``'s frames are dropped unread (checked before decoding)."""
        until = self.muted.get(rid)
        if until is None:
            return False
        if self.clock() < until:
            return True
        del self.muted[rid]
        return False

    def handle(self, rid: bytes, frame: frames.ToHost) -> bool:
        """A frame from ``rid``: True if it was a watcher's to take (a ``watch``,
        or anything from a watcher's connection), else it is a seat's business."""
        watcher = self.conns.get(rid)
        if watcher is None:
            if isinstance(frame, frames.Watch):
                self.admit(rid, frame.version, frame.challenge)
                return True
            return False
        now = self.clock()
        if not watcher.frames.take(1.0, now):
            self.forget(rid, WatcherGone.FLOODED, FRAMES_PER_S)
            self.muted[rid] = now + MUTE_S
            while len(self.muted) > MAX_MUTED:
                del self.muted[next(iter(self.muted))]
            return True
        watcher.heard = now
        table = self.replica.table
        match frame:
            case frames.Sync(start):
                length = len(table.log) if table is not None else 0
                watcher.cursor = min(start, length)
                watcher.says_it_holds(start, now)
            case frames.Ping(length):
                watcher.says_it_holds(length, now)  # alive; what it lacks it asks with sync
        return True  # anything else from a watcher is no watcher's frame: dropped

    def admit(self, rid: bytes, version: int, challenge: bytes) -> None:
        """A ``watch`` answering this connection's challenge admits a watcher
        (if there is room); a seat's connection never becomes one."""
        c = self.admission.connections
        if rid in c.known:
            self.report(Dropped(Dropping.WATCH_ON_SEAT))
            return
        if not c.challenges.take(rid, challenge):
            self.report(Dropped(Dropping.WATCH_UNANSWERED))
            self.admission.challenge(rid)
            return
        if version != NET_VERSION:
            self.router.send(rid, frames.NotAdmitted(ErrorCode.VERSION, frames.other_version_words(version)))
            return
        now = self.clock()
        if len(self.conns) >= MAX_WATCHERS and not self.free_idlest(now):
            self.router.send(rid, frames.NotAdmitted(ErrorCode.FULL, refusal_reason(WatchersFull(MAX_WATCHERS))))
            return
        c.is_a_watcher(rid)  # its `hi` was heard as a connection's: a watcher is none of the seats' business
        table = self.replica.table
        length = len(table.log) if table is not None else 0
        self.conns[rid] = WatcherSlot(challenge, length, now, Bucket.full(FRAMES_PER_S, FRAME_BURST, now),
                                  Bucket.full(BYTES_PER_S, BYTES_PER_S, now), read_at=now)
        self.router.send(rid, frames.Watching(table.game_id if table is not None else None, length))
        self.report(WatcherJoined(len(self.conns)))

    def free_idlest(self, now: float) -> bool:
        """Every slot is taken: forget the watcher that read least recently,
        if it read nothing for ``IDLE_S`` (True: a slot is free)."""
        rid, idlest = min(self.conns.items(), key=lambda item: item[1].read_at)
        if now - idlest.read_at < IDLE_S:
            return False
        self.forget(rid, WatcherGone.IDLE, now - idlest.read_at)
        return True

    def forget(self, rid: bytes, why: WatcherGone, limit: float) -> None:
        """Send ``rid`` the game no more: ``why``, past ``limit`` (frames a second, or seconds)."""
        if self.conns.pop(rid, None) is not None:
            self.report(WatcherLeft(why, limit, len(self.conns)))

    # ------------------------------------------------------------ frames out

    def pump(self) -> None:
        """Send each watcher what it lacks, within its budget and everyone's.
        Called right after the sequencer made the log durable: only what
        the log holds is sent, and a seat has been sent it first."""
        table = self.replica.table
        if not self.conns or table is None or table.game_id is None:
            return
        if table is not self._table:
            self._reread(len(table.log))
            self._table = table
        now = self.clock()
        rids = list(self.conns)
        self._first = (self._first + 1) % len(rids)
        for rid in rids[self._first:] + rids[:self._first]:
            watcher = self.conns[rid]
            for _ in range(FRAMES_PER_PUMP):
                if watcher.cursor >= len(table.log):
                    break
                encoded = self._entry(watcher.cursor)
                if encoded is None:
                    break  # no receipt for it (yet): the watcher asks again
                if not watcher.sent.take(len(encoded), now):
                    break
                if not self.budget.take(len(encoded), now):
                    watcher.sent.give_back(len(encoded))  # not sent: not spent
                    return
                self.router.send_encoded(rid, encoded)
                watcher.cursor += 1
                watcher.sent_upto = max(watcher.sent_upto, watcher.cursor)

    def _entry(self, index: int) -> bytes | None:
        """Entry ``index`` as a frame, with its relay's receipt from our store."""
        cached = self._encoded.get(index)
        if cached is not None:
            return cached
        table, store = self.replica.table, self.replica.store
        assert table is not None
        sig = self._signatures.get(index)
        if sig is None and store is not None:
            # Read once for many entries; an entry's receipt is written before the entry.
            self._signatures = {i: s for i, (_, s) in store.receipts().items() if len(s) == 64}
            sig = self._signatures.get(index)
        if sig is None:
            return None
        if len(self._encoded) >= CACHED_FRAMES:
            self._encoded.clear()
        encoded = self._encoded[index] = encode_frame(frames.Entry(index, table.log[index], sig))
        return encoded

    def _reread(self, length: int) -> None:
        """The replica swapped its game (reloaded, or cut back to a hand-over
        we were away for): what we read of the old one may be gone."""
        self._encoded.clear()
        self._signatures.clear()
        for watcher in self.conns.values():
            watcher.cursor = min(watcher.cursor, length)

    def beat(self) -> None:
        """Once a second: a ping to each watcher (the log's length); one
        unheard for ``SILENT_S`` is forgotten."""
        now = self.clock()
        table = self.replica.table
        ping = frames.Ping(len(table.log) if table is not None else 0)
        for rid, watcher in list(self.conns.items()):
            if now - watcher.heard > SILENT_S:
                self.forget(rid, WatcherGone.SILENT, SILENT_S)
                continue
            self.router.send(rid, ping)
        for rid, until in list(self.muted.items()):
            if now >= until:
                del self.muted[rid]

    def pause(self, signed_over: Callable[[bytes], frames.Pause]) -> None:
        """We stop for now: each watcher is told, signed over its own challenge."""
        for rid, watcher in self.conns.items():
            self.router.send(rid, signed_over(watcher.challenge))
