"""Who is on our ROUTER: admitting connections, and the host's lobby.

A connection counts as a seat, or as a lobby member before the game, only
once a hello that answers the challenge issued to that very connection
admitted it (lobby.py); any frame from a connection not admitted is
answered with its challenge. ``Connections`` is what we know of the
admitted ones; ``Admission`` challenges, admits and refuses, and keeps the
lobby (joins, leaves, silent members) until the seating.

It never folds, sequences nor sends an entry.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import zmq

from p2p_ttr.client.doorfacts import Door, DoorDetail, DoorKind
from p2p_ttr.client.hellofacts import GameUnderWay, NoGameYet, NotDialledHere, StartedBeforePlace
from p2p_ttr.client.hellowords import refusal_reason
from p2p_ttr.client.netnotices import JoinedLobby, LeftLobby, Report, RollCall, SeatBack, WaitsForPlace
from p2p_ttr.engine.game import Game
from p2p_ttr.errorcodes import ErrorCode
from p2p_ttr.table.envelope import MAX_SEATS
from p2p_ttr.table.identity import signature_valid
from p2p_ttr.table.messages import game_fields

from . import frames
from .droplog import DropLog
from .frames import NET_VERSION, clip
from .hellobind import dialled_problem, listening_on
from .lobby import Challenges, Dialled, Lobby, HelloRefusal, hello_statement
from .replica import Replica
from .router import Router

LOBBY_SILENT_S = 5.0  # a lobby member unheard this long (it pings every second) has left


@dataclass
class Connections:
    """Admitted connections and what we know of each."""

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

    def heard_now(self, rid: bytes) -> None:
        """Admitted connection ``rid`` sent something just now."""
        self.heard[rid] = time.monotonic()

    def is_a_watcher(self, rid: bytes) -> None:
        """``rid`` turned out a watcher: what it sent counts for no seat's liveness."""
        self.heard.pop(rid, None)

    def seat_at(self, rid: bytes, seat: int) -> None:
        """Lobby member ``rid`` has ``seat`` now (the seating is in)."""
        self.known[rid] = seat

    def forget_key(self, public: bytes) -> None:
        """The lobby member ``public`` left: no connection is its now."""
        del self.conn[public]

    def forget(self, rid: bytes) -> None:
        self.known.pop(rid, None)
        self.heard.pop(rid, None)
        self.answered.pop(rid, None)

    def seat_of(self, rid: bytes) -> int:
        """The seat of an admitted connection (-1: a lobby member, or not admitted)."""
        return self.known.get(rid, -1)


