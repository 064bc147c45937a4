"""The map of Europe in characters, scaled to the room it is given.

Cities sit where the map data puts them, scaled to the grid with the
terminal's tall cells in mind; each route is a straight run of cells between
its cities. A route shows one cell per car where its run is long enough, so
its length can be counted: the car cells carry its colour's letter (r red,
b blue, ...; gray routes a line character), the cells between them ``·``,
or ``^`` for a tunnel and ``~`` for a ferry; a claimed route's cars show its
owner's seat number; an open route too short to count shows its length as a
digit among its letters (``r4r``: 4 cars). The two sides of a double route run as two parallel
tracks, one cell apart; a side closed for good (a game of 2 or 3 players, its
twin taken) is drawn ``x``. Labels are the cities' names where they fit
(their first three letters where a whole name would hide more of a route),
beside their dot on its row where they can be, else centred above or below
it, and kept a blank cell away from any route on their row. What the others
claimed since the player's last turn is lit up; ``map SEAT`` shows one
seat's network, the rest faint.

The geometry (where cities, routes and labels go) depends only on the size,
so it is worked out once per size; what changes during a game (owners,
stations, tickets, a highlighted path) is painted over it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from p2p_ttr.engine.board import GRAY
from p2p_ttr.engine.state import GameState

from .lastturn import LastTurns
from .styled import Line, merge
from .tickets import ticket_rows
from .words import BOARD

GLYPHS = {"purple": "p", "blue": "b", "orange": "o", "white": "w", "green": "g", "yellow": "y", "black": "k",
          "red": "r"}
CITY, MY_STATION, STATION = "●", "■", "□"
TUNNEL_MARK, FERRY_MARK, GAP, CLOSED = "^", "~", "·", "x"
DOUBLE_ROUTES_MIN_PLAYERS = 4  # in a game of 2 or 3, a double route's second side stays closed
# A terminal cell is about twice as tall as it is wide.
CELL_ASPECT = 2.0
MIN_SIZE = (24, 8)

Cell = tuple[int, int]  # (column, row)
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


def marks_for(view: GameState | None, seat: int | None, highlight: frozenset[int] = frozenset(),
              turns: LastTurns | None = None, focus: int | None = None) -> MapMarks:
    """What the map shows of ``view`` to ``seat``: ``highlight`` a path,
    ``turns`` what the others did since our last turn, ``focus`` one seat's network."""
    if view is None:
        return MapMarks((None,) * len(BOARD.routes), highlight=highlight)
    since = turns.others_since(seat, view) if turns is not None and seat is not None else []
    stations = tuple((city, p) for p, ps in enumerate(view.players) for city in ps.stations)
    open_cities: set[str] = set()
    done_cities: set[str] = set()
    if seat is not None:
        for row in ticket_rows(view, seat):
            (done_cities if row.done else open_cities).update((row.ticket.a, row.ticket.b))
    closed = frozenset(r.id for r in BOARD.routes if r.twin is not None and view.route_owner[r.id] is None
                       and view.route_owner[r.twin] is not None and view.n_players < DOUBLE_ROUTES_MIN_PLAYERS)
    return MapMarks(view.route_owner, stations, seat, frozenset(open_cities), frozenset(done_cities - open_cities),
                    highlight, closed, frozenset(r for t in since for r in t.claimed),
                    frozenset(c for t in since for c in t.built), focus)


# ------------------------------------------------------------------ geometry


@dataclass(frozen=True)
class Geometry:
    """Where the map puts each city, each route's cells and each label, for a given size."""

    width: int
    height: int
    nodes: dict[str, Cell]
    runs: dict[int, tuple[Cell, ...]]  # route -> the cells between its cities
    labels: dict[str, tuple[Cell, str]]  # city -> (first cell, text)


def _project(width: int, height: int) -> dict[str, Cell]:
    xs = [x for x, _ in BOARD.positions.values()]
    ys = [y for _, y in BOARD.positions.values()]
    x0, y0 = min(xs), min(ys)
    dx, dy = max(xs) - x0, max(ys) - y0
    # One scale for both axes (in map units per column), rows CELL_ASPECT times coarser.
    scale = min((width - 4) / dx, CELL_ASPECT * (height - 1) / dy)
    used_w, used_h = dx * scale, dy * scale / CELL_ASPECT
    left, top = (width - 4 - used_w) / 2, (height - 1 - used_h) / 2
    nodes: dict[str, Cell] = {}
    taken: set[Cell] = set()
    for city in BOARD.cities:
        x, y = BOARD.positions[city]
        cell = (round(left + (x - x0) * scale), round(top + (y - y0) * scale / CELL_ASPECT))
        cell = _free_near(cell, taken, width, height)
        nodes[city] = cell
        taken.add(cell)
    return nodes


