"""A forged beacon is never listed as another host's game (issue 42, item 3's
second half: "a beacon's game is confirmed by the host's key before anything
is shown as that host's").

On today's main `ttr join` with no address listed what an unsigned beacon
said: Mallory's datagram naming "Hal" and pointing at Hal's address, or at
her own, was shown as "Hal's game". Now the beacon names a key, and a game is
listed only once the address it points at described it signed by that key
over the joiner's fresh nonce and dialled address (net/vouch.py); the words
shown are the signed ones. Everything runs on 127.0.0.1: Hal's real host
(its relay driven by a thread on a real ROUTER), Mallory's stranger that
signs with her own key, and Mallory's frame relay to Hal.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import msgpack
import pytest
import zmq

from p2p_ttr.cli.commands.join import listed
from p2p_ttr.net import frames
from p2p_ttr.net.console import Console
from p2p_ttr.net.discovery import BEACON_MAGIC, Announcement, Heard, parse
from p2p_ttr.net.exits import PeerExit
from p2p_ttr.net.host import Host, HostOptions
from p2p_ttr.net.node import Node, NodeOptions
from p2p_ttr.net.store import DataDir
from p2p_ttr.net.transport import bound_port, dealer, router
from p2p_ttr.net.vouch import description
from p2p_ttr.net.watcher import Watcher, WatchOptions
from p2p_ttr.table.identity import Identity

Ctx = zmq.Context[zmq.Socket[bytes]]
HERE = "127.0.0.1"


class Servers(threading.Thread):
    """One thread serving every socket a test listens on: each readable
    socket's frames go to its handler (sockets are used by this thread only)."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.handlers: dict[zmq.Socket[bytes], Callable[[list[bytes]], None]] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        poller = zmq.Poller()
        for sock in self.handlers:
            poller.register(sock, zmq.POLLIN)
        while not self.stop.is_set():
            for sock, _ in poller.poll(20):
                self.handlers[sock](sock.recv_multipart())


@pytest.fixture
def context() -> Iterator[Ctx]:
    ctx: Ctx = zmq.Context()
    yield ctx
    ctx.destroy(linger=0)


def hal_host(tmp: Path, context: Ctx, servers: Servers) -> tuple[Host, int]:
    """Hal's real host in its lobby, announcing (and so describing) its game."""
    host = Host(HostOptions(DataDir(tmp / "hal"), "Hal", players=3), lambda v, s: None, Console(True))
    sock = host.relay.router.sock = router(context, HERE, 0)
    port = bound_port(sock)
    host.relay.describer.game = lambda: Announcement("Hal", port, 1, 2, host.identity.public)

    def serve(parts: list[bytes]) -> None:
        host.relay.handle(parts)
        host.relay.flush()

    servers.handlers[sock] = serve
    return host, port


def stranger(context: Ctx, servers: Servers, mallory: Identity) -> int:
    """Mallory's ROUTER: it describes "Hal's game", signed with the only key
    it holds, her own, over the asker's nonce and address."""
    sock = router(context, HERE, 0)
    port = bound_port(sock)

    def serve(parts: list[bytes]) -> None:
        rid, raw = parts
        ask = frames.decode_to_host(raw)
        assert isinstance(ask, frames.Describe)
        claim = Announcement("Hal", port, 1, 2, mallory.public)
        sock.send_multipart([rid, frames.encode_frame(description(mallory, ask.nonce, (ask.dialled_ip,
                                                                                       ask.dialled_port), claim))])

    servers.handlers[sock] = serve
    return port


def frame_relay(context: Ctx, servers: Servers, hal_port: int) -> int:
    """Mallory's frame relay: every frame passed on to Hal's ROUTER, every answer back."""
    front = router(context, HERE, 0)
    back = dealer(context, HERE, hal_port)
    asker: list[bytes] = []

    def forward(parts: list[bytes]) -> None:
        asker[:] = [parts[0]]
        back.send(parts[1])

    servers.handlers[front] = forward
    servers.handlers[back] = lambda parts: front.send_multipart([asker[0], *parts])
    return bound_port(front)


