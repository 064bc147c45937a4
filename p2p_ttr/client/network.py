"""One player's network: their routes, stations and longest trail, and the
`map SEAT` command that shows it alone on the map (and in words, where
there is no map)."""

from __future__ import annotations

from functools import lru_cache

from p2p_ttr.engine.board import Board
from p2p_ttr.engine.scoring import longest_trail
from p2p_ttr.engine.state import GameState

from .numbering import seat_number
from .outcomes import Context, Outcome, Refused, ShowNetwork
from .words import BOARD, DASH, fold, plural, seat_colour, who

EVERYONE = ("all", "off", "everyone")  # `map all`: every network again


@lru_cache(maxsize=256)
def trail(routes: tuple[int, ...], board: Board = BOARD) -> int:
    """The longest continuous trail through ``routes`` of ``board`` (the
    game's), in cars (the longest-path bonus counts it). Worked out once per
    set of routes: the panel asks on every frame."""
    return longest_trail(board, routes)


def seat_named(word: str, names: tuple[str, ...], me: int | None, typed: str = "") -> int:
    """The seat ``word`` names: its number (from 1, as the panel shows it),
    its player's name or a unique beginning of it, its colour, or `me`;
    ``typed``: the word as the player typed it, quoted if it names none.

    Raises:
        Refused: it names no seat, or several.
    """
    key = fold(word)
    if key.isdigit() and 1 <= int(key) <= len(names):
        return int(key) - 1
    if key in ("me", "you", "mine") and me is not None:
        return me
    exact = [p for p, name in enumerate(names) if fold(name) == key or seat_colour(p) == key]
    found = exact or [p for p, name in enumerate(names) if fold(name).startswith(key)]
    if len(found) == 1:
        return found[0]
    seats = ", ".join(f"{seat_number(p)} {name}" for p, name in enumerate(names))
    said = typed or word
    if found:
        raise Refused(f"{said!r} could be {' or '.join(names[p] for p in found)}: map takes a seat's number ({seats})")
    raise Refused(f"there is no seat {said!r}: map takes a seat's number or name ({seats}), or all")


def on_map(words: list[str], ctx: Context) -> Outcome:
    """`map SEAT`: that seat's network alone on the map, said in words too; `map` or `map all`: everyone's."""
    view = ctx.view
    if view is None:
        raise Refused("the game has not started yet: there is no network to show")
    if not words or fold(words[0]) in EVERYONE:
        return ShowNetwork(None, ())
    seat = seat_named(" ".join(words), ctx.names, ctx.seat, ctx.typed)
    return ShowNetwork(seat, tuple(network_lines(view, seat, ctx.seat, ctx.names)))


def network_lines(view: GameState, seat: int, me: int | None, names: tuple[str, ...]) -> list[str]:
    """A seat's network in words: routes, cars, longest trail, stations."""
    ps = view.players[seat]
    board = view.game.board
    name = who(seat, me, names, capital=True)
    cars = sum(board.routes[r].length for r in ps.routes)
    head = (f"{name} ({seat_number(seat)} {seat_colour(seat)}): {plural(len(ps.routes), 'route')}, {plural(cars, 'car')}, "
            f"longest trail {plural(trail(tuple(sorted(ps.routes)), board), 'car')}")
    if view.game.rules.stations:
        head += "; " + (f"stations in {', '.join(ps.stations)}" if ps.stations else "no station built")
    routes = ", ".join(f"{board.routes[r].a}{DASH}{board.routes[r].b}" for r in ps.routes) or "no route yet"
    return [head, f"routes: {routes}"]


def map_args(args: list[str], ctx: Context) -> list[tuple[str, str]]:
    """What `map` takes: a seat's number (with whose it is), or all."""
    if args:
        return []
    seats = [(str(seat_number(p)), f"{name} ({seat_colour(p)})" + (", you" if p == ctx.seat else ""))
             for p, name in enumerate(ctx.names)]
    return seats + [("all", "every player's routes")]
