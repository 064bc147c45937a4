"""The relay's doors, mounted with real processes on 127.0.0.1 (protocol.md
§9, "Held back"; SECURITY.md, "What one connection may cost").

- A relay that sequences an act and holds back the author's shares: the
  author shows them to the other seats directly; every honest screen names
  the relay, not the author; with escrow the relay moves and the game ends.
- A seated peer that asks for the whole log again and again and never reads:
  the relay's memory stays bounded (its catch-up is paced by what the peer
  says it holds) and the game goes on.
- Strangers by the thousand and floods of bad frames: the relay remembers
  none of them and says so in a bounded number of lines.
"""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

import zmq
from test_lan_adversaries import evil
from test_net_escrow import RELAY_TIMEOUT
from test_net_lan import DEADLINE_S, Run, check_game, command, free_port, wait_for_entries

from p2p_ttr.net.frames import NET_VERSION, encode
from p2p_ttr.table.logfile import read_log
from p2p_ttr.table.verify import verify_entries


def rss_mib(pid: int) -> float:
    """A process's resident memory (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def bot_args(run: Run, label: str, players: int, *extra: str) -> list[str]:
    return ["--as-bot", "--json", "--data-dir", str(run.tmp / label), "--timeout", "60",
            "--relay-timeout", RELAY_TIMEOUT, *extra]


def test_a_relay_that_holds_back_an_authors_shares_is_named_and_with_escrow_replaced(tmp_path: Path) -> None:
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port = free_port()
    try:
        run.start("host", evil("host", "withhold_shares", tmp_path / "unused", "--bind", "127.0.0.1",
                               "--port", str(port), "--players", "3", "--escrow",
                               *bot_args(run, "host", 3, "--name", "Bot0")))
        run.join_in_order(["J1", "J2"], lambda label: run.start(label, command("join") + [
            f"127.0.0.1:{port}", "--name", label, *bot_args(run, label, 3)]), deadline)
        run.wait_all(["J1", "J2"], deadline)
        check_game(run, ["J1", "J2"])
        said = {label: run.said(label) for label in ("J1", "J2")}
        authors = [a for a in ("J1", "J2") if "we show it to the other seats directly" in said[a]]
        assert authors, said
        for author in authors:
            other = "J2" if author == "J1" else "J1"
            assert f"the relay (Bot0) holds back {author}'s message" in said[other]
            # From then on the screen never waits for the author as if it owed
            # the message (it may wait for it to turn, as the next relay: J1 is
            # both, and says "we relay next" first).
            after = said[other].split(f"holds back {author}'s message")[-1]
            assert f"waiting for {author}" not in re.split("relays next|we relay next|the relay moved", after)[0]
        (log,) = (tmp_path / "J2" / "games").glob("*/game.log")
        verdict = verify_entries(read_log(log)[1])
        assert verdict.fair and [(h.old, h.new) for h in verdict.table.handovers] == [(0, 1)]
    finally:
        run.kill_all()


def test_a_seat_that_asks_for_the_whole_log_and_never_reads_costs_the_relay_little(tmp_path: Path) -> None:
    """2000 `sync 0` a second from a seated peer that never reads once took a
    relay from 57 MiB to 1.47 GiB. Mallory's seat (its process stopped, its
    key taken over by this test on a connection of its own that never
    reads) asks for the whole log thousands of times: the relay's memory
    stays bounded, since what one connection is sent to catch up is paced by
    what it says it holds. Then Mallory is gone for good, the others carry
    its seat on (escrow) and finish."""
    from p2p_ttr.net import frames
    from p2p_ttr.net.lobby import sign_hello
    from p2p_ttr.net.store import DataDir

    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port = free_port()
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    try:
        run.start("host", command("host") + ["--bind", "127.0.0.1", "--port", str(port), "--players", "3",
                                             "--escrow", *bot_args(run, "host", 3)])
        run.join_in_order(["J", "Mallory"], lambda label: run.start(label, command("join") + [
            f"127.0.0.1:{port}", "--name", label, *bot_args(run, label, 3)]), deadline)
        wait_for_entries(run, "host", 150, deadline)
        os.kill(run.procs["Mallory"].pid, signal.SIGSTOP)
        before = rss_mib(run.procs["host"].pid)
        identity = DataDir(tmp_path / "Mallory").identity()
        sock = context.socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.RCVHWM, 1)  # read nothing: what the relay sends piles up on its side
        sock.setsockopt(zmq.RCVBUF, 4096)
        sock.connect(f"tcp://127.0.0.1:{port}")
        sock.send(encode("hi", NET_VERSION))
        assert sock.poll(10_000)
        _, (_, host_key, nonce, *_) = frames.decode(sock.recv(), frames.TO_PEER)
        sock.send(encode("hello", NET_VERSION, "Mallory", identity.public, nonce, *("127.0.0.1", port),
                         sign_hello(identity, "Mallory", host_key, nonce, ("127.0.0.1", port))))
        run.wait_said("host", "Mallory is back", deadline)
        sent, peak = 0, before
        start = time.monotonic()
        while time.monotonic() - start < 6.0:
            for _ in range(200):
                sock.send(encode("sync", 0), zmq.NOBLOCK)
                sent += 1
            time.sleep(0.1)
            peak = max(peak, rss_mib(run.procs["host"].pid))
        assert sent >= 6000
        print(f"relay memory under {sent} `sync 0` in 6 s from a seat that never reads: {before:.0f} -> {peak:.0f} MiB")
        assert peak - before < 100, f"the relay grew from {before:.0f} to {peak:.0f} MiB"
        sock.close(0)
        os.kill(run.procs["Mallory"].pid, signal.SIGKILL)
        run.wait_all(["host", "J"], deadline)
        check_game(run, ["host", "J"])
    finally:
        context.destroy(0)
        run.kill_all()


def test_strangers_and_floods_of_bad_frames_cost_lines_and_memory_in_bounds(tmp_path: Path) -> None:
    """5000 connections that only say `hi` (some may close before they are
    read), and a flood of one-byte frames:
    the relay keeps no record of a stranger (its outstanding challenges are
    capped), says what it dropped in a bounded number of lines, and the
    game ends."""
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port = free_port()
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    try:
        run.start("host", command("host") + ["--bind", "127.0.0.1", "--port", str(port), "--players", "2",
                                             *bot_args(run, "host", 2)])
        run.join_in_order(["J"], lambda label: run.start(label, command("join") + [
            f"127.0.0.1:{port}", "--name", label, *bot_args(run, label, 2)]), deadline)
        wait_for_entries(run, "host", 20, deadline)
        flood = context.socket(zmq.DEALER)
        flood.setsockopt(zmq.LINGER, 0)
        flood.connect(f"tcp://127.0.0.1:{port}")
        for _ in range(200_000):
            flood.send(b"\xc1")
        for _ in range(25):  # 5000 strangers, 200 at a time (each holds file descriptors until its context ends)
            crowd: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
            for _ in range(200):
                s = crowd.socket(zmq.DEALER)
                s.setsockopt(zmq.LINGER, 0)
                s.connect(f"tcp://127.0.0.1:{port}")
                s.send(encode("hi", NET_VERSION))
            crowd.destroy(0)
        flood.close(0)
        run.wait_all(["host", "J"], deadline)
        check_game(run, ["host", "J"])
        said = run.said("host")
        assert said.count("dropped a bad frame") <= 1 + 20, "each bad frame wrote a line"
        assert "more in the last" in said
        assert len(said) < 200_000
    finally:
        context.destroy(0)
        run.kill_all()


def test_a_stranger_is_remembered_only_by_its_challenge() -> None:
    """100,000 connections that only say `hi`: the relay keeps no record of
    any (what it walks on every beat stays empty); only the outstanding
    challenges, capped at 1024, oldest forgotten first."""
    from p2p_ttr.net.relay import Relay
    from p2p_ttr.net.replica import Replica
    from p2p_ttr.net.trace import Trace
    from p2p_ttr.table.identity import Identity

    identity = Identity.generate()
    relay = Relay(Replica(identity, lambda v, s: None), identity, lambda notice: None, Trace(None))

    class Nowhere:
        def send_multipart(self, parts: list[bytes]) -> None:
            pass

    relay.router.sock = Nowhere()  # type: ignore[assignment]
    hi = encode("hi", NET_VERSION)
    for k in range(100_000):
        relay.handle([k.to_bytes(5, "big"), hi])
        relay.handle([k.to_bytes(5, "big"), encode("ping", 3)])
    c = relay.admission.connections
    assert c.heard == {} and c.known == {} and len(c.challenges) == 1024
