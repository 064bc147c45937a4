"""A hello bound to the connection it arrives on: the address it was dialled to.

A joiner signs, in its hello, the numeric address and port its DEALER
dialled (lobby.py, ``hello_statement``); the host admits it only if that is
an address of its own and the port its ROUTER listens on. Whoever answers a
forged beacon and passes the frames on to the real host (a frame relay, or a
byte relay: either way the joiner dialled the relay) gets the joiner's hello
signed for the relay's address, which the host refuses, and cannot change it
without the joiner's key.

Why the dialled address and not the one the host sees the connection come
from: on one machine, or behind a relay on the same address, both ends see
the same source address, so comparing sources misses the relay; the address
a joiner dialled is a fact of its own side that the relay cannot choose for
it, and "is this address mine" is a question the host's kernel answers
exactly (a socket binds only to an address of this machine). What it costs:
a joiner reaching the host through a NAT's port forward is refused as a
relay would be, unless the host names that forward as its own with
``--advertise`` (protocol.md §9, Hello). What it does not stop: an attacker on this machine that listens on
another of its addresses (with ``--bind`` to one address, the host checks
that one), or one already on the path to the host's real address (ARP
spoofing): a beacon gives that one nothing it did not have (protocol.md §10).
"""

from __future__ import annotations

import functools
import ipaddress
import socket

from p2p_ttr.client.hellofacts import DialledElsewhere, DialledNoAddress, NotDialledHere
from p2p_ttr.table.identity import Identity

from . import frames
from .frames import NET_VERSION
from .lobby import Dialled, sign_hello

_ANY = (ipaddress.ip_address("0.0.0.0"), ipaddress.ip_address("::"))


def hello_for(identity: Identity, name: str, host_public: bytes, challenge: bytes, dialled: Dialled) -> frames.Hello:
    """Our hello answering ``challenge`` on a connection we dialled to ``dialled``."""
    return frames.Hello(NET_VERSION, name, identity.public, challenge, dialled[0], dialled[1],
                        sign_hello(identity, name, host_public, challenge, dialled))


def listening_on(last_endpoint: str) -> Dialled:
    """Our ROUTER's bound address and port, from its ZeroMQ ``LAST_ENDPOINT``
    (``tcp://0.0.0.0:7311``, ``tcp://[::1]:7311``)."""
    where = last_endpoint.removeprefix("tcp://")
    host, _, port = where.rpartition(":")
    return host.strip("[]"), int(port)


@functools.lru_cache(maxsize=64)
def is_our_address(ip: str) -> bool:
    """Whether ``ip`` (numeric) is an address of this machine: the kernel lets
    a socket bind only to one (it sends nothing)."""
    family = socket.AF_INET6 if ":" in ip else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((ip, 0))
    except OSError:
        return False
    return True


def dialled_problem(dialled: Dialled, listening: Dialled, front: Dialled | None = None) -> NotDialledHere | None:
    """Why a hello dialled to ``dialled`` did not come straight to our ROUTER
    listening on ``listening``, nor to the ``front`` our player vouches for
    (``--advertise``: a port forward or proxy of their own), a typed fact
    (client/hellowords.py words it for the joiner); None: it came to us."""
    ip, port = dialled
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        return DialledNoAddress(ip)
    relayed = DialledElsewhere(ip, port)
    if front is not None and port == front[1] and _same(address, front[0]):
        return None
    bound_ip, bound_port = listening
    if port != bound_port:
        return relayed
    try:
        bound = ipaddress.ip_address(bound_ip)
    except ValueError:
        bound = None
    if bound is not None and bound not in _ANY:
        return None if address == bound else relayed
    return None if is_our_address(str(address)) else relayed


def _same(address: ipaddress.IPv4Address | ipaddress.IPv6Address, ip: str) -> bool:
    try:
        return address == ipaddress.ip_address(ip)
    except ValueError:
        return False