class Admission:
    """Challenges, hellos and the lobby on our ROUTER."""

    def __init__(self, replica: Replica, router: Router, report: Report, players: int = 0,
                 drops: DropLog | None = None, front: Dialled | None = None) -> None:
        self.replica = replica
        self.drops = drops or DropLog(report)
        self.router = router
        self.report = report
        self.players = players  # the lobby starts when this many are in (0: when the host says)
        self.escrow = False  # the host's game will escrow every seat's key (told in the lobby)
        self.game: Game | None = None  # the host's game before its seating (named in every challenge)
        self.connections = Connections()
        self.roll_call: float | None = None  # when the lobby filled: who answered since may be seated
        self.front = front  # where our player says we are dialled instead (--advertise): admitted too

    def host_game(self, game: Game, escrow: bool) -> None:
        """We hold the lobby of ``game`` (named in every challenge until the
        seating), with every seat's key escrowed if ``escrow`` (told in the lobby)."""
        self.game, self.escrow = game, escrow

    def challenge(self, rid: bytes) -> None:
        """Send a connection not admitted its challenge (the same until a hello uses it)."""
        table = self.replica.table
        game_id = table.game_id if table is not None else None
        game = table.game if table is not None and table.game is not None else self.game
        self.router.send(rid, frames.Challenge(NET_VERSION, self.replica.identity.public,
                                               self.connections.challenges.issue(rid), game_id,
                                               game_fields(game) if game is not None else None))

    def hello(self, rid: bytes, hello: frames.Hello) -> None:
        version, name, public, challenge, sig = hello.version, hello.name, hello.identity, hello.challenge, \
            hello.signature
        dialled = (hello.dialled_ip, hello.dialled_port)
        if rid in self.connections.known:
            self.drops.drop(DoorKind(Door.SECOND_HELLO))
            return
        if not self.connections.challenges.take(rid, challenge):
            # Not the challenge this connection was sent (a hello recorded on
            # another connection, or one sent before a restart): it admits
            # nobody; the connection gets its own challenge to answer.
            self.drops.drop(DoorKind(Door.HELLO_UNANSWERED))
            self.challenge(rid)
            return
        table, lobby, me = self.replica.table, self.replica.lobby, self.replica.seat
        try:
            self.came_straight(version, name, public, challenge, sig, dialled)
            if table is not None and table.seated:
                seat = next((s for s, seat in enumerate(table.seats) if seat.identity == public), None)
                probe = Lobby(self.replica.who(me) if me is not None else "-", self.replica.identity.public,
                              MAX_SEATS + 1)
                probe.join(version, name, public, challenge, sig, dialled)  # version and signature checks
                if seat is None or seat == me:
                    raise HelloRefusal(ErrorCode.STARTED, GameUnderWay())
                self.connections.admit(rid, public, seat, challenge)
                self.router.send(rid, frames.Welcome(seat, table.game_id, len(table.log), self.replica.names))
                self.report(SeatBack(seat, self.replica.relaying))
                return
            if lobby is None:
                raise HelloRefusal(ErrorCode.STARTED, NoGameYet())
            new = lobby.join(version, name, public, challenge, sig, dialled)
        except HelloRefusal as refusal:
            self.drops.drop(DoorKind(Door.HELLO_REFUSED, code=str(refusal.code)), DoorDetail(refusal.reason, name))
            self.router.send(rid, frames.NotAdmitted(refusal.code, clip(refusal.reason)))
            return
        self.connections.admit(rid, public, -1, challenge)
        # A waiting joiner is welcomed too (it is told the lobby's names, its
        # own not among them: its screen says it waits for a place).
        self.router.send(rid, frames.Welcome(-1, None, 0, tuple(lobby.names)))
        if new and any(pub == public for _, pub in lobby.waiting):
            self.report(WaitsForPlace(name, tuple(lobby.names)))
        elif new:
            self.report(JoinedLobby(name, len(lobby.names), self.players))
            self.lobby_news()

    def came_straight(self, version: int, name: str, public: bytes, challenge: bytes, sig: bytes,
                      dialled: Dialled) -> None:
        """Refuse a signed hello whose connection was dialled elsewhere than to
        our ROUTER: a relay sits between its author and us (hellobind.py).
        Checked only once the signature holds, so that the words go to the
        key's owner, through whoever relays it."""
        if version != NET_VERSION or not signature_valid(
                public, sig, hello_statement(version, self.replica.identity.public, challenge, dialled, name, public)):
            return  # refused by the lobby's own checks, with their words
        problem = self.not_ours(dialled)
        if problem is not None:
            raise HelloRefusal(ErrorCode.RELAYED, problem)

    def not_ours(self, dialled: Dialled) -> NotDialledHere | None:
        """Why ``dialled`` is not our ROUTER's address nor our player's front
        (hellobind.py); None: it is ours."""
        sock = self.router.sock
        if sock is None:  # driven by hand, with no socket (unit tests): nothing was dialled
            return None
        endpoint = sock.getsockopt(zmq.LAST_ENDPOINT)
        return dialled_problem(dialled, listening_on(endpoint.decode() if isinstance(endpoint, bytes)
                                                     else str(endpoint)), self.front)

    def seat_connections(self) -> list[bytes]:
        """The admitted connection of each seat but ours that has one in this run."""
        table = self.replica.table
        assert table is not None
        me = self.replica.seat
        rids = (self.connections.conn.get(seat.identity) for s, seat in enumerate(table.seats) if s != me)
        return [rid for rid in rids if rid is not None]

    def lobby_news(self) -> None:
        lobby = self.replica.lobby
        assert lobby is not None
        for member in self.connections.known:
            self.router.send(member, frames.LobbyNews(tuple(lobby.names), self.players, self.escrow))

    def seated(self, members: list[bytes]) -> None:
        """The seating is in: lobby members (-1) now have their seats (in
        ``members`` order); joiners still waiting for a place are told the
        game started without them."""
        for seat, public in enumerate(members):
            rid = self.connections.conn.get(public)
            if rid is not None and rid in self.connections.known:
                self.connections.seat_at(rid, seat)
        for rid in [rid for rid, seat in self.connections.known.items() if seat == -1]:
            self.router.send(rid, frames.NotAdmitted(ErrorCode.STARTED, refusal_reason(StartedBeforePlace())))
            self.connections.forget(rid)

    def left(self, rid: bytes) -> None:
        """A lobby member said it leaves (before the start)."""
        if self.connections.seat_of(rid) == -1 and self.replica.table is None:
            self.drop_member(rid)

    def drop_member(self, rid: bytes, silent_s: float = 0.0) -> None:
        """A lobby member left (or went silent for ``silent_s``): free its place and tell the others."""
        public = next((pub for pub, conn in self.connections.conn.items() if conn == rid), None)
        self.connections.forget(rid)
        self.roll_call = None  # the lobby changed: call the roll again when it is full
        lobby = self.replica.lobby
        if public is None or lobby is None:
            return
        self.connections.forget_key(public)
        name = lobby.leave(public)
        if name is None:
            return
        taken = lobby.take_waiting()
        self.report(LeftLobby(name, tuple(lobby.names), silent_s, taken))
        self.lobby_news()  # the one who took the place reads its name among them

    def all_answered(self) -> bool:
        """The roll call before the seating: True once every lobby member has
        been heard since the lobby filled. The call is a ``lobby`` frame to
        every member, which a member answers with a ``ping`` at once, so the
        game starts one round trip after the lobby fills (a member that does
        not answer so is still heard by its ping every second). A member
        whose process died just before stays silent: it is dropped after
        ``LOBBY_SILENT_S`` (``drop_silent_members``) and never seated, where
        nothing hidden is dealt yet and the lobby simply waits again."""
        if self.roll_call is None:
            self.roll_call = time.monotonic()
            self.report(RollCall(LOBBY_SILENT_S))
            self.lobby_news()
        since, lobby = self.roll_call, self.replica.lobby
        waiting = {self.connections.conn.get(public) for _, public in lobby.waiting} if lobby is not None else set()
        return all(self.connections.heard.get(rid, 0.0) > since for rid, seat in self.connections.known.items()
                   if seat == -1 and rid not in waiting)

    def drop_silent_members(self) -> None:
        now = time.monotonic()
        for rid, seat in list(self.connections.known.items()):
            if seat == -1 and now - self.connections.heard.get(rid, now) > LOBBY_SILENT_S:
                self.drop_member(rid, LOBBY_SILENT_S)
