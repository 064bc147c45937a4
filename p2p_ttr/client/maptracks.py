"""Where a board's cities and routes go on a grid of terminal cells: the
cities scaled from the board's own positions, each route a straight run of
cells, and which cells of a run carry its cars.

Any board: nothing here knows a city or a range of positions. The sides of
a double or triple route are the routes between the same two cities
(``Board.routes_between``, by id): the first runs on the straight line, the
others one cell beside it, one on each side.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from p2p_ttr.engine.board import Board

Cell = tuple[int, int]  # (column, row)

# A terminal cell is about twice as tall as it is wide.
CELL_ASPECT = 2.0
# How far the map may be stretched along one axis beyond the board's own
# proportions to fill the room it is given: a board a little wider or taller
# than its window still uses all of it (no empty band of rows, no wide gap),
# and a name needs columns more than rows. Geography still reads: the order
# of cities left to right and top to bottom never changes. (Measured over
# the five boards: 1.5 cut more names short at 120x40 than 2.)
STRETCH = 2.0
# Columns kept free at each side: the cities at the board's edges need room
# for their names on the outside too (Lisboa, with Madrid and Cadiz inland).
MARGIN = 4


def project(board: Board, width: int, height: int) -> dict[str, Cell]:
    """Each city's cell: the board's bounding box scaled into the grid."""
    xs = [x for x, _ in board.positions.values()]
    ys = [y for _, y in board.positions.values()]
    x0, y0 = min(xs), min(ys)
    dx, dy = max(1, max(xs) - x0), max(1, max(ys) - y0)
    fit_x, fit_y = (width - 1 - 2 * MARGIN) / dx, (height - 1) / dy  # columns, rows per map unit that fill the grid
    true = min(fit_x, fit_y * CELL_ASPECT)  # columns per unit with the board's own proportions
    sx, sy = min(fit_x, true * STRETCH), min(fit_y, true / CELL_ASPECT * STRETCH)
    left, top = (width - 1 - dx * sx) / 2, (height - 1 - dy * sy) / 2  # centred, the margins included
    nodes: dict[str, Cell] = {}
    taken: set[Cell] = set()
    for city in board.cities:
        x, y = board.positions[city]
        cell = free_near((round(left + (x - x0) * sx), round(top + (y - y0) * sy)), taken, width, height)
        nodes[city] = cell
        taken.add(cell)
    return nodes


def free_near(cell: Cell, taken: set[Cell], width: int, height: int) -> Cell:
    """``cell`` or the nearest free cell to it (two cities may round to one)."""
    if cell not in taken:
        return cell
    c, r = cell
    for ring in range(1, max(width, height)):
        for dc, dr in sorted(((dc, dr) for dc in range(-ring, ring + 1) for dr in range(-ring, ring + 1)),
                             key=lambda d: (abs(d[0]) + 2 * abs(d[1]), d)):
            near = (c + dc, r + dr)
            if near not in taken and 0 <= near[0] < width and 0 <= near[1] < height:
                return near
    raise ValueError("the map is too small for its cities")


def line(a: Cell, b: Cell) -> list[Cell]:
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


SHIFTS = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONALS = ((1, 1), (-1, -1), (1, -1), (-1, 1))


def runs(board: Board, nodes: dict[str, Cell], width: int, height: int) -> dict[int, tuple[Cell, ...]]:
    """Each route's cells. The sides of a double or triple route run as
    parallel tracks: the first on the line between the cities, the second
    shifted one cell the way that crosses it least, the third the other way."""
    node_cells = set(nodes.values())
    out: dict[int, tuple[Cell, ...]] = {}
    for route in board.routes:
        if route.id in out:
            continue
        sides = sorted(board.routes_between(route.a, route.b), key=lambda r: r.id)
        base = [c for c in line(nodes[route.a], nodes[route.b]) if c not in node_cells]
        first = set(base)
        shift = min(SHIFTS, key=lambda d: (sum((c + d[0], r + d[1]) in first for c, r in base), SHIFTS.index(d)))
        # One side on the line, one beside it, one beside it the other way;
        # where a shift loses cells (a city or the edge in the way), the next best one.
        preferred = [(0, 0), shift, (-shift[0], -shift[1])] + [d for d in SHIFTS + DIAGONALS if d not in (shift,)]
        drawn: set[Cell] = set()
        used: list[Cell] = []
        for side in sides:
            def cells_at(d: Cell) -> tuple[Cell, ...]:
                return tuple(cell for c, r in base if (cell := (c + d[0], r + d[1])) not in node_cells
                             and cell not in drawn and 0 <= cell[0] < width and 0 <= cell[1] < height)
            offset = min((d for d in preferred if d not in used),
                         key=lambda d: (-min(len(cells_at(d)), len(base)), preferred.index(d)))
            used.append(offset)
            out[side.id] = cells_at(offset)
            drawn.update(out[side.id])
    return out


def spread(free: Sequence[int], cars: int, cells: int) -> tuple[int, ...] | None:
    """Which of a run's ``cells`` (by index) carry its ``cars``, chosen among
    the ``free`` ones (not under a label, not crossed by another route): as
    near as can be to evenly spread, a gap between each two where the free
    cells allow it, side by side where they do not (``rrr`` still counts
    three). None when fewer cells are free than the route has cars: its
    length cannot be counted there."""
    if cars <= 0 or len(free) < cars:
        return None
    ideal = sorted(car_cells(cells, cars))
    for gap in (2, 1):
        # The latest cell each car may take and still leave room for the ones after it.
        latest: list[int] = []
        bound = free[-1] + gap
        for _ in range(cars):
            fits = [f for f in free if f <= bound - gap]
            if not fits:
                break
            latest.append(fits[-1])
            bound = fits[-1]
        if len(latest) < cars:
            continue
        latest.reverse()
        chosen: list[int] = []
        for i in range(cars):
            low = chosen[-1] + gap if chosen else free[0]
            options = [f for f in free if low <= f <= latest[i]]
            chosen.append(min(options, key=lambda f: (abs(f - ideal[i]), f)))
        return tuple(chosen)
    return None


def car_cells(cells: int, cars: int) -> set[int]:
    """Where ``cars`` cars go in a run of ``cells`` with nothing in the way:
    spread evenly with a gap between each two where the run is long enough
    (so the route's length can be counted), side by side where it is not."""
    if cells < 2 * cars - 1:
        return set(range(min(cells, cars)))
    if cars == 1:
        return {cells // 2}
    # With room for it, a gap at each end too: a city's label beside it covers a gap, not a car.
    margin = 1 if cells >= 2 * cars + 1 else 0
    step = (cells - 1 - 2 * margin) / (cars - 1)
    return {margin + round(i * step) for i in range(cars)}


def shared_cells(all_runs: Iterable[tuple[Cell, ...]]) -> set[Cell]:
    """Cells on more than one run: where routes cross, no car is drawn (it
    would hide the other route's), so a crossing never miscounts either."""
    seen: set[Cell] = set()
    shared: set[Cell] = set()
    for run in all_runs:
        for cell in run:
            (shared if cell in seen else seen).add(cell)
    return shared
