"""Escrow games over the network, with real processes on 127.0.0.1: a seat
whose process is SIGKILLed for good (the host's included) is carried on by
the others, the relay moves when it was the host, and the game finishes
with equal summaries and logs that verify (protocol.md §9, Hand-over;
§6, Escrow)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from test_net_lan import DEADLINE_S, Run, check_game, command, free_port, wait_for_entries

from p2p_ttr.client.phrases import changes
from p2p_ttr.engine.state import Phase
from p2p_ttr.engine.view import public_view
from p2p_ttr.table.logfile import LogFileError, read_log
from p2p_ttr.table.table import Table
from p2p_ttr.table.verify import Verdict, verify_entries

RELAY_TIMEOUT = "2"
NAMES = ("Bot0", "J1", "J2", "J3", "J4")


def start(run: Run, label: str, port: int, players: int, *extra: str) -> None:
    common = ["--as-bot", "--json", "--data-dir", str(run.tmp / label), "--timeout", "60",
              "--relay-timeout", RELAY_TIMEOUT, *extra]
    if label == "host":
        run.start(label, command("host") + ["--bind", "127.0.0.1", "--port", str(port), "--players", str(players),
                                            "--escrow", "--name", NAMES[0], *common])
    else:
        run.start(label, command("join") + [f"127.0.0.1:{port}", "--name", label, *common])


def game_of(run: Run, players: int) -> int:
    """A game of ``players`` with seats in the order of NAMES (each joiner starts once the one before is in)."""
    port = free_port()
    start(run, "host", port, players)
    run.up("host", time.monotonic() + DEADLINE_S)
    run.join_in_order(list(NAMES[1:players]), lambda label: start(run, label, port, players),
                      time.monotonic() + DEADLINE_S)
    return port


def verdict_of(run: Run, label: str) -> Verdict:
    (log,) = (run.tmp / label / "games").glob("*/game.log")
    verdict = verify_entries(read_log(log)[1])
    assert verdict.fair, [f.line() for f in verdict.findings]
    return verdict


def log_of(run: Run, label: str) -> list[bytes]:
    """``label``'s log as it stands (empty before the game)."""
    logs = list((run.tmp / label / "games").glob("*/game.log")) if (run.tmp / label / "games").exists() else []
    return read_log(logs[0])[1] if logs else []


def kill(run: Run, label: str) -> None:
    os.kill(run.procs[label].pid, signal.SIGKILL)
    run.procs[label].wait()


class Watcher:
    """``label``'s log folded as it grows (only the new entries each time)."""

    def __init__(self, run: Run, label: str) -> None:
        self.run, self.label = run, label
        self.table = Table()

    def fold(self, entries: list[bytes]) -> Table:
        for raw in entries[len(self.table.log):]:
            self.table.receive(raw)
        return self.table

    def look(self) -> Table:
        """The table after what ``label`` has written so far (a torn last
        entry, being written, is read on a later look)."""
        return self.fold(log_so_far(self.run, self.label))


def kill_the_host_when(run: Run, ready: Any, deadline: float, near: Any = None) -> None:
    """SIGKILL the host at a point of the game where ``ready(table)`` holds
    for the host's own log, once J1 (a survivor) holds all of that log too.

    The host's log is followed as the game runs until ``near(table)`` holds
    (by default ``ready`` itself); from there the host runs in short slices
    (SIGCONT, a few ms, SIGSTOP) and is looked at while it is stopped, so a
    short moment (a final round) cannot pass between two looks however
    slowly this process runs. ``near`` must hold a few turns before a short
    moment, so that following the log as it runs cannot miss it. A look
    while the host is stopped folds only what it wrote in one slice, and
    J1's log is only compared with it, not folded (the others take a host
    stopped for the relay timeout, 2 s, for gone)."""
    host, near = run.procs["host"], near or ready
    own = Watcher(run, "host")
    while not near(own.look()):
        assert time.monotonic() < deadline, "that point of the game never came"
        assert host.poll() is None, f"the host ended early:\n{run.errors('host')[-2000:]}"
        time.sleep(0.02)
    while True:
        assert time.monotonic() < deadline, "that point of the game never came"
        os.kill(host.pid, signal.SIGSTOP)
        assert host.poll() is None, f"the host ended early:\n{run.errors('host')[-2000:]}"
        if ready(own.look()):
            # J1 may not hold all the host sent yet: give it a moment, short
            # beside the relay timeout. It cannot hold more than the stopped host.
            catch_up = time.monotonic() + 0.3
            theirs = log_so_far(run, "J1")
            while len(theirs) < len(own.table.log) and time.monotonic() < catch_up:
                time.sleep(0.01)
                theirs = log_so_far(run, "J1")
            if theirs == own.table.log:
                os.kill(host.pid, signal.SIGKILL)
                host.wait()
                return
        assert not own.table.finished, "the host's game ended between two looks"
        os.kill(host.pid, signal.SIGCONT)
        time.sleep(0.01)


