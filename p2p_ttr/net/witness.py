"""When the relay holds back a message: the author shows it to the others.

A relay can sequence an author's act and then never sequence the shares
that play its cards (it has read them, and the game stalls): every replica
would say it waits for the author. The author knows it sent them. So:

- ``OurHeldBack`` (the author's side): a message of ours still not sequenced
  ``held_s`` after we sent it, while the relay answers, is sent to the relay
  again once; still not sequenced after half as long again, it goes to every
  other seat in play directly (a ``witness`` frame on a connection of its
  own to each seat's ROUTER, at the address its ``reach`` put in the log),
  and we say so. Still not sequenced ``1.5 * held_s`` after we first showed
  it (the seats we showed it to wait ``held_s`` and say so first), or
  ``3 * held_s`` after we sent it if no seat could be shown it, the relay
  holds the game back as far as we know (in an escrow game we turn to the
  next relay, as the seats we showed it to do).
- ``ShownToUs`` (every other seat's side): a witnessed envelope, signed by
  the seat whose connection it came on and not in our log, is passed on to
  our relay (if we relay, we sequence it). An honest relay sequences it, or
  refuses it (then the author's word was wrong, and we say that). If it is
  still not in our log ``held_s`` later while our relay answers, it is the
  relay that holds the game back, and every screen says so, naming it; in
  an escrow game the relay counts as gone (handover.py turns to its
  successor, which sequences the author's message).

The same links carry our turning: once we turned to the successor while
the others still hear the relay, our signed follow request goes to every
other seat in play but the relay and the successor (``show_turn``), which
turns too (handover.py), so that the relay moves and our live seat is not
carried on.

Nothing secret is sent: a witnessed message is one its author signed for
the log, and only once the log holds what needs it (seatduties.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import zmq

from p2p_ttr.client.netnotices import OursHeldBack, RelayHoldsBack, Report, WitnessRefused
from p2p_ttr.table.envelope import check_signature, open_envelope
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.identity import Identity

from . import frames
from .frames import NET_VERSION, FrameError
from .peerdoor import from_peer
from .liveness import HOST_SILENT_S
from .hellobind import hello_for
from .relay import Relay
from .replica import Replica
from .seatduties import SeatDuties
from .seqsig import entry_hash
from .socket_lock import SocketLock
from .uplink import Uplink

MAX_WITNESSED = 32  # envelopes we keep an eye on for other seats, at most
LINK_S = 30.0  # how long a connection to show our message stays up without news


@dataclass
class ShownEnvelope:
    """An envelope a seat showed us: its author, when we first saw it, whether we said it is held back."""

    author: int
    raw: bytes
    since: float
    told: bool = False


class RelayLine:
    """What witnessing needs of our way to the relay: whether it answers, and
    handing it an envelope (sequencing it ourselves, if we relay)."""

    def __init__(self, replica: Replica, relay: Relay, uplink: Uplink) -> None:
        self.replica = replica
        self.relay = relay
        self.uplink = uplink

    def answers(self, now: float) -> bool:
        """We follow the relay (not a successor we turned to), and it answers."""
        table, up = self.replica.table, self.uplink
        return (table is not None and table.seated and not self.replica.relaying and up.sock is not None
                and up.seat in (None, table.relay) and up.silent_for(now) <= HOST_SILENT_S)

    def forward(self, raw: bytes, rid: bytes | None) -> None:
        """A seat showed us its message the relay holds back: to our relay with it (we relay: sequenced)."""
        if self.replica.relaying:
            self.relay.sequencer.sequence(raw, rid)
            self.relay.flush()
        else:
            self.uplink.send(frames.Env(raw))


class ShownToUs:
    """Envelopes other seats showed us because the relay did not sequence them."""

    def __init__(self, replica: Replica, report: Report, held_s: float,
                 forward: Callable[[bytes, bytes | None], None], relay_alive: Callable[[float], bool]) -> None:
        """``forward``: hand an envelope to our relay (or sequence it, if we
        relay); ``relay_alive``: whether our relay answers now."""
        self.replica = replica
        self.report = report
        self.held_s = held_s
        self.forward = forward
        self.relay_alive = relay_alive
        self.records: dict[bytes, ShownEnvelope] = {}

    def received(self, seat: int, raw: bytes, rid: bytes | None = None) -> None:
        """``seat`` (on its admitted connection ``rid``) shows us ``raw``."""
        table = self.replica.table
        if table is None or table.game_id is None or seat < 0 or seat not in table.in_play:
            return
        digest = entry_hash(raw)
        if digest in self.records or len(self.records) >= MAX_WITNESSED:
            return
        try:
            envelope = open_envelope(raw)
            if envelope.seat != seat or envelope.game_id != table.game_id:
                return  # only its own message, of this game
            check_signature(envelope, table.seats[seat].identity)
        except TableError:
            return
        if raw in table.log[-200:] or envelope.seq <= table.last_seq.get(seat, 0):
            return  # in our log already (or older than what is)
        self.records[digest] = ShownEnvelope(seat, raw, time.monotonic())
        self.forward(raw, rid)

    def refused(self, digest: bytes, code: str) -> bool:
        """Our relay refused a witnessed envelope: the author's word was wrong. True if it was one."""
        record = self.records.pop(digest, None)
        if record is None:
            return False
        self.report(WitnessRefused(record.author, code))
        return True

    def step(self, now: float) -> None:
        """Forget what the log now holds; say when the relay holds a message back."""
        table = self.replica.table
        if table is None:
            return
        for digest, record in list(self.records.items()):
            if record.author not in table.in_play or record.raw in table.log[-500:] \
                    or open_envelope(record.raw).seq <= table.last_seq.get(record.author, 0):
                del self.records[digest]
                continue
            if not record.told and self.overdue(record, now):
                record.told = True
                self.report(RelayHoldsBack(table.relay, record.author, now - record.since, table.escrow))

    def new_relay(self) -> None:
        """The relay moved: what the old one held back goes to the new one, whose time starts now."""
        now, table = time.monotonic(), self.replica.table
        for digest, record in list(self.records.items()):
            if table is not None and record.author == table.relay:
                del self.records[digest]  # its author relays now: it sequences its own message
                continue
            record.since, record.told = now, False
            self.forward(record.raw, None)

    def overdue(self, record: ShownEnvelope, now: float) -> bool:
        return now - record.since > self.held_s and self.relay_alive(now)

    def relay_holds_back(self, now: float) -> bool:
        """Some seat's message is held back by our relay (it answers, and does not sequence it)."""
        return any(self.overdue(r, now) for r in self.records.values())


