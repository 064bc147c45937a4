"""`ttr score`: final scores of games played on the physical board.

The input format and its checks live in :mod:`p2p_ttr.engine.tablegame`; the
rules in :mod:`p2p_ttr.engine.scoring`. This module only reads the input and
prints the results.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from p2p_ttr.cli.registry import Command, UsageError
from p2p_ttr.client.scorewords import part_words
from p2p_ttr.client.words import plural
from p2p_ttr.engine.board import Board, Ticket
from p2p_ttr.cli.gamechoice import add_game_arguments, game_from_arguments
from p2p_ttr.engine.countrytickets import start_name
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.markerpoints import city_marker_part
from p2p_ttr.engine.monsterpoints import monster_card_parts
from p2p_ttr.engine.monsters import chaos_places
from p2p_ttr.engine.sharemoves import sheet_share_parts
from p2p_ttr.engine.scoring import ExtraParts, GameScore, PlayerScore, deciding_tiebreak, score_game, score_parts
from p2p_ttr.engine.tablegame import (
    MAX_INPUT_BYTES,
    ScoreSheetError,
    TableGame,
    decode_input,
    parse_games,
)

_VALUE_COLUMN = 56  # where the right-aligned points end in the table

DESCRIPTION = """\
Score games played on the physical board. FILE (or standard input when FILE
is '-' or omitted) holds one game as a JSON object, or JSON Lines with one
game per line:
  {"players": [{"name": "Ann", "routes": [["Paris", "Frankfurt", "orange"]],
                "stations": ["Wien"], "tickets": [["Brest", "Petrograd"]]}, ...]}
Cities in either order, any letter case; the two sides of a gray double route
have the same name (the first player to name it gets one side, the next player
the other). Stations borrow whichever opponent routes score their owner most.
A Swiss country ticket (--board switzerland) is named by where its card starts
alone, a city or a country: "tickets": [["Zurich", "Vaduz"], ["Bern"], ["France"]].
Pennsylvania's shares, by company and number: "shares": {"PRR": [1, 3]} for a
player, and beside "players" the two-player dummy's revealed ones: "dummy": {"NYC": [1]}.
On France (--board france) a track bed is named in the colour of the piece it
was claimed on, and a ticket naming a country by its two ends: ["Toulouse", "Corse"].
Old West (--board oldwest) scores routes when they are claimed, to the owners
of the city markers on their ends: each player also gives the route points
their score track shows, "route_points": 31; the table shows what their own
routes are worth and, as "City markers", what the markers moved.
With Alvin & Dexter (--with monsters), beside "players" where the monsters
stood at the end, Alvin's first, "monsters": ["Paris", "Wien"], and for a
player the cards of each they hold, "monster_cards": [3, 1]: the tickets
naming a City in Chaos are halved, the most cards of each monster score 15.
"""


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument(
        "file", nargs="?", default="-", metavar="FILE", help="the games (default: stdin)"
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON line per game instead of a table"
    )
    add_game_arguments(parser)


def _run(args: argparse.Namespace) -> int:
    played = game_from_arguments(args)
    try:
        games = parse_games(played, decode_input(_read_input(args.file)))
    except ScoreSheetError as exc:
        raise UsageError(str(exc)) from None
    for number, game in enumerate(games, start=1):
        # A board's own parts written down: Pennsylvania's shares or Old West's in-play points (none has both).
        # (Alvin & Dexter plays with any board: its parts follow the board's own.)
        extra = both(sheet_share_parts(played, game.shares) or in_play_parts(game), sheet_monster_parts(played, game))
        result = score_game(played, game.claims, extra, chaos_places(played.board, game.monsters))
        if args.json:
            print(json.dumps(game_json(played, game, result)))
        else:
            title = f"Game {number}" if len(games) > 1 else "Game"
            print(render_table(played, game, result, title))
    return 0


def sheet_monster_parts(played: Game, game: TableGame) -> ExtraParts | None:
    """Alvin & Dexter's parts from the cards each player holds (None where not played)."""
    monsters = game.monsters
    if monsters is None:
        return None
    return lambda scores: monster_card_parts(monsters, played.rules.monster_points)


def both(first: ExtraParts | None, then: ExtraParts | None) -> ExtraParts | None:
    """The parts of ``first`` and then of ``then``, player by player (either may be None)."""
    if first is None or then is None:
        return first or then
    return lambda scores: [mine + more for mine, more in zip(first(scores), then(scores), strict=True)]


def in_play_parts(game: TableGame) -> ExtraParts | None:
    """Old West's City markers part from the route points each player scored in play (None elsewhere)."""
    if not game.route_points:
        return None
    return lambda scores: [(city_marker_part(points, score.routes, 0),)
                           for points, score in zip(game.route_points, scores, strict=True)]


def _read_input(path: str) -> bytes:
    """At most one byte more than the input limit, so decode_input can refuse it."""
    try:
        if path == "-":
            return sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        with open(path, "rb") as file:
            return file.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None


# --------------------------------------------------------------------------
# JSON output.


