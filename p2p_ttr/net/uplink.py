"""Our DEALER: the one connection to the peer we follow (the relay, or the
successor we turned to), and what we know of the peer at its other end.

``Uplink`` connects and reconnects, sends frames without ever blocking, and
remembers what that peer showed us on this connection: its key (from its
challenge), the challenge we answered, whether it welcomed us, how long its
log is, and when we last heard it. A first join also watches the connection
(reach.py) to say at once when nothing, or no ttr game, answers there.

It reads no frame: the follower (follower.py) does. Every use of the socket
holds the peer's socket lock (heartbeat.py: the pings go out on another
thread).
"""

from __future__ import annotations

import time

import zmq

from p2p_ttr.table.table import Table

from . import frames
from .exits import PeerExit
from .frames import NET_VERSION, encode_frame
from .reach import HostAnswerCheck
from .socket_lock import SocketLock
from .transport import TransportError, dealer, resolve


LAST_WORDS_MS = 500  # a socket we close may still send what it holds (a last ping) for this long


class Uplink:
    """Our DEALER and what we know of the peer it reaches."""

    def __init__(self, where: str, timeout: float, socket_lock: SocketLock | None = None) -> None:
        self.socket_lock = socket_lock or SocketLock()
        self.where = where  # the host's address as we were given it (for the player's messages)
        self.timeout = timeout
        self.context: zmq.Context[zmq.Socket[bytes]] | None = None
        self.poller: zmq.Poller | None = None
        self.sock: zmq.Socket[bytes] | None = None
        self.address = "127.0.0.1"  # the numeric address our DEALER reaches
        self.port = 0  # and its port (both signed in our hello: hellobind.py)
        self.seat: int | None = None  # the seat it reaches (None: the host we joined at)
        self.public: bytes | None = None  # that peer's key (from its challenge)
        self.challenge: bytes | None = None  # the last challenge we answered (one per connection)
        self.welcomed = False
        self.length = 0  # the log length that peer last told us
        self.heard = time.monotonic()
        self.drained = self.heard  # when the loop last read every frame that had come (``quiet_for``)
        self.reach: HostAnswerCheck | None = None  # watches a first join's connection until the host answers

    def connect(self, host: str, port: int, seat: int | None, watch_reach: bool, our_length: int) -> None:
        """Point our DEALER at ``host:port``, where ``seat`` (None: the host we join) must answer."""
        self.disconnect()
        assert self.context is not None

        def watch(sock: zmq.Socket[bytes]) -> None:
            if watch_reach:  # a first join: say at once if nothing there is a ttr host
                self.reach = HostAnswerCheck(sock, self.where, self.timeout)

        try:
            address = resolve(host, port)
        except TransportError as exc:
            raise PeerExit(1, exc.trouble) from None
        with self.socket_lock:
            self.sock = dealer(self.context, address, port, watch)
            if self.poller is not None:
                self.poller.register(self.sock, zmq.POLLIN)
        self.address, self.port = address, port
        self.seat = seat
        self.challenge, self.welcomed, self.public = None, False, None
        self.heard = self.drained = time.monotonic()
        # What the last peer said of its log says nothing of this one's.
        self.length = our_length

    def open_on(self, context: zmq.Context[zmq.Socket[bytes]], poller: zmq.Poller | None) -> None:
        """The loop's context our DEALER is made in, and its poller, which
        every connection we make from now on joins."""
        self.context, self.poller = context, poller

    def answered(self, challenge: bytes, public: bytes) -> None:
        """We answered ``challenge`` from the peer whose key is ``public``: not welcomed on it yet."""
        self.challenge, self.public, self.welcomed = challenge, public, False

    def forget_challenge(self) -> None:
        """Our hello to this challenge was refused: the next challenge is answered anew."""
        self.challenge = None

    def welcomed_at(self, length: int) -> None:
        """The peer welcomed us, its log ``length`` entries long."""
        self.welcomed = True
        self.holds_at_least(length)

    def holds_at_least(self, length: int) -> None:
        """The peer holds at least ``length`` entries (it said so, or we took them from it)."""
        self.length = max(self.length, length)

    def rewind(self, length: int) -> None:
        """Our log was cut back to ``length`` entries: what the peer said beyond it was of the log we dropped."""
        self.length = length

    def unreachable(self, seat: int) -> None:
        """We mean to follow ``seat`` but know no address of it: no connection until one is found."""
        self.disconnect()
        self.seat = seat

    def found_seat(self, seat: int) -> None:
        """The address we were given answered with ``seat``'s key: that is the seat we reach."""
        self.seat = seat

    def read_all(self) -> None:
        """The loop has read every frame that had come (``quiet_for`` measures up to now)."""
        self.drained = time.monotonic()

    def disconnect(self) -> None:
        with self.socket_lock:
            if self.sock is not None:
                if self.poller is not None:
                    self.poller.unregister(self.sock)
                self.sock.close(linger=LAST_WORDS_MS)
                self.sock = None
        self.stop_watching()

    def stop_watching(self) -> None:
        if self.reach is not None:
            self.reach.close()
            self.reach = None

    def send(self, frame: frames.ToHost) -> None:
        """Send a frame if a connection can take it now. Never block: with no
        connection up (the relay restarting, or an address that is no ttr
        host) a frame is dropped; what matters is sent again once the relay
        answers (hi, and pending envelopes after the welcome)."""
        encoded = encode_frame(frame)
        with self.socket_lock:
            if self.sock is not None:  # None until the loop connects, while we relay (and in unit tests)
                try:
                    self.sock.send(encoded, zmq.NOBLOCK)
                except zmq.Again:
                    pass

    def pulse(self, table: Table | None) -> None:
        """Our heartbeat to the peer we follow: ``hi`` until it welcomes us, then how much of the log we hold."""
        if self.sock is None:
            return
        if self.challenge is None or not self.welcomed:
            self.send(frames.Hi(NET_VERSION))
        else:
            self.send(frames.reporting(len(table.log), table.head) if table is not None else frames.Ping(0))

    def heard_now(self) -> None:
        """A frame came: the peer is alive, and it is a ttr peer."""
        self.heard = time.monotonic()
        self.stop_watching()

    def silent_for(self, now: float) -> float:
        return now - self.heard

    def quiet_for(self) -> float:
        """How long the peer had sent nothing when the loop last read its
        frames: a loop busy for a while (proving a shuffle) does not make a
        peer whose frames wait unread look silent."""
        return max(0.0, self.drained - self.heard)
