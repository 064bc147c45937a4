"""A board: cities, routes, the tickets a game deals from, and train cards.

Every board is read once from its data file in ``p2p_ttr/data`` and is
immutable; the rules a board is played by are in ``game.Rules``, not here.
Identifiers used everywhere else in the project:

* a **route** is its index in the data file's ``routes`` list; each side of
  a double route is its own route, linked by ``Route.twin``;
* a **ticket** is its index among the game's regular tickets (0..), then the
  long tickets after them (Europe: 0..39 regular, 40..45 long);
* a **train card** is a number: ``cards_per_color`` of each colour in
  ``colors`` order (Europe: 0..11 purple, 12..23 blue, ...), then the
  locomotives (Europe: 96..109).
"""

from __future__ import annotations

import difflib
import heapq
import json
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from .stockmarket import StockMarket, stock_market_from

GRAY: Final = "gray"
LOCOMOTIVE: Final = "locomotive"
# The colour of an uncoloured track bed (France): it takes a piece's colour when
# one is laid on it (trackbeds.py), and cannot be claimed before.
TRACK_BED: Final = "trackbed"


@dataclass(frozen=True, slots=True)
class Route:
    """One route of the map: its cities, colour (or gray), length, and tunnel and ferry marks; ``twin`` is the
    other side of a double route."""

    id: int
    a: str
    b: str
    length: int
    color: str  # one of Board.colors, or GRAY
    tunnel: bool
    ferry_locomotives: int
    twin: int | None  # the other side of a double route
    # Cards of any kind that stand in for one card of the route's colour (0: none; Nordic's Lieksa-Murmansk: 4).
    stand_in: int = 0
    # Spaces marked X (Legendary Asia's mountain routes): each costs one more
    # car, sent to the Mountain Crossing (scored by Rules.mountain_car_points).
    mountain_x: int = 0
    # Every other track between the same two places: a double route's twin, a
    # triple route's two others (``twin`` is then the first of them).
    parallel: tuple[int, ...] = ()

    @property
    def cars(self) -> int:
        """The cars a claim of this route takes from its owner's supply: one
        per space, and one more per mountain X (a claim needs them all)."""
        return self.length + self.mountain_x

    @property
    def cities(self) -> tuple[str, str]:
        return (self.a, self.b)

    def other_end(self, city: str) -> str:
        if city == self.a:
            return self.b
        if city == self.b:
            return self.a
        raise ValueError(f"{city} is not an end of {self.label}")

    @property
    def label(self) -> str:
        """How players name it: 'Paris-Frankfurt (orange)'."""
        return f"{self.a}-{self.b} ({self.color})"


@dataclass(frozen=True, slots=True)
class TicketGoal:
    """One destination of a ticket: reached at any of ``places``, worth ``points``."""

    name: str  # a city, or a country (Switzerland)
    places: tuple[str, ...]
    points: int


@dataclass(frozen=True, slots=True)
class Ticket:
    """A destination ticket: two cities and its points (Europe's long tickets have ids from 40).

    Switzerland's country tickets (``countrytickets.py``) start at a city or at
    any endpoint of a country and name several destinations (``goals``); for
    them ``a`` and ``b`` are a place to start from and one of the richest
    goal's places (what a plan may aim at), ``points`` that goal's value, and
    ``title`` how the card reads."""

    id: int
    a: str
    b: str
    points: int
    long: bool
    starts: tuple[str, ...] = ()  # where it may start; () for (a,)
    goals: tuple[TicketGoal, ...] = ()  # () for reaching b, worth points
    title: str = ""

    @property
    def origin(self) -> tuple[str, ...]:
        return self.starts or (self.a,)

    @property
    def destinations(self) -> tuple[TicketGoal, ...]:
        return self.goals or (TicketGoal(self.b, (self.b,), self.points),)

    @property
    def label(self) -> str:
        return self.title or f"{self.a}-{self.b} ({self.points})"