def told_from_now_on(seen: Watcher, entries: list[bytes], seat: int) -> tuple[list[str], list[tuple[int, ...]]]:
    """Fold the rest of ``entries`` into ``seen``: the moves in words, as the
    log pane and ``ttr replay`` tell them to a watcher, and what ``seat`` held
    after each of its turns (trains, stations left, tickets, cards)."""
    lines: list[str] = []
    held: dict[int, tuple[int, ...]] = {}
    names = tuple(s.name for s in seen.table.seats)
    for raw in entries[len(seen.table.log):]:
        before = seen.table.engine
        seen.table.receive(raw)
        after = seen.table.engine
        assert before is not None and after is not None
        lines += changes(public_view(before), public_view(after), None, names)
        if after.phase not in (Phase.TURN, Phase.TICKETS, Phase.TUNNEL):
            continue
        # The fold plays the seat inside the entry that ends the turn before
        # it, so its turns are counted (seats play in turn), not watched.
        first = (after.current - after.turn) % after.n_players
        done = sum(1 for t in range(after.turn) if (first + t) % after.n_players == seat)
        if after.current != seat or (after.phase is Phase.TURN and not after.cards_drawn and after.tunnel is None
                                     and after.awaiting is None):
            ps = after.players[seat]
            held.setdefault(done, (ps.trains, ps.stations_left, len(ps.tickets), len(ps.hand)))
    return lines, [held[t] for t in sorted(held)]


def check_the_caretaker(lines: list[str], held: list[tuple[int, ...]], name: str) -> None:
    """A seat the table plays moves toward the end each turn (trains or a
    station spent, a ticket kept, the hand grown; or, nothing else legal, a
    pass) and says what each tunnel turned up before it gives it up (issue
    43: it went for the same tunnel and gave it up every round, unsaid)."""
    passes = sum(1 for line in lines if line.startswith(f"{name} passed"))
    stuck = [(a, b) for a, b in zip(held, held[1:])
             if not (b[0] < a[0] or b[1] < a[1] or b[2] > a[2] or b[3] > a[3])]
    assert len(stuck) <= passes, (stuck, lines)
    mine = [i for i, line in enumerate(lines) if line.startswith(f"{name} ") or line.startswith("the tunnel turned")]
    for i, j in zip(mine, mine[1:]):
        if lines[i].startswith(f"{name} went for the tunnel "):
            route = lines[i].removeprefix(f"{name} went for the tunnel ").split(" (")[0]
            assert lines[j].startswith("the tunnel turned") or lines[j].startswith(f"{name} claimed {route}"), lines
        if lines[j].startswith(f"{name} gave up the tunnel"):
            assert lines[i].startswith("the tunnel turned"), lines


def log_so_far(run: Run, label: str) -> list[bytes]:
    """``label``'s log as it stands; empty while its last entry is torn (being written)."""
    try:
        return log_of(run, label)
    except LogFileError:
        return []


def in_turns(table: Table) -> bool:
    return table.engine is not None and table.engine.turn >= 6 and not table.finished


def drawing_privately(table: Table) -> bool:
    """Someone's private draw is under way: its shares are being published."""
    return table.engine is not None and table.engine.turn >= 3 and not table.finished and any(
        o.drawn for o in table.obligations())


