"""France's track pieces on the screen: the `lay` command, the supply in
the panel, the log's sentence for a piece laid, and the rules' words.

The rules are the engine's (engine/trackbeds.py); this module only says
them and turns what a player types into a ``LayTrack`` found among the
legal moves of their own view, so the client never offers a lay the table
would refuse.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from p2p_ttr.engine.board import TRACK_BED, Board
from p2p_ttr.engine.events import LayTrack
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.trackbeds import bed_map, lay_problem, open_beds, supply

from .outcomes import Context, Outcome, Play, Refused
from .styled import Line
from .words import DASH, kinds_matching, take_city

USAGE = "lay COLOUR CITY CITY (e.g. lay red Amiens Calais)"


@dataclass(frozen=True)
class LaidPiece:
    """A track piece laid on a bed (France) by the seat whose turn it was."""

    seat: int
    route: int
    color: str
    cut: tuple[int, ...]  # the routes it cut for good


def has_beds(game: Game) -> bool:
    """Whether ``game`` is played with track beds (the `lay` command and its words)."""
    return bed_map(game) is not None


def pieces_laid(before: GameState, after: GameState) -> list[LaidPiece]:
    """The pieces laid between two views: by the seat whose turn it was."""
    if before.track_beds is None or after.track_beds is None:
        return []
    new = [(r, c) for r, c in after.track_beds.laid if r not in before.track_beds.colors]
    cut = tuple(sorted(after.track_beds.cut - before.track_beds.cut))
    return [LaidPiece(before.current, r, c, cut) for r, c in new]


def laid_words(fact: LaidPiece, name: str, board: Board) -> str:
    """'Bob laid a red track piece on Amiens–Calais (2), cutting Angers–Rennes'."""
    route = board.routes[fact.route]
    said = f"{name} laid a {fact.color} track piece on {route.a}{DASH}{route.b} ({route.length})"
    if fact.cut:
        said += ", cutting " + ", ".join(f"{board.routes[r].a}{DASH}{board.routes[r].b}" for r in fact.cut)
    return said


def lay_move(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    """``lay COLOUR CITY CITY``: the piece of that colour on the bed between the two cities."""
    del names  # a lay names no other player
    board = view.game.board
    if view.phase is not Phase.LAY_TRACK:
        raise Refused("you lay a track piece only right after drawing train cards")
    if len(words) < 3:
        raise Refused(f"name a colour and the bed's two cities: {USAGE}")
    colors = [k for k in kinds_matching(board, words[0]) if k in board.colors]
    if len(colors) != 1:
        raise Refused(f"{words[0]!r} is not a colour of the pieces ({', '.join(board.colors)})")
    first = take_city(board, words[1:])
    second = take_city(board, words[1 + first[1]:]) if first is not None else None
    if first is None or second is None:
        raise Refused(f"name the bed's two cities: {USAGE}")
    beds = [r for r in board.routes_between(first[0], second[0]) if r.color == TRACK_BED]
    if not beds:
        raise Refused(f"there is no track bed between {first[0]} and {second[0]}")
    legal = {a for a in legal_actions(view, seat) if isinstance(a, LayTrack)}
    for route in beds:  # a double or triple bed: the first pathway a piece may go on
        action = LayTrack(seat, route.id, colors[0])
        if action in legal:
            return Play(action, f"laying a {colors[0]} track piece on {route.a}{DASH}{route.b}")
    problem = lay_problem(view, beds[0], colors[0])
    raise Refused(f"you cannot lay it there: {problem}" if problem else "you cannot lay it there")


def lay_args(args: list[str], ctx: Context) -> list[tuple[str, str]]:
    """What Tab offers after `lay`: the colours of the pieces left, then the
    cities at the ends of the beds a piece may go on."""
    view = ctx.view
    if view is None or view.track_beds is None:
        return []
    if not args:
        left = supply(view)
        return [(c, f"{sum(n for (k, _), n in left.items() if k == c)} pieces left")
                for c in view.game.board.colors if any(k == c for k, _ in left)]
    ends = sorted({city for route, _ in open_beds(view) for city in route.cities})
    return [(city, "a track bed's end") for city in ends]


def supply_lines(view: GameState, width: int, letters: Mapping[str, str]) -> list[Line]:
    """The panel's rows for the track pieces left, by length, each colour by
    its letter on the map (``letters``, mapview's): '2: p3 b3 o2 ... k3 r3'."""
    if view.track_beds is None:
        return []
    left = supply(view)
    rows: list[Line] = [[("class:title", "TRACK PIECES"), ("class:dim", " left, by length")]]
    for length in sorted({n for _, n in left}):
        said = " ".join(f"{letters[c]}{left[(c, length)]}" for c in view.game.board.colors if left[(c, length)])
        rows.append([("", f" {length}: {said}"[:width])])
    if len(rows) == 1:
        rows.append([("class:dim", " none: nothing more is laid")])
    return rows


def what_to_lay() -> str:
    """What the player is to do in the lay phase."""
    return f"lay a track piece on a bed of its length ({USAGE})"


def beds_rules() -> str:
    """The rules page's words for the track beds."""
    return ("Track beds (no colour) cannot be claimed until built: after drawing train cards you lay one "
            "track piece left in the supply on an empty bed of the same length (lay COLOUR CITY CITY), which "
            "takes its colour; when no piece fits any bed, you lay none. A piece cuts for good every route it "
            "crosses, and may not cross a claimed route; on a double or triple route it goes on one pathway "
            "(more later only with 4 or 5 players). Claiming a built bed puts its piece back in the supply.")
