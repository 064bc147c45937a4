"""Our heartbeats, on a thread of their own.

Only silence counts as gone (design.md §4): a peer whose heartbeats arrive
is alive, however long its player thinks, and however long the peer itself
is busy folding (checking a deck chain's proofs, making a shuffle and its
proof: seconds on a loaded machine). So the pings do not wait for the loop:
``Heartbeat`` calls ``pulse`` once a second from its own thread, whatever
the loop is doing. Every use of our two sockets, the loop's and the
heartbeat's, holds the peer's one socket lock (socket_lock.py): a ZeroMQ socket is
used by one thread at a time, and the loop makes way for the heartbeat
before each poll (a plain lock let it wait for seconds on a loaded machine).

It sends only what says "alive" (``ping``, or ``hi`` before a welcome); it
reads nothing and decides nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import zmq

HEARTBEAT_S = 1.0


class Heartbeat:
    """Calls ``pulse`` every ``every`` seconds on a daemon thread until ``stop``."""

    def __init__(self, pulse: Callable[[], None], every: float = HEARTBEAT_S) -> None:
        self.pulse = pulse
        self.every = every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="heartbeat", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.pulse()
            except zmq.ZMQError:  # a socket closed under us at the end: the loop says what matters
                if self._stop.is_set():
                    return
            self._stop.wait(self.every)

    def stop(self) -> None:
        """Stop beating (before the sockets close)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5.0)
            self._thread = None
