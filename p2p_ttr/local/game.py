"""Run a whole game in one process: the local dealer plays chance, bots play
from their own views. Used by `ttr selfplay`, the tests and the benchmarks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2p_ttr.bots.base import Bot
from p2p_ttr.engine.events import Event
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.rules import actors, apply, new_game
from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.view import view_for

from .dealer import LocalDealer

# No real game comes near this; it turns an engine bug into an error, not a hang.
MAX_EVENTS = 20_000


class GameDidNotEnd(RuntimeError):
    """A local game ran past its turn limit: a bot or the engine loops."""

    pass


@dataclass(frozen=True)
class LocalGame:
    """A finished one-process game: its final (omniscient) state and, if recorded, every event."""

    final: GameState
    events: tuple[Event, ...]  # everything applied, in order: replaying them gives ``final``


def play_local_game(game: Game, n_players: int, seed: int, bots: Sequence[Bot], record: bool = True) -> LocalGame:
    """Play a complete game of ``game``; ``bots[p]`` decides for player ``p``."""
    if len(bots) != n_players:
        raise ValueError(f"{n_players} players need {n_players} bots, got {len(bots)}")
    dealer = LocalDealer(seed)
    state = new_game(game, n_players)
    events: list[Event] = []

    def step(event: Event) -> None:
        nonlocal state
        state = apply(state, event)
        if record:
            events.append(event)

    for _ in range(MAX_EVENTS):
        if state.over:
            return LocalGame(state, tuple(events))
        chance = dealer.answer(state)
        if chance is not None:
            step(chance)
            continue
        for peek in dealer.peeks(state):
            step(peek)
        player = actors(state)[0]
        step(bots[player].choose(view_for(state, player), player))
    raise GameDidNotEnd(f"seed {seed}: no end after {MAX_EVENTS} events")
