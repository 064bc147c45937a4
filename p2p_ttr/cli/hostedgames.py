"""The games hosted from a data directory: which one `ttr host` resumes, and
the command that resumes it."""

from __future__ import annotations

import argparse
import shlex
import time
from collections.abc import Callable
from typing import Any

from p2p_ttr.cli.resumeflags import carried_flags
from p2p_ttr.net.store import DataDir, GameStore, StoreError
from p2p_ttr.net.transport import DEFAULT_PORT
from p2p_ttr.table.envelope import open_envelope
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.logfile import LogFileError, read_log
from p2p_ttr.table.messages import Seating, message_from_wire

LATEST = "latest"  # `--resume` with no game: the unfinished game hosted from here most recently


def resume_command(game: str, port: int, args: argparse.Namespace, defaults: dict[str, Any]) -> str:
    """The command that resumes ``game``: same port (the joiners know it),
    same address, same data, and every flag given that still applies
    (``defaults``: the command's own, to leave out those not given)."""
    words = ["ttr", "host", "--resume", game[:8]]
    if port != DEFAULT_PORT:
        words += ["--port", str(port)]
    if args.bind != "0.0.0.0":
        words += ["--bind", shlex.quote(args.bind)]
    if args.data_dir:
        words += ["--data-dir", shlex.quote(str(args.data_dir))]
    return " ".join(words + carried_flags(args, defaults))


def seating_of(entries: list[bytes]) -> Seating | None:
    """The seating (entry 0) of a log, read without folding it."""
    try:
        seating = message_from_wire(open_envelope(entries[0]).body) if entries else None
    except (TableError, IndexError, TypeError, ValueError):
        return None
    return seating if isinstance(seating, Seating) else None


def describe(game: GameStore) -> str:
    """One line about a game hosted from here: id, players, length, when last played."""
    try:
        _, entries = read_log(game.log_path)
    except (OSError, LogFileError):
        return f"{game.game_id.hex()[:8]}  (its log cannot be read)"
    seating = seating_of(entries)
    names = ", ".join(s.name for s in seating.seats) if seating is not None else ""
    try:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(game.log_path.stat().st_mtime))
    except OSError:
        when = "?"
    return f"{game.game_id.hex()[:8]}  {names or '?'}; {len(entries)} entries, last played {when}"


def listing(data: DataDir) -> str:
    games = resumable(data)
    if not games:
        return f"no unfinished game was hosted from {data.path}"
    return (f"the unfinished games hosted from {data.path}, the latest first:\n"
            + "\n".join(f"  {describe(g)}" for g in games))


def resumable(data: DataDir, say: Callable[[str], None] | None = None) -> list[GameStore]:
    """The unfinished games hosted from here that there is something to
    resume of: a game whose first entry was never written (the disk was
    full) reached nobody, and is left out (said, if ``say``)."""
    games = []
    for game in data.unfinished("host"):
        if game.never_started():
            if say is not None:
                say(f"game {game.game_id.hex()[:8]} hosted from here never started (its first entry was never "
                    "written: nothing of it reached anyone): it is not resumed")
        else:
            games.append(game)
    return games


def chosen_game(data: DataDir, wanted: str) -> str:
    """The full id of the game ``--resume`` names (LATEST: the latest unfinished one)."""
    if wanted == LATEST:
        games = resumable(data)
        if not games:
            raise StoreError(f"no unfinished game was hosted from {data.path}: `ttr host` starts a new one")
        return games[0].game_id.hex()
    prefix = wanted.lower()
    if not prefix or len(prefix) > 32 or any(c not in "0123456789abcdef" for c in prefix):
        raise StoreError(f"--resume {wanted[:40]!r}: a game is named by its id in hex (or a unique prefix); "
                         + listing(data))
    try:
        return data.find_game(prefix).game_id.hex()
    except StoreError as exc:
        raise StoreError(f"{exc}; {listing(data)}") from None


def bots_of(data: DataDir, game: GameStore) -> int:
    """How many of the game's seats are bots this host started (each keeps its folder under bots/)."""
    return sum(1 for _ in (data.path / "bots").glob(f"*/games/{game.game_id.hex()}"))


