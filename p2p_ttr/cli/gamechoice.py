"""The `--board`, `--variant` and `--with` options every command that plays or scores a game takes, read in one place."""

from __future__ import annotations

import argparse

from p2p_ttr.cli.registry import UsageError
from p2p_ttr.engine.boards import BOARDS, EXPANSIONS, UnknownGame, load_game
from p2p_ttr.engine.game import Game


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--board", default="europe", metavar="BOARD",
                        help=f"the board to play: {', '.join(BOARDS)} (default europe; `ttr boards` lists them all)")
    parser.add_argument("--variant", default="", metavar="VARIANT",
                        help="a way to play the board, e.g. `--board usa --variant 1910` (`ttr boards` lists them)")
    parser.add_argument("--with", dest="expansions", action="append", default=[], choices=list(EXPANSIONS),
                        metavar="EXPANSION",
                        help="an expansion played with the board, again for another: "
                        + ", ".join(f"{name} ({e.title})" for name, e in EXPANSIONS.items()))


def game_from_arguments(args: argparse.Namespace, players: int | None = None) -> Game:
    """The game ``--board``, ``--variant`` and ``--with`` name, checked against
    ``players`` where given; UsageError naming what there is otherwise."""
    try:
        game = load_game(args.board, "+".join([args.variant] + args.expansions) if args.expansions else args.variant)
    except UnknownGame as exc:
        raise UsageError(str(exc)) from None
    rules = game.rules
    if players is not None and not rules.players_allowed(players):
        raise UsageError(f"--players must be {rules.min_players} to {rules.max_players} for {game.title}, not {players}")
    return game
