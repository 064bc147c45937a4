"""`ttr tournament`: bot levels play seeded games against each other; print how each did."""

from __future__ import annotations

import argparse
import json
import secrets
import sys

from p2p_ttr.cli.gamechoice import add_game_arguments, game_from_arguments
from p2p_ttr.cli.registry import Command, UsageError
from p2p_ttr.bots.levels import LEVELS
from p2p_ttr.client.numbering import seat_number
from p2p_ttr.local.tournament import GameRecord, TournamentResult, lineup_for, play_tournament

MAX_GAMES = 100_000
MAX_WORKERS = 64


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=2, help="players per game (default 2; the board says how many)")
    add_game_arguments(parser)
    parser.add_argument("--games", type=int, default=20, help="how many games (default 20)")
    parser.add_argument(
        "--bots",
        required=True,
        metavar="LEVEL,LEVEL,...",
        help=f"the level in each seat, comma-separated ({', '.join(LEVELS)}); "
        "fewer than --players are repeated in turn. Seats rotate every game.",
    )
    parser.add_argument("--seed", type=int, default=None, help="replay a tournament: same seed, same games (default: random)")
    parser.add_argument("--json", action="store_true", help="end with one JSON object of the results")
    parser.add_argument("--progress", action="store_true", help="print a line per game on stderr")
    parser.add_argument(
        "--workers", type=int, default=1,
        help="play this many games at once, each in its own process (default 1); the results do not change",
    )


def parse_levels(text: str, players: int) -> tuple[str, ...]:
    """The seat lineup from ``--bots``, or UsageError saying what is wrong."""
    levels = [part.strip().lower() for part in text.split(",")]
    if any(not level for level in levels):
        raise UsageError(f"--bots must be levels separated by commas, got {text!r}")
    unknown = [level for level in levels if level not in LEVELS]
    if unknown:
        raise UsageError(f"unknown bot level {unknown[0]!r} in --bots; choose from {', '.join(LEVELS)}")
    if len(levels) > players:
        raise UsageError(f"--bots names {len(levels)} levels but --players is {players}")
    return lineup_for(levels, players)


def run(args: argparse.Namespace) -> int:
    game = game_from_arguments(args, args.players)
    if not 1 <= args.games <= MAX_GAMES:
        raise UsageError(f"--games must be 1 to {MAX_GAMES}, not {args.games}")
    lineup = parse_levels(args.bots, args.players)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    if not 1 <= args.workers <= MAX_WORKERS:
        raise UsageError(f"--workers must be 1 to {MAX_WORKERS}, not {args.workers}")

    def progress(game: GameRecord) -> None:
        winner = ", ".join(game.seats[p] for p, place in enumerate(game.places) if place == 1)
        scores = ", ".join(f"seat {seat_number(p)} ({level}) {score}" for p, (level, score) in enumerate(zip(game.seats, game.scores)))
        print(f"game {game.index + 1}/{args.games} (seed {game.seed}): {winner} won; {scores}", file=sys.stderr)

    result = play_tournament(game, args.players, args.games, lineup, seed, on_game=progress if args.progress else None,
                             workers=args.workers)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(render(result))
    return 0


def render(result: TournamentResult) -> str:
    """A readable table: one row per level."""
    lines = [
        f"Tournament: {len(result.games)} games of {result.players} players, seed {result.seed}",
        f"Seats (rotating every game): {', '.join(result.lineup)}",
        "",
        f"{'level':<8}{'games':>7}{'win rate':>10}{'95% interval':>16}{'score':>8}{'tickets done':>14}"
        f"{'failed':>8}{'longest':>9}",
    ]
    for s in result.levels:
        lo, hi = s.win_interval()
        lines.append(
            f"{s.level:<8}{s.games:>7}{s.win_rate:>10.1%}{f'{lo:.1%}-{hi:.1%}':>16}{s.average(s.score):>8.1f}"
            f"{s.average(s.completed):>14.2f}{s.average(s.failed):>8.2f}{s.average(s.longest):>9.1f}"
        )
    lines += ["", "Win rate counts a shared win as a share; a level in several seats counts each seat."]
    return "\n".join(lines)


COMMAND = Command(
    name="tournament",
    help="play bot levels against each other and compare them",
    description="Bots of the given levels play seeded games of Ticket to Ride (Europe unless --board says) in this "
    "process (no network). Seats rotate every game so no level keeps the first seat; each "
    "deal is played once per rotation. Prints, per level: games, win rate, average score, "
    "completed and failed tickets, and longest path. The same --seed gives the same results.",
    add_arguments=add_arguments,
    run=run,
)
