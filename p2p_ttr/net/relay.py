"""The relay's side of a peer: the ROUTER every peer binds, and what is done
on it.

Peers are known by connection (the routing id the ROUTER gives each one): a
connection is admitted, as a seat or a lobby member, by a hello that answers
the challenge issued to that very connection (lobby.py); any frame from a
connection not admitted is answered with its challenge.

While our seat is the table's relay (seat 0 until a hand-over), every
signed envelope a seat sends is folded into our table: an accepted one gets
the next index, is made durable, signed (a receipt, seqsig.py) and relayed
to every seat; a refused one goes back to its author with the reason. The
relay cannot forge or hide anything: peers check every entry themselves.

While another seat relays, the same socket waits for the day the relay
leaves and we are its successor: seats that lost the relay come to us with
their signed follow requests; once every other seat in play has, and we
hold the longest log among them, our first entry hands the relay over
(table/relaying.py) and we sequence from there.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import zmq

from p2p_ttr.engine.errors import EngineError
from p2p_ttr.errorcodes import ErrorCode
from p2p_ttr.table.envelope import MAX_SEATS
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.relaying import FollowRequest, follow_valid
from p2p_ttr.table.table import Table

from . import frames
from .console import Console
from .frames import NET_VERSION, FrameError, clip, encode_frame
from .lobby import Challenges, Lobby, Refusal
from .pause import sign_pause
from .seqsig import entry_hash, entry_signed, sign_entry
from .store import GameStore
from .trace import Trace

LOBBY_SILENT_S = 5.0  # a lobby member unheard this long (it pings every second) has left
FETCH_EVERY_S = 2.0  # how often to ask a seat again for entries our log lacks
FETCH_TRIES = 5
MAX_HELD_BACK = 10_000  # envelopes kept while we may not sequence yet
MAX_HELD_BYTES = 64 << 20  # and their bytes


class RelayExit(Exception):
    """The relay cannot go on: a process exit code and a message for the player."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class Connections:
    """Who is on our ROUTER: admitted connections and what we know of each."""

    challenges: Challenges = field(default_factory=Challenges)  # outstanding, per connection not admitted
    known: dict[bytes, int] = field(default_factory=dict)  # admitted connection -> seat (-1 in the lobby)
    answered: dict[bytes, bytes] = field(default_factory=dict)  # admitted connection -> the challenge it answered
    conn: dict[bytes, bytes] = field(default_factory=dict)  # identity key -> its admitted connection (the latest)
    heard: dict[bytes, float] = field(default_factory=dict)  # admitted connection -> when it last sent anything

    def admit(self, rid: bytes, public: bytes, seat: int, challenge: bytes) -> None:
        """``rid`` is now ``public``'s connection; an earlier one of that key no longer is."""
        old = self.conn.get(public)
        if old is not None and old != rid:
            self.forget(old)
        self.conn[public] = rid
        self.known[rid] = seat
        self.answered[rid] = challenge
        self.heard[rid] = time.monotonic()

    def forget(self, rid: bytes) -> None:
        self.known.pop(rid, None)
        self.heard.pop(rid, None)
        self.answered.pop(rid, None)


