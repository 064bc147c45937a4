"""The map of Europe drawn in characters: every city, every route, at any size."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from client_states import NAMES, game_states
from engine_scenario import route

from p2p_ttr.client.mapview import (
    CITY,
    GLYPHS,
    MY_STATION,
    STATION,
    MapMarks,
    draw_map,
    geometry,
    legend,
    marks_for,
)
from p2p_ttr.client.styled import plain, text_of
from p2p_ttr.engine.board import europe
from p2p_ttr.engine.boards import europe_game, load_game

BOARD = europe()
EMPTY = MapMarks((None,) * len(BOARD.routes))


@pytest.mark.parametrize("size", [(64, 20), (100, 30), (160, 45)])
def test_every_city_has_its_own_cell_and_the_map_fits(size: tuple[int, int]) -> None:
    width, height = size
    geo = geometry(BOARD, width, height)
    cells = list(geo.nodes.values())
    assert len(set(cells)) == len(BOARD.cities) == 47
    assert all(0 <= c < width and 0 <= r < height for c, r in cells)
    lines = draw_map(BOARD, EMPTY, width, height)
    assert len(lines) == height and all(len(text_of(line)) == width for line in lines)
    assert plain(lines).count(CITY) == 47
    # Nearly every route has cells of its own to be drawn in, and most cities a label.
    assert sum(1 for run in geo.runs.values() if run) >= len(BOARD.routes) - 2
    assert len(geo.labels) >= 40


def test_places_keep_their_geography() -> None:
    nodes = geometry(BOARD, 64, 20).nodes
    assert nodes["Lisboa"][0] < nodes["Paris"][0] < nodes["Berlin"][0] < nodes["Moskva"][0]
    assert nodes["Edinburgh"][1] < nodes["Paris"][1] < nodes["Roma"][1] < nodes["Palermo"][1]


def test_glyphs_read_without_colour() -> None:
    """Colours as letters, gray as lines, owners as seat numbers, stations as squares."""
    paris_frankfurt = route("Paris", "Frankfurt", "orange")
    owners = [None] * len(BOARD.routes)
    owners[route("Edinburgh", "London", "orange")] = 1
    marks = MapMarks(tuple(owners), (("Wien", 0), ("Roma", 2)), me=0, open_cities=frozenset({"Paris"}),
                     highlight=frozenset({paris_frankfurt}))
    lines = draw_map(BOARD, marks, 160, 45)
    text = plain(lines)
    assert MY_STATION in text and STATION in text and "2" in text
    geo = geometry(BOARD, 160, 45)
    cells = {text.splitlines()[r][c] for c, r in geo.runs[route("Edinburgh", "London", "orange")]}
    assert cells == {"2", "·"}  # the owner's seat on each car of the taken side
    cells = {text.splitlines()[r][c] for c, r in geo.runs[route("Edinburgh", "London", "black")]}
    assert cells == {"k", "·"}  # the other side beside it, still open
    # Paris-Frankfurt is a double: two tracks, orange and white, the orange lit as the path.
    assert "o" in {text.splitlines()[r][c] for c, r in geo.runs[paris_frankfurt]}
    assert "w" in {text.splitlines()[r][c] for c, r in geo.runs[route("Paris", "Frankfurt", "white")]}
    styles = {style for line in lines for style, _ in line}
    assert any("class:path" in s for s in styles) and "class:label.ticket" in styles
    assert "PARIS" in text and "MOSKVA" in text  # whole names where there is room
    assert "PAR" in plain(draw_map(BOARD, EMPTY, 64, 20))  # three letters where there is not


def test_the_legend_keys_only_the_marks_a_board_has() -> None:
    asia = text_of(legend(load_game("asia")))
    assert "▲mountain" in asia and "~ferry" in asia and "x shut" in asia
    assert "tunnel" not in asia and "station" not in asia
    europe = text_of(legend(europe_game()))
    assert "^tunnel" in europe and "station" in europe and "mountain" not in europe


def test_a_mountain_routes_gaps_carry_its_mark() -> None:
    asia = load_game("asia").board
    lines = draw_map(asia, marks_for(asia, None, None), 120, 40)
    geo = geometry(asia, 120, 40)
    text = plain(lines).splitlines()
    mountain = next(r for r in asia.routes if r.mountain_x and len(geo.runs[r.id]) > len(geo.cars[r.id]))
    assert "▲" in {text[row][col] for col, row in geo.runs[mountain.id]}


def test_the_legend_names_every_glyph() -> None:
    key = text_of(legend())
    for glyph in "pbowgykr^~":
        assert glyph in key
    assert "k black" in key and len(key) <= 91  # fits beside the log's title in 100 columns


def test_too_small_for_a_map_draws_nothing() -> None:
    lines = draw_map(BOARD, EMPTY, 10, 4)
    assert plain(lines) == "\n".join([" " * 10] * 4)


# ------------------------------------------------------------------ legibility (#14 item 3)

SIZES = [(100, 30), (120, 40), (160, 45), (200, 60)]
CAPTURES = Path(__file__).parent / "data"


def _map_size(width: int, height: int) -> tuple[int, int]:
    """The map's own size in a terminal of ``width`` x ``height`` (screen.map_body)."""
    side = 35 + min(20, (width - 100) // 4)
    log = 5 + max(0, (height - 29) // 4)
    return width - side - 1, height - 1 - 1 - 1 - 2 - log


@pytest.mark.parametrize("size", SIZES)
def test_labels_touch_their_dot_and_keep_a_blank_from_routes(size: tuple[int, int]) -> None:
    width, height = _map_size(*size)
    geo = geometry(BOARD, width, height)
    rows = plain(draw_map(BOARD, EMPTY, width, height)).splitlines()
    route_chars = set("pbowgykr-|/\\^~·x") | set("12345")
    for city, ((c, r), text) in geo.labels.items():
        nc, nr = geo.nodes[city]
        cells = [(c + i, r) for i in range(len(text))]
        assert min(max(abs(x - nc), abs(y - nr)) for x, y in cells) <= 1, city  # beside its dot
        assert rows[r][c:c + len(text)] == text, city  # drawn whole
        for x in (c - 1, c + len(text)):
            if 0 <= x < width:
                assert rows[r][x] not in route_chars, (city, rows[r])


@pytest.mark.parametrize("size", SIZES)
def test_double_routes_run_as_two_tracks_and_cars_can_be_counted(size: tuple[int, int]) -> None:
    width, height = _map_size(*size)
    geo = geometry(BOARD, width, height)
    for route in BOARD.routes:
        for side in BOARD.routes_between(route.a, route.b):
            if side.id != route.id:
                assert not set(geo.runs[route.id]) & set(geo.runs[side.id]), route.label
    rows = plain(draw_map(BOARD, EMPTY, width, height)).splitlines()
    countable = [route for route in BOARD.routes if route.color != "gray" and geo.countable(route.id, route.length)]
    # One letter per car wherever the route has the cells: crossings and labels never hide one.
    for route in countable:
        assert sum(rows[r][c] == GLYPHS[route.color] for c, r in geo.runs[route.id]) == route.length, route.label
    assert len(countable) >= 40  # of 70 coloured routes, even in 100x30


@pytest.mark.parametrize("size", SIZES)
def test_a_route_too_short_to_count_shows_its_length(size: tuple[int, int]) -> None:
    """Where the scale leaves a route fewer cells than it has cars, its
    length is written among its letters ("r4r"): every open route's length
    can be read, one way or the other."""
    width, height = _map_size(*size)
    geo = geometry(BOARD, width, height)
    rows = plain(draw_map(BOARD, EMPTY, width, height)).splitlines()
    for route in BOARD.routes:
        cars = geo.cars[route.id]
        if not geo.countable(route.id, route.length) and len(cars) >= 3:
            assert str(route.length) in {rows[r][c] for c, r in geo.runs[route.id]}, route.label


def test_a_closed_side_is_drawn_closed() -> None:
    owners: list[int | None] = [None] * len(BOARD.routes)
    taken = route("Paris", "Frankfurt", "orange")
    owners[taken] = 1
    white = route("Paris", "Frankfurt", "white")
    marks = MapMarks(tuple(owners), closed=frozenset({white}))
    geo = geometry(BOARD, 111, 38)
    rows = plain(draw_map(BOARD, marks, 111, 38)).splitlines()
    others = {cell for r, run in geo.runs.items() if r != white for cell in run}
    labels = {(c + i, r) for (c, r), text in geo.labels.values() for i in range(-1, len(text) + 1)}
    own = [cell for cell in geo.runs[white] if cell not in others and cell not in labels]
    assert own and {rows[r][c] for c, r in own} == {"x"}  # where no other route crosses it, nor a label
    assert "2" in {rows[r][c] for c, r in geo.runs[taken]}


@pytest.mark.parametrize("size", SIZES)
def test_the_screen_matches_its_capture(size: tuple[int, int]) -> None:
    """Captures of the whole screen, a game well under way, at four sizes:
    look at them when the map changes (TTR_UPDATE_CAPTURES=1 writes them anew)."""
    from p2p_ttr.client.screen import ScreenModel, screen_text
    from p2p_ttr.client.snapshot import Snapshot
    from p2p_ttr.engine.view import view_for

    state = game_states()[300]
    snap = Snapshot(seat=0, names=NAMES, view=view_for(state, 0), game="3fa2c1d0aa", status="your move")
    text = screen_text(ScreenModel(snap), size[0], size[1] - 1)
    capture = CAPTURES / f"screen_{size[0]}x{size[1]}.txt"
    if os.environ.get("TTR_UPDATE_CAPTURES"):
        capture.parent.mkdir(exist_ok=True)
        capture.write_text(text + "\n")
    assert text + "\n" == capture.read_text()


# ------------------------------------------------------------------ #23 item 5: names, the last move, one network


def test_at_120x40_cities_have_their_whole_names_at_their_dots() -> None:
    """Whole names, touching their dots: on the dot's row where they can
    be, else above or below it, never a name reaching over another's dot."""
    width, height = _map_size(120, 40)
    geo = geometry(BOARD, width, height)
    assert {text for _, text in geo.labels.values()} == {city.upper() for city in BOARD.cities}
    on_row = 0
    for city, ((c, r), text) in geo.labels.items():
        nc, nr = geo.nodes[city]
        if r == nr:
            on_row += 1
            assert c == nc + 1 or c + len(text) == nc, city  # touching the dot, left or right
        else:
            assert abs(r - nr) == 1 and c - 1 <= nc <= c + len(text), city  # above or below, by its column
    assert on_row >= len(geo.labels) // 2
    # A cramped map (100x30's) has fewer whole names: a name there would hide cars.
    cramped = geometry(BOARD, *_map_size(100, 30)).labels.values()
    assert any(len(text) < 5 for _, text in cramped)


def test_the_others_last_claims_are_lit_up() -> None:
    states = game_states()
    from p2p_ttr.client.snapshot import Publisher
    from client_states import FakeTable
    from p2p_ttr.client.mapview import marks_for

    publisher, table = Publisher("join"), FakeTable()
    # Up to the first of our turns after someone else claimed a route.
    for i, state in enumerate(states):
        table.engine, table.log = state, [b""] * i
        publisher.update(table, 0, NAMES)  # type: ignore[arg-type]
        snap = publisher.snapshot
        if snap.view is not None and snap.view.current == 0 and snap.turns.others_since(0, snap.view) and any(
                t.claimed for t in snap.turns.others_since(0, snap.view)):
            break
    assert snap.view is not None
    claimed = {r for t in snap.turns.others_since(0, snap.view) for r in t.claimed}
    marks = marks_for(BOARD, snap.view, 0, turns=snap.turns)
    assert marks.recent == claimed and claimed
    lines = draw_map(BOARD, marks, 109, 31)
    geo = geometry(BOARD, 109, 31)
    lit = {(c, r) for r, line in enumerate(lines) for c, (style, _) in enumerate(
        (style, ch) for style, text in line for ch in text) if "class:recent" in style}
    for route_id in claimed:
        assert set(geo.runs[route_id]) & lit, BOARD.routes[route_id].label


def test_map_seat_shows_one_network_alone() -> None:
    owners: list[int | None] = [None] * len(BOARD.routes)
    mine, theirs = route("Paris", "Frankfurt", "orange"), route("Edinburgh", "London", "orange")
    owners[mine], owners[theirs] = 0, 1
    marks = MapMarks(tuple(owners), (("Wien", 1), ("Roma", 0)), me=0, focus=1)
    geo = geometry(BOARD, 109, 31)
    lines = draw_map(BOARD, marks, 109, 31)
    rows = plain(lines).splitlines()
    assert {rows[r][c] for c, r in geo.runs[theirs]} <= {"2", "·"}  # Bob's, shown
    assert "1" not in {rows[r][c] for c, r in geo.runs[mine]}  # ours, faint dots: not the network shown
    c, r = geo.nodes["Wien"]
    assert rows[r][c] == STATION
    c, r = geo.nodes["Roma"]
    assert rows[r][c] == CITY  # our station is not Bob's network
