"""The lobby's hello over real ZeroMQ sockets on 127.0.0.1: each connection
gets its own challenge, a hello answers only the challenge of the connection
it came on, once, and no connection can take over an admitted one. A hello
recorded off the LAN and replayed on another connection admits nobody, and
the seat it belonged to plays on."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import zmq

from p2p_ttr.net import frames
from p2p_ttr.client.doorfacts import Door, DoorKind
from p2p_ttr.net.console import Console
from p2p_ttr.net.frames import NET_VERSION, encode
from p2p_ttr.net.host import Host, HostOptions
from p2p_ttr.net.lobby import sign_hello
from p2p_ttr.net.store import DataDir
from p2p_ttr.net.transport import bound_port, dealer, router
from p2p_ttr.table.identity import Identity

Ctx = zmq.Context[zmq.Socket[bytes]]


class Notes(Console):
    """The host's notes, kept."""

    def __init__(self) -> None:
        super().__init__(True)
        self.said: list[str] = []

    def say(self, text: str) -> None:
        self.said.append(text)


class Wire:
    """A host driven by hand on a real ROUTER, and real DEALERs to it."""

    def __init__(self, tmp: Path, context: Ctx) -> None:
        self.context = context
        self.notes = Notes()
        self.said = self.notes.said
        self.host = Host(HostOptions(DataDir(tmp / "host"), "H", players=2), lambda v, s: None, self.notes)
        self.host.relay.router.sock = router(context, "127.0.0.1", 0)
        self.port = bound_port(self.host.relay.router.sock)
        self.dialled = ("127.0.0.1", self.port)  # where our DEALERs connect: what their hellos sign
        self.socks: list[zmq.Socket[bytes]] = []
        self._inboxes: dict[int, list[tuple[str, list[Any]]]] = {}

    def connect(self, routing_id: bytes | None = None) -> zmq.Socket[bytes]:
        if routing_id is None:
            sock = dealer(self.context, "127.0.0.1", self.port)
        else:  # what an attacker may do: choose the id its connection claims
            sock = self.context.socket(zmq.DEALER)
            sock.setsockopt(zmq.ROUTING_ID, routing_id)
            sock.setsockopt(zmq.LINGER, 0)
            sock.connect(f"tcp://127.0.0.1:{self.port}")
        self.socks.append(sock)
        return sock

    def pump(self, until: Callable[[], bool], seconds: float = 30.0) -> None:
        """Let the host handle what arrives until ``until()`` holds: the frames
        it answers have come back (an event; the deadline only bounds it)."""
        end = time.monotonic() + seconds
        while not until():
            assert time.monotonic() < end, "the host never answered"
            if self.host.relay.router.sock.poll(20):
                while True:
                    try:
                        parts = self.host.relay.router.sock.recv_multipart(zmq.NOBLOCK)
                    except zmq.Again:
                        break
                    self.host.relay.handle(parts)
                self.host.relay.flush()

    def inbox(self, sock: zmq.Socket[bytes]) -> list[tuple[str, list[Any]]]:
        """What ``sock`` received and the test has not taken yet."""
        box = self._inboxes.setdefault(id(sock), [])
        while True:
            try:
                raw = sock.recv(zmq.NOBLOCK)
            except zmq.Again:
                return box
            box.append(frames.decode(raw, frames.TO_PEER))

    def has(self, sock: zmq.Socket[bytes], count: int, kind: str | None = None) -> Callable[[], bool]:
        """``sock`` received ``count`` frames (of ``kind``) not taken yet."""
        return lambda: len([k for k, _ in self.inbox(sock) if kind in (None, k)]) >= count

    def got(self, sock: zmq.Socket[bytes]) -> list[tuple[str, list[Any]]]:
        """Take what ``sock`` received."""
        box = list(self.inbox(sock))
        self._inboxes[id(sock)] = []
        return box


def kinds(got: list[tuple[str, list[Any]]]) -> list[str]:
    return [kind for kind, _ in got]


@pytest.fixture
def wire(tmp_path: Path) -> Iterator[Wire]:
    context: Ctx = zmq.Context()
    w = Wire(tmp_path, context)
    try:
        yield w
    finally:
        if w.host.store is not None:
            w.host.store.close()
        for sock in w.socks:
            sock.close(0)
        w.host.relay.router.sock.close(0)
        context.term()


