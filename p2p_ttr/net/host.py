"""`ttr host`: a peer (node.py) that holds the lobby, writes the seating,
and starts as the game's relay (seat 0).

Everything else it does is any peer's: it relays while its seat is the
table's relay, may forfeit like any seat (the relay then moves to the next
seat), and, resumed after the relay moved without it, plays on as a
follower of the new relay.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from p2p_ttr.client.netnotices import (GameResumed, GameStarted, LobbySaid, LobbyWord, MetaRebuilt, MoreToJoin,
                                       RelayElsewhere, StartFailed)
from p2p_ttr.client.numbering import turn_number
from p2p_ttr.client.peerexits import HostResume, TooFewJoined
from p2p_ttr.client.storefacts import (CopyAJoinersLog, HostLogMissing, JoinedHere, LogHoldsNoEntry, NeverStarted,
                                      NotTheHost, Remedied)
from p2p_ttr.engine.boards import europe_game
from p2p_ttr.engine.game import Game
from p2p_ttr.table.envelope import MAX_SEATS
from p2p_ttr.table.messages import Seat
from p2p_ttr.table.peer import Decider, Peer
from p2p_ttr.table.table import Table

from .console import Console
from .lobby import Lobby
from .node import RELAY_TIMEOUT_S, Node, NodeExit, NodeOptions
from .store import DataDir, StoreError, WriteFailed

HostExit = NodeExit  # one way to end a peer's run, host or not


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
    relay_timeout: float = RELAY_TIMEOUT_S
    escrow: bool = False  # every seat deals its key to the others at the start (protocol.md §6, Escrow)
    advertise: tuple[str, int] | None = None  # where the others dial us, if not where we listen (reach)
    game: Game = field(default_factory=europe_game)  # the board, rules and variant the seating names


class Host(Node):
    """Seat 0 and the first relay: runs the lobby, writes the seating, then
    plays like any peer (node.py)."""

    def __init__(self, options: HostOptions, decide: Decider | None, console: Console,
                 on_port: Callable[[int], None] | None = None) -> None:
        super().__init__(NodeOptions(options.data, "", options.port, options.name, options.timeout,
                                     options.scripted, options.trace, bind=options.bind, listen=options.port,
                                     relay_timeout=options.relay_timeout, advertise=options.advertise),
                         decide, console, Lobby(options.name, options.data.identity().public,
                                                options.players or options.game.rules.max_players), options.players)
        self.host_options = options
        self.on_port = on_port
        self.start_now = False
        self.relay.admission.host_game(options.game, options.escrow)
        if options.escrow:
            self.told.report(LobbySaid(LobbyWord.ESCROW_ON))

    @property
    def lobby(self) -> Lobby:
        assert self.replica.lobby is not None
        return self.replica.lobby

    # ------------------------------------------------------------- setup

    def begin(self) -> None:
        """Our ROUTER is up: say where, and resume a game if asked to."""
        if self.on_port is not None:
            self.on_port(self.port)
        if self.host_options.resume:
            self.resume()

    def resume(self) -> None:
        assert self.host_options.resume is not None
        store = self.options.data.find_game(self.host_options.resume)
        game = store.game_id.hex()
        meta = store.load_meta()
        if meta.get("role", "host") != "host":
            raise StoreError(JoinedHere(game))
        from_a_joiner = CopyAJoinersLog(game, store.log_path)
        if not store.log_path.exists():
            # Opening it would write an empty log there, and the game could no longer be told apart.
            raise StoreError(Remedied(HostLogMissing(store.log_path, game), from_a_joiner))
        if store.never_started():
            raise StoreError(NeverStarted(game))
        try:
            entries = store.open()
        except WriteFailed:
            raise  # the disk, not the log: it says what to do
        except StoreError as exc:
            if isinstance(exc.trouble, str):
                raise
            raise StoreError(Remedied(exc.trouble, from_a_joiner)) from None
        table, history = self.replay(store, entries, from_a_joiner)
        if not table.seats:
            raise StoreError(Remedied(LogHoldsNoEntry(store.log_path, game), from_a_joiner))
        if table.seats[0].identity != self.identity.public:
            raise StoreError(NotTheHost(self.options.data.path, game, table.seats[0].name))
        if not meta:  # meta.json lost: the log says all it held
            store.save_meta({"role": "host", "name": table.seats[0].name, "port": self.port,
                             "finished": table.complete})
            self.told.report(MetaRebuilt(store.meta_path))
        self.use_table(table, store)
        self.replica.close_lobby()
        if not table.complete and self.relaying:
            self.relay.catchup.wait_for_every_seat()
        self.told.report(GameResumed(game, turn_number(table.engine) if table.engine is not None else None))
        self.console.resumed(history)
        if not self.relaying and not table.complete:
            self.told.report(RelayElsewhere(table.relay))
            self.succession.turn_to(table.relay)

    def start(self) -> None:
        if self.host_options.escrow and len(self.lobby.names) < 3:
            self.start_now = False
            self.told.report(LobbySaid(LobbyWord.ESCROW_NEEDS_THREE))
            return
        members = [Seat(self.host_options.name, self.identity.public)] + [Seat(n, pub) for n, pub in self.lobby.members]
        game_id = os.urandom(16)
        store = self.options.data.game(game_id)
        store.open()
        store.save_meta({"role": "host", "name": self.host_options.name, "port": self.port, "finished": False})
        self.use_table(Table(), store)
        opener = Peer(0, self.identity, self.replica.decide)
        self.relay.sequencer.sequence(opener.open_game(tuple(members), game_id, escrow=self.host_options.escrow,
                                                       game=self.host_options.game), None)
        self.relay.flush()
        self.relay.admission.seated([m.identity for m in members])
        self.replica.close_lobby()
        self.told.report(GameStarted(game_id))

    # ------------------------------------------------------------ the lobby

    def start_requested(self) -> None:
        if self.table is not None:
            return
        if len(self.lobby.names) >= 2:
            self.start_now = True
        else:
            self.told.report(LobbySaid(LobbyWord.NEEDS_TWO))

    def lobby_step(self) -> bool:
        if self.table is not None:
            return False
        admission = self.relay.admission
        members = len(self.lobby.names)
        admission.drop_silent_members()
        if self.start_now and len(self.lobby.names) < members:
            # Someone asked to start with a member that is gone: ask again.
            self.start_now = False
            self.told.report(StartFailed(tuple(self.lobby.names)))
        wanted = self.host_options.players
        if self.start_now or (wanted and len(self.lobby.names) >= wanted):
            if not admission.all_answered():  # start only with members heard just now
                return True
            self.start()
            return False
        if wanted and len(self.lobby.names) < members:
            self.told.report(MoreToJoin(wanted - len(self.lobby.names)))
        self.progress.update(len(self.lobby.names))
        if self.options.scripted and self.progress.timed_out:
            self.relay.pause()  # its members hear that the lobby closed, at once
            raise NodeExit(1, TooFewJoined(len(self.lobby.names), wanted, self.options.timeout))
        return True

    def resume_hint(self) -> HostResume | None:
        table = self.table
        return HostResume(table.game_id if table is not None else None)

    def stop_for_now(self) -> int:
        if self.table is None or self.table.game_id is None:
            self.relay.pause()
            self.told.report(LobbySaid(LobbyWord.CLOSED))
            return 0
        return super().stop_for_now()
