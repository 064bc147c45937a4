"""Final scoring of a game.

Pure functions over the :class:`~p2p_ttr.engine.game.Game` (its board and
rules) and each player's claims at the end of the game (routes, stations,
kept tickets): no I/O, no randomness, the same answer on every peer.

The rules implemented (Europe's official rules; other boards by their
``Rules``: no stations, another name for the longest-trail bonus or none,
the Globetrotter):

* route points from ``board.route_points`` (Europe: 1/2/3/4/6/8 cars -> 1/2/4/7/15/21);
* every kept ticket scores its value if its two cities are joined by the
  player's own routes plus the routes their stations borrow, and loses it if
  not; with Alvin & Dexter (monsters.py), a ticket naming a City in Chaos at
  the end scores half, rounded down, or loses half, rounded down in
  magnitude (:func:`in_chaos`);
* each station borrows at most one route owned by an opponent and ending in the
  station's city; the same route serves all of the owner's tickets. The
  assignment that maximises the owner's ticket points, then their number of
  completed tickets, is chosen (see :func:`best_borrowing` for the
  deterministic tie-break);
* 4 points per station left unbuilt (``Rules.station_points``);
* the European Express (10 points; ``Rules.longest_path_points``) goes to
  every player whose longest continuous trail of their own routes is the
  longest in the game (nobody if that length is 0);
* the Globetrotter (``Rules.globetrotter_points``, where played) goes to every
  player with the most completed tickets (nobody if that is 0);
* Legendary Asia: each car a mountain route's X sends to the Mountain
  Crossing scores ``Rules.mountain_car_points``; the most-cities bonus
  (``Rules.most_cities_points``, the Asian Explorer) goes to every player
  whose largest network of their own routes (branches and loops allowed)
  touches the most cities;
* ranking: most points, then most completed tickets, then fewest stations
  built, then holding the longest-trail bonus, then most mountain routes
  claimed; players equal on all of them share a place (each board's own
  chain is this one with the links it has no use for equal for everyone).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from p2p_ttr.engine.board import Board
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.grandtour import grand_tour_bonus, two_separate_paths
from p2p_ttr.engine.techstate import RIGHT_OF_WAY


@dataclass(frozen=True, slots=True)
class PlayerClaims:
    """What one player holds at the end of the game."""

    routes: tuple[int, ...]  # route ids owned
    stations: tuple[str, ...]  # cities where this player built a station
    tickets: tuple[int, ...]  # ticket ids held at the end (kept ones)


@dataclass(frozen=True, slots=True)
class TicketResult:
    """One ticket at the end: whether the player's routes (and borrowed ones) join its cities, and the points won
    or lost."""

    ticket: int
    completed: bool
    points: int  # +ticket points if completed, -ticket points if not
    halved: bool = False  # Alvin & Dexter: the points scored or lost were halved by a City in Chaos


@dataclass(frozen=True, slots=True)
class ScorePart:
    """One part of a score beside routes and tickets, as the game plays it."""

    key: str  # its JSON name ("stations", "express", "mountains", ...), unique in a game
    title: str  # how players name it ("stations", "European Express", "Mountain Crossing", ...)
    points: int
    # What earned the points, in the part's own unit (stations unbuilt, cars
    # of the longest trail, tickets completed, cities, shares...): the client
    # words it by ``key``.
    count: int = 0


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """One player's final score, part by part, with what decided it (tickets, borrowed routes, longest trail)."""

    routes: int  # route points
    tickets: int  # sum of TicketResult.points
    stations: int  # Rules.station_points per unbuilt station
    express: int  # the longest-trail bonus (Rules.longest_path_points) or 0
    total: int
    longest_path: int  # length in cars of the player's longest continuous trail
    completed_tickets: int
    stations_built: int
    ticket_results: tuple[TicketResult, ...]  # in PlayerClaims.tickets order
    # (station city, borrowed route id or None), one per station, in
    # PlayerClaims.stations order
    borrowed: tuple[tuple[str, int | None], ...]
    globetrotter: int = 0  # Rules.globetrotter_points or 0
    grand_tour: int = 0  # India's Grand Tour (grandtour.py), by the tickets joined twice
    mountains: int = 0  # Legendary Asia: the cars sent to the Mountain Crossing, scored
    mountain_routes: int = 0  # how many of the player's routes have an X (a tie-break)
    most_cities: int = 0  # the most-cities bonus (Rules.most_cities_points) or 0
    network_cities: int = 0  # the cities of the player's largest network
    # The parts a board's own mechanics add at the end (shares, technologies,
    # depots...): each mechanic's module computes its own (engine/endparts.py),
    # so no board's pieces become fields here. Counted in ``total``.
    extra: tuple[ScorePart, ...] = ()


