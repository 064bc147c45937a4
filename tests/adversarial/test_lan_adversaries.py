"""Malicious processes on a real LAN game (127.0.0.1): a joiner that sends
every cheat it can on its real connection, a joiner that stops sending what
it owes, a host that shows a joiner another log, and an eavesdropper that
replays a joiner's hello. Honest processes never crash; refused cheats never
reach anybody's log."""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from pathlib import Path

import zmq

from evil import BATTERY, DROPPED
from malicious import CHEATS
from p2p_ttr.net import frames
from p2p_ttr.net.frames import NET_VERSION, encode
from p2p_ttr.net.seqsig import EquivocationProof
from test_net_lan import DEADLINE_S, Run, check_game, command, free_port, wait_for_entries

EVIL = Path(__file__).resolve().parent / "evil.py"


def evil(role: str, cheat: str, report: Path, *args: str) -> list[str]:
    return [sys.executable, str(EVIL), role, cheat, str(report), *args]


def joiner_args(run: Run, label: str, port: int, timeout: int = 60) -> list[str]:
    return [f"127.0.0.1:{port}", "--as-bot", "--json", "--name", label, "--data-dir", str(run.tmp / label),
            "--timeout", str(timeout)]


def host_args(run: Run, label: str, port: int, timeout: int = 60) -> list[str]:
    return ["--bind", "127.0.0.1", "--port", str(port), "--as-bot", "--json", "--players", "2", "--name", "Bot0",
            "--data-dir", str(run.tmp / label), "--timeout", str(timeout)]


def test_every_cheat_sent_over_the_network_is_refused_and_the_game_is_unharmed(tmp_path: Path) -> None:
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port = free_port()
    report = tmp_path / "answers.json"
    try:
        run.host("host", port, "--players", "2")
        run.up("host", deadline)
        run.start("Mallory", evil("join", "battery", report, *joiner_args(run, "Mallory", port)))
        run.wait_all(["host", "Mallory"], deadline)
        answers = json.loads(report.read_text())
        expected = {name: "dropped" if name in DROPPED else CHEATS[name].code for name in BATTERY}
        assert answers == expected
        check_game(run, ["host", "Mallory"])  # same result on both sides; both logs verify: no cheat got in
        said = run.errors("host")
        assert "refused a message from Mallory" in said and "dropped a bad frame" in said
    finally:
        run.kill_all()


def test_a_joiner_that_withholds_is_named_and_the_host_gives_up_after_its_timeout(tmp_path: Path) -> None:
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port = free_port()
    try:
        run.start("host", command("host") + host_args(run, "host", port, timeout=6))
        run.up("host", deadline)
        run.start("Walt", evil("join", "withhold", tmp_path / "unused", *joiner_args(run, "Walt", port)))
        code = run.procs["host"].wait(timeout=max(1.0, deadline - time.monotonic()))
        said = run.errors("host")
        assert code == 1, said
        assert "waiting for Walt (" in said
        assert "no progress for 6 s (waiting for Walt)" in said
        assert "Walt stayed connected but withheld for" in said
        # The host said so to Walt's screen too before it left (gave_up).
        run.wait_said("Walt", "Bot0 gave up on the game and left: you stayed connected but withheld", deadline)
        assert run.procs["Walt"].poll() is None  # it stalls; it did not crash
    finally:
        run.kill_all()


def test_a_host_that_shows_a_joiner_another_log_is_caught_with_a_proof(tmp_path: Path) -> None:
    run = Run(tmp_path)
    deadline = time.monotonic() + 30
    port = free_port()
    try:
        run.start("host", evil("host", "equivocate", tmp_path / "unused", *host_args(run, "host", port, timeout=8)))
        run.up("host", deadline)
        run.start("Vic", command("join") + joiner_args(run, "Vic", port, timeout=3))
        code = run.procs["Vic"].wait(timeout=max(1.0, deadline - time.monotonic()))
        said = run.errors("Vic")
        assert code == 1, said
        proofs = list((tmp_path / "Vic" / "games").glob("*/equivocation-*.bin"))
        assert "equivocated" in said and len(proofs) == 1, said[-1500:]
        assert EquivocationProof.from_bytes(proofs[0].read_bytes()).valid()
    finally:
        run.kill_all()


class Tap:
    """A TCP relay on the way from a joiner to the host that keeps what the
    joiner sends: an eavesdropper on the LAN."""

    def __init__(self, listen: int, target: int) -> None:
        self.target = target
        self.heard = bytearray()
        self.server = socket.create_server(("127.0.0.1", listen))
        self.conns: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                return
            self.conns += [client, upstream]
            threading.Thread(target=self._pipe, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, False), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket, record: bool) -> None:
        try:
            while data := src.recv(65536):
                if record and len(self.heard) < 1 << 20:
                    self.heard += data
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def hello(self) -> bytes | None:
        """The joiner's hello frame as it went over the wire (a ZMTP short frame)."""
        at = bytes(self.heard).find(b"\x98\xa5hello")  # a msgpack array of 8: the kind and its 7 fields
        if at < 2 or self.heard[at - 2] not in (0, 1):
            return None
        return bytes(self.heard[at:at + self.heard[at - 1]])

    def close(self) -> None:
        self.server.close()
        for conn in self.conns:
            conn.close()


def test_a_hello_recorded_off_the_lan_and_replayed_admits_nobody_and_the_game_plays_on(tmp_path: Path) -> None:
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port, tapped = free_port(), free_port()
    tap = Tap(tapped, port)
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    mallories: list[zmq.Socket[bytes]] = []
    try:
        # The tap passes Vic's bytes on: the host names it a front of its own
        # (--advertise), as a port forward, or Vic's hello, dialled to it, is refused.
        run.start("host", command("host") + host_args(run, "host", port) + ["--advertise", f"127.0.0.1:{tapped}"])
        run.up("host", deadline)
        run.start("Vic", command("join") + joiner_args(run, "Vic", tapped))
        wait_for_entries(run, "host", 10, deadline)
        recorded = tap.hello()
        assert recorded is not None and frames.decode(recorded, frames.TO_HOST)[0] == "hello"
        # Replayed on new connections: one of its own, and one claiming the
        # routing id a joiner had before (b"p" + its key), at once, after a
        # challenge of their own, and with requests for the game's entries.
        victim_key = frames.decode(recorded, frames.TO_HOST)[1][2]
        for routing_id in (None, b"p" + victim_key):
            sock = context.socket(zmq.DEALER)
            sock.setsockopt(zmq.LINGER, 0)
            if routing_id is not None:
                sock.setsockopt(zmq.ROUTING_ID, routing_id)
            sock.connect(f"tcp://127.0.0.1:{port}")
            mallories.append(sock)
            got = []
            for frame in (recorded, encode("hi", NET_VERSION), recorded, encode("sync", 0), recorded):
                sock.send(frame)
                # Each frame of a connection not admitted is answered at once: wait for that answer.
                assert sock.poll(max(1, int(1000 * (deadline - time.monotonic())))), got
                got.append(frames.decode(sock.recv(), frames.TO_PEER)[0])
            while sock.poll(0):
                got.append(frames.decode(sock.recv(), frames.TO_PEER)[0])
            assert set(got) == {"challenge"}, got  # challenged, never welcomed, never sent an entry
        run.wait_all(["host", "Vic"], deadline)  # the rightful seat played to the end
        check_game(run, ["host", "Vic"])
        assert "dropped a hello that does not answer its connection's challenge" in run.errors("host")
    finally:
        for sock in mallories:
            sock.close(0)
        context.term()
        tap.close()
        run.kill_all()
