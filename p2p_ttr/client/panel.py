"""The sections of the player's panel, each as styled lines that fit a
given width: the players, your hand, the face-up row, a tunnel being paid,
your tickets, the routes your hand pays for, and the cards of a seat that
forfeited. The screen (``screen``) stacks them beside the map, or in
columns of their own on a small terminal."""

from __future__ import annotations

from p2p_ttr.engine.board import Route
from p2p_ttr.engine.markerrules import markers_left
from p2p_ttr.engine.rules import hand_counts
from p2p_ttr.engine.state import GameState, Phase

from .claimable import Claimable, claimable
from .depotwords import warehouse_counts
from .lastturn import LastTurns
from .markerwords import points_in_play
from .monsterwords import monsters_line
from .network import trail
from .explain import keep_least, kinds, long_most
from .numbering import seat_number
from .phrases import cards_words
from .stocks import route_companies
from .styled import Line, text_of, wrap
from .tickets import ticket_rows, way_between
from .words import DASH, card_kinds, color_words, kind_name, plural, seat_colour, ticket_name

PLAYER_STYLE = "class:owner.{}"
COUNTS_W = 19  # ' pts trn crd tkt st' ('st', stations left, only where the game has stations)
TRAIL_W, NAME_MIN = 4, 6  # ' trl', the longest trail; the narrowest a name is cut to for it
TURN, CHOOSING = "▶", "…"  # whose turn it is; still choosing their first tickets
NEW = "•"  # a turn played since yours


def players_lines(view: GameState, seat: int | None, names: tuple[str, ...], width: int,
                  forfeited: tuple[int, ...] = ()) -> list[Line]:
    """Every seat: its number, colour and player, route points, trains,
    cards, tickets, stations left (where the game has stations), and its
    longest trail where there is room (a name keeps at least NAME_MIN columns)."""
    stations = view.game.rules.stations > 0
    markers = view.markers is not None  # Old West: city markers left in the stations' place (a board has one or the other)
    counts_w = COUNTS_W if stations or markers else COUNTS_W - 3
    trails = width - 10 - counts_w - TRAIL_W >= NAME_MIN
    name_w = max(3, width - 10 - counts_w - (TRAIL_W if trails else 0))  # after the mark, seat and colour
    heads = " pts trn crd tkt" + (" st" if stations else " mk" if markers else "") + (" trl" if trails else "")
    lines: list[Line] = [[("class:title", f"{'PLAYERS':<{name_w + 10}}"), ("class:dim", heads)]]
    for p, ps in enumerate(view.players):
        # ▶ marks whose turn it is, so at most one seat: while everyone chooses
        # their first tickets at once, those still choosing are marked … instead.
        if view.phase is Phase.SETUP_TICKETS:
            mark = CHOOSING if ps.offered else " "
        else:
            turn = p == view.current and view.phase not in (Phase.SETUP, Phase.SCORING, Phase.OVER)
            mark = TURN if turn else " "
        style = PLAYER_STYLE.format(p)
        name = names[p] if p < len(names) else f"player {seat_number(p)}"
        # A seat that left is played by the table (the caretaker); said in words, not only in style.
        tag = "left" if p in forfeited else "you" if p == seat else ""
        name_style = "class:you" if p == seat else "class:dim" if tag == "left" else ""
        colour = seat_colour(p)
        if tag == "left" and len(f"{name} ({tag})") > name_w:
            # Which player left is what the row must say: their name stays whole, 'left' takes the colour's place.
            colour, tag = tag, ""
        lines.append([
            ("class:turn", mark),
            (style, f"{seat_number(p)} {colour:<6}"),
            ("", " "),
            (name_style, f"{_who(name, tag, name_w):<{name_w}}"),
            ("", f" {_points(view, p):>3} {ps.trains:>3} {len(ps.hand):>3} {len(ps.tickets):>3}"
                 + (f" {ps.stations_left:>2}" if stations else f" {markers_left(view, p):>2}" if markers else "")
                 + (f" {trail(tuple(sorted(ps.routes)), view.game.board):>3}" if trails else "")),
        ])
    monsters = monsters_line(view, seat, names)  # Alvin & Dexter: where they stand, whose cards
    if monsters is not None:
        lines += wrap([("class:title", " monsters "), ("", monsters)], width, 2)
    if view.depots is not None:  # Europe 1912's depots: each seat's depots left and the cards on its warehouse
        lines.append([("class:dim", warehouse_counts(view)[:width])])
    return lines


