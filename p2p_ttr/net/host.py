"""The host: seat 0, and the sequencer and relay of one game.

Peers send signed envelopes; the host folds each into its own table. An
accepted entry gets the next index, is made durable, signed (seqsig.py) and
relayed to every seat; a refused one goes back to its author with the reason.
The host cannot forge or hide anything: peers check every entry themselves.

Peers are known by connection (the routing id the ROUTER gives each one): a
connection is admitted, as a seat or a lobby member, by a hello that answers
the challenge issued to that very connection (lobby.py); any frame from a
connection not admitted is answered with its challenge.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import zmq

from p2p_ttr.client.words import COLOURS
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.errorcodes import ErrorCode
from p2p_ttr.table.envelope import MAX_SEATS
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.messages import Seat
from p2p_ttr.table.peer import Decider, Peer
from p2p_ttr.table.table import Table

from . import frames
from .console import Console, Forfeit, Quit
from .frames import NET_VERSION, FrameError, clip, encode_frame
from .history import History
from .liveness import HEARTBEAT_S, Progress, watch
from .lobby import Challenges, Lobby, Refusal
from .pause import Paused, paused_at, sign_pause
from .player import SeatPlayer, load_checked_secrets
from .seqsig import entry_hash, entry_signed, prev_head, sign_entry
from .store import DataDir, GameStore, StoreError
from .trace import Trace
from .transport import bound_port, router

DONE_GRACE_S = 5.0
LOBBY_SILENT_S = 5.0  # a lobby member unheard this long (it pings every second) has left
FETCH_EVERY_S = 2.0  # how often to ask a seat again for entries our log lost
FETCH_TRIES = 5
MAX_HELD_BACK = 10_000  # envelopes kept while a resumed host waits for every seat's log length


@dataclass
class HostOptions:
    """How `ttr host` runs: its data directory, name, address, when to start, the silence it tolerates, a game to
    resume."""

    data: DataDir
    name: str = "host"
    bind: str = "0.0.0.0"
    port: int = 7311
    players: int = 0  # start when this many are in (0: when the host says)
    timeout: float = 120.0
    resume: str | None = None
    scripted: bool = False  # no human: give up with an error after the timeout
    trace: Path | None = None  # bench timings


class HostExit(Exception):
    """Ends the host's run with a process exit code and a message for the player."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