@dataclass(frozen=True, slots=True)
class GameScore:
    """Every player's score, the ranking after the tie-breaks, and the places (shared when tied on everything)."""

    players: tuple[PlayerScore, ...]
    ranking: tuple[int, ...]  # player indices, winner first, by the tie-break chain
    # place per player index (1 = winner); players tied on every tie-break
    # share a place and the next place is skipped (1, 1, 3)
    places: tuple[int, ...]


class ClaimError(ValueError):
    """Claims that cannot come from a legal game.

    ``player`` is the index of the player the problem is attributed to (the
    later one when two players conflict), or None for a problem with the game
    as a whole; ``reason`` is the message without the player.
    """

    def __init__(self, player: int | None, reason: str) -> None:
        super().__init__(reason if player is None else f"player {player}: {reason}")
        self.player = player
        self.reason = reason


# --------------------------------------------------------------------------
# Union-find over city names: small, and rebuilt per question, which is cheaper
# than keeping anything incremental for at most a few dozen routes.


def _find(parent: dict[str, str], city: str) -> str:
    root = city
    while (up := parent.get(root, root)) != root:
        root = up
    # Path compression: later finds on this city are one hop.
    while city != root:
        parent[city], city = root, parent.get(city, city)
    return root


def _union(parent: dict[str, str], a: str, b: str) -> None:
    ra, rb = _find(parent, a), _find(parent, b)
    if ra != rb:
        parent[ra] = rb


def _components(board: Board, routes: Iterable[int]) -> dict[str, str]:
    parent: dict[str, str] = {}
    for r in routes:
        route = board.routes[r]
        _union(parent, route.a, route.b)
    return parent


# --------------------------------------------------------------------------
# The three building blocks.


def route_points(board: Board, routes: Iterable[int]) -> int:
    """Points for owning ``routes`` (each distinct id counted once)."""
    return sum(board.route_points[board.routes[r].length] for r in dict.fromkeys(routes))


def mountain_points(game: Game, routes: Iterable[int]) -> int:
    """What the cars ``routes`` sent to the Mountain Crossing score (0 off Legendary Asia)."""
    board = game.board
    return game.rules.mountain_car_points * sum(board.routes[r].mountain_x for r in routes)


def largest_network(board: Board, routes: Iterable[int]) -> int:
    """The cities of the largest connected network ``routes`` make (each city once)."""
    routes = tuple(routes)
    parent = _components(board, routes)
    sizes: dict[str, int] = {}
    for city in {c for r in routes for c in board.routes[r].cities}:
        root = _find(parent, city)
        sizes[root] = sizes.get(root, 0) + 1
    return max(sizes.values(), default=0)


def connected(board: Board, routes: Iterable[int], a: str, b: str) -> bool:
    """Whether cities ``a`` and ``b`` are joined using only ``routes``.

    A city is always connected to itself.
    """
    parent = _components(board, routes)
    return _find(parent, a) == _find(parent, b)