def misfits(data: DataDir, game: GameStore, args: argparse.Namespace) -> list[str]:
    """The flags given for a new game that the unfinished ``game`` does not
    fit (resumed, it keeps its own players, bots and escrow), in words."""
    try:
        seating = seating_of(read_log(game.log_path)[1])
    except (OSError, LogFileError):
        return []
    if seating is None:
        return []
    players, bots = len(seating.seats), bots_of(data, game)
    wrong = []
    if args.players and args.players != players:
        wrong.append(f"--players {args.players} (it has {players})")
    if args.bots and args.bots != bots:
        wrong.append(f"--bots {args.bots} (it has {bots})")
    if args.escrow and not seating.escrow:
        wrong.append("--escrow (it has none)")
    return wrong


def new_game_command(args: argparse.Namespace) -> str:
    """The `ttr host --new ...` that starts the game these flags describe."""
    words = ["ttr", "host", "--new"]
    for flag in ("players", "bots"):
        if getattr(args, flag):
            words += [f"--{flag}", str(getattr(args, flag))]
    if args.escrow:
        words.append("--escrow")
    if args.data_dir:
        words += ["--data-dir", shlex.quote(str(args.data_dir))]
    return " ".join(words)


def resume_or_new(data: DataDir, game: GameStore, args: argparse.Namespace, say: Callable[[str], None],
                  ask: Callable[[str], str] | None) -> bool:
    """True: resume ``game``; False: start a new game. Only asked when the
    flags given do not fit it: at a terminal the player answers; a script
    resumes, saying what the flags do not change and how to get the new game."""
    wrong = misfits(data, game, args)
    if not wrong:
        return True
    gid = game.game_id.hex()[:8]
    what = ", ".join(wrong)
    if ask is None:
        say(f"game {gid} hosted from here is not finished: resuming it as it is; {what} do not apply to it "
            f"(`{new_game_command(args)}` starts a new game with them instead)")
        return True
    say(f"game {gid} hosted from here is not finished ({describe(game)[10:]}), and {what} do not fit it")
    while True:
        try:
            answer = ask("resume it (r), or start a new game with your flags (n)? ").strip().lower()
        except EOFError:
            raise StoreError(f"no answer: `ttr host --resume {gid}` resumes game {gid}; "
                             f"`{new_game_command(args)}` starts a new one") from None
        if answer in ("r", "resume"):
            return True
        if answer in ("n", "new"):
            return False
        say("type r to resume it, or n for a new game")


def unfinished_game(data: DataDir, say: Callable[[str], None], ask: Callable[[str], str] | None,
                    args: argparse.Namespace | None = None) -> str | None:
    """The game to resume when `ttr host` is run without --resume: the one
    unfinished game hosted from here, if any; with several, the one the
    player picks (``ask`` is None when nobody can answer). Starting a new
    game over it would put its joiners, still running, into a game they
    never chose. Flags given for a new game (``args``) that do not fit it
    are never ignored in silence (``resume_or_new``)."""
    games = resumable(data, say)
    if not games:
        return None
    if len(games) == 1:
        if args is not None and misfits(data, games[0], args):
            return games[0].game_id.hex() if resume_or_new(data, games[0], args, say, ask) else None
        game = games[0].game_id.hex()
        say(f"game {game[:8]} hosted from here is not finished: resuming it (`ttr host --new` starts another)")
        return game
    if ask is None:
        raise StoreError(f"{len(games)} unfinished games were hosted from here; {listing(data)}\n"
                         "name one with --resume GAME (--resume alone takes the latest), "
                         "or start another with --new")
    say(f"{len(games)} games hosted from {data.path} are not finished, the latest first:")
    for i, g in enumerate(games, 1):
        say(f"  {i}) {describe(g)}")
    while True:
        try:
            answer = ask(f"resume which (1-{len(games)}, Enter for 1, n for a new game)? ").strip().lower()
        except EOFError:
            raise StoreError("no game chosen: name one with --resume GAME, or start another with --new") from None
        if answer in ("n", "new"):
            return None
        if not answer:
            answer = "1"
        if answer.isdigit() and 1 <= int(answer) <= len(games):
            game = games[int(answer) - 1].game_id.hex()
            say(f"resuming game {game[:8]}")
            return game
        say(f"type a number from 1 to {len(games)}, or n")
