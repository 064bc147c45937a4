"""The summary of a finished game: what `ttr selfplay` and the networked
commands print at the end (``to_json`` for ``--json``; the words are the
command's, from these fields).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from p2p_ttr.engine.board import Route, Ticket
from p2p_ttr.engine.outcome import final_score
from p2p_ttr.engine.scoring import PlayerScore, ScorePart, score_parts
from p2p_ttr.engine.state import GameState

RouteName = tuple[str, str, str]  # (city, city, colour)


@dataclass(frozen=True)
class TicketOutcome:
    """One ticket at the end of the game: its cities, points, and whether it was completed."""

    a: str
    b: str
    points: int
    completed: bool


@dataclass(frozen=True)
class PlayerSummary:
    """One player at the end of the game: holdings, score and what its stations borrowed."""

    name: str
    routes: tuple[RouteName, ...]
    stations: tuple[str, ...]
    tickets: tuple[TicketOutcome, ...]
    trains_left: int
    trains_placed: int
    hand: int  # cards held at the end
    score: PlayerScore
    borrowed: tuple[tuple[str, RouteName | None], ...]  # (station city, the rival route it lends)
    parts: tuple[ScorePart, ...] = ()  # the score's parts beside routes and tickets the game plays


@dataclass(frozen=True)
class GameSummary:
    """A finished game, with what the command that played it adds (game id,
    log, bot level, where the secrets came from)."""

    seed: int | None
    turns: int
    winner: int
    ranking: tuple[int, ...]
    stalled: bool
    deck: int  # train cards left in the draw pile, the discards, the face-up row
    discard: int
    face_up: int
    players: tuple[PlayerSummary, ...]
    game_id: str | None = None
    digest: str | None = None
    secrets: str | None = None  # "os" or "seed"
    log: str | None = None
    bot_level: str | None = None
    game: str = ""  # the game's title (Game.title)
    # Ended early, fewer than two seats in play (protocol.md §6, Conceded):
    # ``winner`` is then the last seat in play, ranked first by concession
    # (none if nobody was left: the usual ranking).
    conceded: bool = False
    conceded_to: int | None = None

    def with_(self, **fields: Any) -> GameSummary:
        return replace(self, **fields)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seed": self.seed,
            "game": self.game,
            "turns": self.turns,
            "winner": self.winner,
            "ranking": list(self.ranking),
            "stalled": self.stalled,
            "conceded": self.conceded,
            "conceded_to": self.conceded_to,
            "cards": {"deck": self.deck, "discard": self.discard, "face_up": self.face_up},
            "players": [_player_json(p) for p in self.players],
        }
        for key in ("game_id", "digest", "secrets", "log", "bot_level"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out



def _destination(ticket: Ticket) -> str:
    """Where a ticket goes, as its card says: its city, or the zone it names (the United Kingdom's France,
    reached at either of its ports), not the zone's first endpoint."""
    return ticket.goals[0].name if len(ticket.goals) == 1 else ticket.b

def game_summary(state: GameState, names: Sequence[str], seed: int | None = None) -> GameSummary:
    board = state.game.board
    score = final_score(state)

    def name(route: Route) -> RouteName:
        return (route.a, route.b, route.color)

    players = []
    for p, (ps, sc) in enumerate(zip(state.players, score.players)):
        tickets = tuple(TicketOutcome(board.tickets[t.ticket].a, _destination(board.tickets[t.ticket]),
                                      board.tickets[t.ticket].points, t.completed) for t in sc.ticket_results)
        borrowed = tuple((city, None if r is None else name(board.routes[r])) for city, r in sc.borrowed)
        players.append(PlayerSummary(names[p], tuple(name(board.routes[r]) for r in ps.routes), tuple(ps.stations),
                                     tickets, ps.trains, state.game.rules.trains - ps.trains, len(ps.hand), sc,
                                     borrowed, score_parts(state.game, sc)))
    return GameSummary(seed, state.turn, score.ranking[0], tuple(score.ranking), state.stalled,
                       len(state.draw_pile), len(state.discard), sum(1 for r in state.face_up if r is not None),
                       tuple(players), conceded=state.conceded, conceded_to=state.conceded_to, game=state.game.title)


def _player_json(p: PlayerSummary) -> dict[str, Any]:
    sc = p.score
    return {
        "name": p.name,
        "routes": [list(r) for r in p.routes],
        "stations": list(p.stations),
        "tickets": [{"a": t.a, "b": t.b, "points": t.points, "completed": t.completed} for t in p.tickets],
        "trains_left": p.trains_left,
        "hand": p.hand,
        "score": {
            "routes": sc.routes,
            "tickets": sc.tickets,
            "stations": sc.stations,
            "express": sc.express,
            "total": sc.total,
            "longest_path": sc.longest_path,
            "completed_tickets": sc.completed_tickets,
        } | {part.key: part.points for part in p.parts},
        "borrowed": [{"station": city, "route": None if r is None else list(r)} for city, r in p.borrowed],
    }