def longest_trail(board: Board, routes: Iterable[int]) -> int:
    """Length in cars of the longest continuous trail through ``routes``.

    A trail uses each route at most once but may revisit cities, so loops
    count in full. Each route id is its own edge (the two sides of a double
    route are two edges). The search is exact; it is exponential in the worst
    case but fast for the at most 45 cars a player owns, thanks to:

    * a connected piece with at most two odd-degree cities has an Euler trail,
      so its longest trail is all of it;
    * otherwise every longest trail ends at odd-degree cities (a trail that
      cannot be extended has used every route at its ends, and a closed one
      would have to be the whole piece, the first case), so only those are
      tried as starts;
    * a city with exactly two routes is passed straight through, so chains of
      such cities are first merged into single weighted edges;
    * the best continuation from a city depends only on that city and the
      routes already used, so it is memoised (different orders of the same
      routes meet again).

    Measured: well under a millisecond for typical networks, up to about 20 ms
    for the densest 45-car meshes of short routes. Meant for one player's
    routes; much larger sets can take very long.
    """
    ids = list(dict.fromkeys(routes))
    parent = _components(board, ids)
    piece_cars: dict[str, int] = {}
    degree: dict[str, int] = {}
    for r in ids:
        route = board.routes[r]
        root = _find(parent, route.a)
        piece_cars[root] = piece_cars.get(root, 0) + route.length
        degree[route.a] = degree.get(route.a, 0) + 1
        degree[route.b] = degree.get(route.b, 0) + 1
    odd_count: dict[str, int] = {}
    for city, d in degree.items():
        if d % 2:
            root = _find(parent, city)
            odd_count[root] = odd_count.get(root, 0) + 1
    best = 0
    hard_pieces: set[str] = set()
    for root, cars in piece_cars.items():
        if odd_count.get(root, 0) <= 2:
            best = max(best, cars)
        else:
            hard_pieces.add(root)
    if not hard_pieces:
        return best
    hard = [r for r in ids if _find(parent, board.routes[r].a) in hard_pieces]
    graph = _TrailGraph.contracted(board, hard)
    starts = [c for c in graph.adjacency if degree[graph.names[c]] % 2]
    return max(best, graph.longest_from_any(starts))


# An edge as the trail search sees it: (bit in the used-set, far end, cars).
_Edge = tuple[int, int, int]


@dataclass(slots=True)
class _TrailGraph:
    """A multigraph of routes with cities numbered 0..n-1, for the trail search."""

    names: list[str]  # city number -> name
    adjacency: dict[int, list[_Edge]]  # a loop is listed once at its city

    @classmethod
    def contracted(cls, board: Board, routes: Sequence[int]) -> _TrailGraph:
        """The graph of ``routes`` with every city of degree two merged away
        (its two edges become one, possibly a loop); degrees elsewhere are
        unchanged, so one pass is enough."""
        edges: dict[int, tuple[str, str, int]] = {}
        incident: dict[str, set[int]] = {}
        for i, r in enumerate(routes):
            route = board.routes[r]
            edges[i] = (route.a, route.b, route.length)
            incident.setdefault(route.a, set()).add(i)
            incident.setdefault(route.b, set()).add(i)
        next_edge = len(edges)
        for city in [c for c, es in incident.items() if len(es) == 2]:
            first, second = incident[city]
            a1, b1, cars1 = edges[first]
            a2, b2, cars2 = edges[second]
            end1 = b1 if a1 == city else a1
            end2 = b2 if a2 == city else a2
            if end1 == city or end2 == city:
                continue  # a loop through here: not a pass-through city
            del edges[first], edges[second], incident[city]
            incident[end1].discard(first)
            incident[end2].discard(second)
            edges[next_edge] = (end1, end2, cars1 + cars2)
            incident[end1].add(next_edge)
            incident[end2].add(next_edge)
            next_edge += 1
        names = sorted(incident)
        number = {name: i for i, name in enumerate(names)}
        adjacency: dict[int, list[_Edge]] = {i: [] for i in range(len(names))}
        for bit, (a, b, cars) in enumerate(edges.values()):
            adjacency[number[a]].append((1 << bit, number[b], cars))
            if a != b:
                adjacency[number[b]].append((1 << bit, number[a], cars))
        return cls(names, adjacency)

    def longest_from_any(self, starts: Iterable[int]) -> int:
        """The longest trail starting at one of ``starts``."""
        memo: dict[tuple[int, int], int] = {}
        adjacency = self.adjacency

        def longest_from(city: int, used: int) -> int:
            key = (city, used)
            known = memo.get(key)
            if known is not None:
                return known
            best = 0
            for bit, other, cars in adjacency[city]:
                if not used & bit:
                    best = max(best, cars + longest_from(other, used | bit))
            memo[key] = best
            return best

        return max((longest_from(c, 0) for c in starts), default=0)


# --------------------------------------------------------------------------
# Stations.


def in_chaos(points: int, struck: bool) -> int:
    """A ticket's points (won or lost), halved and rounded down where it names
    a City in Chaos (``struck``; Alvin & Dexter): 7 scores 3, and a failed 7 loses 3."""
    return points // 2 if struck else points


