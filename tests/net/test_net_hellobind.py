"""Where a hello was dialled, scenario by scenario (net/hellobind.py): the
host's own address and port, or the front its player vouches for, and
nothing else."""

from __future__ import annotations

from p2p_ttr.net.hellobind import dialled_problem, is_our_address, listening_on

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
        assert problem is not None and f"you dialled {dialled[0]}:{dialled[1]}" in problem
        assert "passes your connection on" in problem
    assert "[::1]:7311" in (dialled_problem(("::1", 7311), ("127.0.0.1", 7311)) or "")
    assert "no IP address" in (dialled_problem(("ann.example", 7311), ("0.0.0.0", 7311)) or "")


def test_the_front_our_player_advertises_is_ours_too() -> None:
    assert dialled_problem((TEST_NET, 9000), ("0.0.0.0", 7311), front=(TEST_NET, 9000)) is None
    assert dialled_problem((TEST_NET, 9001), ("0.0.0.0", 7311), front=(TEST_NET, 9000)) is not None
