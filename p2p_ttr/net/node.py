"""One peer of a LAN game, and its one loop: ``ttr join`` runs it as it
is, ``ttr host`` (host.py) adds the lobby and starts as the relay.

A peer is made of parts, each in its own module, that share our copy of
the game (replica.py):

- relay.py: our ROUTER, where the others reach us, and the relay's duties
  on it (admission, sequencing, catch-up, the successor's standby);
- uplink.py: our DEALER to the peer we follow;
- follower.py: each frame from that peer, and each entry of the log checked
  (its relay's receipt, its index), folded and stored;
- seatduties.py: our seat's messages out;
- handover.py: the relay leaving, turning to its successor, taking over;
- playerinput.py: what the player does, from the front's channel.

``Node.run`` is the loop that drives them: read the ROUTER, read the
DEALER, take the player's input, beat, move the relay if it is gone, send
what we owe, and decide whether to stop.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import zmq

from p2p_ttr.client.livenessfacts import SeatGaveUp, WaitingForFollowed
from p2p_ttr.client.netnotices import GameReloaded, RelayElsewhere, RelayingAgain, StoppedUnanswered
from p2p_ttr.client.numbering import turn_number
from p2p_ttr.client.peerexits import FollowedSilent, HostNotSeated, HostResume, HostSwitched, NothingAnswered
from p2p_ttr.client.outcomes import EndMeans
from p2p_ttr.client.storefacts import FetchTheLogAgain, Remedied, Remedy
from p2p_ttr.table.envelope import open_envelope
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.peer import Decider
from p2p_ttr.table.table import Table

from . import frames
from .console import Console, Quit, Reporter
from .discovery import Announcement
from .exits import PeerExit
from .follower import Follower
from .handover import Succession
from .heartbeat import Heartbeat
from .history import History
from .liveness import (HEARTBEAT_S, HOST_SILENT_S, Presence, Progress, GiveUpVerdict, held_back_verdict,
                       host_decides, not_back_verdict, watch)
from .lobby import Lobby
from .pause import Paused, end_means_now, paused_at, relay_address, remember_relay
from .player import SeatPlayer
from .playerinput import PlayerChannel, SeatInput
from .relay import Relay
from .replica import Replica, fold_log
from .seatduties import SeatDuties
from .socket_lock import SocketLock
from .store import DataDir, GameStore, StoreError, WriteFailed, default_data_dir
from .trace import Trace
from .uplink import Uplink
from .witness import RelayLine, ShownToUs, OurHeldBack
from .transport import format_address

RELAY_TIMEOUT_S = 20.0  # a relay silent this long is gone: its successor takes over
DONE_GRACE_S = 5.0  # how long a relay that is done waits for the others to hold the whole log
POLL_S = 0.05  # the loop waits this long for a frame before it looks at the time

NodeExit = PeerExit  # one way to end a peer's run, whichever part ends it


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
    advertise: tuple[str, int] | None = None  # where the others dial us, if not where we listen (reach)
    host_pid: int | None = None  # a bot its host started: that process, which decides while it runs
    name_chosen: bool = True  # False: a default name, changed to a distinct one if the table has it already
    host_key: bytes | None = None  # the key that must answer at the address (confirmed from its beacon: vouch.py)


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
    """A seat of a LAN game: keeps its copy of the log in step with the relay's,
    plays its seat, relays when its seat is the table's relay, and turns to
    the successor when the relay is gone."""

    def __init__(self, options: NodeOptions, decide: Decider | None, console: Console, lobby: Lobby | None = None,
                 players: int = 0) -> None:
        """``decide``: a bot's Decider; None when a person plays through the
        ``PlayerChannel`` given to ``run`` (their moves wait in ``input``).

        Each part is built once, here, and given at its construction every
        callback it makes: a part calls one built after it through a lambda
        that finds it when called (the parts call each other in both
        directions). No part writes another's fields: it calls its methods."""
        self.options = options
        self.console = console
        self.identity = options.data.identity()
        self.trace = Trace(options.trace)
        self.input = SeatInput(self.start_requested, self.forfeit, moved=lambda: self.duties.look_again())
        self.replica = Replica(self.identity, decide or self.input.choose, lobby=lobby)
        self.told = Reporter(console, lambda: self.replica.names)  # every part's one way to tell our player a fact
        report = self.told.report
        self.socket_lock = SocketLock()  # held for every use of our sockets (the heartbeat has a thread of its own)
        self.presence = Presence(relay_timeout=options.relay_timeout)  # who is alive: the relay's word (liveness.py)
        self.relay = Relay(self.replica, self.identity, report, self.trace, players, self.socket_lock, self.presence,
                           listen=options.listen, silence_s=options.relay_timeout, front=options.advertise,
                           witnessed=lambda rid, seat, raw: self.shown_to_us.received(seat, raw, rid),
                           shown_turn=lambda seat, request: self.succession.shown_turn(seat, request),
                           signed=lambda seat: self.duties.heard_from(seat), adopted=self.adopted)
        self.progress = Progress(options.timeout, report, self.told.waiting)
        self.where = format_address(options.host, options.port)
        self.uplink = Uplink(self.where, options.timeout, self.socket_lock)
        self.heartbeat = Heartbeat(self.pulse)
        self.duties = SeatDuties(self.replica, self.uplink, self.relay, report, self.trace, options.timeout,
                                 options.relay_timeout, advertise=options.advertise,
                                 check_for_fork=lambda: self.follower.check_for_fork())
        self.succession = Succession(self.replica, self.uplink, self.relay, self.duties, report, self.trace,
                                     options.relay_timeout, self.progress.note, self.relay_holds_back, self.new_relay)
        held_s = max(4.0, 2 * options.relay_timeout)  # a message the relay holds back this long is shown to all
        line = RelayLine(self.replica, self.relay, self.uplink)
        self.shown_to_us = ShownToUs(self.replica, report, held_s, line.forward, line.answers)
        self.our_held_back = OurHeldBack(self.replica, self.duties, self.identity, options.name, report, held_s,
                                         self.socket_lock, line.answers, lambda raw: self.uplink.send(frames.Env(raw)),
                                         turned_request=lambda: self.succession.request)  # shown once we turned alone
        # Our unfinished games with this host (dialed at its address, or at the relay's the log named when we
        # last played): we never join another game on our own while one is under way (its host restarted without it).
        self.ongoing = [] if options.new_game or not options.host else [
            g for g in options.data.unfinished("peer") if self.where in (g.load_meta().get("host"),
                                                                          g.load_meta().get("relay"))]
        ours = options.data.path
        data_flag = f" --data-dir {shlex.quote(str(ours))}" if ours != default_data_dir() else ""
        self.follower = Follower(self.replica, self.uplink, self.duties, self.relay.catchup, self.identity,
                                 options.name, report, self.trace, self.ongoing, self, self.presence,
                                 renames=not options.name_chosen, host_key=options.host_key,
                                 data_flag=data_flag)
        self.paused: Paused | None = None  # the game stopped for now: by our player, or the host told us
        self._host_note = 0.0
        self._done_at: float | None = None
        self.last_words = ""  # why the run stopped early, as said to the player

    # ---------------------------------------------------------------- views

    @property
    def table(self) -> Table | None:
        return self.replica.table

    @property
    def store(self) -> GameStore | None:
        return self.replica.store

    @property
    def player(self) -> SeatPlayer | None:
        return self.replica.player

    @property
    def names(self) -> tuple[str, ...]:
        return self.replica.names

    @property
    def seat(self) -> int | None:
        return self.replica.seat

    @property
    def relaying(self) -> bool:
        return self.replica.relaying

    @property
    def lobby_names(self) -> tuple[str, ...]:
        return self.follower.lobby_names

    # ----------------------------------------------------------------- game

    def use_table(self, table: Table, store: GameStore) -> None:
        """From now on ``table`` and ``store`` are our game (relay included)."""
        self.replica.use(table, store)

    def open_game(self, game_id: bytes) -> None:
        """Set up (or reload) our replica of ``game_id``."""
        if self.table is not None:
            if self.table.game_id != game_id:
                raise NodeExit(1, HostSwitched())
            return
        store = self.options.data.game(game_id)
        try:
            entries = store.open()
        except WriteFailed:
            raise  # the disk, not the log: it says what to do
        except StoreError as exc:
            if not store.log_path.exists() or isinstance(exc.trouble, str):
                raise
            raise StoreError(Remedied(exc.trouble, FetchTheLogAgain())) from None
        table, history = self.replay(store, entries, FetchTheLogAgain())
        public = self.uplink.public
        if table.seats and public is not None and public not in {s.identity for s in table.seats}:
            raise NodeExit(1, HostNotSeated())
        if entries:
            self.told.report(GameReloaded(game_id, turn_number(table.engine) if table.engine is not None else None))
            self.console.resumed(history)
        if not entries or not store.load_meta():  # new, or meta.json lost: the log says the rest
            store.save_meta({"role": "peer", "name": self.follower.name, "host": self.where, "finished": table.complete})
        self.use_table(table, store)

    def replay(self, store: GameStore, entries: list[bytes], remedy: Remedy | None = None) -> tuple[Table, History]:
        """A table folded from ``entries`` (with our secrets, checked against them)."""
        return fold_log(store, entries, remedy)

    # ------------------------------------------------- what the follower asks

    def relay_moved(self, old: int, new: int) -> None:
        self.succession.handed_over(old, new)
        self.note_relay()

    def note_relay(self) -> None:
        """Keep in meta.json where the relay is now (``resume_address``)."""
        if self.store is not None:
            remember_relay(self.store, self.resume_address())

    def end_means(self) -> EndMeans | None:
        """What our player's `end` does now (pause.py)."""
        return end_means_now(self.table, self.relaying)

    def resume_address(self) -> str:
        """Where our seat comes back (pause.py)."""
        return relay_address(self.table, self.seat, self.where)

    def hand_over_at(self, index: int, raw: bytes, sig: bytes) -> bool:
        return self.succession.hand_over_at(index, raw, sig)

    def joined_game(self) -> None:
        self.duties.send_again()
        self.succession.send_follow()

    def paused_by_host(self, paused: Paused) -> None:
        self.paused = paused

    def refused_elsewhere(self, digest: bytes, code: str) -> None:
        self.shown_to_us.refused(digest, code)

    def new_relay(self) -> None:
        """The relay moved: both sides of witnessing give the new one its full time."""
        self.shown_to_us.new_relay()
        self.our_held_back.new_relay(time.monotonic())

    def relay_holds_back(self, now: float) -> bool:
        """Our relay, which answers, holds back a message: one another seat showed us, or our own."""
        return self.shown_to_us.relay_holds_back(now) or self.our_held_back.relay_holds_back(now)

    def adopted(self, raw: bytes) -> None:
        """The relay side fetched an entry into our log (before we take over,
        or after a resume): it may be one of ours in flight."""
        self.duties.sequenced(raw)
        if self.table is not None:
            self.uplink.holds_at_least(len(self.table.log))

    # ------------------------------------------------------------ our seat

    def handle(self, raw: bytes) -> None:
        """A frame from the peer our DEALER reaches."""
        self.follower.handle(raw)

    def act(self) -> None:
        """Send what our seat owes now, if we may."""
        self.duties.act()

    def forfeit(self) -> None:
        self.duties.forfeit()

    def start_requested(self) -> None:
        """Only the host starts a game."""

    def lobby_step(self) -> bool:
        """Before the game (the host's lobby): True while there is no game to play yet."""
        return False

    def describe_with(self, announce: Callable[[], Announcement | None]) -> None:
        """What we announce on the LAN, we describe, signed, to whoever asks (net/vouch.py)."""
        self.relay.describer.describe_with(announce)

    def resume_hint(self) -> HostResume | None:
        """How the game resumes, for our last words (a joiner: the same command, said already)."""
        return None

    # ----------------------------------------------------------------- loop

    def run(self, player: PlayerChannel | None = None) -> int:
        """Play until the game ends, the player leaves, or it cannot go on; the exit code."""
        try:
            self.options.data.claim()
        except StoreError as exc:
            self.last_words = str(exc)
            self.console.say(self.last_words)
            return 1
        context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
        poller = zmq.Poller()  # every socket we read joins it: each connection our DEALER makes, every link
        self.uplink.open_on(context, poller)
        self.our_held_back.open_on(context, poller)
        try:
            self.relay.router.listen(context, self.options.bind)
            self.begin()
            self.heartbeat.start()
            return self._loop(poller, player)
        except PeerExit as exc:
            self.last_words = self.console.last_words(exc.told, self.replica.names)
            return exc.code
        except Quit:  # our player stops for now (`end`): everything is kept to resume
            return self.stop_for_now()
        finally:
            self.heartbeat.stop()
            self.relay.drops.flush_all()
            if self.uplink.sock is not None and self.uplink.welcomed and (self.table is None
                                                                          or self.table.game_id is None):
                self.uplink.send(frames.LeaveLobby())  # in the lobby: free our place at once (a killed joiner is dropped when silent)
            self.uplink.stop_watching()
            try:
                if self.store is not None:
                    self.store.close()
            finally:
                context.destroy(linger=1000)

    @property
    def port(self) -> int:
        """Where our ROUTER listens."""
        return self.relay.router.port

    def begin(self) -> None:
        """Before the loop: connect to the host we join, or, resuming a game
        whose relay moved, to the relay our log names; if that is us (we
        relayed when we stopped), relay as a resumed host does: sequence
        nothing until every seat says how much it holds, and look for our
        successor in case the relay moved on without us (``Succession.probe``)."""
        moved = next((g for g in self.ongoing if g.log_path.exists() and relay_moved(g)), None)
        if moved is not None:
            self.open_game(moved.game_id)
            self.note_relay()
            table = self.table
            assert table is not None
            if table.seated and not table.complete and table.relay == self.seat:
                self.told.report(RelayingAgain())
                self.relay.catchup.wait_for_every_seat()
                return
            if table.seated and table.relay != self.seat and table.relay in table.reach:
                self.told.report(RelayElsewhere(table.relay))
                self.succession.turn_to(table.relay)
                return
        self.uplink.connect(self.options.host, self.options.port, None, watch_reach=not self.ongoing,
                            our_length=len(self.table.log) if self.table is not None else 0)

    def stop_for_now(self) -> int:
        if self.relaying:
            self.relay.pause()
        if self.table is None or self.table.game_id is None:
            self.told.report(StoppedUnanswered(bool(self.ongoing)))
            return 0
        self.note_relay()
        table = self.table
        away = (table.escrow and table.seated and not table.finished and not self.relaying
                and self.seat in table.in_play)
        self.paused = paused_at(table, ours=True, carried_on_after=self.options.relay_timeout if away else None)
        return 0

    def _loop(self, poller: zmq.Poller, player: PlayerChannel | None) -> int:
        ours = self.relay.router.sock
        assert ours is not None
        with self.socket_lock:
            poller.register(ours, zmq.POLLIN)
        next_beat = 0.0
        taking = True
        while True:
            self.socket_lock.make_way(POLL_S)  # the heartbeat first, if it waits (socket_lock.py says why)
            with self.socket_lock:
                poller.poll(int(POLL_S * 1000))
            # 1. What came in: on our ROUTER (the relay's side), then from the peer we follow.
            for _ in range(10_000):
                parts = self.received(ours)
                if parts is None:
                    break
                self.relay.handle(parts)
            for _ in range(10_000):
                parts = self.received(self.uplink.sock)
                if parts is None:
                    break
                self.handle(parts[0])
                if self.paused is not None:
                    return 0
            self.uplink.read_all()  # relay_silence measures up to here
            for seat, sock in self.our_held_back.sockets():
                for _ in range(100):
                    parts = self.received(sock)
                    if parts is None:
                        break
                    self.our_held_back.handle(seat, parts[0])
            self.relay.flush()
            if self.uplink.reach is not None:
                why = self.uplink.reach.verdict()
                if why is not None:
                    raise NodeExit(1, why)
            # 2. What the player did.
            if player is not None and taking and not self.input.take(player):
                taking = False  # input closed: play on without it
            # 3. Our heartbeat, and the lobby.
            now = time.monotonic()
            if now >= next_beat:
                next_beat = now + HEARTBEAT_S
                self.beat()
            if self.lobby_step():
                continue
            # 4. What the relay holds back: ours shown to the others; theirs watched.
            self.shown_to_us.step(now)
            self.our_held_back.step(now)
            # 5. Who relays: turn to the successor if the relay is gone, take over if we are it.
            table = self.table
            if table is not None and table.seated and not table.complete:
                if self.succession.relay_gone(now) and not self.succession.turned:
                    self.succession.turn()
                self.succession.take_over(now)
                if self.relaying:
                    self.succession.probe()
            # 6. What our seat owes (a resumed relay first waits for every seat).
            gate = self.relaying and table is not None and not self.relay.open_gate(self.progress.note)
            if not gate:
                self.act()
            if player is not None:
                player.turned()
            # 7. Whether to go on.
            if table is None or not table.seated:
                self.wait_for_host(now)
                continue
            if table.complete:
                if self.done(now):
                    return 0
                continue
            if gate:
                self.progress.update(len(table.log))
                if self.options.scripted and self.progress.timed_out:
                    away = tuple(s for s in table.in_play if s != self.seat and s not in self.relay.catchup.reported)
                    self.give_up(not_back_verdict(away, self.progress, self.resume_hint()))
                continue
            if not self.relaying and self.wait_for_host(now):
                continue
            if self.options.scripted and self.relay_holds_back(now) and self.progress.timed_out:
                self.give_up(held_back_verdict(table.relay, self.progress))
            stop = watch(self.progress, table, self.seat, self.names, self.options.scripted, self.presence,
                         str(self.store.log_path if self.store else "-"), self.resume_hint())
            if stop is not None:
                self.give_up(stop)

    def give_up(self, verdict: GiveUpVerdict) -> None:
        """A scripted peer stops waiting: it says so to every screen (through
        the relay, or, relaying, to every connection itself), then stops; a
        bot whose host still runs waits another timeout instead."""
        if host_decides(self.options.host_pid):
            self.progress.extend()
            return
        if self.seat is not None:
            news = SeatGaveUp(self.seat, verdict.why, verdict.about, verdict.seconds)
            (self.relay if self.relaying else self.follower).give_up(news)
        raise NodeExit(1, verdict.told)

    def received(self, sock: zmq.Socket[bytes] | None) -> list[bytes] | None:
        """The next message waiting on ``sock`` (None: nothing, or no socket)."""
        with self.socket_lock:
            if sock is None or sock.closed:
                return None
            try:
                return sock.recv_multipart(zmq.NOBLOCK)
            except zmq.Again:
                return None

    def pulse(self) -> None:
        """Our heartbeat, from its own thread (heartbeat.py): to every
        connection on our ROUTER, and to the peer we follow."""
        with self.socket_lock:
            self.relay.pulse()
            self.uplink.pulse(self.table)

    def beat(self) -> None:
        """Once a second, from the loop: what goes with the heartbeat but needs
        the game (the relay's word on silent seats; our follow request)."""
        self.relay.beat()
        self.relay.drops.tick()  # a flood that stopped is still summed up
        if self.uplink.sock is not None and self.uplink.welcomed:
            self.succession.send_follow()  # again: a successor that lagged behind may have dropped it

    def done(self, now: float) -> bool:
        """The game is complete: may we stop? A relay waits (a while) for every seat to hold the whole log."""
        table, store = self.table, self.store
        assert table is not None
        if store is not None:
            store.mark_finished()
        if not self.relaying and len(table.log) < self.uplink.length:
            return False  # the peer we follow holds more: the end is not ours yet
        self.uplink.send(frames.reporting(len(table.log), table.head))
        self._done_at = now if self._done_at is None else self._done_at
        # A relay (or a successor seats turned to) waits a while for each seat reaching us to hold the end:
        waited = now - self._done_at
        return not self.duties.waits_for_the_last_to_leave(waited) and (  # (one, longer: SeatDuties)
            self.relay.catchup.everyone_has(len(table.log), self.relay.reaching_seats()) or waited > DONE_GRACE_S)

    def wait_for_host(self, now: float) -> bool:
        """While the peer we follow is silent: say so, and give up after the timeout. True: it is silent."""
        if self.uplink.sock is None:
            return False
        silent = self.uplink.silent_for(now)
        if silent <= HOST_SILENT_S:
            return False
        if now >= self._host_note:
            self._host_note = now + 5.0
            self.told.waiting(WaitingForFollowed(*self.follower.followed(), self.dialed(), int(silent)))
        if silent > self.options.timeout:
            if self.table is None and not self.ongoing:
                # The same words as the reach check's, which may come a moment later.
                raise NodeExit(1, NothingAnswered(self.where, self.options.timeout))
            raise NodeExit(1, FollowedSilent(*self.follower.followed(), self.dialed(), self.options.timeout))
        return True

    def dialed(self) -> str:
        """The address of the peer we follow, for the player."""
        table, seat = self.table, self.uplink.seat
        where = table.reach.get(seat) if table is not None and seat is not None else None
        return format_address(*where) if where is not None else self.where