def game_json(played: Game, game: TableGame, result: GameScore) -> dict[str, Any]:
    """The --json form of one scored game (a bonus's column only where the game plays it)."""
    board = played.board
    owner = _route_owners(game)
    players = []
    for name, score in zip(game.names, result.players, strict=True):
        # Stations and the express are always there (0 where the game has none); the others where played.
        parts = {part.key: part.points for part in score_parts(played, score)}
        players.append(
            parts | {
                "name": name,
                "routes": score.routes,
                "tickets": score.tickets,
                "stations": score.stations,
                "stations_built": score.stations_built,
                "express": score.express,
                "total": score.total,
                "longest_path": score.longest_path,
                "completed_tickets": score.completed_tickets,
                "ticket_results": [
                    _ticket_named(board, board.tickets[t.ticket]) | {"points": t.points, "completed": t.completed}
                    | ({"halved": t.halved} if game.monsters is not None else {})
                    for t in score.ticket_results
                ],
                "borrowed": [
                    {
                        "station": city,
                        "route": None if r is None else _route_name(board, r),
                        "owner": None if r is None else game.names[owner[r]],
                    }
                    for city, r in score.borrowed
                ],
            }
        )
    return {"players": players, "ranking": list(result.ranking), "places": list(result.places)}


def _ticket_named(board: Board, ticket: Ticket) -> dict[str, str]:
    """A ticket as the input names it: its cities, or where a country ticket starts (and the card's words)."""
    if ticket.goals:
        return {"from": start_name(board, ticket), "ticket": ticket.label}
    return {"a": ticket.a, "b": ticket.b}


def _route_name(board: Board, route_id: int) -> list[str]:
    route = board.routes[route_id]
    return [route.a, route.b, route.color]


def _route_owners(game: TableGame) -> dict[int, int]:
    return {r: i for i, claim in enumerate(game.claims) for r in claim.routes}


# --------------------------------------------------------------------------
# The readable table.


def render_table(played: Game, game: TableGame, result: GameScore, title: str) -> str:
    """One scored game for people: each player's score sheet, then the ranking."""
    lines = [title, "=" * len(title)]
    owner = _route_owners(game)
    for player, (name, score) in enumerate(zip(game.names, result.players, strict=True)):
        lines.append("")
        lines.extend(_player_sheet(played, game, player, name, score, owner))
    lines.append("")
    lines.extend(_ranking_lines(game.names, result))
    return "\n".join(lines)


def _row(label: str, points: int, signed: bool = True) -> str:
    value = f"{points:+d}" if points and signed else str(points)
    return "  " + label.ljust(_VALUE_COLUMN - 2 - 5) + value.rjust(5)


def _player_sheet(
    played: Game,
    game: TableGame,
    player: int,
    name: str,
    score: PlayerScore,
    owner: dict[int, int],
) -> list[str]:
    board, rules = played.board, played.rules
    claim = game.claims[player]
    cars = sum(board.routes[r].length for r in claim.routes)
    lines = [name, "-" * len(name)]
    lines.append(_row(f"routes: {plural(len(claim.routes), 'route')}, {plural(cars, 'train')}", score.routes))
    for t in score.ticket_results:
        status = ("completed" if t.completed else "not completed") + (", halved" if t.halved else "")
        lines.append(_row(f"ticket {board.tickets[t.ticket].label} {status}", t.points))
    for city, r in score.borrowed:
        lines.append("  " + _borrow_text(board, game, city, r, owner))
    lines += [_row(part_words(part).earned(part, score, rules), part.points) for part in score_parts(played, score)]
    lines.append(_row("total", score.total, signed=False))
    return lines


def _borrow_text(
    board: Board, game: TableGame, city: str, route_id: int | None, owner: dict[int, int]
) -> str:
    if route_id is None:
        return f"station in {city} borrows nothing"
    route = board.routes[route_id]
    return (
        f"station in {city} borrows {city}-{route.other_end(city)} ({route.color}, "
        f"{game.names[owner[route_id]]}'s)"
    )


def _ranking_lines(names: Sequence[str], result: GameScore) -> list[str]:
    lines = ["Final ranking", "-------------"]
    width = max(len(n) for n in names)
    for position, player in enumerate(result.ranking):
        score = result.players[player]
        unit = "point " if score.total == 1 else "points"
        line = f"  {result.places[player]}. {names[player].ljust(width)}  {score.total:4d} {unit}"
        if position:
            ahead = result.ranking[position - 1]
            line += "   " + _why_behind(names[ahead], result, ahead, player)
        lines.append(line)
    winners = [names[p] for p in result.ranking if result.places[p] == 1]
    if len(winners) == 1:
        lines.append(f"Winner: {winners[0]}")
    else:
        lines.append("Winners, sharing first place: " + ", ".join(winners))
    return lines


def _why_behind(ahead_name: str, result: GameScore, ahead: int, behind: int) -> str:
    """Which tie-break put ``behind`` right after ``ahead``, in words."""
    a, b = result.players[ahead], result.players[behind]
    decider = deciding_tiebreak(a, b)
    theirs = f"{ahead_name}'s"
    if decider is None:
        place = result.places[ahead]
        return f"tied with {ahead_name} on every tie-break: shares place {place}"
    if decider == "points":
        return f"decided by points: {b.total} vs {theirs} {a.total}"
    if decider == "completed tickets":
        return (
            f"decided by completed tickets (tied on points): "
            f"{b.completed_tickets} vs {theirs} {a.completed_tickets}"
        )
    if decider == "fewer stations":
        return (
            "decided by stations built (tied on points and completed tickets; fewer wins): "
            f"{b.stations_built} vs {theirs} {a.stations_built}"
        )
    return (
        "decided by the European Express (tied on points, completed tickets and "
        f"stations built): {ahead_name} has it"
    )


COMMAND = Command(
    name="score",
    help="score games played on the physical board",
    add_arguments=_add_arguments,
    run=_run,
    description=DESCRIPTION,
)
