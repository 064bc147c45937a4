"""A board's map in characters, scaled to the room it is given.

Any board: the board is a value the caller passes, and the layout comes from
its own positions and routes (``maptracks``: the cities scaled from the
board's bounding box, each route a straight run of cells, the sides of a
double or triple route as two or three parallel tracks; ``maplabels``: each
city's name placed where it covers no dot, no car and no other name).

A route shows one cell per car wherever it has the cells for it, so its
length can be counted: the car cells carry its colour's letter (r red, b
blue, ...; gray routes a line character), the cells between them ``·``, or
``^`` for a tunnel and ``~`` for a ferry; a claimed route's cars show its
owner's seat number. France's track beds: a bed no piece is on is ``=``, a
built one the capital letter of its piece's colour (``R``), one a piece
cut for good ``#``. Where two routes cross, the crossing cell is a gap of
both, never a car, so neither count is spoiled. A route with fewer cells of
its own than cars (the map too small) is all cars with its length as a
digit among them (``r4r``). A side closed for good (a game of 2 or 3
players, another side taken) is drawn ``x``. What the others claimed since
the player's last turn is lit up; ``map SEAT`` shows one seat's network, the
rest faint.

The geometry depends only on the board and the size, so it is worked out
once per board and size; what changes during a game (owners, stations,
tickets, a highlighted path) is painted over it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from p2p_ttr.engine.board import GRAY, TRACK_BED, Board
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.trackbeds import claimable_some_day

from .lastturn import LastTurns
from .maplabels import place_labels
from .maptracks import CELL_ASPECT, Cell, project, runs, shared_cells, spread
from .styled import Line, merge
from .tickets import ticket_rows

GLYPHS = {"purple": "p", "blue": "b", "orange": "o", "white": "w", "green": "g", "yellow": "y", "black": "k",
          "red": "r"}
CITY, MY_STATION, STATION = "●", "■", "□"
MY_MARKER, MARKER = "◆", "◇"  # Old West's city markers: yours, another seat's (its colour tells whose)
MY_DEPOT, DEPOT = "▲", "△"  # Europe 1912's depots: yours, another seat's (its colour tells whose)
ALVIN = "A"  # Alvin the Alien's city, in its holder's colour (always a city of theirs once captured)
# Alvin & Dexter's cities, in chaos: Alvin's, Dexter's, and one they share.
MONSTER_MARKS = {(True, False): "A", (False, True): "D", (True, True): "&"}
TUNNEL_MARK, FERRY_MARK, MOUNTAIN_MARK, GAP, CLOSED = "^", "~", "▲", "·", "x"
BED_MARK, CUT_MARK = "=", "#"  # France: a track bed no piece is on; a route a piece cut for good
MIN_SIZE = (24, 8)

Put = Callable[[Cell, str, str], None]  # (cell, character, style)


@dataclass(frozen=True)
class MapMarks:
    """What the map shows of a game at one moment, from one player's view."""

    owners: tuple[int | None, ...]  # per route
    stations: tuple[tuple[str, int], ...] = ()  # (city, owner)
    me: int | None = None
    open_cities: frozenset[str] = frozenset()  # ends of the player's unfinished tickets
    done_cities: frozenset[str] = frozenset()  # ends of finished ones
    highlight: frozenset[int] = frozenset()  # routes of a path being shown
    closed: frozenset[int] = frozenset()  # sides of double routes no one can claim any more
    recent: frozenset[int] = frozenset()  # routes the others claimed since our last turn: lit up
    recent_stations: frozenset[str] = frozenset()  # cities where they built a station since then
    focus: int | None = None  # the one seat whose network is shown (``map SEAT``); None: everyone's
    built: tuple[tuple[int, str], ...] = ()  # track beds with a piece on them, and its colour (France)
    cut: frozenset[int] = frozenset()  # routes a track piece cut for good (France)
    markers: tuple[tuple[str, int], ...] = ()  # Old West's city markers: (city, owner)
    alvin: str = ""  # Alvin the Alien's city, where played
    monsters: tuple[str, ...] = ()  # Alvin & Dexter's cities, where played ("" until placed)
    depots: tuple[tuple[str, int], ...] = ()  # Europe 1912's depots: (city, owner)


