"""Real LAN games between processes on 127.0.0.1: whole games, garbage on
the host's port, two games at once, a joiner and a host killed with SIGKILL
and resumed. Every wait is bounded; every child is killed in the end."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import zmq

from p2p_ttr.net.store import GameStore
from p2p_ttr.table.logfile import read_log
from p2p_ttr.table.verify import verify_entries

DEADLINE_S = 400  # a bound on every wait, not a time asserted: a busy machine (two suites at once) is slow, not wrong


def command(name: str) -> list[str]:
    from p2p_ttr.cli.main import child_command

    return child_command(name)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Run:
    """Child processes with their output in files; all killed at the end."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.runs: dict[str, int] = {}

    def start(self, label: str, args: list[str]) -> subprocess.Popen[bytes]:
        n = self.runs[label] = self.runs.get(label, 0) + 1
        out = open(self.tmp / f"{label}.{n}.out", "wb")
        err = open(self.tmp / f"{label}.{n}.err", "wb")
        proc = subprocess.Popen(args, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        self.procs[label] = proc
        return proc

    def host(self, label: str, port: int, *extra: str) -> subprocess.Popen[bytes]:
        return self.start(label, command("host") + ["--bind", "127.0.0.1", "--port", str(port), "--as-bot", "--json",
                                                    "--data-dir", str(self.tmp / label), "--timeout", "60",
                                                    "--name", "Bot0", *extra])

    def join(self, label: str, port: int, timeout: int = 60) -> subprocess.Popen[bytes]:
        return self.start(label, command("join") + [f"127.0.0.1:{port}", "--as-bot", "--json", "--name", label,
                                                    "--data-dir", str(self.tmp / label), "--timeout", str(timeout)])

    def output(self, label: str) -> str:
        return (self.tmp / f"{label}.{self.runs[label]}.out").read_text()

    def errors(self, label: str) -> str:
        return "".join(p.read_text() for p in sorted(self.tmp.glob(f"{label}.*.err")))

    def said(self, label: str) -> str:
        """Everything ``label`` printed so far (stdout and stderr, every run of it)."""
        return "".join(p.read_text(errors="replace") for p in sorted(self.tmp.glob(f"{label}.*.*"))
                       if p.suffix in (".out", ".err"))

    def wait_said(self, label: str, text: str, deadline: float) -> None:
        """Wait for ``label`` to print ``text`` (an event, not a time)."""
        while text not in self.said(label):
            assert self.procs[label].poll() is None, f"{label} ended before saying {text!r}:\n{self.said(label)[-2000:]}"
            assert time.monotonic() < deadline, f"{label} never said {text!r}:\n{self.said(label)[-2000:]}"
            time.sleep(0.05)

    def said_now(self, label: str) -> str:
        """What the latest run of ``label`` printed so far (stdout and stderr)."""
        n = self.runs[label]
        return "".join((self.tmp / f"{label}.{n}.{kind}").read_text(errors="replace") for kind in ("out", "err")
                       if (self.tmp / f"{label}.{n}.{kind}").exists())

    def up(self, label: str, deadline: float) -> None:
        """Wait until host ``label`` listens (it says where, or that it resumed):
        a first join started before it might find nothing there and stop.
        Only this run's words count: an earlier run of it said the same."""
        while not any(words in self.said_now(label) for words in ("hosting on port", "resumed game")):
            assert self.procs[label].poll() is None, f"{label} ended before it listened:\n{self.said(label)[-2000:]}"
            assert time.monotonic() < deadline, f"{label} never listened:\n{self.said(label)[-2000:]}"
            time.sleep(0.05)

    def join_in_order(self, labels: list[str], start: Callable[[str], object], deadline: float) -> None:
        """Start each joiner once the one before it is in the lobby: seats in
        the order of ``labels`` whatever the machine's load."""
        for label in labels:
            start(label)
            self.wait_said(label, "in the lobby", deadline)

    def wait_all(self, labels: list[str], deadline: float) -> None:
        for label in labels:
            proc = self.procs[label]
            code = proc.wait(timeout=max(1.0, deadline - time.monotonic()))
            assert code == 0, f"{label} exited {code}:\n{self.errors(label)[-3000:]}"

    def kill_all(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def entries_in(data_dir: Path) -> int:
    logs = list((data_dir / "games").glob("*/game.log")) if (data_dir / "games").exists() else []
    if not logs:
        return 0
    store = GameStore(logs[0].parent, bytes.fromhex(logs[0].parent.name))
    try:
        return len(store._read_entries()[0])
    except Exception:
        return 0


def wait_for_entries(run: Run, label: str, count: int, deadline: float) -> None:
    while entries_in(run.tmp / label) < count:
        assert run.procs[label].poll() is None, f"{label} ended early:\n{run.errors(label)[-2000:]}"
        assert time.monotonic() < deadline, f"{label} never reached {count} entries"
        time.sleep(0.05)


def check_game(run: Run, labels: list[str]) -> list[dict[str, Any]]:
    summaries = [json.loads(run.output(label).strip().splitlines()[-1]) for label in labels]
    for s in summaries:
        _, entries = read_log(Path(s["log"]))
        assert verify_entries(entries).fair
        s.pop("log")
    assert all(s == summaries[0] for s in summaries), "the players' summaries differ"
    return summaries


def send_garbage(port: int) -> None:
    """Junk on the host's port: raw TCP bytes, then ZeroMQ frames of every bad kind."""
    with socket.create_connection(("127.0.0.1", port), timeout=2) as raw:
        raw.sendall(b"GET / HTTP/1.0\r\n\r\n" + bytes(range(256)) * 8)
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    try:
        sock = context.socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 1000)
        sock.connect(f"tcp://127.0.0.1:{port}")
        for frame in (
            b"", b"\xc1", b"\x91\xa4ping", b"\xdd\xff\xff\xff\xff", b"\x92\xa3env\xc4\x03abc",
            b"\x95\xa5hello\x01\xa1x\xc4\x20" + b"k" * 32 + b"\xc4\x40" + b"s" * 64,
            b"\x96\xa5hello\x02\xa1x\xc4\x20" + b"k" * 32 + b"\xc4\x20" + b"c" * 32 + b"\xc4\x40" + b"s" * 64,
            b"\x92\xa3env" + b"\xc6\x00\x04\x00\x00" + b"z" * 300_000,  # oversized
        ):
            sock.send(frame)
        sock.send_multipart([b"two", b"parts"])
        sock.close()  # its LINGER sends what it holds first
    finally:
        context.term()


def test_full_games_garbage_and_two_games_at_once(tmp_path: Path) -> None:
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    pa, pb = free_port(), free_port()
    try:
        # A 6-player Old West game, the top of the largest player range (its set-up re-masks
        # returned tickets under the deck; its starting cities and city markers go through
        # the log), and beside it a Europe game with a bot the host starts itself.
        run.host("hostA", pa, "--players", "6", "--board", "oldwest")
        run.host("hostB", pb, "--bots", "1")
        run.up("hostA", deadline)
        joiners = ["J1", "J2", "J3", "J4", "J5"]
        for j in joiners:
            run.join(j, pa)
        wait_for_entries(run, "hostA", 20, deadline)
        send_garbage(pa)
        run.wait_all(["hostA", *joiners, "hostB"], deadline)
        a = check_game(run, ["hostA", *joiners])
        b = check_game(run, ["hostB"])
        assert a[0]["game_id"] != b[0]["game_id"]
        assert [p["name"] for p in a[0]["players"]][0] == "Bot0" and len(a[0]["players"]) == 6
        assert a[0]["game"] == "Old West" and b[0]["game"] == "Europe"
        assert "dropped" in run.errors("hostA")
    finally:
        run.kill_all()


@pytest.mark.parametrize(("victim", "kill_at"), [("J", 4), ("J", 120), ("host", 3), ("host", 120)])
def test_killed_and_resumed(tmp_path: Path, victim: str, kill_at: int) -> None:
    """A joiner runs the same command again; a host runs `ttr host --resume GAME`."""
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port = free_port()
    try:
        run.host("host", port, "--players", "2")
        run.up("host", deadline)
        run.join("J", port)
        wait_for_entries(run, victim, kill_at, deadline)
        run.procs[victim].send_signal(signal.SIGKILL)
        run.procs[victim].wait()
        if victim == "host":
            (game,) = (tmp_path / "host" / "games").iterdir()
            run.host("host", port, "--resume", game.name[:8])
        else:
            run.join("J", port)  # the same command again
        run.wait_all(["host", "J"], deadline)
        check_game(run, ["host", "J"])
        assert ("resumed game" if victim == "host" else "reloaded game") in run.errors(victim)
    finally:
        run.kill_all()


def test_refusals_and_clear_errors(tmp_path: Path) -> None:
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port = free_port()

    def refused(label: str, args: list[str], expect: str) -> None:
        proc = run.start(label, args)
        code = proc.wait(timeout=max(1.0, min(30.0, deadline - time.monotonic())))
        assert code == 1, f"{label} exited {code}"
        said = run.errors(label) + run.output(label)  # without --json, notes go to stdout
        assert expect in said, said

    try:
        run.host("host", port, "--players", "3")
        run.up("host", deadline)
        run.join("Ann", port)
        run.wait_said("Ann", "in the lobby", deadline)  # her name is taken from now on
        dup = command("join") + [f"127.0.0.1:{port}", "--as-bot", "--name", "Ann", "--data-dir", str(tmp_path / "dup")]
        refused("dup", dup, "taken")
        run.join("Bea", port)
        wait_for_entries(run, "host", 1, deadline)
        late = command("join") + [f"127.0.0.1:{port}", "--as-bot", "--name", "Late", "--data-dir", str(tmp_path / "late")]
        refused("late", late, f"already started; to follow it without a seat: ttr watch 127.0.0.1:{port}")
        again = command("host") + ["--bind", "127.0.0.1", "--port", str(port), "--as-bot", "--players", "2",
                                   "--data-dir", str(tmp_path / "h2")]
        refused("again", again, "in use")
        nobody = command("join") + [f"127.0.0.1:{free_port()}", "--as-bot", "--timeout", "4",
                                    "--data-dir", str(tmp_path / "lost")]
        refused("nobody", nobody, "nothing answered at 127.0.0.1:")  # a first join: not "run again to resume"
        assert "silent" not in run.output("nobody")
        # the refused peers disturbed nothing: the game plays to its end and verifies
        run.wait_all(["host", "Ann", "Bea"], deadline)
        check_game(run, ["host", "Ann", "Bea"])
    finally:
        run.kill_all()


def test_a_joiner_forfeits_and_the_game_goes_on(tmp_path: Path) -> None:
    """A person at the line prompt types `forfeit` mid-game: they leave, the
    table plays their seat, the others finish and every log verifies."""
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port = free_port()
    try:
        run.host("host", port, "--players", "3")
        run.up("host", deadline)
        run.join("J", port)
        leaver = subprocess.Popen(
            command("join") + [f"127.0.0.1:{port}", "--name", "Leaver", "--data-dir", str(tmp_path / "L"),
                               "--timeout", "60"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        run.procs["L"] = leaver
        wait_for_entries(run, "host", 12, deadline)  # keys and the first shuffles are in
        assert leaver.stdin is not None
        leaver.stdin.write(b"forfeit\nforfeit\n")  # the second confirms
        leaver.stdin.flush()
        out, _ = leaver.communicate(timeout=max(1.0, deadline - time.monotonic()))
        assert leaver.returncode == 0, out.decode()[-2000:]
        assert b"you forfeited this game" in out
        # The host killed after the forfeit resumes into a game still played for the leaver.
        at = entries_in(tmp_path / "host") + 30
        wait_for_entries(run, "host", at, deadline)
        run.procs["host"].send_signal(signal.SIGKILL)
        run.procs["host"].wait()
        (game,) = (tmp_path / "host" / "games").iterdir()
        run.host("host", port, "--resume", game.name[:8])
        run.up("host", deadline)
        # The leaver running its command again is told, and leaves again.
        again = subprocess.run(
            command("join") + [f"127.0.0.1:{port}", "--plain", "--name", "Leaver", "--data-dir", str(tmp_path / "L"),
                               "--timeout", "60"],
            stdin=subprocess.DEVNULL, capture_output=True, timeout=max(1.0, deadline - time.monotonic()))
        assert again.returncode == 0 and b"you forfeited this game" in again.stdout + again.stderr
        run.wait_all(["host", "J"], deadline)
        (log,) = (tmp_path / "host" / "games").glob("*/game.log")
        verdict = verify_entries(read_log(log)[1])
        assert [verdict.names[s] for s in verdict.table.forfeited] == ["Leaver"]
        check_game(run, ["host", "J"])
        # The game it forfeited keeps the leaver from no other game: a new host
        # at the same address, and it joins and plays (it is not told to ask
        # for the game it left to be resumed).
        run.host("hostB", port, "--players", "2")
        run.up("hostB", deadline)
        run.start("L", command("join") + [f"127.0.0.1:{port}", "--as-bot", "--json", "--name", "Leaver",
                                          "--data-dir", str(tmp_path / "L"), "--timeout", "60"])
        run.wait_all(["hostB", "L"], deadline)
        check_game(run, ["hostB", "L"])
    finally:
        run.kill_all()


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def test_a_resumed_host_starts_its_bots_again(tmp_path: Path) -> None:
    """The host and its bot both killed: `ttr host --resume` restarts the bot
    (from its own data directory, at its level) and the game ends normally."""
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port = free_port()
    try:
        run.host("host", port, "--bots", "1", "--bot-level", "easy")
        wait_for_entries(run, "host", 60, deadline)
        host = run.procs["host"]
        bots = children(host.pid)
        assert len(bots) == 1
        for pid in (host.pid, *bots):
            os.kill(pid, signal.SIGKILL)
        host.wait()
        (game,) = (tmp_path / "host" / "games").iterdir()
        run.host("host", port, "--resume", game.name[:8])
        run.wait_all(["host"], deadline)
        check_game(run, ["host"])
        bot_log = (tmp_path / "host" / "bots" / "Bot1" / "bot.out").read_text()
        assert bot_log.count("reloaded game") >= 1  # the second bot picked up the first one's seat
        assert (tmp_path / "host" / "bots" / "Bot1" / "level").read_text() == "easy"
    finally:
        run.kill_all()
