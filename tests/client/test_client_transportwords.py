"""Why a socket could not be set up, or an address not read
(client/transportfacts.py), in the words client/transportwords.py gives them:
one sample of every fact, as net/transport.py wrote it before it handed up
facts; the errors net/ raises read as their facts' words."""

from __future__ import annotations

from typing import get_args

import pytest

from p2p_ttr.client.exitwords import last_words
from p2p_ttr.client.transportfacts import (AddressFault, BadAddress, CannotConnect, CannotListen, NoSuchHost,
                                          PortInUse, TransportTrouble)
from p2p_ttr.client.transportwords import address_words, transport_words
from p2p_ttr.net.exits import PeerExit
from p2p_ttr.net.transport import AddressError, TransportError, parse_address

SAMPLES: list[tuple[TransportTrouble, str]] = [
    (PortInUse("0.0.0.0", 7311), "port 7311 is in use on 0.0.0.0: pick another with --port"),
    (CannotListen("10.9.9.9", 7311, "Cannot assign requested address"),
     "cannot listen on 10.9.9.9:7311: Cannot assign requested address"),
    (CannotConnect("[::1]:7311", "Invalid argument"), "cannot connect to [::1]:7311: Invalid argument"),
    (NoSuchHost("gamebox"), "cannot resolve 'gamebox': no such host on this network (a typo?)"),
]


@pytest.mark.parametrize(("trouble", "words"), SAMPLES)
def test_each_trouble_reads_as_the_socket_said_it(trouble: TransportTrouble, words: str) -> None:
    assert transport_words(trouble) == words == str(TransportError(trouble))


def test_every_trouble_has_a_sample() -> None:
    assert {type(t) for t, _ in SAMPLES} == set(get_args(TransportTrouble))


def test_a_run_that_cannot_reach_its_host_ends_with_the_sockets_trouble_in_words() -> None:
    assert last_words(NoSuchHost("gamebox"), ()) == str(PeerExit(1, NoSuchHost("gamebox"))) == SAMPLES[-1][1]


ADDRESSES = [
    ("", BadAddress("", AddressFault.NOT_HOST_PORT), "'' is not HOST[:PORT]"),
    ("[::1", BadAddress("[::1", AddressFault.UNCLOSED_BRACKET), "'[::1': an IPv6 address in brackets needs its closing ]"),
    ("[nope]:1", BadAddress("[nope]:1", AddressFault.NOT_IPV6, "nope"), "'[nope]:1': 'nope' is not an IPv6 address"),
    ("[::1]x", BadAddress("[::1]x", AddressFault.AFTER_BRACKET), "'[::1]x' is not [IPV6]:PORT"),
    ("::1", BadAddress("::1", AddressFault.IPV6_UNBRACKETED, default_port=7311),
     "'::1' is not HOST[:PORT] (an IPv6 address goes in brackets: [::1]:7311)"),
    ("a b:1", BadAddress("a b:1", AddressFault.NOT_HOST, "a b"), "'a b:1': 'a b' is not a host name or address"),
    ("h:0", BadAddress("h:0", AddressFault.NOT_PORT, "0"), "'h:0': '0' is not a port number (1-65535)"),
]


@pytest.mark.parametrize(("text", "bad", "words"), ADDRESSES)
def test_each_bad_address_is_told_and_worded(text: str, bad: BadAddress, words: str) -> None:
    with pytest.raises(AddressError) as raised:
        parse_address(text)
    assert raised.value.bad == bad
    assert address_words(bad) == words == str(raised.value)


def test_every_address_fault_has_a_sample() -> None:
    assert {bad.fault for _, bad, _ in ADDRESSES} == set(AddressFault)


def test_a_typed_address_with_controls_is_quoted_inert() -> None:
    words = address_words(BadAddress("\x1b[2J:1", AddressFault.NOT_HOST, "\x1b[2J"))
    assert "\x1b" not in words and "'\\x1b[2J' is not a host name" in words
