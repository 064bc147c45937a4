"""`ttr replay LOG`: a finished or paused game's log, replayed move by move
on the watcher's screen; `--open` shows every hand and ticket once the
audit has opened every secret."""

from __future__ import annotations

import argparse
import json
import sys
import threading
from pathlib import Path

from p2p_ttr.cli.registry import Command
from p2p_ttr.client.endgame import breakdown
from p2p_ttr.client.replay import LogReplay, replay
from p2p_ttr.client.spectator import open_hand_lines
from p2p_ttr.client.styled import text_of
from p2p_ttr.local.summary import game_summary
from p2p_ttr.table.logfile import LogFileError, read_log

from .verify import audit_of

DEFAULT_SPEED = 2.0


def speed(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of moves a second") from None
    if not 0.1 <= value <= 50:
        raise argparse.ArgumentTypeError(f"{text!r}: give 0.1 to 50 moves a second")
    return value


def turn_number(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a turn (1 for the first)")
    return int(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", type=Path, metavar="LOG", help="a game log: a player's games/GAME/game.log, `ttr watch --save`'s, or "
                        "`ttr selfplay --crypto --log`'s")
    parser.add_argument("--open", action="store_true",
                        help="show every hand and ticket at every moment (a finished game: its audit revealed every "
                        "secret)")
    parser.add_argument("--turn", type=turn_number, metavar="N", help="start at turn N (default the first move)")
    parser.add_argument("--speed", type=speed, default=DEFAULT_SPEED, metavar="MOVES",
                        help=f"moves a second when playing (space plays; default {DEFAULT_SPEED:g})")
    parser.add_argument("--plain", action="store_true",
                        help="print the whole game in words instead of the full screen (the default when not on a "
                        "terminal)")
    parser.add_argument("--json", action="store_true", help="print one JSON object describing how the game ended")


class TheEnd:
    """The score in full and the audit, worked out on a thread of its own (the audit takes seconds)."""

    def __init__(self, played: LogReplay, entries: list[bytes]) -> None:
        self.played = played
        self.entries = entries
        self.page: tuple[str, list[str]] | None = None
        threading.Thread(target=self._work, name="ttr-audit", daemon=True).start()

    def _work(self) -> None:
        self.page = end_page(self.played, self.entries)

    def __call__(self) -> tuple[str, list[str]]:
        return self.page or ("The score", ["the audit of the log is being worked out: press e again in a moment"])


def end_page(played: LogReplay, entries: list[bytes]) -> tuple[str, list[str]]:
    """How the log ends: the score in full (if the game is over) and the audit."""
    table = played.table
    lines = [played.stopped, ""] if played.stopped else []
    if table.engine is not None and table.engine.over:
        lines += breakdown(table.engine, played.names) + [""]
    else:
        lines += [f"the log ends before the game's end ({played.where(len(played.moves) - 1)})", ""]
    return "The end", lines + ["AUDIT", *audit_of(entries)]


def run(args: argparse.Namespace) -> int:
    try:
        _, entries = read_log(args.log)
    except LogFileError as exc:
        print(f"ttr replay: {exc}", file=sys.stderr)
        return 2
    print(f"reading the game in {args.log} ({len(entries)} entries)...", file=sys.stderr, flush=True)
    played = replay(entries)
    if not played.moves:
        print(f"ttr replay: {args.log} holds no move: {played.stopped or 'the game never began'}", file=sys.stderr)
        return 1
    if args.open and not played.can_open:
        print("ttr replay: --open needs a finished game whose every seat revealed its secrets (its audit); "
              "this log does not reveal them all", file=sys.stderr)
        return 1
    at = played.move_of_turn(args.turn) if args.turn else 0
    if args.json:
        return print_json(played)
    if not args.plain and sys.stdin.isatty() and sys.stdout.isatty():
        from p2p_ttr.cli.tui.watchfront import replay_on_screen  # prompt_toolkit only when a screen is wanted

        return replay_on_screen(played, at, args.open, args.speed, TheEnd(played, entries))
    # In words each move is told under the turn it was made in: start at the first made in turn N.
    print_plain(played, played.first_made_in(args.turn) if args.turn else 0, args.open)
    title, lines = end_page(played, entries)
    print("\n".join(["", title, *lines]))
    return 0


def print_plain(played: LogReplay, at: int, opened: bool) -> None:
    """Every move from ``at`` on, in words (with every hand, ``opened``)."""
    told = played.moves[at - 1].snap.noted if at else 0
    for i in range(at, len(played.moves)):
        snap = played.snapshot(i, opened)
        new = min(snap.noted - told, len(snap.log))
        told = snap.noted
        print(f"[{played.where(i)} · turn {played.made_in(i)}]")
        if not new:  # only the first move, the deal: every later one begins with a line told
            print("  the cards are dealt and the tickets offered")
        for _, text in snap.log[len(snap.log) - new:]:
            print(f"  {text}")
        if opened and snap.view is not None:
            for line in open_hand_lines(snap.view, played.names, 1 << 16)[1:]:
                print(f"    {text_of(line).strip()}")


def print_json(played: LogReplay) -> int:
    table = played.table
    engine = table.engine
    out: dict[str, object] = {"entries": played.entries, "moves": len(played.moves), "over": bool(engine and engine.over),
                              "stopped": played.stopped or None}
    if engine is not None and engine.over and table.game_id is not None:
        out["summary"] = game_summary(engine, played.names).with_(game_id=table.game_id.hex(),
                                                                   digest=table.digest()).to_json()
    print(json.dumps(out), flush=True)
    return 0


COMMAND = Command(
    name="replay",
    help="replay a game's log move by move (every hand open once the audit opened them)",
    description="Step through a finished or paused game's log on the watcher's screen: the next and previous "
    "move, a turn, playing at a chosen speed, the end (the score and the audit). With --open, a finished game "
    "whose audit revealed every secret is shown with every hand and ticket at every moment.",
    add_arguments=add_arguments,
    run=run,
)
