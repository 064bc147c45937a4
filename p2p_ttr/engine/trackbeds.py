"""France's track beds: uncoloured routes built by laying coloured track pieces.

The board's data names its beds (routes of colour ``board.TRACK_BED``), which
routes' painted spaces each one overlaps (``crosses``) and the pieces in the
box (``track_pieces``: so many of each colour and length). The rules
(``shared/rules/other_boards.txt``, "France"):

* a bed can never be claimed until it is built: until a piece of its length
  lies on it, whose colour it then takes (``as_built``);
* after drawing train cards, the player must lay one available piece on an
  empty bed of the same length (the game waits in ``Phase.LAY_TRACK`` for a
  ``LayTrack``); "must" where it can: when no piece left in the supply fits
  any bed still open, the step is skipped and the turn ends (``lays``);
* a laid piece cuts for good every route it crosses (they are never built,
  never claimed, even once the piece is gone); a piece may not be laid
  through a claimed route;
* on a double or triple route a piece goes on one pathway; at 4-5 players
  more pieces may be laid on the route's other pathways later, at 2-3 (one
  pathway used) not while another pathway holds a piece or is claimed;
* when a route lying on a piece is claimed, the piece goes back to the
  supply (``claimed``).

The supply is public: the box's pieces less those on the board. The slice of
the state this module owns is ``GameState.track_beds`` (a ``laidpieces.TrackBeds``;
None on a board without beds); everything else reads it through the functions here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache

from .board import TRACK_BED, Route, read_board_data
from .boards import BOARDS
from .events import LayTrack
from .game import Game
from .laidpieces import TrackBeds
from .mechanic import AfterClaim, ClaimTaken, Handles, Mechanic, TurnFlow
from .state import GameState, Phase
from .turnkit import expect, expect_route, refuse


@dataclass(frozen=True, slots=True)
class BedMap:
    """A board's beds, what each crosses, and the pieces in the box: data, the same all game."""

    beds: tuple[int, ...]  # route ids printed as uncoloured beds, ascending
    crosses: Mapping[int, frozenset[int]]  # route id -> the routes its painted spaces overlap (both ways)
    pieces: Mapping[tuple[str, int], int]  # (colour, length) -> pieces in the box


@cache
def bed_map(game: Game) -> BedMap | None:
    """The beds of ``game``'s board (None: a board without track beds), read
    once per game from its data file."""
    entry = BOARDS.get(game.board_name)
    data = read_board_data(entry.data_file) if entry is not None else {}
    if "track_pieces" not in data:
        return None
    # The data's ``crosses`` name routes by their ``id``; the board numbers them by place in the list.
    index = {r["id"]: i for i, r in enumerate(data["routes"])}
    crosses: dict[int, set[int]] = {}
    for i, r in enumerate(data["routes"]):
        for other in r.get("crosses", ()):
            crosses.setdefault(i, set()).add(index[other])
            crosses.setdefault(index[other], set()).add(i)
    per = data["track_pieces"]["per_color_by_length"]
    return BedMap(
        beds=tuple(route.id for route in game.board.routes if route.color == TRACK_BED),
        crosses={r: frozenset(others) for r, others in crosses.items()},
        pieces={(color, int(length)): int(n) for color in data["track_pieces"]["colors"]
                for length, n in per.items()},
    )


def initial(game: Game) -> TrackBeds | None:
    """The slice a new game starts with: no piece laid, nothing cut (None without beds)."""
    return TrackBeds() if bed_map(game) is not None else None


def laid_color(state: GameState, route: int) -> str | None:
    """The colour of the piece on ``route``, if one lies there."""
    beds = state.track_beds
    return None if beds is None else beds.colors.get(route)


def as_built(state: GameState, route: Route) -> Route:
    """``route`` as it may be claimed now: a bed with a piece on it in that
    piece's colour; any other route as printed."""
    if route.color != TRACK_BED:
        return route
    color = laid_color(state, route.id)
    return _in_color(route, color) if color is not None else route


@cache  # claims and plans ask for the same few built beds very often
def _in_color(route: Route, color: str) -> Route:
    return replace(route, color=color)


def claim_problem(state: GameState, route: Route) -> str | None:
    """Why ``route`` cannot be claimed for its track bed (None: the beds allow it)."""
    beds = state.track_beds
    if beds is None:
        return None
    if route.id in beds.cut:
        return f"{route.a}-{route.b} is cut off by a track piece laid across it"
    if route.color == TRACK_BED and laid_color(state, route.id) is None:
        return f"{route.a}-{route.b} is a track bed with no piece on it: lay one there before it can be claimed"
    return None


def claimable_some_day(state: GameState, route: Route) -> bool:
    """Whether ``route`` may yet be claimed as far as the beds go: not cut,
    and built already or still open to a piece (what a plan may count on)."""
    beds = state.track_beds
    if beds is None:
        return True
    if route.id in beds.cut:
        return False
    return route.color != TRACK_BED or route.id in beds.colors or bed_problem(state, route) is None


