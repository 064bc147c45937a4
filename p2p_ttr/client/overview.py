"""`show` on the full screen: the player's table on one page, nothing cut
for room: the hand, the face-up row, every ticket with the way to finish
it, every route the hand pays for, and the cards of any seat that left."""

from __future__ import annotations

from p2p_ttr.engine.state import GameState

from .panel import claim_details, forfeited_lines, hand_lines, row_lines
from .claimable import claimable
from .stocks import route_companies, stock_lines
from .styled import text_of
from .tickets import ticket_rows, way_between
from .words import DASH, plural

WIDE = 200  # the page wraps its own lines: the sections are laid out as wide as they like


def overview(view: GameState, seat: int, names: tuple[str, ...], forfeited: tuple[int, ...]) -> tuple[str, ...]:
    lines = [text_of(line) for line in hand_lines(view, seat, WIDE) + row_lines(view, WIDE)]
    rows = ticket_rows(view, seat)
    lines += ["", f"YOUR TICKETS  {sum(r.done for r in rows)}/{len(rows)} done, "
                  f"{plural(view.players[seat].trains, 'train')} left"]
    for i, row in enumerate(rows, 1):
        way = way_between(view, seat, row.ticket.a, row.ticket.b)
        lines.append(f"{i:>2} " + way.lines(row.ticket.points)[0])
    if not rows:
        lines.append("   none yet")
    found = claimable(view, seat)
    lines += ["", f"YOUR HAND PAYS FOR  {plural(len(found), 'route')} (claim CITY CITY)"]
    for c in found:
        serves = f"  → ticket {', '.join(map(str, c.tickets))}" if c.tickets else ""
        lines.append(f"   {c.route.a}{DASH}{c.route.b} ({claim_details(c.route)}, {plural(c.points, 'point')})"
                     f"{route_companies(view.game, c.route)}{serves}")
    if not found:
        lines.append("   no route yet: draw cards")
    held = [text_of(line) for line in stock_lines(view, names, WIDE)]
    lines += [""] + held if held else []
    gone = [text_of(line) for line in forfeited_lines(view, seat, names, forfeited, WIDE)]
    return tuple(lines + ([""] + gone if gone else []))
