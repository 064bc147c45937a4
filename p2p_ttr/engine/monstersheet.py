"""Alvin & Dexter as people write them down for ``ttr score`` (monsters.py):
where the monsters stood when the game ended, beside the players, Alvin's
city first::

    "monsters": ["Paris", "Wien"]

and, for each player who took any, how many cards of each monster they
hold, Alvin's first (none where left out)::

    "monster_cards": [3, 1]

The cities decide which tickets are halved, the cards the bonuses; no
player holds more of a monster's cards than its deck has, nor do all
together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .board import Board
from .monsters import MONSTER_TITLES, MONSTERS, Monsters

CITIES_KEY = "monsters"  # beside "players"
CARDS_KEY = "monster_cards"  # in a player


class SheetMonstersError(ValueError):
    """The monsters written down wrong: the message says what, for people."""


def sheet_monsters(board: Board, deck: int, document: Mapping[str, object],
                   players: Sequence[Mapping[str, object]]) -> Monsters:
    """The monsters' cities and every player's cards, checked (``deck``: the cards of each monster).

    Raises:
        SheetMonstersError: no cities, or not two cities of the map; cards
            that are not one count per monster, or more than a deck holds.
    """
    cities = document.get(CITIES_KEY)
    if not isinstance(cities, list) or len(cities) != len(MONSTERS) or not all(isinstance(c, str) for c in cities):
        raise SheetMonstersError(f'"{CITIES_KEY}" must list where Alvin and Dexter stood at the end: '
                                 '["CITY", "CITY"], Alvin\'s first')
    found = []
    for name in cities:
        city = board.find_city(name)
        if city is None:
            raise SheetMonstersError(f'"{CITIES_KEY}": unknown city {name[:40]!r}')
        found.append(city)
    cards = tuple(_cards(player, deck) for player in players)
    for m, name in enumerate(MONSTERS):
        if sum(mine[m] for mine in cards) > deck:
            raise SheetMonstersError(f"the players hold more {MONSTER_TITLES[name]} cards than his deck's {deck}")
    return Monsters(cities=tuple(found), cards=cards)


def _cards(player: Mapping[str, object], deck: int) -> tuple[int, ...]:
    counts = player.get(CARDS_KEY, [0] * len(MONSTERS))
    if (not isinstance(counts, list) or len(counts) != len(MONSTERS)
            or not all(type(n) is int and 0 <= n <= deck for n in counts)):
        raise SheetMonstersError(f'player {str(player.get("name"))[:40]!r}: "{CARDS_KEY}" must be the cards of '
                                 f"Alvin and of Dexter the player holds, [N, N], each 0 to {deck}")
    return tuple(counts)
