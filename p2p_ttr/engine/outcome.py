"""The end of a game: final scores from a finished state."""

from __future__ import annotations

from .endparts import end_parts
from .monsterpoints import chaos_at_end
from .scoring import GameScore, PlayerClaims, deciding_tiebreak, score_game
from .state import GameState, Phase


def claims_of(state: GameState, *, public_only: bool = True) -> tuple[PlayerClaims, ...]:
    """What each player built and holds. Tickets whose faces this state does not
    know are left out; at the end of a game every held ticket is public."""
    out = []
    for ps in state.players:
        faces = (state.public.get(r) if public_only else state.face(r) for r in ps.tickets)
        out.append(PlayerClaims(ps.routes, ps.stations, tuple(f for f in faces if f is not None)))
    return tuple(out)


def score_as_it_stands(state: GameState, *, public_only: bool = True) -> GameScore:
    """Every player's score were the game to end now: routes, tickets (those
    whose faces the state knows, or all of them with ``public_only=False``),
    bonuses and the board's own parts (engine/endparts.py); with Alvin &
    Dexter, the tickets of the cities in chaos halved."""
    return score_game(state.game, claims_of(state, public_only=public_only), lambda scores: end_parts(state, scores),
                      chaos_at_end(state))


def final_score(state: GameState) -> GameScore:
    """The final scores; the game must be over (every held ticket revealed)."""
    if state.phase is not Phase.OVER:
        raise ValueError("the game is not over yet")
    score = score_as_it_stands(state)
    return conceded_to(score, state.conceded_to) if state.conceded_to is not None else score


def conceded_to(score: GameScore, winner: int) -> GameScore:
    """The ranking of a conceded game (protocol.md §6, Conceded): the seat
    left in play first, by concession; the others after it in their usual
    order, sharing places only where no tie-break separates them."""
    ranking = (winner,) + tuple(p for p in score.ranking if p != winner)
    places = [0] * len(ranking)
    for position, p in enumerate(ranking):
        before = ranking[position - 1] if position > 1 else None
        tied = before is not None and deciding_tiebreak(score.players[before], score.players[p]) is None
        places[p] = places[before] if tied and before is not None else position + 1
    return GameScore(score.players, ranking, tuple(places))
