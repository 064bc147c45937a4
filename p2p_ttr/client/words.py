"""How the client names things: cities, card colours, routes, players.

Players type city and colour names loosely (any case, accents or not, a
unique beginning: "par", "mün", "loco"); everything the client prints names
them one way, the way the map does.
"""

from __future__ import annotations

from functools import cache

from p2p_ttr.engine.board import GRAY, LOCOMOTIVE, Route, Ticket, europe, fold_name

from .numbering import seat_number

BOARD = europe()
# Every card kind in the order the client lists them: the colours, then locomotives.
KINDS: tuple[str, ...] = BOARD.colors + (LOCOMOTIVE,)
# The words a player may type for a locomotive.
LOCO_WORDS = ("loco", "locos", "locomotive", "locomotives", "joker")
DASH = "–"  # between the two cities of a route
# 'München' -> 'munchen': the engine's rule, so the client matches what find_city does.
fold = fold_name

COLOURS = ("red", "blue", "green", "yellow", "black")  # the seats' colours, seat 0 first
# Said when a player leaves the game at the keyboard (the plain prompt and the full screen alike).
ENDED = "paused at the keyboard: the same command resumes the game"
FORFEITED = "you forfeit your seat: your cards are shown and the table plays it on"


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def kind_name(kind: str) -> str:
    """'locomotive' is long for a table cell; colours are short already."""
    return "loco" if kind == LOCOMOTIVE else kind


@cache
def _city_keys() -> tuple[tuple[str, str], ...]:
    return tuple((fold(c), c) for c in BOARD.cities)


def cities_matching(text: str) -> list[str]:
    """The cities ``text`` may mean: the one it names exactly, else every city
    whose name starts with it (ignoring case, accents and spaces)."""
    key = fold(text)
    if not key:
        return []
    exact = [c for k, c in _city_keys() if k == key]
    return exact or [c for k, c in _city_keys() if k.startswith(key)]


def kinds_matching(text: str) -> list[str]:
    """The card kinds ``text`` may mean ('bl' -> blue and black; 'loco' -> locomotive)."""
    key = fold(text)
    if not key:
        return []
    if key in LOCO_WORDS or (len(key) >= 2 and any(w.startswith(key) for w in LOCO_WORDS)):
        return [LOCOMOTIVE]
    if key == "grey":
        key = GRAY
    exact = [k for k in BOARD.colors + (GRAY,) if k == key]
    return exact or [k for k in BOARD.colors if k.startswith(key)]


def route_details(route: Route) -> str:
    """'orange, 3', with the tunnel or ferry said."""
    extra = ""
    if route.tunnel:
        extra = ", tunnel"
    elif route.ferry_locomotives:
        extra = f", ferry: {plural(route.ferry_locomotives, 'locomotive')}"
    return f"{route.color}, {route.length}{extra}"


def route_name(route: Route) -> str:
    """'Paris–Frankfurt (orange, 3)'."""
    return f"{route.a}{DASH}{route.b} ({route_details(route)})"


def ticket_name(ticket: Ticket) -> str:
    """'Paris–Wien (8)'."""
    return f"{ticket.a}{DASH}{ticket.b} ({ticket.points})"


def route_points(route: Route) -> int:
    return BOARD.route_points[route.length]


def who(player: int, me: int | None, names: tuple[str, ...], capital: bool = False) -> str:
    """How the client names a player: 'you' for the one at this screen."""
    if player == me:
        return "You" if capital else "you"
    return names[player] if 0 <= player < len(names) else f"player {seat_number(player)}"


def seat_colour(player: int) -> str:
    """The colour of a seat's trains: named wherever the player is, so that
    the seat reads without colour (NO_COLOR) as well as with it."""
    return COLOURS[player] if 0 <= player < len(COLOURS) else "?"


def whose(player: int, me: int | None, names: tuple[str, ...]) -> str:
    return "your" if player == me else who(player, me, names) + "'s"


# What escrow costs and buys, said in the lobby, `ttr host --help`, README and protocol.md §11.
ESCROW_TRADE_OFF = ("if a player's machine vanishes for good, all the other players together open its key "
                    "from escrow and the game goes on with that seat played by the table; the price: all the "
                    "other players together could also read that player's hand")