@dataclass(frozen=True, eq=False)  # compared by identity: there is one board
class Board:
    """A map and card set, read once from ``p2p_ttr/data``: cities, routes (by id and by city), the tickets of
    the game's decks, train cards."""

    cities: tuple[str, ...]
    positions: dict[str, tuple[int, int]]
    routes: tuple[Route, ...]
    tickets: tuple[Ticket, ...]
    colors: tuple[str, ...]  # the eight card colours, in card-id order
    cards_per_color: int
    locomotives: int
    route_points: dict[int, int]  # route length -> points
    routes_at: dict[str, tuple[int, ...]]  # city -> ids of routes touching it
    card_kinds: tuple[str, ...]  # the kind of every train card by id: a colour or LOCOMOTIVE
    # Pennsylvania's companies and the logos beside its routes (stockmarket.py); None elsewhere.
    stock_market: StockMarket | None = None

    @property
    def n_cards(self) -> int:
        return len(self.colors) * self.cards_per_color + self.locomotives

    @property
    def regular_tickets(self) -> tuple[Ticket, ...]:
        return tuple(t for t in self.tickets if not t.long)

    @property
    def long_tickets(self) -> tuple[Ticket, ...]:
        return tuple(t for t in self.tickets if t.long)

    def card_kind(self, card: int) -> str:
        return self.card_kinds[card]

    def routes_between(self, a: str, b: str) -> tuple[Route, ...]:
        return tuple(
            self.routes[r] for r in self.routes_at.get(a, ()) if b in self.routes[r].cities
        )

    def find_city(self, name: str) -> str | None:
        """The city called ``name`` (ignoring case, spaces and accents), if any."""
        key = fold_name(name)
        for city in self.cities:
            if fold_name(city) == key:
                return city
        return None

    def city_spelt_like(self, name: str) -> str | None:
        """The city whose name ``name`` looks like a misspelling of (the
        closest, if close enough): 'Muenchen' is München. For a refusal to
        suggest, `ttr score`'s and the client's alike."""
        folded = {fold_name(c): c for c in self.cities}
        near = difflib.get_close_matches(fold_name(name), list(folded), n=1, cutoff=0.6)
        return folded[near[0]] if near else None


# Letters NFKD does not split into a base letter and an accent.
_UNDECOMPOSABLE = str.maketrans({"ø": "o", "Ø": "O", "ß": "ss", "æ": "ae", "Æ": "Ae"})


def fold_name(name: str) -> str:
    """'  München ' -> 'munchen', 'København' -> 'kobenhavn': the map spells
    its cities in plain ASCII, players may not."""
    decomposed = unicodedata.normalize("NFKD", name.translate(_UNDECOMPOSABLE))
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return plain.strip().casefold().replace(" ", "")


def places_in(data: dict[str, Any]) -> tuple[str, ...]:
    """The places of a board's data: its cities, then the places a route may
    end at besides them, a zone's endpoints (Switzerland's flags)."""
    endpoints = [e for zone in data.get("zones", {}).values() for e in zone["endpoints"]]
    return tuple(data["cities"]) + tuple(endpoints)


def board_from_dict(data: dict[str, Any], regular: list[dict[str, Any]] | None = None,
                    long: list[dict[str, Any]] | None = None) -> Board:
    """Build a Board from the JSON data, checking it is self-consistent. The
    tickets are ``regular`` and ``long`` where given (a variant's decks), else
    the data's ``tickets_regular`` and ``tickets_long``."""
    cities = places_in(data)
    city_set = set(cities)
    if len(city_set) != len(cities):
        raise ValueError("duplicate city in map data")
    colors = tuple(data["train_cards"]["colors"])
    raw_routes = data["routes"]
    stand_ins = {frozenset((s["a"], s["b"])): int(s["any_cards_per_colour_card"])
                 for s in data.get("special_routes", ()) if "any_cards_per_colour_card" in s}
    # The routes between each pair of places, found in one pass (a scan of
    # every route for each route cost every process ~0.05 s over the boards).
    between: dict[frozenset[str], list[int]] = {}
    for i, r in enumerate(raw_routes):
        between.setdefault(frozenset((r["a"], r["b"])), []).append(i)
    routes_list: list[Route] = []
    for i, r in enumerate(raw_routes):
        if r["a"] not in city_set or r["b"] not in city_set:
            raise ValueError(f"route {i} names an unknown city")
        if r["color"] not in (GRAY, TRACK_BED) and r["color"] not in colors:
            raise ValueError(f"route {i} has unknown colour {r['color']!r}")
        twins = [j for j in between[frozenset((r["a"], r["b"]))] if j != i]
        if len(twins) > 2:
            raise ValueError(f"route {i} has more than two tracks beside it")
        routes_list.append(
            Route(
                id=i,
                a=r["a"],
                b=r["b"],
                length=int(r["length"]),
                color=r["color"],
                tunnel=bool(r["tunnel"]),
                ferry_locomotives=int(r["ferry_locomotives"]),
                twin=twins[0] if twins else None,
                stand_in=stand_ins.get(frozenset((r["a"], r["b"])), 0),
                mountain_x=int(r.get("mountain_x", 0)),
                parallel=tuple(twins),
            )
        )
    tickets: list[Ticket] = []
    decks = (regular if regular is not None else data["tickets_regular"],
             long if long is not None else data["tickets_long"])
    # A ticket may name a zone (Pennsylvania's Ontario): reached at any of its endpoints.
    zones = {name: tuple(zone["endpoints"]) for name, zone in data.get("zones", {}).items()}
    for group, is_long in zip(decks, (False, True), strict=True):
        for t in group:
            if any(t[end] not in city_set and t[end] not in zones for end in ("a", "b")):
                raise ValueError(f"ticket {t} names an unknown city")
            tickets.append(_ticket(len(tickets), t["a"], t["b"], int(t["points"]), is_long, zones, routes_list))
    routes_at: dict[str, list[int]] = {c: [] for c in cities}
    for route in routes_list:
        routes_at[route.a].append(route.id)
        routes_at[route.b].append(route.id)
    per_color = int(data["train_cards"]["per_color"])
    locomotives = int(data["train_cards"]["locomotives"])
    card_kinds = tuple(c for c in colors for _ in range(per_color)) + (LOCOMOTIVE,) * locomotives
    positions = {c: (int(x), int(y)) for c, (x, y) in data["positions"].items() if c in city_set}
    if set(positions) != city_set:
        raise ValueError("positions must name every city")
    return Board(
        cities=cities,
        positions=positions,
        routes=tuple(routes_list),
        tickets=tuple(tickets),
        colors=colors,
        cards_per_color=per_color,
        locomotives=locomotives,
        route_points={int(k): int(v) for k, v in data["route_points"].items()},
        routes_at={c: tuple(ids) for c, ids in routes_at.items()},
        card_kinds=card_kinds,
        stock_market=stock_market_from(data),
    )