def test_a_recorded_hello_replayed_on_another_connection_is_refused_and_the_seat_plays_on(wire: Wire) -> None:
    host = wire.host
    joiner = Identity.generate()
    victim = wire.connect()
    victim.send(encode("hi", NET_VERSION))
    wire.pump(wire.has(victim, 1))
    ((kind, (version, host_key, challenge, game_id, _)),) = wire.got(victim)
    assert kind == "challenge" and version == NET_VERSION and host_key == host.identity.public
    assert len(challenge) == 32 and game_id is None  # the lobby
    recorded = encode("hello", NET_VERSION, "J", joiner.public, challenge, *wire.dialled,
                      sign_hello(joiner, "J", host_key, challenge, wire.dialled))  # what anyone on the LAN can read
    victim.send(recorded)
    wire.pump(wire.has(victim, 2))
    assert kinds(wire.got(victim)) == ["welcome", "lobby"]
    (seat_conn,) = host.relay.admission.connections.known
    assert host.relay.admission.connections.known[seat_conn] == -1 and host.relay.admission.connections.conn[joiner.public] == seat_conn

    # The recorded hello, replayed on a new connection, at once and after that
    # connection's own challenge, admits nobody: the connection is only
    # (re)challenged, with a challenge of its own.
    mallory = wire.connect()
    mallory.send(recorded)
    wire.pump(wire.has(mallory, 1))
    mallory.send(encode("hi", NET_VERSION))
    wire.pump(wire.has(mallory, 2))
    mallory.send(recorded)
    wire.pump(wire.has(mallory, 3))
    got = wire.got(mallory)
    assert set(kinds(got)) == {"challenge"} and len(got) == 3
    own = {fields[2] for _, fields in got}
    assert len(own) == 1 and challenge not in own  # its own challenge, the same until answered
    assert list(host.relay.admission.connections.known) == [seat_conn] and host.lobby.names == ["H", "J"]
    assert any(line.startswith("dropped a hello that does not answer its connection's challenge") for line in wire.said)
    # The recorded signature with Mallory's own challenge put in: not valid.
    forged = encode("hello", NET_VERSION, "J", joiner.public, own.pop(), *wire.dialled, sign_hello(joiner, "J", host_key, challenge, wire.dialled))
    mallory.send(forged)
    wire.pump(wire.has(mallory, 1))
    assert kinds(wire.got(mallory)) == ["refused"]
    assert list(host.relay.admission.connections.known) == [seat_conn]

    # A connection claiming the seat's routing id is not handed the seat's
    # connection (ZeroMQ ignores it); one claiming the routing id of the old
    # scheme (b"p" + key) is just another connection, and is challenged.
    thief = wire.connect(routing_id=seat_conn)
    thief.send(recorded)
    thief.send(encode("sync", 0))
    old_scheme = wire.connect(routing_id=b"p" + joiner.public)
    old_scheme.send(recorded)
    wire.pump(wire.has(old_scheme, 1))
    assert wire.got(thief) == []  # ZeroMQ never delivered what it sent
    assert kinds(wire.got(old_scheme)) == ["challenge"]
    assert list(host.relay.admission.connections.known) == [seat_conn]

    # The rightful seat plays on: the game starts, its entries reach the
    # seat's connection and nobody else's, and the seat's own requests work.
    host.start()
    host.act()
    host.relay.flush()
    wire.pump(wire.has(victim, 2, "entry"))
    entries = [fields for kind, fields in wire.got(victim) if kind == "entry"]
    assert [index for index, _, _ in entries] == [0, 1] and host.relay.admission.connections.known[seat_conn] == 1
    victim.send(encode("sync", 0))
    victim.send(encode("ping", 2))
    wire.pump(lambda: wire.has(victim, 2, "entry")() and host.relay.catchup.peer_len.get(1) == 2)
    assert [fields[0] for kind, fields in wire.got(victim) if kind == "entry"] == [0, 1]
    for sock in (mallory, thief, old_scheme):
        assert not {"welcome", "entry", "lobby"} & set(kinds(wire.got(sock)))


def test_a_second_hello_on_an_admitted_connection_changes_nothing(wire: Wire) -> None:
    """A challenge is used once: the same hello again on the same connection,
    even before anything else happened, neither re-admits nor re-seats it."""
    host = wire.host
    joiner, other = Identity.generate(), Identity.generate()
    sock = wire.connect()
    sock.send(encode("hi", NET_VERSION))
    wire.pump(wire.has(sock, 1))
    ((_, (_, host_key, challenge, _, _)),) = wire.got(sock)
    hello = encode("hello", NET_VERSION, "J", joiner.public, challenge, *wire.dialled,
                   sign_hello(joiner, "J", host_key, challenge, wire.dialled))
    sock.send(hello)
    sock.send(hello)
    sock.send(encode("hello", NET_VERSION, "K", other.public, challenge, *wire.dialled, sign_hello(other, "K", host_key, challenge, wire.dialled)))
    sock.send(encode("hi", NET_VERSION + 1))  # answered (refused) only once the hellos before it were handled
    wire.pump(wire.has(sock, 3))
    assert kinds(wire.got(sock)) == ["welcome", "lobby", "refused"]
    assert host.lobby.names == ["H", "J"] and list(host.relay.admission.connections.conn) == [joiner.public]
    # Both were dropped: the first said at once, the second counted (drops are said at a bounded pace).
    said = [line for line in wire.said if line.startswith("dropped a second hello on an admitted connection")]
    assert len(said) == 1
    host.relay.drops.flush(DoorKind(Door.SECOND_HELLO))
    assert re.fullmatch(r"dropped a second hello on an admitted connection: 1 more in the last \d+ s", wire.said[-1])


def test_a_reconnected_joiner_is_challenged_again_and_its_old_connection_forgotten(wire: Wire) -> None:
    """A restarted joiner comes back on a new connection, which must say
    hello again; once it has, its earlier connection is no longer the seat's."""
    host = wire.host
    joiner = Identity.generate()
    rids = []
    for _ in range(2):
        sock = wire.connect()
        sock.send(encode("ping", 0))  # from before a restart: a challenge, nothing else
        wire.pump(wire.has(sock, 1))
        ((kind, (_, host_key, challenge, _, _)),) = wire.got(sock)
        assert kind == "challenge"
        sock.send(encode("hello", NET_VERSION, "J", joiner.public, challenge, *wire.dialled,
                         sign_hello(joiner, "J", host_key, challenge, wire.dialled)))
        wire.pump(wire.has(sock, 1))
        assert kinds(wire.got(sock))[0] == "welcome"
        rids.append(host.relay.admission.connections.conn[joiner.public])
        sock.close(0)
    assert rids[0] != rids[1] and list(host.relay.admission.connections.known) == [rids[1]]


def test_a_joiner_of_another_lan_version_is_told(wire: Wire) -> None:
    sock = wire.connect()
    sock.send(encode("hi", NET_VERSION - 1))
    wire.pump(wire.has(sock, 1))
    ((kind, (code, reason)),) = wire.got(sock)
    assert kind == "refused" and code == "version" and f"LAN protocol {NET_VERSION}" in reason
