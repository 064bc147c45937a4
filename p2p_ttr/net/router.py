"""The ROUTER every peer binds: where the others reach us, one connection
per routing id (transport.py says how the ids are drawn).

``Router`` only sends; what comes in is read by the peer's loop and handed
to the relay (relay.py). Entries are not sent at once but queued
(``queue``) and sent by ``flush``, after the store that holds them is
fsync'ed: nobody hears of an entry its relay could forget. Every use of the
socket holds the peer's socket lock (heartbeat.py: the pings go out on
another thread).
"""

from __future__ import annotations

from collections.abc import Callable

import zmq

from . import frames
from .frames import encode_frame
from .socket_lock import SocketLock
from .transport import bound_port, router


class Router:
    """Our ROUTER socket (None until the loop binds it, and in unit tests), and what waits to go out on it."""

    def __init__(self, socket_lock: SocketLock | None = None, port: int = 0) -> None:
        self.socket_lock = socket_lock or SocketLock()
        self.sock: zmq.Socket[bytes] | None = None
        self.port = port  # where it listens: the port asked for (0: any free one) until bound, then the bound one
        self.queued: list[list[bytes]] = []  # [connection, frame] to send once the log is durable

    def listen(self, context: zmq.Context[zmq.Socket[bytes]], bind: str) -> None:
        """Bind our ROUTER at ``bind`` and the port asked for; ``port`` says where it listens from now on."""
        self.sock = router(context, bind, self.port)
        self.port = bound_port(self.sock)

    def send(self, rid: bytes, frame: frames.ToPeer) -> None:
        """One frame to one connection, now (never an entry: those are ``queue``d)."""
        encoded = encode_frame(frame)
        with self.socket_lock:
            if self.sock is not None:
                self.sock.send_multipart([rid, encoded])

    def send_encoded(self, rid: bytes, encoded: bytes) -> None:
        """A frame already encoded (the same entry to many watchers), now."""
        with self.socket_lock:
            if self.sock is not None:
                self.sock.send_multipart([rid, encoded])

    def queue(self, rids: list[bytes], frame: frames.ToPeer) -> None:
        encoded = encode_frame(frame)
        self.queued.extend([rid, encoded] for rid in rids)

    def flush(self, make_durable: Callable[[], None]) -> None:
        """Make what is queued durable (one fsync for the batch), then send it."""
        if self.queued:
            make_durable()
            with self.socket_lock:
                if self.sock is not None:
                    for parts in self.queued:
                        self.sock.send_multipart(parts)
            self.queued.clear()
