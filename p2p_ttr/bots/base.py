"""What a bot is: something that picks an action from a player's view."""

from __future__ import annotations

from typing import Protocol

from p2p_ttr.engine.events import Action
from p2p_ttr.engine.state import GameState


class Bot(Protocol):
    """A player that picks a legal action from its own view; never sees another seat's cards."""

    name: str

    def choose(self, view: GameState, player: int) -> Action:
        """An action for ``player``, legal in ``view`` (the player's own view)."""
        ...
