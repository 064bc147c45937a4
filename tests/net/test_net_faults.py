"""What goes wrong at a LAN party, with real processes on 127.0.0.1: wrong
addresses, restarted hosts, players who leave the lobby, storage lost or
full, damaged files. Each fault ends in a clear message (never a traceback,
a hang or a wrong accusation), and the game can still be finished
(protocol.md §9, Faults). Every wait is bounded; every child is killed."""

from __future__ import annotations

import time
from pathlib import Path

import zmq

from tests.net.test_net_lan import Run, check_game, command, free_port, wait_for_entries

DEADLINE_S = 60

Ctx = zmq.Context[zmq.Socket[bytes]]


def said(run: Run, label: str) -> str:
    """Everything a child printed, over all its runs."""
    return run.errors(label) + "".join(p.read_text() for p in sorted(run.tmp.glob(f"{label}.*.out")))


def ended(run: Run, label: str, timeout: float = 30.0) -> int:
    code = run.procs[label].wait(timeout=timeout)
    assert "Traceback" not in said(run, label), said(run, label)
    return code


def test_a_peer_that_claims_the_next_routing_id_cannot_crash_the_host(tmp_path: Path) -> None:
    """libzmq numbers the routing ids it gives connections from an unseeded
    rand(): a LAN peer claiming the next ones made the host abort on the next
    connection. The host seeds it secretly; it survives, and a game starts."""
    run = Run(tmp_path)
    port = free_port()
    deadline = time.monotonic() + DEADLINE_S
    context: Ctx = zmq.Context()
    squatters: list[zmq.Socket[bytes]] = []
    try:
        run.host("host", port, "--players", "2")
        time.sleep(1.0)
        for k in range(64):  # the ids an unseeded libzmq gives first (00 6b8b4567, ...)
            sock = context.socket(zmq.DEALER)
            sock.setsockopt(zmq.ROUTING_ID, b"\x00" + (0x6B8B4567 + k).to_bytes(4, "big"))
            sock.setsockopt(zmq.LINGER, 0)
            sock.connect(f"tcp://127.0.0.1:{port}")
            sock.send(b"\x91\xa2hi")
            squatters.append(sock)
        for _ in range(8):  # connections that take the next automatic ids
            sock = context.socket(zmq.DEALER)
            sock.setsockopt(zmq.LINGER, 0)
            sock.connect(f"tcp://127.0.0.1:{port}")
            sock.send(b"\x91\xa2hi")
            squatters.append(sock)
        time.sleep(1.0)
        assert run.procs["host"].poll() is None, said(run, "host")
        run.join("J", port)
        run.wait_all(["host", "J"], deadline)
        check_game(run, ["host", "J"])
    finally:
        for sock in squatters:
            sock.close(0)
        context.term()
        run.kill_all()
