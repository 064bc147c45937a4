"""Where each city's name goes on the map: a label placement that covers
nothing a player needs.

Each label is tried at the places around its dot where it still reads as
that dot's (touching it: beside it on its row, else above or below it,
centred or starting or ending by its column). A place is *free* when the
label and the blank kept at each of its ends cover no city's dot, no other
label, and leave every route as many cells of its own as it has cars (so its
cars are still drawn one by one and can be counted). Among free places the
cheapest wins: a place off the dot's row, route cells covered (a track cut by
a name reads worse than a whole one), a tunnel's or ferry's last gap taken
(where its mark shows), other cities' dots touching the name (which would it
name?) all cost.

Labels are placed greedily, the city with the fewest free places first (a
hub wedged between its routes, before a coastal city with room all round).
A city left with no free place for its whole name then tries each place
again with the labels in its way (two at most) moved to other free places
of their own: a small search, enough where names contend for one gap. The
pass is run again with the cities that still lost their names first, a few
times, and the best pass kept. Only then does a city get its shortest
unambiguous abbreviation (three letters or more, unique on the board): a
whole name over a dot, a car or another name would read worse than a short
one over nothing. A city with no free place even for that (a map far too
small) takes the place that covers no dot and no label and takes the
fewest routes' counts (those routes then show their length as a digit):
a dot with no name is the worse loss.

Deterministic: the order and every tie are broken by cost, then name.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2p_ttr.engine.board import Board, fold_name

from .maptracks import Cell

# What a place costs beyond being free (in the order a reader minds them).
OFF_ROW = 3  # above or below the dot rather than beside it on its row
OFF_CENTRE = 1  # per column the name's middle sits off its dot's column, above or below
COVERED = 2  # per route cell under the label or its blanks
CROWDED = 3  # per route whose cars no longer fit with gaps between them
NEAR_DOT = 12  # per other city's dot touching the name (which would it name?): nearly as bad as a name cut short
STACKED = 1  # per letter right above or below another label's
MARK_HIDDEN = 6  # per tunnel or ferry left no gap to show its mark in
SPOILED = 100  # per route whose count a name takes, where no place is free (the last resort)


@dataclass(frozen=True)
class Place:
    """A label's place: its first letter's cell and its text."""

    cell: Cell
    text: str

    @property
    def cells(self) -> list[Cell]:
        return [(self.cell[0] + i, self.cell[1]) for i in range(len(self.text))]

    @property
    def ends(self) -> list[Cell]:
        """The blank kept at either end, so that 'pPARIS' never reads as one word."""
        c, r = self.cell
        return [(c - 1, r), (c + len(self.text), r)]


def candidates(dot: Cell, text: str) -> list[tuple[Place, int]]:
    """Every place touching ``dot`` for ``text``, with what it costs for
    where it is: on the dot's row right then left, else above or below,
    centred first, any start whose letters reach the dot's column or the next."""
    c, r = dot
    n = len(text)
    out = [(Place((c + 1, r), text), 0), (Place((c - n, r), text), 1)]
    for start in sorted(range(c - n, c + 2), key=lambda s: (abs(2 * s + n - 1 - 2 * c), s)):
        off = abs(2 * start + n - 1 - 2 * c) // 2
        for row in (r - 1, r + 1):
            out.append((Place((start, row), text), OFF_ROW + OFF_CENTRE * off + (row > r)))
    return out


def label_name(city: str) -> str:
    """The name the map writes for ``city``: its name in capitals, without a
    qualifier in brackets. A place the data tells apart from others of one
    name by a bracket is printed on the board by that name alone
    (Switzerland's 'France (Geneve)' is a flag of France, by Geneve, and
    reads 'FRANCE' beside its flag as on the board)."""
    return city.split(" (")[0].upper()


def abbreviation(city: str, others: tuple[str, ...]) -> str:
    """The shortest beginning of ``city``'s label, three letters at least,
    that begins no other city's label on the board ('NEW Y', not 'NEW')."""
    name = label_name(city)
    keys = [fold_name(label_name(o)) for o in others if label_name(o) != name]
    for n in range(3, len(name)):
        head = name[:n].rstrip()
        if not any(k.startswith(fold_name(head)) for k in keys):
            return head
    return name


