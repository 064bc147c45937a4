"""A beacon's game confirmed by the host's key before it is listed as that host's.

A beacon is an unsigned datagram (discovery.py): anyone on the LAN can send
one naming any port and any key. So `ttr join` with no address dials each
address it heard and sends ``describe`` with a fresh nonce of its own and the
address it dialled; the host answers ``described``: its game in the words a
listing shows, signed by its identity key over

    msgpack ["p2p_ttr/described/v1", version, host_key, nonce, dialled_ip, dialled_port,
             name, players, seats_free, game_id, board, variant]

The joiner lists the game only if that signature holds under the key the
beacon named, and shows only the signed words. A fresh nonce means an answer
recorded earlier confirms nothing; the dialled address (which the host signs
only if it is its own, as for a hello: hellobind.py) means a relay that passes
the ask on to the real host gets no answer to show under its own address.
What a forged beacon can still do is in protocol.md §10.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass

import zmq

from p2p_ttr.client.doorfacts import Door, DoorDetail, DoorKind
from p2p_ttr.client.hellofacts import NotDialledHere
from p2p_ttr.client.hellowords import refusal_reason
from p2p_ttr.client.peerwords import words_shown
from p2p_ttr.engine.boards import MAX_NAME as MAX_GAME_NAME
from p2p_ttr.errorcodes import ErrorCode
from p2p_ttr.table.envelope import pack
from p2p_ttr.table.identity import Identity, signature_valid
from p2p_ttr.table.messages import valid_name

from . import frames
from .discovery import Announcement, Heard
from .droplog import DropLog
from .frames import CHALLENGE_BYTES, NET_VERSION, FrameError
from .lobby import Dialled
from .router import Router
from .watchers import Bucket

DOMAIN = "p2p_ttr/described/v1"
DESCRIBES_PER_S = 20.0  # signatures a host makes for askers, all together: a flood costs it little
CONFIRM_S = 1.5  # how long a joiner waits for the hosts it heard to describe their games


def described_statement(host_key: bytes, nonce: bytes, dialled: Dialled, game: Announcement) -> bytes:
    return pack([DOMAIN, NET_VERSION, host_key, nonce, dialled[0], dialled[1], game.name, game.players,
                 game.seats_free, game.game_id, game.board, game.variant])


def description(identity: Identity, nonce: bytes, dialled: Dialled, game: Announcement) -> frames.Described:
    """Our game described to the asker of ``nonce``, who dialled ``dialled``, signed."""
    signature = identity.sign(described_statement(identity.public, nonce, dialled, game))
    return frames.Described(game.name, game.players, game.seats_free, game.game_id, game.board, game.variant,
                            signature)


def vouched(heard: Heard, nonce: bytes, answer: frames.Described) -> Announcement | None:
    """The game ``answer`` describes, if the key ``heard`` names signed it over
    our ``nonce`` and the address we dialled, and its words are ones a host
    could send (a name by §5's rule, printable ASCII board and variant);
    None: it confirms nothing."""
    game = Announcement(answer.name, heard.port, answer.players, answer.seats_free, heard.host_key,
                        answer.game_id, answer.board, answer.variant)
    statement = described_statement(heard.host_key, nonce, (heard.address, heard.port), game)
    if not signature_valid(heard.host_key, answer.signature, statement):
        return None
    if not valid_name(game.name) or not all(w.isascii() and w.isprintable() and len(w) <= MAX_GAME_NAME
                                            for w in (game.board, game.variant)):
        return None
    return words_shown(game)  # printable already; the one sanitiser all the same


class Describer:
    """The host's side: answers ``describe`` on our ROUTER with our game,
    signed, if it was dialled to an address of ours, at a bounded rate."""

    def __init__(self, identity: Identity, router: Router, drops: DropLog,
                 dialled_problem: Callable[[Dialled], NotDialledHere | None], clock: Callable[[], float] = time.monotonic) -> None:
        self.identity = identity
        self.router = router
        self.drops = drops
        self.dialled_problem = dialled_problem  # why an address is not ours (admission.py), None: it is
        self.clock = clock
        self.game: Callable[[], Announcement | None] = lambda: None  # what our beacon says now (None: we announce nothing)
        self.budget = Bucket.full(DESCRIBES_PER_S, DESCRIBES_PER_S, clock())

    def describe_with(self, game: Callable[[], Announcement | None]) -> None:
        """From now on we describe what ``game`` says our beacon announces (None: nothing)."""
        self.game = game

    def answer(self, rid: bytes, ask: frames.Describe) -> None:
        if ask.version != NET_VERSION:
            self.router.send(rid, frames.NotAdmitted(ErrorCode.VERSION, frames.other_version_words(ask.version)))
            return
        game = self.game()
        if game is None:
            self.drops.drop(DoorKind(Door.DESCRIBE_NO_GAME))
            return
        if not self.budget.take(1.0, self.clock()):
            self.drops.drop(DoorKind(Door.DESCRIBE), DoorDetail(per_s=DESCRIBES_PER_S))
            return
        dialled = (ask.dialled_ip, ask.dialled_port)
        problem = self.dialled_problem(dialled)
        if problem is not None:  # a relay passes the ask on: we sign nothing it could show as ours
            self.router.send(rid, frames.NotAdmitted(ErrorCode.RELAYED, frames.clip(refusal_reason(problem))))
            return
        self.router.send(rid, description(self.identity, ask.nonce, dialled, game))


@dataclass(frozen=True)
class Found:
    """A game heard on the LAN and confirmed: the address it was heard from,
    and what the key its beacon named signed about it."""

    address: str
    announcement: Announcement

    @property
    def join_address(self) -> str:
        return f"[{self.address}]:{self.announcement.port}" if ":" in self.address \
            else f"{self.address}:{self.announcement.port}"


@dataclass(frozen=True)
class Confirmed:
    """What a listing rests on: the games confirmed, and how many beacons
    heard were not (nobody answered, or not signed by the key they named)."""

    games: list[Found]
    unconfirmed: int


def confirm(heard: list[Heard], seconds: float = CONFIRM_S, clock: Callable[[], float] = time.monotonic) -> Confirmed:
    """Ask every address heard to describe its game, and keep the answers the
    key its beacon named signed; waits at most ``seconds`` for them all."""
    context = zmq.Context()
    asked: dict[zmq.Socket[bytes], tuple[Heard, bytes]] = {}
    games: list[Found] = []
    try:
        poller = zmq.Poller()
        for h in heard:
            sock: zmq.Socket[bytes] = context.socket(zmq.DEALER)
            sock.setsockopt(zmq.LINGER, 0)
            sock.setsockopt(zmq.MAXMSGSIZE, frames.MAX_FRAME_BYTES)
            nonce = os.urandom(CHALLENGE_BYTES)
            try:
                sock.connect(f"tcp://[{h.address}]:{h.port}" if ":" in h.address else f"tcp://{h.address}:{h.port}")
                sock.send(frames.encode_frame(frames.Describe(NET_VERSION, nonce, h.address, h.port)), zmq.NOBLOCK)
            except zmq.ZMQError:  # nowhere to send it: that beacon does not confirm
                continue
            asked[sock] = (h, nonce)
            poller.register(sock, zmq.POLLIN)
        end = clock() + seconds
        while asked and (left := end - clock()) > 0:
            for sock, _ in poller.poll(max(1, int(left * 1000))):
                h, nonce = asked.pop(sock)
                poller.unregister(sock)
                game = _vouched_answer(h, nonce, sock.recv())
                if game is not None:
                    games.append(Found(h.address, game))
    finally:
        context.destroy(linger=0)
    games.sort(key=lambda f: (f.announcement.seats_free == 0, f.announcement.name, f.address))
    return Confirmed(games, len(heard) - len(games))


def _vouched_answer(heard: Heard, nonce: bytes, raw: bytes) -> Announcement | None:
    try:
        frame = frames.decode_to_peer(raw)
    except FrameError:
        return None
    return vouched(heard, nonce, frame) if isinstance(frame, frames.Described) else None
