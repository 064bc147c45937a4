"""Alvin & Dexter, an expansion of any board but Old West (``Rules.monster_cards``;
rules summary, "Alvin & Dexter Mini-Expansion"): Alvin the alien and Dexter
the dinosaur stand in cities of the map, and wherever one stands is a City
in Chaos.

- Set-up, once every first ticket is chosen: the player going last places
  Alvin on any city, then the player to their right (the one playing just
  before the last) places Dexter on any other city (``Phase.MONSTERS``; with
  two players, seat 2 places Alvin and seat 1 Dexter).
- A City in Chaos takes no claim: no route into or out of it may be claimed
  (a tunnel into it is never started, a ferry no more than any route), and
  no station is built in it. A country destination is one place: a
  monster on any of its ends (Switzerland's flags; France's, the United
  Kingdom's and Pennsylvania's zones a ticket names) puts all of them in
  chaos.
- Before the turn's action, as a free action, at most one a turn, a player
  may discard one locomotive card to take a card of one monster's deck and
  move that monster 0 to 3 cities away, or two locomotives for 0 to 6 (the
  fewest routes between the two cities on the map, whoever holds them).
  Only locomotive cards pay: the printed rules say so, and a board's
  stand-ins (the United Kingdom's any 4 cards, the Nordic ferries') stand in
  for locomotives on routes and technologies, not here.
- The card lies face up in front of its taker until the end of their next
  turn; while it does, nobody else may move that monster. A monster whose
  deck (``Rules.monster_cards``) is empty moves no more.
- The end (monsterpoints.py): a ticket that names a City in Chaos scores
  half its points, rounded down, or loses half, rounded down in magnitude
  (a failed 7 loses 3); the most cards of a monster earn
  ``Rules.monster_points``, every tied player in full (nobody at 0 cards).

Who took which cards is public (the table saw each taken), so the whole
slice is public. This module owns the slice (:class:`Monsters`,
``GameState.monsters``) and what is judged from the map alone: where the
chaos is and how far a monster may go; ``monstermoves.py`` the checks and
moves over the whole state.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

from .board import Board

ALVIN, DEXTER = "alvin", "dexter"
MONSTERS = (ALVIN, DEXTER)  # in the order they are placed; a monster's index everywhere below
MONSTER_TITLES = {ALVIN: "Alvin", DEXTER: "Dexter"}
CITIES_PER_LOCOMOTIVE = 3  # "Discard 1 Locomotive card to move the selected monster 0-3 cities away"
MOST_LOCOMOTIVES = 2  # "Discard 2 Locomotive cards to move the selected monster 0-6 cities away"


@dataclass(frozen=True, slots=True)
class Monsters:
    """Where the monsters stand and whose their cards are."""

    cities: tuple[str, ...]  # per monster, in MONSTERS order: where it stands ("" until placed)
    cards: tuple[tuple[int, ...], ...]  # per player: how many of each monster's cards they took
    # Per monster: (player, GameState.turn) of the latest card taken, None before any.
    latest: tuple[tuple[int, int] | None, ...] = (None, None)

    @staticmethod
    def empty(n_players: int) -> Monsters:
        return Monsters(cities=("",) * len(MONSTERS), cards=((0,) * len(MONSTERS),) * n_players)

    def left(self, monster: int, deck: int) -> int:
        """The cards of ``monster``'s deck of ``deck`` still to take."""
        return deck - sum(mine[monster] for mine in self.cards)

    def face_up_with(self, monster: int, turn: int, n_players: int) -> int | None:
        """Who has ``monster``'s card face up in front of them during turn
        ``turn``: its taker, from the turn they took it to the end of their next."""
        latest = self.latest[monster]
        if latest is None:
            return None
        player, taken = latest
        return player if turn <= taken + n_players else None

    def moved_in(self, turn: int) -> bool:
        """Whether a monster was moved in turn ``turn`` (one a turn)."""
        return any(latest is not None and latest[1] == turn for latest in self.latest)

    def placed(self, monster: int, city: str) -> Monsters:
        cities = list(self.cities)
        cities[monster] = city
        return replace(self, cities=tuple(cities))

    def moved(self, monster: int, city: str, player: int, turn: int) -> Monsters:
        """``player`` took a card of ``monster`` in turn ``turn`` and moved it to ``city``."""
        cards = [list(mine) for mine in self.cards]
        cards[player][monster] += 1
        latest = list(self.latest)
        latest[monster] = (player, turn)
        return replace(self.placed(monster, city), cards=tuple(tuple(mine) for mine in cards), latest=tuple(latest))


def locomotives_for(cities: int) -> int:
    """The fewest locomotives that move a monster ``cities`` away (0 away: one, the card's price)."""
    return max(1, -(-cities // CITIES_PER_LOCOMOTIVE))


@cache
def country_places(board: Board) -> dict[str, tuple[str, ...]]:
    """Each place that is an end of a country destination (a ticket's goal or
    start reached at several places: Switzerland's flags, the zones of France,
    the United Kingdom and Pennsylvania) -> every end of it; no entry for a city."""
    zones: dict[str, tuple[str, ...]] = {}
    for ticket in board.tickets:
        for places in (*(goal.places for goal in ticket.goals), ticket.starts):
            if len(places) > 1:
                zones.update((place, places) for place in places)
    return zones


def chaos_places(board: Board, monsters: Monsters | None) -> frozenset[str]:
    """The places in chaos: each monster's city, or the whole country it stands in."""
    if monsters is None:
        return frozenset()
    zones = country_places(board)
    return frozenset(place for city in monsters.cities if city for place in zones.get(city, (city,)))


def distances(board: Board, start: str, most: int) -> dict[str, int]:
    """The cities at most ``most`` routes from ``start`` (itself at 0), each
    with the fewest routes between them, over every route of the map."""
    found = {start: 0}
    frontier = [start]
    for steps in range(1, most + 1):
        after = []
        for city in frontier:
            for r in board.routes_at[city]:
                for other in board.routes[r].cities:
                    if other not in found:
                        found[other] = steps
                        after.append(other)
        frontier = after
    return found
