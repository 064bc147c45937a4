"""The bots a host starts (each a `ttr join --as-bot` process of its own),
and the chores a host's loop does on its own thread between turns:
announcing the game, starting the next bot."""

from __future__ import annotations

import argparse
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import IO

from p2p_ttr.net.discovery import Announcement, Beacon
from p2p_ttr.net.playerinput import Input, InputClosed, PlayerChannel, RunLoop
from p2p_ttr.net.transport import format_address

BOT_NAMES = ("Bot1", "Bot2", "Bot3", "Bot4")
ANY_INTERFACE = ("0.0.0.0", "*", "")  # --bind values that listen on every interface


class WithChores:
    """A ``PlayerChannel`` that does a chore on every turn of the loop (on its
    thread) before handing over the player's input: announcing the game,
    starting the next bot. With no player (a bot host) there is input from
    nobody, and the chores go on once input is closed."""

    def __init__(self, player: PlayerChannel | None, chore: Callable[[], None]) -> None:
        self.player = player
        self.chore = chore

    def take(self) -> Input | None:
        self.chore()
        given = self.player.take() if self.player is not None else None
        if isinstance(given, InputClosed):
            self.player = None  # keep polling for the chores' sake
            return None
        return given

    def turned(self) -> None:
        if self.player is not None:
            self.player.turned()


def with_beacon(run: RunLoop, beacon: Beacon | None, announce: Callable[[], Announcement | None]) -> RunLoop:
    """The loop, announcing the game from its own thread on every turn."""
    if beacon is None:
        return run

    def beaconing(player: PlayerChannel | None) -> int:
        try:
            return run(WithChores(player, lambda: beacon.poll(announce)))
        finally:
            beacon.close()

    return beaconing


def bot_host(bind: str) -> str:
    """Where the bots on this machine reach the host."""
    return "127.0.0.1" if bind in ANY_INTERFACE else bind


def spawn_bot(name: str, host: str, port: int, data_dir: Path, level: str,
              args: argparse.Namespace, new_game: bool = False) -> subprocess.Popen[bytes]:
    """A bot's `ttr join`; ``new_game`` for a new game (the bot's data
    directory may hold an unfinished game of an earlier one)."""
    from p2p_ttr.cli.main import child_command  # p2p_ttr.cli.main imports this module

    cmd = [*child_command("join"), format_address(host, port), "--as-bot", "--name", name,
           "--data-dir", str(data_dir), "--bot-level", level, "--timeout", str(args.timeout),
           "--relay-timeout", str(args.relay_timeout), "--host-pid", str(os.getpid()),
           *(["--new"] if new_game else [])]
    out: IO[bytes] | int = subprocess.DEVNULL
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "level").write_text(level)  # so that a resumed game restarts it alike
    out = open(data_dir / "bot.out", "ab")
    return subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
