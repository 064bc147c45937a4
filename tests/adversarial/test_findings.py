"""Bugs the adversarial suite found, one test each, kept so they stay fixed."""

from __future__ import annotations

from pathlib import Path

import pytest

from games import NAMES, FakeSocket, honest_game, replica
from malicious import Malicious
from p2p_ttr.deck import G, make_share
from p2p_ttr.engine.cards import Deck
from p2p_ttr.net import frames
from p2p_ttr.net.console import Console
from p2p_ttr.net.frames import NET_VERSION, encode
from p2p_ttr.net.host import Host, HostOptions
from p2p_ttr.net.lobby import sign_hello
from p2p_ttr.net.node import Node, NodeExit, NodeOptions
from p2p_ttr.net.seqsig import EMPTY_HEAD, sign_entry
from p2p_ttr.net.store import DataDir
from p2p_ttr.table.errors import NotExpected
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.messages import Shares
from p2p_ttr.table.cards import DECK_NAMES
from p2p_ttr.table.verify import verify_entries
from p2p_ttr.deck import EpochPosition as DeckRef

HERE = ("127.0.0.1", 7311)  # the address a hello says it dialled (a fake router listens there)

def shares_before_the_keys() -> tuple[bytes, bytes]:
    """Seat 0's seating, and then a `shares` message by seat 0 before any key."""
    game = honest_game()
    table = replica(0, 1)
    assert table.me is not None and table.joint is None
    fake = (G, G)  # any ciphertext: nothing is owed yet, nothing can check it
    share = make_share(table.me.key, DeckRef(DECK_NAMES[Deck.TRAIN], 0, 0), fake)
    raw = Malicious(0, game.peers[0].identity, table).send(Shares((share,)))
    return game.log[0], raw


def test_shares_before_the_keys_are_refused_by_a_replica() -> None:
    table = replica(1, 1)
    with pytest.raises(NotExpected):
        table.receive(shares_before_the_keys()[1])


def test_verify_names_the_seat_of_shares_before_the_keys() -> None:
    verdict = verify_entries(list(shares_before_the_keys()))
    assert not verdict.fair and verdict.findings[0].entry == 1 and verdict.findings[0].seat == 0


def test_a_joiner_stops_cleanly_when_the_host_signs_shares_before_the_keys(tmp_path: Path) -> None:
    game = honest_game()
    seating, shares = shares_before_the_keys()
    data = DataDir(tmp_path)
    (data.path / "identity.key").write_bytes(game.peers[1].identity.to_bytes())
    node = Node(NodeOptions(data, "127.0.0.1", 1, NAMES[1]), lambda v, s: None, Console(True))
    node.uplink.public = game.peers[0].identity.public
    host = game.peers[0].identity
    gid = replica(None, 1).game_id
    assert gid is not None
    node.follower.entry(0, seating, sign_entry(host, gid, 0, EMPTY_HEAD, seating))
    assert node.table is not None
    try:
        with pytest.raises(NodeExit, match="host misbehaved"):
            node.follower.entry(1, shares, sign_entry(host, gid, 1, node.table.head, shares))
    finally:
        if node.store is not None:
            node.store.close()



# ------------------------------------------------- found and fixed (net/host.py)


def test_after_the_start_the_host_knows_each_lobby_member_by_its_seat(tmp_path: Path) -> None:
    """Lobby members kept seat -1 after the start: the host named every refused
    message's author "a peer", ignored their heartbeats (peer_len), and so
    lingered DONE_GRACE_S at the end of every game waiting for peers that
    were long done."""
    host = Host(HostOptions(DataDir(tmp_path / "host"), "H", players=2), lambda v, s: None, Console(True))
    host.relay.router.sock = FakeSocket()  # type: ignore[assignment]
    joiner = Identity.generate()
    rid = b"\x00conn1"
    host.relay.handle([rid, encode("hi", NET_VERSION)])
    nonce = frames.decode(host.relay.router.sock.sent[-1][1], frames.TO_PEER)[1][2]  # type: ignore[attr-defined]
    host.relay.handle([rid, encode("hello", NET_VERSION, "J", joiner.public, nonce, *HERE,
                             sign_hello(joiner, "J", host.identity.public, nonce, HERE))])
    assert host.relay.admission.connections.known[rid] == -1  # in the lobby
    host.start()
    assert host.relay.admission.connections.known[rid] == 1
    host.relay.handle([rid, encode("ping", 7)])
    assert host.relay.catchup.peer_len[1] == 7
    try:
        host.relay.handle([rid, encode("env", b"junk")])
        assert host.table is not None and host.table.rejected
    finally:
        if host.store is not None:
            host.store.close()
