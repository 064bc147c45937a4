"""`ttr selfplay`: bots play a whole game in this process; print what happened."""

from __future__ import annotations

import argparse
import json
import secrets
from pathlib import Path
from typing import Any

from p2p_ttr.cli.gamechoice import add_game_arguments, game_from_arguments
from p2p_ttr.cli.registry import Command, UsageError
from p2p_ttr.bots.levels import LEVELS, make_bot
from p2p_ttr.client.words import plural
from p2p_ttr.local.crypto_game import play_crypto_game
from p2p_ttr.local.game import play_local_game
from p2p_ttr.local.summary import GameSummary, game_summary
from p2p_ttr.table.logfile import write_log

BOT_NAMES = ("Anna", "Boris", "Chiara", "Dmitri", "Elena", "Farid")  # one per seat of the largest table (6)
SECRETS_NOTE = {
    "os": " (for the bots only: keys and deck from the OS random generator)",
    "seed": " (keys and deck too: a reproducible demo, not a proof)",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=4, help="number of players (default 4; the board says how many)")
    add_game_arguments(parser)
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="replay a game: same seed, same game (default: a random seed, printed). With --crypto the seed "
        "also makes every key, deck seed and the game id, so that log is only a demo: it proves nothing "
        "to anyone who knows the seed",
    )
    parser.add_argument("--json", action="store_true", help="end with one JSON object describing the game")
    parser.add_argument(
        "--bot-level",
        choices=LEVELS,
        default="medium",
        help="how well the bots play (default medium; random is the engine's benchmark bot)",
    )
    parser.add_argument(
        "--crypto",
        action="store_true",
        help="play with the mental-poker deck: every player is a separate peer with its own keys "
        "that sees only its own cards, exchanging only signed messages. Without --seed every key, "
        "deck seed, the game id and all proof randomness come from the OS random generator (the printed "
        "seed only drives the bots' choices, and does not replay the game); with --seed they all "
        "follow from it (a reproducible demo)",
    )
    parser.add_argument("--log", type=Path, help="with --crypto: write the signed game log here (for `ttr verify`)")


def run(args: argparse.Namespace) -> int:
    played = game_from_arguments(args, args.players)
    if args.log and not args.crypto:
        raise UsageError("--log needs --crypto (only a crypto game has a signed log)")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    names = BOT_NAMES[: args.players]
    bots = [make_bot(args.bot_level, seed * 7919 + p, names[p]) for p in range(args.players)]
    if args.crypto:
        # No secret may come from a seed that is printed: without --seed the
        # keys, deck seeds, game id and proof randomness come from the OS (the
        # seed drives only the bots); with --seed everything does (a demo).
        game = play_crypto_game(args.seed, bots, names, game=played)
        final = game.peers[0].table.engine
        assert final is not None and game.peers[0].table.game_id is not None
        summary = game_summary(final, names, seed).with_(
            game_id=game.peers[0].table.game_id.hex(), secrets="os" if args.seed is None else "seed")
        if args.log:
            write_log(args.log, game.peers[0].table.game_id, game.log)
            summary = summary.with_(log=str(args.log))
    else:
        summary = game_summary(play_local_game(played, args.players, seed, bots, record=False).final, names, seed)
    summary = summary.with_(bot_level=args.bot_level)
    if args.json:
        print(json.dumps(summary.to_json()))
    else:
        print(render_summary(summary))
        if args.log:
            print(f"the signed log is {args.log} (`ttr verify {args.log}` audits it)")
    return 0


def _conceded(summary: GameSummary) -> str:
    """How a conceded game ended (protocol.md §6, Conceded)."""
    if summary.conceded_to is None:
        return " - conceded: nobody was left playing; ranked by the usual count"
    return (f" - conceded: {summary.players[summary.conceded_to].name} was the last one playing and wins by "
            "concession; the others are ranked by the usual count")


def _column(title: str) -> str:
    """A score part's column header: its last word ('European Express' -> 'express')."""
    return title.split()[-1].lower()


def _width(title: str) -> int:
    return max(8, len(_column(title)) + 1)


def render_summary(summary: GameSummary) -> str:
    """A readable account of a finished game."""
    players = summary.players
    lines = [
        f"Ticket to Ride: {summary.game} - {len(players)} bots ({summary.bot_level or 'random'}), seed {summary.seed}"
        + SECRETS_NOTE.get(summary.secrets or "", ""),
        plural(summary.turns, 'turn') + (" - the game stalled: nobody could do anything" if summary.stalled else "")
        + (_conceded(summary) if summary.conceded else ""),
        "",
        f"{'':3}{'player':<8}{'total':>6}{'routes':>7}{'tickets':>8}{'done':>6}"
        + "".join(f"{_column(part.title):>{_width(part.title)}}" for part in players[0].parts)
        + f"{'longest':>8}{'trains':>7}",
    ]
    for place, p in enumerate(summary.ranking, start=1):
        pl, sc = players[p], players[p].score
        lines.append(
            f"{place:>2} {pl.name:<8}{sc.total:>6}{sc.routes:>7}{sc.tickets:>+8}"
            f"{sc.completed_tickets:>3}/{len(pl.tickets):<2}"
            + "".join(f"{part.points:>{_width(part.title)}}" for part in pl.parts)
            + f"{sc.longest_path:>8}{pl.trains_left:>7}"
        )
    for p in summary.ranking:
        pl = players[p]
        lines.append("")
        lines.append(f"{pl.name}: {plural(len(pl.routes), 'route')}, {plural(pl.trains_placed, 'train')} placed")
        for t in pl.tickets:
            mark = "done  " if t.completed else "missed"
            lines.append(f"  {mark} {t.a}-{t.b} ({t.points})")
        for city, route in pl.borrowed:
            lines.append(f"  station in {city} borrows {f'{route[0]}-{route[1]}' if route else 'nothing'}")
    lines += ["", f"{players[summary.winner].name} wins."]
    return "\n".join(lines)


COMMAND = Command(
    name="selfplay",
    help="watch bots play a whole game (no network)",
    description="Bots play a complete game of Ticket to Ride (Europe unless --board says) in this process "
    "and the result is printed. The same --seed always plays the same game. With --crypto and no "
    "--seed, every secret (keys, deck seeds, game id, proof randomness) comes from the OS random "
    "generator and the printed seed drives only the bots; with --seed the whole game, secrets "
    "included, follows from the seed: a demo whose log proves nothing to anyone who knows the seed.",
    add_arguments=add_arguments,
    run=run,
)