def supply(state: GameState) -> Counter[tuple[str, int]]:
    """The pieces left to lay, by (colour, length): the box's less those on the board."""
    beds, found = state.track_beds, bed_map(state.game)
    if beds is None or found is None:
        return Counter()
    left = Counter(found.pieces)
    board = state.game.board
    for bed, color in beds.laid:
        left[(color, board.routes[bed].length)] -= 1
    return +left


def bed_problem(state: GameState, route: Route) -> str | None:
    """Why no piece may be laid on ``route`` now, whatever its colour (None: one of its length may)."""
    beds, found = state.track_beds, bed_map(state.game)
    if beds is None or found is None:
        return f"{state.game.title} has no track beds"
    if route.color != TRACK_BED:
        return f"{route.label} is not a track bed"
    if laid_color(state, route.id) is not None or state.route_owner[route.id] is not None:
        return f"{route.a}-{route.b} is built already"
    if route.id in beds.cut:
        return f"{route.a}-{route.b} is cut off by a track piece laid across it"
    claimed = [r for r in found.crosses.get(route.id, ()) if state.route_owner[r] is not None]
    if claimed:
        other = state.game.board.routes[claimed[0]]
        return f"a piece may not be laid through the claimed route {other.a}-{other.b}"
    if not state.game.rules.both_sides_open(state.n_players) and any(
            laid_color(state, r) is not None or state.route_owner[r] is not None for r in route.parallel):
        return (f"in a game of {state.n_players}, only one pathway of {route.a}-{route.b} is used, "
                "and another is built")
    return None


def lay_problem(state: GameState, route: Route, color: str) -> str | None:
    """Why a ``color`` piece may not be laid on ``route`` now (None: it may)."""
    problem = bed_problem(state, route)
    if problem is not None:
        return problem
    if supply(state)[(color, route.length)] <= 0:
        return f"no {color} track piece of length {route.length} is left in the supply"
    return None


def open_beds(state: GameState) -> list[tuple[Route, tuple[str, ...]]]:
    """Every bed a piece may be laid on now, in id order, with the colours of
    the pieces of its length left in the supply (the board's colour order)."""
    left = supply(state)
    found = bed_map(state.game)
    if not left or found is None:
        return []
    board = state.game.board
    by_length = {length: tuple(c for c in board.colors if left[(c, length)] > 0) for length in {n for _, n in left}}
    out = []
    for route in (board.routes[r] for r in found.beds):
        colors = by_length.get(route.length, ())
        if colors and bed_problem(state, route) is None:
            out.append((route, colors))
    return out


def lays(state: GameState, player: int) -> list[LayTrack]:
    """Every piece ``player`` may lay now, bed by bed in id order, colours in
    the board's order: empty when none fits (the step is then skipped)."""
    return [LayTrack(player, route.id, color) for route, colors in open_beds(state) for color in colors]


def can_lay(state: GameState) -> bool:
    """Whether the player to move has a piece to lay after their draw."""
    return state.track_beds is not None and bool(open_beds(state))


def laid(state: GameState, route: int, color: str) -> TrackBeds:
    """The slice once a ``color`` piece lies on ``route``: the routes it crosses are cut for good."""
    beds, found = state.track_beds, bed_map(state.game)
    assert beds is not None and found is not None
    return TrackBeds(tuple(sorted(beds.laid + ((route, color),))), beds.cut | found.crosses.get(route, frozenset()))


def claimed(beds: TrackBeds | None, route: int) -> TrackBeds | None:
    """The slice once ``route`` is claimed: its piece, if any, goes back to the supply."""
    if beds is None or all(bed != route for bed, _ in beds.laid):
        return beds
    return replace(beds, laid=tuple(p for p in beds.laid if p[0] != route))


# ---------------------------------------------------------------------------
# The move, and the hooks into the turn (mechanic.py)


def piece_returned(state: GameState, claim: ClaimTaken) -> AfterClaim:
    """After a claim: the piece the route lay on, if any, back to the supply."""
    return AfterClaim(state.evolve(track_beds=claimed(state.track_beds, claim.route.id)))


def lay_due(state: GameState) -> Phase | None:
    """After a draw: a piece is laid now, where one fits (else the step is skipped)."""
    return Phase.LAY_TRACK if can_lay(state) else None


def lay_track(state: GameState, action: LayTrack, flow: TurnFlow) -> GameState:
    """The piece laid after a draw: the turn ends."""
    expect(state, action.player, Phase.LAY_TRACK)
    expect_route(state, action.route)
    refuse(lay_problem(state, state.game.board.routes[action.route], action.color))
    return flow.end_turn(state.evolve(track_beds=laid(state, action.route, action.color), phase=Phase.TURN))


MECHANIC = Mechanic(
    "track beds",
    plays=lambda game: bed_map(game) is not None,
    handlers=(Handles(LayTrack, lay_track),),
    after_claim=piece_returned,
    after_draw=lay_due,
    at_start=lambda state: state.evolve(track_beds=initial(state.game)),
)
