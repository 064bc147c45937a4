"""The host's sequencer and a peer's checks, driven without sockets."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from p2p_ttr.net import frames
from p2p_ttr.net.console import Console
from p2p_ttr.net.frames import NET_VERSION, encode
from p2p_ttr.net.host import Host, HostOptions
from p2p_ttr.net.lobby import routing_id, sign_hello
from p2p_ttr.net.node import Node, NodeExit, NodeOptions
from p2p_ttr.net.seqsig import EMPTY_HEAD, entry_signed, prev_head, sign_entry
from p2p_ttr.net.store import DataDir
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.messages import Seat
from p2p_ttr.table.peer import Peer

GID = bytes(range(16))


class FakeSocket:
    def __init__(self) -> None:
        self.sent: list[tuple[bytes, str, list[Any]]] = []

    def send_multipart(self, parts: list[bytes]) -> None:
        kind, fields = frames.decode(parts[1], frames.TO_PEER)
        self.sent.append((parts[0], kind, fields))

    def to(self, rid: bytes, kind: str) -> list[list[Any]]:
        return [f for r, k, f in self.sent if r == rid and k == kind]


def test_host_lobby_sequencing_and_refusals(tmp_path: Path) -> None:
    host = Host(HostOptions(DataDir(tmp_path / "host"), "H", players=2), lambda v, s: None, Console(True))
    sock = FakeSocket()
    host.sock = sock  # type: ignore[assignment]
    joiner = Identity.generate()
    rid = routing_id(joiner.public)
    host.handle([rid, encode("ping", 0)])  # unknown peer: challenged
    (challenge,) = sock.to(rid, "challenge")
    nonce = challenge[2]
    host.handle([b"p" + b"x" * 32, encode("hello", NET_VERSION, "J", joiner.public, sign_hello(joiner, "J", nonce))])
    assert sock.to(b"p" + b"x" * 32, "refused")  # routing id does not match the key
    host.handle([rid, encode("hello", NET_VERSION, "J", joiner.public, sign_hello(joiner, "J", nonce))])
    assert sock.to(rid, "welcome")[0][0] == -1 and host.lobby.names == ["H", "J"]
    host.start()
    assert host.table is not None and host.table.game_id is not None
    host.own_moves()  # the host's keys
    entries = sock.to(rid, "entry")
    assert [e[0] for e in entries] == [0, 1]
    prev = EMPTY_HEAD
    for index, raw, sig in entries:
        assert entry_signed(host.identity.public, host.table.game_id, index, prev, raw, sig)
        prev = prev_head(host.table, index + 1)
    host.handle([rid, encode("env", b"junk")])
    (rejected,) = sock.to(rid, "rejected")
    assert rejected[1] == "malformed" and host.table.rejected
    assert len(sock.to(rid, "entry")) == 2  # nothing relayed
    other = Identity.generate()
    host.handle([routing_id(other.public), encode("hello", NET_VERSION, "K", other.public, sign_hello(other, "K", nonce))])
    assert "started" in sock.to(routing_id(other.public), "refused")[0][1]
    host.handle([rid, encode("sync", 0)])  # catch-up resends from the log with the same signatures
    assert sock.to(rid, "entry")[2:] == entries


def test_peer_halts_when_the_host_signs_an_entry_the_table_refuses(tmp_path: Path) -> None:
    host, data = Identity.generate(), DataDir(tmp_path)
    node = Node(NodeOptions(data, "127.0.0.1", 1, "P"), lambda v, s: None, Console(True))
    node.host_public = host.public
    seats = (Seat("H", host.public), Seat("P", data.identity().public))
    seating = Peer(0, host, lambda v, s: None).open_game(seats, GID)
    node.entry(0, seating, sign_entry(host, GID, 0, EMPTY_HEAD, seating))
    assert node.table is not None
    again = Peer(0, host, lambda v, s: None).open_game(seats, GID)  # a second seating is never valid
    with pytest.raises(NodeExit, match="host misbehaved"):
        node.entry(1, again, sign_entry(host, GID, 1, node.table.head, again))
