"""Completions for the command being typed, as a pure function of the text
before the cursor and the player's view.

After each verb come the words that fit there: cities, the cities a route joins to the one
already typed (with its colours and who holds it), colours, face-up slots,
offered tickets. Each suggestion carries a short note ("orange 3, yours to
take") that the menu shows beside it.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2p_ttr.engine.board import LOCOMOTIVE, Board
from p2p_ttr.engine.events import BuildStation, ClaimRoute
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.rules import hand_counts
from p2p_ttr.engine.state import GameState

from .explain import route_problem
from .outcomes import Context
from .tickets import ticket_rows
from .words import (
    card_kinds,
    fold,
    kind_name,
    leading_cities,
    route_details,
    ticket_name,
)


@dataclass(frozen=True)
class Suggestion:
    """One completion: the word, how much of the typed text it replaces, and a note for the menu."""

    text: str  # what replaces the word being typed
    start: int  # how many characters before the cursor it replaces
    meta: str = ""


def starts(text: str, typing: str) -> bool:
    """Whether ``text`` begins with what is being typed (ignoring case and accents)."""
    return fold(text).startswith(fold(typing)) if typing else True


# ------------------------------------------------------ after each verb
# Each takes the words typed after the verb and the context; ``verbs``
# registers them beside their verbs.


def draw_args(args: list[str], ctx: Context) -> list[tuple[str, str]]:
    return _slots(ctx.view) if ctx.view is not None and ctx.seat is not None and not args else []


def keep_args(args: list[str], ctx: Context) -> list[tuple[str, str]]:
    return _offered(ctx.view, ctx.seat, args) if ctx.view is not None and ctx.seat is not None else []


def claim_args(args: list[str], ctx: Context) -> list[tuple[str, str]]:
    # A city's name may take several words ('New York'): count the places typed, not the words.
    cities, rest = leading_cities(ctx.game.board, args, 2)
    view, seat, n = ctx.view, ctx.seat, len(cities) + len(rest)
    if view is None or seat is None:
        return _cities(ctx.game.board) if n < 2 else []
    if n == 0:
        return _claim_cities(view, seat)
    if n == 1:
        return _neighbours(view, seat, cities[0], ctx.names) if cities else []
    return (_sides(view.game.board, cities) if n == 2 and not rest else []) + _payments(view, seat)


def station_args(args: list[str], ctx: Context) -> list[tuple[str, str]]:
    view, seat = ctx.view, ctx.seat
    if not ctx.game.rules.stations:
        return []
    if view is None or seat is None:
        return _cities(ctx.game.board) if len(args) < 2 else []
    return _station_cities(view, seat) if not args else _payments(view, seat)


def pay_args(args: list[str], ctx: Context) -> list[tuple[str, str]]:
    return _payments(ctx.view, ctx.seat) if ctx.view is not None and ctx.seat is not None else []


def path_args(args: list[str], ctx: Context) -> list[tuple[str, str]]:
    cities, rest = leading_cities(ctx.game.board, args, 2)
    view, seat, n = ctx.view, ctx.seat, len(cities) + len(rest)
    if view is None or seat is None:
        return _cities(ctx.game.board) if n < 2 else []
    return _tickets(view, seat) if n == 0 else _cities(view.game.board) if n == 1 else []


def _cities(board: Board) -> list[tuple[str, str]]:
    return [(c, "") for c in sorted(board.cities)]


def _slots(view: GameState) -> list[tuple[str, str]]:
    out = [("deck", "a card from the top of the deck")]
    for slot, ref in enumerate(view.face_up):
        card = view.face(ref) if ref is not None else None
        if card is not None:
            out.append((str(slot + 1), f"face-up {kind_name(view.game.board.card_kind(card))}"))
    return out


def _offered(view: GameState, seat: int, args: list[str]) -> list[tuple[str, str]]:
    offered = view.players[seat].offered
    rows = ticket_rows(view, seat, offered)
    out = [] if args else [("all", "keep every ticket offered")]
    return out + [(str(i + 1), ticket_name(row.ticket)) for i, row in enumerate(rows) if str(i + 1) not in args]


def _claim_cities(view: GameState, seat: int) -> list[tuple[str, str]]:
    board = view.game.board
    can = {c for a in legal_actions(view, seat, ClaimRoute) if isinstance(a, ClaimRoute)
           for c in board.routes[a.route].cities}
    return sorted(((c, "a route you can claim now" if c in can else "") for c in board.cities),
                  key=lambda x: (x[1] == "", x[0]))


def _station_cities(view: GameState, seat: int) -> list[tuple[str, str]]:
    taken = {c: p for p, ps in enumerate(view.players) for c in ps.stations}
    can = {a.city for a in legal_actions(view, seat, BuildStation) if isinstance(a, BuildStation)}
    return [(c, "you can build here" if c in can else "has a station" if c in taken else "")
            for c in sorted(view.game.board.cities)]


def _neighbours(view: GameState, seat: int, city: str, names: tuple[str, ...]) -> list[tuple[str, str]]:
    board = view.game.board
    claimable = {a.route for a in legal_actions(view, seat, ClaimRoute) if isinstance(a, ClaimRoute)}
    out: dict[str, list[str]] = {}
    for r in board.routes_at[city]:
        route = board.routes[r]
        problem = route_problem(view, seat, route, names)
        note = route_details(route)
        if r in claimable:
            note += ": you can claim it"
        elif problem is not None and view.route_owner[r] is not None:
            owner = view.route_owner[r]
            note += ": yours" if owner == seat else f": {names[owner] if owner is not None else '?'}'s"
        out.setdefault(route.other_end(city), []).append(note)
    return [(other, " | ".join(notes)) for other, notes in sorted(out.items())]


def _sides(board: Board, cities: list[str]) -> list[tuple[str, str]]:
    """The colours of a double route, once both its cities are typed."""
    if len(cities) != 2:
        return []
    routes = board.routes_between(cities[0], cities[1])
    return [(r.color, "this side of the double route") for r in routes] if len(routes) > 1 else []


def _payments(view: GameState, seat: int) -> list[tuple[str, str]]:
    counts = hand_counts(view, seat)
    out = [("with", "then the cards: 2 red 1 loco")]
    for kind in card_kinds(view.game.board):
        if counts.get(kind):
            out.append(("loco" if kind == LOCOMOTIVE else kind, f"you hold {counts[kind]}"))
    return out


def _tickets(view: GameState, seat: int) -> list[tuple[str, str]]:
    rows = ticket_rows(view, seat)
    return [(str(i + 1), ticket_name(r.ticket) + (" (done)" if r.done else "")) for i, r in enumerate(rows)] + \
        [("off", "stop showing a path")] + _cities(view.game.board)