def marks_for(board: Board, view: GameState | None, seat: int | None, highlight: frozenset[int] = frozenset(),
              turns: LastTurns | None = None, focus: int | None = None) -> MapMarks:
    """What the map of ``board`` shows of ``view`` to ``seat``: ``highlight`` a path,
    ``turns`` what the others did since our last turn, ``focus`` one seat's network."""
    if view is None:
        return MapMarks((None,) * len(board.routes), highlight=highlight)
    since = turns.others_since(seat, view) if turns is not None and seat is not None else []
    stations = tuple((city, p) for p, ps in enumerate(view.players) for city in ps.stations)
    open_cities: set[str] = set()
    done_cities: set[str] = set()
    if seat is not None:
        for row in ticket_rows(view, seat):
            (done_cities if row.done else open_cities).update((row.ticket.a, row.ticket.b))
    closed = frozenset(r.id for r in board.routes if view.route_owner[r.id] is None
                       and not view.game.rules.both_sides_open(view.n_players)
                       and any(view.route_owner[side.id] is not None for side in board.routes_between(r.a, r.b)))
    beds = view.track_beds
    if beds is not None:  # a bed no piece may be laid on any more (its other pathway built) is shut too
        closed |= {r.id for r in board.routes if view.route_owner[r.id] is None and r.id not in beds.cut
                   and not claimable_some_day(view, r)}
    return MapMarks(view.route_owner, stations, seat, frozenset(open_cities), frozenset(done_cities - open_cities),
                    highlight, closed, frozenset(r for t in since for r in t.claimed),
                    frozenset(c for t in since for c in t.built), focus,
                    beds.laid if beds is not None else (), beds.cut if beds is not None else frozenset(),
                    view.markers.placed if view.markers is not None else (),
                    view.markers.alvin if view.markers is not None else "",
                    view.monsters.cities if view.monsters is not None else (),
                    view.depots.placed if view.depots is not None else ())


# ------------------------------------------------------------------ geometry


@dataclass(frozen=True)
class Geometry:
    """Where the map puts each city, each route's cells, its cars and each label, for one board and size."""

    width: int
    height: int
    nodes: dict[str, Cell]
    runs: dict[int, tuple[Cell, ...]]  # route -> the cells between its cities
    labels: dict[str, tuple[Cell, str]]  # city -> (first cell, text)
    cars: dict[int, tuple[int, ...]]  # route -> which cells of its run show a car (by index)
    blanks: frozenset[Cell]  # the blank kept at each end of a label

    def countable(self, route_id: int, length: int) -> bool:
        """Whether the route's cars are drawn one per car, so its length can be counted."""
        return len(self.cars[route_id]) == length


@lru_cache(maxsize=32)  # a window resized again and again keeps only the latest sizes
def geometry(board: Board, width: int, height: int) -> Geometry:
    """The layout of ``board`` at this size: worked out once (a frame only paints over it)."""
    nodes = project(board, width, height)
    tracks = runs(board, nodes, width, height)
    shared = shared_cells(tracks.values())
    placed = place_labels(board, width, height, nodes, tracks, shared)
    letters = {cell for place in placed.values() for cell in place.cells}
    blanks = frozenset(cell for place in placed.values() for cell in place.ends) - set(nodes.values())
    cars: dict[int, tuple[int, ...]] = {}
    for route in board.routes:
        run = tracks[route.id]
        free = [i for i, cell in enumerate(run) if cell not in shared and cell not in letters and cell not in blanks]
        chosen = spread(free, route.length, len(run))
        # Too few cells of its own to show each car: every one of them a car, its length said by a digit.
        cars[route.id] = chosen if chosen is not None else tuple(free)
    labels = {city: (place.cell, place.text) for city, place in placed.items()}
    return Geometry(width, height, nodes, tracks, labels, cars, blanks)


