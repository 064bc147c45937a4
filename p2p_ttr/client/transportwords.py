"""Why a socket could not be set up, or an address not read, in the player's
words: one ``match`` over transportfacts.py's facts. What a player typed is
quoted (``repr``: its controls escaped); the rest passes the one sanitiser."""

from __future__ import annotations

from typing import assert_never

from .peerwords import words_shown
from .transportfacts import (AddressFault, BadAddress, CannotConnect, CannotListen, NoSuchHost, PortInUse,
                             TransportTrouble)


def transport_words(trouble: TransportTrouble) -> str:
    """``trouble`` in words; nothing in it unsafe."""
    match words_shown(trouble):
        case PortInUse(bind, port):
            return f"port {port} is in use on {bind}: pick another with --port"
        case CannotListen(bind, port, cause):
            return f"cannot listen on {bind}:{port}: {cause}"
        case CannotConnect(address, cause):
            return f"cannot connect to {address}: {cause}"
        case NoSuchHost(host):
            return f"cannot resolve {host!r}: no such host on this network (a typo?)"
        case other:
            assert_never(other)


def address_words(bad: BadAddress) -> str:
    """What is wrong with an address the player gave, quoting it."""
    text, part = repr(bad.text), repr(bad.part)
    match bad.fault:
        case AddressFault.NOT_HOST_PORT:
            return f"{text} is not HOST[:PORT]"
        case AddressFault.UNCLOSED_BRACKET:
            return f"{text}: an IPv6 address in brackets needs its closing ]"
        case AddressFault.NOT_IPV6:
            return f"{text}: {part} is not an IPv6 address"
        case AddressFault.AFTER_BRACKET:
            return f"{text} is not [IPV6]:PORT"
        case AddressFault.IPV6_UNBRACKETED:
            return f"{text} is not HOST[:PORT] (an IPv6 address goes in brackets: [::1]:{bad.default_port})"
        case AddressFault.NOT_HOST:
            return f"{text}: {part} is not a host name or address"
        case AddressFault.NOT_PORT:
            return f"{text}: {part} is not a port number (1-65535)"
        case _:
            assert_never(bad.fault)
