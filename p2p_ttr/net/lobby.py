"""The lobby: signed hellos, and who gets a seat.

A joiner proves it holds its identity key by signing the host's challenge
nonce (fresh for each run of the host) with its hello fields:

    hello signature = Ed25519 over msgpack ["p2p_ttr/hello/v1", version, name, public key, nonce]

Seats are given in join order; the host is seat 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2p_ttr.table.envelope import MAX_SEATS, pack
from p2p_ttr.table.identity import Identity, signature_valid
from p2p_ttr.table.messages import valid_name

from .frames import NET_VERSION

COLOURS = ("red", "blue", "green", "yellow", "black")


def routing_id(public: bytes) -> bytes:
    """A peer's ZeroMQ routing id: stable across restarts of either side."""
    return b"p" + public


def hello_statement(version: int, name: str, public: bytes, nonce: bytes) -> bytes:
    return pack(["p2p_ttr/hello/v1", version, name, public, nonce])


def sign_hello(identity: Identity, name: str, nonce: bytes) -> bytes:
    return identity.sign(hello_statement(NET_VERSION, name, identity.public, nonce))


@dataclass
class Refusal(Exception):
    code: str
    reason: str


@dataclass
class Lobby:
    host_name: str
    host_public: bytes
    capacity: int = MAX_SEATS
    members: list[tuple[str, bytes]] = field(default_factory=list)  # joiners in join order

    @property
    def names(self) -> list[str]:
        return [self.host_name] + [name for name, _ in self.members]

    def join(self, version: int, name: str, public: bytes, nonce: bytes, sig: bytes) -> bool:
        """Admit a joiner (True if new, False if already in), or raise Refusal."""
        if version != NET_VERSION:
            raise Refusal("version", f"this host speaks LAN protocol {NET_VERSION}, you speak {version}: update ttr")
        if not signature_valid(public, sig, hello_statement(version, name, public, nonce)):
            raise Refusal("bad_hello", "your hello is not signed by your identity key")
        if not valid_name(name):
            raise Refusal("bad_name", "a name is 1-24 printable characters")
        if any(pub == public for _, pub in self.members):
            return False
        if public == self.host_public:
            raise Refusal("bad_hello", "that is the host's own identity")
        if name in self.names:
            raise Refusal("name_taken", f"the name {name!r} is taken at this table: pick another with --name")
        if len(self.members) + 1 >= self.capacity:
            raise Refusal("full", f"the game is full ({self.capacity} players)")
        self.members.append((name, public))
        return True
