"""A bot that plays random legal moves, weighted so games finish.

Uniform choice over every legal action would mostly build stations and draw
tickets (there are hundreds of such actions and a handful of draws), so it
first picks a kind of move, then a move of that kind.
"""

from __future__ import annotations

import random

from p2p_ttr.engine.events import (
    AbandonTunnel,
    Action,
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    Pass,
)
from p2p_ttr.engine.moves import legal_actions, legal_kinds
from p2p_ttr.engine.state import GameState

_WEIGHTS: dict[type, float] = {
    ClaimRoute: 6.0,
    DrawBlind: 2.0,
    DrawFaceUp: 2.0,
    DrawTickets: 0.3,
    BuildStation: 0.1,
    AbandonTunnel: 0.2,
    Pass: 1.0,
}


class RandomBot:
    """Picks a legal action at random (weighted by kind): a baseline, and a fuzzer for the engine and the table."""

    def __init__(self, seed: int, name: str = "random") -> None:
        self.name = name
        self._rng = random.Random(seed)

    def choose(self, view: GameState, player: int) -> Action:
        kinds = legal_kinds(view, player)
        if not kinds:
            raise ValueError(f"player {player} has nothing to do in this position")
        kind = self._rng.choices(kinds, [_WEIGHTS.get(k, 1.0) for k in kinds])[0]
        return self._rng.choice(legal_actions(view, player, only=kind))
