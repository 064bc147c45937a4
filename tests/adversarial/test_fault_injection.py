"""Fault injection: real LAN games (127.0.0.1) in which the host and the
joiners are killed with SIGKILL at random points and restarted (`ttr host
--resume`, the same `ttr join`). Every game completes, every peer ends with
the same log and the same final state hash, every log verifies, and no
message is applied twice or skipped.

A quick subset runs by default (CI). The long run, with more seeds (each
seed picks the number of players and the kill schedule):

    pytest tests/adversarial/test_fault_injection.py --fault-seeds 50
    TTR_FAULT_SEEDS=50 pytest tests/adversarial/test_fault_injection.py
"""

from __future__ import annotations

import os
import random
import signal
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

from p2p_ttr.table.envelope import open_envelope
from p2p_ttr.table.logfile import read_log
from test_net_lan import Run, check_game, entries_in, free_port

QUICK_SEEDS = (1, 2)  # two 2-player games (the long run also seats 3, 4 and 5: players_of)
GAME_ENTRIES = 320  # about the length of a 2-player game; kills are spread over it


@dataclass(frozen=True)
class Kill:
    victim: str
    at: int  # when the host's log holds this many entries
    pause: float  # seconds the victim stays dead


def players_of(seed: int) -> int:
    """2 players by default (the quick seeds), 3 every third seed, 4 and 5 now and then."""
    if seed % 7 == 6:
        return 5
    if seed % 5 == 4:
        return 4
    return 3 if seed % 3 == 0 else 2


def plan(seed: int) -> tuple[list[str], list[Kill]]:
    rng = random.Random(seed)
    joiners = [f"J{i}" for i in range(1, players_of(seed))]
    points = sorted(rng.sample(range(1, GAME_ENTRIES), rng.randint(2, 4)))
    kills = [Kill(rng.choice(["host", *joiners]), at, rng.choice([0.0, 0.2, 0.6])) for at in points]
    return joiners, kills


def fault_seeds(config: pytest.Config) -> int | None:
    """--fault-seeds N (registered in conftest.py), else TTR_FAULT_SEEDS, else None."""
    chosen: int | None = config.getoption("--fault-seeds", default=None)
    if chosen is None and os.environ.get("TTR_FAULT_SEEDS"):
        chosen = int(os.environ["TTR_FAULT_SEEDS"])
    return chosen


def seeds(config: pytest.Config) -> list[int]:
    chosen = fault_seeds(config)
    return list(QUICK_SEEDS) if chosen is None else list(range(1, chosen + 1))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "fault_seed" in metafunc.fixturenames:
        metafunc.parametrize("fault_seed", seeds(metafunc.config))


def restart(run: Run, label: str, port: int) -> None:
    if label == "host":
        (game,) = (run.tmp / "host" / "games").iterdir()
        run.host("host", port, "--resume", game.name[:12])
    else:
        run.join(label, port)


def test_killed_and_resumed_peers_finish_the_same_game(fault_seed: int, tmp_path: Path) -> None:
    joiners, kills = plan(fault_seed)
    labels = ["host", *joiners]
    run = Run(tmp_path)
    deadline = time.monotonic() + 60 + 25 * len(kills)
    port = free_port()
    try:
        run.host("host", port, "--players", str(len(labels)))
        run.up("host", deadline)
        for j in joiners:
            run.join(j, port)
        done = []
        for kill in kills:
            while entries_in(tmp_path / "host") < kill.at and run.procs["host"].poll() is None:
                assert time.monotonic() < deadline, f"seed {fault_seed}: stuck before {kill}"
                time.sleep(0.01)
            if any(run.procs[label].poll() is not None for label in labels):
                break  # someone finished: the game is over
            run.procs[kill.victim].send_signal(signal.SIGKILL)
            run.procs[kill.victim].wait()
            time.sleep(kill.pause)
            restart(run, kill.victim, port)
            done.append(kill)
        assert done, f"seed {fault_seed}: the game ended before the first kill ({kills})"
        run.wait_all(labels, deadline)
        check_game(run, labels)  # same summary and state hash everywhere; every log verifies
        logs = [read_log(next((tmp_path / label / "games").glob("*/game.log")))[1] for label in labels]
        assert all(log == logs[0] for log in logs), f"seed {fault_seed}: the peers' logs differ"
        assert len(set(logs[0])) == len(logs[0]), f"seed {fault_seed}: an entry was applied twice"
        seqs: dict[int, list[int]] = defaultdict(list)
        for raw in logs[0]:
            env = open_envelope(raw)
            seqs[env.seat].append(env.seq)
        for seat, numbers in seqs.items():  # each seat's messages, every one once, none skipped
            assert numbers == list(range(1, len(numbers) + 1)), f"seed {fault_seed}: seat {seat} {numbers}"
    finally:
        run.kill_all()
