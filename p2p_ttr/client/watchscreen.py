"""The table on a shared screen (a watcher, a replay) as styled text at a
given size: a pure function of a snapshot with no seat and of what the
viewer has open.

Made for a big screen, the map first. From ``MAP_COLUMNS`` x ``MAP_ROWS``
up the map takes every row between the header and the status, and every
column but the side column's; the side column holds the players, the
face-up row, every seat's last turn, the hands a replay has opened, and
below them the log in words, as many rows as are left::

    header                       (game, turn, whose turn, final round, what this is)
    map of Europe  | players, face-up row, tunnel, last turns, open hands
                   | ---- log ----
                   | the moves in words
    status: what the table waits for, or where the replay stands
    keys: what each key does

Smaller (80x24 included) the same without the map, in two columns where
they fit, the log below. A page (the final score and the audit, help)
takes the place of the map and the panel. It never reads a private card
the view does not hold: a watcher's view holds none.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .mapview import draw_map, legend, marks_for
from .panel import forfeited_lines, players_lines, row_lines, tunnel_lines
from .stocks import stock_lines
from .screen import Page, header_parts, log_rows, log_start, pack, page_lines, page_rows, status_lines, too_small
from .snapshot import Snapshot
from .spectator import every_turn_lines, latest, open_hand_lines
from .techwords import technology_lines
from .styled import Line, fit, join, text_of, wrap
from .words import BOARD

MAP_COLUMNS, MAP_ROWS = 100, 26  # the whole terminal from which the map is drawn (the side column holds the log)
TWO_COLUMNS = 72  # narrower, the panel without the map is one column
MIN_COLUMNS, MIN_ROWS = 40, 10
MIN_LOG = 3  # rows the log keeps however long the panel is


@dataclass(frozen=True)
class WatchModel:
    """One frame of the shared screen: the snapshot (no seat), and the viewer's own state."""

    snap: Snapshot
    mode: str = "watching"  # said in the header: "watching", "replay: move 12 of 240", ...
    keys: str = ""  # the bottom line: what the keys do
    page: Page | None = None
    log_top: int | None = None  # the log's first row shown (as wrapped); None: its end