def ticket_outcomes(
    board: Board, claims: PlayerClaims, borrowed: Iterable[int | None] = (), chaos: frozenset[str] = frozenset()
) -> tuple[TicketResult, ...]:
    """Each held ticket's result given the player's routes and ``borrowed``
    ones, and the places in ``chaos`` at the end (Alvin & Dexter)."""
    parent = _components(board, itertools.chain(claims.routes, _present(borrowed)))
    results = []
    for t in claims.tickets:
        ticket = board.tickets[t]
        starts = {_find(parent, place) for place in ticket.origin}
        # Each destination with its start is a ticket of its own for the
        # chaos: halved when either names a place in chaos.
        from_chaos = any(place in chaos for place in ticket.origin)
        worth = [(in_chaos(g.points, struck), struck, g) for g in ticket.destinations
                 for struck in [from_chaos or any(place in chaos for place in g.places)]]
        # The highest destination reached scores; none reached loses the lowest
        # (an ordinary ticket has one destination: its points, won or lost).
        reached = [(points, struck) for points, struck, g in worth if any(_find(parent, p) in starts for p in g.places)]
        done = bool(reached)
        points, struck = max(reached) if done else min((points, struck) for points, struck, _ in worth)
        results.append(TicketResult(t, done, points if done else -points, struck))
    return tuple(results)


def _present(borrowed: Iterable[int | None]) -> list[int]:
    return [r for r in borrowed if r is not None]


def borrowable_routes(
    board: Board, city: str, own: Iterable[int], taken: Iterable[int]
) -> tuple[int, ...]:
    """Routes a station in ``city`` may borrow: claimed by someone (``taken``,
    all players' routes) but not by the station's owner (``own``), and ending in
    ``city``; ascending ids."""
    taken_set, own_set = set(taken), set(own)
    return tuple(
        sorted(r for r in board.routes_at.get(city, ()) if r in taken_set and r not in own_set)
    )


def best_borrowing(
    board: Board, claims: PlayerClaims, opponent_routes: Iterable[int], chaos: frozenset[str] = frozenset()
) -> tuple[int | None, ...]:
    """The route each of the player's stations borrows (None: nothing).

    Maximises the player's ticket points (halved where a ticket names a place
    in ``chaos``: Alvin & Dexter), then their completed tickets.
    Deterministic tie-break: of the equally good assignments, the first in this
    order wins: stations taken in ``claims.stations`` order, the first station
    most significant; each station's choices ordered "borrow nothing" first,
    then by ascending route id. A consequence is that no station borrows a
    route it doesn't need (dropping it would give an earlier assignment just as
    good).

    The search is a brute force over at most 3 stations, on the graph whose
    nodes are the player's own connected pieces; choices that are provably
    equivalent to an earlier one are pruned first, which does not change the
    winner.
    """
    stations = claims.stations
    if not stations:
        return ()
    parent = _components(board, claims.routes)

    def piece(city: str) -> str:
        return _find(parent, city)

    open_tickets = [
        (piece(board.tickets[t].a), piece(board.tickets[t].b),
         in_chaos(board.tickets[t].points, board.tickets[t].a in chaos or board.tickets[t].b in chaos))
        for t in claims.tickets
        if piece(board.tickets[t].a) != piece(board.tickets[t].b)
    ]
    nothing: tuple[int | None, ...] = (None,) * len(stations)
    if not open_tickets:
        return nothing
    options = _station_options(board, claims, opponent_routes, piece, open_tickets)
    best_key = _borrowing_value(open_tickets, ())
    best = nothing
    all_done = (sum(p for _, _, p in open_tickets), len(open_tickets))
    for choice in itertools.product(*options):
        joins = [join for join in choice if join is not None]
        if not joins:
            continue
        key = _borrowing_value(open_tickets, joins)
        if key > best_key:  # strictly better: ties keep the earlier choice
            best_key = key
            best = tuple(None if join is None else join[2] for join in choice)
            if best_key == all_done:
                break
    return best


# A borrowable route seen as an edge between two of the owner's pieces:
# (station's piece, far piece, route id). A piece is named by its root city.
_Join = tuple[str, str, int]
_PieceOf = Callable[[str], str]


