"""Games played on the physical board, as people write them down.

A game is a JSON object::

    {"players": [{"name": "Ann",
                  "routes": [["Paris", "Frankfurt", "orange"], ...],
                  "stations": ["Wien"],
                  "tickets": [["Brest", "Petrograd"], ...]}, ...]}

Routes are named ``[city, city, colour]`` (or ``[city, city]`` where every
route between the two cities has one colour) and tickets ``[city, city]``,
the cities in either order and any letter case. The two sides of a gray double
route have the same name: the first player to name it gets one side, the next
one the other. Switzerland's country tickets are named by where the card
starts alone, a city or a country (``["Bern"]``, ``["France"]``); where the
box holds two copies, each naming takes the next. ``routes``, ``stations`` and
``tickets`` may be omitted (none). Pennsylvania's stock shares are listed
per player, and the two-player dummy's revealed ones beside the players
(``engine/sharesheet.py``).
``tickets`` may be omitted (none). On a board with city markers (Old West),
where routes score in play to the markers' owners, each player also gives
the route points their score track shows (``"route_points": 31``): the
board does not keep the order of the claims that decided them. With Alvin &
Dexter, the game says where the monsters stood at the end and each player
the monster cards they hold (``engine/monstersheet.py``).

This module turns such text into validated :class:`TableGame` values (board
ids plus player names) or raises :class:`ScoreSheetError` with a one-line message
naming the problem and the player. It does no I/O, so anything that receives a
game written by people (the ``ttr score`` command, a replicated table) can
share it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from p2p_ttr.engine.board import GRAY, TRACK_BED, Board, Route, fold_name
from p2p_ttr.engine.countrytickets import country_tickets_from, start_name
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.scoring import ClaimError, PlayerClaims, check_claims
from p2p_ttr.engine.monsters import Monsters
from p2p_ttr.engine.monstersheet import CARDS_KEY, CITIES_KEY, SheetMonstersError, sheet_monsters
from p2p_ttr.engine.sharesheet import Held, SheetSharesError, sheet_shares

MAX_INPUT_BYTES = 4 * 1024 * 1024
MAX_GAMES = 1000  # per input: scoring is not free, and nobody plays more in a sitting
MAX_NAME_LENGTH = 40
_QUOTED_MAX = 40  # longer text from the input is cut in messages
_GAME_KEYS = frozenset({"players", "dummy"})  # "dummy": Pennsylvania's (sharesheet.py)
_PLAYER_KEYS = frozenset({"name", "routes", "stations", "tickets", "shares"})
_IN_PLAY_KEY = "route_points"  # Old West: route points scored in play (engine/markerpoints.py)
_COLOUR_ALIASES = {"grey": GRAY}
# Letters that Unicode does not split into a base letter and an accent.
class ScoreSheetError(ValueError):
    """Input that is not a valid game; the message is one line for people."""


@dataclass(frozen=True, slots=True)
class TableGame:
    """A game played on the physical board, as `ttr score` reads it: the players and what each holds."""

    names: tuple[str, ...]
    claims: tuple[PlayerClaims, ...]
    shares: Held = ()  # Pennsylvania's stock shares (sharesheet.py)
    monsters: Monsters | None = None  # Alvin & Dexter's cities at the end and cards (monstersheet.py)
    # Each player's route points scored in play, where routes score to city markers (Old West); else ().
    route_points: tuple[int, ...] = ()


def decode_input(data: bytes) -> str:
    """The text of an input of at most :data:`MAX_INPUT_BYTES` UTF-8 bytes."""
    if len(data) > MAX_INPUT_BYTES:
        raise ScoreSheetError(f"input is larger than {MAX_INPUT_BYTES // (1024 * 1024)} MiB")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ScoreSheetError(f"input is not UTF-8 text (byte {exc.start})") from None


def parse_games(game: Game, text: str) -> list[TableGame]:
    """The games in ``text``: one JSON object, or JSON Lines with one game per
    (non-blank) line, in which case messages start with "line N: "."""
    if not text.strip():
        raise ScoreSheetError("no game in the input")
    try:
        document = json.loads(text)
    except (ValueError, RecursionError) as whole_error:
        if not _looks_like_json_lines(text):
            raise ScoreSheetError(f"unreadable JSON: {_reason(whole_error)}") from None
        return _parse_json_lines(game, text)
    return [parse_game(game, document)]


def _looks_like_json_lines(text: str) -> bool:
    """Whether the first non-blank line is a JSON value by itself (so a broken
    pretty-printed object is reported as a whole, not as a bad line 1)."""
    first = next(line for line in _lines(text) if line.strip())
    try:
        json.loads(first)
    except (ValueError, RecursionError):
        return False
    return True


def _parse_json_lines(game: Game, text: str) -> list[TableGame]:
    games: list[TableGame] = []
    for number, line in enumerate(_lines(text), start=1):
        if not line.strip():
            continue
        if len(games) == MAX_GAMES:
            raise ScoreSheetError(f"line {number}: more than {MAX_GAMES} games in one input")
        try:
            document = json.loads(line)
        except (ValueError, RecursionError) as exc:
            raise ScoreSheetError(f"line {number}: unreadable JSON: {_reason(exc)}") from None
        try:
            games.append(parse_game(game, document))
        except ScoreSheetError as exc:
            raise ScoreSheetError(f"line {number}: {exc}") from None
    return games


def _lines(text: str) -> list[str]:
    # Not str.splitlines(): it also splits at U+2028 and friends, which JSON
    # allows unescaped inside strings. A trailing "\r" is JSON whitespace.
    return text.split("\n")


def _reason(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    return " ".join(str(exc).split())  # one line whatever the decoder said


def parse_game(game: Game, document: object) -> TableGame:
    """One game from its decoded JSON value; checks it could end a legal game
    (see :func:`p2p_ttr.engine.scoring.check_claims`)."""
    if not isinstance(document, dict):
        raise ScoreSheetError('a game must be a JSON object with "players"')
    monsters_played = bool(game.rules.monster_cards)
    _reject_unknown_keys(document, _GAME_KEYS | {CITIES_KEY} if monsters_played else _GAME_KEYS, "in the game")
    players = document.get("players")
    if not isinstance(players, list):
        raise ScoreSheetError('"players" must be a list of players')
    rules = game.rules
    if not rules.players_allowed(len(players)):
        raise ScoreSheetError(f"{rules.min_players}..{rules.max_players} players required, got {len(players)}")
    in_play = bool(rules.city_markers)
    keys = _PLAYER_KEYS | ({_IN_PLAY_KEY} if in_play else set()) | ({CARDS_KEY} if monsters_played else set())
    names = _player_names(players, frozenset(keys))
    resolver = _Resolver(game.board)
    claims: list[PlayerClaims] = []
    for player, name in zip(players, names, strict=True):
        try:
            claims.append(resolver.player_claims(player))
        except ScoreSheetError as exc:
            raise ScoreSheetError(f"player {_quote(name)}: {exc}") from None
    try:
        check_claims(game, claims, [_quote(n) for n in names])
    except ClaimError as exc:
        if exc.player is None:
            raise ScoreSheetError(exc.reason) from None
        raise ScoreSheetError(f"player {_quote(names[exc.player])}: {exc.reason}") from None
    try:
        shares = sheet_shares(game.board.stock_market, players, document.get("dummy"), len(players))
    except SheetSharesError as exc:
        raise ScoreSheetError(str(exc)) from None
    scored = tuple(_route_points(game, player, name) for player, name in zip(players, names)) if in_play else ()
    try:
        monsters = sheet_monsters(game.board, rules.monster_cards, document, players) if monsters_played else None
    except SheetMonstersError as exc:
        raise ScoreSheetError(str(exc)) from None
    return TableGame(tuple(names), tuple(claims), shares=shares, route_points=scored, monsters=monsters)


def _route_points(game: Game, player: Mapping[str, object], name: str) -> int:
    """The route points a player's score track shows: at most every route scored twice."""
    most = 2 * sum(game.board.route_points[r.length] for r in game.board.routes)
    points = player.get(_IN_PLAY_KEY)
    if type(points) is not int or not 0 <= points <= most:
        raise ScoreSheetError(f"player {_quote(name)}: {_quote(_IN_PLAY_KEY)} must be the route points "
                              f"the score track shows, a whole number from 0 to {most}")
    return points


