"""A watcher's own loop (`ttr watch`): a peer with no seat and no secret
that follows the public log of a game and folds it.

It reaches one seat's ROUTER with its DEALER (uplink.py), says ``hi``,
answers the challenge with ``watch`` (protocol.md §9, Watchers), asks for
the log from where it stands (``sync``), and takes each entry as a seat
does: only at the next index, only under the receipt of the relay of that
entry, and only if its table, which holds no secret, folds it. So what it
shows is what every seat agreed on, and nothing hidden.

It follows the relay: the log's ``relay`` entries say who relays, its
``reach`` entries where each seat listens (the address we were given is
the seat that answered there). When the relay's seat has left, it turns to
the successor; when the seat it reaches is silent, to the next seat it
knows the address of.

It holds no key, signs nothing, sends no envelope, writes nothing, and
counts as a seat nowhere (the relay keeps watchers apart: watchers.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import zmq

from p2p_ttr.client.doorfacts import Dropped, Dropping
from p2p_ttr.client.netnotices import (GameStarts, Notice, RelayMoved, WatchedHandOver, WatchedSilent, WatchingFrom,
                                       WrongKey)
from p2p_ttr.client.outcomes import Leave
from p2p_ttr.client.peerexits import (CannotPlayThere, DifferentHost, LobbyClosedByHost, NoSeatAnswers, NotASeat,
                                      OtherProtocol, PlayingAnother, WatchedEntryUnfolding, WatchRefused)
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.table.envelope import open_envelope
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.messages import TakeOver
from p2p_ttr.table.messages import message_from_wire
from p2p_ttr.table.table import Table

from . import frames
from .console import Console
from .exits import PeerExit
from .frames import NET_VERSION, FrameError
from .peerdoor import from_peer
from .pause import Paused, pause_signed, paused_at
from .playerinput import InputClosed, PlayerChannel, Seen
from .seqsig import EMPTY_HEAD, entry_hash, entry_signed
from .transport import format_address
from .uplink import Uplink

WATCH_SILENT_S = 5.0  # the seat we reach, unheard this long: we try the next one we know of
SYNC_EVERY_S = 0.5  # the least time between two `sync` asks
BEAT_S = 1.0


@dataclass(frozen=True)
class WatchOptions:
    """Where `ttr watch` first connects, and how long it waits for silence."""

    host: str
    port: int
    timeout: float = 120.0
    host_key: bytes | None = None  # the key that must answer there first (confirmed from its beacon: vouch.py)


class Watcher:
    """Follows one game's public log from whichever seat relays it."""

    def __init__(self, options: WatchOptions, console: Console) -> None:
        self.options = options
        self.console = console
        self.where = format_address(options.host, options.port)
        self.uplink = Uplink(self.where, options.timeout)
        self.table: Table | None = None
        self.admitted = False  # the seat we reach took our `watch`
        self.paused: Paused | None = None  # the relay stopped the game for now
        self.given: int | None = None  # the seat that answered at the address we were given
        self.bad: set[tuple[str, int]] = set()  # addresses that answered with another seat's key
        self._want: int | None = None  # the seat we last meant to watch from (the relay, as the log said)
        self._heard = time.monotonic()  # the last frame from any seat
        self._last_sync = 0.0

    # ---------------------------------------------------------------- views

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.table.seats) if self.table is not None else ()

    def seen(self) -> Seen:
        return Seen(self.table, None, self.names)

    def report(self, notice: Notice) -> None:
        """Tell the watcher a fact, its seats named by the game's seating."""
        self.console.report(notice, self.names)

    # ----------------------------------------------------------------- loop

    def run(self, channel: PlayerChannel | None = None) -> int:
        """Watch until the game is complete (every secret revealed for the
        audit), paused, or silent past the timeout; the exit code."""
        context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
        poller = zmq.Poller()
        self.uplink.open_on(context, poller)  # each connection we make joins the poller
        try:
            self.uplink.connect(self.options.host, self.options.port, None, watch_reach=True, our_length=0)
            return self._loop(poller, channel)
        except PeerExit as exc:
            self.console.last_words(exc.told, self.names)
            return exc.code
        finally:
            self.uplink.disconnect()
            context.destroy(linger=0)

    def _loop(self, poller: zmq.Poller, channel: PlayerChannel | None) -> int:
        next_beat = 0.0
        while True:
            poller.poll(50)
            for _ in range(10_000):
                raw = self._received()
                if raw is None:
                    break
                self.handle(raw)
                if self.paused is not None:
                    return 0
            if self.uplink.reach is not None:
                why = self.uplink.reach.verdict()
                if why is not None:
                    raise PeerExit(1, why)
            if channel is not None:
                match channel.take():
                    case Leave():
                        return 0
                    case InputClosed():
                        channel = None
                if channel is not None:
                    channel.turned()
            table = self.table
            if table is not None and table.complete:
                return 0
            now = time.monotonic()
            if now >= next_beat:
                next_beat = now + BEAT_S
                self.beat()
            self.follow_relay(now)
            if now - self._heard > self.options.timeout:
                raise PeerExit(1, NoSeatAnswers(self.options.timeout, self.dialed()))

    def _received(self) -> bytes | None:
        sock = self.uplink.sock
        if sock is None:
            return None
        try:
            parts = sock.recv_multipart(zmq.NOBLOCK)
        except zmq.Again:
            return None
        return parts[0] if len(parts) == 1 else b""

    def beat(self) -> None:
        """Once a second: ``hi`` until admitted, then a ping with our log's length."""
        if not self.admitted:
            self.uplink.send(frames.Hi(NET_VERSION))
        else:
            self.uplink.send(frames.Ping(len(self.table.log) if self.table is not None else 0))

    # --------------------------------------------------------------- frames

    def handle(self, raw: bytes) -> None:
        """One frame from the seat we reach."""
        try:
            frame = from_peer(raw)
        except FrameError as exc:
            self.report(Dropped(Dropping.BAD_FRAME, reason=str(exc)))
            return
        self.uplink.heard_now()
        self._heard = time.monotonic()
        match frame:
            case frames.Challenge(version, public, challenge, game_id, game):
                self.challenged(version, public, challenge, game_id, game)
            case frames.Watching(game_id, length):
                self.same_game(game_id)
                self.admitted = True
                self.uplink.welcomed_at(length)
                self.sync(len(self.table.log) if self.table is not None else 0, now=True)
            case frames.NotAdmitted(code, reason):
                raise PeerExit(1, WatchRefused(self.dialed(), code, reason))
            case frames.Entry(index, envelope, signature):
                if self.admitted:
                    self.entry(index, envelope, signature)
            case frames.Ping(length):
                self.uplink.holds_at_least(length)
                held = len(self.table.log) if self.table is not None else 0
                if self.admitted and length > held:
                    self.sync(held)
            case frames.Pause(length, signature):
                self.host_paused(length, signature)
            case _:
                pass  # nothing else is meant for a watcher

    def challenged(self, version: int, public: bytes, challenge: bytes, game_id: bytes | None,
                   game: tuple[str, str, bytes] | None) -> None:
        """A challenge: answered with ``watch``, once per connection, if it
        is the seat we meant to reach and the game we watch, and a game we can fold."""
        up, table = self.uplink, self.table
        if version != NET_VERSION:
            raise PeerExit(1, OtherProtocol(version, NET_VERSION))
        if game is not None and (why := frames.unplayable(game)) is not None:
            raise PeerExit(1, CannotPlayThere(self.dialed(), game[0], game[1], why, watching=True))
        self.same_game(game_id)
        if (table is None or not table.seated) and self.options.host_key not in (None, public):
            raise PeerExit(1, DifferentHost(self.dialed()))
        if table is not None and table.seated:
            seats = [s for s, seat in enumerate(table.seats) if seat.identity == public]
            if up.seat is not None and seats != [up.seat]:
                self.report(WrongKey(self.dialed(), up.seat))
                where = self.addresses().get(up.seat)
                if where is not None:
                    self.bad.add(where)
                self.next_seat()
                return
            if up.seat is None:
                if not seats:
                    raise PeerExit(1, NotASeat(self.where))
                self.given = seats[0]
                up.found_seat(seats[0])
        if challenge != up.challenge:
            up.answered(challenge, public)
            self.admitted = False
            up.send(frames.Watch(NET_VERSION, challenge))

    def same_game(self, game_id: bytes | None) -> None:
        table = self.table
        if table is not None and table.game_id is not None and game_id != table.game_id:
            raise PeerExit(1, PlayingAnother(self.dialed(), table.game_id))

    def host_paused(self, length: int, signature: bytes) -> None:
        """The relay stops for now: signed over the challenge we answered."""
        up, table = self.uplink, self.table
        game_id = table.game_id if table is not None else None
        if up.public is None or up.challenge is None or not pause_signed(up.public, signature, up.challenge,
                                                                         game_id, length):
            self.report(Dropped(Dropping.PAUSE_UNSIGNED))
            return
        if table is None or game_id is None:
            raise PeerExit(0, LobbyClosedByHost())
        self.paused = paused_at(table, ours=False)

    # -------------------------------------------------------------- entries

    def sync(self, start: int, now: bool = False) -> None:
        at = time.monotonic()
        if now or at - self._last_sync > SYNC_EVERY_S:
            self._last_sync = at
            self.uplink.send(frames.Sync(start))

    def entry(self, index: int, raw: bytes, sig: bytes) -> None:
        """One entry of the log: checked (its index, its relay's receipt), folded, kept."""
        table = self.table
        held = len(table.log) if table is not None else 0
        if index > held:
            self.sync(held)
            return
        if table is not None and index < held:
            if entry_hash(table.log[index]) != entry_hash(raw):
                self.conflict(index, raw, sig)
            return
        if table is None:
            self.first(raw, sig)
            return
        assert table.game_id is not None
        key = table.seats[table.sequencer_of(raw)].identity
        if not entry_signed(key, table.game_id, index, table.head, raw, sig):
            self.report(Dropped(Dropping.ENTRY_UNSIGNED, entry=index))
            return
        relay = table.relay
        try:
            table.receive(raw)
        except (TableError, EngineError) as exc:
            raise PeerExit(1, WatchedEntryUnfolding(index, relay, str(exc))) from None
        if table.relay != relay:
            self.report(RelayMoved(relay, table.relay))

    def first(self, raw: bytes, sig: bytes) -> None:
        """The seating: seat 0 signed it and its receipt (it opens the game)."""
        table = Table()
        try:
            table.receive(raw)
        except (TableError, EngineError) as exc:
            self.report(Dropped(Dropping.FIRST_NO_SEATING, reason=str(exc)))
            return
        assert table.game_id is not None
        if not entry_signed(table.seats[0].identity, table.game_id, 0, EMPTY_HEAD, raw, sig):
            self.report(Dropped(Dropping.SEATING_UNSIGNED))
            return
        self.table = table
        public = self.uplink.public
        seats = [s for s, seat in enumerate(table.seats) if seat.identity == public]
        if self.uplink.seat is None and seats:
            self.given = seats[0]
            self.uplink.found_seat(seats[0])
        self.report(GameStarts(None))

    def conflict(self, index: int, raw: bytes, sig: bytes) -> None:
        """Another entry at an index we hold: a hand-over that the relay we
        followed never saw (its later entries reached no seat) replaces
        them; anything else is dropped."""
        table = self.table
        assert table is not None and table.game_id is not None
        try:
            envelope = open_envelope(raw)
            handover = message_from_wire(envelope.body)
        except (TableError, IndexError):
            return
        if not isinstance(handover, TakeOver) or not 0 <= envelope.seat < table.n:
            self.report(Dropped(Dropping.CONFLICT, entry=index))
            return
        if not entry_signed(table.seats[envelope.seat].identity, table.game_id, index, table.heads[index], raw, sig):
            return
        prefix = Table()
        try:
            for earlier in table.log[:index]:
                prefix.receive(earlier)
            prefix.receive(raw)
        except (TableError, EngineError):
            self.report(Dropped(Dropping.HANDOVER_UNFOLDING, entry=index))
            return
        self.report(WatchedHandOver(envelope.seat, index, len(table.log) - index))
        self.table = prefix

    # ------------------------------------------------------ following the relay

    def addresses(self) -> dict[int, tuple[str, int]]:
        """Where each seat listens: the log's ``reach``, and the address we were given."""
        table = self.table
        known = dict(table.reach) if table is not None else {}
        if self.given is not None:
            known.setdefault(self.given, (self.options.host, self.options.port))
        return {s: a for s, a in known.items() if a not in self.bad}

    def wanted(self) -> int | None:
        """The seat to watch from: the relay, or its successor once its seat left."""
        table = self.table
        if table is None or not table.seated:
            return None
        return table.successor if table.relay_gone else table.relay

    def follow_relay(self, now: float) -> None:
        """Reach the relay of the log; the next seat we know of when the one we reach is silent."""
        table = self.table
        if table is None or not table.seated or table.complete:
            return
        want = self.wanted()
        if want != self._want:  # the log moved the relay (or its seat left): we follow it
            self._want = want
            known = self.addresses()
            if want is not None and want != self.uplink.seat and want in known:
                self.report(WatchingFrom(want, table.relay_gone))
                self.connect(want, known[want])
        elif self.uplink.silent_for(now) > WATCH_SILENT_S:
            self.next_seat()

    def next_seat(self) -> None:
        """The seat after the one we reach, among those we know the address of (the relay first)."""
        table = self.table
        known = self.addresses()
        if table is None or not known:
            return
        want = self.wanted()
        order = ([want] if want in known else []) + [s for s in sorted(known) if s != want]
        current = self.uplink.seat
        seat = order[(order.index(current) + 1) % len(order)] if current in order else order[0]
        self.report(WatchedSilent(self.dialed(), seat))
        self.connect(seat, known[seat])

    def connect(self, seat: int, where: tuple[str, int]) -> None:
        table = self.table
        self.admitted = False
        self.uplink.connect(where[0], where[1], seat, watch_reach=False,
                            our_length=len(table.log) if table is not None else 0)

    def dialed(self) -> str:
        """The address our DEALER reaches, for the reader."""
        seat = self.uplink.seat
        where = self.addresses().get(seat) if seat is not None else None
        return format_address(*where) if where is not None else self.where
