"""One peer of a LAN game, and its one loop: ``ttr join`` runs it as it
is, ``ttr host`` (host.py) adds the lobby and starts as the relay.

Every peer binds a ROUTER (relay.py) and plays its seat through a
``SeatPlayer``. Its role can change while it runs: while our seat is the
table's relay we sequence on that ROUTER; otherwise a DEALER connects us to
the relay. Every entry the relay sends is checked (the receipt of the relay
of that entry over index, previous head and entry hash; index continuity),
folded, made durable, and only then acted on. Two different entries one
relay signed at one index are saved as a proof of equivocation and stop
the game.

When the relay leaves (its seat forfeited, or silent past
``relay_timeout``), every replica names the same successor from its log
(the lowest seat in play other than the relay): the others connect to it at
the address its ``reach`` put in the log and send it their signed follow
requests; it takes over with a ``relay`` entry (table/relaying.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import zmq

from p2p_ttr.client.words import COLOURS, ENDED, ESCROW_TRADE_OFF
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.errorcodes import ErrorCode
from p2p_ttr.table.envelope import open_envelope
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.messages import Relay as RelayMessage
from p2p_ttr.table.messages import message_from_wire
from p2p_ttr.table.identity import Identity
from p2p_ttr.engine.events import Action
from p2p_ttr.engine.state import GameState
from p2p_ttr.table.peer import Decider
from p2p_ttr.table.table import Table

from . import frames
from .console import Console, Quit
from .frames import NET_VERSION, FrameError, encode_frame
from .history import History
from .liveness import HEARTBEAT_S, HOST_SILENT_S, Progress, waiting_for, watch
from .lobby import Lobby, sign_hello
from .loop import InputClosed, Leave, Move, PlayerChannel, Start
from .pause import Paused, pause_signed, paused_at
from .player import SeatPlayer, load_checked_secrets
from .reach import Reach
from .relay import Relay, RelayExit
from .seqsig import EMPTY_HEAD, EquivocationProof, entry_hash, entry_signed, prev_head
from .store import DataDir, GameStore, StoreError
from .trace import Trace
from .transport import TransportError, bound_port, dealer, format_address, local_ip_toward, resolve, router

MAX_REFUSALS = 5
RELAY_TIMEOUT_S = 20.0  # a relay silent this long is gone: its successor takes over
DONE_GRACE_S = 5.0
SILENT_NEWS_S = 5.0  # a relay's word on who is silent holds this long  # how long a relay that is done waits for the others to hold the whole log


@dataclass
class NodeOptions:
    """How `ttr join` runs: its data directory, the host's address and port, a name, the silence it tolerates,
    and where it accepts the others should it become the relay."""

    data: DataDir
    host: str
    port: int
    name: str
    timeout: float = 120.0
    scripted: bool = False
    trace: Path | None = None
    new_game: bool = False  # join a new game even though one with this host is unfinished here
    bind: str = "0.0.0.0"  # where our ROUTER listens (we may become the relay)
    listen: int = 0  # its port (0: any free one; the log says which)
    relay_timeout: float = RELAY_TIMEOUT_S


class NodeExit(Exception):
    """Ends the peer's run with a process exit code and a message for the player."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


def relay_moved(store: GameStore) -> bool:
    """Whether a game's log holds a hand-over (read without folding: the fold checks it later)."""
    try:
        entries = store.stored_entries()
    except StoreError:
        return False
    for raw in entries:
        try:
            body = open_envelope(raw).body
        except TableError:
            continue
        if body and body[0] == "relay":
            return True
    return False


