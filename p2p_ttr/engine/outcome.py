"""The end of a game: final scores from a finished state."""

from __future__ import annotations

from .board import europe
from .scoring import GameScore, PlayerClaims, score_game
from .state import GameState, Phase


def claims_of(state: GameState, *, public_only: bool = True) -> tuple[PlayerClaims, ...]:
    """What each player built and holds. Tickets whose faces this state does not
    know are left out; at the end of a game every held ticket is public."""
    out = []
    for ps in state.players:
        faces = (state.public.get(r) if public_only else state.face(r) for r in ps.tickets)
        out.append(PlayerClaims(ps.routes, ps.stations, tuple(f for f in faces if f is not None)))
    return tuple(out)


def final_score(state: GameState) -> GameScore:
    """The final scores; the game must be over (every held ticket revealed)."""
    if state.phase is not Phase.OVER:
        raise ValueError("the game is not over yet")
    return score_game(europe(), claims_of(state))