class Placer:
    """Labels being placed: what each covers, and what each route has left."""

    def __init__(self, board: Board, width: int, height: int, nodes: dict[str, Cell],
                 runs: dict[int, tuple[Cell, ...]], shared: set[Cell]) -> None:
        self.board, self.width, self.height, self.nodes = board, width, height, nodes
        self.dots = {cell: city for city, cell in nodes.items()}
        # A route cell no other route crosses, by route: where its cars may go.
        self.own: dict[Cell, int] = {cell: r for r, run in runs.items() for cell in run if cell not in shared}
        self.route_cells = {cell for run in runs.values() for cell in run}
        self.left = {r: sum(cell not in shared for cell in run) for r, run in runs.items()}
        self.placed: dict[str, Place] = {}
        self.letters: dict[Cell, str] = {}  # cell -> the city whose label covers it
        self.blanked: dict[Cell, int] = {}  # cell -> how many labels keep it blank
        self.covered: dict[Cell, int] = {}  # cell -> how many labels cover it, letters or blanks

    # ---------------------------------------------------------------- cost

    def cost(self, city: str, place: Place, rank: int, strict: bool = True) -> int | None:
        """What ``place`` costs for ``city``'s label now, None where it is not free
        (``strict``: a route's count must survive; else only dots and labels count)."""
        cells, ends = place.cells, place.ends
        if place.cell[0] < 0 or place.cell[0] + len(place.text) > self.width or not 0 <= place.cell[1] < self.height:
            return None
        if any(x in self.dots or x in self.letters or x in self.blanked for x in cells):
            return None
        if any(x in self.letters or self.dots.get(x, city) != city for x in ends):
            return None
        cost = rank
        taken: dict[int, int] = {}
        for x in cells + ends:
            if x in self.route_cells and x not in self.blanked and x not in self.dots:
                cost += COVERED
                if x in self.own:
                    taken[self.own[x]] = taken.get(self.own[x], 0) + 1
        for r, n in taken.items():
            route = self.board.routes[r]
            cars, left = route.length, self.left[r]
            if left >= cars > left - n:
                if strict:
                    return None  # its cars could be counted, and would not be
                cost += SPOILED  # the last resort: as few counts lost as can be
            if (route.tunnel or route.ferry_locomotives) and left >= cars + 1 > left - n:
                cost += MARK_HIDDEN  # a tunnel's or a ferry's last gap, where its mark shows
            if left >= 2 * cars - 1 > left - n:
                cost += CROWDED
        c0, row = place.cell
        near = {(c, rr) for c in range(c0 - 1, c0 + len(place.text) + 1) for rr in (row - 1, row, row + 1)}
        cost += NEAR_DOT * sum(1 for x in near if self.dots.get(x, city) != city)
        cost += STACKED * sum(1 for c, rr in cells for d in (-1, 1) if (c, rr + d) in self.letters)
        return cost

    def best(self, city: str, text: str, strict: bool = True) -> tuple[int, Place] | None:
        options = ((cost, place) for place, rank in candidates(self.nodes[city], text)
                   if (cost := self.cost(city, place, rank, strict)) is not None)
        return min(options, key=lambda o: (o[0], o[1].cell[1], o[1].cell[0]), default=None)

    def free_places(self, city: str, text: str) -> int:
        return sum(self.cost(city, p, rank) is not None for p, rank in candidates(self.nodes[city], text))

    # ---------------------------------------------------------------- placing

    def put(self, city: str, place: Place) -> None:
        self.placed[city] = place
        for x in place.cells:
            self.letters[x] = city
            self._cover(x, 1)
        for x in place.ends:
            if x not in self.dots:
                self.blanked[x] = self.blanked.get(x, 0) + 1
                self._cover(x, 1)

    def lift(self, city: str) -> Place:
        place = self.placed.pop(city)
        for x in place.cells:
            del self.letters[x]
            self._cover(x, -1)
        for x in place.ends:
            if x not in self.dots:
                self.blanked[x] -= 1
                if not self.blanked[x]:
                    del self.blanked[x]
                self._cover(x, -1)
        return place

    def _cover(self, cell: Cell, step: int) -> None:
        """A label takes ``cell`` (or gives it back): a route's own cell is lost
        to its cars while any label covers it, and counts once however many do."""
        before = self.covered.get(cell, 0)
        self.covered[cell] = before + step
        if cell in self.own and (before == 0) != (before + step == 0):
            self.left[self.own[cell]] -= step

    def with_others_moved(self, city: str, text: str) -> bool:
        """Place ``text`` for ``city`` by moving the labels in its way (at
        most ``MOVED`` of them) to other free places of their own, whole; the
        cheapest such arrangement, if any."""
        best: tuple[int, Place, dict[str, Place]] | None = None
        for place, rank in candidates(self.nodes[city], text):
            in_way = sorted({self.letters[x] for x in place.cells + place.ends if x in self.letters}
                            | {self._blanker(x) for x in place.cells if x in self.blanked})
            if not in_way or len(in_way) > MOVED:
                continue
            old = {other: self.lift(other) for other in in_way}
            cost = self.cost(city, place, rank)
            if cost is not None:
                self.put(city, place)
                moved: dict[str, Place] = {}
                for other in in_way:
                    found = self.best(other, old[other].text)
                    if found is None:
                        break
                    cost += found[0]
                    moved[other] = found[1]
                    self.put(other, found[1])
                for other in moved:
                    self.lift(other)
                self.lift(city)
                if len(moved) == len(in_way) and (best is None or cost < best[0]):
                    best = (cost, place, moved)
            for other in in_way:
                self.put(other, old[other])
        if best is None:
            return False
        _, place, moved = best
        for other in moved:
            self.lift(other)
        self.put(city, place)
        for other, to in moved.items():
            self.put(other, to)
        return True

    def _blanker(self, cell: Cell) -> str:
        """The city whose label keeps ``cell`` blank (the first found)."""
        return next(city for city, place in sorted(self.placed.items()) if cell in place.ends)