# ------------------------------------------------------------------ painting


def _gray_glyph(a: Cell, b: Cell) -> str:
    dc, dr = b[0] - a[0], (b[1] - a[1]) * CELL_ASPECT
    if abs(dr) * 2 <= abs(dc):
        return "-"
    if abs(dc) * 2 <= abs(dr):
        return "|"
    return "\\" if (dc > 0) == (dr > 0) else "/"


def route_glyph(board: Board, route_id: int, owner: int | None, geo: Geometry, built: str | None = None) -> str:
    route = board.routes[route_id]
    if owner is not None:
        return str(owner + 1)
    if route.color == GRAY:
        return _gray_glyph(geo.nodes[route.a], geo.nodes[route.b])
    if route.color == TRACK_BED:  # a capital: a piece's colour, not the board's
        return GLYPHS[built].upper() if built is not None else BED_MARK
    return GLYPHS[route.color]


def draw_map(board: Board, marks: MapMarks, width: int, height: int) -> list[Line]:
    """``board``'s map as ``height`` lines of ``width`` cells."""
    if width < MIN_SIZE[0] or height < MIN_SIZE[1]:
        return [[("", " " * width)] for _ in range(height)]
    geo = geometry(board, width, height)
    chars = [[" "] * width for _ in range(height)]
    styles = [[""] * width for _ in range(height)]

    def put(cell: Cell, ch: str, style: str) -> None:
        c, r = cell
        if 0 <= c < width and 0 <= r < height:
            chars[r][c], styles[r][c] = ch, style

    for route_id in _paint_order(board, marks):
        _paint_route(board, route_id, marks, geo, put)
    stations = dict(marks.stations)
    markers = dict(marks.markers)
    depots = dict(marks.depots)
    for city, cell in geo.nodes.items():
        owner = stations.get(city)
        marker = markers.get(city)
        depot = depots.get(city)
        alvin, dexter = marks.monsters or ("", "")
        monster = MONSTER_MARKS.get((city == alvin, city == dexter))
        if monster is not None:  # a City in Chaos: the monster shows over a station or a depot
            put(cell, monster, "class:monster")
        elif city == marks.alvin:
            put(cell, ALVIN, f"class:owner.{marker}" if marker is not None else "class:city")
        elif owner is None and marker is not None:
            shown = marks.focus is None or marker == marks.focus
            put(cell, MY_MARKER if marker == marks.me else MARKER, f"class:owner.{marker}" if shown else "class:dim")
        elif owner is None and depot is not None:  # never beside a station (depots.py)
            shown = marks.focus is None or depot == marks.focus
            put(cell, MY_DEPOT if depot == marks.me else DEPOT, f"class:owner.{depot}" if shown else "class:dim")
        elif owner is None:
            put(cell, CITY, "class:city")
        elif marks.focus is not None and owner != marks.focus:
            put(cell, CITY, "class:dim")  # another's station: only the network shown counts now
        else:
            lit = " class:recent" if city in marks.recent_stations else ""
            put(cell, MY_STATION if owner == marks.me else STATION, f"class:owner.{owner} class:station{lit}")
    for cell in geo.blanks:
        put(cell, " ", "")  # a blank between a name and any route: 'pPARIS' reads as neither
    for city, (cell, text) in geo.labels.items():
        style = "class:label"
        if city in marks.open_cities:
            style = "class:label.ticket"
        elif city in marks.done_cities:
            style = "class:label.done"
        for i, ch in enumerate(text):
            put((cell[0] + i, cell[1]), ch, style)
    return [merge(zip(styles[r], chars[r])) for r in range(height)]


def _paint_order(board: Board, marks: MapMarks) -> list[int]:
    """Open routes first, then claimed ones, then the last moves, then a
    highlighted path (or the network shown): what matters most is drawn
    last, on top where runs cross. Among equals tunnels and ferries come
    last: a crossing is a gap of both routes, and there it shows their mark."""
    def rank(r: int) -> tuple[int, bool, int]:
        marked = board.routes[r].tunnel or board.routes[r].ferry_locomotives > 0
        if marks.focus is not None:
            return (2 if marks.owners[r] == marks.focus else 0, marked, r)
        shown = 3 if r in marks.highlight else 2 if r in marks.recent else 1 if marks.owners[r] is not None else 0
        return (shown, marked, r)
    return sorted(range(len(board.routes)), key=rank)


