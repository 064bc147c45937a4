"""ZeroMQ sockets and the host's addresses."""

from __future__ import annotations

import ctypes
import ipaddress
import re
import secrets
import socket
from collections.abc import Callable

import zmq

from p2p_ttr.client.transportfacts import (AddressFault, BadAddress, CannotConnect, CannotListen, NoSuchHost,
                                          PortInUse, TransportTrouble)
from p2p_ttr.client.transportwords import address_words, transport_words

DEFAULT_PORT = 7311


class TransportError(Exception):
    """A socket could not be set up: ``trouble`` tells why, worded by the client (client/transportwords.py)."""

    def __init__(self, trouble: TransportTrouble) -> None:
        super().__init__(trouble)
        self.trouble = trouble

    def __str__(self) -> str:
        return transport_words(self.trouble)


class AddressError(ValueError):
    """A ``HOST[:PORT]`` the player gave cannot be read: ``bad`` tells why, worded by the client."""

    def __init__(self, bad: BadAddress) -> None:
        super().__init__(bad)
        self.bad = bad

    def __str__(self) -> str:
        return address_words(self.bad)


def _unpredictable_routing_ids() -> None:
    """Seed the C library's ``rand()`` from the OS CSPRNG.

    libzmq (4.3.5) numbers the routing ids it gives connections from a
    counter that starts at ``rand()``, which nobody seeds: every host's first
    id was ``00 6b 8b 45 67``, the next one more. A peer that connects with
    the routing id the next connection will be given makes libzmq abort
    (``Assertion failed: ok (socket_base.cpp)``) when that connection comes:
    anyone on the LAN could crash the host. A secret seed, drawn just before
    the ROUTER takes its counter, makes the next id one of 2^32 unknown
    values (ids a peer chooses stay harmless: one already in use is ignored)."""
    try:
        libc = ctypes.CDLL(None)
        libc.srand(ctypes.c_uint(secrets.randbits(32)))
    except (OSError, AttributeError):  # no C library to seed: nothing we can do better
        pass


def router(context: zmq.Context[zmq.Socket[bytes]], bind: str, port: int) -> zmq.Socket[bytes]:
    _unpredictable_routing_ids()
    sock = context.socket(zmq.ROUTER)
    # Each connection gets its own routing id from ZeroMQ (peers set none), and
    # no connection may take over one in use: the host's lobby binds a hello,
    # and so a seat, to the connection it came on.
    sock.setsockopt(zmq.ROUTER_HANDOVER, 0)
    sock.setsockopt(zmq.LINGER, 2000)
    sock.setsockopt(zmq.SNDHWM, 100_000)
    sock.setsockopt(zmq.RCVHWM, 100_000)
    sock.setsockopt(zmq.MAXMSGSIZE, 1 << 20)  # huge frames cut the sender off; smaller oversized ones are logged
    try:
        sock.bind(f"tcp://{bind}:{port if port else '*'}")
    except zmq.ZMQError as exc:
        sock.close(0)
        if exc.errno == zmq.EADDRINUSE:
            raise TransportError(PortInUse(bind, port)) from None
        raise TransportError(CannotListen(bind, port, str(exc))) from None
    return sock


def bound_port(sock: zmq.Socket[bytes]) -> int:
    endpoint = sock.getsockopt(zmq.LAST_ENDPOINT)
    text = endpoint.decode() if isinstance(endpoint, bytes) else str(endpoint)
    return int(text.rsplit(":", 1)[1])


def endpoint(host: str, port: int) -> str:
    """A ZeroMQ TCP endpoint: an IPv6 address goes in brackets."""
    return f"tcp://[{host}]:{port}" if ":" in host else f"tcp://{host}:{port}"