def place_labels(board: Board, width: int, height: int, nodes: dict[str, Cell],
                 runs: dict[int, tuple[Cell, ...]], shared: set[Cell]) -> dict[str, Place]:
    """Every city's label (see the module's text). The greedy pass is run
    again with the cities that lost their whole names first, a few times,
    and the best pass kept: fewest names cut short, then fewest routes cut."""
    first = Placer(board, width, height, nodes, runs, shared)
    order = sorted(board.cities, key=lambda c: (first.free_places(c, label_name(c)), -len(board.routes_at[c]), c))
    best: tuple[tuple[int, int], dict[str, Place]] | None = None
    for _ in range(ROUNDS):
        placer = Placer(board, width, height, nodes, runs, shared)
        short = _one_pass(placer, board, order)
        score = (len(short), sum(left < board.routes[r].length <= len(runs[r]) for r, left in placer.left.items()))
        if best is None or score < best[0]:
            best = (score, placer.placed)
        if not short:
            break
        order = short + [c for c in order if c not in short]
    assert best is not None
    return best[1]


# How many greedy passes at most: each puts the names the last one cut short first.
ROUNDS = 6
# How many labels in a name's way may be moved to make room for it.
MOVED = 2


def _one_pass(placer: Placer, board: Board, order: list[str]) -> list[str]:
    """Place every city's label in ``order``; the cities whose whole names found no free place."""
    short: list[str] = []
    for city in order:
        name = label_name(city)
        found = placer.best(city, name)
        if found is not None:
            placer.put(city, found[1])
        elif not placer.with_others_moved(city, name):
            short.append(city)
            text = abbreviation(city, board.cities)
            fallback = placer.best(city, text) or placer.best(city, text, strict=False)
            if fallback is not None:
                placer.put(city, fallback[1])
    return short