class Host:
    """Seat 0 and the relay: runs the lobby, then sequences every signed message into the one log (signing a
    receipt for each entry), relays the log to every joiner, and plays its own seat through a ``SeatPlayer``."""

    def __init__(self, options: HostOptions, decide: Decider, console: Console,
                 on_port: Callable[[int], None] | None = None) -> None:
        self.o = options
        self.decide = decide
        self.console = console
        self.on_port = on_port
        self.identity: Identity = options.data.identity()
        self.challenges = Challenges()  # the challenge outstanding on each connection not yet admitted
        self.lobby = Lobby(options.name, self.identity.public, options.players or MAX_SEATS)
        self.known: dict[bytes, int] = {}  # admitted connection -> seat (-1 in the lobby), in this run
        self.answered: dict[bytes, bytes] = {}  # admitted connection -> the challenge its hello answered
        self.paused: Paused | None = None  # set when our player stopped the game for now
        self.conn: dict[bytes, bytes] = {}  # identity key -> its admitted connection (the latest)
        self.peer_len: dict[int, int] = {}
        self.table: Table | None = None
        self.store: GameStore | None = None
        self.player: SeatPlayer | None = None
        self.port = options.port
        self.start_now = False
        self.poke = False  # the human decided something: ask our outbox again
        self._outbox_len = -1
        self._relay: list[list[bytes]] = []
        self._done_at: float | None = None
        self.progress = Progress(options.timeout, console.say, console.waiting)
        self.trace = Trace(options.trace)
        self.heard: dict[bytes, float] = {}  # admitted connection -> when it last sent anything
        # After a resume our log may have lost its tail (storage lost in a
        # crash) while the joiners hold it: sequencing anything then would
        # sign a second entry at an index they hold. So a resumed host
        # sequences nothing (``gated``) until every live seat has said how
        # much of the log it holds, and fetches what they hold beyond ours.
        self.gated = False
        self.reported: dict[int, int] = {}  # seat -> the log length it reported in this run
        self.held_back: list[tuple[bytes, bytes]] = []  # (connection, envelope) that came while gated
        self._fetches: dict[int, tuple[int, int, float]] = {}  # seat -> (from index, times asked, when)
        self.fetched: dict[str, list[int]] = {}  # name -> indices fetched from that seat

    # ------------------------------------------------------------- setup

    def resume(self) -> None:
        assert self.o.resume is not None
        store = self.o.data.find_game(self.o.resume)
        game = store.game_id.hex()
        meta = store.load_meta()
        if meta.get("role", "host") != "host":
            raise StoreError(f"game {game} was joined, not hosted, from this data directory: "
                             f"`ttr join` resumes it")
        from_a_joiner = (f"a joiner's copy of the log is as good: copy its games/{game}/game.log "
                         f"to {store.log_path} (keep the secrets file there) and run the same command again")
        if not store.log_path.exists():
            # Opening it would write an empty log there, and the game could no longer be told apart.
            raise StoreError(f"{store.log_path} is missing: this host cannot resume game {game[:8]} without "
                             f"its log; {from_a_joiner}")
        try:
            entries = store.open()
        except StoreError as exc:
            raise StoreError(f"{exc}; {from_a_joiner}") from None
        table = Table(me=load_checked_secrets(store, entries))
        history = History(0)
        for i, raw in enumerate(entries):
            try:
                table.receive(raw)
            except (TableError, EngineError) as exc:
                raise StoreError(f"{store.log_path}: entry {i} does not fold ({exc}); the log is corrupt; "
                                 f"{from_a_joiner}") from None
            history.step(table)
        if not table.seats:
            raise StoreError(f"{store.log_path} holds no entry of game {game[:8]}; {from_a_joiner}")
        if table.seats[0].identity != self.identity.public:
            raise StoreError(f"the identity in {self.o.data.path} is not the host of game {game[:8]} "
                             f"(that is {table.seats[0].name}'s)")
        if not meta:  # meta.json lost: the log says all it held
            store.save_meta({"role": "host", "name": table.seats[0].name, "port": self.port,
                             "finished": table.complete})
            self.console.say(f"rebuilt {store.meta_path} from the log")
        self.table, self.store = table, store
        self.player = SeatPlayer(self.identity, table, store, self.decide)
        self.gated = not table.complete
        self.console.say(f"resumed game {game} at entry {len(table.log)}")
        for line in history.told():
            self.console.say(line)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.table.seats) if self.table else tuple(self.lobby.names)

    def start(self) -> None:
        members = [Seat(self.o.name, self.identity.public)] + [Seat(n, pub) for n, pub in self.lobby.members]
        game_id = os.urandom(16)
        store = self.o.data.game(game_id)
        store.open()
        store.save_meta({"role": "host", "name": self.o.name, "port": self.port, "finished": False})
        self.table, self.store = Table(), store
        self.player = SeatPlayer(self.identity, self.table, store, self.decide)
        opener = Peer(0, self.identity, self.decide)
        self.sequence(opener.open_game(tuple(members), game_id), None)
        self.relay()
        for seat, member in enumerate(members):  # lobby members (-1) now have their seats
            rid = self.conn.get(member.identity)
            if rid is not None and rid in self.known:
                self.known[rid] = seat
        seats = ", ".join(f"{n} ({COLOURS[i]})" for i, n in enumerate(self.names))
        self.console.say(f"game {game_id.hex()} started: {seats}")

    # ---------------------------------------------------------- sequencing

    def sequence(self, raw: bytes, author: bytes | None) -> bool:
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
                who = self.known.get(author, -1)
                self.console.say(f"refused a message from {self._who(who)} ({code}): {exc}")
                self.send(author, frames.Rejected(entry_hash(raw), clip(str(code)), clip(str(exc))))
            return False
        assert table.game_id is not None
        index = len(table.log) - 1
        sig = sign_entry(self.identity, table.game_id, index, prev, raw)
        store.add_receipt(index, entry_hash(raw), sig)
        store.append(raw)
        self.trace.folded(table, 0)
        frame = encode_frame(frames.Entry(index, raw, sig))
        self._relay.extend([rid, frame] for rid in self.seat_connections())
        return True

    def relay(self) -> None:
        """Make the new entries durable (one fsync for a batch), then send them:
        nobody hears of an entry the host could forget."""
        if self._relay and self.store is not None:
            self.store.sync()
            for parts in self._relay:
                self.sock.send_multipart(parts)
            self._relay.clear()

    def seat_connections(self) -> list[bytes]:
        """The connection of each seat but ours that has one in this run."""
        assert self.table is not None
        rids = (self.conn.get(seat.identity) for seat in self.table.seats[1:])
        return [rid for rid in rids if rid is not None]

    def _who(self, seat: int) -> str:
        names = self.names
        return names[seat] if 0 <= seat < len(names) else "a peer"

    def send(self, rid: bytes, frame: frames.ToPeer) -> None:
        self.sock.send_multipart([rid, encode_frame(frame)])

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
                elif rid not in self.known:
                    self.challenge(rid)
            case frames.Hello(version, name, identity, challenge, signature):
                self.hello(rid, version, name, identity, challenge, signature)
            case _ if rid not in self.known:
                # A new connection (a peer from before a restart of either side):
                # it must say hello on this connection.
                self.challenge(rid)
                return
        self.heard[rid] = time.monotonic()
        match frame:
            case frames.Env(envelope):
                if self.gated and self.table is not None:
                    if len(self.held_back) < MAX_HELD_BACK:
                        self.held_back.append((rid, envelope))
                else:
                    self.envelope(rid, envelope)
            case frames.Sync(start):
                self.catch_up(rid, start)
            case frames.Ping(length):
                seat = self.known[rid]
                if seat >= 0:
                    self.peer_len[seat] = length
                    self.reported[seat] = length
                    if self.gated:
                        self.fetch(rid, seat)
            case frames.Leave():
                if self.known[rid] == -1 and self.table is None:
                    self.drop_member(rid, "left")
            case frames.Have(index, envelope, signature):
                self.adopt(rid, index, envelope, signature)

    # ------------------------------------------------------------- lobby

    def drop_member(self, rid: bytes, why: str) -> None:
        """A lobby member left, or went silent: free its place and tell the others."""
        public = next((pub for pub, conn in self.conn.items() if conn == rid), None)
        self.known.pop(rid, None)
        self.heard.pop(rid, None)
        self.answered.pop(rid, None)
        if public is None:
            return
        del self.conn[public]
        name = self.lobby.leave(public)
        if name is None:
            return
        self.console.say(f"{name} {why}: {len(self.lobby.names)} in the lobby ({', '.join(self.lobby.names)})")
        for member in self.known:
            self.send(member, frames.LobbyNews(tuple(self.lobby.names), self.o.players))

    def drop_silent_members(self) -> None:
        now = time.monotonic()
        for rid, seat in list(self.known.items()):
            if seat == -1 and now - self.heard.get(rid, now) > LOBBY_SILENT_S:
                self.drop_member(rid, f"left the lobby (silent for {LOBBY_SILENT_S:.0f} s)")

    # -------------------------------------------------- a log that lost its tail

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
        if tries > FETCH_TRIES:
            raise HostExit(1, f"our log ({self.store.log_path if self.store else '-'}) lost entries from "
                              f"{len(table.log)} on, which {self._who(seat)} holds, but {self._who(seat)} "
                              "cannot send them with our signature: this log cannot go on; a joiner's copy "
                              "of the game's game.log can replace it")
        self._fetches[seat] = (len(table.log), tries, now)
        self.send(rid, frames.Fetch(len(table.log)))

    def adopt(self, rid: bytes, index: int, raw: bytes, sig: bytes) -> None:
        """An entry we signed once, sent back by a seat that holds it: our log
        lost it. Taken only at our log's end and under our own signature."""
        table, store = self.table, self.store
        seat = self.known.get(rid, -1)
        if not self.gated or table is None or store is None or seat < 1 or index != len(table.log):
            return
        assert table.game_id is not None
        if not entry_signed(self.identity.public, table.game_id, index, table.head, raw, sig):
            self.console.say(f"dropped entry {index} from {self._who(seat)}: it does not carry our signature")
            return
        try:
            table.receive(raw)
        except (TableError, EngineError) as exc:
            raise HostExit(1, f"entry {index}, which we signed and {self._who(seat)} sent back, does not fold "
                              f"({exc}): our log and its differ; the game stops here") from None
        store.add_receipt(index, entry_hash(raw), sig)
        store.append(raw)
        self.fetched.setdefault(self._who(seat), []).append(index)
        frame = encode_frame(frames.Entry(index, raw, sig))
        self._relay.extend([conn, frame] for conn in self.seat_connections() if conn != rid)

    def open_gate(self) -> bool:
        """Whether a resumed host may sequence again: every live seat has said
        how much of the log it holds, and none holds more than we do."""
        table = self.table
        assert table is not None
        if not self.gated:
            return True
        live = [s for s in range(1, table.n) if s not in table.forfeited]
        missing = [s for s in live if s not in self.reported]
        if missing or any(self.reported[s] > len(table.log) for s in live):
            self.progress.update(len(table.log))
            self.progress.note(", ".join(self.names[s] for s in missing or live)
                               + " to say how much of the log they hold (a resumed host goes on only then)")
            return False
        self.gated = False
        for name, indices in self.fetched.items():
            self.console.say(f"our log had lost entries {indices[0]}-{indices[-1]}: fetched them from {name}, "
                             "signed by us")
        held, self.held_back = self.held_back, []
        for rid, raw in held:
            self.sequence(raw, rid)
        self.relay()
        return True

    def challenge(self, rid: bytes) -> None:
        """Send a connection not admitted its challenge (the same until a hello uses it)."""
        game_id = self.table.game_id if self.table is not None else None
        self.send(rid, frames.Challenge(NET_VERSION, self.identity.public, self.challenges.issue(rid), game_id))

    def admit(self, rid: bytes, public: bytes, seat: int, challenge: bytes) -> None:
        """``rid`` is now ``public``'s connection; an earlier one of that key no longer is.
        ``challenge`` is the one its hello answered: a pause to it is signed over it."""
        old = self.conn.get(public)
        if old is not None and old != rid:
            self.known.pop(old, None)
            self.heard.pop(old, None)
            self.answered.pop(old, None)
        self.conn[public] = rid
        self.known[rid] = seat
        self.answered[rid] = challenge
        self.heard[rid] = time.monotonic()

    def hello(self, rid: bytes, version: int, name: str, public: bytes, challenge: bytes, sig: bytes) -> None:
        if rid in self.known:
            self.console.say("dropped a second hello on an admitted connection")
            return
        if not self.challenges.take(rid, challenge):
            # Not the challenge this connection was sent (a hello recorded on
            # another connection, or one sent before a restart): it admits
            # nobody; the connection gets its own challenge to answer.
            self.console.say("dropped a hello that does not answer its connection's challenge")
            self.challenge(rid)
            return
        try:
            if self.table is not None:
                seat = next((s for s, seat in enumerate(self.table.seats) if seat.identity == public), None)
                probe = Lobby(self.o.name, self.identity.public, MAX_SEATS + 1)
                probe.join(version, name, public, challenge, sig)  # version and signature checks
                if seat is None or seat == 0:
                    raise Refusal(ErrorCode.STARTED, "the game has already started")
                self.admit(rid, public, seat, challenge)
                log_len = len(self.table.log)
                self.send(rid, frames.Welcome(seat, self.table.game_id, log_len, tuple(self.names)))
                self.console.say(f"{self.names[seat]} is back")
                return
            new = self.lobby.join(version, name, public, challenge, sig)
        except Refusal as refusal:
            self.console.say(f"refused {name!r}: {refusal.reason}")
            self.send(rid, frames.Refused(refusal.code, clip(refusal.reason)))
            return
        self.admit(rid, public, -1, challenge)
        self.send(rid, frames.Welcome(-1, None, 0, tuple(self.lobby.names)))
        if new:
            wanted = self.o.players
            self.console.say(
                f"{name} joined ({len(self.lobby.names)}" + (f" of {wanted})" if wanted else ")")
                + ("" if wanted else ": press Enter to start")
            )
            for member in self.known:
                self.send(member, frames.LobbyNews(tuple(self.lobby.names), wanted))

    def envelope(self, rid: bytes, raw: bytes) -> None:
        if self.table is None:
            self.send(rid, frames.Rejected(entry_hash(raw), ErrorCode.NOT_EXPECTED, "the game has not started"))
            return
        self.sequence(raw, rid)

    def catch_up(self, rid: bytes, start: int) -> None:
        table = self.table
        if table is None or table.game_id is None:
            return
        self.relay()  # what we send from the log must be durable first
        receipts = self.store.receipts() if self.store is not None and start < len(table.log) else {}
        for index in range(start, len(table.log)):
            raw = table.log[index]
            sig = receipts.get(index, (b"", b""))[1]
            if len(sig) != 64:
                prev = prev_head(table, index)
                sig = sign_entry(self.identity, table.game_id, index, prev, raw)
            self.send(rid, frames.Entry(index, raw, sig))

    # ------------------------------------------------------------- our seat

    def own_moves(self) -> None:
        assert self.table is not None and self.player is not None
        for _ in range(1000):
            if len(self.table.log) == self._outbox_len and not self.poke:
                return
            self._outbox_len, self.poke = len(self.table.log), False
            out = self.player.outbox()
            for raw in out:
                self.trace.sent(raw, self.table, 0)
                self.sequence(raw, None)
            self.relay()
            if not out:
                return

    # ----------------------------------------------------------------- loop

    def run(self, on_line: Callable[[str], None] | None = None, read_line: Callable[[], str | None | bool] | None = None,
            tick: Callable[[], None] | None = None) -> int:
        try:
            self.o.data.claim()
        except StoreError as exc:
            self.console.say(str(exc))
            return 1
        context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
        try:
            self.sock = router(context, self.o.bind, self.o.port)
            self.port = bound_port(self.sock)
            if self.on_port is not None:
                self.on_port(self.port)
            if self.o.resume:
                self.resume()
            return self._loop(on_line, read_line, tick)
        except HostExit as exc:
            self.console.say(str(exc))
            return exc.code
        except Quit:
            return self.pause()
        finally:
            if self.store is not None:
                self.store.close()
            context.destroy(linger=2000)

    def pause(self) -> int:
        """Our player stops for now: relay what is sequenced, then tell every
        connection admitted in this run (a signed ``pause``), so that no
        joiner waits for a host that is gone. Nothing is lost: the same data
        directory resumes the game."""
        self.relay()
        table = self.table
        game_id = table.game_id if table is not None else None
        length = len(table.log) if table is not None else 0
        for rid in self.known:
            challenge = self.answered.get(rid)
            if challenge is not None:
                self.send(rid, frames.Pause(length, sign_pause(self.identity, challenge, game_id, length)))
        if table is None or game_id is None:
            self.console.say("closed the lobby: no game was started")
            return 0
        self.paused = paused_at(table, ours=True)
        return 0

    def _loop(self, on_line: Callable[[str], None] | None, read_line: Callable[[], str | None | bool] | None,
              tick: Callable[[], None] | None) -> int:
        poller = zmq.Poller()
        poller.register(self.sock, zmq.POLLIN)
        next_beat = 0.0
        while True:
            poller.poll(50)
            for _ in range(10_000):
                try:
                    parts = self.sock.recv_multipart(zmq.NOBLOCK)
                except zmq.Again:
                    break
                self.handle(parts)
            self.relay()
            if read_line is not None:
                line = read_line()
                if line is None:
                    read_line = None  # stdin closed: play on without it
                elif line is not False:
                    assert isinstance(line, str)
                    if self.table is None:
                        if len(self.lobby.names) >= 2:
                            self.start_now = True
                        else:
                            self.console.say("a game needs at least 2 players: wait for someone to join")
                    elif on_line is not None:
                        try:
                            on_line(line)
                        except Forfeit:
                            self.console.say("the host relays every message of the game, so it cannot forfeit: "
                                             "`end` stops the game here (the log stays on disk)")
                        self.poke = True
            beat = time.monotonic()
            if beat >= next_beat:  # in the lobby too: joiners must hear that we are alive
                next_beat = beat + HEARTBEAT_S
                for rid in self.known:
                    self.send(rid, frames.Ping(len(self.table.log) if self.table else 0))
            if self.table is None:
                self.drop_silent_members()
                wanted = self.o.players
                if self.start_now or (wanted and len(self.lobby.names) >= wanted):
                    self.start()
                else:
                    self.progress.update(len(self.lobby.names))
                    if self.o.scripted and self.progress.timed_out:
                        raise HostExit(1, f"only {len(self.lobby.names)} of {wanted} players joined in {self.o.timeout:.0f} s")
                    continue
            table = self.table
            assert table is not None
            resume = f"; resume it with `ttr host --resume {table.game_id.hex()[:8] if table.game_id else '?'}`"
            if not self.open_gate():
                if tick is not None:
                    tick()
                if self.o.scripted and self.progress.timed_out:
                    raise HostExit(1, f"no progress for {self.o.timeout:.0f} s: not every seat came back "
                                      f"after the restart{resume}")
                continue
            self.own_moves()
            if tick is not None:
                tick()
            now = time.monotonic()
            if table.complete:
                if self.store is not None:
                    self.store.mark_finished()
                if self._done_at is None:
                    self._done_at = now
                everyone = all(self.peer_len.get(s, 0) >= len(table.log) for s in range(1, table.n))
                if everyone or now - self._done_at > DONE_GRACE_S:
                    return 0
                continue
            stop = watch(self.progress, table, 0, self.names, self.o.scripted,
                         str(self.store.log_path if self.store else "-"), resume)
            if stop is not None:
                raise HostExit(1, stop)