def _station_options(
    board: Board,
    claims: PlayerClaims,
    opponent_routes: Iterable[int],
    piece: _PieceOf,
    open_tickets: Sequence[tuple[str, str, int]],
) -> list[list[_Join | None]]:
    """Per station: None, then the borrowable routes that could matter.

    Dropped (each is equivalent to a choice earlier in the tie-break order):
    a route back into the station's own piece (same as borrowing nothing); a
    second route into a piece the station already reaches (same as the
    lower-id one); a route to a dead end, a piece that is no open ticket's end,
    holds no station and no other station can reach (it joins nothing useful).
    """
    opponents = frozenset(opponent_routes)
    station_pieces = {piece(city) for city in claims.stations}
    ticket_pieces = {end for a, b, _ in open_tickets for end in (a, b)}
    candidates: list[list[_Join]] = []
    for city in claims.stations:
        home = piece(city)
        seen: set[str] = set()
        joins: list[_Join] = []
        for r in sorted(board.routes_at.get(city, ())):
            if r not in opponents:
                continue
            far = piece(board.routes[r].other_end(city))
            if far == home or far in seen:
                continue
            seen.add(far)
            joins.append((home, far, r))
        candidates.append(joins)
    reach_count: dict[str, int] = {}
    for joins in candidates:
        for _, far, _ in joins:
            reach_count[far] = reach_count.get(far, 0) + 1
    useful = ticket_pieces | station_pieces | {p for p, n in reach_count.items() if n > 1}
    return [[None, *(j for j in joins if j[1] in useful)] for joins in candidates]


def _borrowing_value(
    open_tickets: Sequence[tuple[str, str, int]], joins: Sequence[_Join]
) -> tuple[int, int]:
    """(ticket points, completed tickets) over the open tickets with ``joins``."""
    parent: dict[str, str] = {}
    for home, far, _ in joins:
        _union(parent, home, far)
    points = completed = 0
    for a, b, value in open_tickets:
        if _find(parent, a) == _find(parent, b):
            points += value
            completed += 1
        else:
            points -= value
    return points, completed


# --------------------------------------------------------------------------
# Validation.


def check_claims(
    game: Game, claims: Sequence[PlayerClaims], names: Sequence[str] | None = None
) -> None:
    """Raise :class:`ClaimError` unless ``claims`` could end a legal game.

    Checks: a player count the game allows; known route ids, cities and
    ticket ids; no route claimed twice (by one or two players); no player on
    both sides of a double route, and nobody at all on the second side where
    the table is too small for both (Europe: 2 or 3 players); at most the
    game's cars of routes and its stations per player; at most one station
    per city; no ticket held twice. A conflict is reported for the later
    player (in seat order). ``names``, if given, is how messages refer to the
    other player of a conflict (default "player N", N the 0-based index).
    """
    rules = game.rules
    if not rules.players_allowed(len(claims)):
        raise ClaimError(None, f"{rules.min_players}..{rules.max_players} players required, got {len(claims)}")
    if names is not None and len(names) != len(claims):
        raise ValueError("one name per player expected")
    checker = _ClaimChecker(
        game.board,
        [f"player {i}" for i in range(len(claims))] if names is None else list(names),
        doubles_allowed=rules.both_sides_open(len(claims)),
        trains=rules.trains,
        stations=rules.stations,
        min_players=rules.min_players,
        both_sides_min_players=rules.both_sides_min_players,
        # Right of Way (technologies.py): a second player's trains beside the first's on one route.
        beside=RIGHT_OF_WAY in rules.technologies,
    )
    for player, claim in enumerate(claims):
        checker.check(player, claim)


