"""Alvin & Dexter's part of the final score (monsters.py): "The player with
the most Alvin cards scores +15, and same goes for Dexter. All tied players
earn the full 15 points!" (``Rules.monster_points``; nobody at 0 cards).
One part per monster, its count the cards of it the player took. The
halved tickets of a City in Chaos are scored with every ticket
(``scoring.ticket_outcomes``), from the places :func:`chaos_at_end` names.
"""

from __future__ import annotations

from .monsters import MONSTER_TITLES, MONSTERS, Monsters, chaos_places
from .scoring import PlayerScore, ScorePart
from .state import GameState


def chaos_at_end(state: GameState) -> frozenset[str]:
    """The places in chaos as the game ends (none where the monsters are not played)."""
    return chaos_places(state.game.board, state.monsters)


def monster_parts(state: GameState, scores: tuple[PlayerScore, ...]) -> tuple[tuple[ScorePart, ...], ...]:
    """Every player's part for each monster (() where the game has none): engine/endparts.py's scorer."""
    if state.monsters is None:
        return ()
    return monster_card_parts(state.monsters, state.game.rules.monster_points)


def monster_card_parts(monsters: Monsters, bonus: int) -> tuple[tuple[ScorePart, ...], ...]:
    """Every player's part for each monster, from the cards each took: ``bonus`` to the most of each."""
    most = [max(mine[m] for mine in monsters.cards) for m in range(len(MONSTERS))]
    return tuple(
        tuple(ScorePart(f"monster_{name}", MONSTER_TITLES[name],
                        bonus if most[m] > 0 and mine[m] == most[m] else 0, mine[m])
              for m, name in enumerate(MONSTERS))
        for mine in monsters.cards)
