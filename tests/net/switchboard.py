"""A switchboard for partition tests: every peer's ROUTER sits behind a TCP
proxy of the test's (the host's address given to the joiners, each joiner's
`--advertise`d address in the log), so every connection between two peers
crosses the board. The board tells who dials from the process that holds
the other end of each connection it accepts (Linux: /proc/net/tcp and each
peer's /proc/PID/fd), before a byte flows, and can cut a pair at a chosen
moment:

- ``reset``: every connection between the two is reset (RST), and a new one
  as soon as it is accepted, until healed;
- ``hold``: nothing flows between them (the bytes wait, as on a black-holed
  path: TCP delivers them once the path is back), connections stay up;
- one way only: ``hold(a, b, both=False)`` holds what ``a`` sends ``b``;
- at a chosen message: ``when(a, b, pattern, then)`` runs ``then`` (a cut)
  the moment bytes from ``a`` to ``b`` hold ``pattern``, before they go on:
  an interleaving forced, not waited for.

Loopback only: every proxy listens on 127.0.0.1 and connects to 127.0.0.1.
"""

from __future__ import annotations

import os
import socket
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class _Link:
    """One proxied connection: who dials (None: a process not of the test) and the target."""

    dialer: str | None
    target: str
    client: socket.socket
    server: socket.socket


@dataclass
class Switchboard:
    pids: Callable[[], dict[str, int]] = dict  # each peer's label -> its process id, as it stands
    journal: list[str] = field(default_factory=list)  # who dialled whom, in order (for a failing test)
    _held: set[tuple[str, str]] = field(default_factory=set)  # (from, to): bytes from -> to wait
    _reset: set[frozenset[str]] = field(default_factory=set)
    _links: list[_Link] = field(default_factory=list)
    _listeners: list[socket.socket] = field(default_factory=list)
    _changed: threading.Condition = field(default_factory=threading.Condition)
    _triggers: list[tuple[str, str, bytes, Callable[[], None]]] = field(default_factory=list)

    # ------------------------------------------------------------- set-up

    def front(self, label: str, port: int) -> int:
        """A proxy in front of ``label``'s ROUTER at ``port``: the port to give the others."""
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        self._listeners.append(listener)
        threading.Thread(target=self._accept, args=(label, port, listener), daemon=True).start()
        return int(listener.getsockname()[1])

    def close(self) -> None:
        with self._changed:
            self._held.clear()
            self._reset.clear()
            self._changed.notify_all()
        for s in [*self._listeners, *(x for link in self._links for x in (link.client, link.server))]:
            try:
                s.close()
            except OSError:
                pass

    # ------------------------------------------------------------- cutting

    def reset(self, a: str, b: str) -> None:
        """Reset every connection between ``a`` and ``b``, and every new one, until healed."""
        with self._changed:
            self._reset.add(frozenset((a, b)))
            doomed = [link for link in self._links if {link.dialer, link.target} == {a, b}]
        for link in doomed:
            _kill(link)

    def hold(self, a: str, b: str, both: bool = True) -> None:
        """Hold what ``a`` sends ``b`` (and, with ``both``, what ``b`` sends ``a``)."""
        with self._changed:
            self._held.add((a, b))
            if both:
                self._held.add((b, a))

    def when(self, a: str, b: str, pattern: bytes, then: Callable[[], None]) -> None:
        """Run ``then`` once, the moment bytes from ``a`` to ``b`` hold
        ``pattern`` (before those bytes reach ``b``)."""
        with self._changed:
            self._triggers.append((a, b, pattern, then))

    def heal(self, a: str, b: str) -> None:
        with self._changed:
            self._held -= {(a, b), (b, a)}
            self._reset.discard(frozenset((a, b)))
            self._changed.notify_all()

    # ------------------------------------------------------------- the proxy

    def _accept(self, target: str, port: int, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            dialer = self._dialer_of(client)
            self.journal.append(f"{dialer} -> {target}")
            if dialer is not None and frozenset((dialer, target)) in self._reset:
                _kill_socket(client)
                continue
            threading.Thread(target=self._connect, args=(dialer, target, port, client), daemon=True).start()

    def _connect(self, dialer: str | None, target: str, port: int, client: socket.socket) -> None:
        """Reach the target (it may not listen yet: a peer starting up), then pump both ways."""
        for _ in range(100):
            try:
                server = socket.create_connection(("127.0.0.1", port))
                break
            except OSError:
                time.sleep(0.1)
        else:
            client.close()
            return
        link = _Link(dialer, target, client, server)
        with self._changed:
            self._links.append(link)
        threading.Thread(target=self._pump, args=(link, True), daemon=True).start()
        self._pump(link, False)

    def _blocked(self, link: _Link, outbound: bool) -> bool:
        """Whether bytes of ``link`` must wait now (outbound: from the dialer to the target)."""
        if link.dialer is None:
            return False
        pair = (link.dialer, link.target) if outbound else (link.target, link.dialer)
        return pair in self._held

    def _pump(self, link: _Link, outbound: bool) -> None:
        src, dst = (link.client, link.server) if outbound else (link.server, link.client)
        try:
            while True:
                with self._changed:
                    self._changed.wait_for(lambda: not self._blocked(link, outbound))
                data = src.recv(65536)
                if not data:
                    break
                self._fire(link, outbound, data)
                with self._changed:
                    self._changed.wait_for(lambda: not self._blocked(link, outbound))
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def _fire(self, link: _Link, outbound: bool, data: bytes) -> None:
        sender, receiver = (link.dialer, link.target) if outbound else (link.target, link.dialer)
        with self._changed:
            due = [t for t in self._triggers if (t[0], t[1]) == (sender, receiver) and t[2] in data]
            for trigger in due:
                self._triggers.remove(trigger)
        for _, _, _, then in due:
            then()

    def _dialer_of(self, client: socket.socket) -> str | None:
        """The label of the peer process holding the other end of ``client``."""
        port, ours = client.getpeername()[1], client.getsockname()[1]
        inode = None
        with open("/proc/net/tcp") as table:
            for line in table.readlines()[1:]:
                fields = line.split()
                # 127.0.0.1:port -> 127.0.0.1:ours, as the kernel writes them; an
                # old connection on the same port (TIME_WAIT, inode 0) is not it.
                if fields[1] == f"0100007F:{port:04X}" and fields[2] == f"0100007F:{ours:04X}" \
                        and fields[9] != "0":
                    inode = fields[9]
                    break
        if inode is None:
            return None
        for label, pid in self.pids().items():
            try:
                fds = os.listdir(f"/proc/{pid}/fd")
            except OSError:
                continue
            for fd in fds:
                try:
                    if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                        return label
                except OSError:
                    continue
        return None


def _kill_socket(s: socket.socket) -> None:
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()
    except OSError:
        pass


def _kill(link: _Link) -> None:
    for s in (link.client, link.server):
        _kill_socket(s)
