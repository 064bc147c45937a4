"""Alvin & Dexter's checks and moves over the whole game state (the rules
are in ``monsters.py``'s docstring): who places which monster at set-up,
whether a monster may move and how far, the chaos that refuses a claim or a
station, and the moves a player may make. ``rules`` and ``moves`` ask these
functions, so what is offered and what is accepted are one judgement.
"""

from __future__ import annotations

from collections.abc import Iterable

from .board import LOCOMOTIVE, Route
from .cards import CardRef
from .errors import IllegalMove, MalformedEvent
from .events import Action, MoveMonster, PlaceMonster
from .game import Game
from .mechanic import Handles, Mechanic, TurnFlow
from .monsters import (
    CITIES_PER_LOCOMOTIVE,
    MONSTER_TITLES,
    MONSTERS,
    MOST_LOCOMOTIVES,
    Monsters,
    chaos_places,
    distances,
    locomotives_for,
)
from .state import GameState, Phase
from .turnkit import discarded_from_hand, expect, expect_city, expect_in_hand, kinds_of, refuse


def monsters_at_start(game: Game, n_players: int) -> Monsters | None:
    """No monster placed, no card taken; None where the game does not play them."""
    return Monsters.empty(n_players) if game.rules.monster_cards else None


def placing_seat(n_players: int, monster: int) -> int:
    """Who places ``monster``: Alvin the player going last, Dexter the one to their right (just before)."""
    return n_players - 1 - monster


def next_to_place(monsters: Monsters) -> int | None:
    """The monster to place next at set-up (None: both stand on the map)."""
    return next((m for m, city in enumerate(monsters.cities) if not city), None)


def place_problem(state: GameState, monster: int, city: str) -> str | None:
    """Why ``monster`` may not go on ``city`` at set-up (None: it may; whose move it is, ``rules`` checks)."""
    monsters = state.monsters
    assert monsters is not None
    due = next_to_place(monsters)
    if due != monster:
        placing = "both monsters stand on the map" if due is None else f"{MONSTER_TITLES[MONSTERS[due]]} is placed now"
        return f"{MONSTER_TITLES[MONSTERS[monster]]} is not to be placed: {placing}"
    if city in monsters.cities:
        return f"{city} has the other monster: {MONSTER_TITLES[MONSTERS[monster]]} goes on any other city"
    return None


def move_problem(state: GameState, player: int, monster: int) -> str | None:
    """Why ``player`` may not move ``monster`` now, whatever they pay (None: they may)."""
    monsters = state.monsters
    name = MONSTER_TITLES[MONSTERS[monster]]
    if monsters is None:
        return f"{state.game.title} is played without Alvin & Dexter"
    if state.cards_drawn:
        return "a monster moves before the turn's action, not after drawing a card"
    if monsters.moved_in(state.turn):
        return "only one monster may be moved a turn"
    holder = monsters.face_up_with(monster, state.turn, state.n_players)
    if holder is not None and holder != player:
        return f"{name}'s card lies face up in front of player {holder} until the end of their next turn"
    if monsters.left(monster, state.game.rules.monster_cards) <= 0:
        return f"{name}'s deck is empty"
    return None


def reach(state: GameState, monster: int, locomotives: int) -> dict[str, int]:
    """The cities ``monster`` may be moved to for ``locomotives``, with their distance."""
    monsters = state.monsters
    assert monsters is not None
    return distances(state.game.board, monsters.cities[monster], CITIES_PER_LOCOMOTIVE * locomotives)


def reach_problem(state: GameState, monster: int, city: str, kinds: Iterable[str]) -> str | None:
    """Why cards of these kinds do not move ``monster`` to ``city`` (None: they do)."""
    kinds = list(kinds)
    if not 1 <= len(kinds) <= MOST_LOCOMOTIVES or any(kind != LOCOMOTIVE for kind in kinds):
        return "a monster moves for one or two locomotive cards, and nothing else"
    near = reach(state, monster, len(kinds))
    if city not in near:
        return too_far(state, monster, city, len(kinds))
    return None


def too_far(state: GameState, monster: int, city: str, locomotives: int) -> str:
    """The refusal of a move of ``monster`` to ``city`` beyond what ``locomotives`` reach, naming what they do."""
    assert state.monsters is not None
    most = CITIES_PER_LOCOMOTIVE * locomotives
    where = ", ".join(sorted(c for c, d in reach(state, monster, locomotives).items() if d))
    name = MONSTER_TITLES[MONSTERS[monster]]
    return (f"{city} is more than {most} cities from {name} in {state.monsters.cities[monster]}"
            + (f"; within {most}: {where}" if where else ""))


