"""How the client names things: cities, card colours, routes, players.

Players type city and colour names loosely (any case, accents or not, a
unique beginning: "par", "mün", "loco"); everything the client prints names
them one way, the way the map does.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from p2p_ttr.engine.board import GRAY, LOCOMOTIVE, TRACK_BED, Board, Route, Ticket, europe, fold_name

from .numbering import seat_number

# The board the screens' map draws before a game is seated (and the default
# of pay_spec and trail, for a caller with no game at hand). Everything else
# reads the board and rules of the game it shows (``view.game``).
BOARD = europe()
# The words a player may type for a locomotive.
LOCO_WORDS = ("loco", "locos", "locomotive", "locomotives", "joker")
DASH = "–"  # between the two cities of a route
# 'München' -> 'munchen': the engine's rule, so the client matches what find_city does.
fold = fold_name

# The seats' colours, seat 0 first; the sixth, white, only where a game seats six (Old West's white cars).
COLOURS = ("red", "blue", "green", "yellow", "black", "white")
# Said when a player leaves the game at the keyboard (the plain prompt and the full screen alike).
ENDED = "paused at the keyboard: the same command resumes the game"
FORFEITED = "you forfeit your seat: your cards are shown and the table plays it on"


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def card_kinds(board: Board) -> tuple[str, ...]:
    """Every card kind of ``board`` in the order the client lists them: the colours, then locomotives."""
    return board.colors + (LOCOMOTIVE,)


def kind_name(kind: str) -> str:
    """'locomotive' is long for a table cell; colours are short already."""
    return "loco" if kind == LOCOMOTIVE else kind


@cache
def _city_keys(board: Board) -> tuple[tuple[str, str], ...]:
    return tuple((fold(c), c) for c in board.cities)


def cities_matching(board: Board, text: str) -> list[str]:
    """The cities of ``board`` ``text`` may mean: the one it names exactly,
    else every city whose name starts with it (ignoring case, accents and spaces)."""
    key = fold(text)
    if not key:
        return []
    exact = [c for k, c in _city_keys(board) if k == key]
    return exact or [c for k, c in _city_keys(board) if k.startswith(key)]


@cache
def most_words(board: Board) -> int:
    """The most words a city's name on ``board`` has ('Salt Lake City': 3)."""
    return max((len(c.split()) for c in board.cities), default=1)


def take_city(board: Board, words: Sequence[str]) -> tuple[str, int] | None:
    """The city the first of ``words`` name and how many words its name took
    ('new york' is two words), None if they name no single city. The most
    words that name one city win: 'new york' is New York, where 'new' alone
    could be New Orleans too."""
    for k in range(min(len(words), most_words(board)), 0, -1):
        found = cities_matching(board, " ".join(words[:k]))
        if len(found) == 1:
            return found[0], k
    return None


def leading_cities(board: Board, words: Sequence[str], most: int) -> tuple[list[str], list[str]]:
    """The cities (at most ``most``) that ``words`` begin with, and the words
    after them; the first word that names no single city ends the cities."""
    cities: list[str] = []
    rest = list(words)
    while rest and len(cities) < most:
        taken = take_city(board, rest)
        if taken is None:
            break
        cities.append(taken[0])
        rest = rest[taken[1]:]
    return cities, rest


def kinds_matching(board: Board, text: str) -> list[str]:
    """The card kinds ``text`` may mean ('bl' -> blue and black; 'loco' -> locomotive)."""
    key = fold(text)
    if not key:
        return []
    if key in LOCO_WORDS or (len(key) >= 2 and any(w.startswith(key) for w in LOCO_WORDS)):
        return [LOCOMOTIVE]
    if key == "grey":
        key = GRAY
    exact = [k for k in board.colors + (GRAY,) if k == key]
    return exact or [k for k in board.colors if k.startswith(key)]


def route_details(route: Route) -> str:
    """'orange, 3', with the tunnel or ferry said."""
    extra = ""
    if route.tunnel:
        extra = ", tunnel"
    elif route.ferry_locomotives:
        extra = f", ferry: {plural(route.ferry_locomotives, 'locomotive')}"
    if route.mountain_x:
        extra += f", mountain: {plural(route.mountain_x, 'more car')}"
    return f"{color_words(route)}, {route.length}{extra}"


def color_words(route: Route) -> str:
    """A route's colour as said: 'orange', 'gray', or 'track bed' (France: a bed no piece is on yet)."""
    return "track bed" if route.color == TRACK_BED else route.color


def route_name(route: Route) -> str:
    """'Paris–Frankfurt (orange, 3)'."""
    return f"{route.a}{DASH}{route.b} ({route_details(route)})"


def ticket_name(ticket: Ticket) -> str:
    """'Paris–Wien (8)'; a country ticket as its card reads: 'Bern–France/Deutschland/Osterreich/Italia (5/6/11/8)'."""
    if ticket.goals:
        start = ticket.title.split("-", 1)[0]
        return (f"{start}{DASH}{'/'.join(g.name for g in ticket.goals)} "
                f"({'/'.join(str(g.points) for g in ticket.goals)})")
    return f"{ticket.a}{DASH}{ticket.b} ({ticket.points})"


def route_points(board: Board, route: Route) -> int:
    return board.route_points[route.length]


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
