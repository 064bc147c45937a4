"""`ttr watch [HOST[:PORT]]`: follow a LAN game as a watcher (no seat, no
secret): the public table on the full screen, made for a big screen; with
no address, find the games announced on the LAN and pick one."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from p2p_ttr.cli.commands.join import LISTEN_S, beacon_socket, where_to_dial
from p2p_ttr.cli.seatflags import seconds
from p2p_ttr.cli.registry import Command
from p2p_ttr.client.endgame import breakdown
from p2p_ttr.client.snapshot import Publisher
from p2p_ttr.local.summary import game_summary
from p2p_ttr.net.console import Console
from p2p_ttr.net.discovery import BEACON_PORT
from p2p_ttr.net.playerinput import Input, Seen
from p2p_ttr.net.watcher import WatchOptions, Watcher
from p2p_ttr.table.logfile import write_log
from p2p_ttr.table.table import Table

from .verify import audit_of


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("address", metavar="HOST[:PORT]", nargs="?",
                        help="the address of the game's host (as `ttr host` printed it) or of any of its players; "
                        "left out, games announced on the LAN are listed to pick from")
    parser.add_argument("--beacon", metavar="[ADDR:]PORT", default=str(BEACON_PORT),
                        help=f"where to listen for game announcements (UDP, default all addresses, port {BEACON_PORT})")
    parser.add_argument("--listen", type=seconds, default=LISTEN_S, metavar="SECONDS",
                        help=f"how long to listen for announcements (default {LISTEN_S:g})")
    parser.add_argument("--save", type=Path, metavar="FILE",
                        help="keep the game's log in FILE when watching ends (`ttr replay FILE` replays it, "
                        "`ttr verify FILE` audits it)")
    parser.add_argument("--timeout", type=seconds, default=120.0,
                        help="seconds without a word from any player before giving up (default 120)")
    parser.add_argument("--plain", action="store_true",
                        help="the moves in words, line by line, instead of the full screen (the default when not "
                        "on a terminal)")
    parser.add_argument("--json", action="store_true", help="end with one JSON object describing the game")
    parser.set_defaults(as_bot=False)  # a watcher is asked which game only at a terminal (where_to_dial)


class PlainWatch:
    """The watch loop's channel without a screen: each new line of the log in words, as it comes."""

    def __init__(self, seen: Callable[[], Seen], say: Callable[[str], None]) -> None:
        self.seen = seen
        self.say = say
        self.publisher = Publisher("watch")
        self.printed = 0

    def take(self) -> Input | None:
        self.turned()
        return None

    def turned(self) -> None:
        now = self.seen()
        snap = self.publisher.update(now.table, None, now.names)
        if snap is None or snap.noted == self.printed:
            return
        new = min(snap.noted - self.printed, len(snap.log))
        for _, text in snap.log[len(snap.log) - new:]:
            self.say(text)
        self.printed = snap.noted


def ending(watcher: Watcher, save: Path | None) -> tuple[str, list[str]]:
    """The last page: the score in full and the audit, or why watching stopped."""
    table, names = watcher.table, watcher.names
    kept = [f"the log is kept in {save} (`ttr replay {save}` replays it)"] if save is not None else []
    if watcher.paused is not None:
        paused = watcher.paused
        at = f"turn {paused.turn}" if paused.turn is not None else f"entry {paused.entries}"
        return "The game was paused", [f"the host paused the game at {at} (game {paused.game_id.hex()[:8]}); "
                                       f"watch it again once it resumes: ttr watch {watcher.where}", *kept]
    if table is not None and table.engine is not None and table.complete:
        return "The end", breakdown(table.engine, names) + ["", "AUDIT", *audit_of(table.log), "", *kept]
    held = f" ({len(table.log)} entries of the log held)" if table is not None else ""
    return "Stopped watching", [f"we stopped watching before the game's end{held}", *kept]


def save_log(table: Table | None, path: Path | None, say: Callable[[str], None]) -> None:
    if path is None or table is None or table.game_id is None:
        return
    try:
        write_log(path, table.game_id, list(table.log))
    except OSError as exc:
        say(f"ttr watch: cannot write {path}: {exc.strerror}")


def run(args: argparse.Namespace) -> int:
    beacon_socket(args.beacon)  # a bad --beacon is a usage error even with an address
    say = Console(quiet_stdout=args.json).say
    dialled = where_to_dial(args, say)
    if dialled is None:
        return 1
    host, port, host_key = dialled
    options = WatchOptions(host, port, args.timeout, host_key)
    if not (args.plain or args.json) and sys.stdin.isatty() and sys.stdout.isatty():
        from p2p_ttr.cli.tui.watchfront import WatchOnScreen  # prompt_toolkit only when a screen is wanted

        front = WatchOnScreen()
        watcher = Watcher(options, front.console)
        try:
            return front.watch(watcher.run, watcher.seen, lambda code: ending(watcher, args.save))
        finally:
            save_log(watcher.table, args.save, say)
    watcher = Watcher(options, Console(quiet_stdout=args.json))
    try:
        code = watcher.run(None if args.json else PlainWatch(watcher.seen, say))
    except KeyboardInterrupt:
        code = 130
    save_log(watcher.table, args.save, say)
    table = watcher.table
    if args.json:
        if table is not None and table.engine is not None and table.complete and table.game_id is not None:
            summary = game_summary(table.engine, watcher.names).with_(
                game_id=table.game_id.hex(), digest=table.digest(), log=str(args.save) if args.save else None)
            print(json.dumps(summary.to_json()), flush=True)
        return code
    title, lines = ending(watcher, args.save)
    say("\n".join([title, *lines]))
    return code


COMMAND = Command(
    name="watch",
    help="watch a LAN game on a shared screen (no seat: the public table)",
    description="Follow a LAN game without a seat: the map with every claim, the scores, trains, cards and "
    "tickets in hand, the face-up row, whose turn it is and the moves in words, on the full screen (made for a "
    "big one; 80x24 works too), then the final score and the audit. A watcher holds no secret and is sent "
    "nothing hidden; it follows the relay when it moves. With no address, pick one of the games announced on "
    "the LAN.",
    add_arguments=add_arguments,
    run=run,
)
