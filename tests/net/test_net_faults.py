"""What goes wrong at a LAN party, with real processes on 127.0.0.1: wrong
addresses, restarted hosts, players who leave the lobby, storage lost or
full, damaged files. Each fault ends in a clear message (never a traceback,
a hang or a wrong accusation), and the game can still be finished
(protocol.md §9, Faults). Every wait is bounded; every child is killed."""

from __future__ import annotations

import contextlib
import json
import re
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import zmq

from p2p_ttr.net.frames import NET_VERSION, encode
from p2p_ttr.table.identity import Identity
from tests.net.test_net_lan import Run, check_game, command, entries_in, free_port, wait_for_entries

DEADLINE_S = 300  # a bound on every wait, not a time asserted (a busy machine is slow, not wrong)

Ctx = zmq.Context[zmq.Socket[bytes]]


def said(run: Run, label: str) -> str:
    """Everything a child printed, over all its runs."""
    return run.errors(label) + "".join(p.read_text() for p in sorted(run.tmp.glob(f"{label}.*.out")))


def ended(run: Run, label: str, timeout: float = 120.0) -> int:
    # A bound, not a time asserted: a child ends on its own event (a peer's
    # silence, a refusal), which a loaded machine reaches late.
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
        run.up("host", deadline)
        for k in range(64):  # the ids an unseeded libzmq gives first (00 6b8b4567, ...)
            sock = context.socket(zmq.DEALER)
            sock.setsockopt(zmq.ROUTING_ID, b"\x00" + (0x6B8B4567 + k).to_bytes(4, "big"))
            sock.setsockopt(zmq.LINGER, 0)
            sock.connect(f"tcp://127.0.0.1:{port}")
            sock.send(encode("hi", NET_VERSION))
            squatters.append(sock)
        for _ in range(8):  # connections that take the next automatic ids
            sock = context.socket(zmq.DEALER)
            sock.setsockopt(zmq.LINGER, 0)
            sock.connect(f"tcp://127.0.0.1:{port}")
            sock.send(encode("hi", NET_VERSION))
            squatters.append(sock)
        for sock in squatters[-8:]:  # the host answered each new connection: it took their ids, and lives
            assert sock.poll(max(1, int(1000 * (deadline - time.monotonic())))), said(run, "host")
        assert run.procs["host"].poll() is None, said(run, "host")
        run.join("J", port)
        run.wait_all(["host", "J"], deadline)
        check_game(run, ["host", "J"])
    finally:
        for sock in squatters:
            sock.close(0)
        context.term()
        run.kill_all()


# ------------------------------------------------------- 1. wrong addresses


