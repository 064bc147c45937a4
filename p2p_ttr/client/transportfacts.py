"""Why a socket could not be set up, or an address not read, as typed facts
(issue 44): net/transport.py raises a ``TransportError`` or an
``AddressError`` carrying one of these; transportwords.py words it where it
reaches the player. Declared in client/, below net/, as netnotices.py is.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


@dataclass(frozen=True)
class PortInUse:
    """Another program listens on ``port`` of ``bind``."""

    bind: str
    port: int


@dataclass(frozen=True)
class CannotListen:
    """We cannot listen on ``bind``:``port`` (``cause``, ZeroMQ's words)."""

    bind: str
    port: int
    cause: str


@dataclass(frozen=True)
class CannotConnect:
    """We cannot connect to ``address`` (``cause``, ZeroMQ's words)."""

    address: str
    cause: str


@dataclass(frozen=True)
class NoSuchHost:
    """The name ``host`` resolves to no address on this network."""

    host: str


TransportTrouble = PortInUse | CannotListen | CannotConnect | NoSuchHost


class AddressFault(Enum):
    """What is wrong with a ``HOST[:PORT]`` the player gave."""

    NOT_HOST_PORT = "not HOST[:PORT]"  # empty, too long, not text
    UNCLOSED_BRACKET = "unclosed bracket"  # "[::1"
    NOT_IPV6 = "not IPv6"  # in brackets, not an IPv6 address (``part``)
    AFTER_BRACKET = "after bracket"  # "[::1]x"
    IPV6_UNBRACKETED = "IPv6 unbracketed"  # colons without brackets
    NOT_HOST = "not a host"  # ``part`` is no host name or address
    NOT_PORT = "not a port"  # ``part`` is no port number


@dataclass(frozen=True)
class BadAddress:
    """``text`` is no ``HOST[:PORT]``: ``fault``, in ``part`` (the host or the
    port it names; '' when the fault is the whole); ``default_port``: the port
    an example shows."""

    text: str
    fault: AddressFault
    part: str = ""
    default_port: int = 0
