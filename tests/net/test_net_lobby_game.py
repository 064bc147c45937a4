"""The lobby's challenge names the game played (protocol.md §9, Hello): a
joiner or a watcher that cannot play it (no such board or variant here, or
the same names with other data or rules) stops before it answers, saying
which game and why, so it never takes a lobby place; one that can answers
as before."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_net_parts import FakeDealer, FakeRouter

from p2p_ttr.engine.boards import load_game
from p2p_ttr.net import frames
from p2p_ttr.net.console import Console
from p2p_ttr.net.exits import PeerExit
from p2p_ttr.net.frames import NET_VERSION, encode
from p2p_ttr.net.host import Host, HostOptions
from p2p_ttr.net.node import Node, NodeOptions
from p2p_ttr.net.store import DataDir
from p2p_ttr.net.watcher import WatchOptions, Watcher
from p2p_ttr.table.messages import Seating
from p2p_ttr.table.table import Table

HOST_KEY = bytes(range(32))
MEGA = load_game("europe", "mega")


def challenge(named: tuple[str, str, bytes] | None) -> bytes:
    return frames.encode_frame(frames.Challenge(NET_VERSION, HOST_KEY, b"c" * 32, None, named))


def joiner(tmp_path: Path) -> tuple[Node, FakeDealer]:
    node = Node(NodeOptions(DataDir(tmp_path), "127.0.0.1", 7311, "Boris"), lambda v, s: None, Console(True))
    dealer = FakeDealer()
    node.uplink.sock = dealer  # type: ignore[assignment]
    node.uplink.address, node.uplink.port = "127.0.0.1", 7311  # as connect() sets them: what our hello signs
    return node, dealer


def test_the_host_names_its_game_in_every_challenge_then_the_tables(tmp_path: Path) -> None:
    host = Host(HostOptions(DataDir(tmp_path / "h"), "Anna", game=MEGA), lambda v, s: None, Console(True))
    router = FakeRouter()
    host.relay.router.sock = router  # type: ignore[assignment]
    host.relay.handle([b"\0b", encode("hi", NET_VERSION)])
    (sent,) = router.to(b"\0b", "challenge")
    assert sent[3] is None and sent[4] == ["europe", "mega", MEGA.digest]  # in the lobby: no game id yet
    table = Table()
    table.seating = Seating((), game=load_game("usa"))  # as a folded seating sets it: the log's game from then on, whoever relays
    host.replica.table = table
    host.relay.handle([b"\0c", encode("hi", NET_VERSION)])
    (sent,) = router.to(b"\0c", "challenge")
    assert sent[4] == ["usa", "", load_game("usa").digest]


@pytest.mark.parametrize(("named", "why"), [
    (("europe", "1913", MEGA.digest),
     "its game, europe 1913, cannot be played here: Europe has no variant '1913'; its variants are expanded, mega, "
     "bigcities"),
    (("mars", "", MEGA.digest), "its game, mars, cannot be played here: there is no board 'mars'; the boards are"),
    (("europe", "mega", load_game("usa", "mega").digest),  # the same names, other data or rules
     "its game, europe mega, cannot be played here: Mega Europe differs here: its board data or rules are not this "
     "peer's (another version of p2p_ttr?)"),
])
def test_a_joiner_that_cannot_play_the_hosts_game_stops_before_its_hello(
        tmp_path: Path, named: tuple[str, str, bytes], why: str) -> None:
    node, dealer = joiner(tmp_path)
    with pytest.raises(PeerExit, match="^" + re.escape(f"cannot join the host at 127.0.0.1:7311: {why}")) as stopped:
        node.handle(challenge(named))
    assert stopped.value.code == 1 and dealer.sent == []  # no hello: no lobby place taken


def test_a_joiner_that_can_play_it_answers_and_one_told_no_game_too(tmp_path: Path) -> None:
    node, dealer = joiner(tmp_path)
    node.handle(challenge(("europe", "mega", MEGA.digest)))
    assert dealer.kinds() == ["hello"]
    other, told_none = joiner(tmp_path / "other")
    other.handle(frames.encode("challenge", NET_VERSION, HOST_KEY, b"d" * 32, None))  # a peer with no game yet
    assert told_none.kinds() == ["hello"]


def test_the_words_of_a_game_name_are_shown_escaped(tmp_path: Path) -> None:
    node, dealer = joiner(tmp_path)
    with pytest.raises(PeerExit) as stopped:
        node.handle(challenge(("\x1b[2Jmars\u202e", "", MEGA.digest)))
    words = str(stopped.value)
    assert "\x1b" not in words and "\u202e" not in words and "\\x1b[2Jmars\\u202e" in words and dealer.sent == []


def test_a_watcher_that_cannot_fold_the_game_stops_before_its_watch() -> None:
    w = Watcher(WatchOptions("127.0.0.1", 7311), Console(True))
    dealer = FakeDealer()
    w.uplink.sock = dealer  # type: ignore[assignment]
    with pytest.raises(PeerExit, match="^cannot watch 127.0.0.1:7311: its game, usa 1912, cannot be played here: "
                                       "USA has no variant '1912'"):
        w.handle(challenge(("usa", "1912", MEGA.digest)))
    assert dealer.sent == []
    w.handle(challenge(("usa", "1910", load_game("usa", "1910").digest)))
    assert dealer.kinds() == ["watch"]
