"""Game positions on another board for the client's tests: a seeded
3-player random-bot game of USA 1910 (no stations, no tunnels or ferries,
the Globetrotter in place of the Longest Path), state by state, as
``client_states`` has one of Europe."""

from __future__ import annotations

from collections.abc import Callable

from client_states import readable, states_of

from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.rules import actors
from p2p_ttr.engine.state import GameState

NAMES = ("Ann", "Bob", "Cid")


def usa_1910() -> Game:
    return load_game("usa", "1910")


def usa_states(seed: int = 9, variant: str = "1910") -> tuple[GameState, ...]:
    """Every omniscient state of a 3-player random-bot game of USA ``variant``, in order."""
    return states_of(load_game("usa", variant), seed)


def first_usa(test: Callable[[GameState], bool], seat: int = 0, variant: str = "1910") -> GameState:
    """The first state of the USA game where ``seat`` is to act, can read its cards, and ``test`` holds."""
    return next(s for s in usa_states(variant=variant) if seat in actors(s) and readable(s, seat) and test(s))