def _free_near(cell: Cell, taken: set[Cell], width: int, height: int) -> Cell:
    """``cell`` or the nearest free cell to it (two cities may round to one)."""
    if cell not in taken:
        return cell
    c, r = cell
    for ring in range(1, max(width, height)):
        for dc, dr in sorted(((dc, dr) for dc in range(-ring, ring + 1) for dr in range(-ring, ring + 1)),
                             key=lambda d: abs(d[0]) + 2 * abs(d[1])):
            near = (c + dc, r + dr)
            if near not in taken and 0 <= near[0] < width and 0 <= near[1] < height:
                return near
    raise ValueError("the map is too small for its cities")


def _line(a: Cell, b: Cell) -> list[Cell]:
    """The cells from ``a`` to ``b`` (Bresenham), ends left out."""
    (c0, r0), (c1, r1) = a, b
    dc, dr = abs(c1 - c0), -abs(r1 - r0)
    sc, sr = (1 if c0 < c1 else -1), (1 if r0 < r1 else -1)
    err = dc + dr
    cells = []
    c, r = c0, r0
    while (c, r) != (c1, r1):
        e2 = 2 * err
        if e2 >= dr:
            err += dr
            c += sc
        if e2 <= dc:
            err += dc
            r += sr
        cells.append((c, r))
    return cells[:-1]


# What a label costs where it goes: a car it hides costs most (the route's
# length can no longer be counted); a gap between cars it covers, or a route
# cell blanked at either end of it, less; a label off its dot's row (above or
# below) about as much as hiding a car, for a name a row off reads as another's.
HIDDEN_CAR, COVERED_CELL, OFF_ROW = 6, 2, 7
# Narrower than this a map is cramped (the 100x30 terminal's): its cities get
# their three-letter codes, above or below their dots where that spares a car.
ROOMY_COLUMNS = 70
CRAMPED_OFF_ROW = 1


@dataclass(frozen=True)
class Spot:
    """Where a label may go, and what it costs there."""

    cell: Cell  # its first letter
    cost: int
    hidden: int  # cars it hides (at either end too: those are blanked)


