"""The map of Europe drawn in characters: every city, every route, at any size."""

from __future__ import annotations

import pytest
from engine_scenario import route

from p2p_ttr.client.mapview import (
    CITY,
    MY_STATION,
    STATION,
    MapMarks,
    draw_map,
    geometry,
    legend,
)
from p2p_ttr.client.styled import plain, text_of
from p2p_ttr.engine.board import europe

BOARD = europe()
EMPTY = MapMarks((None,) * len(BOARD.routes))


@pytest.mark.parametrize("size", [(64, 20), (100, 30), (160, 45)])
def test_every_city_has_its_own_cell_and_the_map_fits(size: tuple[int, int]) -> None:
    width, height = size
    geo = geometry(width, height)
    cells = list(geo.nodes.values())
    assert len(set(cells)) == len(BOARD.cities) == 47
    assert all(0 <= c < width and 0 <= r < height for c, r in cells)
    lines = draw_map(EMPTY, width, height)
    assert len(lines) == height and all(len(text_of(line)) == width for line in lines)
    assert plain(lines).count(CITY) == 47
    # Nearly every route has cells of its own to be drawn in, and most cities a label.
    assert sum(1 for run in geo.runs.values() if run) >= len(BOARD.routes) - 2
    assert len(geo.labels) >= 40


def test_places_keep_their_geography() -> None:
    nodes = geometry(64, 20).nodes
    assert nodes["Lisboa"][0] < nodes["Paris"][0] < nodes["Berlin"][0] < nodes["Moskva"][0]
    assert nodes["Edinburgh"][1] < nodes["Paris"][1] < nodes["Roma"][1] < nodes["Palermo"][1]


def test_glyphs_read_without_colour() -> None:
    """Colours as letters, gray as lines, owners as seat numbers, stations as squares."""
    paris_frankfurt = route("Paris", "Frankfurt", "orange")
    owners = [None] * len(BOARD.routes)
    owners[route("Edinburgh", "London", "orange")] = 1
    marks = MapMarks(tuple(owners), (("Wien", 0), ("Roma", 2)), me=0, open_cities=frozenset({"Paris"}),
                     highlight=frozenset({paris_frankfurt}))
    lines = draw_map(marks, 160, 45)
    text = plain(lines)
    assert MY_STATION in text and STATION in text and "2" in text
    geo = geometry(160, 45)
    run = geo.runs[route("Edinburgh", "London", "orange")]
    row = [text.splitlines()[r][c] for c, r in run]
    assert "2" in row and "k" in row  # the owner's seat on one side, the black side's glyph on the other
    # Paris-Frankfurt is a double: orange and white take turns along the run, lit as the path.
    cells = {text.splitlines()[r][c] for c, r in geo.runs[paris_frankfurt]}
    assert {"o", "w"} <= cells
    styles = {style for line in lines for style, _ in line}
    assert any("class:path" in s for s in styles) and "class:label.ticket" in styles
    assert "PARIS" in text and "MOSKVA" in text  # whole names where there is room
    assert "PAR" in plain(draw_map(EMPTY, 64, 20))  # three letters where there is not


def test_the_legend_names_every_glyph() -> None:
    key = text_of(legend())
    for glyph in "pbowgykr^~":
        assert glyph in key
    assert "k black" in key and len(key) <= 91  # fits beside the log's title in 100 columns


def test_too_small_for_a_map_draws_nothing() -> None:
    lines = draw_map(EMPTY, 10, 4)
    assert plain(lines) == "\n".join([" " * 10] * 4)
