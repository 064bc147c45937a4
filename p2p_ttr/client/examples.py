"""The places and numbers help's examples and the refusals' 'e.g.' name,
for the game being played.

Europe keeps the words its help has always shown (Paris and Frankfurt, a
double route, white on one side). Any other board's are picked from its own
data, the same way every time: a double route whose sides differ in colour,
a route of four cars of one colour (paid with two of it and two
locomotives), its richest ticket for `path`. The numbers (tickets drawn,
the fewest kept) are the game's rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from p2p_ttr.engine.board import GRAY, Board, Route
from p2p_ttr.engine.game import Game

from .words import cities_matching, fold

NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")

# The words Europe's help has always used, kept as they were.
_EUROPE = {
    "a": "Paris", "b": "Frankfurt", "a_short": "par", "b_short": "fra", "side": "white",
    "c": "Essen", "d": "Berlin", "pay": "2 blue 2 loco",
    "station": "Wien", "station2": "Roma",
    "far": "Lisboa", "far2": "Danzig",
}


def number(n: int) -> str:
    """'three' for 3: counts in a sentence read as words up to ten."""
    return NUMBERS[n] if 0 <= n < len(NUMBERS) else str(n)


@cache
def example_words(game: Game) -> Mapping[str, str]:
    """What the ``{name}`` slots of the verbs' examples and summaries stand for in ``game``."""
    draw = game.rules.draw_tickets
    counts = {"drawn": number(draw.size), "kept": number(draw.keep_min), "doable": doable(game),
              "network": "routes, stations and longest trail" if game.rules.stations else "routes and longest trail",
              "per_locomotive": number(game.rules.cards_per_locomotive),
              # Warehouses and depots: a draw first sends the deck's top card to a warehouse (depotmoves.py).
              "draw_first": ("; it first asks which warehouse the deck's top card goes on, unseen (Enter: "
                             "yours; warehouse SEAT says it beforehand)" if game.rules.depots else ""),
              # One command, two games' Alvins: Old West's captured alien, or Alvin & Dexter's.
              "alvin_does": ("Alvin & Dexter: place Alvin at set-up, or move him before your turn's action "
                             "(1 locomotive: up to 3 cities away, 2: up to 6)" if game.rules.monster_cards
                             else "take Alvin the Alien, just captured, to one of your cities")}
    places = _EUROPE if game.board_name == "europe" else _places(game.board)
    return {**places, **counts}


def doable(game: Game) -> str:
    """What a turn may do, as 'nothing can be ...' says it."""
    return "drawn, claimed or built" if game.rules.stations else "drawn or claimed"


def _places(board: Board) -> dict[str, str]:
    coloured = [r for r in board.routes if r.color != GRAY] or list(board.routes)
    doubles = [r for r in coloured if r.twin is not None and board.routes[r.twin].color != r.color]
    double = doubles[0] if doubles else coloured[0]
    paid = next((r for r in coloured if r.length == 4), max(coloured, key=lambda r: r.length))
    cities = sorted(board.cities)
    richest = max(board.tickets, key=lambda t: t.points) if board.tickets else None
    far = (richest.a, richest.b) if richest is not None else (cities[0], cities[-1])
    return {
        "a": double.a, "b": double.b, "a_short": _short(board, double.a), "b_short": _short(board, double.b),
        "side": double.color, "c": paid.a, "d": paid.b, "pay": _payment(board, paid),
        "station": cities[0], "station2": cities[1 % len(cities)],
        "far": far[0], "far2": far[1],
    }


def _short(board: Board, city: str) -> str:
    """The shortest beginning of ``city``'s name, three letters or more, that names it alone."""
    key = fold(city)
    for n in range(3, len(key) + 1):
        if cities_matching(board, key[:n]) == [city]:
            return key[:n]
    return key


def _payment(board: Board, route: Route) -> str:
    """Cards that pay for ``route``: two locomotives and the rest of its colour, where it is long enough."""
    colour = route.color if route.color != GRAY else board.colors[0]
    return f"{route.length - 2} {colour} 2 loco" if route.length > 2 else f"{route.length} {colour}"
