"""Escrow games under partition, with real processes on 127.0.0.1: every peer
reaches the others through its own SOCKS5 proxy (switchboard.py), so the
test cuts chosen pairs at chosen moments (seen in a log) — connections
reset, or held — and heals them later. Whatever the interleaving, at most
one game goes on (protocol.md §6, Relay, "Terms"): every log is a prefix of
one log, which verifies; a side that cannot go on says so and waits."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from switchboard import Switchboard
from test_net_escrow import NAMES, Watcher, log_of, start
from test_net_lan import DEADLINE_S, Run, free_port

from p2p_ttr.table.envelope import open_envelope
from p2p_ttr.table.messages import CarryOn, message_from_wire
from p2p_ttr.table.table import Table
from p2p_ttr.table.verify import verify_entries


def partitioned_game(run: Run, board: Switchboard, players: int) -> None:
    """An escrow game of ``players`` (seats in the order of NAMES), every
    peer's ROUTER behind the board: the joiners dial the host's front, and
    each advertises its own front in the log."""
    labels = ["host", *NAMES[1:players]]
    board.pids = lambda: {label: proc.pid for label, proc in run.procs.items()}
    real = {label: free_port() for label in labels}
    front = {label: board.front(label, real[label]) for label in labels}
    start(run, "host", real["host"], players, "--advertise", f"127.0.0.1:{front['host']}")
    run.up("host", time.monotonic() + DEADLINE_S)  # the board answers at once: a first join would find nothing
    run.join_in_order(labels[1:],
                      lambda label: start(run, label, front["host"], players, "--relay-port", str(real[label]),
                                          "--advertise", f"127.0.0.1:{front[label]}"),
                      time.monotonic() + DEADLINE_S)


def wait_until(run: Run, label: str, ready: object, deadline: float) -> Table:
    """Fold ``label``'s log as it grows until ``ready(table)``."""
    seen = Watcher(run, label)
    while True:
        assert time.monotonic() < deadline, f"{label}'s log never got there"
        table = seen.look()
        if ready(table):  # type: ignore[operator]
            return table
        time.sleep(0.05)


def one_game(run: Run, labels: list[str]) -> list[bytes]:
    """Every log is a prefix of the longest, which verifies: one game, not two."""
    logs = {label: log_of(run, label) for label in labels}
    full = max(logs.values(), key=len)
    for label, log in logs.items():
        assert log == full[: len(log)], f"{label}'s log forks from the game's at entry " + str(
            next(i for i, (a, b) in enumerate(zip(log, full)) if a != b))
    verdict = verify_entries(full)
    assert verdict.fair, [f.line() for f in verdict.findings]
    return full


def in_turns(table: Table) -> bool:
    return table.engine is not None and table.engine.turn >= 4 and not table.finished


def asked_to_carry(seat: int, by: int) -> object:
    """``ready`` once ``by`` asked the relay to carry ``seat`` on."""
    def ready(table: Table) -> bool:
        return any(open_envelope(raw).seat == by and isinstance(message_from_wire(open_envelope(raw).body), CarryOn)
                   and message_from_wire(open_envelope(raw).body) == CarryOn(seat) for raw in table.log[-8:])
    return ready


@pytest.mark.parametrize("how", ["reset", "hold"])
def test_a_joiner_cut_off_from_the_host_leaves_one_game(tmp_path: Path, how: str) -> None:
    """J2 loses the host (its connections reset, or held); the host and J1
    still reach each other, J1 and J2 too. Whoever takes the relay and
    whoever is carried on, one game is played to its end."""
    run, board = Run(tmp_path), Switchboard()
    deadline = time.monotonic() + DEADLINE_S
    try:
        partitioned_game(run, board, 3)
        wait_until(run, "host", in_turns, deadline)
        (board.reset if how == "reset" else board.hold)("host", "J2")
        run.wait_all(["host", "J1", "J2"], deadline)
        full = one_game(run, ["host", "J1", "J2"])
        table = verify_entries(full).table
        assert table.complete and len(table.carried_on) <= 1
    finally:
        (tmp_path / "switchboard.txt").write_text("\n".join(board.journal))
        board.close()
        run.kill_all()


