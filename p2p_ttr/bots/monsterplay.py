"""How the bots play Alvin & Dexter (engine/monsters.py).

- Planning: a route into a City in Chaos cannot be claimed while the
  monster stands there, so every level plans around it
  (``planning.route_open_to``); the plan is made again when a monster moves.
- Placing at set-up (every level but random): where it hurts the rivals
  most and the bot least: the city whose open routes the rivals most
  likely want (the hard bot's reading of them, once they have built), else
  the busiest city (the most open routes: before the first turn nobody
  leads and nothing is read), never one the bot's own plan runs through.
- Moving (the hard bot; easy and medium never move one): only with a spare
  locomotive (more than one in hand), or for a city its own tickets need:
  a monster on an end of one of its tickets goes somewhere that helps,
  and otherwise one goes where the rivals' wants are the thickest, when
  that gains more than the locomotive it costs (``MOVE_WORTH``).
"""

from __future__ import annotations

from collections.abc import Sequence

from p2p_ttr.engine.board import LOCOMOTIVE
from p2p_ttr.engine.events import Action, MoveMonster, PlaceMonster
from p2p_ttr.engine.monsters import MONSTERS, chaos_places
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.state import GameState

from .planning import hand_of, ticket_ids

# What a locomotive spent on a monster must buy back, in the units of want below
# (a route's threat is about the chance a rival needs it: 1.0 is one route they surely need).
MOVE_WORTH = 1.5
# A city one of the bot's own tickets ends in, in chaos: worth this many routes a rival wants.
OWN_TICKET_WORTH = 4.0


def open_routes_at(view: GameState, city: str) -> list[int]:
    """The routes into ``city`` nobody holds yet."""
    return [r for r in view.game.board.routes_at[city] if view.route_owner[r] is None]


def want_at(view: GameState, city: str, threat: Sequence[float] | None) -> float:
    """How much the rivals want ``city``: the threat on its open routes (hard), else how many there are."""
    routes = open_routes_at(view, city)
    return sum(threat[r] for r in routes) if threat is not None else float(len(routes))


def place_monster(view: GameState, player: int, plan_routes: Sequence[int],
                  threat: Sequence[float] | None = None) -> Action:
    """The city for the monster due (see the module docstring): first in board order among equals."""
    board = view.game.board
    mine = {city for r in plan_routes for city in board.routes[r].cities}
    options = [a for a in legal_actions(view, player, only=PlaceMonster) if isinstance(a, PlaceMonster)]
    read = threat if threat is not None and any(threat) else None  # before any route, nobody is read yet
    return max(options, key=lambda a: (a.city not in mine, want_at(view, a.city, read),
                                       -board.cities.index(a.city)))


def monster_move(view: GameState, player: int, threat: Sequence[float]) -> Action | None:
    """The hard bot's monster move before its turn's action, or None (see the module docstring)."""
    if view.monsters is None:
        return None
    board = view.game.board
    locomotives = hand_of(view, player)[LOCOMOTIVE]
    ends = {city for t in ticket_ids(view, view.players[player].tickets)
            for city in (board.tickets[t].a, board.tickets[t].b)}
    struck = chaos_places(board, view.monsters)
    if locomotives < 2 and not ends & struck:
        return None  # no spare locomotive, and nothing of its own to free
    here = view.monsters.cities

    def worth(cities: Sequence[str]) -> float:
        """What the chaos of the monsters in ``cities`` is worth to the bot (a city both share counts once)."""
        return sum(want_at(view, city, threat) - (OWN_TICKET_WORTH if city in ends else 0.0) for city in set(cities))

    now = worth(here)
    best: tuple[float, MoveMonster] | None = None
    for action in legal_actions(view, player, only=MoveMonster):
        assert isinstance(action, MoveMonster)
        after = [action.city if name == action.monster else city for name, city in zip(MONSTERS, here)]
        gain = worth(after) - now - MOVE_WORTH * len(action.cards)
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, action)
    return best[1] if best is not None else None
