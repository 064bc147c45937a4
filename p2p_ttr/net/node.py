"""A joining peer: lobby, catch-up, checking the host, playing its seat.

Every entry the host relays is checked (host signature over index, previous
head and entry hash; index continuity), folded, made durable, and only then
acted on. Two different host-signed entries at one index are saved as a
proof of equivocation and stop the game.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import zmq

from p2p_ttr.client.words import COLOURS
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.errorcodes import ErrorCode
from p2p_ttr.table.envelope import open_envelope
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.peer import Decider
from p2p_ttr.table.table import Table

from . import frames
from .console import Console, Forfeit, Quit
from .frames import NET_VERSION, FrameError, encode_frame
from .history import History
from .liveness import HEARTBEAT_S, HOST_SILENT_S, Progress, watch
from .lobby import sign_hello
from .pause import Paused, pause_signed, paused_at
from .player import SeatPlayer, load_checked_secrets
from .reach import Reach
from .seqsig import EMPTY_HEAD, EquivocationProof, entry_hash, entry_signed, prev_head
from .store import DataDir, GameStore, StoreError
from .trace import Trace
from .transport import TransportError, dealer, format_address, resolve

MAX_REFUSALS = 5


@dataclass
class NodeOptions:
    """How `ttr join` runs: its data directory, the host's address and port, a name, the silence it tolerates."""

    data: DataDir
    host: str
    port: int
    name: str
    timeout: float = 120.0
    scripted: bool = False
    trace: Path | None = None
    new_game: bool = False  # join a new game even though one with this host is unfinished here


