"""How long the heartbeat's thread waits for the socket lock, with the loop's pattern, under load.

The loop holds the socket lock through a 50 ms poll (the GIL released), then does a
little work without it; a second thread takes the lock every 50 ms, as the
heartbeat does once a second. Busy processes (``--load``) keep the cores
loaded. Measured in the same run: a plain ``threading.RLock`` (what the peer
used before) against ``SocketLock`` with the loop's ``make_way`` before each poll.

    python bench/socket_lock.py [--seconds 30] [--load 6]
"""

from __future__ import annotations

import argparse
import multiprocessing
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager

from p2p_ttr.net.socket_lock import SocketLock

POLL_S = 0.05


def busy(stop_at: float) -> None:
    x = 0
    while time.monotonic() < stop_at:
        x += 1


def waits(lock: AbstractContextManager[object], make_way: Callable[[], object], seconds: float) -> list[float]:
    """The heartbeat thread's waits for ``lock`` while the loop polls for ``seconds``."""
    waited: list[float] = []
    stop = threading.Event()

    def beat() -> None:
        while not stop.is_set():
            asked = time.monotonic()
            with lock:
                waited.append(time.monotonic() - asked)
            stop.wait(POLL_S)

    thread = threading.Thread(target=beat, daemon=True)
    thread.start()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        make_way()
        with lock:
            time.sleep(POLL_S)  # zmq's poll: blocks with the GIL released
        sum(range(2000))  # the loop's work between polls
    stop.set()
    thread.join()
    return sorted(waited)


def line(name: str, waited: list[float]) -> str:
    def at(q: float) -> float:
        return waited[min(len(waited) - 1, int(q * len(waited)))] * 1000
    return (f"{name:>9}: {len(waited)} waits, median {at(0.5):.1f} ms, p99 {at(0.99):.1f} ms, "
            f"max {waited[-1] * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="per lock (default 30)")
    parser.add_argument("--load", type=int, default=6, help="busy processes beside (default 6)")
    args = parser.parse_args()
    stop_at = time.monotonic() + 2 * args.seconds + 5
    loaders = [multiprocessing.Process(target=busy, args=(stop_at,), daemon=True) for _ in range(args.load)]
    for p in loaders:
        p.start()
    try:
        plain = waits(threading.RLock(), lambda: None, args.seconds)
        socket_lock = SocketLock()
        fair = waits(socket_lock, lambda: socket_lock.make_way(POLL_S), args.seconds)
    finally:
        for p in loaders:
            p.terminate()
    print(line("RLock", plain))
    print(line("SocketLock", fair))
    print(f"max wait, RLock / SocketLock: {plain[-1] / fair[-1]:.1f}x")


if __name__ == "__main__":
    main()