def turn_lines(turns: LastTurns, view: GameState, seat: int, width: int, beside: bool,
               wrapped: bool = False) -> list[Line]:
    """Each player's last turn in a few words: what happened since yours,
    and yours (the log may have scrolled it away). A row for every seat in
    its order after a title row: ``beside`` the players' table, level with
    its rows; else each row led by the seat's number. A turn played since
    your last one is marked • (one from before it is dimmed as well).
    Words too long for a row are cut with '…', or ``wrapped`` on rows of
    their own where there is room for them."""
    lines: list[Line] = [[("class:title", "LAST TURN"), ("class:dim", f" ({NEW} since yours)")]]
    for p in range(view.n_players):
        turn = turns.of(p)
        words = turn.words() if turn is not None else ""
        lead: Line = [] if beside else [(PLAYER_STYLE.format(p), f" {seat_number(p)}")]
        if not words:
            lines.append(lead + [("class:dim", "   -" if p != seat or not beside else "")])
            continue
        new = p != seat and turns.since(p, seat, view)
        room = width - len(text_of(lead)) - 3
        said = words if wrapped else clip(words, room)
        row = lead + [("class:turn", f" {NEW if new else ' '} "), ("" if new else "class:dim", said)]
        lines += wrap(row, width, len(text_of(lead)) + 3) if wrapped else [row]
    return lines


def clip(text: str, width: int) -> str:
    """``text`` in ``width`` columns, cut with '…' where it is longer."""
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def _who(name: str, tag: str, width: int) -> str:
    """'Ann (you)' when it fits in ``width``; else, for our own seat, 'you'
    alone (we know who we are)."""
    if not tag:
        return name[:width]
    full = f"{name} ({tag})"
    return full if len(full) <= width else tag[:width]


def _points(view: GameState, p: int) -> int:
    """Route points so far: what everyone can see during the game (Old West: scored to city markers)."""
    in_play = points_in_play(view, p)
    if in_play is not None:
        return in_play
    board = view.game.board
    return sum(board.route_points[board.routes[r].length] for r in view.players[p].routes)


def hand_lines(view: GameState, seat: int, width: int) -> list[Line]:
    counts = hand_counts(view, seat)
    unread = len(view.players[seat].hand) - sum(counts.values())
    title = f"YOUR HAND  {plural(len(view.players[seat].hand), 'card')}" + (f" ({unread} being read)" if unread else "")
    lines: list[Line] = [[("class:title", title)]]
    per_row = 5 if width >= 1 + 5 * 11 else 3  # a kind is 11 columns: 'purple  1  '
    every_kind = card_kinds(view.game.board)
    for i in range(0, len(every_kind), per_row):
        row: Line = [("", " ")]
        for kind in every_kind[i:i + per_row]:
            n = counts.get(kind, 0)
            row += [(f"class:card.{kind}" if n else "class:dim", f"{kind_name(kind):<7}{n:>2}"), ("", "  ")]
        lines.append(row)
    return lines


def row_lines(view: GameState, width: int) -> list[Line]:
    title = f"FACE-UP  deck {len(view.draw_pile)} · discards {len(view.discard)}"
    slots: list[Line] = []
    for slot, ref in enumerate(view.face_up):
        card = view.face(ref) if ref is not None else None
        kind = view.game.board.card_kind(card) if card is not None else None
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


def tunnel_lines(view: GameState, width: int) -> list[Line]:
    tunnel = view.tunnel
    if tunnel is None:
        return []
    route = view.game.board.routes[tunnel.route]
    turned = cards_words(kinds(view, tunnel.revealed)) if tunnel.revealed else "not yet turned"
    lines = wrap([("class:title", f"TUNNEL {route.a}{DASH}{route.b}:"), ("", f" turned {turned}")], width)
    if view.phase is Phase.TUNNEL:
        lines += wrap([("class:ask", f" {tunnel.extra} more to pay: pay, or abandon")], width)
    return lines


def offered_lines(view: GameState, seat: int, width: int) -> list[Line]:
    ps = view.players[seat]
    if not ps.offered:
        return []
    least = f"keep {keep_least(view, seat)} or more{long_most(view, seat)}"
    lines = wrap([("class:ask", f"OFFERED  {least}: keep N N...")], width)
    for i, row in enumerate(ticket_rows(view, seat, ps.offered)):
        lines += wrap([("class:ask", f" {i + 1} "), ("", ticket_name(row.ticket))], width, 4)
    return lines


