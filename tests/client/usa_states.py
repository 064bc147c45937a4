"""Game positions on another board for the client's tests: a seeded
3-player random-bot game of USA 1910 (no stations, no tunnels or ferries,
the Globetrotter in place of the Longest Path), state by state, as
``client_states`` has one of Europe."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.rules import actors, apply, new_game
from p2p_ttr.engine.state import GameState
from p2p_ttr.local.game import play_local_game

NAMES = ("Ann", "Bob", "Cid")


def usa_1910() -> Game:
    return load_game("usa", "1910")


@cache
def usa_states(seed: int = 9, variant: str = "1910") -> tuple[GameState, ...]:
    """Every omniscient state of a 3-player random-bot game of USA ``variant``, in order."""
    game = load_game("usa", variant)
    played = play_local_game(game, 3, seed, [RandomBot(p) for p in (1, 2, 3)], record=True)
    state, states = new_game(game, 3), []
    for event in played.events:
        state = apply(state, event)
        states.append(state)
    return tuple(states)


def readable(state: GameState, player: int = 0) -> bool:
    ps = state.players[player]
    return all(state.face(r) is not None for r in ps.hand + ps.offered)


def first_usa(test: Callable[[GameState], bool], seat: int = 0, variant: str = "1910") -> GameState:
    """The first state of the USA game where ``seat`` is to act, can read its cards, and ``test`` holds."""
    return next(s for s in usa_states(variant=variant) if seat in actors(s) and readable(s, seat) and test(s))
