"""Whether the address a joiner was given answers as a ttr host.

A ZeroMQ DEALER never fails: it retries a refused connection for ever, drops
a peer that does not speak ZMTP without a word, and waits politely on a
server that sends it nonsense. A first join must not wait out its whole
``--timeout`` to learn that nobody is there, so ``HostAnswerCheck`` watches the
socket's monitor events and tells what is wrong as soon as it is known, as
a typed fact (client/peerexits.py's ``NoHostAt``, worded by the client):

- the connection is refused (or times out) again and again: nothing listens
  there, once ``REFUSED_GRACE_S`` has passed (a host started at the same
  moment as its joiners is given that long to open its port);
- the other side closed the connection, or failed the ZeroMQ handshake
  (a TCP server, a PUB or PULL socket), or was connected for
  ``HANDSHAKE_S`` without finishing it (an HTTP server): not a ttr game;
- the handshake succeeded but no frame of ours came back in
  ``ANSWER_S`` (another program's ZeroMQ socket): not a ttr game.

A joiner whose game is under way uses none of this: its host may be
restarting, and it waits for it (``--timeout``) as before.
"""

from __future__ import annotations

import struct
import time
from collections.abc import Callable

import zmq

from p2p_ttr.client.peerexits import NoHostAt, NoHostSeen

REFUSED_GRACE_S = 5.0
HANDSHAKE_S = 3.0
ANSWER_S = 10.0


def _monitor_event(monitor: zmq.Socket[bytes]) -> int:
    """The id of a socket monitor's next event (raises zmq.Again when none is
    waiting). libzmq sends each event as two frames: a 16-bit event id and a
    32-bit value, then the endpoint. Read here rather than through
    zmq.utils.monitor, which imports asyncio: ~0.035 s of CPU in every
    process start for one struct."""
    frames = monitor.recv_multipart(zmq.NOBLOCK)
    event_id, _value = struct.unpack("=Hi", frames[0])
    return int(event_id)


class HostAnswerCheck:
    """Watches a first join's connection and tells as soon as it is known that nothing, or no ttr game, is there."""

    def __init__(self, sock: zmq.Socket[bytes], where: str, timeout: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.where = where
        self.timeout = timeout
        self.clock = clock
        self.started = clock()
        self.connected_at: float | None = None  # the TCP connection is up, the handshake not done
        self.handshaken_at: float | None = None
        self.failed: NoHostSeen | None = None  # how the connection showed it is no ttr game
        self.monitor: zmq.Socket[bytes] | None = sock.get_monitor_socket(
            zmq.EVENT_CONNECTED | zmq.EVENT_DISCONNECTED | zmq.EVENT_HANDSHAKE_SUCCEEDED
            | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL
            | zmq.EVENT_HANDSHAKE_FAILED_AUTH)
        self._sock = sock

    def close(self) -> None:
        if self.monitor is not None:
            try:
                self._sock.disable_monitor()
            except zmq.ZMQError:
                pass
            self.monitor.close(0)
            self.monitor = None

    def _events(self) -> None:
        assert self.monitor is not None
        while True:
            try:
                kind = _monitor_event(self.monitor)
            except zmq.Again:
                return
            now = self.clock()
            if kind == zmq.EVENT_CONNECTED:
                self.connected_at = now
            elif kind == zmq.EVENT_HANDSHAKE_SUCCEEDED:
                self.handshaken_at = now
            elif self.handshaken_at is None:  # closed, or a failed handshake, before any success
                if kind != zmq.EVENT_DISCONNECTED:
                    self.failed = NoHostSeen.HANDSHAKE_FAILED
                elif self.connected_at is not None and now - self.connected_at >= HANDSHAKE_S - 0.5:
                    # libzmq gave up on a handshake that never came (HANDSHAKE_IVL): a silent server.
                    self.failed = NoHostSeen.SAID_NOTHING
                else:
                    self.failed = NoHostSeen.CLOSED

    def verdict(self) -> NoHostAt | None:
        """Why this address is no ttr host, once that is known (call often)."""
        if self.monitor is None:
            return None
        self._events()
        seen = self._seen(self.clock())
        return None if seen is None else NoHostAt(self.where, seen)

    def _seen(self, now: float) -> NoHostSeen | None:
        if self.failed is not None:
            return self.failed
        if self.connected_at is None:
            if now - self.started >= min(self.timeout, REFUSED_GRACE_S):
                return NoHostSeen.NOTHING_LISTENS
        elif self.handshaken_at is None:
            if now - self.connected_at >= min(self.timeout, HANDSHAKE_S):
                return NoHostSeen.NO_ZEROMQ
        elif now - self.handshaken_at >= min(self.timeout, ANSWER_S):
            return NoHostSeen.NO_ANSWER
        return None
