"""The lobby: signed hellos, and who gets a seat.

Every connection to the host is challenged on its own: the host draws a
fresh random challenge for it (``CHALLENGE_BYTES`` from the OS), and a joiner
proves it holds its identity key by signing that challenge with its hello
fields:

    hello signature = Ed25519 over
        msgpack ["p2p_ttr/hello/v3", version, host public key, challenge,
                 dialled ip, dialled port, name, public key]

The dialled address is where the joiner's connection went (hellobind.py
checks it is the host's own): a hello relayed by whoever sits between the
two names the relay's address, and admits nobody.

A challenge answers one hello on the connection it was sent on, once: a hello
recorded on one connection (or an earlier one) admits nobody on another.
``Challenges`` keeps the outstanding ones. Which connection a frame came on
is its ZeroMQ routing id, which the host's ROUTER socket assigns to each new
connection (peers set none, and the ROUTER ignores a connection that claims
an id in use: transport.py).

Seats are given in join order; the host is seat 0.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from p2p_ttr.client.hellofacts import (HelloProblem, HelloUnsigned, HostsOwnIdentity, LobbyFull, NameInUse,
                                      NameLookalike, NameRefused, OtherVersion)
from p2p_ttr.client.hellowords import refusal_reason
from p2p_ttr.errorcodes import ErrorCode
from p2p_ttr.table.envelope import MAX_SEATS, pack
from p2p_ttr.table.identity import Identity, signature_valid
from p2p_ttr.table.names import looks_like, name_problem

from .frames import CHALLENGE_BYTES, NET_VERSION

HELLO_TAG = "p2p_ttr/hello/v3"  # the signature's purpose: nothing else an identity signs starts so
MAX_OPEN_CHALLENGES = 1024  # connections challenged and not yet admitted; the oldest is forgotten first
MAX_WAITING = MAX_SEATS  # joiners kept waiting for a place in a full lobby; more are refused `full`

Dialled = tuple[str, int]  # the numeric address and port a joiner's connection was dialled to


def hello_statement(version: int, host_public: bytes, challenge: bytes, dialled: Dialled, name: str,
                    public: bytes) -> bytes:
    return pack([HELLO_TAG, version, host_public, challenge, dialled[0], dialled[1], name, public])


def sign_hello(identity: Identity, name: str, host_public: bytes, challenge: bytes, dialled: Dialled) -> bytes:
    return identity.sign(hello_statement(NET_VERSION, host_public, challenge, dialled, name, identity.public))


class Challenges:
    """The challenge outstanding on each connection not yet admitted.

    ``issue`` gives a connection its challenge (the same one until it is
    used); ``take`` uses it up if a hello answers exactly it. A connection
    whose challenge was used gets a new one only if it asks again."""

    def __init__(self, limit: int = MAX_OPEN_CHALLENGES) -> None:
        self.limit = limit
        self._open: dict[bytes, bytes] = {}  # connection -> its challenge, oldest first

    def issue(self, conn: bytes) -> bytes:
        challenge = self._open.get(conn)
        if challenge is None:
            while len(self._open) >= self.limit:
                del self._open[next(iter(self._open))]
            challenge = self._open[conn] = secrets.token_bytes(CHALLENGE_BYTES)
        return challenge

    def take(self, conn: bytes, challenge: bytes) -> bool:
        """Whether ``challenge`` is the one outstanding on ``conn``; if so it is used up."""
        if conn in self._open and secrets.compare_digest(self._open[conn], challenge):
            del self._open[conn]
            return True
        return False

    def forget(self, conn: bytes) -> None:
        self._open.pop(conn, None)

    def __len__(self) -> int:
        return len(self._open)


@dataclass
class HelloRefusal(Exception):
    """The host's answer to a hello it will not seat: a wire code and the
    problem, a typed fact (client/hellofacts.py) the client words."""

    code: ErrorCode
    problem: HelloProblem

    @property
    def reason(self) -> str:
        """The problem in words for the joiner: the ``refused`` frame's reason."""
        return refusal_reason(self.problem)

    def __str__(self) -> str:
        return f"{self.code}: {self.reason}"


@dataclass
class Lobby:
    """The host's list of who has joined before the game starts, in join order; checks each hello."""

    host_name: str
    host_public: bytes
    capacity: int = MAX_SEATS
    members: list[tuple[str, bytes]] = field(default_factory=list)  # joiners in join order
    # Joiners who came while the lobby was full, in arrival order: a member
    # may be about to be dropped (gone silent), and the first of them takes
    # its place then instead of being turned away (issue 42, item 9).
    waiting: list[tuple[str, bytes]] = field(default_factory=list)

    @property
    def names(self) -> list[str]:
        return [self.host_name] + [name for name, _ in self.members]

    def full(self) -> bool:
        return len(self.members) + 1 >= self.capacity

    def join(self, version: int, name: str, public: bytes, challenge: bytes, sig: bytes, dialled: Dialled) -> bool:
        """Admit a joiner (True if new, False if already in), or raise HelloRefusal.
        ``challenge`` is the one the host issued to the joiner's connection
        (the host checks that first: ``Challenges.take``), ``dialled`` the
        address the hello names (the host checks it is its own: hellobind.py)."""
        if version != NET_VERSION:
            raise HelloRefusal(ErrorCode.VERSION, OtherVersion(version, NET_VERSION))
        if not signature_valid(public, sig, hello_statement(version, self.host_public, challenge, dialled, name, public)):
            raise HelloRefusal(ErrorCode.BAD_HELLO, HelloUnsigned())
        problem = name_problem(name)
        if problem is not None:
            raise HelloRefusal(ErrorCode.BAD_NAME, NameRefused(problem))
        if any(pub == public for _, pub in self.members + self.waiting):
            return False
        if public == self.host_public:
            raise HelloRefusal(ErrorCode.BAD_HELLO, HostsOwnIdentity())
        other = looks_like(name, self.names + [n for n, _ in self.waiting])
        if other == name:
            raise HelloRefusal(ErrorCode.NAME_TAKEN, NameInUse(name))
        if other is not None:  # a player could pose as the other: the screens could not tell them apart
            raise HelloRefusal(ErrorCode.NAME_TAKEN, NameLookalike(name, other))
        if self.full() and len(self.waiting) >= MAX_WAITING:
            raise HelloRefusal(ErrorCode.FULL, LobbyFull(self.capacity, MAX_WAITING))
        (self.waiting if self.full() else self.members).append((name, public))
        return True

    def leave(self, public: bytes) -> str | None:
        """Drop a member or a waiting joiner who left (or went silent) before
        the start; its name, if it was in."""
        for queue in (self.members, self.waiting):
            for i, (name, pub) in enumerate(queue):
                if pub == public:
                    del queue[i]
                    return name
        return None

    def take_waiting(self) -> str | None:
        """A place is free: the first waiting joiner becomes a member (its name), if any waits."""
        if self.full() or not self.waiting:
            return None
        self.members.append(self.waiting.pop(0))
        return self.members[-1][0]


def another_name(name: str) -> str:
    """The name a joiner tries when its default one is taken at the table:
    ``Ann`` -> ``Ann2`` -> ``Ann3`` ... (still at most 24 characters)."""
    stem = name.rstrip("0123456789")
    digits = name[len(stem):]
    suffix = str(int(digits) + 1) if digits else "2"
    if len(suffix) > 24:
        return "Player2"
    return stem[: 24 - len(suffix)] + suffix