def _spots(cell: Cell, n: int, off_row: int) -> list[tuple[Cell, int]]:
    """Where a label of ``n`` letters may go, touching its dot, each with
    what it costs in itself: on the dot's row (right, left), else centred
    above or below it, else (a three-letter code) starting or ending at its column."""
    c, r = cell
    beside = [(c + 1, r), (c - n, r)]
    centred = [(c - n // 2, r - 1), (c - n // 2, r + 1)]
    # A longer name starting or ending over its dot reaches over the next one's.
    corners = [(c, r - 1), (c, r + 1), (c - n + 1, r - 1), (c - n + 1, r + 1)] if n <= 3 else []
    return [(spot, rank) for rank, spot in enumerate(beside)] + \
        [(spot, off_row + rank) for rank, spot in enumerate(centred + corners)]


class _Labels:
    """Labels being placed on a map: where each goes and what it covers."""

    def __init__(self, width: int, height: int, nodes: dict[str, Cell], runs: dict[int, tuple[Cell, ...]]) -> None:
        self.width, self.height, self.nodes = width, height, nodes
        self.off_row = OFF_ROW if width >= ROOMY_COLUMNS else CRAMPED_OFF_ROW
        self.route_cells = {cell for run in runs.values() for cell in run}
        self.car_cells = {run[i] for r, run in runs.items() for i in car_cells(len(run), BOARD.routes[r].length)}
        self.node_cells = set(nodes.values())
        self.placed: dict[str, tuple[Cell, str]] = {}
        self.used: set[Cell] = set()

    def best(self, city: str, text: str) -> Spot | None:
        """The cheapest free spot for ``text`` as ``city``'s label."""
        n = len(text)
        best: Spot | None = None
        for (sc, sr), rank in _spots(self.nodes[city], n, self.off_row):
            if sc < 0 or sc + n > self.width or not 0 <= sr < self.height:
                continue
            cells = [(sc + i, sr) for i in range(n)]
            # Keep a blank between two labels on one row, never cover a city.
            if any(x in self.node_cells or x in self.used for x in cells) or \
                    (sc - 1, sr) in self.used or (sc + n, sr) in self.used:
                continue
            covered = [x for x in cells + [(sc - 1, sr), (sc + n, sr)] if x in self.route_cells]
            hidden = sum(x in self.car_cells for x in covered)
            cost = hidden * HIDDEN_CAR + (len(covered) - hidden) * COVERED_CELL + rank
            if best is None or cost < best.cost:
                best = Spot((sc, sr), cost, hidden)
        return best

    def put(self, city: str, spot: Spot, text: str) -> None:
        self.placed[city] = (spot.cell, text)
        self.used.update((spot.cell[0] + i, spot.cell[1]) for i in range(len(text)))


def _place_labels(width: int, height: int, nodes: dict[str, Cell],
                  runs: dict[int, tuple[Cell, ...]]) -> dict[str, tuple[Cell, str]]:
    """Each city's label: its whole name where it fits (it hides no more cars
    than the three-letter code would), else the code."""
    labels = _Labels(width, height, nodes, runs)
    # Hubs first: a city with many routes is the one a player looks for.
    for city in sorted(BOARD.cities, key=lambda c: (-len(BOARD.routes_at[c]), c)):
        code = labels.best(city, city[:3].upper())
        name = labels.best(city, city.upper()) if width >= ROOMY_COLUMNS else None
        if name is not None and (code is None or name.hidden <= code.hidden):
            labels.put(city, name, city.upper())
        elif code is not None:
            labels.put(city, code, city[:3].upper())
    return labels.placed


def _runs(nodes: dict[str, Cell], width: int, height: int) -> dict[int, tuple[Cell, ...]]:
    """Each route's cells; the second side of a double route one cell beside
    the first, never on it."""
    node_cells = set(nodes.values())
    runs: dict[int, tuple[Cell, ...]] = {}
    for route in BOARD.routes:
        a, b = nodes[route.a], nodes[route.b]
        run = [c for c in _line(a, b) if c not in node_cells]
        if route.twin is not None and route.twin < route.id:
            first = set(runs[route.twin])
            # The side-by-side shift that crosses the first track least (a staircase crosses a sideways copy).
            shifted = min(([(c + dc, r + dr) for c, r in run] for dc, dr in ((0, 1), (1, 0), (0, -1), (-1, 0))),
                          key=lambda cells: sum(cell in first for cell in cells))
            run = [c for c in shifted if c not in node_cells and c not in first
                   and 0 <= c[0] < width and 0 <= c[1] < height]
        runs[route.id] = tuple(run)
    return runs


@cache
def geometry(width: int, height: int) -> Geometry:
    nodes = _project(width, height)
    runs = _runs(nodes, width, height)
    return Geometry(width, height, nodes, runs, _place_labels(width, height, nodes, runs))


# ------------------------------------------------------------------ painting


def _gray_glyph(a: Cell, b: Cell) -> str:
    dc, dr = b[0] - a[0], (b[1] - a[1]) * CELL_ASPECT
    if abs(dr) * 2 <= abs(dc):
        return "-"
    if abs(dc) * 2 <= abs(dr):
        return "|"
    return "\\" if (dc > 0) == (dr > 0) else "/"


def route_glyph(route_id: int, owner: int | None, geo: Geometry) -> str:
    route = BOARD.routes[route_id]
    if owner is not None:
        return str(owner + 1)
    if route.color == GRAY:
        return _gray_glyph(geo.nodes[route.a], geo.nodes[route.b])
    return GLYPHS[route.color]


def draw_map(marks: MapMarks, width: int, height: int) -> list[Line]:
    """The map as ``height`` lines of ``width`` cells."""
    if width < MIN_SIZE[0] or height < MIN_SIZE[1]:
        return [[("", " " * width)] for _ in range(height)]
    geo = geometry(width, height)
    chars = [[" "] * width for _ in range(height)]
    styles = [[""] * width for _ in range(height)]

    def put(cell: Cell, ch: str, style: str) -> None:
        c, r = cell
        if 0 <= c < width and 0 <= r < height:
            chars[r][c], styles[r][c] = ch, style

    node_cells = set(geo.nodes.values())
    for route_id in _paint_order(marks):
        _paint_route(route_id, marks, geo, node_cells, put)
    stations = dict(marks.stations)
    for city, cell in geo.nodes.items():
        owner = stations.get(city)
        if owner is None:
            put(cell, CITY, "class:city")
        elif marks.focus is not None and owner != marks.focus:
            put(cell, CITY, "class:dim")  # another's station: only the network shown counts now
        else:
            lit = " class:recent" if city in marks.recent_stations else ""
            put(cell, MY_STATION if owner == marks.me else STATION, f"class:owner.{owner} class:station{lit}")
    for city, (cell, text) in geo.labels.items():
        style = "class:label"
        if city in marks.open_cities:
            style = "class:label.ticket"
        elif city in marks.done_cities:
            style = "class:label.done"
        for end in ((cell[0] - 1, cell[1]), (cell[0] + len(text), cell[1])):
            if end not in node_cells:
                put(end, " ", "")  # a blank between the name and any route: 'pPARIS' reads as neither
        for i, ch in enumerate(text):
            put((cell[0] + i, cell[1]), ch, style)
    return [merge(zip(styles[r], chars[r])) for r in range(height)]


def _paint_order(marks: MapMarks) -> list[int]:
    """Open routes first, then claimed ones, then the last moves, then a
    highlighted path (or the network shown): what matters most is drawn
    last, on top where runs cross."""
    def rank(r: int) -> tuple[int, int]:
        if marks.focus is not None:
            return (2 if marks.owners[r] == marks.focus else 0, r)
        shown = 3 if r in marks.highlight else 2 if r in marks.recent else 1 if marks.owners[r] is not None else 0
        return (shown, r)
    return sorted(range(len(BOARD.routes)), key=rank)


def _paint_route(route_id: int, marks: MapMarks, geo: Geometry, node_cells: set[Cell],
                 put: Put) -> None:
    route = BOARD.routes[route_id]
    run = geo.runs[route_id]
    owner = marks.owners[route_id]
    if marks.focus is not None and owner is not None and owner != marks.focus:
        # One seat's network: another's routes are faint dots, taken but not theirs to tell apart.
        for cell in run:
            put(cell, GAP, "class:dim")
        return
    if marks.focus is not None and owner is None:
        style = "class:dim"  # open routes faint: the network shown stands out
    else:
        style = f"class:owner.{owner} class:claimed" if owner is not None else f"class:route.{route.color}"
    glyph = route_glyph(route_id, owner, geo)
    if route_id in marks.highlight:
        style += " class:path"
    elif route_id in marks.recent and marks.focus is None:
        style += " class:recent"
    if route_id in marks.closed:
        for cell in run:
            put(cell, CLOSED, "class:dim")
        return
    mark = TUNNEL_MARK if route.tunnel else FERRY_MARK if route.ferry_locomotives else None
    cars = car_cells(len(run), route.length)
    for i, cell in enumerate(run):
        if i in cars:
            put(cell, glyph, style)
        else:
            put(cell, mark if mark and owner is None else GAP, style)
    middle = len(run) // 2
    if mark and owner is None and len(run) > 2 and len(cars) == len(run):
        put(run[middle], mark, style)  # no gap to show it in: the middle car says it
    if owner is None and len(run) >= 3 and len(cars) != route.length:
        # Too short to count its cars: a digit among the letters says its length.
        at = middle + 1 if mark and len(cars) == len(run) else middle
        put(run[min(at, len(run) - 1)], str(route.length), style)


def car_cells(cells: int, cars: int) -> set[int]:
    """Which of a run's ``cells`` show a car: ``cars`` of them spread evenly
    with a gap between each two where the run is long enough (so the
    route's length can be counted), every cell where it is not."""
    if cells < 2 * cars - 1:
        return set(range(cells))
    if cars == 1:
        return {cells // 2}
    # With room for it, a gap at each end too: a city's label beside it covers a gap, not a car.
    margin = 1 if cells >= 2 * cars + 1 else 0
    step = (cells - 1 - 2 * margin) / (cars - 1)
    return {margin + round(i * step) for i in range(cars)}


def legend() -> Line:
    """The key to the map's characters, styled like the map."""
    out: Line = []
    for colour, glyph in GLYPHS.items():
        out += [(f"class:route.{colour}", glyph), ("class:legend", " ")]
    out += [("class:legend", "(k black) "), ("class:route.gray", "-|/\\"),
            ("class:legend", f" gray {GAP}gap {TUNNEL_MARK}tunnel {FERRY_MARK}ferry 1-5 owner r4r cars {CLOSED} shut "
                             f"{MY_STATION}{STATION}station")]
    return out
