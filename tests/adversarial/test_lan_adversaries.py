"""Malicious processes on a real LAN game (127.0.0.1): a joiner that sends
every cheat it can on its real connection, a joiner that stops sending what
it owes, and a host that shows a joiner another log. Honest processes never
crash; refused cheats never reach anybody's log."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from evil import BATTERY, DROPPED
from malicious import CHEATS
from p2p_ttr.net.seqsig import EquivocationProof
from test_net_lan import DEADLINE_S, Run, check_game, command, free_port

EVIL = Path(__file__).resolve().parent / "evil.py"


def evil(role: str, cheat: str, report: Path, *args: str) -> list[str]:
    return [sys.executable, str(EVIL), role, cheat, str(report), *args]


def joiner_args(run: Run, label: str, port: int, timeout: int = 60) -> list[str]:
    return [f"127.0.0.1:{port}", "--as-bot", "--json", "--name", label, "--data-dir", str(run.tmp / label),
            "--timeout", str(timeout)]


def host_args(run: Run, label: str, port: int, timeout: int = 60) -> list[str]:
    return ["--bind", "127.0.0.1", "--port", str(port), "--as-bot", "--json", "--players", "2",
            "--data-dir", str(run.tmp / label), "--timeout", str(timeout)]


def test_every_cheat_sent_over_the_network_is_refused_and_the_game_is_unharmed(tmp_path: Path) -> None:
    run = Run(tmp_path)
    deadline = time.monotonic() + DEADLINE_S
    port = free_port()
    report = tmp_path / "answers.json"
    try:
        run.host("host", port, "--players", "2")
        time.sleep(0.2)
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
        time.sleep(0.2)
        run.start("Walt", evil("join", "withhold", tmp_path / "unused", *joiner_args(run, "Walt", port)))
        code = run.procs["host"].wait(timeout=max(1.0, deadline - time.monotonic()))
        said = run.errors("host")
        assert code == 1, said
        assert "waiting for Walt (" in said
        assert "no progress for 6 s (waiting for Walt)" in said
        assert run.procs["Walt"].poll() is None  # it stalls; it did not crash
    finally:
        run.kill_all()


def test_a_host_that_shows_a_joiner_another_log_is_caught_with_a_proof(tmp_path: Path) -> None:
    run = Run(tmp_path)
    deadline = time.monotonic() + 30
    port = free_port()
    try:
        run.start("host", evil("host", "equivocate", tmp_path / "unused", *host_args(run, "host", port, timeout=8)))
        time.sleep(0.2)
        run.start("Vic", command("join") + joiner_args(run, "Vic", port, timeout=3))
        code = run.procs["Vic"].wait(timeout=max(1.0, deadline - time.monotonic()))
        said = run.errors("Vic")
        assert code == 1, said
        proofs = list((tmp_path / "Vic" / "games").glob("*/equivocation-*.bin"))
        assert "equivocated" in said and len(proofs) == 1, said[-1500:]
        assert EquivocationProof.from_bytes(proofs[0].read_bytes()).valid()
    finally:
        run.kill_all()
