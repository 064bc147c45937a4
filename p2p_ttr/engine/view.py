"""``view_for``: the one place that decides what a player may see.

A view is a GameState whose private knowledge is cut down to the player's own
cards: their hand, their tickets and the tickets they are choosing from. All
engine functions work on views, so bots and the client decide from exactly
what a player at that seat would know.
"""

from __future__ import annotations

from dataclasses import replace

from .cards import CardRef
from .state import GameState


def own_cards(state: GameState, player: int) -> frozenset[CardRef]:
    ps = state.players[player]
    return frozenset(ps.hand + ps.tickets + ps.offered)


def view_for(state: GameState, player: int) -> GameState:
    """``state`` as ``player`` sees it."""
    if not 0 <= player < state.n_players:
        raise ValueError(f"there is no player {player} at this table")
    mine = own_cards(state, player)
    private = {ref: card for ref, card in state.private.items() if ref in mine}
    return replace(state, private=private)


def hidden_from(state: GameState, player: int) -> dict[CardRef, int]:
    """The faces ``state`` knows that ``player`` must not see (for tests and audits)."""
    mine = own_cards(state, player)
    return {ref: card for ref, card in state.private.items() if ref not in mine}


def public_view(state: GameState) -> GameState:
    """``state`` as someone with no seat sees it (a watcher): no private face at all."""
    return replace(state, private={})