def _paint_route(board: Board, route_id: int, marks: MapMarks, geo: Geometry, put: Put) -> None:
    route = board.routes[route_id]
    run = [cell for cell in geo.runs[route_id] if cell not in geo.blanks]
    owner = marks.owners[route_id]
    if marks.focus is not None and owner is not None and owner != marks.focus:
        # One seat's network: another's routes are faint dots, taken but not theirs to tell apart.
        for cell in run:
            put(cell, GAP, "class:dim")
        return
    built = dict(marks.built).get(route_id)
    if marks.focus is not None and owner is None:
        style = "class:dim"  # open routes faint: the network shown stands out
    elif owner is not None:
        style = f"class:owner.{owner} class:claimed"
    else:
        style = f"class:route.{built or (GRAY if route.color == TRACK_BED else route.color)}"
    glyph = route_glyph(board, route_id, owner, geo, built)
    if route_id in marks.highlight:
        style += " class:path"
    elif route_id in marks.recent and marks.focus is None:
        style += " class:recent"
    if route_id in marks.closed or (route_id in marks.cut and owner is None):
        for cell in run:
            put(cell, CUT_MARK if route_id in marks.cut else CLOSED, "class:dim")
        return
    mark = (TUNNEL_MARK if route.tunnel else FERRY_MARK if route.ferry_locomotives
            else MOUNTAIN_MARK if route.mountain_x else None)
    gap = mark if mark and owner is None else GAP
    for cell in run:
        put(cell, gap, style)
    cars = geo.cars[route_id]
    for i in cars:
        put(geo.runs[route_id][i], glyph, style)
    if owner is None and len(cars) >= 2 and not geo.countable(route_id, route.length):
        # Too few cells of its own to show each car: a digit among the letters says its length.
        put(geo.runs[route_id][cars[len(cars) // 2]], str(route.length), style)


def legend(game: Game | None = None) -> Line:
    """The key to the map's characters, styled like the map: only the marks
    ``game``'s board has (every mark before the seating names a game)."""
    routes = game.board.routes if game is not None else ()

    def has(present: bool) -> bool:
        return game is None or present

    out: Line = []
    for colour, glyph in GLYPHS.items():
        out += [(f"class:route.{colour}", glyph), ("class:legend", " ")]
    marks = [f"{GAP}gap"]
    marks += [f"{TUNNEL_MARK}tunnel"] if has(any(r.tunnel for r in routes)) else []
    marks += [f"{FERRY_MARK}ferry"] if has(any(r.ferry_locomotives for r in routes)) else []
    marks += [f"{MOUNTAIN_MARK}mountain"] if game is not None and any(r.mountain_x for r in routes) else []
    marks += [f"1-{game.rules.max_players if game is not None else 5} owner r4r cars"]
    marks += [f"{CLOSED} shut"] if has(any(r.twin is not None for r in routes)) else []
    marks += [f"{MY_STATION}{STATION}station"] if has(game is not None and game.rules.stations > 0) else []
    if game is not None and any(r.color == TRACK_BED for r in routes):
        marks += [f"{BED_MARK}track bed R built {CUT_MARK}cut"]
    marks += [f"{MY_MARKER}{MARKER}city marker"] if game is not None and game.rules.city_markers else []
    marks += [f"{ALVIN} Alvin"] if game is not None and game.rules.alvin_city else []
    marks += ["A D Alvin Dexter"] if game is not None and game.rules.monster_cards else []
    marks += [f"{MY_DEPOT}{DEPOT}depot"] if game is not None and game.rules.depots else []
    out += [("class:legend", "(k black) "), ("class:route.gray", "-|/\\"),
            ("class:legend", " gray " + " ".join(marks))]
    return out
