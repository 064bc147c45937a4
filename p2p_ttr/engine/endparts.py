"""The end-of-game score parts of a board's own pieces.

Routes, tickets and the bonuses every board shares are scored from what each
player claimed (``scoring.score_game``). A board with pieces of its own
(shares, technologies, depots, monsters...) keeps them in its mechanic's module, and
that module alone knows what they are worth at the end: it provides one
:data:`EndScorer`, listed in :data:`END_SCORERS`. ``outcome.final_score``
hands them the finished state and everyone's score without them; what they
return becomes ``PlayerScore.extra``, counted in the total before the
ranking, and every score table (the client's end page, ``ttr score``,
``ttr verify``, self-play) shows it through ``scoring.score_parts``, worded by
its ``key`` (``client/scorewords.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from .depots import depot_parts
from .markerpoints import marker_parts
from .monsterpoints import monster_parts
from .scoring import PlayerScore, ScorePart
from .sharemoves import share_parts
from .state import GameState
from .technologies import technology_end_parts

# Every player's parts (in seat order) for the finished ``state``, given
# everyone's score without them; () for a game that does not play the mechanic.
EndScorer = Callable[[GameState, tuple[PlayerScore, ...]], tuple[tuple[ScorePart, ...], ...]]

# One per mechanic with end-of-game points of its own, in the order its
# columns are shown (each returns () where its game does not play it).
END_SCORERS: tuple[EndScorer, ...] = (
    share_parts,  # Pennsylvania's stock shares
    technology_end_parts,  # the United Kingdom's technologies
    marker_parts,  # Old West's city markers
    monster_parts,  # Alvin & Dexter's cards
    depot_parts,  # Europe 1912's depots, on any board
)


def end_parts(state: GameState, scores: tuple[PlayerScore, ...]) -> tuple[tuple[ScorePart, ...], ...]:
    """Every player's parts from every mechanic the game plays, in seat order."""
    parts: list[tuple[ScorePart, ...]] = [() for _ in scores]
    for scorer in END_SCORERS:
        added = scorer(state, scores)
        if added:
            parts = [mine + theirs for mine, theirs in zip(parts, added, strict=True)]
    return tuple(parts)
