"""How the bots play Alvin & Dexter (engine/monsters.py).

- Planning: a route into a City in Chaos cannot be claimed while the
  monster stands there, so every level plans around it
  (``planning.route_open_to``); the plan is made again when a monster moves.
- Placing at set-up (every level but random): where it hurts the rivals
  most and the bot least: the city whose open routes the rivals most
  likely want (the hard bot's reading of them, once they have built), else
  the busiest city (the most open routes: before the first turn nobody
  leads and nothing is read), never one the bot's own plan runs through.
- Moving, before the turn's action, each level its own way:
  - easy, holding a spare locomotive (more than one in hand), now and then
    (``EASY_MOVE_CHANCE``) one of the moves a locomotive pays, at random;
  - medium, for a city its own tickets need (a monster on one of their
    ends goes off its plan), or, with a spare locomotive, for a card of a
    monster whose most-cards bonus (``Rules.monster_points``) it does not
    lead: the monster then goes to the busiest city off its plan;
  - hard, for a city its tickets need, for the rivals' wants or for a
    monster's bonus, whichever gains more than the locomotives it costs
    (``MOVE_WORTH``): a monster on an end of one of its tickets goes
    somewhere that helps, one goes where the rivals' wants are the
    thickest, and a card that takes the lead of a monster's bonus (or draws
    level) is worth that margin of the bonus (``majority_gain``), its last
    locomotive too.
"""

from __future__ import annotations

import random
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
# Points of score worth one unit of want: a locomotive (two cards of 1.3 points, techvalue.py) is MOVE_WORTH.
POINTS_PER_WANT = 1.75
# The easy bot's chance, a turn with a spare locomotive, of moving a monster at random.
EASY_MOVE_CHANCE = 0.2


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


def ticket_ends(view: GameState, player: int) -> set[str]:
    """The cities ``player``'s tickets end in."""
    board = view.game.board
    return {city for t in ticket_ids(view, view.players[player].tickets)
            for city in (board.tickets[t].a, board.tickets[t].b)}


def majority_gain(view: GameState, player: int, monster: int) -> float:
    """What one more card of ``monster`` adds to ``player``'s margin over the
    best rival in that monster's most-cards bonus, in points: the bonus for
    drawing level with the rival or passing it (a tie scores in full), and
    the rival's share of it lost by passing it."""
    held = view.monsters
    bonus = view.game.rules.monster_points
    if held is None or not bonus:
        return 0.0
    rival = max(cards[monster] for q, cards in enumerate(held.cards) if q != player)
    denial = 1.0 / max(1, view.n_players - 1)

    def margin(mine: int) -> float:
        return bonus * ((mine > 0 and mine >= rival) - denial * (rival > 0 and rival >= mine))

    mine = held.cards[player][monster]
    return margin(mine + 1) - margin(mine)


def moves_of(view: GameState, player: int) -> list[MoveMonster]:
    """Every monster move ``player`` may make now."""
    return [a for a in legal_actions(view, player, only=MoveMonster) if isinstance(a, MoveMonster)]


def plain_monster_move(view: GameState, player: int, plan_routes: Sequence[int]) -> Action | None:
    """The medium bot's monster move, or None (see the module docstring): a
    monster off a city its tickets end in, else, with a spare locomotive, a
    card of a monster whose bonus it does not lead; the monster goes to the
    busiest city off its plan, for one locomotive where one reaches it."""
    if view.monsters is None:
        return None
    board = view.game.board
    ends = ticket_ends(view, player)
    spare = hand_of(view, player)[LOCOMOTIVE] >= 2
    wanted = {name for name, city in zip(MONSTERS, view.monsters.cities) if city in ends
              or (spare and majority_gain(view, player, MONSTERS.index(name)) > 0)}
    mine = ends | {city for r in plan_routes for city in board.routes[r].cities}
    moves = [a for a in moves_of(view, player) if a.monster in wanted]
    if not moves:
        return None
    return max(moves, key=lambda a: (a.city not in mine, -len(a.cards), len(open_routes_at(view, a.city)),
                                     -board.cities.index(a.city)))


def random_monster_move(view: GameState, player: int, rng: random.Random) -> Action | None:
    """The easy bot's monster move, or None: now and then, with a spare locomotive, any one a locomotive pays."""
    if view.monsters is None or hand_of(view, player)[LOCOMOTIVE] < 2 or rng.random() >= EASY_MOVE_CHANCE:
        return None
    moves = [a for a in moves_of(view, player) if len(a.cards) == 1]
    return rng.choice(moves) if moves else None


def weighed_monster_move(view: GameState, player: int, threat: Sequence[float]) -> Action | None:
    """The hard bot's monster move before its turn's action, or None (see the module docstring)."""
    if view.monsters is None:
        return None
    board = view.game.board
    locomotives = hand_of(view, player)[LOCOMOTIVE]
    ends = ticket_ends(view, player)
    struck = chaos_places(board, view.monsters)
    majority = [majority_gain(view, player, m) / POINTS_PER_WANT for m in range(len(MONSTERS))]
    if locomotives < 2 and not ends & struck and not any(majority):
        return None  # no spare locomotive, nothing of its own to free, no bonus to take
    here = view.monsters.cities

    def worth(cities: Sequence[str]) -> float:
        """What the chaos of the monsters in ``cities`` is worth to the bot (a city both share counts once)."""
        return sum(want_at(view, city, threat) - (OWN_TICKET_WORTH if city in ends else 0.0) for city in set(cities))

    now = worth(here)
    best: tuple[float, MoveMonster] | None = None
    for action in moves_of(view, player):
        after = [action.city if name == action.monster else city for name, city in zip(MONSTERS, here)]
        gain = worth(after) - now - MOVE_WORTH * len(action.cards) + majority[MONSTERS.index(action.monster)]
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, action)
    return best[1] if best is not None else None