@dataclass(slots=True)
class _ClaimChecker:
    """Accumulates who holds what while players are checked in seat order."""

    board: Board
    names: list[str]
    doubles_allowed: bool
    trains: int
    stations: int
    min_players: int
    both_sides_min_players: int
    beside: bool = False  # a route may be held by two players (the second by Right of Way)
    route_owner: dict[int, int] = field(default_factory=dict)
    beside_owner: dict[int, int] = field(default_factory=dict)
    station_owner: dict[str, int] = field(default_factory=dict)
    ticket_holder: dict[int, int] = field(default_factory=dict)

    @property
    def one_side_counts(self) -> str:
        """The player counts that play one side of a double route: '2 or 3'."""
        counts = [str(n) for n in range(self.min_players, self.both_sides_min_players)]
        return " or ".join(counts) if len(counts) <= 2 else f"{counts[0]} to {counts[-1]}"

    def check(self, player: int, claim: PlayerClaims) -> None:
        self._routes(player, claim.routes)
        self._stations(player, claim.stations)
        self._tickets(player, claim.tickets)

    def _who(self, holder: int, player: int) -> str:
        return "the same player" if holder == player else self.names[holder]

    def _routes(self, player: int, routes: Sequence[int]) -> None:
        cars = 0
        for r in routes:
            if not 0 <= r < len(self.board.routes):
                raise ClaimError(player, f"unknown route id {r}")
            route = self.board.routes[r]
            if r in self.route_owner and (not self.beside or self.route_owner[r] == player or r in self.beside_owner):
                who = self._who(self.route_owner[r], player)
                raise ClaimError(player, f"route {route.label} is already claimed by {who}")
            # A double route's other side; a triple route's other two (the first one held).
            twin_owners = [o for t in route.parallel if (o := self.route_owner.get(t)) is not None]
            twin_owner = player if player in twin_owners else next(iter(twin_owners), None)
            if twin_owner == player:
                raise ClaimError(
                    player, f"both sides of the double route {route.a}-{route.b} by one player"
                )
            if twin_owner is not None and not self.doubles_allowed:
                raise ClaimError(
                    player,
                    f"route {route.label}: the other side is claimed by "
                    f"{self.names[twin_owner]}, and with {self.one_side_counts} players only one side "
                    "of a double route may be used",
                )
            if r in self.route_owner:  # beside the first holder's trains (Right of Way)
                self.beside_owner[r] = player
            else:
                self.route_owner[r] = player
            cars += route.cars
        if cars > self.trains:
            raise ClaimError(
                player, f"routes use {cars} trains, more than the {self.trains} a player has"
            )

    def _stations(self, player: int, stations: Sequence[str]) -> None:
        if len(stations) > self.stations:
            raise ClaimError(
                player,
                f"{len(stations)} stations, more than the {self.stations} a player has",
            )
        for city in stations:
            if city not in self.board.routes_at:
                raise ClaimError(player, f"unknown city {city!r} for a station")
            if city in self.station_owner:
                who = self._who(self.station_owner[city], player)
                raise ClaimError(player, f"a station in {city} is already built by {who}")
            self.station_owner[city] = player

    def _tickets(self, player: int, tickets: Sequence[int]) -> None:
        for t in tickets:
            if not 0 <= t < len(self.board.tickets):
                raise ClaimError(player, f"unknown ticket id {t}")
            if t in self.ticket_holder:
                who = self._who(self.ticket_holder[t], player)
                raise ClaimError(
                    player, f"ticket {self.board.tickets[t].label} is already held by {who}"
                )
            self.ticket_holder[t] = player


# --------------------------------------------------------------------------
# The whole game.


# A board's own end-of-game parts for every player, given everyone's score
# without them (engine/endparts.py makes it from the finished state).
ExtraParts = Callable[[tuple["PlayerScore", ...]], Sequence[tuple[ScorePart, ...]]]


def score_game(game: Game, claims: Sequence[PlayerClaims], extra: ExtraParts | None = None,
               chaos: frozenset[str] = frozenset()) -> GameScore:
    """Score a finished game; raises :class:`ClaimError` if ``claims`` are
    impossible (see :func:`check_claims`). ``extra`` adds the parts of a
    board's own pieces (what the claims alone do not hold), before the
    ranking: they count in the total like any other part. ``chaos``: the
    places in chaos at the end (Alvin & Dexter), whose tickets score half."""
    check_claims(game, claims)
    board = game.board
    trails = [longest_trail(board, c.routes) for c in claims]
    longest = max(trails)
    players = [
        _score_player(game, claims, i, trails[i], longest > 0 and trails[i] == longest, chaos)
        for i in range(len(claims))
    ]
    if game.rules.globetrotter_points:
        most = max(p.completed_tickets for p in players)
        players = [_with_globetrotter(p, game.rules.globetrotter_points)
                   if most > 0 and p.completed_tickets == most else p for p in players]
    if game.rules.most_cities_points:
        most = max(p.network_cities for p in players)
        players = [_with_most_cities(p, game.rules.most_cities_points)
                   if most > 0 and p.network_cities == most else p for p in players]
    if extra is not None:
        added = extra(tuple(players))
        players = [replace(p, extra=parts, total=p.total + sum(part.points for part in parts))
                   for p, parts in zip(players, added, strict=True)]
    return _ranked(tuple(players))


def _with_globetrotter(score: PlayerScore, points: int) -> PlayerScore:
    return replace(score, globetrotter=points, total=score.total + points)


def _with_most_cities(score: PlayerScore, points: int) -> PlayerScore:
    return replace(score, most_cities=points, total=score.total + points)