class Node:
    """A seat of a LAN game: keeps its copy of the log in step with the relay's
    (checking each receipt), plays its seat through a ``SeatPlayer``, relays
    when its seat is the table's relay, and turns to the successor when the
    relay is gone."""

    def __init__(self, options: NodeOptions, decide: Decider | None, console: Console, lobby: Lobby | None = None,
                 players: int = 0) -> None:
        """``decide``: a bot's Decider; None when a person plays through the
        ``PlayerChannel`` given to ``run`` (their moves wait in ``chosen``)."""
        self.o = options
        self.chosen: Action | None = None  # the player's move, until the table asks our seat for one
        self.decide: Decider = decide or self.choose
        self.console = console
        self.identity: Identity = options.data.identity()
        self.trace = Trace(options.trace)
        self.relay = Relay(self.identity, console, self.trace, lambda: self.names, lobby, players)
        self.relay.silence_s = options.relay_timeout
        self.relay.adopted = self.adopted
        self.silent: tuple[tuple[int, ...], float] = ((), 0.0)  # the relay's last word on silent seats, and when
        self.told_carried = False
        self.host_public: bytes | None = None  # the key of the peer our DEALER reaches (from its challenge)
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
        self._host_note = 0.0
        self.context: zmq.Context[zmq.Socket[bytes]] | None = None
        self.sock: zmq.Socket[bytes] | None = None  # our DEALER to the seat we follow
        self._poller: zmq.Poller | None = None
        self.forfeiting = False  # the player asked to leave for good
        self.lobby_names: tuple[str, ...] = ()  # who is in, as the host last said before the start
        self.told_escrow = False
        self._fork_checked = -1  # the log length at which we last re-fetched the log to look for a fork
        self.where = format_address(options.host, options.port)
        self.dial_seat: int | None = None  # the seat our DEALER reaches (None: the host we joined at)
        self.turned = False  # the relay is gone: we turned to its successor (and sent it our request)
        self.port = options.listen
        self._address = "127.0.0.1"  # the numeric address our DEALER reaches
        self._left_at: float | None = None  # when our forfeit was in our log (a relay waits for the others)
        self._done_at: float | None = None
        # Our unfinished games with this host: we never join another game on
        # our own while one is under way (its host was restarted without it).
        self.ongoing = [] if options.new_game or not options.host else [
            g for g in options.data.unfinished("peer") if g.load_meta().get("host") == self.where]
        self.reach: Reach | None = None  # watches a first join's connection until the host answers
        self.paused: Paused | None = None  # the game stopped for now: by our player, or the host told us

    def choose(self, view: GameState, seat: int) -> Action | None:
        """The Decider when a person plays: the move they chose, once."""
        action, self.chosen = self.chosen, None
        return action

    # ---------------------------------------------------------------- views

    @property
    def names(self) -> tuple[str, ...]:
        if self.table is not None and self.table.seats:
            return tuple(s.name for s in self.table.seats)
        return tuple(self.relay.lobby.names) if self.relay.lobby is not None else ()

    @property
    def seat(self) -> int | None:
        return self.player.seat if self.player else None

    @property
    def relaying(self) -> bool:
        return self.relay.relaying

    def host_name(self) -> str:
        seat = self.dial_seat if self.dial_seat is not None else 0
        if self.names and self.table is not None and self.table.handovers:
            return f"the relay ({self.names[seat]})"
        return f"the host ({self.names[0]})" if self.names else "the host"

    def send(self, frame: frames.ToHost) -> None:
        """Send a frame if a connection can take it now. Never block: with no
        connection up (the relay restarting, or an address that is no ttr
        host) a frame is dropped; what matters is sent again once the relay
        answers (hi, and pending envelopes after the welcome)."""
        if self.sock is not None:  # None until run() connects, while we relay (and in unit tests)
            try:
                self.sock.send(encode_frame(frame), zmq.NOBLOCK)
            except zmq.Again:
                pass

    # ------------------------------------------------------------- sockets

    def connect(self, host: str, port: int, seat: int | None) -> None:
        """Point our DEALER at ``host:port``, where ``seat`` (None: the host we join) must answer."""
        self.disconnect()
        assert self.context is not None

        def watch_reach(sock: zmq.Socket[bytes]) -> None:
            if not self.ongoing and seat is None:  # a first join: say at once if nothing there is a ttr host
                self.reach = Reach(sock, self.where, self.o.timeout)

        try:
            address = resolve(host, port)
        except TransportError as exc:
            raise NodeExit(1, str(exc)) from None
        self.sock = dealer(self.context, address, port, watch_reach)
        self._address = address
        self.dial_seat = seat
        self.challenge, self.welcomed, self.host_public = None, False, None
        self.heard = time.monotonic()
        # What the last peer said of its log says nothing of this one's.
        self.host_len = len(self.table.log) if self.table is not None else 0
        if self._poller is not None:
            self._poller.register(self.sock, zmq.POLLIN)

    def disconnect(self) -> None:
        if self.sock is not None:
            if self._poller is not None:
                self._poller.unregister(self.sock)
            self.sock.close(linger=0)
            self.sock = None
        if self.reach is not None:
            self.reach.close()
            self.reach = None

    # -------------------------------------------------------------- game

    def use_table(self, table: Table, store: GameStore) -> None:
        """From now on ``table`` and ``store`` are our game (relay included)."""
        self.table, self.store = table, store
        self.player = SeatPlayer(self.identity, table, store, self.decide)
        self.relay.table, self.relay.store = table, store
        self.relay.seat = self.player.seat if table.seated else None

    def open_game(self, game_id: bytes) -> None:
        """Set up (or reload) our replica of ``game_id``."""
        if self.table is not None:
            if self.table.game_id != game_id:
                raise NodeExit(1, "the host switched to another game")
            return
        store = self.o.data.game(game_id)
        refetch = ("; delete that file (only it: the secrets beside it exist nowhere else) and run the same "
                   "command again: the host sends the whole log again")
        try:
            entries = store.open()
        except StoreError as exc:
            raise StoreError(f"{exc}{refetch if store.log_path.exists() else ''}") from None
        table, history = self.replay(store, entries, refetch)
        if table.seats and self.host_public is not None and self.host_public not in {s.identity for s in table.seats}:
            raise NodeExit(1, "this host is not a seat of our game")
        if entries:
            self.console.say(f"reloaded game {game_id.hex()} at entry {len(entries)}")
            for line in history.told():
                self.console.say(line)
        if not entries or not store.load_meta():  # new, or meta.json lost: the log says the rest
            store.save_meta({"role": "peer", "name": self.o.name, "host": self.where, "finished": table.complete})
        self.use_table(table, store)

    def replay(self, store: GameStore, entries: list[bytes], then: str = "") -> tuple[Table, History]:
        """A table folded from ``entries`` (with our secrets, checked against them)."""
        secrets = load_checked_secrets(store, entries)
        table = Table(me=secrets)
        history = History(secrets.seat if secrets is not None else None)
        for i, raw in enumerate(entries):
            try:
                table.receive(raw)
            except (TableError, EngineError) as exc:
                raise StoreError(f"{store.log_path}: entry {i} does not fold ({exc}); the log is corrupt" + then) from None
            history.step(table)
        return table, history

    def signer(self, table: Table, raw: bytes) -> bytes | None:
        """The key whose receipt entry ``raw`` must carry at the end of ``table``'s log."""
        if not table.seated:
            return self.host_public
        return table.seats[table.sequencer_of(raw)].identity

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
        key = self.signer(table, raw)
        if key is None or not entry_signed(key, game_id, index, prev, raw, sig):
            self.console.say(f"dropped entry {index}: its relay's signature on it is not valid")
            # The relay may have signed it after another prefix than ours: it
            # showed us a fork. Fetching the whole log again lets conflict()
            # find the two signed entries at one index (once per length).
            self.check_for_fork()
            return
        relay_before = table.relay
        try:
            table.receive(raw)
        except (TableError, EngineError) as exc:
            raise NodeExit(1, f"{self.host_name()} sequenced entry {index}, which our table refuses "
                              f"({exc.code}: {exc}): the host misbehaved; the game stops")
        if index == 0:
            if self.player is not None and self.player.seat is None:
                raise NodeExit(1, "the game started without us")
            seat = self.seat
            self.relay.seat = seat
            if seat is not None:
                self.console.say(f"the game starts: you are seat {seat + 1} ({COLOURS[seat]}); "
                                 + ", ".join(f"{n} ({COLOURS[i]})" for i, n in enumerate(self.names)))
        store.add_receipt(index, entry_hash(raw), sig)
        store.append(raw)  # durable (store.sync) before we act on it: see act()
        if self.relaying and self.dial_seat is not None:
            # A resumed relay's log lost this entry; the successor it looked
            # for sent it back under our own receipt (as a fetch would).
            self.relay.fetched.setdefault(self.names[self.dial_seat], []).append(index)
        if self.pending.pop(entry_hash(raw), None) is not None:
            self.refusals = 0
        self.trace.folded(table, self.seat)
        self.host_len = max(self.host_len, len(table.log))
        if table.relay != relay_before:
            self.handed_over(relay_before, table.relay)

    def adopted(self, raw: bytes) -> None:
        """The relay side fetched an entry into our log (before we take over,
        or after a resume): it may be one of ours in flight."""
        if self.pending.pop(entry_hash(raw), None) is not None:
            self.refusals = 0
        if self.table is not None:
            self.host_len = max(self.host_len, len(self.table.log))

    def handed_over(self, old: int, new: int) -> None:
        """The log moved the relay from ``old`` to ``new``."""
        self.turned = False
        self.relay.requests.clear()
        names = self.names
        self.console.say(f"the relay moved from {names[old]} to {names[new]}"
                         + (": we relay from now on" if new == self.seat else ""))
        if new == self.seat:
            self.disconnect()
            # What we sent the old relay and never saw sequenced: ours to
            # sequence now (a message the table no longer takes is refused).
            pending, self.pending = list(self.pending.values()), {}
            for raw in pending:
                self.relay.sequence(raw, None)
        elif self.dial_seat != new:
            self.turn_to(new)
        self.resend = True

    def conflict(self, index: int, raw: bytes, sig: bytes) -> None:
        table, store = self.table, self.store
        assert table is not None and store is not None and table.game_id is not None
        prev = prev_head(table, index)
        relay = table.relay_at(index)
        if self.hand_over_at(index, raw, sig):
            return
        key = table.seats[relay].identity
        if not entry_signed(key, table.game_id, index, prev, raw, sig):
            self.console.say(f"dropped a conflicting entry {index} its relay did not sign")
            return
        mine = store.receipts().get(index)
        if mine is None:
            return
        proof = EquivocationProof(key, table.game_id, index, prev, table.log[index], mine[1], raw, sig)
        if proof.valid():
            path = store.save_proof(index, proof.to_bytes())
            raise NodeExit(1, f"{self.host_name()} signed two different entries at index {index}: "
                              f"it equivocated; the proof is in {path}")

    def hand_over_at(self, index: int, raw: bytes, sig: bytes) -> bool:
        """A valid hand-over at ``index``, where our log goes on without it:
        we relayed entries there that no seat in play holds (every one of them
        signed a follow request from a shorter log), so nobody else saw them.
        Our log is cut back to ``index`` and goes on from the hand-over."""
        table, store = self.table, self.store
        assert table is not None and store is not None and table.game_id is not None
        try:
            envelope = open_envelope(raw)
            relay = message_from_wire(envelope.body)
        except (TableError, IndexError):
            return False
        if not isinstance(relay, RelayMessage) or relay.old != self.seat or relay.old != table.relay_at(index - 1) \
                or not 0 <= envelope.seat < table.n:
            return False  # only the relay it replaces drops entries for a hand-over
        # Its receipt first (cheap), before folding our whole prefix again.
        if not entry_signed(table.seats[envelope.seat].identity, table.game_id, index, table.prev_head(index),
                            raw, sig):
            return False
        # What each seat of the hand-over said it held: the new relay, the
        # log it takes over from; each other seat, its request's length.
        claimed = {envelope.seat: index} | {r.seat: r.length for r in relay.requests}
        for later in table.log[index:]:
            written = open_envelope(later)
            seen = table.heads.index(written.head) if written.head in table.heads else 0
            if written.seat in claimed and seen > claimed[written.seat]:
                # That seat wrote an entry we dropped after applying more of
                # the log than it claims to hold: it hid entries from the
                # hand-over. (One it wrote before, sequenced by us and never
                # relayed when we crashed, is honest: it comes again.)
                raise NodeExit(1, f"{self.names[written.seat]} took part in a hand-over at entry {index} "
                                  f"while it held entries after it (it wrote one at entry {seen}): it hid them; "
                                  f"the game stops here (our log: {store.log_path})")
        prefix, _ = self.replay(store, table.log[:index])
        try:
            prefix.receive(raw)
        except (TableError, EngineError):
            return False
        dropped = len(table.log) - index
        store.cut(index)
        store.add_receipt(index, entry_hash(raw), sig)
        store.append(raw)
        store.sync()
        self.use_table(prefix, store)
        self.host_len = len(prefix.log)
        self.pending.clear()
        self._outbox_len = -1
        self.console.say(f"the relay moved to {self.names[prefix.relay]} at entry {index} while we were away: "
                         f"our {dropped} later entr{'y' if dropped == 1 else 'ies'}, which no other seat held, "
                         "are dropped; we play on from the hand-over")
        self.handed_over(prefix.handovers[-1].old, prefix.relay)
        return True

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
                expected = self.expected_key()
                if expected is not None and public != expected:
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
                    self.send_follow()
            case frames.LobbyNews(names, wanted, escrow):
                if escrow and not self.told_escrow:
                    self.told_escrow = True
                    self.console.say(f"this game uses escrow: {ESCROW_TRADE_OFF}; `end` leaves the lobby "
                                     "if you do not agree")
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
            case frames.Silent(seats):
                self.silent = (seats, time.monotonic())

    def expected_key(self) -> bytes | None:
        """The key that must answer where our DEALER points (None: whoever hosts the game we join)."""
        table = self.table
        if table is None or not table.seats:
            return None
        return table.seats[self.dial_seat if self.dial_seat is not None else 0].identity

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
        """The relay lacks the tail of the log (it lost it in a crash, or it
        takes over from a shorter log) and asks for it: send our entries from
        ``start`` with their relays' signatures from our receipts."""
        table, store = self.table, self.store
        if table is None or store is None or not start < len(table.log):
            return
        receipts = store.receipts()
        for index in range(start, len(table.log)):
            sig = receipts.get(index, (b"", b""))[1]
            if len(sig) != 64:
                return  # no receipt from here on (it was never fsync'ed): the relay will say so
            self.send(frames.Have(index, table.log[index], sig))

    # ------------------------------------------------------------ hand-over

    def relay_gone(self, now: float) -> bool:
        """The relay left the game, or the one we follow has been silent past the relay timeout."""
        table = self.table
        if table is None or not table.seated or self.relaying or table.complete:
            return False
        if table.relay_gone:
            return True
        # Silence moves the relay only where the game can go on without it:
        # with escrow its seat can be carried on; without, its shares are
        # needed for every card, so we wait for it to come back, as before.
        return (table.escrow and self.dial_seat in (None, table.relay)
                and now - self.heard > self.o.relay_timeout)

    def turn(self) -> None:
        """The relay is gone: turn to its successor (or become it)."""
        table = self.table
        assert table is not None
        new = table.successor
        old = self.names[table.relay]
        why = "left the game" if table.relay_gone else f"has been silent for {self.o.relay_timeout:.0f} s"
        if new is None:
            raise NodeExit(1, f"the relay ({old}) {why} and no seat is left to relay")
        self.turned = True
        self.trace.event("relay_lost", seat=self.seat, relay=table.relay, forfeited=table.relay_gone)
        if new == self.seat:
            # We sign nothing by turning, so we keep listening to the old
            # relay: if it answers again before we take over, we go on with it.
            self.console.say(f"the relay ({old}) {why}: we relay next, once every other seat in play turns to us")
            return
        self.console.say(f"the relay ({old}) {why}: turning to {self.names[new]}, who relays next")
        self.turn_to(new)

    def turn_to(self, seat: int) -> None:
        """Connect to ``seat`` at the address it put in the log."""
        table = self.table
        assert table is not None
        where = table.reach.get(seat)
        if where is None:
            self.console.say(f"{self.names[seat]} never said where it accepts connections: we cannot reach it")
            self.disconnect()
            self.dial_seat = seat
            return
        self.connect(where[0], where[1], seat)

    def send_follow(self) -> None:
        """Once welcomed by the successor we turned to: our signed follow request."""
        table, player = self.table, self.player
        if not self.turned or table is None or player is None or player.peer is None:
            return
        if self.dial_seat is None or self.dial_seat != table.successor or self.dial_seat == self.seat:
            return
        request = player.peer.follow(table.relay, self.dial_seat)
        self.send(frames.Follow(request.length, request.head, request.signature))

    def take_over(self, now: float) -> None:
        """We are the successor: take over once every other seat in play follows us."""
        table, player, store = self.table, self.player, self.store
        if table is None or player is None or store is None or self.relaying or table.successor != self.seat:
            return
        if not self.turned and self.relay.all_requested():
            # Every other seat in play lost the relay and turned to us: the
            # relay is gone for the game even if we still hear it.
            self.turned = True
            self.console.say(f"every other seat lost the relay ({self.names[table.relay]}): we relay next")
        elif self.turned and not table.relay_gone and now - self.heard < HOST_SILENT_S \
                and not self.relay.all_requested():
            self.turned = False
            self.console.say(f"the relay ({self.names[table.relay]}) answers again: we go on with it")
        if not self.turned:
            return
        if not self.relay.ready_to_take_over(self.progress.note):
            return
        last = len(table.log) - 1
        receipt = store.receipts().get(last, (b"", b""))[1]
        assert table.game_id is not None
        if not entry_signed(table.seats[table.relay].identity, table.game_id, last, table.prev_head(last),
                            table.log[last], receipt):
            raise NodeExit(1, f"we hold no receipt of entry {last} from the relay: we cannot take over")
        if not player.ready():
            return
        assert player.peer is not None
        player.peer.seq = max(player.peer.seq, table.last_seq.get(player.peer.seat, 0))
        old = table.relay
        self.relay.take_over(player.peer.take_relay(receipt, tuple(self.relay.requests.values())))
        self.relay.flush()
        self.handed_over(old, table.relay)

    # --------------------------------------------------------------- acting

    def forfeit(self) -> None:
        """Leave for good. From the lobby we just leave; once the game has
        started we forfeit (after our keys, if they are not in yet: without
        them the others could never go on); after the end there is nothing
        to forfeit."""
        table = self.table
        seat = self.seat
        if table is None or table.game_id is None or seat is None:
            self.send(frames.Leave())
            raise NodeExit(0, "left the lobby before the game started")
        if table.finished:
            self.console.say("the game is over: there is nothing to forfeit")
            return
        self.console.say("forfeiting: publishing our secrets so the game goes on; "
                         "from now on the table plays our seat"
                         + (" and the next seat relays" if self.relaying else ""))
        self.forfeiting = True

    def outgoing(self, raw: bytes) -> None:
        """One message of ours: sequenced here while we relay, else sent to the relay."""
        if self.relaying:
            self.relay.sequence(raw, None)
        else:
            self.pending[entry_hash(raw)] = raw
            self.send(frames.Env(raw))

    def ready_to_send(self) -> bool:
        table = self.table
        if table is None or self.player is None:
            return False
        if self.relaying:
            return not self.relay.gated
        # Only to the relay, once it welcomed us and we caught up with it.
        return (self.welcomed and len(table.log) >= self.host_len and table.seated
                and self.dial_seat in (None, table.relay) and not table.relay_gone)

    def act(self) -> None:
        table, player = self.table, self.player
        if table is None or player is None or not self.ready_to_send():
            return
        assert self.store is not None
        self.store.sync()  # everything we folded is on disk before we send anything
        seat = player.seat
        if seat is not None and seat in table.carried_on:
            if not self.told_carried:
                self.told_carried = True
                self.console.say(f"your seat was carried on by the others at entry {table.carried_on[seat]}: "
                                 "it was silent too long, so they opened its key from escrow and the table plays "
                                 "it now; you watch the rest of the game")
            return
        if seat is not None and seat in table.forfeited:
            now = time.monotonic()
            self._left_at = self._left_at or now
            if table.relay == seat and not self.relay.everyone_has(len(table.log), table.in_play) \
                    and now - self._left_at < self.o.timeout:
                return  # we relayed: the others must hear of our forfeit from us before we go
            raise NodeExit(0, f"you forfeited this game; the others play on (the log so far: {self.store.log_path})")
        if self.forfeiting and table.finished:
            # The game ended (or halted) before our forfeit went out: nothing to
            # forfeit now; our duties (the final reveal) go on as usual.
            self.forfeiting = False
            self.console.say("the game is over before our forfeit went out: nothing to forfeit")
        if self.forfeiting and not self.pending and seat is not None and seat in table.keys and player.peer:
            self.outgoing(player.peer.forfeit())
            self.relay.flush()
            return
        if self.resend:
            self.resend = False
            for raw in list(self.pending.values()):
                self.send(frames.Env(raw))
        if self.pending:
            return
        self.say_where()
        self.ask_to_carry_on()
        for _ in range(1000):
            if len(table.log) == self._outbox_len and not self.poke:
                return
            self._outbox_len, self.poke = len(table.log), False
            out = player.outbox()
            for raw in out:
                if player.peer is not None:
                    self.trace.sent(raw, table, player.peer.seat)
                self.outgoing(raw)
            self.relay.flush()
            if not out or not self.relaying:
                return

    def ask_to_carry_on(self) -> None:
        """In an escrow game: ask to carry on each seat the table waits for
        that the relay has not heard for the relay timeout (we relay: our
        own count; else the relay's last ``silent``). The seat's own next
        message cancels every request (it is back)."""
        table, player = self.table, self.player
        if table is None or player is None or player.peer is None or not table.escrow or table.finished:
            return
        me = player.seat
        if me is None or me not in table.in_play:
            return
        if self.relaying:
            silent = self.relay.silent_seats(self.o.relay_timeout)
        else:
            seats, when = self.silent
            silent = seats if time.monotonic() - when < SILENT_NEWS_S else ()
        for seat in sorted(set(silent) & set(waiting_for(table, me))):
            if me in table.carry_on_requests.get(seat, frozenset()) or not table.can_carry_on(seat, me):
                continue
            self.console.say(f"{self.names[seat]} has been silent for {self.o.relay_timeout:.0f} s: asking the "
                             "others to carry their seat on (escrow)")
            player.peer.seq = max(player.peer.seq, table.last_seq.get(player.peer.seat, 0))
            self.outgoing(player.peer.carry_on(seat))

    def say_where(self) -> None:
        """Put where we accept connections in the log (we may relay one day), once per address."""
        table, player = self.table, self.player
        if (self.relaying or table is None or player is None or player.peer is None or self.relay.sock is None
                or player.seat is None or player.seat not in table.in_play or table.finished):
            return
        here = (local_ip_toward(self._address), self.port)
        if table.reach.get(player.seat) != here:
            player.peer.seq = max(player.peer.seq, table.last_seq.get(player.peer.seat, 0))
            self.outgoing(player.peer.reach(*here))

    # ----------------------------------------------------------------- loop

    def run(self, player: PlayerChannel | None = None) -> int:
        """Play until the game ends, the player leaves, or it cannot go on; the exit code."""
        try:
            self.o.data.claim()
        except StoreError as exc:
            self.console.say(str(exc))
            return 1
        self.context = zmq.Context()
        try:
            self.relay.sock = router(self.context, self.o.bind, self.o.listen)
            self.port = bound_port(self.relay.sock)
            self.begin()
            return self._loop(player)
        except (NodeExit, RelayExit) as exc:
            self.console.say(str(exc))
            return exc.code
        except Quit:  # our player stops for now (`end`): everything is kept to resume
            return self.stop_for_now()
        finally:
            if self.sock is not None and self.welcomed and (self.table is None or self.table.game_id is None):
                self.send(frames.Leave())  # in the lobby: free our place at once (a killed joiner is dropped when silent)
            if self.reach is not None:
                self.reach.close()
            try:
                if self.store is not None:
                    self.store.close()
            finally:
                self.context.destroy(linger=1000)

    def begin(self) -> None:
        """Before the loop: connect to the host we join, or, resuming a game
        whose relay moved, to the relay our log names."""
        if len(self.ongoing) == 1 and self.ongoing[0].log_path.exists() and relay_moved(self.ongoing[0]):
            self.open_game(self.ongoing[0].game_id)
            table = self.table
            assert table is not None
            if table.seated and table.relay != self.seat and table.relay in table.reach:
                self.console.say(f"the relay moved to {self.names[table.relay]} in this game: connecting there")
                self.turn_to(table.relay)
                return
        self.connect(self.o.host, self.o.port, None)

    def probe(self) -> None:
        """While we relay and hear no seat (after a resume, or cut off): ask
        our successor whether the relay moved without us. If its log holds a
        hand-over, its entries make us a follower (``hand_over_at``)."""
        table = self.table
        if table is None or not table.seated or table.complete or self.sock is not None:
            return
        new = table.successor
        if new is None or new not in table.reach:
            return
        if self.relay.gated or self.relay.all_silent(self.o.relay_timeout):
            self.connect(*table.reach[new], new)

    def stop_for_now(self) -> int:
        if self.relaying:
            self.relay.pause()
        if self.table is None or self.table.game_id is None:
            self.console.say("stopped before the host answered; our game is kept: the same command "
                             "resumes it" if self.ongoing else "left the lobby before the game started")
            return 0
        self.paused = paused_at(self.table, ours=True)
        return 0

    def take_input(self, player: PlayerChannel) -> bool:
        """Act on what the player did, if anything; False once their input is closed."""
        match player.take():
            case None:
                pass
            case InputClosed():
                return False
            case Start():
                self.start_requested()
            case Move(action):
                self.chosen, self.poke = action, True
            case Leave(forfeit=True):
                self.forfeit()
                self.poke = True
            case Leave():
                raise Quit(ENDED)
        return True

    def start_requested(self) -> None:
        """Only the host starts a game."""

    def lobby_step(self) -> bool:
        """Before the game (the host's lobby): True while there is no game to play yet."""
        return False

    def _loop(self, player: PlayerChannel | None) -> int:
        poller = zmq.Poller()
        self._poller = poller
        assert self.relay.sock is not None
        poller.register(self.relay.sock, zmq.POLLIN)
        if self.sock is not None:
            poller.register(self.sock, zmq.POLLIN)
        next_beat = 0.0
        taking = True
        while True:
            poller.poll(50)
            for _ in range(10_000):
                try:
                    parts = self.relay.sock.recv_multipart(zmq.NOBLOCK)
                except zmq.Again:
                    break
                self.relay.handle(parts)
            for _ in range(10_000):
                if self.sock is None:
                    break
                try:
                    raw = self.sock.recv(zmq.NOBLOCK)
                except zmq.Again:
                    break
                self.handle(raw)
                if self.paused is not None:
                    return 0
            self.relay.flush()
            if self.reach is not None:
                why = self.reach.verdict()
                if why is not None:
                    raise NodeExit(1, why)
            if player is not None and taking and not self.take_input(player):
                taking = False  # input closed: play on without it
            now = time.monotonic()
            if now >= next_beat:
                next_beat = now + HEARTBEAT_S
                self.relay.beat()
                if self.sock is not None:
                    if self.challenge is None or not self.welcomed:
                        self.send(frames.Hi(NET_VERSION))
                    else:
                        self.send(frames.Ping(len(self.table.log) if self.table else 0))
                        self.send_follow()  # again: a successor that lagged behind may have dropped it
            if self.lobby_step():
                continue
            table = self.table
            if table is not None and table.seated and not table.complete:
                if self.relay_gone(now) and not self.turned:
                    self.turn()
                self.take_over(now)
                if self.relaying:
                    self.probe()
            gate = self.relaying and table is not None and not self.relay.open_gate(self.progress.note)
            if not gate:
                self.act()
            if player is not None:
                player.turned()
            if table is None or not table.seated:
                self.wait_for_host(now)
                continue
            if table.complete:
                if self.done(now):
                    return 0
                continue
            if gate:
                self.progress.update(len(table.log))
                if self.o.scripted and self.progress.timed_out:
                    raise NodeExit(1, f"no progress for {self.o.timeout:.0f} s: not every seat came back "
                                      f"after the restart{self.resume_hint()}")
                continue
            if not self.relaying and self.wait_for_host(now):
                continue
            stop = watch(self.progress, table, self.seat, self.names, self.o.scripted,
                         str(self.store.log_path if self.store else "-"), self.resume_hint())
            if stop is not None:
                raise NodeExit(1, stop)

    def resume_hint(self) -> str:
        return ""

    def done(self, now: float) -> bool:
        """The game is complete: may we stop? A relay waits (a while) for every seat to hold the whole log."""
        table, store = self.table, self.store
        assert table is not None
        if store is not None:
            store.mark_finished()
        if not self.relaying:
            if len(table.log) >= self.host_len:
                self.send(frames.Ping(len(table.log)))
                return True
            return False
        if self._done_at is None:
            self._done_at = now
        return self.relay.everyone_has(len(table.log)) or now - self._done_at > DONE_GRACE_S

    def wait_for_host(self, now: float) -> bool:
        """While the peer we follow is silent: say so, and give up after the timeout. True: it is silent."""
        if self.sock is None:
            return False
        silent = now - self.heard
        if silent <= HOST_SILENT_S:
            return False
        who = "the host" if not (self.table and self.table.handovers) else self.host_name()
        if now >= self._host_note:
            self._host_note = now + 5.0
            self.console.say(f"waiting for {who} at {self.where if self.dial_seat is None else self.dialed()} "
                             f"({int(silent)} s)")
        if silent > self.o.timeout:
            if self.table is None and not self.ongoing:
                # The same words as the reach check's, which may come a moment later.
                raise NodeExit(1, f"nothing answered at {self.where} in {self.o.timeout:.0f} s: "
                                  "is `ttr host` running there, on that port?")
            raise NodeExit(1, f"{who} at {self.where if self.dial_seat is None else self.dialed()} has been silent "
                              f"for {self.o.timeout:.0f} s; run the same command again to resume")
        return True

    def dialed(self) -> str:
        table = self.table
        where = table.reach.get(self.dial_seat) if table is not None and self.dial_seat is not None else None
        return format_address(*where) if where is not None else self.where