def dealer(context: zmq.Context[zmq.Socket[bytes]], host: str, port: int,
           before_connect: Callable[[zmq.Socket[bytes]], None] | None = None) -> zmq.Socket[bytes]:
    """A joiner's socket. It sets no routing id: the host's ROUTER gives each
    connection (and each reconnection) a new one, and challenges it anew.
    ``before_connect`` sees the socket first (to monitor it from the start)."""
    sock = context.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 2000)
    sock.setsockopt(zmq.SNDHWM, 100_000)
    sock.setsockopt(zmq.RCVHWM, 100_000)
    sock.setsockopt(zmq.RECONNECT_IVL, 200)
    sock.setsockopt(zmq.RECONNECT_IVL_MAX, 1000)
    sock.setsockopt(zmq.HANDSHAKE_IVL, 3000)  # a server that starts a handshake and never ends it is dropped
    sock.setsockopt(zmq.MAXMSGSIZE, 1 << 20)
    if ":" in host:
        sock.setsockopt(zmq.IPV6, 1)
    if before_connect is not None:
        before_connect(sock)
    try:
        sock.connect(endpoint(host, port))
    except zmq.ZMQError as exc:
        sock.close(0)
        raise TransportError(CannotConnect(format_address(host, port), str(exc))) from None
    return sock


MAX_HOST_NAME = 253
_HOST_NAME = re.compile(r"[A-Za-z0-9]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?)*\.?")
_PORT = re.compile(r"[0-9]{1,5}")


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``HOST[:PORT]`` -> (host, port), or an AddressError (a ValueError) telling what is wrong.

    HOST is a host name, an IPv4 address, or an IPv6 address in brackets
    (``[::1]:7311``; without brackets its colons could not be told from the
    port's). PORT is 1-65535; left out, ``default_port``."""
    if not isinstance(text, str) or not text or len(text) > MAX_HOST_NAME + 8:
        raise AddressError(BadAddress(text if isinstance(text, str) else repr(text), AddressFault.NOT_HOST_PORT))
    if text.startswith("["):
        close = text.find("]")
        if close < 0:
            raise AddressError(BadAddress(text, AddressFault.UNCLOSED_BRACKET))
        host, rest = text[1:close], text[close + 1:]
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise AddressError(BadAddress(text, AddressFault.NOT_IPV6, host)) from None
        if rest and not rest.startswith(":"):
            raise AddressError(BadAddress(text, AddressFault.AFTER_BRACKET))
        port = rest[1:] if rest else None
    else:
        if text.count(":") > 1:
            raise AddressError(BadAddress(text, AddressFault.IPV6_UNBRACKETED, default_port=default_port))
        host, colon, after = text.partition(":")
        port = after if colon else None
        if not _HOST_NAME.fullmatch(host) or len(host) > MAX_HOST_NAME:
            raise AddressError(BadAddress(text, AddressFault.NOT_HOST, host))
    if port is None:
        return host, default_port
    if not _PORT.fullmatch(port) or not 0 < int(port) < 65536:
        raise AddressError(BadAddress(text, AddressFault.NOT_PORT, port))
    return host, int(port)


def format_address(host: str, port: int) -> str:
    """The inverse of ``parse_address``."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def resolve(host: str, port: int) -> str:
    """The numeric address to connect to (IPv4 first: a host listens on
    IPv4 unless told otherwise), or TransportError naming the host."""
    family = socket.AF_INET6 if ":" in host else socket.AF_UNSPEC
    try:
        infos = socket.getaddrinfo(host, port, family, socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise TransportError(NoSuchHost(host)) from None
    infos.sort(key=lambda info: info[0] != socket.AF_INET)
    if not infos:
        raise TransportError(NoSuchHost(host))
    return str(infos[0][4][0])


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses that others on the LAN can reach, best
    first, then 127.0.0.1. Found without sending anything: connecting a UDP
    socket only asks the kernel which interface would route there (the
    hostname often resolves to a loopback address, so it is only a fallback)."""
    found: list[str] = []

    def add(addr: str) -> None:
        if addr not in found and not addr.startswith("127.") and addr != "0.0.0.0":
            found.append(addr)

    for probe in ("192.0.2.1", "10.255.255.255", "172.31.255.255", "192.168.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                add(str(s.getsockname()[0]))
        except OSError:
            continue
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            add(str(info[4][0]))
    except OSError:
        pass
    return found + ["127.0.0.1"]


def local_ip_toward(ip: str) -> str:
    """Our address on the route to ``ip`` (the one the others on that LAN
    reach us at). A UDP socket's connect sends nothing."""
    family = socket.AF_INET6 if ":" in ip else socket.AF_INET
    with socket.socket(family, socket.SOCK_DGRAM) as s:
        try:
            s.connect((ip, 9))
            return str(s.getsockname()[0])
        except OSError:
            return "::1" if family == socket.AF_INET6 else "127.0.0.1"