def _player_names(players: Sequence[object], keys: frozenset[str]) -> list[str]:
    """Each player's name, after checking the player's shape."""
    names: list[str] = []
    seen: set[str] = set()
    for seat, player in enumerate(players, start=1):
        if not isinstance(player, dict):
            raise ScoreSheetError(f"player {seat}: a player must be a JSON object")
        name = player.get("name")
        if not isinstance(name, str) or not name.strip():
            raise ScoreSheetError(f'player {seat}: "name" must be a non-empty string')
        if len(name) > MAX_NAME_LENGTH or not name.isprintable():
            raise ScoreSheetError(
                f"player {seat}: a name must be at most {MAX_NAME_LENGTH} printable characters"
            )
        _reject_unknown_keys(player, keys, f"for player {_quote(name)}")
        if name.casefold() in seen:
            raise ScoreSheetError(f"player {_quote(name)}: two players have this name")
        seen.add(name.casefold())
        names.append(name)
    return names


def _reject_unknown_keys(obj: Mapping[str, object], allowed: frozenset[str], where: str) -> None:
    for key in obj:
        if key not in allowed:
            raise ScoreSheetError(f"unknown key {_quote(key)} {where}")


class _Resolver:
    """Turns names into board ids, handing out the sides of gray doubles in
    the order players name them."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.named_routes: set[int] = set()
        self.named_tickets: set[int] = set()  # country tickets handed out, copy by copy
        # The places country tickets start from and lead to (a city or a country): Switzerland's.
        self.countries = {g.name for t in board.tickets for g in t.goals}
        self.starts = list(dict.fromkeys(start_name(board, t) for t in board.tickets if t.goals))

    def player_claims(self, player: Mapping[str, object]) -> PlayerClaims:
        routes = [self.route(item) for item in _list_of(player, "routes", 3, optional=1)]
        stations = [self.city(item) for item in _list_of_strings(player, "stations")]
        tickets = [self.ticket(item) for item in _list_of(player, "tickets", 2, optional=1 if self.starts else 0)]
        return PlayerClaims(tuple(routes), tuple(stations), tuple(tickets))

    def city(self, name: str) -> str:
        city = self.board.find_city(name)
        if city is None:
            near = self.board.city_spelt_like(name)
            hint = f" (the map spells it {near})" if near else ""
            raise ScoreSheetError(f"unknown city {_quote(name)}{hint}")
        return city

    def route(self, item: Sequence[str]) -> int:
        a, b = self.city(item[0]), self.city(item[1])
        between = self.board.routes_between(a, b)
        if len(item) == 2:
            # No colour named: enough when every route between the two cities has one colour.
            colours = sorted({r.color for r in between})
            if len(colours) != 1:
                joined = f"the map has {a}-{b} in {', '.join(r.color for r in between)}" if between \
                    else f"no route joins {a} and {b}"
                raise ScoreSheetError(f"unknown route {a}-{b}: {joined}" +
                                      ("; name the colour" if between else ""))
            colour = colours[0]
        else:
            colour = _COLOUR_ALIASES.get(item[2].strip().casefold(), item[2].strip().casefold())
        # A track bed (France) was claimed in the colour of the piece on it, whichever that was.
        sides = [r.id for r in between if r.color == colour
                 or (r.color == TRACK_BED and colour in self.board.colors)]
        if not sides:
            raise ScoreSheetError(f"unknown route {_describe_route(a, b, item[2], between)}")
        # A second naming of a double gets the free side; naming a route more
        # often than it exists picks a taken side, which check_claims reports.
        side = next((r for r in sides if r not in self.named_routes), sides[0])
        self.named_routes.add(side)
        return side

    def ticket(self, item: Sequence[str]) -> int:
        if len(item) == 1:
            return self.country_ticket(item[0])
        zone = self.zone_ticket(item[0], item[1])
        if zone is not None:
            return zone
        for name in item:
            if any(fold_name(name) == fold_name(c) for c in self.countries):
                raise ScoreSheetError(f"a country ticket is named by where it starts alone, as "
                                      f"[{_quote(item[0])}], not {_show(list(item))}")
        a, b = self.city(item[0]), self.city(item[1])
        for ticket in self.board.tickets:
            if {ticket.a, ticket.b} == {a, b}:
                return ticket.id
        raise ScoreSheetError(f"unknown ticket {a}-{b}: the map has no such ticket")


    def zone_ticket(self, a: str, b: str) -> int | None:
        """The ticket naming a country for one of its ends (France: 'Toulouse', 'Corse'), if any: named by
        both ends, as a city ticket is (a Swiss country ticket, with several countries, is not)."""
        named = {fold_name(a), fold_name(b)}
        for ticket in self.board.tickets:
            if len(ticket.goals) == 1 and {fold_name(start_name(self.board, ticket)),
                                           fold_name(ticket.goals[0].name)} == named:
                return ticket.id
        return None

    def country_ticket(self, name: str) -> int:
        """The next copy not yet named of the country ticket that starts at ``name``."""
        copies = country_tickets_from(self.board, name)
        if copies is None:
            raise ScoreSheetError(f"no country ticket starts at {_quote(name)}: they start at {', '.join(self.starts)}")
        free = [t for t in copies if t not in self.named_tickets]
        if not free:
            start = start_name(self.board, self.board.tickets[copies[0]])
            many = f"{len(copies)} country ticket{'s' if len(copies) != 1 else ''}"
            raise ScoreSheetError(f"the box holds only {many} from {start}: one is named too often")
        self.named_tickets.add(free[0])
        return free[0]


def _describe_route(a: str, b: str, colour: str, between: Sequence[Route]) -> str:
    wanted = f"{a}-{b} ({_quote(colour)})"
    if not between:
        return f"{wanted}: no route joins {a} and {b}"
    return f"{wanted}: the map has {a}-{b} in " + ", ".join(r.color for r in between)


def _list_of(player: Mapping[str, object], key: str, size: int, optional: int = 0) -> list[list[str]]:
    """``player[key]`` as a list of lists of ``size`` strings, the last
    ``optional`` of them may be left out (absent: empty)."""
    items = player.get(key, [])
    parts = ["city"] * 2 + ["colour"] * (size - 2)
    shape = f'"{key}" must be a list of [{", ".join(parts[:size - optional])}' + \
        "".join(f"[, {p}]" for p in parts[size - optional:]) + "]"
    if not isinstance(items, list):
        raise ScoreSheetError(shape)
    for item in items:
        if (
            not isinstance(item, list)
            or not size - optional <= len(item) <= size
            or not all(isinstance(part, str) for part in item)
        ):
            raise ScoreSheetError(f"{shape}, got {_show(item)}")
    return items


def _list_of_strings(player: Mapping[str, object], key: str) -> list[str]:
    items = player.get(key, [])
    if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
        raise ScoreSheetError(f'"{key}" must be a list of city names')
    return items


def _quote(text: str) -> str:
    """``text`` quoted for a one-line message: escaped and cut short."""
    return json.dumps(_shorten(text))


def _show(value: object) -> str:
    """A JSON value from the input, cut short for a message."""
    try:
        return _shorten(json.dumps(value))
    except (ValueError, RecursionError):  # nested about as deep as the decoder allows
        return "a deeply nested value"


def _shorten(text: str) -> str:
    return text if len(text) <= _QUOTED_MAX else text[: _QUOTED_MAX - 3] + "..."