def ticket_lines(view: GameState, seat: int, width: int, room: int) -> list[Line]:
    """Your tickets, at most ``room`` lines: ✓ done, · to do, ✗ lost (no way
    is open, or it needs more trains than you have)."""
    rows = ticket_rows(view, seat)
    if not rows or room < 1:
        return []
    done = sum(r.done for r in rows)
    title = f"TICKETS {done}/{len(rows)} done"
    # The count of the pile, said as one: a bare "28 left" beside "done" reads as points.
    pile = f" · {len(view.ticket_pile)} in pile"
    hint = " · path N" if len(title + pile) + len(" · path N") <= width else ""
    lines: list[Line] = [[("class:title", title), ("class:dim", pile + hint)]]
    shown = rows if len(rows) < room else rows[: max(0, room - 2)]
    for i, row in enumerate(shown):
        if row.done:
            mark, style = ("class:done", "✓"), "class:done"
        elif not way_between(view, seat, row.ticket.a, row.ticket.b).finishable:
            mark, style = ("class:refuse", "✗"), "class:dim"
        else:
            mark, style = ("class:todo", "·"), ""
        lines.append([("", f"{i + 1:>2} "), mark, (style, f" {ticket_name(row.ticket)}")])
    if len(shown) < len(rows):
        lines.append([("class:dim", f"    ... {len(rows) - len(shown)} more: show lists them")])
    return lines


def claim_lines(view: GameState, seat: int, width: int, room: int, found: list[Claimable] | None = None) -> list[Line]:
    """The routes your hand pays for (``found``, if worked out already),
    those on a ticket's way first, in at most ``room`` lines."""
    if room < 2 or view.phase in (Phase.SETUP, Phase.SETUP_TICKETS, Phase.SCORING, Phase.OVER):
        return []
    found = claimable(view, seat) if found is None else found
    if not found:
        return [[("class:title", "YOUR HAND PAYS FOR")]] + wrap(
            [("class:dim", " no route yet: draw cards")], width)
    rows: list[Line] = []
    for c in found:
        row = wrap([("", " "), (f"class:route.{c.route.color}", f"{c.route.a}{DASH}{c.route.b}"),
                    ("class:dim", f" {claim_details(c.route)}{route_companies(view.game, c.route)}"),
                    ("class:done", f" → #{','.join(map(str, c.tickets))}" if c.tickets else "")], width, 3)
        if 1 + len(rows) + len(row) > room:
            break
        rows += row
    shown = sum(1 for row in rows if not text_of(row).startswith("   "))  # a wrapped route's rows after its first
    # How many more, said on the title (a row of its own left no room for a route at 100x30);
    # each part only where it fits whole.
    if shown < len(found):
        said = [f" {shown} of {len(found)}: show", " lists all"]
    else:
        said = [f" {plural(len(found), 'route')}", " (→ #ticket)"]
    count = said[0] + (said[1] if len("YOUR HAND PAYS FOR" + "".join(said)) <= width else "")
    return [[("class:title", "YOUR HAND PAYS FOR"), ("class:dim", count)]] + rows


def claim_details(route: Route) -> str:
    """'gray 3 tunnel': a route in few columns."""
    extra = " tunnel" if route.tunnel else f" ferry {route.ferry_locomotives}" if route.ferry_locomotives else ""
    extra += f" X{route.mountain_x}" if route.mountain_x else ""
    return f"{color_words(route)} {route.length}{extra}"


def forfeited_lines(view: GameState, seat: int | None, names: tuple[str, ...], forfeited: tuple[int, ...],
                    width: int) -> list[Line]:
    """The cards of each seat that forfeited: the table opens them for all."""
    lines: list[Line] = []
    for p in forfeited:
        if p == seat or not 0 <= p < len(view.players):
            continue
        ps = view.players[p]
        name = names[p] if p < len(names) else f"player {seat_number(p)}"
        hand = kinds(view, ps.hand)
        unread = len(ps.hand) - len(hand)
        said = cards_words(hand) if hand else "no cards"
        if unread:
            said += f" ({unread} still being opened)"
        lines += wrap([(PLAYER_STYLE.format(p), f"{name.upper()} LEFT"), ("", f": hand {said}")], width)
        tickets = [ticket_name(view.game.board.tickets[t]) for r in ps.tickets if (t := view.face(r)) is not None]
        closed = len(ps.tickets) - len(tickets)
        listed = ", ".join(tickets) or "none open yet"
        if closed and tickets:
            listed += f" (+{closed} being opened)"
        lines += wrap([("", f" tickets: {listed}")], width, 3)
    return lines
