"""The relay's side of a peer: every frame that comes in on our ROUTER, and
the heartbeat that goes out on it.

Every peer binds a ROUTER (router.py). ``Relay.handle`` reads each frame and
hands it to the part that owns it:

- admission.py: challenges, hellos, the lobby;
- sequencer.py: envelopes we sequence while our seat relays (or hold back);
- catchup.py: entries for seats that lack them, and fetched for our log;
- standby.py: follow requests to us, the successor, and taking over (a
  request shown to a seat that is not the successor goes to handover.py);
- watchers.py: watchers (no seat, no secret), bounded and rate-limited;
- vouch.py: our game described, signed, to whoever heard our beacon.

The relay has no power beyond order: it cannot forge or hide anything,
since every peer checks every entry itself (protocol.md §9).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from p2p_ttr.client.doorfacts import Door, DoorDetail, DoorKind
from p2p_ttr.client.livenessfacts import OtherGaveUp, SeatGaveUp
from p2p_ttr.client.netnotices import Report
from p2p_ttr.errorcodes import ErrorCode
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.relaying import FollowRequest

from . import frames
from .admission import Admission
from .catchup import CatchUp, Note
from .droplog import DropLog
from .followrequests import FollowRequests
from .frames import NET_VERSION, FrameError
from .gaveupsig import gave_up_signed, sign_gave_up
from .liveness import Presence
from .lobby import Dialled
from .pause import sign_pause
from .replica import Replica
from .router import Router
from .sequencer import Sequencer
from .socket_lock import SocketLock
from .standby import Standby
from .trace import Trace
from .vouch import Describer
from .watchers import Watchers


class Relay:
    """Our ROUTER and the relay's duties on it (see the module docstring for its parts)."""

    def __init__(self, replica: Replica, identity: Identity, report: Report, trace: Trace,
                 players: int = 0, socket_lock: SocketLock | None = None, presence: Presence | None = None, *,
                 listen: int = 0, silence_s: float = 20.0, front: Dialled | None = None,
                 witnessed: Callable[[bytes, int, bytes], None] = lambda rid, seat, raw: None,
                 shown_turn: Callable[[int, FollowRequest], None] = lambda seat, request: None,
                 signed: Callable[[int], None] = lambda seat: None,
                 adopted: Callable[[bytes], None] = lambda raw: None) -> None:
        """``listen``: the port our ROUTER binds (0: any free one); ``silence_s``: the relay timeout, a
        seat unheard this long counts as silent; ``front``: where our player says we are dialled instead
        (--advertise). What the relay's side hears for the rest of the peer: ``witnessed``, a seat shows
        us an envelope its relay holds back (witness.py); ``shown_turn``, a seat shows us its follow
        request to a successor that is not us (handover.py); ``signed``, a seat's signed word reached us
        (standby.py); ``adopted``, an entry fetched into our log (catchup.py)."""
        self.replica = replica
        self.report = report
        self.drops = DropLog(report)  # what our doors drop, said at a bounded pace
        self.router = Router(socket_lock, listen)
        self.admission = Admission(replica, self.router, report, players, self.drops, front=front)
        self.requests = FollowRequests()  # seat -> its follow request to us (we relay next)
        self.catchup = CatchUp(replica, self.router, self.admission, identity, report, self.requests, self.drops,
                               adopted=adopted)
        self.sequencer = Sequencer(replica, self.router, self.admission, identity, report, trace, self.drops)
        self.standby = Standby(replica, self.admission, self.catchup, self.sequencer, report, self.requests,
                               signed=signed)
        self.watchers = Watchers(replica, self.router, self.admission, report)
        self.describer = Describer(identity, self.router, self.drops, self.admission.not_ours)  # vouch.py
        self.identity = identity
        self.since = time.monotonic()  # when this run, or our relaying, began (a seat never heard counts from then)
        self.witnessed = witnessed
        self.shown_turn = shown_turn
        self.silence_s = silence_s
        self.presence = presence or Presence()  # who is alive, as we see it (liveness.py)

    # ------------------------------------------------------------- frames in

    def handle(self, parts: list[bytes]) -> None:
        if len(parts) != 2:
            self.drops.drop(DoorKind(Door.WRONG_SHAPE), DoorDetail(parts=len(parts)))
            return
        rid, raw = parts
        if self.watchers.is_muted(rid):
            return  # a watcher over its rate: dropped unread
        try:
            frame = frames.decode_to_host(raw)
        except FrameError as exc:
            self.drops.drop(DoorKind(Door.BAD_FRAME), DoorDetail(str(exc)))
            return
        if self.watchers.handle(rid, frame):
            return
        c = self.admission.connections
        match frame:
            case frames.Hi(version):
                if version != NET_VERSION:  # told in a frame every version reads: a challenge's shape may differ
                    self.router.send(rid, frames.NotAdmitted(ErrorCode.VERSION, frames.other_version_words(version)))
                elif rid not in c.known:
                    self.admission.challenge(rid)
            case frames.Hello() as hello:
                self.admission.hello(rid, hello)
            case frames.Describe() as ask:
                self.describer.answer(rid, ask)
                return  # asked by whoever heard our beacon: it admits nobody
            case _ if rid not in c.known:
                # A new connection (a peer from before a restart of either side):
                # it must say hello on this connection.
                self.admission.challenge(rid)
                return
        if rid not in c.known:
            return  # a stranger is remembered only by its outstanding challenge (bounded: lobby.py)
        c.heard_now(rid)
        match frame:
            case frames.Env(envelope):
                self.envelope(rid, envelope)
            case frames.Sync(start):
                self.catchup.catch_up(rid, start, self.sequencer.flush)
            case frames.Ping(length, head):
                seat = c.seat_of(rid)
                if seat >= 0:
                    self.catchup.acknowledged(rid, seat, length, self.sequencer.flush, head)
                    if self.catchup.may_fetch_from(seat):
                        self.catchup.fetch(rid, seat)
            case frames.LeaveLobby():
                self.admission.left(rid)
            case frames.Have(index, envelope, signature):
                self.catchup.adopt(rid, index, envelope, signature)
            case frames.Follow(length, head, signature):
                if not self.standby.follow(rid, length, head, signature):
                    # Not ours to take: a seat that turned alone shows us its request (handover.py).
                    self.shown_turn(c.seat_of(rid), FollowRequest(c.seat_of(rid), length, head, signature))
            case frames.Witness(envelope):
                self.witnessed(rid, c.seat_of(rid), envelope)
            case frames.GiveUp(why, about, seconds, signature):
                seat = c.seat_of(rid)
                table = self.replica.table
                if seat >= 0 and table is not None and table.seated and all(s < table.n for s in about):
                    news = SeatGaveUp(seat, why, about, seconds)
                    # Passed on only with its seat's own signature: every peer
                    # checks it, so an unsigned word would be dropped downstream.
                    if gave_up_signed(table.seats[seat].identity, signature, table.game_id, news):
                        self.gave_up(news, signature, rid)

    def envelope(self, rid: bytes, raw: bytes) -> None:
        """A seat's envelope: sequenced while we relay; held back while we may
        not yet (a resumed relay waiting for every seat, or, before we take
        over, from a seat that turned to us); else it was not ours to take."""
        if self.replica.table is not None and (self.catchup.gated or not self.replica.relaying):
            if self.catchup.gated or self.admission.connections.seat_of(rid) in self.requests:
                self.sequencer.hold_back(rid, raw)
            return  # we are not its relay: it goes to the relay it follows
        self.sequencer.envelope(rid, raw)

    # ------------------------------------------------------------ frames out

    def forget_requests(self) -> None:
        """The relay moved: the follow requests of its term are spent."""
        self.requests.spent()

    def relaying_from_now(self) -> None:
        """We took over: a seat that has not found us yet counts as unheard from now (``silence``)."""
        self.since = time.monotonic()

    def flush(self) -> None:
        self.sequencer.flush()
        self.watchers.pump()  # after the fsync: a watcher never holds an entry we could forget

    def pulse(self) -> None:
        """A heartbeat to every admitted connection (in the lobby too: joiners
        must hear that we are alive). Called from the heartbeat's thread
        (heartbeat.py): it reads only what it may read from there."""
        table = self.replica.table
        length = len(table.log) if table is not None else 0
        for rid in list(self.admission.connections.known):
            self.router.send(rid, frames.Ping(length))

    def beat(self) -> None:
        """Once a second, from the loop: the relay says which seats it has not
        heard for the relay timeout. Only the relay sees every seat's
        connection: with its word every peer tells a seat thinking over a
        move from one that is gone (liveness.py), and in an escrow game only
        a silent seat may be carried on. Watchers get their ping here (never
        ``silent``: that is the seats')."""
        self.watchers.beat()
        table = self.replica.table
        if table is None or not table.seated or not self.replica.relaying or table.complete:
            return  # (until the audit is in: a seat that never reveals may be silent, or withholding)
        silence = self.silence(self.silence_s)
        self.presence.heard(silence)
        silent = frames.Silent(silence)
        for rid in list(self.admission.connections.known):
            self.router.send(rid, silent)

    def give_up(self, news: SeatGaveUp) -> None:
        """Our own seat gives up on the game: said, signed, to every connection."""
        table = self.replica.table
        self.gave_up(news, sign_gave_up(self.identity, table.game_id if table is not None else None, news))

    def gave_up(self, news: SeatGaveUp, signature: bytes, source: bytes | None = None) -> None:
        """A seat gave up on the game, ``signature`` its own (checked by the
        caller; ``source``: its connection; None: our own seat): said here,
        and passed on to every other connection, so that every screen says
        who left and why."""
        self.presence.left(news)
        if source is not None:
            self.report(OtherGaveUp(news, self.replica.seat))
        frame = frames.GaveUp(news.seat, news.why, news.about, news.seconds, signature)
        for rid in list(self.admission.connections.known):
            if rid != source:
                self.router.send(rid, frame)

    def pause(self) -> None:
        """Tell every connection admitted in this run that we stop for now
        (signed over the challenge that connection answered)."""
        self.flush()
        table = self.replica.table
        game_id = table.game_id if table is not None else None
        length = len(table.log) if table is not None else 0
        c = self.admission.connections
        for rid in c.known:
            challenge = c.answered.get(rid)
            if challenge is not None:
                self.router.send(rid, frames.Pause(length, sign_pause(self.identity, challenge, game_id, length)))
        self.watchers.pause(lambda challenge: frames.Pause(length, sign_pause(self.identity, challenge, game_id,
                                                                              length)))

    def reaching_seats(self) -> tuple[int, ...]:
        """The seats (but ours) admitted on our ROUTER in this run: the ones we
        relay to, or, as the successor, the ones that turned to us."""
        return tuple(sorted({s for s in self.admission.connections.known.values() if s >= 0 and s != self.replica.seat}))

    # ---------------------------------------------------------------- silence

    def silent_seats(self, for_s: float) -> tuple[int, ...]:
        """The seats in play (but ours) whose connection we have not heard for ``for_s`` seconds (``silence``)."""
        return tuple(seat for seat, _ in self.silence(for_s))

    def silence(self, for_s: float) -> tuple[tuple[int, int], ...]:
        """(seat, whole seconds unheard) for each seat in play (but ours) whose
        connection we have not heard for ``for_s`` seconds; a seat not heard
        at all since ``since`` is given twice that (after a hand-over it must
        first find the relay moved, which takes it the relay timeout), and
        its seconds count from ``since`` (all we know of it)."""
        table = self.replica.table
        if table is None or not table.seated:
            return ()
        now = time.monotonic()
        c = self.admission.connections
        silent = []
        for s in table.in_play:
            if s == self.replica.seat:
                continue
            rid = c.conn.get(table.seats[s].identity)
            last = c.heard.get(rid) if rid is not None else None
            unheard = now - last if last is not None and last >= self.since else None
            if unheard is not None and unheard > for_s:
                silent.append((s, min(int(unheard), frames.MAX_SECONDS)))
            elif unheard is None and now - self.since > 2 * for_s:
                silent.append((s, min(int(now - self.since), frames.MAX_SECONDS)))
        return tuple(silent)

    def all_silent(self, for_s: float) -> bool:
        """No seat's connection has been heard for ``for_s`` seconds (none admitted counts as silent)."""
        now = time.monotonic()
        c = self.admission.connections
        return all(now - when > for_s for rid, when in c.heard.items() if c.seat_of(rid) >= 0)

    # ------------------------------------------------------------ the gate

    def open_gate(self, note: Note) -> bool:
        """Whether we may sequence (a resumed relay: once every seat in play
        said how much it holds); on opening, what was held back is sequenced."""
        if self.catchup.gate_opens(note):
            self.sequencer.release()
        return not self.catchup.gated
