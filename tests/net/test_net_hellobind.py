"""Where a hello was dialled, scenario by scenario (net/hellobind.py): the
host admits its own address and port, or the front its player vouches for,
and nothing else; a joiner signs the address its DEALER dialled."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2p_ttr.client.hellofacts import DialledElsewhere, DialledNoAddress
from p2p_ttr.client.hellowords import refusal_reason
from p2p_ttr.net import frames
from p2p_ttr.net.console import Console
from p2p_ttr.net.frames import NET_VERSION
from p2p_ttr.net.hellobind import dialled_problem, is_our_address, listening_on
from p2p_ttr.net.lobby import Lobby, HelloRefusal
from p2p_ttr.net.node import Node, NodeOptions
from p2p_ttr.net.store import DataDir
from p2p_ttr.table.identity import Identity

TEST_NET = "192.0.2.7"  # RFC 5737: never an address of this machine


def test_the_bound_endpoint_is_read_for_ipv4_and_ipv6() -> None:
    assert listening_on("tcp://0.0.0.0:7311") == ("0.0.0.0", 7311)
    assert listening_on("tcp://[::1]:40123") == ("::1", 40123)


def test_a_hello_dialled_to_our_own_address_and_port_comes_straight() -> None:
    assert is_our_address("127.0.0.1") and not is_our_address(TEST_NET)
    assert dialled_problem(("127.0.0.1", 7311), ("0.0.0.0", 7311)) is None  # bound everywhere: any of ours
    assert dialled_problem(("127.0.0.1", 7311), ("127.0.0.1", 7311)) is None


def test_a_hello_dialled_elsewhere_names_the_relay_and_says_why() -> None:
    for dialled, listening in ((("127.0.0.1", 7400), ("0.0.0.0", 7311)),  # a relay on this machine, another port
                               ((TEST_NET, 7311), ("0.0.0.0", 7311)),  # a relay on another machine
                               (("127.0.0.2", 7311), ("127.0.0.1", 7311))):  # bound to one address: only that one
        problem = dialled_problem(dialled, listening)
        assert problem == DialledElsewhere(*dialled)
        assert f"you dialled {dialled[0]}:{dialled[1]}" in refusal_reason(problem)
        assert "passes your connection on" in refusal_reason(problem)
    ipv6 = dialled_problem(("::1", 7311), ("127.0.0.1", 7311))
    assert ipv6 is not None and "[::1]:7311" in refusal_reason(ipv6)
    assert dialled_problem(("ann.example", 7311), ("0.0.0.0", 7311)) == DialledNoAddress("ann.example")


def test_the_front_our_player_advertises_is_ours_too() -> None:
    assert dialled_problem((TEST_NET, 9000), ("0.0.0.0", 7311), front=(TEST_NET, 9000)) is None
    assert dialled_problem((TEST_NET, 9001), ("0.0.0.0", 7311), front=(TEST_NET, 9000)) is not None


class Dealer:
    """Our DEALER, faked: keeps the frames the joiner sends."""

    def __init__(self) -> None:
        self.sent: list[frames.ToHost] = []

    def send(self, raw: bytes, flags: int = 0) -> None:
        self.sent.append(frames.decode_to_host(raw))


def test_a_joiner_signs_the_address_its_dealer_dialled_and_the_host_can_check_it(tmp_path: Path) -> None:
    host = Identity.generate()
    node = Node(NodeOptions(DataDir(tmp_path / "jo"), "ann.example", 7311, "Jo"), lambda v, s: None, Console(True))
    dealer = Dealer()
    node.uplink.sock = dealer  # type: ignore[assignment]
    node.uplink.address, node.uplink.port = TEST_NET, 7311  # what the name resolved to, and was dialled
    node.follower.handle(frames.encode_frame(frames.Challenge(NET_VERSION, host.public, b"c" * 32, None)))
    (hello,) = dealer.sent
    assert isinstance(hello, frames.Hello) and (hello.dialled_ip, hello.dialled_port) == (TEST_NET, 7311)
    lobby = Lobby("Ann", host.public)
    assert lobby.join(hello.version, hello.name, hello.identity, hello.challenge, hello.signature, (TEST_NET, 7311))
    with pytest.raises(HelloRefusal, match="not signed"):  # the same hello, said to be dialled elsewhere
        Lobby("Ann", host.public).join(hello.version, hello.name, hello.identity, hello.challenge, hello.signature,
                                       ("127.0.0.1", 7311))