def _ranked(players: tuple[PlayerScore, ...]) -> GameScore:
    # sorted() is stable: players equal on every tie-break stay in seat order.
    ranking = tuple(sorted(range(len(players)), key=lambda i: rank_key(players[i])))
    return GameScore(players, ranking, _places(players, ranking))


def _places(players: Sequence[PlayerScore], ranking: Sequence[int]) -> tuple[int, ...]:
    """Competition places (1, 1, 3): a player shares the place of the one
    ranked just before them when no tie-break separates them."""
    places = [0] * len(players)
    for position, i in enumerate(ranking):
        if position and deciding_tiebreak(players[ranking[position - 1]], players[i]) is None:
            places[i] = places[ranking[position - 1]]
        else:
            places[i] = position + 1
    return tuple(places)


def _score_player(
    game: Game, claims: Sequence[PlayerClaims], me: int, trail: int, express: bool, chaos: frozenset[str]
) -> PlayerScore:
    board, rules = game.board, game.rules
    claim = claims[me]
    opponents = [r for i, c in enumerate(claims) if i != me for r in c.routes]
    borrowed = best_borrowing(board, claim, opponents, chaos)
    results = ticket_outcomes(board, claim, borrowed, chaos)
    routes = route_points(board, claim.routes)
    tickets = sum(t.points for t in results)
    stations = rules.station_points * (rules.stations - len(claim.stations))
    express_points = rules.longest_path_points if express else 0
    grand_tour = 0
    if rules.grand_tour_points:
        tours = sum(1 for t in results if t.completed
                    and two_separate_paths(board, claim.routes, board.tickets[t.ticket].a, board.tickets[t.ticket].b))
        grand_tour = grand_tour_bonus(rules.grand_tour_points, tours)
    mountains = mountain_points(game, claim.routes)
    return PlayerScore(
        routes=routes,
        tickets=tickets,
        stations=stations,
        express=express_points,
        total=routes + tickets + stations + express_points + grand_tour + mountains,
        longest_path=trail,
        completed_tickets=sum(t.completed for t in results),
        stations_built=len(claim.stations),
        ticket_results=results,
        borrowed=tuple(zip(claim.stations, borrowed, strict=True)),
        grand_tour=grand_tour,
        mountains=mountains,
        mountain_routes=sum(1 for r in claim.routes if board.routes[r].mountain_x),
        network_cities=largest_network(board, claim.routes) if rules.most_cities_points else 0,
    )




def score_parts(game: Game, score: PlayerScore) -> tuple[ScorePart, ...]:
    """The parts of ``score`` beyond routes and tickets that ``game`` plays, in
    the order every score table shows them, a board's own parts last: the one
    list of a game's bonuses that the tables, the audit and the JSON read."""
    rules = game.rules
    mountain_cars = score.mountains // rules.mountain_car_points if rules.mountain_car_points else 0
    parts = [
        (rules.stations, "stations", "stations", score.stations, rules.stations - score.stations_built),
        (rules.longest_path_points, "express", rules.longest_path_bonus, score.express, score.longest_path),
        (rules.globetrotter_points, "globetrotter", "Globetrotter", score.globetrotter, score.completed_tickets),
        (rules.grand_tour_points, "grand_tour", "Grand Tour", score.grand_tour, 0),
        (rules.mountain_car_points, "mountains", "Mountain Crossing", score.mountains, mountain_cars),
        (rules.most_cities_points, "most_cities", rules.most_cities_bonus, score.most_cities, score.network_cities),
    ]
    return tuple(ScorePart(key, title, points, count)
                 for played, key, title, points, count in parts if played) + score.extra


# The names of the tie-break chain, in order, matching rank_key's components.
TIEBREAKS: tuple[str, ...] = ("points", "completed tickets", "fewer stations", "European Express",
                               "mountain routes")


def rank_key(score: PlayerScore) -> tuple[int, int, int, int, int]:
    """Sort key putting the better player first: the tie-break chain."""
    return (-score.total, -score.completed_tickets, score.stations_built, -score.express, -score.mountain_routes)


def deciding_tiebreak(ahead: PlayerScore, behind: PlayerScore) -> str | None:
    """Which of :data:`TIEBREAKS` puts ``ahead`` before ``behind`` (the first
    one on which they differ), or None when they are equal on all of them."""
    for name, a, b in zip(TIEBREAKS, rank_key(ahead), rank_key(behind), strict=True):
        if a != b:
            return name
    return None
