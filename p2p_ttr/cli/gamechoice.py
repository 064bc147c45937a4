"""The `--board` and `--variant` options every command that plays a game takes, read in one place."""

from __future__ import annotations

import argparse

from p2p_ttr.cli.registry import UsageError
from p2p_ttr.engine.boards import BOARDS, UnknownGame, load_game
from p2p_ttr.engine.game import Game


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--board", default="europe", metavar="BOARD",
                        help=f"the board to play: {', '.join(BOARDS)} (default europe; `ttr boards` lists them all)")
    parser.add_argument("--variant", default="", metavar="VARIANT",
                        help="a way to play the board, e.g. `--board usa --variant 1910` (`ttr boards` lists them)")


def game_from_arguments(args: argparse.Namespace, players: int | None = None) -> Game:
    """The game ``--board`` and ``--variant`` name, checked against ``players``
    where given; UsageError naming what there is otherwise."""
    try:
        game = load_game(args.board, args.variant)
    except UnknownGame as exc:
        raise UsageError(str(exc)) from None
    rules = game.rules
    if players is not None and not rules.players_allowed(players):
        raise UsageError(f"--players must be {rules.min_players} to {rules.max_players} for {game.title}, not {players}")
    return game
