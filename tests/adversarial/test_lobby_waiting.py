"""A joiner turned away by a lobby full of a member about to be dropped
(issue 42, item 9): Ghost joins and dies, K1 fills the lobby, K2 was refused
"the game is full" and exited; 5 s later Ghost was dropped and the host
waited for one more until its `--timeout`: three live players tried to play
and no game started. Now K2 waits for a place (welcomed, its own name not
among the lobby's, and its screen says so), takes Ghost's when Ghost is
dropped, and the game starts with the live ones. Forced in process, on the
host's lobby with its socket a fake: the order is the test's, not a race's."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from test_net_parts import HERE, FakeRouter

from p2p_ttr.net import frames
from p2p_ttr.net.admission import LOBBY_SILENT_S
from p2p_ttr.net.console import Console
from p2p_ttr.net.frames import NET_VERSION, encode
from p2p_ttr.net.host import Host, HostOptions
from p2p_ttr.net.lobby import sign_hello
from p2p_ttr.net.node import Node, NodeOptions
from p2p_ttr.net.store import DataDir
from p2p_ttr.table.identity import Identity


def hello(host: Host, router: FakeRouter, rid: bytes, name: str) -> None:
    who = Identity.generate()
    host.relay.handle([rid, encode("hi", NET_VERSION)])
    (challenge,) = router.to(rid, "challenge")
    host.relay.handle([rid, encode("hello", NET_VERSION, name, who.public, challenge[2], *HERE,
                                   sign_hello(who, name, host.identity.public, challenge[2], HERE))])


def ping(host: Host, *rids: bytes) -> None:
    for rid in rids:
        host.relay.handle([rid, frames.encode_frame(frames.Ping(0))])


def test_a_joiner_that_finds_the_lobby_full_of_a_dying_member_waits_and_plays(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    host = Host(HostOptions(DataDir(tmp_path / "h"), "Anna", players=3), lambda v, s: None, Console(True))
    router = FakeRouter()
    host.relay.router.sock = router  # type: ignore[assignment]
    ghost, k1, k2 = b"\0g", b"\0k", b"\0m"
    hello(host, router, ghost, "Ghost")  # ... and its process dies: it never sends again
    hello(host, router, k1, "K1")
    assert host.lobby_step() and host.table is None  # full: the roll call waits for Ghost
    hello(host, router, k2, "K2")
    assert router.to(k2, "refused") == []  # kept, not turned away
    assert router.to(k2, "welcome") == [[-1, None, 0, ["Anna", "Ghost", "K1"]]]  # its name not among them
    assert "K2 waits for a place" in capsys.readouterr().err
    ping(host, k1, k2)
    assert host.lobby_step() and host.table is None  # Ghost has not answered
    host.relay.admission.connections.heard[ghost] = time.monotonic() - LOBBY_SILENT_S - 1  # Ghost's 5 s are up
    assert host.lobby_step() and host.table is None  # Ghost dropped, K2 in its place: a new roll call
    assert host.lobby.names == ["Anna", "K1", "K2"] and host.lobby.waiting == []
    assert "Ghost left the lobby" in (err := capsys.readouterr().err) and "K2 took the place" in err
    assert router.to(k2, "lobby")[-1][0] == ["Anna", "K1", "K2"]  # K2 reads its own name: it is in
    ping(host, k1, k2)
    assert not host.lobby_step() and host.table is not None and host.names == ("Anna", "K1", "K2")


def test_a_joiner_still_waiting_when_the_game_starts_is_told_so(tmp_path: Path) -> None:
    host = Host(HostOptions(DataDir(tmp_path / "h"), "Anna", players=2), lambda v, s: None, Console(True))
    router = FakeRouter()
    host.relay.router.sock = router  # type: ignore[assignment]
    hello(host, router, b"\0k", "K1")
    hello(host, router, b"\0m", "K2")  # waits
    assert host.lobby_step()
    ping(host, b"\0k")  # K2's silence does not hold the roll call: it is not a member
    assert not host.lobby_step() and host.names == ("Anna", "K1")
    [[code, reason]] = router.to(b"\0m", "refused")
    assert code == "started" and "before a place freed" in reason
    assert b"\0m" not in host.relay.admission.connections.known


def test_the_waiting_joiners_screen_says_it_waits_then_that_it_is_in(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    node = Node(NodeOptions(DataDir(tmp_path / "k2"), "127.0.0.1", 1, "K2"), lambda v, s: None, Console(True))
    node.uplink.sock = type("Dealer", (), {"send": lambda self, raw, flags=0: None})()  # type: ignore[assignment]
    node.follower.handle(frames.encode_frame(frames.Welcome(-1, None, 0, ("Anna", "Ghost", "K1"))))
    assert "the lobby is full: you wait for a place" in capsys.readouterr().err
    node.follower.handle(frames.encode_frame(frames.LobbyNews(("Anna", "K1", "K2"), 3, False)))
    err = capsys.readouterr().err
    assert "in the lobby: Anna, K1, K2" in err and "wait for a place" not in err