def moved(state: GameState, player: int, monster: int, city: str) -> GameState:
    """The slice once ``player`` took a card of ``monster`` and moved it to ``city`` (cards are the caller's)."""
    assert state.monsters is not None
    return state.evolve(monsters=state.monsters.moved(monster, city, player, state.turn))


def chaos(state: GameState) -> frozenset[str]:
    """The places in chaos now."""
    return chaos_places(state.game.board, state.monsters)


def chaos_claim_problem(state: GameState, route: Route) -> str | None:
    """Why ``route`` may not be claimed for the monsters (None: it may)."""
    if state.monsters is None:
        return None
    struck = [city for city in route.cities if city in chaos(state)]
    if struck:
        return f"{struck[0]} is a City in Chaos (a monster stands there): no route into or out of it may be claimed"
    return None


def chaos_station_problem(state: GameState, city: str) -> str | None:
    """Why no station may be built in ``city`` for the monsters (None: one may)."""
    if city in chaos(state):
        return f"{city} is a City in Chaos (a monster stands there): no station may be built in it"
    return None


def place_actions(state: GameState, player: int) -> list[Action]:
    """Every city ``player`` may put the monster due on, in board order."""
    monsters = state.monsters
    due = next_to_place(monsters) if monsters is not None else None
    if due is None:
        return []
    return [PlaceMonster(player, MONSTERS[due], city) for city in state.game.board.cities
            if place_problem(state, due, city) is None]


def move_actions(state: GameState, player: int, hand: dict[str, list[CardRef]]) -> list[Action]:
    """Every monster move ``player`` may make with the hand this state knows
    (``hand``: its cards by kind), each city for the fewest locomotives that reach it."""
    locomotives = hand.get(LOCOMOTIVE, [])
    if state.monsters is None or not locomotives:
        return []
    actions: list[Action] = []
    for monster, name in enumerate(MONSTERS):
        if move_problem(state, player, monster) is not None:
            continue
        most = min(len(locomotives), MOST_LOCOMOTIVES)
        for city, steps in reach(state, monster, most).items():
            actions.append(MoveMonster(player, name, city, tuple(locomotives[:locomotives_for(steps)])))
    return actions


# ---------------------------------------------------------------------------
# The moves, and the hooks into the turn (mechanic.py)


def monster_due(state: GameState) -> GameState | None:
    """As the set-up ends: the monster to place next, by its seat (None: both stand on the map)."""
    if state.monsters is None or (due := next_to_place(state.monsters)) is None:
        return None
    return state.evolve(phase=Phase.MONSTERS, current=placing_seat(state.n_players, due))


def _monster_of(state: GameState, name: str, city: str) -> int:
    """The index of the monster called ``name``, once the event names a monster and a city of this game."""
    if state.monsters is None:
        raise IllegalMove(f"{state.game.title} is played without Alvin & Dexter")
    if name not in MONSTERS:
        raise MalformedEvent(f"there is no monster called {name!r}")
    expect_city(state, city)
    return MONSTERS.index(name)


def place_monster(state: GameState, action: PlaceMonster, flow: TurnFlow) -> GameState:
    """A monster placed at set-up; when both stand on the map, the set-up goes on (then the first turn)."""
    expect(state, action.player, Phase.MONSTERS)
    monster = _monster_of(state, action.monster, action.city)
    refuse(place_problem(state, monster, action.city))
    assert state.monsters is not None
    monsters = state.monsters.placed(monster, action.city)
    due = next_to_place(monsters)
    if due is None:
        return flow.begin_play(state.evolve(monsters=monsters))
    return state.evolve(monsters=monsters, current=placing_seat(state.n_players, due))


def move_monster(state: GameState, action: MoveMonster, flow: TurnFlow) -> GameState:
    """A monster moved before the turn's action: its locomotives discarded, the turn goes on."""
    p, cards = action.player, action.cards
    expect(state, p, Phase.TURN)
    monster = _monster_of(state, action.monster, action.city)
    refuse(move_problem(state, p, monster))
    expect_in_hand(state, p, cards)
    refuse(reach_problem(state, monster, action.city, kinds_of(state, cards)))
    return moved(discarded_from_hand(state, p, cards), p, monster, action.city)


MECHANIC = Mechanic(
    "monsters",
    plays=lambda game: game.rules.monster_cards > 0,
    handlers=(Handles(PlaceMonster, place_monster), Handles(MoveMonster, move_monster)),
    at_start=lambda state: state.evolve(monsters=monsters_at_start(state.game, state.n_players)),
    set_up=monster_due,
)