class NodeExit(Exception):
    """Ends the joiner's run with a process exit code and a message for the player."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


class Node:
    """A joining seat: says hello to the host, keeps its copy of the log in step with the host's (checking each
    receipt), and plays its seat through a ``SeatPlayer``."""

    def __init__(self, options: NodeOptions, decide: Decider, console: Console) -> None:
        self.o = options
        self.decide = decide
        self.console = console
        self.identity: Identity = options.data.identity()
        self.host_public: bytes | None = None
        self.challenge: bytes | None = None  # the last challenge we answered (one per connection)
        self.welcomed = False
        self.host_len = 0
        self.table: Table | None = None
        self.store: GameStore | None = None
        self.player: SeatPlayer | None = None
        self.pending: dict[bytes, bytes] = {}  # hash -> envelope sent, not yet sequenced
        self.resend = False
        self.poke = False
        self.refusals = 0
        self._outbox_len = -1
        self._last_sync = 0.0
        self.heard = time.monotonic()
        self.progress = Progress(options.timeout, console.say, console.waiting)
        self.trace = Trace(options.trace)
        self._host_note = 0.0
        self.sock: zmq.Socket[bytes] | None = None
        self.forfeiting = False  # the player asked to leave for good
        self.lobby_names: tuple[str, ...] = ()  # who is in, as the host last said before the start
        self._fork_checked = -1  # the log length at which we last re-fetched the log to look for a fork
        self.where = format_address(options.host, options.port)
        # Our unfinished games with this host: we never join another game on
        # our own while one is under way (its host was restarted without it).
        self.ongoing = [] if options.new_game else [
            g for g in options.data.unfinished("peer") if g.load_meta().get("host") == self.where]
        self.reach: Reach | None = None  # watches a first join's connection until the host answers
        self.paused: Paused | None = None  # the game stopped for now: by our player, or the host told us

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.table.seats) if self.table else ()

    def host_name(self) -> str:
        return f"the host ({self.names[0]})" if self.names else "the host"

    def send(self, frame: frames.ToHost) -> None:
        """Send a frame if a connection can take it now. Never block: with no
        connection up (the host restarting, or an address that is no ttr
        host) a frame is dropped; what matters is sent again once the host
        answers (hi, and pending envelopes after the welcome)."""
        if self.sock is not None:  # None until run() connects (and in unit tests)
            try:
                self.sock.send(encode_frame(frame), zmq.NOBLOCK)
            except zmq.Again:
                pass

    # -------------------------------------------------------------- game

    def open_game(self, game_id: bytes) -> None:
        """Set up (or reload) our replica of ``game_id``."""
        if self.table is not None:
            if self.table.game_id != game_id:
                raise NodeExit(1, "the host switched to another game")
            return
        store = self.o.data.game(game_id)
        refetch = (f"; delete that file (only it: the secrets beside it exist nowhere else) and run the same "
                   "command again: the host sends the whole log again")
        try:
            entries = store.open()
        except StoreError as exc:
            raise StoreError(f"{exc}{refetch if store.log_path.exists() else ''}") from None
        secrets = load_checked_secrets(store, entries)
        table = Table(me=secrets)
        history = History(secrets.seat if secrets is not None else None)
        for i, raw in enumerate(entries):
            try:
                table.receive(raw)
            except (TableError, EngineError) as exc:
                raise StoreError(f"{store.log_path}: entry {i} does not fold ({exc}); the log is corrupt"
                                 + refetch) from None
            history.step(table)
        if table.seats and table.seats[0].identity != self.host_public:
            raise NodeExit(1, "this host is not the host of our game")
        if entries:
            self.console.say(f"reloaded game {game_id.hex()} at entry {len(entries)}")
            for line in history.told():
                self.console.say(line)
        if not entries or not store.load_meta():  # new, or meta.json lost: the log says the rest
            store.save_meta({"role": "peer", "name": self.o.name, "host": self.where, "finished": table.complete})
        self.table, self.store = table, store
        self.player = SeatPlayer(self.identity, table, store, self.decide)

    def entry(self, index: int, raw: bytes, sig: bytes) -> None:
        assert self.host_public is not None
        if self.table is None:
            if index != 0:
                self.sync(0)
                return
            try:
                self.open_game(open_envelope(raw).game_id)
            except TableError:
                self.console.say("dropped a malformed first entry from the host")
                return
        table, store = self.table, self.store
        assert table is not None and store is not None
        game_id = table.game_id if table.game_id is not None else open_envelope(raw).game_id
        if index < len(table.log):
            if entry_hash(table.log[index]) != entry_hash(raw):
                self.conflict(index, raw, sig)
            return
        if index > len(table.log):
            self.sync(len(table.log))
            return
        prev = table.head if table.log else EMPTY_HEAD
        if not entry_signed(self.host_public, game_id, index, prev, raw, sig):
            self.console.say(f"dropped entry {index}: the host's signature on it is not valid")
            # The host may have signed it after another prefix than ours: it
            # showed us a fork. Fetching the whole log again lets conflict()
            # find the two signed entries at one index (once per length).
            self.check_for_fork()
            return
        try:
            table.receive(raw)
        except (TableError, EngineError) as exc:
            raise NodeExit(1, f"{self.host_name()} sequenced entry {index}, which our table refuses "
                              f"({exc.code}: {exc}): the host misbehaved; the game stops")
        if index == 0:
            if self.player is not None and self.player.seat is None:
                raise NodeExit(1, "the game started without us")
            seat = self.player.seat if self.player else None
            if seat is not None:
                self.console.say(f"the game starts: you are seat {seat + 1} ({COLOURS[seat]}); "
                                 + ", ".join(f"{n} ({COLOURS[i]})" for i, n in enumerate(self.names)))
        store.add_receipt(index, entry_hash(raw), sig)
        store.append(raw)  # durable (store.sync) before we act on it: see act()
        if self.pending.pop(entry_hash(raw), None) is not None:
            self.refusals = 0
        self.trace.folded(table, self.player.seat if self.player else None)
        self.host_len = max(self.host_len, len(table.log))

    def conflict(self, index: int, raw: bytes, sig: bytes) -> None:
        table, store = self.table, self.store
        assert table is not None and store is not None and self.host_public is not None
        assert table.game_id is not None
        prev = prev_head(table, index)
        if not entry_signed(self.host_public, table.game_id, index, prev, raw, sig):
            self.console.say(f"dropped a conflicting entry {index} the host did not sign")
            return
        mine = store.receipts().get(index)
        if mine is None:
            return
        proof = EquivocationProof(self.host_public, table.game_id, index, prev, table.log[index], mine[1], raw, sig)
        if proof.valid():
            path = store.save_proof(index, proof.to_bytes())
            raise NodeExit(1, f"{self.host_name()} signed two different entries at index {index}: "
                              f"it equivocated; the proof is in {path}")

    def check_for_fork(self) -> None:
        table = self.table
        if table is not None and self._fork_checked != len(table.log):
            self._fork_checked = len(table.log)
            self._last_sync = 0.0
            self.sync(0)

    def sync(self, start: int) -> None:
        now = time.monotonic()
        if now - self._last_sync > 0.5:
            self._last_sync = now
            self.send(frames.Sync(start))

    # ------------------------------------------------------------- frames

    def handle(self, raw: bytes) -> None:
        try:
            frame = frames.decode_to_peer(raw)
        except FrameError as exc:
            self.console.say(f"dropped a bad frame from the host: {exc}")
            return
        self.heard = time.monotonic()
        if self.reach is not None:  # a ttr host answers there
            self.reach.close()
            self.reach = None
        match frame:
            case frames.Challenge(version, public, challenge, game_id):
                if version != NET_VERSION:
                    raise NodeExit(1, f"the host speaks LAN protocol {version}, we speak {NET_VERSION}: update ttr")
                ours = {g.game_id for g in self.ongoing} | ({self.table.game_id} if self.table is not None else set())
                if ours and game_id not in ours:  # never join another game while ours is under way: say why
                    raise NodeExit(1, self.other_game("a new game" if game_id is None
                                                      else f"game {game_id.hex()[:8]}"))
                if self.table is not None and self.table.seats and public != self.table.seats[0].identity:
                    raise NodeExit(1, "a different host answers at this address")
                if challenge != self.challenge:  # a new connection's: answer it once (a repeat is the same one)
                    self.challenge, self.host_public, self.welcomed = challenge, public, False
                    self.send(frames.Hello(NET_VERSION, self.o.name, self.identity.public, challenge,
                                    sign_hello(self.identity, self.o.name, public, challenge)))
            case frames.Refused(_, reason):
                raise NodeExit(1, f"the host refused us: {reason}")
            case frames.Welcome(_, game_id, log_len, names):
                self.welcomed = True
                self.host_len = max(self.host_len, log_len)
                if game_id is None:
                    self.not_a_new_game()
                    if names != self.lobby_names:  # a welcome and the lobby's news may say the same
                        self.console.say(f"in the lobby: {', '.join(names)}")
                    self.lobby_names = names
                else:
                    if self.table is not None and self.table.game_id != game_id:
                        raise NodeExit(1, self.other_game(f"game {game_id.hex()[:8]}"))
                    self.open_game(game_id)
                    assert self.table is not None
                    self.send(frames.Sync(len(self.table.log)))
                    self.resend = True
            case frames.LobbyNews(names, wanted):
                if names != self.lobby_names:
                    self.console.say(f"in the lobby: {', '.join(names)}" + (f" (starting at {wanted})" if wanted else ""))
                self.lobby_names = names
            case frames.Entry(index, envelope, signature):
                if self.host_public is not None:
                    self.entry(index, envelope, signature)
            case frames.Rejected(digest, code, reason):
                if self.pending.pop(digest, None) is not None:
                    self.refusals += 1
                    self.console.say(f"the table refused our message ({code}): {reason}")
                    if code == ErrorCode.UNKNOWN_HEAD:
                        self.check_for_fork()  # we wrote on a log the host's table never had
                    if self.refusals >= MAX_REFUSALS:
                        raise NodeExit(1, "the host keeps refusing our messages; stopping")
                    self.poke = True
            case frames.Ping(length):
                self.host_len = max(self.host_len, length)
                if self.table is not None and length > len(self.table.log) and time.monotonic() - self._last_sync > 2.0:
                    self.sync(len(self.table.log))
            case frames.Fetch(start):
                self.send_held(start)
            case frames.Pause(length, signature):
                self.host_paused(length, signature)

    def host_paused(self, length: int, sig: bytes) -> None:
        """The host stops for now. Signed over the challenge we answered on
        this connection: nobody else can stop us, nor replay a pause of
        another connection or game. We keep everything and stop; the log we
        have not caught up with yet comes when the game resumes."""
        table = self.table
        game_id = table.game_id if table is not None else None
        if self.host_public is None or self.challenge is None or not pause_signed(
                self.host_public, sig, self.challenge, game_id, length):
            self.console.say("dropped a pause the host did not sign")
            return
        if table is None or game_id is None:
            raise NodeExit(0, "the host closed its lobby before the game started")
        self.paused = paused_at(table, ours=False)

    def not_a_new_game(self) -> None:
        """The host put us in its lobby: fine for a first join, never while a
        game of ours with it is under way (the host restarted without it)."""
        if self.table is not None or self.ongoing:
            self.send(frames.Leave())
            raise NodeExit(1, self.other_game("a new game"))

    def other_game(self, what: str) -> str:
        mine = (self.table.game_id if self.table is not None and self.table.game_id is not None
                else self.ongoing[0].game_id if self.ongoing else None)
        ours = f"game {mine.hex()[:8]}" if mine is not None else "our game"
        return (f"the host at {self.where} opened {what}, but {ours} with it is not finished: it was restarted "
                f"without it. Ask the host to resume it (`ttr host` in the same data directory resumes it, or "
                f"`ttr host --resume {ours.split()[-1]}`); our copy is kept. `ttr join {self.where} --new` "
                "joins the new game instead")

    def send_held(self, start: int) -> None:
        """The host lost the tail of its log (storage lost after a crash) and
        asks for it: send our entries from ``start`` with the host's own
        signatures from our receipts. The host checks each one with its key."""
        table, store = self.table, self.store
        if table is None or store is None or not start < len(table.log):
            return
        receipts = store.receipts()
        for index in range(start, len(table.log)):
            sig = receipts.get(index, (b"", b""))[1]
            if len(sig) != 64:
                return  # no receipt from here on (it was never fsync'ed): the host will say so
            self.send(frames.Have(index, table.log[index], sig))

    # --------------------------------------------------------------- acting

    def forfeit(self) -> None:
        """Leave for good. From the lobby we just leave; once the game has
        started we forfeit (after our keys, if they are not in yet: without
        them the others could never go on); after the end there is nothing
        to forfeit."""
        table = self.table
        seat = self.player.seat if self.player else None
        if table is None or table.game_id is None or seat is None:
            self.send(frames.Leave())
            raise NodeExit(0, "left the lobby before the game started")
        if table.finished:
            self.console.say("the game is over: there is nothing to forfeit")
            return
        self.console.say("forfeiting: publishing our secrets so the game goes on; "
                         "from now on the table plays our seat")
        self.forfeiting = True

    def act(self) -> None:
        table, player = self.table, self.player
        if table is None or player is None or not self.welcomed or len(table.log) < self.host_len:
            return  # only once caught up
        assert self.store is not None
        self.store.sync()  # everything we folded is on disk before we send anything
        seat = player.seat
        if seat is not None and seat in table.forfeited:
            raise NodeExit(0, f"you forfeited this game; the others play on (the log so far: {self.store.log_path})")
        if self.forfeiting and table.finished:
            # The game ended (or halted) before our forfeit went out: nothing to
            # forfeit now; our duties (the final reveal) go on as usual.
            self.forfeiting = False
            self.console.say("the game is over before our forfeit went out: nothing to forfeit")
        if self.forfeiting and not self.pending and seat is not None and seat in table.keys and player.peer:
            raw = player.peer.forfeit()
            self.pending[entry_hash(raw)] = raw
            self.send(frames.Env(raw))
            return
        if self.resend:
            self.resend = False
            for raw in list(self.pending.values()):
                self.send(frames.Env(raw))
        if self.pending:
            return
        if len(table.log) == self._outbox_len and not self.poke:
            return
        self._outbox_len, self.poke = len(table.log), False
        for raw in player.outbox():
            if player.peer is not None:
                self.trace.sent(raw, table, player.peer.seat)
            self.pending[entry_hash(raw)] = raw
            self.send(frames.Env(raw))

    # ----------------------------------------------------------------- loop

    def run(self, on_line: Callable[[str], None] | None = None,
            read_line: Callable[[], str | None | bool] | None = None,
            tick: Callable[[], None] | None = None) -> int:
        try:
            self.o.data.claim()
        except StoreError as exc:
            self.console.say(str(exc))
            return 1
        context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
        try:
            try:
                address = resolve(self.o.host, self.o.port)
            except TransportError as exc:
                raise NodeExit(1, str(exc)) from None

            def watch_reach(sock: zmq.Socket[bytes]) -> None:
                if not self.ongoing:  # a first join: say at once if nothing there is a ttr host
                    self.reach = Reach(sock, self.where, self.o.timeout)

            self.sock = dealer(context, address, self.o.port, watch_reach)
            return self._loop(on_line, read_line, tick)
        except NodeExit as exc:
            self.console.say(str(exc))
            return exc.code
        except Quit:  # our player stops for now (`end`): everything is kept to resume
            if self.table is None or self.table.game_id is None:
                self.console.say("stopped before the host answered; our game is kept: the same command "
                                 "resumes it" if self.ongoing else "left the lobby before the game started")
                return 0
            self.paused = paused_at(self.table, ours=True)
            return 0
        finally:
            if self.sock is not None and self.welcomed and (self.table is None or self.table.game_id is None):
                self.send(frames.Leave())  # in the lobby: free our place at once (a killed joiner is dropped when silent)
            if self.reach is not None:
                self.reach.close()
            try:
                if self.store is not None:
                    self.store.close()
            finally:
                context.destroy(linger=1000)

    def _loop(self, on_line: Callable[[str], None] | None, read_line: Callable[[], str | None | bool] | None,
              tick: Callable[[], None] | None) -> int:
        sock = self.sock
        assert sock is not None
        poller = zmq.Poller()
        poller.register(sock, zmq.POLLIN)
        next_beat = 0.0
        while True:
            poller.poll(50)
            for _ in range(10_000):
                try:
                    raw = sock.recv(zmq.NOBLOCK)
                except zmq.Again:
                    break
                self.handle(raw)
                if self.paused is not None:
                    return 0
            if self.reach is not None:
                why = self.reach.verdict()
                if why is not None:
                    raise NodeExit(1, why)
            if read_line is not None:
                line = read_line()
                if line is None:
                    read_line = None
                elif line is not False and on_line is not None:
                    assert isinstance(line, str)
                    try:
                        on_line(line)
                    except Forfeit:
                        self.forfeit()
                    self.poke = True
            self.act()
            if tick is not None:
                tick()
            now = time.monotonic()
            if now >= next_beat:
                next_beat = now + HEARTBEAT_S
                if self.challenge is None or not self.welcomed:
                    self.send(frames.Hi(NET_VERSION))
                else:
                    self.send(frames.Ping(len(self.table.log) if self.table else 0))
            table = self.table
            if table is not None and table.complete and len(table.log) >= self.host_len:
                self.send(frames.Ping(len(table.log)))
                if self.store is not None:
                    self.store.mark_finished()
                return 0
            silent = now - self.heard
            if silent > HOST_SILENT_S:
                if now >= self._host_note:
                    self._host_note = now + 5.0
                    self.console.say(f"waiting for the host at {self.where} ({int(silent)} s)")
                if silent > self.o.timeout:
                    if self.table is None and not self.ongoing:
                        # The same words as the reach check's, which may come a moment later.
                        raise NodeExit(1, f"nothing answered at {self.where} in {self.o.timeout:.0f} s: "
                                          "is `ttr host` running there, on that port?")
                    raise NodeExit(1, f"the host at {self.where} has been silent for "
                                      f"{self.o.timeout:.0f} s; run the same command again to resume")
                continue
            if table is None or table.game_id is None:
                continue
            me = self.player.seat if self.player else None
            stop = watch(self.progress, table, me, self.names, self.o.scripted,
                         str(self.store.log_path if self.store else "-"))
            if stop is not None:
                raise NodeExit(1, stop)