def _ticket(ticket_id: int, a: str, b: str, points: int, is_long: bool,
            zones: dict[str, tuple[str, ...]], routes: list[Route]) -> Ticket:
    """A ticket between two cities, or from or to a zone (any of its
    endpoints). Its ``a`` and ``b`` (what plans and the client's ways aim at)
    are the zone's endpoint fewest cars away from the other end."""
    if a not in zones and b not in zones:
        return Ticket(ticket_id, a, b, points, is_long)
    far = _cars_from(routes, zones.get(b, (b,))[0])
    starts = tuple(sorted(zones.get(a, (a,)), key=lambda place: far.get(place, len(far) * 99)))
    near = _cars_from(routes, starts[0])
    goal = TicketGoal(b, tuple(sorted(zones.get(b, (b,)), key=lambda place: near.get(place, len(near) * 99))), points)
    # A zone at either end makes it a ticket with goals (as Switzerland's
    # country tickets), its title as the card reads: "Suisse-Marseille (9)".
    return Ticket(ticket_id, starts[0], goal.places[0], points, is_long, starts if len(starts) > 1 else (),
                  (goal,), f"{a}-{b} ({points})")


def _cars_from(routes: list[Route], start: str) -> dict[str, int]:
    """The fewest cars from ``start`` to every place it reaches (Dijkstra over the routes' lengths)."""
    near: dict[str, list[tuple[str, int]]] = {}
    for r in routes:
        near.setdefault(r.a, []).append((r.b, r.length))
        near.setdefault(r.b, []).append((r.a, r.length))
    cars = {start: 0}
    heap = [(0, start)]
    while heap:
        d, place = heapq.heappop(heap)
        if d > cars[place]:
            continue
        for other, length in near.get(place, ()):
            if d + length < cars.get(other, d + length + 1):
                cars[other] = d + length
                heapq.heappush(heap, (d + length, other))
    return cars


def read_board_data(data_file: str) -> dict[str, Any]:
    """The parsed data file ``data_file`` of ``p2p_ttr/data``."""
    data: dict[str, Any] = json.loads(resources.files("p2p_ttr").joinpath(f"data/{data_file}").read_text("utf-8"))
    return data


@cache
def load_board(data_file: str, ticket_set: str | None, ticket_file: str = "") -> Board:
    """The board of ``data_file`` with the tickets of ``ticket_set`` (the data's
    ``sets`` entry; None: its ``tickets_regular`` and ``tickets_long``), read
    once and cached, so that each board is one value (boards compare by
    identity). The tickets are read from ``ticket_file`` where one is named
    (Europe's 1912 tickets, beside Europe's map); a ticket of ``kind`` "long"
    is dealt from the long deck, every other from the regular one."""
    data = read_board_data(data_file)
    if ticket_set is None and not ticket_file and "tickets_regular" in data:
        return board_from_dict(data)
    listed: list[dict[str, Any]] = (read_board_data(ticket_file) if ticket_file else data)["tickets"]
    chosen = [t for t in listed if ticket_set is None or ticket_set in t["sets"]]
    return board_from_dict(data, regular=[t for t in chosen if t.get("kind") != "long"],
                           long=[t for t in chosen if t.get("kind") == "long"])


def europe() -> Board:
    """The board of Europe's standard game, for the modules that draw and word
    only Europe so far (the client's map and sentences); everything that plays
    a game takes ``game.board`` (``boards.load_game``)."""
    return load_board("europe.json", None)
