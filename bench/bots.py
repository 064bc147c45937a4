"""Bot strength and speed: the level targets, measured with seeded tournaments.

    python bench/bots.py [--games N] [--games4 N] [--timing-games N] [--seed S] [--workers W]

Targets (issue 7, hard's raised by issue 28):
  * medium wins >= 90% of 2-player games against easy;
  * hard wins >= 75% of 2-player games against medium;
  * hard wins >= 50% of 4-player games against three mediums;
  * a hard move takes under 1 s (median).
Win rates count a shared win as a share; the interval is the 95% Wilson
interval. Seats rotate every game and each deal is played in every rotation.
The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from p2p_ttr.bots.base import Bot
from p2p_ttr.bots.levels import make_bot
from p2p_ttr.local.tournament import play_tournament
from p2p_ttr.engine.events import Action
from p2p_ttr.engine.state import GameState
from p2p_ttr.local.game import play_local_game

MOVE_BUDGET_S = 1.0
# (name, players, lineup, level measured, target win rate)
TARGETS: tuple[tuple[str, int, tuple[str, ...], str, float], ...] = (
    ("medium_vs_easy_2p", 2, ("medium", "easy"), "medium", 0.90),
    ("hard_vs_medium_2p", 2, ("hard", "medium"), "hard", 0.75),
    ("hard_vs_3_medium_4p", 4, ("hard", "medium", "medium", "medium"), "hard", 0.50),
)


class Timed:
    """Wraps a bot and records how long each decision takes."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self.bot = bot
        self.name = bot.name
        self.times = times

    def choose(self, view: GameState, player: int) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(view, player)
        self.times.append(time.perf_counter() - start)
        return action


def measure_target(name: str, players: int, lineup: tuple[str, ...], level: str, target: float,
                   games: int, seed: int, workers: int) -> dict[str, Any]:
    start = time.perf_counter()
    result = play_tournament(players, games, lineup, seed, workers=workers)
    stats = next(s for s in result.levels if s.level == level)
    lo, hi = stats.win_interval()
    out = {
        "name": name,
        "players": players,
        "bots": list(lineup),
        "games": games,
        "seed": seed,
        "level": level,
        "win_rate": round(stats.win_rate, 4),
        "ci95": [round(lo, 4), round(hi, 4)],
        "target": target,
        "met": stats.win_rate >= target,
        "avg_score": {s.level: round(s.average(s.score), 1) for s in result.levels},
        "seconds": round(time.perf_counter() - start, 1),
    }
    print(f"{name}: {level} wins {stats.win_rate:.1%} of {games} games (95% {lo:.1%}-{hi:.1%}); "
          f"target {target:.0%}: {'met' if out['met'] else 'MISSED'}  [{out['seconds']} s]")
    return out


def measure_moves(games: int, seed: int) -> dict[str, Any]:
    """Time every decision of one hard bot, in 2- and 4-player games against mediums."""
    times: list[float] = []
    for g in range(games):
        for players in (2, 4):
            game_seed = seed + 100 * g + players
            bots: list[Bot] = [make_bot("medium", game_seed * 8 + p, "medium") for p in range(players)]
            seat = g % players
            bots[seat] = Timed(make_bot("hard", game_seed * 8 + seat, "hard"), times)
            play_local_game(players, game_seed, bots, record=False)
    times.sort()
    median = statistics.median(times)
    out = {
        "moves": len(times),
        "median_s": round(median, 5),
        "p90_s": round(times[int(0.9 * len(times))], 5),
        "p99_s": round(times[int(0.99 * len(times))], 5),
        "max_s": round(times[-1], 5),
        "budget_s": MOVE_BUDGET_S,
        "met": median < MOVE_BUDGET_S,
    }
    print(f"hard move: median {median * 1e3:.1f} ms, p90 {out['p90_s'] * 1e3:.1f} ms, "
          f"max {out['max_s'] * 1e3:.0f} ms over {len(times)} moves; budget {MOVE_BUDGET_S:.0f} s: "
          f"{'met' if out['met'] else 'MISSED'}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per 2-player target (default 200)")
    parser.add_argument("--games4", type=int, default=200, help="games for the 4-player target (default 200)")
    parser.add_argument("--timing-games", type=int, default=6, help="games (of 2 and of 4 players) timed")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1, help="games played at once, one process each (default 1)")
    args = parser.parse_args()
    results = []
    for name, players, lineup, level, target in TARGETS:
        games = args.games4 if players == 4 else args.games
        results.append(measure_target(name, players, lineup, level, target, games, args.seed, args.workers))
    moves = measure_moves(args.timing_games, args.seed)
    print(json.dumps({"bench": "bots", "targets": results, "hard_move": moves}))


if __name__ == "__main__":
    main()