class Relay:
    """Our ROUTER and the relay's duties on it: the lobby before the game;
    admitting seats; sequencing (while our seat relays); catching seats up;
    fetching what our log lacks (after a resume, or before taking over);
    collecting follow requests and handing the relay over to us."""

    def __init__(self, identity: Identity, console: Console, trace: Trace, names: Callable[[], tuple[str, ...]],
                 lobby: Lobby | None = None, players: int = 0) -> None:
        self.identity = identity
        self.console = console
        self.trace = trace
        self._names = names
        self.lobby = lobby  # the host's, before the game
        self.players = players  # the lobby starts when this many are in (0: when the host says)
        self.escrow = False  # the host's game will escrow every seat's key (told in the lobby)
        self.sock: zmq.Socket[bytes] | None = None
        self.table: Table | None = None
        self.store: GameStore | None = None
        self.seat: int | None = None  # our seat, once the seating says it
        self.c = Connections()
        self.peer_len: dict[int, int] = {}
        # After a resume our log may have lost its tail (storage lost in a
        # crash) while the seats hold it: sequencing anything then would sign
        # a second entry at an index they hold. So a resumed relay sequences
        # nothing (``gated``) until every seat in play has said how much of the
        # log it holds, and fetches what they hold beyond ours. A successor
        # does the same before it takes over.
        self.gated = False
        self.reported: dict[int, int] = {}  # seat -> the log length it reported in this run
        self.held_back: list[tuple[bytes, bytes]] = []  # (connection, envelope) we may not sequence yet
        self._held_bytes = 0
        self._fetches: dict[int, tuple[int, int, float]] = {}  # seat -> (from index, times asked, when)
        self.fetched: dict[str, list[int]] = {}  # name -> indices fetched from that seat
        self.requests: dict[int, FollowRequest] = {}  # seat -> its follow request to us (we relay next)
        self._outgoing: list[list[bytes]] = []
        self.adopted: Callable[[bytes], None] = lambda raw: None  # the owner hears of each entry fetched
        self.since = time.monotonic()  # when this run began (a seat never heard since is silent since then)
        self.silence_s = 20.0  # the relay timeout: a seat unheard this long counts as silent

    # ---------------------------------------------------------------- views

    @property
    def relaying(self) -> bool:
        """We sequence: our seat is the table's relay (or we hold the lobby)."""
        if self.table is None or not self.table.seated:
            return self.lobby is not None
        return self.table.relay == self.seat

    @property
    def known(self) -> dict[bytes, int]:
        return self.c.known

    def who(self, seat: int) -> str:
        names = self._names()
        return names[seat] if 0 <= seat < len(names) else "a peer"

    def send(self, rid: bytes, frame: frames.ToPeer) -> None:
        if self.sock is not None:
            self.sock.send_multipart([rid, encode_frame(frame)])

    def seat_connections(self) -> list[bytes]:
        """The admitted connection of each seat but ours that has one in this run."""
        assert self.table is not None
        rids = (self.c.conn.get(seat.identity) for s, seat in enumerate(self.table.seats) if s != self.seat)
        return [rid for rid in rids if rid is not None]

    # ------------------------------------------------------------ sequencing

    def sequence(self, raw: bytes, author: bytes | None) -> bool:
        """Fold ``raw`` (from connection ``author``, or ours if None) and, if
        the table takes it, give it the next index, sign and store it and
        queue it for every seat (``flush`` sends)."""
        table, store = self.table, self.store
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
                self.console.say(f"our own message was refused ({code}): {exc}")
            else:
                self.console.say(f"refused a message from {self.who(self.c.known.get(author, -1))} ({code}): {exc}")
                self.send(author, frames.Rejected(entry_hash(raw), clip(str(code)), clip(str(exc))))
            return False
        assert table.game_id is not None
        index = len(table.log) - 1
        sig = sign_entry(self.identity, table.game_id, index, prev, raw)
        store.add_receipt(index, entry_hash(raw), sig)
        store.append(raw)
        self.trace.folded(table, self.seat)
        frame = encode_frame(frames.Entry(index, raw, sig))
        self._outgoing.extend([rid, frame] for rid in self.seat_connections())
        return True

    def flush(self) -> None:
        """Make the new entries durable (one fsync for a batch), then send them:
        nobody hears of an entry the relay could forget."""
        if self._outgoing and self.store is not None:
            self.store.sync()
            if self.sock is not None:
                for parts in self._outgoing:
                    self.sock.send_multipart(parts)
            self._outgoing.clear()

    def beat(self) -> None:
        """A heartbeat to every admitted connection (in the lobby too: joiners
        must hear that we are alive). In an escrow game the relay adds which
        seats it has not heard for the relay timeout: only the relay sees
        every seat's connection, and only a silent seat may be carried on."""
        table = self.table
        silent = (frames.Silent(self.silent_seats(self.silence_s))
                  if table is not None and table.escrow and self.relaying and not table.finished else None)
        for rid in self.c.known:
            self.send(rid, frames.Ping(len(table.log) if table else 0))
            if silent is not None:
                self.send(rid, silent)

    def silent_seats(self, for_s: float) -> tuple[int, ...]:
        """The seats in play (but ours) whose connection we have not heard for
        ``for_s`` seconds, or at all in this run for that long."""
        table = self.table
        if table is None or not table.seated:
            return ()
        now = time.monotonic()
        silent = []
        for s in table.in_play:
            if s == self.seat:
                continue
            rid = self.c.conn.get(table.seats[s].identity)
            last = self.c.heard.get(rid, self.since) if rid is not None else self.since
            if now - last > for_s:
                silent.append(s)
        return tuple(silent)

    def catch_up(self, rid: bytes, start: int) -> None:
        """Send entries from ``start`` with their receipts (ours we can sign again: Ed25519 is deterministic)."""
        table = self.table
        if table is None or table.game_id is None:
            return
        self.flush()  # what we send from the log must be durable first
        receipts = self.store.receipts() if self.store is not None and start < len(table.log) else {}
        for index in range(start, len(table.log)):
            raw = table.log[index]
            sig = receipts.get(index, (b"", b""))[1]
            if len(sig) != 64:
                if table.relay_at(index) != self.seat:
                    return  # another relay's entry without its receipt: we cannot vouch for it
                sig = sign_entry(self.identity, table.game_id, index, table.prev_head(index), raw)
            self.send(rid, frames.Entry(index, raw, sig))

    def everyone_has(self, length: int, seats: tuple[int, ...] | None = None) -> bool:
        """Every other seat (of ``seats``; default all) reported holding ``length`` entries."""
        assert self.table is not None
        among = range(self.table.n) if seats is None else seats
        return all(self.peer_len.get(s, 0) >= length for s in among if s != self.seat)

    def all_silent(self, for_s: float) -> bool:
        """No seat's connection has been heard for ``for_s`` seconds (none admitted counts as silent)."""
        now = time.monotonic()
        return all(now - when > for_s for rid, when in self.c.heard.items() if self.c.known.get(rid, -1) >= 0)

    def pause(self) -> None:
        """Tell every connection admitted in this run that we stop for now
        (signed over the challenge that connection answered)."""
        self.flush()
        table = self.table
        game_id = table.game_id if table is not None else None
        length = len(table.log) if table is not None else 0
        for rid in self.c.known:
            challenge = self.c.answered.get(rid)
            if challenge is not None:
                self.send(rid, frames.Pause(length, sign_pause(self.identity, challenge, game_id, length)))

    # ------------------------------------------------------------- frames

    def handle(self, parts: list[bytes]) -> None:
        if len(parts) != 2:
            self.console.say(f"dropped a message of {len(parts)} parts")
            return
        rid, raw = parts
        try:
            frame = frames.decode_to_host(raw)
        except FrameError as exc:
            self.console.say(f"dropped a bad frame: {exc}")
            return
        match frame:
            case frames.Hi(version):
                if version != NET_VERSION:  # told in a frame every version reads: a challenge's shape may differ
                    self.send(rid, frames.Refused(ErrorCode.VERSION, f"this host speaks LAN protocol {NET_VERSION}, "
                                                                     f"you speak {version}: update ttr"))
                elif rid not in self.c.known:
                    self.challenge(rid)
            case frames.Hello(version, name, identity, challenge, signature):
                self.hello(rid, version, name, identity, challenge, signature)
            case _ if rid not in self.c.known:
                # A new connection (a peer from before a restart of either side):
                # it must say hello on this connection.
                self.challenge(rid)
                return
        self.c.heard[rid] = time.monotonic()
        match frame:
            case frames.Env(envelope):
                if self.table is not None and (self.gated or not self.relaying):
                    self.hold_back(rid, envelope)
                else:
                    self.envelope(rid, envelope)
            case frames.Sync(start):
                self.catch_up(rid, start)
            case frames.Ping(length):
                seat = self.c.known[rid]
                if seat >= 0:
                    self.peer_len[seat] = length
                    self.reported[seat] = length
                    if self.may_fetch_from(seat):
                        self.fetch(rid, seat)
            case frames.Leave():
                if self.c.known[rid] == -1 and self.table is None:
                    self.drop_member(rid, "left")
            case frames.Have(index, envelope, signature):
                self.adopt(rid, index, envelope, signature)
            case frames.Follow(length, head, signature):
                self.follow(rid, length, head, signature)

    def hold_back(self, rid: bytes, raw: bytes) -> None:
        """Keep an envelope we may not sequence yet: while a resumed relay
        waits for every seat, or, before we take over, from a seat that turned
        to us. Bounded in count and bytes."""
        seat = self.c.known.get(rid, -1)
        if not (self.gated or seat in self.requests):
            return  # we are not its relay: it goes to the relay it follows
        if len(self.held_back) < MAX_HELD_BACK and self._held_bytes + len(raw) <= MAX_HELD_BYTES:
            self.held_back.append((rid, raw))
            self._held_bytes += len(raw)

    def envelope(self, rid: bytes, raw: bytes) -> None:
        if self.table is None:
            self.send(rid, frames.Rejected(entry_hash(raw), ErrorCode.NOT_EXPECTED, "the game has not started"))
            return
        if self.table.sequencer_of(raw) != self.seat:
            # A hand-over entry is sequenced by its author, the new relay, only.
            self.send(rid, frames.Rejected(entry_hash(raw), ErrorCode.NOT_EXPECTED,
                                           "a relay entry is sequenced by its author, the new relay"))
            return
        self.sequence(raw, rid)

    # ------------------------------------------------------------ admission

    def challenge(self, rid: bytes) -> None:
        """Send a connection not admitted its challenge (the same until a hello uses it)."""
        game_id = self.table.game_id if self.table is not None else None
        self.send(rid, frames.Challenge(NET_VERSION, self.identity.public, self.c.challenges.issue(rid), game_id))

    def hello(self, rid: bytes, version: int, name: str, public: bytes, challenge: bytes, sig: bytes) -> None:
        if rid in self.c.known:
            self.console.say("dropped a second hello on an admitted connection")
            return
        if not self.c.challenges.take(rid, challenge):
            # Not the challenge this connection was sent (a hello recorded on
            # another connection, or one sent before a restart): it admits
            # nobody; the connection gets its own challenge to answer.
            self.console.say("dropped a hello that does not answer its connection's challenge")
            self.challenge(rid)
            return
        try:
            if self.table is not None and self.table.seated:
                seat = next((s for s, seat in enumerate(self.table.seats) if seat.identity == public), None)
                probe = Lobby(self.who(self.seat) if self.seat is not None else "-", self.identity.public,
                              MAX_SEATS + 1)
                probe.join(version, name, public, challenge, sig)  # version and signature checks
                if seat is None or seat == self.seat:
                    raise Refusal(ErrorCode.STARTED, "the game has already started")
                self.c.admit(rid, public, seat, challenge)
                self.send(rid, frames.Welcome(seat, self.table.game_id, len(self.table.log), self._names()))
                self.console.say(f"{self.who(seat)} is back" if self.relaying
                                 else f"{self.who(seat)} reached us (we relay next if the relay is gone)")
                return
            if self.lobby is None:
                raise Refusal(ErrorCode.STARTED, "no game here yet")
            new = self.lobby.join(version, name, public, challenge, sig)
        except Refusal as refusal:
            self.console.say(f"refused {name!r}: {refusal.reason}")
            self.send(rid, frames.Refused(refusal.code, clip(refusal.reason)))
            return
        self.c.admit(rid, public, -1, challenge)
        self.send(rid, frames.Welcome(-1, None, 0, tuple(self.lobby.names)))
        if new:
            wanted = self.players
            self.console.say(
                f"{name} joined ({len(self.lobby.names)}" + (f" of {wanted})" if wanted else ")")
                + ("" if wanted else ": press Enter to start")
            )
            self.lobby_news()

    def lobby_news(self) -> None:
        assert self.lobby is not None
        for member in self.c.known:
            self.send(member, frames.LobbyNews(tuple(self.lobby.names), self.players, self.escrow))

    def seated(self, members: list[bytes]) -> None:
        """The seating is in: lobby members (-1) now have their seats (in ``members`` order)."""
        for seat, public in enumerate(members):
            rid = self.c.conn.get(public)
            if rid is not None and rid in self.c.known:
                self.c.known[rid] = seat

    def drop_member(self, rid: bytes, why: str) -> None:
        """A lobby member left, or went silent: free its place and tell the others."""
        public = next((pub for pub, conn in self.c.conn.items() if conn == rid), None)
        self.c.forget(rid)
        if public is None or self.lobby is None:
            return
        del self.c.conn[public]
        name = self.lobby.leave(public)
        if name is None:
            return
        self.console.say(f"{name} {why}: {len(self.lobby.names)} in the lobby ({', '.join(self.lobby.names)})")
        self.lobby_news()

    def drop_silent_members(self) -> None:
        now = time.monotonic()
        for rid, seat in list(self.c.known.items()):
            if seat == -1 and now - self.c.heard.get(rid, now) > LOBBY_SILENT_S:
                self.drop_member(rid, f"left the lobby (silent for {LOBBY_SILENT_S:.0f} s)")

    # ------------------------------------------------- a log that lacks entries

    def fetch(self, rid: bytes, seat: int) -> None:
        """Ask ``seat`` for the entries it holds beyond our log, now and then."""
        table = self.table
        assert table is not None
        if self.reported.get(seat, 0) <= len(table.log):
            return
        start, tries, when = self._fetches.get(seat, (-1, 0, 0.0))
        now = time.monotonic()
        if start == len(table.log) and now - when < FETCH_EVERY_S:
            return
        tries = tries + 1 if start == len(table.log) else 1
        if tries > FETCH_TRIES and not self.relaying:
            # A seat that turned to us says it holds more than it can send:
            # it has not turned to us after all (its request is dropped).
            self.console.say(f"{self.who(seat)} said it holds {self.reported.get(seat)} entries but sent none: "
                             "we do not count it as following us")
            self.requests.pop(seat, None)
            self.reported.pop(seat, None)
            self._fetches.pop(seat, None)
            return
        if tries > FETCH_TRIES:
            raise RelayExit(1, f"our log ({self.store.log_path if self.store else '-'}) lacks entries from "
                               f"{len(table.log)} on, which {self.who(seat)} holds, but {self.who(seat)} "
                               "cannot send them with their relay's signature: this log cannot go on; a joiner's "
                               "copy of the game's game.log can replace it")
        self._fetches[seat] = (len(table.log), tries, now)
        self.send(rid, frames.Fetch(len(table.log)))

    def adopt(self, rid: bytes, index: int, raw: bytes, sig: bytes) -> None:
        """An entry a seat holds and our log lacks (it lost it, or we never
        had it before taking over): taken only at our log's end and under
        the signature of the relay that sequenced it."""
        table, store = self.table, self.store
        seat = self.c.known.get(rid, -1)
        if table is None or store is None or seat < 0 or not self.may_fetch_from(seat) or index != len(table.log):
            return
        assert table.game_id is not None
        relay = table.sequencer_of(raw)
        if not entry_signed(table.seats[relay].identity, table.game_id, index, table.head, raw, sig):
            self.console.say(f"dropped entry {index} from {self.who(seat)}: it does not carry its relay's signature")
            return
        try:
            table.receive(raw)
        except (TableError, EngineError) as exc:
            if relay != self.seat:
                # Signed by its own author (a relay entry it wrote itself), or
                # by another relay: a seat's word, and a false one. Dropped.
                self.console.say(f"dropped entry {index} from {self.who(seat)}: it does not fold ({exc})")
                return
            raise RelayExit(1, f"entry {index}, which we signed and {self.who(seat)} sent back, "
                               f"does not fold ({exc}): our log and its differ; the game stops here") from None
        store.add_receipt(index, entry_hash(raw), sig)
        store.append(raw)
        self.adopted(raw)
        self.fetched.setdefault(self.who(seat), []).append(index)
        if self.relaying:
            frame = encode_frame(frames.Entry(index, raw, sig))
            self._outgoing.extend([conn, frame] for conn in self.seat_connections() if conn != rid)

    def may_fetch_from(self, seat: int) -> bool:
        """Whether we take entries from ``seat`` outside the relayed log: as a
        resumed relay that may have lost its tail, or as the successor from a
        seat that turned to us. Never otherwise: a follower's log grows only
        through the relay it follows."""
        table = self.table
        if table is None or not table.seated:
            return False
        if self.relaying:
            return self.gated
        return table.successor == self.seat and seat in self.requests

    def caught_up_with_all(self, seats: list[int], what: str, note: Callable[[str], None]) -> bool:
        """Every seat in ``seats`` said how much of the log it holds, and none holds more than we do."""
        table = self.table
        assert table is not None
        missing = [s for s in seats if s not in self.reported]
        if missing or any(self.reported[s] > len(table.log) for s in seats):
            note(", ".join(self.who(s) for s in missing or seats) + what)
            return False
        for name, indices in self.fetched.items():
            self.console.say(f"our log had lost entries {indices[0]}-{indices[-1]}: fetched them from {name}, "
                             "with their relay's signature")
        self.fetched.clear()
        return True

    def open_gate(self, note: Callable[[str], None]) -> bool:
        """Whether a resumed relay may sequence again: every seat in play has
        said how much of the log it holds, and none holds more than we do."""
        table = self.table
        assert table is not None
        if not self.gated:
            return True
        live = [s for s in table.in_play if s != self.seat]
        if not self.caught_up_with_all(live, " to say how much of the log they hold (a resumed host goes on only "
                                             "then)", note):
            return False
        self.gated = False
        self.release()
        return True

    def release(self) -> None:
        """Sequence what came while we could not, in order."""
        held, self.held_back, self._held_bytes = self.held_back, [], 0
        for rid, raw in held:
            self.sequence(raw, rid)
        self.flush()

    # ------------------------------------------------------------- hand-over

    def follow(self, rid: bytes, length: int, head: bytes, sig: bytes) -> None:
        """A seat that lost the relay turns to us, its successor, with its signed request."""
        table = self.table
        seat = self.c.known.get(rid, -1)
        if table is None or table.game_id is None or seat < 0 or self.relaying or table.successor != self.seat:
            return
        assert self.seat is not None
        request = FollowRequest(seat, length, head, sig)
        if not follow_valid(table.seats[seat].identity, table.game_id, table.relay, self.seat, request):
            self.console.say(f"dropped a follow request from {self.who(seat)}: it is not its signature")
            return
        if length <= len(table.log) and table.heads[length] != head:
            self.console.say(f"dropped a follow request from {self.who(seat)}: its log is not a prefix of ours")
            return
        if seat not in self.requests:
            self.console.say(f"{self.who(seat)} lost the relay ({self.who(table.relay)}) and follows us now")
        self.requests[seat] = request
        self.reported[seat] = max(self.reported.get(seat, 0), length)
        self.fetch(rid, seat)

    def all_requested(self) -> bool:
        """Every seat in play but the relay and us sent us its follow request."""
        table = self.table
        if table is None or not table.seated or table.successor != self.seat:
            return False
        others = [s for s in table.in_play if s not in (table.relay, self.seat)]
        return bool(others) and all(s in self.requests for s in others)

    def ready_to_take_over(self, note: Callable[[str], None]) -> bool:
        """Every other seat in play follows us, and our log holds every entry any of them holds."""
        table = self.table
        if table is None or self.relaying or table.successor != self.seat:
            return False
        others = [s for s in table.in_play if s not in (table.relay, self.seat)]
        missing = [s for s in others if s not in self.requests]
        if missing:
            note(", ".join(self.who(s) for s in missing) + " to turn to us (the relay is gone; we relay next)")
            return False
        if not self.caught_up_with_all(others, " to send us the entries they hold", note):
            return False
        stale = [s for s in others if table.heads[self.requests[s].length] != self.requests[s].head]
        for s in stale:  # a log ours does not continue: that seat's word is no good
            self.console.say(f"dropped {self.who(s)}'s follow request: its log is not a prefix of ours")
            del self.requests[s]
        return not stale

    def take_over(self, handover: bytes) -> None:
        """Sequence our ``relay`` entry: from it on we relay."""
        if not self.sequence(handover, None):
            raise RelayExit(1, "our own hand-over entry was refused: we cannot relay")
        self.requests.clear()
        self.release()
