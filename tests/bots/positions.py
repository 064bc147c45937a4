"""Positions of a seeded game of medium bots, for the bots' tests."""

from __future__ import annotations

from p2p_ttr.bots.levels import make_bot
from p2p_ttr.engine.boards import europe_game
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.rules import actors, apply, new_game
from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.view import view_for
from p2p_ttr.local.dealer import LocalDealer


def settle(state: GameState, dealer: LocalDealer) -> GameState:
    """Answer chance and show players their cards until someone must decide (or the game is over)."""
    while not state.over:
        chance = dealer.answer(state)
        if chance is None:
            for peek in dealer.peeks(state):
                state = apply(state, peek)
            return state
        state = apply(state, chance)
    return state


def decision_points(
    n_players: int, seed: int, every: int = 1, game: Game | None = None
) -> list[tuple[GameState, LocalDealer]]:
    """Omniscient positions of a seeded medium game where someone must decide
    (every ``every``-th decision), each with the game's dealer, which knows
    the unseen cards (one dealer for the whole game)."""
    dealer = LocalDealer(seed)
    bots = [make_bot("medium", seed + p, "m") for p in range(n_players)]
    state = settle(new_game(game or europe_game(), n_players), dealer)
    out: list[tuple[GameState, LocalDealer]] = []
    decisions = 0
    while not state.over:
        p = actors(state)[0]
        if decisions % every == 0:
            out.append((state, dealer))
        decisions += 1
        state = settle(apply(state, bots[p].choose(view_for(state, p), p)), dealer)
    return out
