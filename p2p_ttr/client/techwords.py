"""The United Kingdom's technologies in words: the panel's TECHNOLOGIES
rows (every seat's, public as the cards lie face up) and what a route
still needs (``techbuy.py`` is the buy command)."""

from __future__ import annotations

from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.board import Route
from p2p_ttr.engine.technologies import held, route_needs

from .numbering import seat_number
from .styled import Line, wrap
from .words import route_name


def technology_lines(view: GameState, names: tuple[str, ...], width: int) -> list[Line]:
    """Every seat's technologies and the points they earned as routes were laid."""
    tech = view.technologies
    if tech is None:
        return []
    lines: list[Line] = [[("class:title", "TECHNOLOGIES")]]
    for p, mine in enumerate(tech.held):
        who = names[p] if p < len(names) else f"player {seat_number(p)}"
        earned = f" (+{tech.earned[p]})" if tech.earned[p] else ""
        lines += wrap([(f"class:owner.{p}", f" {seat_number(p)} "), ("", f"{who}: {', '.join(mine) or 'none'}"
                                                                       f"{earned}")], width, 4)
    return lines


def missing_technologies_words(view: GameState, seat: int, route: Route) -> str | None:
    """'Aberdeen–Dundee (white, 1) needs Scotland Concession: buy it before your turn's action' (None: nothing missing)."""
    needs = route_needs(view.game)
    if not needs:
        return None
    missing = [name for name in needs[route.id] if name not in held(view, seat)]
    if not missing:
        return None
    them = "it" if len(missing) == 1 else "them"
    listed = missing[0] if len(missing) == 1 else f"{', '.join(missing[:-1])} and {missing[-1]}"
    return f"{route_name(route)} needs {listed}: buy {them} before your turn's action (buy)"
