"""Why a host turns a hello away (client/hellofacts.py), in the words
client/hellowords.py gives them: these go on the wire as the ``refused``
frame's reason, so each sample is the sentence net/ sent before it handed up
facts, byte for byte."""

from __future__ import annotations

from typing import get_args

import pytest

from p2p_ttr.client.hellofacts import (DialledElsewhere, DialledNoAddress, GameUnderWay, HelloProblem, HelloUnsigned,
                                      HostsOwnIdentity, LobbyFull, NameInUse, NameLookalike, NameRefused, NoGameYet,
                                      OtherVersion, StartedBeforePlace, WatchersFull)
from p2p_ttr.client.hellowords import refusal_reason
from p2p_ttr.errorcodes import ErrorCode
from p2p_ttr.net.frames import NET_VERSION, other_version_words
from p2p_ttr.net.lobby import HelloRefusal

SAMPLES: list[tuple[HelloProblem, str]] = [
    (OtherVersion(2, 3), "this host speaks LAN protocol 3, you speak 2: update ttr"),
    (HelloUnsigned(), "your hello is not signed by your identity key"),
    (NameRefused("a name is 1-24 printable characters"),
     "a name is 1-24 printable characters: pick another with --name"),
    (HostsOwnIdentity(), "that is the host's own identity"),
    (NameInUse("Ann"), "the name 'Ann' is taken at this table: pick another with --name"),
    (NameLookalike("Аnn", "Ann"),
     "the name 'Аnn' ('\\u0410nn') looks the same as 'Ann', already at this table: pick another with --name"),
    (LobbyFull(5, 5), "the game is full (5 players, 5 waiting)"),
    (GameUnderWay(), "the game has already started"),
    (NoGameYet(), "no game here yet"),
    (StartedBeforePlace(), "the game started before a place freed"),
    (WatchersFull(16), "this table has 16 watchers already"),
    (DialledNoAddress("ann.example"), "your hello names 'ann.example' as the address you dialled, which is no IP address"),
    (DialledElsewhere("::1", 7311), "you dialled [::1]:7311, which is not where this host listens: something between "
                                    "us passes your connection on (a relay that answered a beacon, or a port "
                                    "forward); dial this host's own address"),
]


@pytest.mark.parametrize(("problem", "words"), SAMPLES)
def test_each_refusal_reads_as_the_wire_always_carried_it(problem: HelloProblem, words: str) -> None:
    assert refusal_reason(problem) == words == HelloRefusal(ErrorCode.BAD_HELLO, problem).reason


def test_every_refusal_has_a_sample() -> None:
    assert {type(p) for p, _ in SAMPLES} == set(get_args(HelloProblem))


def test_another_version_is_told_our_own() -> None:
    assert other_version_words(NET_VERSION + 1) == refusal_reason(OtherVersion(NET_VERSION + 1, NET_VERSION))
