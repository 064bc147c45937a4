"""A first join's check of the address it dialled (net/reach.py) tells what
it learnt as a typed fact, worded by the client, with no network wait: the
clock is the test's."""

from __future__ import annotations

import zmq

from p2p_ttr.client.exitwords import word_end
from p2p_ttr.client.peerexits import NoHostAt, NoHostSeen
from p2p_ttr.net.reach import REFUSED_GRACE_S, HostAnswerCheck


def test_nothing_listening_is_told_once_the_grace_has_passed() -> None:
    now = [100.0]
    context = zmq.Context()
    sock = context.socket(zmq.DEALER)
    try:
        check = HostAnswerCheck(sock, "127.0.0.1:9", 30.0, clock=lambda: now[0])
        # Not connected at all: as a connection refused again and again, it never comes up.
        assert check.verdict() is None  # a host started with its joiners gets the grace to open its port
        now[0] += REFUSED_GRACE_S
        told = check.verdict()
        assert told == NoHostAt("127.0.0.1:9", NoHostSeen.NOTHING_LISTENS)
        assert word_end(told, ()) == "nothing answered at 127.0.0.1:9: is `ttr host` running there, on that port?"
        check.close()
        assert check.verdict() is None  # closed: it watches no more
    finally:
        sock.close(0)
        context.term()
