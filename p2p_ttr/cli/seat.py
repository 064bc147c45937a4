"""Playing a networked seat to its end, and saying how it ended: the final
summary, the audit of the log, or why the game stopped. Shared by
`ttr host` and `ttr join`."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

from p2p_ttr.cli.front import Front
from p2p_ttr.client.endgame import breakdown
from p2p_ttr.client.networds import pauser_words
from p2p_ttr.local.summary import GameSummary, game_summary
from p2p_ttr.net.console import Console, Quit
from p2p_ttr.net.playerinput import RunLoop, Seen
from p2p_ttr.net.pause import Paused
from p2p_ttr.net.store import StoreError
from p2p_ttr.net.transport import TransportError
from p2p_ttr.table.table import Table


def summary_of(table: Table, log: Path) -> GameSummary:
    assert table.engine is not None and table.game_id is not None
    return game_summary(table.engine, [s.name for s in table.seats]).with_(
        game_id=table.game_id.hex(), digest=table.digest(), log=str(log))


def finish(args: argparse.Namespace, table: Table | None, log: Path, console: Console) -> None:
    """The line prompt's last words: the summary and the log, or, for a
    game that stopped short, only where its log is (said here alone: the
    words it stopped with do not name it)."""
    if table is None or table.engine is None:
        return
    if not table.complete:
        console.say(f"the signed log so far: {log} (`ttr verify {log}` audits it)")
        return
    summary = summary_of(table, log)
    if args.json:
        print(json.dumps(summary.to_json()), flush=True)
    else:
        from p2p_ttr.cli.commands.selfplay import render_summary

        lines = render_summary(summary).splitlines()
        lines[0] = f"Ticket to Ride: {summary.game} - {len(summary.players)} players, game {summary.game_id}"
        console.say("\n".join(lines))
        console.say(f"the signed log is {log} (`ttr verify {log}` audits it)")


def audit_lines(log: Path | None, named: bool = True) -> list[str]:
    """What `ttr verify` says of the log as it stands (``named``: and where it is)."""
    if log is None or not log.exists():
        return []
    from p2p_ttr.cli.commands.verify import report_lines
    from p2p_ttr.table.logfile import LogFileError, read_log
    from p2p_ttr.table.verify import verify_entries

    try:
        _, entries = read_log(log)
    except LogFileError as exc:
        return [f"the log cannot be read: {exc}"]
    return [f"audit of the {len(entries)} entries played" + (f" (log: {log}):" if named else ":")] + [
        # In this process (verify_entries' default): this peer runs threads (the
        # network, the screen), and a fork from a threaded process may copy a lock.
        "  " + line for line in report_lines(verify_entries(entries), False)]


def audit_so_far(log: Path | None, console: Console) -> None:
    """When a game is ended early: what the log so far shows, as `ttr verify` would."""
    for line in audit_lines(log):
        console.say(line)


def end_page(seen: Seen, log: Path | None, code: int) -> tuple[str, list[str]]:
    """The full screen's last page: the score in full and the audit, or why the game stopped."""
    table, seat, names = seen.table, seen.seat, seen.names
    if table is not None and table.engine is not None and table.complete:
        lines = breakdown(table.engine, names, seat) + ["", "AUDIT"] + audit_lines(log, named=False)
        return "The end", lines + ["", f"anyone can check it again: ttr verify {log}"]
    if table is None:  # stopped before any game: refused, or left the lobby
        title = "Not in a game" if code else "You left"
    else:
        title = "You left the game" if code == 0 else "The game stopped"
    # Why it stopped, in full (the page wraps it; the log pane may show only its end).
    lines = [seen.stopped] if seen.stopped else [f"{title.lower()} before its end: the log below says why"]
    if log is not None:
        lines.append(f"the signed log so far: {log} (`ttr verify {log}` audits it)")
    return title, lines


# A pause, and the command that resumes it (the cli knows the options it was run with).
Pausing = tuple[Callable[[], Paused | None], Callable[[Paused], str]]


def pause_page(paused: Paused, resume: str, log: Path | None) -> tuple[str, list[str]]:
    """Stopped for now: where, and the exact command that goes on."""
    at = f"turn {paused.turn}" if paused.turn is not None else "the start, before the first turn"
    game = paused.game_id.hex()[:8]
    if paused.ours and paused.carried_on_after is not None:
        # An escrow game does not wait for a seat that is gone: say so, not "paused".
        title = "You left for now"
        lines = [f"you left at {at} (game {game}): the game goes on without you; once you have been silent for "
                 f"{paused.carried_on_after:.0f} s the others carry your seat on (escrow) to the end",
                 f"come back with: {resume}", "(back in time you play on; later you watch the rest)"]
    elif paused.ours:
        title = "Paused"
        lines = [f"paused at {at} (game {game}): nothing is lost", f"resume with: {resume}"]
    else:
        by = pauser_words(paused.relay_name)
        title = f"{by[0].upper()}{by[1:]} paused the game"
        lines = [f"{by} paused the game at {at} (game {game}); it resumes with: {resume}",
                 f"(once {by} has resumed it; your cards and the log are kept here)"]
    return title, lines + ([f"the signed log so far: {log}"] if log is not None else [])


def play_seat(command: str, args: argparse.Namespace, front: Front, run: RunLoop, seen: Callable[[], Seen],
              log: Callable[[], Path | None], pausing: Pausing | None = None) -> int:
    """Play until the loop ends, then say how it ended (on the terminal,
    once any full screen is gone). A pause (``pausing``) is a normal end:
    it says how to resume, and the exit code is 0."""
    after = Console(quiet_stdout=args.json)

    def ending(code: int) -> tuple[str, list[str]]:
        paused = pausing[0]() if pausing is not None else None
        if pausing is not None and paused is not None:
            return pause_page(paused, pausing[1](paused), log())
        return end_page(seen(), log(), code)

    try:
        code = front.play(run, seen, ending)
        if not front.tells_ending:
            paused = pausing[0]() if pausing is not None else None
            if paused is not None:
                after.say("\n".join(ending(code)[1]))
            else:
                finish(args, seen().table, log() or Path("-"), after)
        return code
    except (StoreError, TransportError) as exc:
        after.say(f"ttr {command}: {exc}")
        return 1
    except Quit as exc:
        after.say(str(exc))
        audit_so_far(log(), after)
        return 1