def tcp_server(payload: bytes | None) -> tuple[socket.socket, int]:
    """A TCP server that writes ``payload`` to every connection and keeps it open."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            if payload is not None:
                conn.sendall(payload)
            held.append(conn)

    threading.Thread(target=serve, daemon=True).start()
    return server, server.getsockname()[1]


def test_a_join_at_an_address_that_is_no_ttr_host_says_so_at_once(tmp_path: Path) -> None:
    """ZeroMQ PUB and PULL sockets, TCP servers writing zeros, 0xff or HTTP,
    a TCP server that says nothing (it was once said to have "closed the
    connection"), nothing listening, a name that does not resolve: each ends the join (and
    would end a bot's) with what is wrong, long before its --timeout."""
    run = Run(tmp_path)
    context: Ctx = zmq.Context()
    servers: list[socket.socket] = []
    zsocks: list[zmq.Socket[bytes]] = []  # kept: a socket no longer referenced is closed
    ports: dict[str, str] = {}
    try:
        for label, kind in (("pub", zmq.PUB), ("pull", zmq.PULL)):
            sock = context.socket(kind)
            sock.setsockopt(zmq.LINGER, 0)
            zsocks.append(sock)
            ports[label] = f"127.0.0.1:{sock.bind_to_random_port('tcp://127.0.0.1')}"
        for label, payload in (("zeros", b"\0" * 8), ("ffs", b"\xff" * 8), ("http", b"HTTP/1.0 400 Bad\r\n\r\n"),
                               ("silent", None)):
            server, port = tcp_server(payload)
            servers.append(server)
            ports[label] = f"127.0.0.1:{port}"
        ports["nobody"] = f"127.0.0.1:{free_port()}"
        ports["noname"] = "no-such-host.invalid:7311"
        for label, address in ports.items():
            run.start(label, command("join") + [address, "--as-bot", "--timeout", "120",
                                                "--data-dir", str(tmp_path / label)])
        expect = {"pub": "is not a ttr game", "pull": "is not a ttr game", "zeros": "is not a ttr game",
                  "ffs": "is not a ttr game", "http": "is not a ttr game", "nobody": "nothing answered at",
                  "silent": "does not speak ZeroMQ",
                  "noname": "cannot resolve 'no-such-host.invalid'"}
        for label, words in expect.items():
            assert ended(run, label) == 1, said(run, label)
            assert words in said(run, label) and ports[label].split(":")[0] in said(run, label), said(run, label)
            assert "silent" not in said(run, label) and "resume" not in said(run, label)
    finally:
        for server in servers:
            server.close()
        context.destroy(0)
        run.kill_all()


def test_malformed_addresses_are_refused_with_a_usage_error(tmp_path: Path) -> None:
    for address, words in (("127.0.0.1:", "not a port"), ("127.0.0.1:47999:1", "brackets"), ("::1", "brackets")):
        done = subprocess.run(command("join") + [address, "--as-bot", "--data-dir", str(tmp_path / "d")],
                              capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
        assert done.returncode == 2 and words in done.stderr.decode() and b"Traceback" not in done.stderr


# ------------------------------------------------ 2. a host restarted over its game


def kill(run: Run, label: str) -> None:
    run.procs[label].send_signal(signal.SIGKILL)
    run.procs[label].wait()


@contextlib.contextmanager
def host_and_joiner(tmp_path: Path) -> Iterator[tuple[Run, int, float]]:
    """A 2-player game under way: the host and joiner J started on a free
    port; every process is killed on the way out."""
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port = free_port()
    try:
        run.host("host", port, "--players", "2")
        run.up("host", deadline)
        run.join("J", port)
        yield run, port, deadline
    finally:
        run.kill_all()


def game_dir(run: Run, label: str) -> Path:
    (game,) = (run.tmp / label / "games").iterdir()
    return game


def test_a_host_restarted_without_resume_resumes_and_a_joiner_never_joins_another_game(tmp_path: Path) -> None:
    """The host killed and started again by the same command resumes its game.
    Started with --new instead, it opens a lobby: the running joiner does not
    join it but stops, saying why; both commands run again finish the game."""
    with host_and_joiner(tmp_path) as (run, port, deadline):
        wait_for_entries(run, "host", 40, deadline)
        kill(run, "host")
        run.host("host", port, "--players", "2", "--new")  # a new game: not what the joiner plays
        assert ended(run, "J") == 1
        assert "opened a new game, but game " in said(run, "J") and "is not finished" in said(run, "J")
        assert "--resume" in said(run, "J")
        assert "J joined" not in run.errors("host").split("hosting on port")[-1]  # it never said hello
        kill(run, "host")
        run.host("host", port, "--players", "2")  # the same command as at first: resumes the game
        run.join("J", port)
        run.wait_all(["host", "J"], deadline)
        check_game(run, ["host", "J"])
        assert "is not finished: resuming it" in said(run, "host")


def wait_until(done: Callable[[], bool], deadline: float) -> None:
    while not done():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


# ------------------------------------------------------- 3. leaving the lobby


def test_lobby_members_who_leave_or_die_are_dropped_and_the_game_starts_without_them(tmp_path: Path) -> None:
    """A member killed in the lobby is dropped once silent, and the others are
    told; one who types `end` is dropped at once; the game then starts with
    those who are there, and ends."""
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port = free_port()
    try:
        run.host("host", port, "--players", "4")
        run.up("host", deadline)
        leaver_out = tmp_path / "Leaver.out"
        with open(leaver_out, "wb") as out:
            leaver = subprocess.Popen(command("join") + [f"127.0.0.1:{port}", "--plain", "--name", "Leaver",
                                                         "--data-dir", str(tmp_path / "L"), "--timeout", "30"],
                                      stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT)
        run.procs["L"] = leaver
        wait_until(lambda: "Leaver joined" in said(run, "host"), deadline)
        run.join("Ghost", port)
        wait_until(lambda: "in the lobby: Bot0, Leaver, Ghost" in leaver_out.read_text(), deadline)
        kill(run, "Ghost")  # killed in the lobby: it says nothing, and goes silent
        wait_until(lambda: "Ghost left the lobby (silent" in said(run, "host"), deadline)
        wait_until(lambda: leaver_out.read_text().rstrip().endswith("in the lobby: Bot0, Leaver (starting at 4)"),
                   deadline)  # the others are told
        assert leaver.stdin is not None
        leaver.stdin.write(b"end\n")
        leaver.stdin.flush()
        leaver.wait(timeout=120)
        assert "Traceback" not in leaver_out.read_text()
        wait_until(lambda: "Leaver left: 1 in the lobby" in said(run, "host"), deadline)
        for label in ("A", "B", "C"):
            run.join(label, port)
        run.wait_all(["host", "A", "B", "C"], deadline)
        summaries = check_game(run, ["host", "A", "B", "C"])
        assert sorted(p["name"] for p in summaries[0]["players"]) == ["A", "B", "Bot0", "C"]
    finally:
        run.kill_all()


POISED = """
import pathlib, sys, time
from p2p_ttr.cli.main import main
import p2p_ttr.cli.commands.join, p2p_ttr.net.node  # the slow part of starting, done before the go
pathlib.Path(sys.argv[1]).touch()
while not pathlib.Path(sys.argv[2]).exists():
    time.sleep(0.005)
sys.exit(main(sys.argv[3:]))
"""


GHOST_KEPT_S = 20.0

PATIENT_HOST = """
import sys
import p2p_ttr.net.admission as admission
admission.LOBBY_SILENT_S = float(sys.argv[1])  # how long the host keeps a silent lobby member
from p2p_ttr.cli.main import main
sys.exit(main(sys.argv[2:]))
"""


def test_a_lobby_member_killed_just_before_the_seats_fill_never_gets_a_seat(tmp_path: Path) -> None:
    """The ghost in the lobby: Ghost is SIGKILLed and, a moment later (well
    within the time a silent member is kept), the last player joins. The
    lobby is full, but the game starts only with members heard since it
    filled: Ghost never answers, is dropped, and the lobby waits again; the
    last player keeps its place, one more joins, and the game is played
    without Ghost. The host keeps a silent member 20 s here instead of 5 s
    (PATIENT_HOST), so that however slow the machine, Last is in before
    Ghost is dropped: the interleaving under test is forced, not hoped for."""
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port = free_port()
    ready, go = tmp_path / "ready", tmp_path / "go"
    try:
        run.start("host", [sys.executable, "-c", PATIENT_HOST, str(GHOST_KEPT_S), "host", "--bind", "127.0.0.1",
                           "--port", str(port), "--as-bot", "--name", "Bot0", "--json",
                           "--data-dir", str(tmp_path / "host"),
                           "--timeout", "60", "--players", "3"])
        run.up("host", deadline)
        run.join("Ghost", port)
        run.wait_said("Ghost", "in the lobby", deadline)
        # The last player, started and loaded, waits for the go: it joins within milliseconds of it.
        run.start("Last", [sys.executable, "-c", POISED, str(ready), str(go), "join", f"127.0.0.1:{port}",
                           "--as-bot", "--json", "--name", "Last", "--data-dir", str(tmp_path / "Last"),
                           "--timeout", "60"])
        wait_until(ready.exists, deadline)
        kill(run, "Ghost")
        go.touch()
        run.wait_said("host", "Last joined (3 of 3)", deadline)  # Ghost is still counted: the lobby is full
        run.wait_said("host", f"Ghost left the lobby (silent for {GHOST_KEPT_S:.0f} s)", deadline)
        assert entries_in(tmp_path / "host") == 0  # nothing was seated with Ghost in it
        run.wait_said("Last", "in the lobby: Bot0, Last (starting at 3)", deadline)  # it keeps its place
        run.join("After", port)
        run.wait_all(["host", "Last", "After"], deadline)
        summaries = check_game(run, ["host", "Last", "After"])
        assert [p["name"] for p in summaries[0]["players"]] == ["Bot0", "Last", "After"]
    finally:
        run.kill_all()


# ------------------------------------------------ 4. a host log that lost its tail


@pytest.mark.parametrize("lost_bytes", [1, 5000])
def test_a_host_whose_log_lost_its_tail_fetches_it_from_a_joiner(tmp_path: Path, lost_bytes: int) -> None:
    """Storage lost after a crash: the resumed host's log is shorter than the
    joiner's. It fetches the entries it signed back from the joiner before it
    sequences anything: no `unknown_head`, no equivocation, the game ends."""
    with host_and_joiner(tmp_path) as (run, port, deadline):
        wait_for_entries(run, "host", 80, deadline)
        kill(run, "host")  # the joiner's log, now or a moment later, is a prefix of the host's
        # The two logs are the same bytes as far as the joiner's goes: cut the
        # host's below that, so that the joiner holds what the host lost.
        held = (game_dir(run, "J") / "game.log").stat().st_size
        os.truncate(game_dir(run, "host") / "game.log", held - lost_bytes)
        run.host("host", port, "--resume", game_dir(run, "host").name[:8])
        run.wait_all(["host", "J"], deadline)
        check_game(run, ["host", "J"])
        assert "our log had lost entries" in said(run, "host")
        assert "unknown_head" not in said(run, "J") and "equivocat" not in said(run, "J")


# ------------------------------------------------------ 5. damaged secrets


@pytest.mark.parametrize(("part", "words"), [("seed", "its seed is not the one this seat committed to"),
                                             ("exponent", "its secret exponent is not the key")])
def test_damaged_secrets_are_named_on_load_not_taken_for_cheating(tmp_path: Path, part: str, words: str) -> None:
    with host_and_joiner(tmp_path) as (run, port, deadline):
        wait_for_entries(run, "J", 40, deadline)  # the keys are in
        kill(run, "J")
        secrets = game_dir(run, "J") / "secrets"
        raw = bytearray(secrets.read_bytes())
        raw[-1 if part == "seed" else -40] ^= 0x01  # the seed is last; the exponent just before it
        secrets.write_bytes(bytes(raw))
        run.join("J", port)
        assert ended(run, "J") == 1
        told = said(run, "J")
        assert f"{secrets} is damaged: {words}" in told and "no escrow" in told, told
        assert "cheat" not in told
        assert "cheat" not in said(run, "host")


# ----------------------------------------------------------- 6. a full disk


def can_mount_tmpfs(tmp: Path) -> list[str] | None:
    """How to run a shell in a mount namespace of our own, if this machine lets us."""
    (tmp / "probe").mkdir()
    for prefix in (["unshare", "-m"], ["unshare", "-rm"]):
        try:
            done = subprocess.run([*prefix, "sh", "-c", f"mount -t tmpfs -o size=64k tmpfs {tmp / 'probe'}"],
                                  capture_output=True, timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if done.returncode == 0:
            return prefix
    return None


def test_a_full_disk_is_a_clear_message_and_the_seat_resumes_once_there_is_space(tmp_path: Path) -> None:
    """The joiner's data directory on a tmpfs too small for the game (in a
    mount namespace of its own): it stops saying the disk is full, without a
    traceback; with the tmpfs grown, the same command finishes the game."""
    prefix = can_mount_tmpfs(tmp_path)
    if prefix is None:
        pytest.skip("mounting a tmpfs is not allowed here")
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port = free_port()
    data = tmp_path / "J"
    data.mkdir()
    join = " ".join(shlex.quote(a) for a in command("join") + [
        f"127.0.0.1:{port}", "--as-bot", "--json", "--name", "J", "--data-dir", str(data), "--timeout", "60"])
    script = (f"mount -t tmpfs -o size=200k tmpfs {data} || exit 3; "
              f"{join} > {tmp_path}/J.1.out 2> {tmp_path}/J.1.err; echo $? > {tmp_path}/rc1; "
              f"mount -o remount,size=16m {data} || exit 4; "
              f"{join} > {tmp_path}/J.2.out 2> {tmp_path}/J.2.err; echo $? > {tmp_path}/rc2")
    try:
        run.host("host", port, "--players", "2")
        run.up("host", deadline)
        run.start("shell", [*prefix, "sh", "-c", script])
        run.runs["J"] = 2
        assert run.procs["shell"].wait(timeout=DEADLINE_S) == 0, said(run, "shell")
        first = (tmp_path / "J.1.err").read_text()
        assert (tmp_path / "rc1").read_text().strip() == "1", first
        assert "the disk is full" in first and "run the same command again to resume" in first, first
        assert "Traceback" not in first and "Errno" not in first
        assert (tmp_path / "rc2").read_text().strip() == "0", (tmp_path / "J.2.err").read_text()
        run.wait_all(["host"], deadline)
        summary = json.loads((tmp_path / "J.2.out").read_text().strip().splitlines()[-1])
        host = json.loads(run.output("host").strip().splitlines()[-1])
        assert summary["digest"] == host["digest"]
    finally:
        run.kill_all()


def test_a_disk_full_from_the_start_is_a_clear_message_never_a_traceback(tmp_path: Path) -> None:
    """The joiner's data directory on a tmpfs that is full before it starts
    (its identity key already there): taking the directory's lock cannot
    write our pid (no traceback: the lock holds all the same), and the
    game's first write says the disk is full and to run the same command
    again, not to delete a log that does not exist."""
    prefix = can_mount_tmpfs(tmp_path)
    if prefix is None:
        pytest.skip("mounting a tmpfs is not allowed here")
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port = free_port()
    data = tmp_path / "J"
    data.mkdir()
    (tmp_path / "key").write_bytes(Identity.generate().to_bytes())
    join = " ".join(shlex.quote(a) for a in command("join") + [
        f"127.0.0.1:{port}", "--as-bot", "--json", "--name", "J", "--data-dir", str(data), "--timeout", "60"])
    script = (f"mount -t tmpfs -o size=64k tmpfs {data} || exit 3; mkdir {data}/games; "
              f"cp {tmp_path}/key {data}/identity.key; "
              f"dd if=/dev/zero of={data}/filler bs=1k 2>/dev/null; "  # until the disk is full
              f"{join} > {tmp_path}/J.1.out 2> {tmp_path}/J.1.err; echo $? > {tmp_path}/rc1")
    try:
        run.host("host", port, "--players", "2")
        run.wait_said("host", "hosting on port", deadline)
        run.start("shell", [*prefix, "sh", "-c", script])
        assert run.procs["shell"].wait(timeout=DEADLINE_S) == 0, said(run, "shell")
        told = (tmp_path / "J.1.err").read_text()
        assert (tmp_path / "rc1").read_text().strip() == "1", told
        assert "the disk is full" in told and "run the same command again to resume" in told, told
        assert "Traceback" not in told and "Errno" not in told and "delete that file" not in told, told
    finally:
        run.kill_all()


# ------------------------------------------------ 7. the words after damage


def test_a_joiner_with_a_lost_key_or_a_corrupt_log_is_told_what_to_do(tmp_path: Path) -> None:
    """identity.key gone: the joiner does not make a stranger's key. A
    corrupt log: it says deleting the log fetches it again, which it does."""
    with host_and_joiner(tmp_path) as (run, port, deadline):
        wait_for_entries(run, "J", 60, deadline)
        kill(run, "J")
        key = tmp_path / "J" / "identity.key"
        key.rename(tmp_path / "key.saved")
        run.join("J", port)
        assert ended(run, "J") == 1
        assert f"{key} is missing" in said(run, "J") and "already started" not in said(run, "J")
        assert not key.exists()
        (tmp_path / "key.saved").rename(key)
        log = game_dir(run, "J") / "game.log"
        raw = bytearray(log.read_bytes())
        raw[len(raw) // 2] ^= 0xFF
        log.write_bytes(bytes(raw))
        run.join("J", port)
        assert ended(run, "J") == 1
        assert "delete that file" in said(run, "J") and "the host sends the whole log again" in said(run, "J")
        log.unlink()
        run.join("J", port)
        run.wait_all(["host", "J"], deadline)
        check_game(run, ["host", "J"])


def a_game_whose_host_gives_up_soon(run: Run, port: int, deadline: float) -> None:
    """A 2-player game under way (J holds 60 entries) whose scripted host
    gives up 2 s after J falls silent. The same 2 s bound its lobby: on a
    loaded machine J may start after the host stopped waiting for it (seen
    with a second suite beside this one: "only 1 of 2 players joined in
    2 s"). Then both are started again, until the game is under way."""
    while True:
        run.host("host", port, "--players", "2", "--timeout", "2")
        this_run = run.tmp / f"host.{run.runs['host']}.err"
        while "hosting on port" not in this_run.read_text():
            assert run.procs["host"].poll() is None, said(run, "host")
            assert time.monotonic() < deadline, "the host never listened"
            time.sleep(0.05)
        run.join("J", port)
        while entries_in(run.tmp / "J") < 60:
            assert time.monotonic() < deadline, "the game never got under way"
            if run.procs["host"].poll() is not None or run.procs["J"].poll() is not None:
                break
            time.sleep(0.05)
        else:
            return
        for label in ("host", "J"):
            run.procs[label].wait(timeout=DEADLINE_S)
        assert "only 1 of 2 players joined in 2 s" in this_run.read_text(), said(run, "host")


def test_a_host_that_lost_its_log_or_meta_says_so_and_resumes_from_a_joiners_copy(tmp_path: Path) -> None:
    """A scripted host giving up names `--resume GAME`. With its game.log
    gone it says a joiner's copy will do and writes nothing; with meta.json
    gone it rebuilds it from the log; from a joiner's copy the game ends."""
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port = free_port()
    try:
        a_game_whose_host_gives_up_soon(run, port, deadline)
        kill(run, "J")
        assert ended(run, "host") == 1
        game = game_dir(run, "host")
        assert f"resume it with `ttr host --resume {game.name[:8]}`" in said(run, "host")
        (game / "game.log").unlink()
        (game / "meta.json").unlink()
        run.host("host", port, "--resume", game.name[:8])
        assert ended(run, "host") == 1
        assert "game.log is missing" in said(run, "host") and "a joiner's copy of the log is as good" in said(run, "host")
        assert not (game / "game.log").exists()  # no empty log left behind
        shutil.copy(game_dir(run, "J") / "game.log", game / "game.log")
        run.host("host", port, "--resume", game.name[:8])
        run.join("J", port)
        run.wait_all(["host", "J"], deadline)
        check_game(run, ["host", "J"])
        assert "rebuilt" in said(run, "host")
    finally:
        run.kill_all()


# ------------------------------------------ 6. the bots a host started stay with it


def host_waited_for(run: Run, label: str, who: str) -> int:
    """The longest `waiting for WHO (N s)` the host has said so far (0: none)."""
    found = re.findall(rf"waiting for {who}\S* \((\d+) s\)", said(run, "host"))
    return max((int(n) for n in found), default=0)


@pytest.mark.parametrize("host", ["running", "gone"])
def test_a_bot_its_host_started_gives_up_on_nobody_while_that_host_runs(tmp_path: Path, host: str) -> None:
    """design.md §4: bots started by a host live as long as their host. J
    stops (SIGKILL: silent), and the host says so to the others after 2 s.
    B, a bot started with `--host-pid` naming a process that is its parent
    and runs (this test, as `ttr host` is for the bots it starts), outlasts
    its 3 s `--timeout` four times over without giving up; J comes back with the same command and the game
    ends. Had its host gone (a pid that is not its parent), B gives up on
    the silent seat as any scripted peer does."""
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port = free_port()
    host_pid = os.getpid() if host == "running" else 0  # pid 0 is never a parent
    try:
        # The host tells the others a seat is silent after 2 s (its relay
        # timeout); it gives up itself only after its 60 s --timeout.
        run.host("host", port, "--players", "3", "--relay-timeout", "2")
        run.up("host", deadline)
        run.join("J", port)
        run.start("B", command("join") + [f"127.0.0.1:{port}", "--as-bot", "--json", "--name", "B", "--data-dir",
                                          str(tmp_path / "B"), "--timeout", "3", "--host-pid", str(host_pid)])
        wait_for_entries(run, "host", 60, deadline)  # the game is under way
        kill(run, "J")
        if host == "gone":
            run.wait_said("B", "J sent no heartbeat", deadline)
            assert ended(run, "B") == 1
            return
        while host_waited_for(run, "host", "J") < 12:  # the table stalled on J for 4 of B's timeouts
            assert run.procs["B"].poll() is None, said(run, "B")[-2000:]
            assert time.monotonic() < deadline, "the table never stalled on J"
            time.sleep(0.05)
        assert run.procs["B"].poll() is None and "giving up" not in said(run, "B"), said(run, "B")[-2000:]
        run.join("J", port)  # back, with the same command
        run.wait_all(["host", "J", "B"], deadline)
        check_game(run, ["host", "J", "B"])
    finally:
        run.kill_all()