def endgame(table: Table) -> bool:
    """Some player has 20 trains or fewer: the final round is at least three
    claims (three rounds) away, or under way."""
    return table.engine is not None and min(p.trains for p in table.engine.players) <= 20


def final_round(table: Table) -> bool:
    # (final_turns_left stays set, at 0, once the game is over: not that)
    return table.engine is not None and table.engine.final_turns_left is not None and not table.finished


@pytest.mark.parametrize("when", ["turns", "setup", "private_draw", "final_round"])
def test_the_host_vanishes_for_good_and_the_others_finish(tmp_path: Path, when: str) -> None:
    """The host is SIGKILLed and never comes back: the next seat takes over the
    relay (every other seat's follow request), the others carry the host's
    seat on from escrow, and the game ends among them, every summary equal
    and every log verified, with the hand-over and the carry-on in it."""
    players = 4 if when == "turns" else 3  # (five seats carry one on in process: tests/table/test_carry_on.py)
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    try:
        game_of(run, players)
        ready = {"turns": in_turns, "private_draw": drawing_privately, "final_round": final_round,
                 "setup": lambda t: t.escrow and len(t.escrowbook.deals) == t.n and t.engine is not None
                 and t.engine.turn == 0}[when]
        kill_the_host_when(run, ready, deadline, endgame if when == "final_round" else None)
        others = list(NAMES[1:players])
        run.wait_all(others, deadline)
        check_game(run, others)
        for label in others:
            verdict = verdict_of(run, label)
            assert [(h.old, h.new) for h in verdict.table.handovers] == [(0, 1)]
            assert list(verdict.table.carried_on) == [0]
        # Seat 1 is J1 unless the lobby dropped J1 for a silence under load and it came back last.
        assert "we relay from now on" in run.errors(verdict.table.seats[1].name)
    finally:
        run.kill_all()


def test_a_joiner_vanishes_is_carried_on_and_watches_when_it_comes_back(tmp_path: Path) -> None:
    """A joiner SIGKILLed mid-game is carried on by the others; run again, it
    is told its seat was carried on and watches the game to its end. The
    table plays the seat so that it cannot loop, and says what it did."""
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    try:
        port = game_of(run, 3)
        wait_for_entries(run, "J2", 60, deadline)
        kill(run, "J2")
        seen = Watcher(run, "host")
        while not seen.look().carried_on:
            assert time.monotonic() < deadline and run.procs["host"].poll() is None, run.errors("host")[-2000:]
            time.sleep(0.1)
        start(run, "J2", port, 3)
        run.wait_all(["host", "J1", "J2"], deadline)
        check_game(run, ["host", "J1", "J2"])  # every log verified
        assert "your seat was carried on by the others" in run.errors("J2")
        lines, held = told_from_now_on(seen, log_of(run, "host"), 2)
        assert list(seen.table.carried_on) == [2] and seen.table.finished
        assert held, "the table played none of the carried seat's turns"
        check_the_caretaker(lines, held, "J2")
        assert "J2 has been silent" in run.errors("host")
    finally:
        run.kill_all()


def test_two_hand_overs_and_a_seat_that_cannot_be_carried_on_comes_back(tmp_path: Path) -> None:
    """The host vanishes for good and is carried on; then J1, relaying by
    then, is killed. The relay moves again (J2 takes over, with J3's
    request), but J1 cannot be carried on: the host left, taking its share
    of J1's escrow with it. J2 and J3 say so and wait. J1 is started again
    with the same command: it finds the relay moved on without it, follows
    J2, and the three finish one game with the host's seat played by the
    table."""
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    try:
        port = game_of(run, 4)
        kill_the_host_when(run, in_turns, deadline)
        seen = Watcher(run, "J2")
        while not seen.look().carried_on:
            assert time.monotonic() < deadline and run.procs["J2"].poll() is None, run.errors("J2")[-2000:]
            time.sleep(0.1)
        wait_for_entries(run, "J2", len(seen.table.log) + 20, deadline)
        kill(run, "J1")
        for label in ("J2", "J3"):
            run.wait_said(label, "J1 is silent and cannot be carried on: Bot0 left the game", deadline)
        start(run, "J1", port, 4)  # the same command again
        run.wait_all(["J1", "J2", "J3"], deadline)
        check_game(run, ["J1", "J2", "J3"])
        verdict = verdict_of(run, "J3")
        assert [(h.old, h.new) for h in verdict.table.handovers] == [(0, 1), (1, 2)]
        assert list(verdict.table.carried_on) == [0]
    finally:
        run.kill_all()


