"""The real `ttr watch` at 80x24 and `ttr replay` on the full screen, in a
pseudo-terminal (tmux), over a real 3-bot game: the watcher shows the
public table to the end page (score and audit); the replay of the log it
saved steps back and forth and shows the same end."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

from test_client_e2e import ROOT, Terminal, pytestmark, terminal  # noqa: F401 (the fixture, the skip)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_file(path: Path, timeout: float) -> str:
    end = time.monotonic() + timeout
    while not path.exists() or not path.read_text().strip():
        assert time.monotonic() < end, f"{path} never came"
        time.sleep(0.2)
    return path.read_text().strip()


def test_watch_at_80x24_then_replay_its_log(terminal: Terminal, tmp_path: Path) -> None:  # noqa: F811
    port = free_port()
    host = subprocess.Popen([sys.executable, "-m", "p2p_ttr.cli.main", "host", "--bots", "2", "--as-bot", "--name", "Bot0",
                             "--json",
                             "--bind", "127.0.0.1", "--port", str(port), "--data-dir", str(tmp_path / "host"),
                             "--timeout", "60"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        saved, done = tmp_path / "watched.log", tmp_path / "exit"
        terminal.start(f"cd {ROOT} && NO_COLOR=1 {sys.executable} -m p2p_ttr.cli.main watch 127.0.0.1:{port} --save {saved} "
                       f"--timeout 60 2>{tmp_path / 'stderr'}; echo $? > {done}; sleep 30", size=(80, 24))
        screen = terminal.wait_for(r"LAST TURN \(• the latest\)", timeout=60)
        for seen in ("Ticket to Ride: Europe", "watching", "PLAYERS", "1 red    Bot0", "2 blue   Bot1",
                     "3 green  Bot2", "FACE-UP  deck", "─ log ─", "q leaves"):
            assert seen in screen, seen
        assert "YOUR HAND" not in screen and "TICKETS" not in screen  # a watcher has no seat
        screen = terminal.wait_for(r"FINAL SCORE", timeout=240)
        out, _ = host.communicate(timeout=60)
        summary = json.loads(out.decode().strip().splitlines()[-1])
        winner = summary["players"][summary["winner"]]["name"]
        assert "The end" in screen and f" 1. {winner} " in screen  # the players' winner, first
        terminal.key("q")
        assert wait_file(done, 20) == "0"
        left = terminal.screen()  # the end stays in the scrollback once the screen is gone
        assert "AUDIT" in left or "VERIFIED" in left
        assert "Traceback" not in (tmp_path / "stderr").read_text()

        replay = terminal.other("replay")
        finished = tmp_path / "replay-exit"
        replay.start(f"cd {ROOT} && NO_COLOR=1 {sys.executable} -m p2p_ttr.cli.main replay {saved} --open 2>/dev/null; "
                     f"echo $? > {finished}; sleep 30")
        screen = replay.wait_for(r"replay · move 1 of (\d+)", timeout=60)
        moves = int(re.search(r"replay · move 1 of (\d+)", screen).group(1))  # type: ignore[union-attr]
        replay.key("End")
        screen = replay.wait_for(rf"move {moves} of {moves}")
        assert "the game is over" in screen and "HANDS AND TICKETS" in screen
        replay.key("Left")
        replay.wait_for(rf"move {moves - 1} of {moves}")
        replay.key("o")
        screen = replay.wait_for(r"o shows hands")
        assert "HANDS AND TICKETS" not in screen
        end = time.monotonic() + 60
        while "FINAL SCORE" not in replay.screen():  # the audit is worked out on a thread: ask until it is in
            assert time.monotonic() < end, replay.screen()
            replay.key("e")
            time.sleep(1.0)
        replay.key("q")
        assert wait_file(finished, 20) == "0"
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
