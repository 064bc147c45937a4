"""A beacon that puts its sender in the middle (issue 42, attack 3).

Mallory answers for the host (a forged beacon names Mallory's address) and
passes every frame on between the joiner and the real host: a frame relay
on 127.0.0.1, a thread here. On today's main the joiner was admitted
through it, and Mallory sat on the path. Now the hello signs the address
its connection was dialled to (net/hellobind.py): the host refuses a hello
dialled to the relay, with words the joiner reads; a relay that rewrites
that address breaks the signature; a direct join still works.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import zmq

from p2p_ttr.net import frames
from p2p_ttr.net.console import Console
from p2p_ttr.net.frames import NET_VERSION, encode
from p2p_ttr.net.hellobind import hello_for
from p2p_ttr.net.host import Host, HostOptions
from p2p_ttr.net.store import DataDir
from p2p_ttr.net.transport import bound_port, dealer, router
from p2p_ttr.table.identity import Identity

Ctx = zmq.Context[zmq.Socket[bytes]]
WAIT_S = 20.0  # bounds each wait for a frame; the waits end on the frame


class FrameRelay(threading.Thread):
    """Mallory: a ROUTER where the beacon points, one DEALER to the real host
    per joiner connection, every frame passed on (``rewrite`` may change a
    hello on its way)."""

    def __init__(self, context: Ctx, host_port: int, rewrite: Callable[[bytes], bytes] = lambda raw: raw) -> None:
        super().__init__(daemon=True)
        self.context, self.host_port, self.rewrite = context, host_port, rewrite
        self.front = router(context, "127.0.0.1", 0)
        self.port = bound_port(self.front)
        self.stop = threading.Event()

    def run(self) -> None:
        backs: dict[bytes, zmq.Socket[bytes]] = {}
        poller = zmq.Poller()
        poller.register(self.front, zmq.POLLIN)
        try:
            while not self.stop.is_set():
                for sock, _ in poller.poll(20):
                    if sock is self.front:
                        rid, raw = self.front.recv_multipart()
                        if rid not in backs:
                            backs[rid] = dealer(self.context, "127.0.0.1", self.host_port)
                            poller.register(backs[rid], zmq.POLLIN)
                        backs[rid].send(self.rewrite(raw))
                    else:
                        rid = next(r for r, back in backs.items() if back is sock)
                        self.front.send_multipart([rid, sock.recv()])
        finally:
            for back in backs.values():
                back.close(0)
            self.front.close(0)


class Joiner:
    """An honest joiner's first connection: ``hi``, then the hello the
    follower sends (``hello_for``) for the address it dialled."""

    def __init__(self, context: Ctx, port: int) -> None:
        self.identity = Identity.generate()
        self.dialled = ("127.0.0.1", port)
        self.sock = dealer(context, *self.dialled)
        self.sock.send(encode("hi", NET_VERSION))

    def answer(self, challenge: frames.ToPeer) -> None:
        assert isinstance(challenge, frames.Challenge)
        self.sock.send(frames.encode_frame(hello_for(self.identity, "J", challenge.host_identity,
                                                     challenge.challenge, self.dialled)))


class Table:
    """The real host, driven by hand on a real ROUTER on 127.0.0.1."""

    def __init__(self, tmp: Path, context: Ctx) -> None:
        self.host = Host(HostOptions(DataDir(tmp / "host"), "H", players=3), lambda v, s: None, Console(True))
        self.host.relay.router.sock = router(context, "127.0.0.1", 0)
        self.port = bound_port(self.host.relay.router.sock)

    def next_frame(self, joiner: Joiner) -> frames.ToPeer:
        """Let the host handle what comes until ``joiner`` receives a frame (the event; the deadline bounds it)."""
        end = time.monotonic() + WAIT_S
        sock = self.host.relay.router.sock
        assert sock is not None
        while not joiner.sock.poll(0):
            assert time.monotonic() < end, "nothing reached the joiner"
            if sock.poll(20):
                while sock.poll(0):
                    self.host.relay.handle(sock.recv_multipart())
                self.host.relay.flush()
        return frames.decode_to_peer(joiner.sock.recv())


@pytest.fixture
def context() -> Iterator[Ctx]:
    ctx: Ctx = zmq.Context()
    yield ctx
    ctx.destroy(linger=0)


@pytest.fixture
def table(tmp_path: Path, context: Ctx) -> Iterator[Table]:
    t = Table(tmp_path, context)
    yield t
    if t.host.store is not None:
        t.host.store.close()


def relayed(context: Ctx, table: Table, rewrite: Callable[[bytes], bytes] = lambda raw: raw) -> Iterator[Joiner]:
    mallory = FrameRelay(context, table.port, rewrite)
    mallory.start()
    try:
        yield Joiner(context, mallory.port)
    finally:
        mallory.stop.set()
        mallory.join()


def test_a_joiner_relayed_by_whoever_answered_the_beacon_is_refused_and_told_why(context: Ctx, table: Table) -> None:
    for joiner in relayed(context, table):
        challenge = table.next_frame(joiner)
        assert isinstance(challenge, frames.Challenge) and challenge.host_identity == table.host.identity.public
        joiner.answer(challenge)  # honest: it signs the address it dialled, Mallory's
        refused = table.next_frame(joiner)
        assert isinstance(refused, frames.NotAdmitted) and refused.code == "relayed", refused
        assert f"you dialled {joiner.dialled[0]}:{joiner.dialled[1]}" in refused.reason
        assert "not where this host listens" in refused.reason
    assert table.host.lobby is not None and table.host.lobby.names == ["H"]
    assert not table.host.relay.admission.connections.known  # nobody admitted: Mallory has no place on the path

    direct = Joiner(context, table.port)  # the same joiner's way, dialling the host itself
    direct.answer(table.next_frame(direct))
    welcome = table.next_frame(direct)
    assert isinstance(welcome, frames.Welcome) and welcome.seat == -1 and welcome.names == ("H", "J")


def test_a_relay_that_rewrites_the_dialled_address_breaks_the_hello_signature(context: Ctx, table: Table) -> None:
    def to_host_address(raw: bytes) -> bytes:
        frame = frames.decode_to_host(raw)
        if isinstance(frame, frames.Hello):
            frame = frames.Hello(frame.version, frame.name, frame.identity, frame.challenge, "127.0.0.1",
                                 table.port, frame.signature)
        return frames.encode_frame(frame)

    for joiner in relayed(context, table, to_host_address):
        joiner.answer(table.next_frame(joiner))
        refused = table.next_frame(joiner)
        assert isinstance(refused, frames.NotAdmitted) and refused.code == "bad_hello", refused
    assert table.host.lobby is not None and table.host.lobby.names == ["H"]
