"""The whole screen as styled text at a given size: a pure function of a
snapshot of the game and of what the player has on screen.

    header                         (game, turn, whose turn, final round)
    map of Europe   | players, hand, face-up row, tickets
    ---- log --------------- map key
    the log of moves in words
    status: what the table waits for
    echo: the answer to the last command, or a question

The input line below it belongs to the terminal app. A page (help, the
rules, the final score) takes the place of the map and the panel.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

from p2p_ttr.engine.rules import hand_counts
from p2p_ttr.engine.state import GameState, Phase

from .explain import kinds
from .mapview import draw_map, legend, marks_for
from .phrases import cards_words
from .snapshot import Snapshot
from .styled import Fragment, Line, fit, join, text_of
from .tickets import ticket_rows
from .words import BOARD, DASH, KINDS, kind_name, seat_colour, ticket_name

MIN_COLUMNS, MIN_ROWS = 100, 30  # the whole terminal, the input line included
SIDE = 35  # the panel's width in a 100-column terminal
PLAYER_STYLE = "class:owner.{}"


@dataclass(frozen=True)
class Page:
    """Text that takes the place of the map and panel until closed."""

    title: str
    lines: tuple[str, ...]
    offset: int = 0
    footer: str = "Esc closes · PageUp/PageDown scroll"


@dataclass(frozen=True)
class Echo:
    """The answer to the last command: said, refused or asked."""

    text: str = ""
    style: str = "class:echo"


@dataclass(frozen=True)
class ScreenModel:
    snap: Snapshot
    echo: Echo = field(default_factory=Echo)
    highlight: frozenset[int] = frozenset()
    page: Page | None = None
    log_back: int = 0  # lines the log is scrolled back


def render(model: ScreenModel, width: int, height: int) -> list[Line]:
    """``height`` lines of exactly ``width`` columns (the terminal's rows less the input line)."""
    if width < MIN_COLUMNS or height < MIN_ROWS - 1:
        return too_small(width, height)
    snap = model.snap
    side_w = SIDE + min(20, (width - MIN_COLUMNS) // 4)
    map_w = width - side_w - 1
    log_h = 5 + max(0, (height - (MIN_ROWS - 1)) // 4)
    body_h = height - log_h - 4
    lines = [fit(header(snap), width, "class:header")]
    if model.page is not None:
        lines += page_lines(model.page, width, body_h)
    else:
        board = draw_map(marks_for(snap.view, snap.seat, model.highlight), map_w, body_h)
        panel = side_panel(snap, side_w, body_h)
        lines += [join((m, map_w), (s, side_w), sep=("class:rule", "│")) for m, s in zip(board, panel)]
    lines.append(fit([("class:rule", "─ log ─  ")] + legend(), width, "class:rule"))
    lines += log_lines(snap.log, width, log_h, model.log_back)
    lines.append(fit([("class:status", " " + snap.status)], width, "class:status"))
    lines.append(fit([(model.echo.style, model.echo.text)], width))
    return lines


def too_small(width: int, height: int) -> list[Line]:
    say = [f"The terminal is {width}x{height + 1}; the game needs at least {MIN_COLUMNS}x{MIN_ROWS}.",
           "Make the window larger (or the font smaller); the game goes on meanwhile.",
           "Commands still work below; `ttr host --plain` / `ttr join --plain` use a plain prompt."]
    wrapped = [part for s in say for part in textwrap.wrap(s, width)]
    lines = [fit([("class:warning", s)], width) for s in wrapped[:height]]
    return lines + [fit([], width) for _ in range(height - len(lines))]


def header(snap: Snapshot) -> Line:
    line: Line = [("class:header.title", " Ticket to Ride: Europe ")]
    view = snap.view
    if view is None:
        if snap.role == "host":
            who_in = ", ".join(snap.lobby) or "just you"
            line.append(("class:header", f" lobby: {who_in} · Enter starts the game "))
            if snap.address:
                line.append(("class:header", f"· friends join with: {snap.address}"))
        else:
            line.append(("class:header", " waiting for the game to start"))
        return line
    line.append(("class:header", f" game {snap.game[:8]} · turn {view.turn + 1} · "))
    if view.phase in (Phase.SCORING, Phase.OVER) or snap.finished:
        line.append(("class:header", "the game is over "))
    elif view.phase in (Phase.SETUP, Phase.SETUP_TICKETS):
        line.append(("class:header", "setting up: everyone keeps tickets "))
    elif view.current == snap.seat:
        line.append(("class:header.you", " your turn "))
    else:
        line.append((PLAYER_STYLE.format(view.current), f" {snap.names[view.current]}'s turn "))
    if view.final_turns_left is not None and not view.over:
        left = view.final_turns_left
        line.append(("class:final", f" FINAL ROUND: {left} turn{'s' if left != 1 else ''} left "))
    return line


# ------------------------------------------------------------------ panel


def side_panel(snap: Snapshot, width: int, height: int) -> list[Line]:
    view, seat = snap.view, snap.seat
    lines: list[Line] = []
    if view is None or seat is None:
        lines.append([("class:title", "PLAYERS")])
        lines += [[("", f" {name}")] for name in snap.lobby]
        return _pad(lines, width, height)
    lines += players_lines(view, seat, snap.names, width, snap.forfeited)
    lines.append([])
    lines += hand_lines(view, seat)
    lines += row_lines(view, width)
    lines += tunnel_lines(view)
    rest = height - len(lines)
    lines += ticket_lines(view, seat, rest)
    return _pad(lines, width, height)


def _pad(lines: list[Line], width: int, height: int) -> list[Line]:
    lines = lines[:height]
    return [fit(line, width) for line in lines] + [fit([], width) for _ in range(height - len(lines))]


def players_lines(view: GameState, seat: int, names: tuple[str, ...], width: int,
                  forfeited: tuple[int, ...] = ()) -> list[Line]:
    name_w = width - 29  # after the turn mark, seat, colour; before the 19 columns of counts
    lines: list[Line] = [[("class:title", f"{'PLAYERS':<{name_w + 10}}"), ("class:dim", " pts trn crd tkt st")]]
    for p, ps in enumerate(view.players):
        if view.phase is Phase.SETUP_TICKETS:
            turn = bool(ps.offered)  # everyone chooses at once
        else:
            turn = p == view.current and view.phase not in (Phase.SETUP, Phase.SCORING, Phase.OVER)
        style = PLAYER_STYLE.format(p)
        name = names[p] if p < len(names) else f"player {p + 1}"
        # A seat that left is played by the table (the caretaker); said in words, not only in style.
        tag = "left" if p in forfeited else "you" if p == seat else ""
        name_style = "class:you" if p == seat else "class:dim" if tag == "left" else ""
        lines.append([
            ("class:turn", "▶" if turn else " "),
            (style, f"{p + 1} {seat_colour(p):<6}"),
            ("", " "),
            (name_style, f"{_who(name, tag, name_w):<{name_w}}"),
            ("", f" {_points(view, p):>3} {ps.trains:>3} {len(ps.hand):>3} {len(ps.tickets):>3} {ps.stations_left:>2}"),
        ])
    return lines


def _who(name: str, tag: str, width: int) -> str:
    """'Ann (you)' when it fits in ``width``, else the tag alone: which seat is
    yours, or has left, matters more than a name the colour and number also tell."""
    if not tag:
        return name[:width]
    full = f"{name} ({tag})"
    return full if len(full) <= width else tag[:width]


def _points(view: GameState, p: int) -> int:
    """Route points so far: what everyone can see during the game."""
    return sum(BOARD.route_points[BOARD.routes[r].length] for r in view.players[p].routes)


def hand_lines(view: GameState, seat: int) -> list[Line]:
    counts = hand_counts(view, seat)
    unread = len(view.players[seat].hand) - sum(counts.values())
    title = f"YOUR HAND  {len(view.players[seat].hand)} cards" + (f" ({unread} being read)" if unread else "")
    lines: list[Line] = [[("class:title", title)]]
    for i in range(0, len(KINDS), 3):
        row: Line = [("", " ")]
        for kind in KINDS[i:i + 3]:
            n = counts.get(kind, 0)
            row += [(f"class:card.{kind}" if n else "class:dim", f"{kind_name(kind):<7}{n:>2}"), ("", "  ")]
        lines.append(row)
    return lines


def row_lines(view: GameState, width: int) -> list[Line]:
    title = f"FACE-UP  deck {len(view.draw_pile)} · discards {len(view.discard)}"
    slots: list[Line] = []
    for slot, ref in enumerate(view.face_up):
        card = view.face(ref) if ref is not None else None
        kind = BOARD.card_kind(card) if card is not None else None
        slots.append([("class:slot", f"{slot + 1} "),
                      (f"class:card.{kind}" if kind else "class:dim", f"{kind_name(kind) if kind else '-':<7}")])
    per_row = 5 if width >= 1 + 5 * 10 else 3  # a slot is 10 columns: 'N colour  '
    lines: list[Line] = [[("class:title", title)]]
    for i in range(0, len(slots), per_row):
        row: Line = [("", " ")]
        for s in slots[i:i + per_row]:
            row += s + [("", " ")]
        lines.append(row)
    return lines


def tunnel_lines(view: GameState) -> list[Line]:
    tunnel = view.tunnel
    if tunnel is None:
        return []
    route = BOARD.routes[tunnel.route]
    turned = cards_words(kinds(view, tunnel.revealed)) if tunnel.revealed else "not yet turned"
    line: Line = [("class:title", f"TUNNEL {route.a}{DASH}{route.b}: "), ("", f"turned {turned}")]
    lines = [line]
    if view.phase is Phase.TUNNEL:
        lines.append([("class:ask", f" {tunnel.extra} more to pay: pay, or abandon")])
    return lines


def ticket_lines(view: GameState, seat: int, room: int) -> list[Line]:
    ps = view.players[seat]
    lines: list[Line] = []
    if ps.offered:
        least = 2 if view.phase is Phase.SETUP_TICKETS else 1
        lines.append([("class:ask", f"OFFERED  keep {least} or more: keep N N...")])
        for i, row in enumerate(ticket_rows(view, seat, ps.offered)):
            lines.append([("class:ask", f" {i + 1} "), ("", ticket_name(row.ticket))])
    rows = ticket_rows(view, seat)
    if rows:
        done = sum(r.done for r in rows)
        lines.append([("class:title", f"TICKETS {done}/{len(rows)} done"),
                      ("class:dim", f" · {len(view.ticket_pile)} left · path N")])
        shown = rows if len(lines) + len(rows) <= room else rows[: max(0, room - len(lines) - 1)]
        for i, row in enumerate(shown):
            mark = ("class:done", "✓") if row.done else ("class:todo", "·")
            lines.append([("", f"{i + 1:>2} "), mark, ("class:done" if row.done else "", f" {ticket_name(row.ticket)}")])
        if len(shown) < len(rows):
            lines.append([("class:dim", f"    ... {len(rows) - len(shown)} more: path lists them")])
    return lines


# ------------------------------------------------------------------ log, pages


def log_lines(log: tuple[Fragment, ...], width: int, height: int, back: int) -> list[Line]:
    """The last ``height`` rows of the log (``back`` entries ago), long entries wrapped."""
    end = max(0, len(log) - back)
    rows: list[Line] = []
    for style, text in reversed(log[max(0, end - height):end]):
        wrapped = textwrap.wrap(text, width - 1, subsequent_indent="    ") or [""]
        rows[:0] = [fit([(style, " " + part)], width) for part in wrapped]
        if len(rows) >= height:
            break
    rows = rows[-height:]
    if back and rows:
        rows[-1] = fit([("class:dim", f" ... {back} newer lines below (PageDown)")], width)
    return [fit([], width) for _ in range(height - len(rows))] + rows


def page_lines(page: Page, width: int, height: int) -> list[Line]:
    body = page.lines[page.offset: page.offset + height - 2]
    lines = [fit([("class:title", f" {page.title}")], width)]
    lines += [fit([("", " " + text)], width) for text in body]
    lines += [fit([], width) for _ in range(height - 1 - len(lines))]
    more = len(page.lines) - page.offset - len(body)
    footer = page.footer + (f" · {more} more lines" if more > 0 else "")
    return lines + [fit([("class:dim", " " + footer)], width)]


def screen_text(model: ScreenModel, width: int, height: int) -> str:
    """The screen as plain text (what it shows without colour)."""
    return "\n".join(text_of(line) for line in render(model, width, height))
