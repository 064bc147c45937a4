"""The panel of someone with no seat (a watcher, a replay): the table as
everyone sees it, each section as styled lines that fit a given width.

Every seat's latest turn, the latest of all marked; and, where the view
can read a seat's cards (a replay of a finished game opened with its
revealed secrets, or a seat's tickets turned over at the end), that seat's
hand and tickets. A watcher's view reads no private card, so it shows
counts only (players_lines in panel.py).
"""

from __future__ import annotations

from p2p_ttr.engine.state import GameState

from .explain import kinds
from .lastturn import LastTurns, Turn
from .numbering import seat_number
from .panel import NEW, PLAYER_STYLE, clip
from .phrases import cards_words
from .styled import Line, wrap
from .tickets import ticket_rows
from .words import ticket_name


def latest(turns: LastTurns) -> Turn | None:
    """The turn played last (the highest moment; the lowest seat on a tie, as seats play in order)."""
    played = [t for t in turns.turns if t is not None]
    return max(played, key=lambda t: (t.moment, -t.seat)) if played else None


def every_turn_lines(turns: LastTurns, view: GameState, width: int, beside: bool) -> list[Line]:
    """Every seat's latest turn in a few words, the latest of all marked •.
    ``beside`` the players' table, a row for every seat in its order after a
    title row level with the table's; else each row led by the seat's number."""
    last = latest(turns)
    lines: list[Line] = [[("class:title", "LAST TURN"), ("class:dim", f" ({NEW} the latest)")]]
    for p in range(view.n_players):
        turn = turns.of(p)
        words = turn.words() if turn is not None else ""
        lead: Line = [] if beside else [(PLAYER_STYLE.format(p), f" {seat_number(p)}")]
        if not words:
            lines.append(lead + [("class:dim", "   -")])
            continue
        new = last is not None and turn is last
        room = width - sum(len(t) for _, t in lead) - 3
        lines.append(lead + [("class:turn", f" {NEW if new else ' '} "), ("" if new else "class:dim", clip(words, room))])
    return lines


def readable(view: GameState, seat: int) -> bool:
    """Whether the view reads every card of the seat's hand and tickets (and it holds some)."""
    ps = view.players[seat]
    cards = ps.hand + ps.tickets + ps.offered
    return bool(cards) and all(view.face(r) is not None for r in cards)


def open_hand_lines(view: GameState, names: tuple[str, ...], width: int, skip: tuple[int, ...] = ()) -> list[Line]:
    """The hand and tickets of each seat whose cards the view reads (but
    those in ``skip``: the seats that left have a section of their own)."""
    lines: list[Line] = []
    for p in range(view.n_players):
        if p in skip or not readable(view, p):
            continue
        ps = view.players[p]
        name = names[p] if p < len(names) else f"player {seat_number(p)}"
        hand = cards_words(kinds(view, ps.hand)) if ps.hand else "no cards"
        lines += wrap([(PLAYER_STYLE.format(p), f"{seat_number(p)} {name}"), ("", f": {hand}")], width, 3)
        rows = ticket_rows(view, p)
        if rows:
            marked: Line = [("", "  ")]
            for i, row in enumerate(rows):
                marked += [("class:done", "✓") if row.done else ("class:todo", "·"),
                           ("", f" {ticket_name(row.ticket)}" + (", " if i + 1 < len(rows) else ""))]
            lines += wrap(marked, width, 4)
        offered = [ticket_name(view.game.board.tickets[t]) for r in ps.offered if (t := view.face(r)) is not None]
        if offered:
            lines += wrap([("class:ask", "  choosing from: "), ("", ", ".join(offered))], width, 4)
    return ([[("class:title", "HANDS AND TICKETS")]] + lines) if lines else []
