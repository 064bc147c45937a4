"""Bot tournaments: seeded games between bot levels, and per-level statistics.

Games are played in *rounds*: one deal (a game seed) is played once per seat
rotation, so every level sits in every seat on the same cards. That spreads
the first-player advantage and the luck of the deal evenly over the levels;
a tournament of G games has ceil(G / N) deals. Everything is derived from the
tournament seed, so the same seed gives the same result.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from p2p_ttr.bots.base import Bot
from p2p_ttr.bots.levels import LEVELS, make_bot
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.outcome import final_score

from .game import play_local_game


@dataclass(frozen=True)
class GameRecord:
    """One finished game of a tournament."""

    index: int
    seed: int
    seats: tuple[str, ...]  # the level in each seat
    scores: tuple[int, ...]
    places: tuple[int, ...]  # 1 = winner; tied players share a place
    completed: tuple[int, ...]
    failed: tuple[int, ...]
    longest: tuple[int, ...]
    turns: int


@dataclass(frozen=True)
class LevelStats:
    """How one level did over all the seats it took."""

    level: str
    games: int  # seats played: a level in two seats of one game counts twice
    wins: float  # games won; a win shared by k tied players counts 1/k
    score: int  # sums over the seats, for the averages
    completed: int
    failed: int
    longest: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def win_interval(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    def average(self, total: int) -> float:
        return total / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.win_interval()
        return {
            "games": self.games,
            "wins": round(self.wins, 4),
            "win_rate": round(self.win_rate, 4),
            "win_rate_ci95": [round(lo, 4), round(hi, 4)],
            "avg_score": round(self.average(self.score), 2),
            "avg_completed_tickets": round(self.average(self.completed), 3),
            "avg_failed_tickets": round(self.average(self.failed), 3),
            "avg_longest_path": round(self.average(self.longest), 2),
        }


@dataclass(frozen=True)
class TournamentResult:
    """A tournament's games and each level's results, seats rotated."""

    players: int
    seed: int
    lineup: tuple[str, ...]  # the levels, one per seat before rotation
    game: str  # the game played, as load_game names it (Game.name)
    games: tuple[GameRecord, ...]
    levels: tuple[LevelStats, ...]  # in lineup order

    def to_json(self) -> dict[str, Any]:
        return {
            "tournament": {
                "players": self.players,
                "game": self.game,
                "games": len(self.games),
                "seed": self.seed,
                "bots": list(self.lineup),
            },
            "levels": {s.level: s.to_json() for s in self.levels},
            "avg_turns": round(sum(g.turns for g in self.games) / len(self.games), 2) if self.games else 0.0,
        }


def lineup_for(levels: Sequence[str], players: int) -> tuple[str, ...]:
    """One level per seat: ``levels`` cycled (or cut) to ``players`` entries."""
    if not levels:
        raise ValueError("name at least one bot level")
    if len(levels) > players:
        raise ValueError(f"{len(levels)} bot levels for {players} players")
    for level in levels:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}; the levels are {', '.join(LEVELS)}")
    return tuple(levels[i % len(levels)] for i in range(players))


def seats_for(lineup: Sequence[str], game: int) -> tuple[str, ...]:
    """The lineup rotated for game ``game``: seat 0 moves one level along each game."""
    n = len(lineup)
    return tuple(lineup[(seat + game) % n] for seat in range(n))


def game_seeds(seed: int, deals: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.randrange(2**31) for _ in range(deals)]


def schedule(lineup: Sequence[str], games: int, seed: int) -> list[tuple[int, int, tuple[str, ...]]]:
    """The tournament's games in order: (index, game seed, the level in each seat), a deal per rotation."""
    players = len(lineup)
    seeds = game_seeds(seed, math.ceil(games / players))
    return [(index, seeds[index // players], seats_for(lineup, index)) for index in range(games)]


def play_tournament(
    game: Game,
    players: int,
    games: int,
    levels: Sequence[str],
    seed: int,
    on_game: Callable[[GameRecord], None] | None = None,
    workers: int = 1,
) -> TournamentResult:
    """Play ``games`` seeded games and aggregate the results per level.

    ``workers`` > 1 plays games in that many processes at once; every game
    depends only on its own seed and seats, so the result is the same as
    with one (``on_game`` hears of games as they end, not in order)."""
    if not game.rules.players_allowed(players):
        raise ValueError(f"{game.title} is for {game.rules.min_players} to {game.rules.max_players} players, "
                         f"not {players}")
    if games < 1:
        raise ValueError("play at least one game")
    if workers < 1:
        raise ValueError("use at least one worker")
    lineup = lineup_for(levels, players)
    jobs = schedule(lineup, games, seed)
    records: list[GameRecord] = []
    if workers == 1:
        for job in jobs:
            record = play_one(game.board_name, game.variant, *job)
            records.append(record)
            if on_game is not None:
                on_game(record)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            # A game crosses to a worker by its names: each process loads it once.
            futures = [pool.submit(play_one, game.board_name, game.variant, *job) for job in jobs]
            for future in as_completed(futures):
                record = future.result()
                records.append(record)
                if on_game is not None:
                    on_game(record)
        records.sort(key=lambda r: r.index)
    return TournamentResult(players, seed, lineup, game.name, tuple(records), aggregate(lineup, records))


def seat_bots(game_seed: int, seats: Sequence[str]) -> list[Bot]:
    """The bots of one tournament game, each seeded from the game and its seat."""
    return [make_bot(level, game_seed * 8 + seat, f"{level}{seat}") for seat, level in enumerate(seats)]


def play_one(board: str, variant: str, index: int, game_seed: int, seats: tuple[str, ...]) -> GameRecord:
    return record_game(load_game(board, variant), index, game_seed, seats, seat_bots(game_seed, seats))


def record_game(game: Game, index: int, game_seed: int, seats: tuple[str, ...], bots: Sequence[Bot]) -> GameRecord:
    """Play one game of a tournament with ``bots`` (one per seat, named by ``seats``) and record it."""
    played = play_local_game(game, len(seats), game_seed, bots, record=False)
    score = final_score(played.final)
    return GameRecord(
        index=index,
        seed=game_seed,
        seats=seats,
        scores=tuple(p.total for p in score.players),
        places=score.places,
        completed=tuple(p.completed_tickets for p in score.players),
        failed=tuple(len(p.ticket_results) - p.completed_tickets for p in score.players),
        longest=tuple(p.longest_path for p in score.players),
        turns=played.final.turn,
    )


def aggregate(lineup: Sequence[str], records: Sequence[GameRecord]) -> tuple[LevelStats, ...]:
    order = list(dict.fromkeys(lineup))
    sums: dict[str, list[float]] = {level: [0, 0.0, 0, 0, 0, 0] for level in order}
    for g in records:
        winners = g.places.count(1)
        for seat, level in enumerate(g.seats):
            acc = sums[level]
            acc[0] += 1
            acc[1] += 1 / winners if g.places[seat] == 1 else 0.0
            acc[2] += g.scores[seat]
            acc[3] += g.completed[seat]
            acc[4] += g.failed[seat]
            acc[5] += g.longest[seat]
    return tuple(
        LevelStats(level, int(a[0]), a[1], int(a[2]), int(a[3]), int(a[4]), int(a[5]))
        for level, a in sums.items()
    )


def wilson_interval(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% with the default z)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