def side_width(width: int) -> int:
    """The side column beside the map: the players' table whole, the rest to the map."""
    return max(40, min(60, width // 4 + 12))


def map_width(width: int) -> int:
    """The map's columns: all but the side column's and the rule's."""
    return width - side_width(width) - 1


def with_map(width: int, height: int) -> bool:
    return width >= MAP_COLUMNS and height >= MAP_ROWS - 1


def render(model: WatchModel, width: int, height: int) -> list[Line]:
    """``height`` lines of exactly ``width`` columns."""
    snap = model.snap
    bottom = status_lines(snap.status, width)[:1]
    if model.page is None:  # a page says its keys in its own footer
        bottom += [fit(line, width) for line in wrap([("class:dim", " " + model.keys)], width)[:1]]
    if width < MIN_COLUMNS or height < MIN_ROWS:
        return too_small(width, height, bottom)
    top = [fit(line, width, "class:header") for line in pack(header(model), width)[:2]]
    body = height - len(top) - len(bottom)
    if model.page is not None:
        return top + page_lines(model.page, width, body) + bottom
    if snap.view is None:
        return top + waiting_lines(snap, width, body) + bottom
    if with_map(width, height):
        return top + map_body(model, width, body) + bottom
    return top + compact_body(model, width, body) + bottom


def map_area(model: WatchModel, width: int, height: int) -> tuple[int, int] | None:
    """The map's columns and rows on this screen (None: no map at this size)."""
    if not with_map(width, height):
        return None
    top = pack(header(model), width)[:2]
    bottom = 1 + (model.page is None)  # the status, and the keys unless a page says its own
    return map_width(width), height - len(top) - bottom


def header(model: WatchModel) -> list[Line]:
    """The player's header (game, turn, whose turn, the final round) and what
    this screen is; over a page (the score, the audit) the game's title
    alone: whose turn it was at the replay's move is not the page's."""
    parts = header_parts(model.snap)
    return (parts[:1] if model.page is not None else parts) + [[("class:header.you", f" {model.mode} ")]]


def waiting_lines(snap: Snapshot, width: int, height: int) -> list[Line]:
    """Before the game: what we wait for, and the log of notes."""
    lines: list[Line] = [[("class:title", " waiting for the game to start")]]
    rows = log_rows(snap.log, width)
    room = max(0, height - 2)
    lines += [[]] + rows[-room:] if room else []
    return _pad(lines, width, height)


def panel_lines(snap: Snapshot, width: int, beside: bool) -> tuple[list[Line], list[Line]]:
    """The panel, as (the table, what happened): the players and the
    face-up row; every seat's last turn, the hands opened, the seats that left."""
    view = snap.view
    assert view is not None
    table = players_lines(view, None, snap.names, width, snap.forfeited) + [[]]
    table += (row_lines(view, width) + technology_lines(view, snap.names, width) + tunnel_lines(view, width)
              + stock_lines(view, snap.names, width))
    happened = every_turn_lines(snap.turns, view, width, beside)
    happened += forfeited_lines(view, None, snap.names, snap.forfeited, width)
    happened += open_hand_lines(view, snap.names, width, snap.forfeited)
    return table, happened


def side_lines(snap: Snapshot, width: int, room: int) -> list[Line]:
    """The side column's panel in at most ``room`` rows. Where it is longer,
    the hands a replay opened (what --open is for) come before the last
    turns (the log tells them too); what still does not fit is said, never
    cut silently."""
    table, happened = panel_lines(snap, width, beside=False)
    panel = table + [[]] + happened
    view = snap.view
    if len(panel) > room and view is not None:
        hands = open_hand_lines(view, snap.names, width, snap.forfeited)
        if hands:
            panel = table + [[]] + forfeited_lines(view, None, snap.names, snap.forfeited, width) + hands
    if len(panel) > room > 0:
        hidden = len(panel) - room + 1
        panel = panel[: room - 1] + [[("class:dim", f" … {hidden} rows more in a taller window")]]
    return panel[: max(0, room)]


def map_body(model: WatchModel, width: int, height: int) -> list[Line]:
    """The map, as large as the screen allows, beside the side column (the panel, then the log)."""
    snap = model.snap
    view = snap.view
    side_w = side_width(width)
    map_w = map_width(width)
    shown = view.game.board if view is not None else BOARD  # before the seating: the default board
    marks = marks_for(shown, view, None, turns=snap.turns)
    last = latest(snap.turns)
    if last is not None:  # what was claimed in the latest turn is lit up
        marks = replace(marks, recent=frozenset(last.claimed), recent_stations=frozenset(last.built))
    board = draw_map(shown, marks, map_w, height)
    panel = side_lines(snap, side_w, height - MIN_LOG - 1)
    side = panel + log_pane(model, side_w, height - len(panel), legend_too=False)
    return [join((m, map_w), (s, side_w), sep=("class:rule", "│")) for m, s in zip(board, _pad(side, side_w, height))]


def compact_body(model: WatchModel, width: int, height: int) -> list[Line]:
    """No map: the players and the row on the left, the last turns on the
    right level with the players (one column when narrow), the log below."""
    upper = compact_upper(model.snap, width, height)
    return upper + log_pane(model, width, height - len(upper), legend_too=False)


def compact_upper(snap: Snapshot, width: int, height: int) -> list[Line]:
    """The compact panel, at most as tall as leaves the log ``MIN_LOG`` rows."""
    if width < TWO_COLUMNS:
        table, happened = panel_lines(snap, width, beside=False)
        upper = table + happened
    else:
        left_w = (width - 1) // 2
        right_w = width - 1 - left_w
        left, _ = panel_lines(snap, left_w, beside=True)
        _, right = panel_lines(snap, right_w, beside=True)
        rows = max(len(left), len(right))
        upper = [join((a, left_w), (b, right_w), sep=("class:rule", "│"))
                 for a, b in zip(_pad(left, left_w, rows), _pad(right, right_w, rows))]
    upper = upper[: max(0, height - MIN_LOG - 1)]
    return _pad(upper, width, len(upper))


def log_pane(model: WatchModel, width: int, height: int, legend_too: bool) -> list[Line]:
    """A rule, then the log's rows in ``height - 1`` rows (its end, or where the viewer scrolled)."""
    if height <= 0:
        return []
    rows = log_rows(model.snap.log, width)
    shown_h = height - 1
    top = log_start(len(rows), shown_h, model.log_top)
    rule: Line = [("class:rule", "─ log ─  ")]
    if top + shown_h < len(rows):
        rule.append(("class:dim", f"{len(rows) - top - shown_h} newer rows below (PageDown)"))
    elif legend_too:
        rule += legend(model.snap.view.game if model.snap.view is not None else None)
    shown = rows[top: top + shown_h]
    return [fit(rule, width, "class:rule")] + [fit([], width) for _ in range(shown_h - len(shown))] + shown


def log_height(model: WatchModel, width: int, height: int) -> tuple[int, int]:
    """(the log's rows on screen, its width) at this size: a scroll moves by that many."""
    snap = model.snap
    body = height - len(pack(header(model), width)[:2]) - 2
    if snap.view is None:
        return max(1, body - 2), width
    if with_map(width, height):
        side_w = side_width(width)
        panel = len(side_lines(snap, side_w, body - MIN_LOG - 1))
        return max(1, body - panel - 1), side_w
    return max(1, body - len(compact_upper(snap, width, body)) - 1), width


def scrolled(model: WatchModel, width: int, height: int, pages: int) -> WatchModel:
    """``model`` with its log (or its page) scrolled by ``pages`` panes; the first and last row stop it."""
    if model.page is not None:
        pane = max(1, height - len(pack(header(model), width)[:2]) - 1 - 2)
        last = max(0, len(page_rows(model.page, width)) - pane)
        offset = max(0, min(last, model.page.offset + pages * pane))
        return replace(model, page=replace(model.page, offset=offset))
    shown, log_w = log_height(model, width, height)
    rows = len(log_rows(model.snap.log, log_w))
    top = log_start(rows, shown, model.log_top) + pages * shown
    return replace(model, log_top=None if top >= rows - shown else max(0, top))


def _pad(lines: list[Line], width: int, height: int) -> list[Line]:
    lines = lines[:height]
    return [fit(line, width) for line in lines] + [fit([], width) for _ in range(height - len(lines))]


def screen_text(model: WatchModel, width: int, height: int) -> str:
    """The screen as plain text (what it shows without colour)."""
    return "\n".join(text_of(line) for line in render(model, width, height))
