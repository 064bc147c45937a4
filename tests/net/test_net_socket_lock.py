"""The socket lock (net/socket_lock.py): a thread waiting for it (the heartbeat's)
takes it before the loop's next poll, whatever the scheduler does."""

from __future__ import annotations

import threading
import time

from p2p_ttr.net.socket_lock import SocketLock


def until(ready: object, seconds: float = 10.0) -> None:
    """Wait for ``ready()`` (an event in another thread), failing after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not ready():  # type: ignore[operator]
        assert time.monotonic() < deadline, "it never happened"
        time.sleep(0.001)


def test_a_thread_waiting_for_the_wire_takes_it_before_the_loop_polls_again() -> None:
    socket_lock, order = SocketLock(), []

    def beat() -> None:
        with socket_lock:
            order.append("beat")

    with socket_lock:  # the loop polls: the heartbeat asks meanwhile
        thread = threading.Thread(target=beat)
        thread.start()
        until(lambda: socket_lock.waiting == 1)
    assert socket_lock.make_way(10.0)  # the loop makes way before its next poll
    with socket_lock:
        order.append("poll")
    thread.join()
    assert order == ["beat", "poll"]


def test_the_loop_makes_way_at_once_when_nobody_waits_and_the_wire_is_reentrant() -> None:
    socket_lock = SocketLock()
    assert socket_lock.make_way(0.0) and socket_lock.waiting == 0
    with socket_lock, socket_lock:  # a send inside a locked section locks again
        assert socket_lock.waiting == 0


def test_making_way_gives_up_after_its_time_if_the_waiter_cannot_get_in() -> None:
    """Called while holding the lock (a misuse), it waits only its time: never a deadlock."""
    socket_lock, entered = SocketLock(), threading.Event()

    def beat() -> None:
        with socket_lock:
            entered.set()

    with socket_lock:
        thread = threading.Thread(target=beat)
        thread.start()
        until(lambda: socket_lock.waiting == 1)
        assert not socket_lock.make_way(0.05)
        assert not entered.is_set()
    thread.join()
    assert entered.is_set() and socket_lock.waiting == 0
