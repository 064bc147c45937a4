"""The socket lock: the peer's one lock over its ZeroMQ sockets, fair to the heartbeat.

A ZeroMQ socket is used by one thread at a time, so the loop and the
heartbeat's thread (heartbeat.py) take the same lock for every use of the
peer's sockets. A plain lock is not fair to the heartbeat: the loop holds it
through each 50 ms poll (with the GIL released) and takes it back within
microseconds of letting it go, while the heartbeat's thread, woken when the
loop lets go, must still be scheduled and take the GIL. On a loaded machine
it loses that race again and again: measured with the loop's pattern
(bench/socket_lock.py), the heartbeat waited up to 1.7 s for the lock (p99 1.5 s)
under a load of 8 on 2 cores, long enough for a live seat to count as
silent (the relay timeout is 2 s in tests, a lobby member is dropped after
5 s).

``SocketLock`` counts the threads waiting for it; the loop calls ``make_way``
before it polls, and waits (at most a poll's time) until they have had
their turn. The lock itself is a ``threading.RLock``: a send inside a
locked section may lock again.
"""

from __future__ import annotations

import threading
from types import TracebackType


class SocketLock:
    """A re-entrant lock that a thread waiting for it gets before the loop's next poll."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._state = threading.Condition(threading.Lock())
        self._waiting = 0

    @property
    def waiting(self) -> int:
        """How many threads are waiting for the lock now."""
        with self._state:
            return self._waiting

    def __enter__(self) -> SocketLock:
        if self._lock.acquire(blocking=False):  # free, or ours already
            return self
        with self._state:
            self._waiting += 1
        try:
            self._lock.acquire()
        finally:
            with self._state:
                self._waiting -= 1
                self._state.notify_all()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._lock.release()

    def make_way(self, most: float) -> bool:
        """Let every thread waiting for the lock take it first, waiting at
        most ``most`` seconds (call it without holding it). True: none
        is waiting any more."""
        with self._state:
            return self._state.wait_for(lambda: self._waiting == 0, timeout=most)
