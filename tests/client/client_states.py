"""Game positions for the client's tests: a seeded bot game, state by state,
and hand-built positions (tests/engine/engine_scenario.py)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from p2p_ttr.engine.boards import europe_game
from p2p_ttr.engine.game import Game
from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.engine.rules import actors, apply, new_game
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.local.game import play_local_game
from p2p_ttr.table.obligations import Obligation

EUROPE = europe_game()

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))

NAMES = ("Ann", "Bob", "Cid")


@cache
def states_of(game: Game, seed: int) -> tuple[GameState, ...]:
    """Every omniscient state of a 3-player random-bot game of ``game``, in order."""
    played = play_local_game(game, 3, seed, [RandomBot(1), RandomBot(2), RandomBot(3)])
    state, states = new_game(game, 3), []
    for event in played.events:
        state = apply(state, event)
        states.append(state)
    return tuple(states)


def game_states(seed: int = 5) -> tuple[GameState, ...]:
    """Every omniscient state of a 3-player random-bot game of Europe, in order."""
    return states_of(EUROPE, seed)


def readable(state: GameState, player: int = 0) -> bool:
    ps = state.players[player]
    return all(state.face(r) is not None for r in ps.hand + ps.offered)


def first(test: Callable[[GameState], bool], seat: int = 0) -> GameState:
    """The first state of the game where ``seat`` is to act, can read its
    cards, and ``test`` holds."""
    return next(s for s in game_states() if seat in actors(s) and readable(s, seat) and test(s))


@dataclass
class FakeTable:
    """What the client reads of a live Table, and nothing else."""

    engine: GameState | None = None
    log: list[bytes] = field(default_factory=list)
    game_id: bytes = bytes(16)
    finished: bool = False
    complete: bool = False
    owed: list[Obligation] = field(default_factory=list)
    forfeited: dict[int, object] = field(default_factory=dict)  # seat -> its published secrets
    seats: tuple[Any, ...] = ()  # each with a .name
    carry_on_requests: dict[int, frozenset[int]] = field(default_factory=dict)  # target -> who asked
    carried_on: dict[int, int] = field(default_factory=dict)  # seat -> entry (also in ``forfeited``)
    in_play: tuple[int, ...] = ()

    def obligations(self) -> list[Obligation]:
        return self.owed


def a_turn_of(seat: int) -> tuple[GameState, GameState]:
    """The states before and after a whole turn of ``seat`` in the bot game:
    what the table shows when the caretaker plays a seat that left."""
    states = game_states()
    start = next(i for i, s in enumerate(states) if s.phase is Phase.TURN and s.current == seat and i > 100)
    end = next(i for i in range(start, len(states)) if states[i].current != seat)
    return states[start], states[end]