def test_the_old_host_resumed_after_a_hand_over_rejoins_as_a_follower(tmp_path: Path) -> None:
    """The host is killed and the relay moves; `ttr host --resume` then finds
    the game moved on without it: it connects to the new relay, drops what
    only it held, and plays on (or watches, if its seat was carried on
    meanwhile). One game: every summary equal, every log verified."""
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    try:
        port = game_of(run, 3)
        kill_the_host_when(run, in_turns, deadline)
        seen = Watcher(run, "J1")
        while not seen.look().handovers:
            assert time.monotonic() < deadline and run.procs["J1"].poll() is None, run.errors("J1")[-2000:]
            time.sleep(0.1)
        (game,) = (tmp_path / "host" / "games").iterdir()
        start(run, "host", port, 3, "--resume", game.name[:8])
        run.wait_all(["host", "J1", "J2"], deadline)
        check_game(run, ["host", "J1", "J2"])
        assert "the relay moved from Bot0 to J1" in run.errors("host")
        for label in ("host", "J1", "J2"):
            assert [(h.old, h.new) for h in verdict_of(run, label).table.handovers] == [(0, 1)]
    finally:
        run.kill_all()


class Proxy:
    """A TCP relay in this process between one joiner and the host: cut, it
    makes the host unreachable from that joiner alone (the others still
    reach it). Loopback only."""

    def __init__(self, target: int) -> None:
        import socket
        import threading

        self.target = target
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen()
        self.port = self.listener.getsockname()[1]
        self.open: list[socket.socket] = []
        self.cut = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        import socket
        import threading

        while not self.cut:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target))
            self.open += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(a: Any, b: Any) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass

    def stop(self) -> None:
        import socket

        self.cut = True
        for s in [self.listener, *self.open]:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()


def test_a_host_alive_but_unreachable_from_one_joiner_makes_one_game_not_two(tmp_path: Path) -> None:
    """J3 reaches the host through a proxy, which is cut mid-game: the host
    is alive for everyone else. J3 turns to the successor (J1) and shows its
    signed request to J2, which turns too (protocol.md §9, "A seat that
    turned alone": the others turn, rather than the successor releasing it),
    so J1 takes over with every other seat's request and the host, alive,
    follows it. One game: every log is a prefix of the same log, the relay
    moved once, and nobody alive was carried on."""
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port = free_port()
    proxy = Proxy(port)
    try:
        start(run, "host", port, 4, "--advertise", f"127.0.0.1:{proxy.port}")  # the proxy is the host's own front
        run.up("host", deadline)
        run.join_in_order(["J1", "J2"], lambda label: start(run, label, port, 4), deadline)
        run.start("J3", command("join") + [f"127.0.0.1:{proxy.port}", "--name", "J3", "--as-bot", "--json",
                                           "--data-dir", str(tmp_path / "J3"), "--timeout", "30",
                                           "--relay-timeout", RELAY_TIMEOUT])
        wait_for_entries(run, "J3", 80, deadline)
        proxy.stop()
        run.wait_all(["host", "J1", "J2"], deadline)
        check_game(run, ["host", "J1", "J2"])
        verdict = verdict_of(run, "host")
        assert list(verdict.table.carried_on) == []
        assert [(h.old, h.new) for h in verdict.table.handovers] == [(0, 1)]
        full = log_of(run, "host")
        for label in ("J1", "J2", "J3"):
            mine = log_of(run, label)
            assert mine == full[: len(mine)], f"{label}'s log is not a prefix of the game's"
        assert "turning to J1, who relays next" in run.errors("J3")
    finally:
        proxy.stop()
        run.kill_all()