def test_the_race_that_split_a_game_now_leaves_one(tmp_path: Path) -> None:
    """The interleaving that made two games, forced: J2 is cut off from the
    host (and cannot reach J1 yet); J1 asks the host to carry J2 on, and the
    instant that request crosses the board, nothing the host sends reaches J1
    any more and J2 can reach J1: the host
    may carry J2 on in its log, J1 never hears of it. J2 turns to J1, and J1
    takes the relay (J2's request is for J1's exact log, in term 0), then
    carries the silent host on with J2. The host's carry-on of J2 cannot
    complete without J1 (nor, with J2 gone, could it carry J1 on): its side
    goes no further and says why. Healed, it finds the hand-over, drops what
    only it held, is told it was carried on, and watches: one game."""
    run, board = Run(tmp_path), Switchboard()
    deadline = time.monotonic() + DEADLINE_S
    try:
        partitioned_game(run, board, 3)
        wait_until(run, "host", in_turns, deadline)
        def now_cut_j1_off() -> None:
            board.hold("host", "J1", both=False)  # J1 never hears the host's decision
            board.heal("J2", "J1")  # and only now can J2 turn to J1

        board.hold("J2", "J1", both=False)  # J1 must ask to carry J2 on before J2 can reach it
        board.when("J1", "host", b"\xa8carry_on", now_cut_j1_off)
        board.hold("host", "J2")
        wait_until(run, "J1", lambda t: bool(t.handovers) and 0 in t.carried_on, deadline)
        run.wait_said("host", "the game cannot go on for now", deadline)
        host = wait_until(run, "host", lambda t: True, deadline)
        assert not host.handovers and not host.carried_on  # the host's side went no further
        board.heal("host", "J1")
        board.heal("host", "J2")
        run.wait_all(["host", "J1", "J2"], deadline)
        table = verify_entries(one_game(run, ["host", "J1", "J2"])).table
        assert table.complete and table.relay == 1 and list(table.carried_on) == [0]
        said = run.said("host")
        assert "while we were away" in said and "your seat was carried on" in said
    finally:
        (tmp_path / "switchboard.txt").write_text("\n".join(board.journal))
        board.close()
        run.kill_all()


def test_a_table_split_in_halves_stalls_says_why_and_goes_on_when_healed(tmp_path: Path) -> None:
    """Four seats split two and two: the host and J1 | J2 and J3. Neither side
    can carry the other on (carrying one seat on takes every other seat in
    play), nor move the relay (that takes every seat but the relay): both
    stall and say so. J2 and J3 each lost the relay and turned to J1, its
    successor (the heal waits for both to have said so: which comes first,
    the host's word that they are silent or their turning, is a race).
    Healed, J1 holds both requests and takes the relay: the table plays on
    as one game, and no seat of the half that turned is carried on."""
    run, board = Run(tmp_path), Switchboard()
    deadline = time.monotonic() + DEADLINE_S + 60
    try:
        partitioned_game(run, board, 4)
        wait_until(run, "host", in_turns, deadline)
        for a in ("host", "J1"):
            for b in ("J2", "J3"):
                board.hold(a, b)
        for label in ("host", "J1"):
            run.wait_said(label, "J2 and J3 are silent at once", deadline)
        for label in ("J2", "J3"):
            run.wait_said(label, "turning to J1, who relays next", deadline)
        stalled = verify_entries(log_of(run, "host")).table
        assert not stalled.carried_on and not stalled.handovers  # the host's half went no further
        board.heal("host", "J2")
        board.heal("host", "J3")
        board.heal("J1", "J2")
        board.heal("J1", "J3")
        run.wait_all(["host", "J1", "J2", "J3"], deadline)
        table = verify_entries(one_game(run, ["host", "J1", "J2", "J3"])).table
        assert table.complete and set(table.carried_on) <= {0}
        if table.carried_on:  # the host, still cut off when the others moved on: it was told, and watched
            assert "your seat was carried on" in run.said("host")
    finally:
        (tmp_path / "switchboard.txt").write_text("\n".join(board.journal))
        board.close()
        run.kill_all()


def test_a_seat_that_turned_alone_is_back_in_the_game_when_the_split_heals(tmp_path: Path) -> None:
    """The other side of that race, forced: J2 is cut off from the host and
    from J1 and turns to J1; J3's messages no longer reach the host, but it
    hears the host, so it would never turn by itself. The host's side stalls
    (two seats silent at once). J2 still reaches J3: it shows J3 its signed
    request, J3 turns to J1 too (protocol.md §9, Hand-over, "A seat that
    turned alone"). Healed, J2 reaches J1, catches up from it, and J1 takes
    over with both requests: the relay moves, J2 plays on (it is not carried
    on), the host finds the hand-over and follows: one game."""
    run, board = Run(tmp_path), Switchboard()
    deadline = time.monotonic() + DEADLINE_S + 60
    try:
        partitioned_game(run, board, 4)
        wait_until(run, "host", in_turns, deadline)
        board.hold("host", "J2")
        board.hold("J1", "J2")
        board.hold("J3", "host", both=False)
        run.wait_said("J2", "turning to J1, who relays next", deadline)
        run.wait_said("J3", "J2 turned to J1 and showed us its signed request", deadline)
        run.wait_said("J1", "J3 lost the relay (Bot0) and follows us now", deadline)
        run.wait_said("host", "J2 and J3 are silent at once", deadline)
        stalled = verify_entries(log_of(run, "host")).table
        assert not stalled.carried_on and not stalled.handovers  # the host's side went no further
        board.heal("J1", "J2")  # J2 reaches the successor: J1 takes over with J2's and J3's requests
        run.wait_said("J1", "we relay from now on", deadline)
        board.heal("host", "J2")
        board.heal("J3", "host")
        run.wait_all(["host", "J1", "J2", "J3"], deadline)
        table = verify_entries(one_game(run, ["host", "J1", "J2", "J3"])).table
        assert table.complete and [(h.old, h.new) for h in table.handovers] == [(0, 1)]
        assert 2 not in table.carried_on and set(table.carried_on) <= {0}
        assert "your seat was carried on" not in run.said("J2")
    finally:
        (tmp_path / "switchboard.txt").write_text("\n".join(board.journal))
        board.close()
        run.kill_all()
