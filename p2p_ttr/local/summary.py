"""The summary of a finished game, as `ttr selfplay --json` prints it.

The networked commands print the same object (plus their own fields), so this
is the one definition of its shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from p2p_ttr.engine.board import europe
from p2p_ttr.engine.outcome import final_score
from p2p_ttr.engine.state import GameState


def game_summary(state: GameState, names: Sequence[str], seed: int | None = None) -> dict[str, Any]:
    board = europe()
    score = final_score(state)
    players = []
    for p, (ps, sc) in enumerate(zip(state.players, score.players)):
        players.append(
            {
                "name": names[p],
                "routes": [[board.routes[r].a, board.routes[r].b, board.routes[r].color] for r in ps.routes],
                "stations": list(ps.stations),
                "tickets": [
                    {
                        "a": board.tickets[t.ticket].a,
                        "b": board.tickets[t.ticket].b,
                        "points": board.tickets[t.ticket].points,
                        "completed": t.completed,
                    }
                    for t in sc.ticket_results
                ],
                "trains_left": ps.trains,
                "hand": len(ps.hand),
                "score": {
                    "routes": sc.routes,
                    "tickets": sc.tickets,
                    "stations": sc.stations,
                    "express": sc.express,
                    "total": sc.total,
                    "longest_path": sc.longest_path,
                    "completed_tickets": sc.completed_tickets,
                },
                "borrowed": [
                    {
                        "station": city,
                        "route": None
                        if r is None
                        else [board.routes[r].a, board.routes[r].b, board.routes[r].color],
                    }
                    for city, r in sc.borrowed
                ],
            }
        )
    return {
        "seed": seed,
        "turns": state.turn,
        "winner": score.ranking[0],
        "ranking": list(score.ranking),
        "stalled": state.stalled,
        "cards": {
            "deck": len(state.draw_pile),
            "discard": len(state.discard),
            "face_up": sum(1 for r in state.face_up if r is not None),
        },
        "players": players,
    }
