"""`ttr watch` and `ttr replay` with real processes on 127.0.0.1: a 3-bot
game watched from start to end, every frame a watcher was sent checked
public, watchers that flood or vanish costing the players nothing that
stops them, and a watcher following the relay when it moves."""

from __future__ import annotations

import json
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import zmq
from test_net_lan import DEADLINE_S, Run, check_game, command, free_port, wait_for_entries

from p2p_ttr.cli.main import main
from p2p_ttr.net import frames, watchers
from p2p_ttr.net.frames import NET_VERSION
from p2p_ttr.net.store import GameStore
from p2p_ttr.table.envelope import open_envelope
from p2p_ttr.table.logfile import read_log
from p2p_ttr.table.messages import Audit, Forfeit, message_from_wire
from p2p_ttr.table.table import Table

PUBLIC = (frames.Challenge, frames.Watching, frames.Entry, frames.Ping, frames.Pause, frames.NotAdmitted)


class RawWatcher:
    """A watcher written from protocol.md §9 alone, on a thread: it records
    every frame it is sent, byte for byte. ``flood``: once admitted it asks
    for the whole log that many times at once, then goes silent."""

    def __init__(self, port: int, flood: int = 0) -> None:
        self.port = port
        self.flood = flood
        self.frames: list[bytes] = []
        self.entries: dict[int, bytes] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
        sock = context.socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 0)
        sock.connect(f"tcp://127.0.0.1:{self.port}")
        admitted, answered, beat = False, b"", 0.0
        try:
            while not self.stop.is_set():
                if time.monotonic() > beat and not (self.flood and admitted):
                    beat = time.monotonic() + 1.0
                    held = next(i for i in range(len(self.entries) + 1) if i not in self.entries)
                    sock.send(frames.encode_frame(frames.Ping(held) if admitted else frames.Hi(NET_VERSION)))
                if not sock.poll(50):
                    continue
                raw = sock.recv()
                self.frames.append(raw)
                frame = frames.decode_to_peer(raw)
                match frame:
                    case frames.Challenge(_, _, challenge, _) if challenge != answered:
                        answered = challenge
                        sock.send(frames.encode_frame(frames.Watch(NET_VERSION, challenge)))
                    case frames.Watching():
                        admitted = True
                        for _ in range(max(1, self.flood)):
                            try:
                                sock.send(frames.encode_frame(frames.Sync(0)), zmq.NOBLOCK)
                            except zmq.Again:
                                break  # as many as the socket takes
                    case frames.Entry(index, envelope, _):
                        self.entries[index] = envelope
                    case frames.Ping(length) if admitted and not self.flood and length > len(self.entries):
                        sock.send(frames.encode_frame(frames.Sync(len(self.entries))))
        finally:
            sock.close(0)
            context.term()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=10)


def summary_of(output: str) -> dict[str, Any]:
    summary: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    summary.pop("log", None)
    return summary


def secrets_of(data: Path) -> list[bytes]:
    """Every seat's secret exponent and seed, as bytes, from the host's and its bots' data directories."""
    found = []
    for log in list(data.glob("games/*/game.log")) + list(data.glob("bots/*/games/*/game.log")):
        secrets = GameStore(log.parent, bytes.fromhex(log.parent.name)).load_secrets()
        assert secrets is not None
        found += [secrets.key.x.to_bytes(32, "big"), secrets.seed.value]
    return found


