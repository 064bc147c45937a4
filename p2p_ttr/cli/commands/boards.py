"""`ttr boards`: the boards and their ways to play, with the player counts each allows."""

from __future__ import annotations

import argparse

from p2p_ttr.cli.registry import Command
from p2p_ttr.engine.boards import BOARDS, EXPANSIONS, NOT_AVAILABLE, load_game
from p2p_ttr.engine.cards import Deck
from p2p_ttr.engine.game import Game, TicketChoice
from p2p_ttr.engine.trackbeds import bed_map


def add_arguments(parser: argparse.ArgumentParser) -> None:
    del parser  # no options


def describe(game: Game) -> str:
    """One line: how to ask for the game, its players, and what sets it apart."""
    rules = game.rules
    bonuses = [f"{rules.longest_path_bonus} {rules.longest_path_points}"] if rules.longest_path_points else []
    if rules.globetrotter_points:
        bonuses.append(f"Globetrotter {rules.globetrotter_points}")
    if rules.grand_tour_points:
        bonuses.append("Grand Tour " + "/".join(str(p) for p in rules.grand_tour_points[1:]))
    if rules.most_cities_points:
        bonuses.append(f"{rules.most_cities_bonus} {rules.most_cities_points}")
    if rules.mountain_car_points:
        bonuses.append(f"mountain cars {rules.mountain_car_points} each")
    if game.board.stock_market is not None:
        bonuses.append(f"stock shares of {len(game.board.stock_market.companies)} railroads")
    if rules.technologies:
        bonuses.append(f"{len(rules.technologies)} technologies, any {rules.cards_per_locomotive} cards a locomotive")
    beds = bed_map(game)
    if beds is not None:
        bonuses.append(f"track beds ({sum(beds.pieces.values())} pieces)")
    if rules.city_markers:
        bonuses.append(f"{rules.city_markers} city markers each")
    if rules.alvin_city:
        bonuses.append(f"Alvin the Alien {rules.alvin_capture_points} a capture, {rules.alvin_end_points} at the end")
    setup, draw = rules.setup_tickets, rules.draw_tickets
    ask = f"--board {game.board_name}" + (f" --variant {game.variant}" if game.variant else "")
    return (f"  {game.title:<20} {ask:<34} {rules.min_players}-{rules.max_players} players, "
            f"{rules.trains} trains{f', {rules.stations} stations' if rules.stations else ''}; "
            f"tickets {setup.size} keep {setup.keep_min}{_long_limit(setup)}, draw {draw.size} keep {draw.keep_min}; "
            f"{', '.join(bonuses) or 'no bonus'}")


def _long_limit(setup: TicketChoice) -> str:
    """' (at most 1 of 2 long)' where the first offer limits the long tickets kept (Mega Europe)."""
    most = setup.keep_most(Deck.LONG)
    return "" if most is None else f" (at most {most} of {setup.dealt(Deck.LONG)} long)"


def run(args: argparse.Namespace) -> int:
    del args
    print("The boards (any command that plays takes --board and --variant):")
    for name, entry in BOARDS.items():
        for variant in entry.variants:
            print(describe(load_game(name, variant)))
    print("The expansions (--with NAME, with any board's variant; again for another):")
    for name, expansion in EXPANSIONS.items():
        not_on = "".join(f"; not on {BOARDS[board].title}: {why}" for board, why in expansion.not_on.items())
        print(f"  {expansion.title:<20} {'--with ' + name:<34} any board{not_on}")
    print("Not available here:")
    for missing in NOT_AVAILABLE.values():
        print(f"  {missing.title:<20} {missing.why}")
    return 0


COMMAND = Command(
    "boards",
    "list the boards and their variants, with the players each allows, and the expansions",
    add_arguments,
    run,
)