def beacon(port: int, key: bytes) -> bytes:
    return msgpack.packb([BEACON_MAGIC, 3, port, key])


def test_a_forged_beacon_is_not_listed_as_the_host_it_names(tmp_path: Path, context: Ctx) -> None:
    servers = Servers()
    host, hal_port = hal_host(tmp_path, context, servers)
    hal_key = host.identity.public
    mallory = Identity.generate()
    mallory_port = stranger(context, servers, mallory)
    relay_port = frame_relay(context, servers, hal_port)
    heard = [
        parse(beacon(hal_port, hal_key), HERE),  # Hal's own beacon
        parse(beacon(hal_port, mallory.public), HERE),  # Hal's address, Mallory's key: Hal cannot sign for it
        parse(beacon(mallory_port, hal_key), HERE),  # Mallory's address, Hal's key: she signs with hers
        parse(beacon(relay_port, hal_key), HERE),  # Mallory passes the ask on to Hal: Hal signs no relayed ask
    ]
    said: list[str] = []
    servers.start()
    try:
        chosen = listed(heard, None, said.append)
    finally:
        servers.stop.set()
        servers.join()
        if host.store is not None:
            host.store.close()
    assert chosen is not None and chosen.join_address == f"{HERE}:{hal_port}"
    assert chosen.announcement.host_key == hal_key
    assert said == ["3 more beacons heard did not confirm (no answer signed by the key they named): not listed",
                    f"found Hal's game of Europe at {HERE}:{hal_port}: 1 in, 2 seats free"]


def test_an_unsigned_beacon_of_the_old_shape_is_ignored() -> None:
    """Today's main listed this datagram as "Hal's game" with nothing signed."""
    with pytest.raises(ValueError):
        parse(msgpack.packb([BEACON_MAGIC, 2, "Hal", 7311, 1, 2, None, "europe", ""]), HERE)
    assert parse(beacon(7311, bytes(32)), HERE) == Heard(HERE, 7311, bytes(32))


class KeptDealer:
    """A DEALER that keeps the kinds of the frames it is given to send."""

    def __init__(self) -> None:
        self.kinds: list[str] = []

    def send(self, raw: bytes, flags: int = 0) -> None:
        self.kinds.append(frames.decode(raw, frames.TO_HOST)[0])


def test_the_joiner_answers_at_that_address_only_the_key_it_confirmed(tmp_path: Path) -> None:
    """Between the listing and the dial another key may answer at the address
    (Mallory takes it over): the joiner says no hello to it."""
    hal, mallory = Identity.generate(), Identity.generate()
    node = Node(NodeOptions(DataDir(tmp_path), HERE, 7311, "Boris", host_key=hal.public), lambda v, s: None,
                Console(True))
    dealer = KeptDealer()
    node.uplink.sock = dealer  # type: ignore[assignment]
    node.uplink.address, node.uplink.port = HERE, 7311
    with pytest.raises(PeerExit, match="a different host answers at this address"):
        node.handle(frames.encode_frame(frames.Challenge(frames.NET_VERSION, mallory.public, b"m" * 32, None)))
    assert dealer.kinds == []
    node.handle(frames.encode_frame(frames.Challenge(frames.NET_VERSION, hal.public, b"h" * 32, None)))
    assert dealer.kinds == ["hello"]


def test_a_watcher_watches_at_that_address_only_the_key_it_confirmed() -> None:
    hal, mallory = Identity.generate(), Identity.generate()
    watcher = Watcher(WatchOptions(HERE, 7311, host_key=hal.public), Console(True))
    dealer = KeptDealer()
    watcher.uplink.sock = dealer  # type: ignore[assignment]
    with pytest.raises(PeerExit, match="a different host answers at 127.0.0.1:7311 than the one its beacon named"):
        watcher.handle(frames.encode_frame(frames.Challenge(frames.NET_VERSION, mallory.public, b"m" * 32, None)))
    assert dealer.kinds == []
    watcher.handle(frames.encode_frame(frames.Challenge(frames.NET_VERSION, hal.public, b"h" * 32, None)))
    assert dealer.kinds == ["watch"]