def test_a_watcher_sees_a_3_bot_game_to_its_end_and_is_sent_nothing_hidden(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S * 2
    port = free_port()
    recorder = flooder = None
    try:
        run.host("host", port, "--bots", "2")
        run.up("host", deadline)
        watch = command("watch") + [f"127.0.0.1:{port}", "--timeout", "60"]
        run.start("watch", watch + ["--json", "--save", str(tmp_path / "watched.log")])
        run.start("gone", watch + ["--plain"])
        recorder, flooder = RawWatcher(port), RawWatcher(port, flood=5000)
        run.wait_said("gone", "the game starts", deadline)
        run.procs["gone"].send_signal(signal.SIGKILL)  # a watcher that vanishes mid-game
        run.wait_all(["host", "watch"], deadline)
        (host,) = check_game(run, ["host"])
        watched = summary_of(run.output("watch"))
        # The watcher shows what the players agreed on: the same scores, the same public state and log.
        assert watched == host and [p["score"] for p in watched["players"]] == [p["score"] for p in host["players"]]
        # The flooder was cut off; the game went on to its end all the same.
        assert "a watcher sent more than 20 frames a second" in run.errors("host")
        assert sum(len(raw) for raw in flooder.frames) <= watchers.BYTES_PER_S + frames.MAX_FRAME_BYTES
    finally:
        for raw in (recorder, flooder):
            if raw is not None:
                raw.close()
        run.kill_all()

    # The replay of the watcher's log reaches the same end: the same scores, the same public state.
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "watched.log"), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert replayed["over"] and replayed["stopped"] is None and replayed["summary"] == host

    # Everything the recorder was sent: public frames only, the log's entries byte for byte.
    (log,) = (tmp_path / "host" / "games").glob("*/game.log")
    _, entries = read_log(log)
    assert recorder is not None and len(recorder.entries) == len(entries)
    kinds = set()
    for raw in recorder.frames:
        frame = frames.decode_to_peer(raw)
        kinds.add(frame.KIND)
        assert isinstance(frame, PUBLIC), frame.KIND
        if isinstance(frame, frames.Entry):
            assert frame.envelope == entries[frame.index]
    assert {"challenge", "watching", "entry", "ping"} <= kinds
    # No seat's secret in any frame before the audit made it public.
    first_reveal = next(i for i, raw in enumerate(entries)
                        if isinstance(message_from_wire(open_envelope(raw).body), (Audit, Forfeit)))
    secrets = secrets_of(tmp_path / "host")
    assert len(secrets) == 6
    for raw in recorder.frames:
        frame = frames.decode_to_peer(raw)
        if isinstance(frame, frames.Entry) and frame.index >= first_reveal:
            continue
        assert not any(secret in raw for secret in secrets)
    # A table folded from what a watcher got reads no hidden card, at any moment.
    table = Table()
    for index in range(first_reveal):
        table.receive(recorder.entries[index])
        assert table.engine is None or not table.engine.private


def test_a_watcher_follows_the_relay_when_the_host_forfeits(tmp_path: Path) -> None:
    """The host's player forfeits mid-game: the relay moves to the next seat
    (protocol.md §9, Hand-over), and the watcher turns to it and sees the
    game to its end, with the players' scores."""
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S * 2
    port = free_port()
    try:
        host = subprocess.Popen(
            command("host") + ["--bind", "127.0.0.1", "--port", str(port), "--plain", "--players", "3",
                               "--name", "Hoster", "--data-dir", str(tmp_path / "host"), "--timeout", "60"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        run.procs["host"] = host
        run.start("watch", command("watch") + [f"127.0.0.1:{port}", "--json", "--timeout", "60"])
        run.join_in_order(["J", "K"], lambda label: run.join(label, port), deadline)
        run.wait_said("watch", "the game starts", deadline)
        wait_for_entries(run, "J", 12, deadline)  # the keys are in
        assert host.stdin is not None
        host.stdin.write(b"forfeit\nforfeit\n")  # the second confirms
        host.stdin.flush()
        host.communicate(timeout=max(1.0, deadline - time.monotonic()))
        run.wait_all(["J", "K", "watch"], deadline)
        j, _ = check_game(run, ["J", "K"])
        assert summary_of(run.output("watch")) == j
        said = run.errors("watch")
        assert "watching from J, who relays" in said and "the relay moved from Hoster to J" in said
    finally:
        run.kill_all()
