"""The whole screen as styled text at a given size: a pure function of a
snapshot of the game and of what the player has on screen.

From 100x30 up, the map of Europe beside the panel::

    header                         (game, turn, whose turn, final round)
    map of Europe   | players, hand, face-up row, tickets, routes to claim
    ---- log --------------- map key (or, scrolled back, where in the log)
    the moves in words | each seat's last turn, ours too
    status: what the table waits for
    echo: the answer to the last command, or a question and its choices

Below that (80x24, the classic terminal, included) the same panel without
the map, in two columns where they fit, each player's last turn level with
their row (what happened since your turn is always on screen, however
little of the log is). Every line wraps or is laid out to
fit the width: a question's choices are a list of their own, all shown.
The input line below it belongs to the terminal app. A page (help, the
rules, the final score) takes the place of the map and the panel.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field, replace
from functools import lru_cache

from p2p_ttr.engine.state import Phase

from .claimable import claimable
from .lastturn import Moment, moment_of
from .mapview import GLYPHS, draw_map, legend, marks_for
from .numbering import turn_number
from .panel import (
    PLAYER_STYLE,
    claim_lines,
    forfeited_lines,
    hand_lines,
    offered_lines,
    players_lines,
    row_lines,
    ticket_lines,
    tunnel_lines,
    turn_lines,
)
from .laying import supply_lines
from .pagetext import Block, lay_out
from .snapshot import Snapshot
from .stocks import stock_lines
from .techwords import technology_lines
from .styled import Fragment, Line, fit, join, text_of, wrap
from .words import BOARD, plural, whose

MAP_COLUMNS, MAP_ROWS = 100, 30  # the whole terminal, the input line included, from which the map is drawn
TWO_COLUMNS = 72  # narrower than this, the compact panel is one column
MIN_COLUMNS, MIN_ROWS = 40, 12  # below this only the status and the answers to commands are shown
SIDE = 35  # the panel's width in a 100-column terminal
CLAIM_ROWS = 3  # the panel keeps this many rows for the routes the hand pays for


@dataclass(frozen=True)
class Page:
    """Text that takes the place of the map and panel until closed."""

    title: str
    lines: tuple[Block, ...]
    offset: int = 0  # rows of the page, as laid out at the screen's width, scrolled past
    footer: str = "Esc closes · PageUp/PageDown scroll"


@dataclass(frozen=True)
class Echo:
    """The answer to the last command: said, refused or asked. A question
    lists its ``choices`` as (what to type, what it does). An answer holds
    for a while only: ``said_at``, the moment of the game it answered
    ("claiming Wien–Budapest" holds until the claim is in the log, the turn
    after it); ``of_page``, it speaks of the page open ("Commands: Esc
    closes") and goes with it."""

    text: str = ""
    style: str = "class:echo"
    choices: tuple[tuple[str, str], ...] = ()
    said_at: Moment | None = None
    of_page: bool = False


def echo_shown(model: ScreenModel) -> Echo:
    """The echo, or none where it no longer holds: said of a page since
    closed, or at a moment of the game that has passed."""
    echo, view = model.echo, model.snap.view
    if echo.of_page and model.page is None:
        return Echo()
    if echo.said_at is not None and view is not None and moment_of(view) != echo.said_at:
        return Echo()
    return echo


@dataclass(frozen=True)
class ScreenModel:
    """Everything one frame of the full screen shows: the snapshot and the screen's own state."""

    snap: Snapshot
    echo: Echo = field(default_factory=Echo)
    highlight: frozenset[int] = frozenset()
    page: Page | None = None
    log_top: int | None = None  # the log's first row shown (rows as wrapped at the width); None: its end
    focus: int | None = None  # the seat whose network the map shows alone (``map SEAT``)


@dataclass(frozen=True)
class Frame:
    """How one frame's rows are shared out at a given size."""

    top: list[Line]  # the header
    bottom: list[Line]  # the status and the echo
    body: int  # rows for the map and panel, or a page
    log: int  # rows for the log
    with_map: bool


def frame(model: ScreenModel, width: int, height: int) -> Frame | None:
    """The rows of each part at this size (None: too small for more than words)."""
    bottom = status_lines(model.snap.status, width) + echo_lines(echo_shown(model), width)
    if width < MIN_COLUMNS or height < MIN_ROWS - 1:
        return None
    with_map = width >= MAP_COLUMNS and height >= MAP_ROWS - 1
    top = [fit(line, width, "class:header") for line in header_lines(model.snap, width)]
    bottom = bottom[: max(1, height - len(top) - 8)]  # a question never hides the whole table
    log_h = 5 + max(0, (height - (MAP_ROWS - 1)) // 4) if with_map else 4 + max(0, (height - 23) // 3)
    # Rows the question and a second header line need come from the log first.
    spare = height - len(top) - 1 - len(bottom) - log_h - (MAP_ROWS - 1 - 10 if with_map else 13)
    log_h = max(1, log_h + min(0, spare))
    return Frame(top, bottom, height - len(top) - 1 - len(bottom) - log_h, log_h, with_map)


def render(model: ScreenModel, width: int, height: int) -> list[Line]:
    """``height`` lines of exactly ``width`` columns (the terminal's rows less the input line)."""
    parts = frame(model, width, height)
    if parts is None:
        return too_small(width, height, status_lines(model.snap.status, width) + echo_lines(echo_shown(model), width))
    lines = list(parts.top)
    if model.page is not None:
        lines += page_lines(model.page, width, parts.body)
    elif parts.with_map:
        lines += map_body(model, width, parts.body)
    else:
        lines += compact_body(model.snap, width, parts.body)
    log_w = log_width(model, parts, width)
    rows = log_rows(model.snap.log, log_w)
    top = log_start(len(rows), parts.log, model.log_top)
    rule: Line = [("class:rule", "─ log ─  ")]
    if top + parts.log < len(rows):
        # Scrolled back: where in the log, said on the rule so that every row below shows a line.
        newer = len(rows) - top - parts.log
        rule.append(("class:dim", f"rows {top + 1}–{top + parts.log} of {len(rows)}, "
                                  f"{plural(newer, 'newer row')} below (PageDown)"))
    elif parts.with_map and model.page is None:
        if model.focus is not None:
            # Said for as long as it holds: a map with one network reads as a quiet game otherwise.
            owner = whose(model.focus, model.snap.seat, model.snap.names)
            rule.append(("class:ask", f"the map shows {owner} network alone (map all: everyone's) "))
        rule += legend(model.snap.view.game if model.snap.view is not None else None)
    lines.append(fit(rule, width, "class:rule"))
    shown = rows[top: top + parts.log]
    log = [fit([], log_w) for _ in range(parts.log - len(shown))] + shown
    if log_w < width:
        # Beside the log, under the panel: each seat's last turn, ours too, however fast the log runs.
        turns = turns_beside_log(model.snap, width - log_w - 1, parts.log)
        log = [join((row, log_w), (turn, width - log_w - 1), sep=("class:rule", "│"))
               for row, turn in zip(log, _pad(turns, width - log_w - 1, parts.log))]
    return lines + log + parts.bottom


def log_width(model: ScreenModel, parts: Frame, width: int) -> int:
    """The log's columns: the map's where there is a map (the last turns
    take the panel's column beside it), else the screen's."""
    snap = model.snap
    return map_width(width) if parts.with_map and snap.view is not None and snap.seat is not None else width


def turns_beside_log(snap: Snapshot, width: int, height: int) -> list[Line]:
    """LAST TURN in ``height`` rows: long words wrapped where the rows allow;
    else cut, then without its title, then without our own row (the
    others' are what we have not seen)."""
    assert snap.view is not None and snap.seat is not None
    lines = turn_lines(snap.turns, snap.view, snap.seat, width, beside=False, wrapped=True)
    if len(lines) > height:
        lines = turn_lines(snap.turns, snap.view, snap.seat, width, beside=False)
    if len(lines) > height:
        lines = lines[1:]
    if len(lines) > height:
        lines = lines[: snap.seat] + lines[snap.seat + 1:]
    return lines[:height]


# ------------------------------------------------------------------ scrolling


def log_start(rows: int, height: int, top: int | None) -> int:
    """The first of ``rows`` log rows shown in ``height`` rows: ``top``, kept
    where a whole pane of rows still follows it; the end when ``top`` is None."""
    last = max(0, rows - height)
    return last if top is None else max(0, min(top, last))


def scrolled(model: ScreenModel, width: int, height: int, pages: int) -> ScreenModel:
    """``model`` scrolled by ``pages`` panes (back when negative): the open
    page, else the log. A pane is what is on screen, so every row is seen and
    none is skipped; the first and the last row stop it."""
    parts = frame(model, width, height)
    if parts is None:
        return model
    if model.page is not None:
        pane = max(1, parts.body - 2)
        last = max(0, len(page_rows(model.page, width)) - pane)
        return replace(model, page=replace(model.page, offset=max(0, min(last, model.page.offset + pages * pane))))
    rows = len(log_rows(model.snap.log, log_width(model, parts, width)))
    top = log_start(rows, parts.log, model.log_top) + pages * parts.log
    # At the end again: follow it, as new lines come.
    return replace(model, log_top=None if top >= rows - parts.log else max(0, top))


def map_width(width: int) -> int:
    """The map's columns in a screen ``width`` wide (the panel beside it takes the rest)."""
    return width - (SIDE + min(20, (width - MAP_COLUMNS) // 4)) - 1


def map_body(model: ScreenModel, width: int, height: int) -> list[Line]:
    """The map beside the panel."""
    snap = model.snap
    map_w = map_width(width)
    side_w = width - map_w - 1
    shown = snap.view.game.board if snap.view is not None else BOARD  # before the seating: the default board
    marks = marks_for(shown, snap.view, snap.seat, model.highlight, snap.turns, model.focus)
    board = draw_map(shown, marks, map_w, height)
    panel = side_panel(snap, side_w, height, turns=False)  # the last turns are beside the log
    return [join((m, map_w), (s, side_w), sep=("class:rule", "│")) for m, s in zip(board, panel)]


def compact_body(snap: Snapshot, width: int, height: int) -> list[Line]:
    """No map: the panel, in two columns where they fit (the table on the
    left, what to do with it on the right)."""
    view, seat = snap.view, snap.seat
    if view is None or seat is None:
        return side_panel(snap, width, height)
    if width < TWO_COLUMNS:
        return side_panel(snap, width, height)
    left_w = (width - 1) // 2
    right_w = width - 1 - left_w
    left = players_lines(view, seat, snap.names, left_w, snap.forfeited) + [[]]
    left += hand_lines(view, seat, left_w) + row_lines(view, left_w)
    left += technology_lines(view, snap.names, left_w)
    # Level with the players' table, each seat's last turn: what happened since
    # yours is always on screen, however fast the log scrolls.
    right = turn_lines(snap.turns, view, seat, right_w, beside=True)
    right += tunnel_lines(view, right_w) + offered_lines(view, seat, right_w)
    right += forfeited_lines(view, seat, snap.names, snap.forfeited, right_w)
    right += ticket_lines(view, seat, right_w, height - len(right))
    right += claim_lines(view, seat, right_w, height - len(right))
    columns = zip(_pad(left, left_w, height), _pad(right, right_w, height))
    return [join((a, left_w), (b, right_w), sep=("class:rule", "│")) for a, b in columns]


def too_small(width: int, height: int, bottom: list[Line]) -> list[Line]:
    """Too small for anything but words: what the table waits for and the
    answers to commands still show, so a player typing blind is answered."""
    say = [f"The terminal is {width}x{height + 1}; the game needs at least {MIN_COLUMNS}x{MIN_ROWS}.",
           "Make the window larger (or the font smaller); the game goes on meanwhile."]
    bottom = [fit(line, width) for line in bottom[-height:]]
    room = height - len(bottom)
    wrapped = [part for s in say for part in textwrap.wrap(s, max(1, width))]
    lines = [fit([("class:warning", s)], width) for s in wrapped[:room]]
    return lines + [fit([], width) for _ in range(room - len(lines))] + bottom


def status_lines(status: str, width: int) -> list[Line]:
    return [fit(line, width, "class:status") for line in wrap([("class:status", " " + status)], width, 1)[:2]]


def echo_lines(echo: Echo, width: int) -> list[Line]:
    """The answer, wrapped; a question's choices below it in columns, every one shown."""
    lines = [fit(line, width) for line in wrap([(echo.style, echo.text)], width, 2)]
    return lines + [fit(line, width) for line in choice_lines(echo.choices, width)]


def choice_lines(choices: tuple[tuple[str, str], ...], width: int) -> list[Line]:
    """``key) label`` cells, down then across, in as many columns as fit."""
    if not choices:
        return []
    cells = [f"{key}) {label}" for key, label in choices]
    cell_w = max(len(c) for c in cells) + 3
    columns = max(1, min(len(cells), (width - 1) // cell_w))
    if columns == 1:
        return [line for c in cells for line in wrap([("class:ask", " " + c)], width, 4)]
    rows = -(-len(cells) // columns)
    out: list[Line] = []
    for r in range(rows):
        row: Line = [("", " ")]
        for c in range(columns):
            i = c * rows + r
            if i < len(cells):
                row.append(("class:ask", f"{cells[i]:<{cell_w}}"))
        out.append(row)
    return out


def header_lines(snap: Snapshot, width: int) -> list[Line]:
    """The header in one line where it fits; else without the game's title;
    else in two, each part whole ("FINAL ROUND: 2 turns left" is never cut
    in two), the address friends join with on a line of its own."""
    title, *parts = header_parts(snap)
    if snap.view is None and snap.role == "host" and snap.address and _width_of([title, *parts]) > width:
        return wrap(title + parts[0], width, 1)[:1] + wrap([("class:header", f" friends join with: {snap.address}")], width)[:1]
    if _width_of([title, *parts]) <= width:
        return [[f for part in (title, *parts) for f in part]]
    if _width_of(parts) <= width:
        return [[f for part in parts for f in part]]
    return pack([title, *parts], width)[:2]


def _width_of(parts: list[Line]) -> int:
    return sum(len(text_of(part)) for part in parts)


def pack(parts: list[Line], width: int) -> list[Line]:
    """``parts`` on as few rows of ``width`` as they fit in whole, in order;
    a part wider than a row is wrapped on rows of its own."""
    rows: list[Line] = []
    row: Line = []
    for part in parts:
        if row and len(text_of(row)) + len(text_of(part)) > width:
            rows.append(row)
            row = []
        if len(text_of(part)) > width:
            rows += wrap(part, width, 1)
        else:
            row = row + part
    return rows + ([row] if row else [])


def header_parts(snap: Snapshot) -> list[Line]:
    """The header's parts, each kept whole on screen: the game's title first."""
    view = snap.view
    title = view.game.title if view is not None else "Europe"  # before the seating: the default board
    parts: list[Line] = [[("class:header.title", f" Ticket to Ride: {title} ")]]
    if view is None:
        if snap.role == "host":
            who_in = ", ".join(snap.lobby) or "just you"
            parts.append([("class:header", f" lobby: {who_in} · Enter (or start) starts the game ")])
            if snap.address:
                parts.append([("class:header", f"· friends join with: {snap.address}")])
        else:
            parts.append([("class:header", " waiting for the game to start")])
        return parts
    # Each part brings the one space before it ("turn 1 · your turn FINAL ROUND"), never a second after.
    parts.append([("class:header", f" game {snap.game[:8]} · turn {turn_number(view)} ·")])
    if view.phase in (Phase.SCORING, Phase.OVER) or snap.finished:
        parts.append([("class:header", " the game is over")])
    elif view.phase in (Phase.SETUP, Phase.SETUP_TICKETS):
        parts.append([("class:header", " setting up: everyone keeps tickets")])
    elif view.current == snap.seat:
        parts.append([("class:header.you", " your turn")])
    else:
        parts.append([(PLAYER_STYLE.format(view.current), f" {snap.names[view.current]}'s turn")])
    if view.final_turns_left is not None and not view.over:
        parts.append([("class:final", f" FINAL ROUND: {plural(view.final_turns_left, 'turn')} left ")])
    return parts


# ------------------------------------------------------------------ panel


def side_panel(snap: Snapshot, width: int, height: int, turns: bool = True) -> list[Line]:
    view, seat = snap.view, snap.seat
    lines: list[Line] = []
    if view is None or seat is None:
        lines.append([("class:title", "PLAYERS")])
        lines += [[("", f" {name}")] for name in snap.lobby]
        return _pad(lines, width, height)
    lines += players_lines(view, seat, snap.names, width, snap.forfeited)
    lines.append([])
    lines += hand_lines(view, seat, width)
    lines += row_lines(view, width)
    lines += technology_lines(view, snap.names, width)
    lines += supply_lines(view, width, GLYPHS)
    lines += tunnel_lines(view, width)
    lines += stock_lines(view, snap.names, width)
    lines += offered_lines(view, seat, width)
    lines += forfeited_lines(view, seat, snap.names, snap.forfeited, width)
    # Rows kept for the routes the hand pays for (a title, a route, how many more; or "no route
    # yet"): many tickets list their first ones and say how many more (`show` lists them all).
    found = claimable(view, seat) if view.phase is Phase.TURN else []
    keep = len(claim_lines(view, seat, width, CLAIM_ROWS, found)) if view.phase is Phase.TURN else 0
    keep = keep if len(lines) + keep + 4 <= height else 0
    lines += ticket_lines(view, seat, width, height - len(lines) - keep)
    last = turn_lines(snap.turns, view, seat, width, beside=False) if turns else []
    if len(lines) + len(last) <= height:
        lines += last
    lines += claim_lines(view, seat, width, height - len(lines), found if view.phase is Phase.TURN else None)
    return _pad(lines, width, height)


def _pad(lines: list[Line], width: int, height: int) -> list[Line]:
    lines = lines[:height]
    return [fit(line, width) for line in lines] + [fit([], width) for _ in range(height - len(lines))]


# ------------------------------------------------------------------ log, pages


def log_rows(log: tuple[Fragment, ...], width: int) -> list[Line]:
    """Every row of the log at ``width`` columns, long entries wrapped."""
    return [row for style, text in log for row in _log_entry(style, text, width)]


@lru_cache(maxsize=8192)
def _log_entry(style: str, text: str, width: int) -> tuple[Line, ...]:
    # One entry's rows, worked out once: the whole log is laid out on each frame.
    wrapped = textwrap.wrap(text, width - 1, subsequent_indent="    ") or [""]
    return tuple(fit([(style, " " + part)], width) for part in wrapped)


def page_lines(page: Page, width: int, height: int) -> list[Line]:
    """The page laid out at the screen's width, from its offset (in rows)."""
    rows = page_rows(page, width)
    body = rows[page.offset: page.offset + max(0, height - 2)]
    lines = [fit([("class:title", f" {page.title}")], width)][:height]
    lines += [fit([("", row)], width) for row in body]
    lines += [fit([], width) for _ in range(height - 1 - len(lines))]
    more = len(rows) - page.offset - len(body)
    footer = page.footer + (f" · {plural(more, 'more line')}" if more > 0 else "")
    if height >= 2:
        lines += [fit(line, width) for line in wrap([("class:dim", " " + footer)], width)[:1]]
    return lines


def page_rows(page: Page, width: int) -> list[str]:
    """Every row of the page at ``width`` columns, a column of margin on the left."""
    return [" " + row for row in lay_out(page.lines, width - 1)]


def screen_text(model: ScreenModel, width: int, height: int) -> str:
    """The screen as plain text (what it shows without colour)."""
    return "\n".join(text_of(line) for line in render(model, width, height))