class OurHeldBack:
    """Our own messages the relay holds back, shown to the other seats directly."""

    def __init__(self, replica: Replica, duties: SeatDuties, identity: Identity, name: str, report: Report,
                 held_s: float, socket_lock: SocketLock, relay_alive: Callable[[float], bool],
                 resend: Callable[[bytes], None],
                 turned_request: Callable[[], frames.Follow | None] = lambda: None) -> None:
        """``relay_alive``: whether our relay answers; ``resend``: send an
        envelope to the relay again; ``turned_request``: our signed request to
        the successor, once we turned alone (handover.py)."""
        self.replica = replica
        self.duties = duties
        self.identity = identity
        self.name = name
        self.report = report
        self.held_s = held_s
        self.socket_lock = socket_lock
        self.relay_alive = relay_alive
        self.resend = resend
        self.turned_request = turned_request
        self.context: zmq.Context[zmq.Socket[bytes]] | None = None
        self.poller: zmq.Poller | None = None
        self.links: dict[int, Uplink] = {}  # seat -> our connection to it while we show it our messages
        self._shown: dict[int, set[bytes]] = {}  # seat -> digests we sent it
        self._resent: set[bytes] = set()
        self._told: set[bytes] = set()
        self._first_shown: dict[bytes, float] = {}  # digest -> when a seat was first shown it
        self._last_news = 0.0

    def open_on(self, context: zmq.Context[zmq.Socket[bytes]], poller: zmq.Poller) -> None:
        """The loop's context and poller, for the links we open to show our messages."""
        self.context, self.poller = context, poller

    def step(self, now: float) -> None:
        """Resend, then show, what the relay holds back, and our turning;
        close the links when nothing is to be shown."""
        table = self.replica.table
        self.show_turn(now)
        held = self.duties.overdue(now, self.held_s) if table is not None and self.relay_alive(now) else []
        if not held:
            if self.links and now - self._last_news > LINK_S:
                self.close()
            return
        assert table is not None
        self._last_news = now
        for digest, raw, waited in held:
            if digest not in self._resent:
                self._resent.add(digest)
                self.resend(raw)  # the relay may simply have lost it
                continue
            if waited < 1.5 * self.held_s:
                continue
            if digest not in self._told:
                self._told.add(digest)
                self.report(OursHeldBack(table.relay, waited))
            for seat in table.in_play:
                if seat not in (table.relay, self.replica.seat) and seat in table.reach:
                    if self._show(seat, digest, frames.Witness(raw)):
                        self._first_shown.setdefault(digest, now)

    def show_turn(self, now: float) -> None:
        """We turned to the successor alone (the relay is out of our reach):
        our signed request goes to every other seat in play we can reach,
        each of which turns too (handover.py), so that the relay moves and
        our live seat is not carried on (protocol.md §9, Hand-over)."""
        table, request = self.replica.table, self.turned_request()
        if table is None or request is None:
            return
        self._last_news = now
        for seat in table.in_play:
            if seat not in (table.relay, table.successor, self.replica.seat) and seat in table.reach:
                self._show(seat, request.signature, request)

    def relay_holds_back(self, now: float) -> bool:
        """A message of ours is still not sequenced, while the relay answers,
        ``1.5 * held_s`` after we first showed it to another seat: that seat
        has had its ``held_s`` to see the relay not sequence it and to say
        so on its screen, and we, its author, know the relay holds the game
        back. Shown to no seat (none could be reached), ``3 * held_s`` after
        we sent it."""
        if not self.relay_alive(now):
            return False
        return any(self._turn_due(d, waited, now) for d, _, waited in self.duties.overdue(now, self.held_s))

    def _turn_due(self, digest: bytes, waited: float, now: float) -> bool:
        if digest not in self._told:
            return False
        shown = self._first_shown.get(digest)
        return now - shown >= 1.5 * self.held_s if shown is not None else waited >= 3 * self.held_s

    def new_relay(self, now: float) -> None:
        """The relay moved: our held-back messages go to the new one, whose
        time starts now (counted from the old relay's, it would count as
        holding them back the moment it took over)."""
        self.duties.restart_clocks(now)
        self._resent.clear()
        self._told.clear()
        self._first_shown.clear()
        self.close()

    def _show(self, seat: int, key: bytes, frame: frames.ToHost) -> bool:
        """Send ``frame`` to ``seat`` once per connection (``key`` names it); True once sent."""
        link = self.links.get(seat)
        if link is None:
            table = self.replica.table
            assert table is not None
            link = Uplink(f"{self.replica.who(seat)}", 30.0, self.socket_lock)
            assert self.context is not None
            link.open_on(self.context, self.poller)
            host, port = table.reach[seat]
            link.connect(host, port, seat, watch_reach=False, our_length=len(table.log))
            self.links[seat] = link
            link.send(frames.Hi(NET_VERSION))
        if link.welcomed and key not in self._shown.setdefault(seat, set()):
            self._shown[seat].add(key)
            link.send(frame)
        return key in self._shown.get(seat, set())

    def handle(self, seat: int, raw: bytes) -> None:
        """A frame on our link to ``seat``: answer its challenge; once welcomed, show what is held back."""
        link, table = self.links.get(seat), self.replica.table
        if link is None or table is None:
            return
        try:
            frame = from_peer(raw)
        except FrameError:
            return
        link.heard_now()
        match frame:
            case frames.Challenge(version, public, challenge, _):
                if version == NET_VERSION and public == table.seats[seat].identity and challenge != link.challenge:
                    link.answered(challenge, public)
                    link.send(hello_for(self.identity, self.name, public, challenge, (link.address, link.port)))
            case frames.Welcome(_, game_id, length, _):
                if game_id == table.game_id:
                    link.welcomed_at(length)
                    self._shown.pop(seat, None)  # a new connection: show again
                    self._last_news = 0.0

    def sockets(self) -> list[tuple[int, zmq.Socket[bytes]]]:
        return [(seat, link.sock) for seat, link in self.links.items() if link.sock is not None]

    def close(self) -> None:
        for link in self.links.values():
            link.disconnect()
        self.links.clear()
        self._shown.clear()
