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
from test_net_lan import DEADLINE_S, Run, check_game, command, entries_in, free_port, wait_for_entries

from p2p_ttr.table.logfile import read_log
from p2p_ttr.table.table import Table
from p2p_ttr.table.verify import Verdict, verify_entries

RELAY_TIMEOUT = "2"
NAMES = ("Bot0", "J1", "J2", "J3", "J4")


def start(run: Run, label: str, port: int, players: int, *extra: str) -> None:
    common = ["--as-bot", "--json", "--data-dir", str(run.tmp / label), "--timeout", "60",
              "--relay-timeout", RELAY_TIMEOUT, *extra]
    if label == "host":
        run.start(label, command("host") + ["--bind", "127.0.0.1", "--port", str(port), "--players", str(players),
                                            "--escrow", *common])
    else:
        run.start(label, command("join") + [f"127.0.0.1:{port}", "--name", label, *common])


def game_of(run: Run, players: int) -> int:
    port = free_port()
    start(run, "host", port, players)
    for label in NAMES[1:players]:
        time.sleep(0.25)  # seats in join order
        start(run, label, port, players)
    return port


def verdict_of(run: Run, label: str) -> Verdict:
    (log,) = (run.tmp / label / "games").glob("*/game.log")
    verdict = verify_entries(read_log(log)[1])
    assert verdict.fair, [f.line() for f in verdict.findings]
    return verdict


def log_of(run: Run, label: str) -> list[bytes]:
    (log,) = (run.tmp / label / "games").glob("*/game.log")
    return read_log(log)[1]


def kill(run: Run, label: str) -> None:
    os.kill(run.procs[label].pid, signal.SIGKILL)
    run.procs[label].wait()


def when_table(run: Run, label: str, ready: Any, deadline: float) -> None:
    """Wait until ``ready(table)`` holds for ``label``'s log as it stands."""
    while True:
        assert time.monotonic() < deadline, f"{label}'s table never got there"
        assert run.procs[label].poll() is None, f"{label} ended early:\n{run.errors(label)[-2000:]}"
        try:
            table = Table()
            for raw in log_of(run, label):
                table.receive(raw)
        except Exception:
            table = None
        if table is not None and ready(table):
            return
        time.sleep(0.3)


def in_turns(table: Table) -> bool:
    return table.engine is not None and table.engine.turn >= 6


def drawing_privately(table: Table) -> bool:
    """Someone's private draw is under way: its shares are being published."""
    return table.engine is not None and table.engine.turn >= 3 and any(
        o.drawn for o in table.obligations())


def final_round(table: Table) -> bool:
    return table.engine is not None and table.engine.final_turns_left is not None


@pytest.mark.parametrize("when", ["turns", "setup", "private_draw", "final_round"])
def test_the_host_vanishes_for_good_and_the_others_finish(tmp_path: Path, when: str) -> None:
    """The host is SIGKILLed and never comes back: the next seat takes over the
    relay (every other seat's follow request), the others carry the host's
    seat on from escrow, and the game ends among them, every summary equal
    and every log verified, with the hand-over and the carry-on in it."""
    players = 5 if when == "turns" else 3
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    try:
        game_of(run, players)
        ready = {"turns": in_turns, "private_draw": drawing_privately, "final_round": final_round,
                 "setup": lambda t: t.escrow and len(t.escrowbook.deals) == t.n and not in_turns(t)}[when]
        when_table(run, "J1", ready, deadline)
        kill(run, "host")
        others = list(NAMES[1:players])
        run.wait_all(others, deadline)
        check_game(run, others)
        for label in others:
            verdict = verdict_of(run, label)
            assert [(h.old, h.new) for h in verdict.table.handovers] == [(0, 1)]
            assert list(verdict.table.carried_on) == [0]
        assert "we relay from now on" in run.errors("J1")
    finally:
        run.kill_all()
