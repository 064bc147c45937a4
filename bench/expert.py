"""The expert bot's move times: every decision of one expert seat, timed.

    python bench/expert.py [--games N] [--seed S] [--players 2,4]

Budget (issue 28): median at most 1 s and p90 at most 2 s per move, one core
per bot. The expert searches a fixed budget of rollout decisions (so a seed
replays the same game); the seconds it takes depend on the machine and on
what else runs on it, so the report gives the load average beside them.
The expert plays against hard bots, seats rotating, as in the tournaments.
The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any

from p2p_ttr.bots.base import Bot
from p2p_ttr.bots.expert import ExpertBot
from p2p_ttr.bots.levels import make_bot
from p2p_ttr.engine.events import Action
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.local.game import play_local_game

MEDIAN_BUDGET_S = 1.0
P90_BUDGET_S = 2.0


class Timed:
    """Wraps the expert and records how long each decision takes, and of what kind."""

    def __init__(self, bot: ExpertBot, times: list[tuple[float, str, bool]]) -> None:
        self.bot = bot
        self.name = bot.name
        self.times = times

    def choose(self, view: GameState, player: int) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(view, player)
        kind = view.phase.value + ("/second card" if view.phase is Phase.TURN and view.cards_drawn else "")
        self.times.append((time.perf_counter() - start, kind, self.bot.last is not None))
        return action


def percentile(sorted_times: list[float], q: float) -> float:
    return sorted_times[min(len(sorted_times) - 1, int(q * len(sorted_times)))]


def measure(players: int, games: int, seed: int) -> dict[str, Any]:
    records: list[tuple[float, str, bool]] = []
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    for g in range(games):
        game_seed = seed + 1000 * g + players
        seat = g % players
        bots: list[Bot] = [make_bot("hard", game_seed * 8 + p, f"hard{p}") for p in range(players)]
        bots[seat] = Timed(ExpertBot(game_seed * 8 + seat, "expert"), records)
        play_local_game(players, game_seed, bots, record=False)
    times = sorted(t for t, _, _ in records)
    searched = sorted(t for t, _, s in records if s)
    median, p90 = statistics.median(times), percentile(times, 0.9)
    by_kind: dict[str, list[float]] = {}
    for t, kind, _ in records:
        by_kind.setdefault(kind, []).append(t)
    out: dict[str, Any] = {
        "players": players,
        "games": games,
        "moves": len(times),
        "searched": len(searched),
        "median_s": round(median, 3),
        "p90_s": round(p90, 3),
        "p99_s": round(percentile(times, 0.99), 3),
        "max_s": round(times[-1], 3),
        "searched_median_s": round(statistics.median(searched), 3) if searched else None,
        "by_kind_median_s": {k: round(statistics.median(v), 3) for k, v in sorted(by_kind.items())},
        "load_avg": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "seconds": round(time.perf_counter() - start, 1),
        "met": median <= MEDIAN_BUDGET_S and p90 <= P90_BUDGET_S,
    }
    print(f"{players} players, {games} games: {len(times)} expert moves ({len(searched)} searched): "
          f"median {median:.3f} s, p90 {p90:.3f} s, max {times[-1]:.2f} s "
          f"(budget median {MEDIAN_BUDGET_S:.0f} s, p90 {P90_BUDGET_S:.0f} s: {'met' if out['met'] else 'MISSED'}); "
          f"load average {out['load_avg'][0]}-{out['load_avg'][1]}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per table size (default 6)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--players", default="2,4", help="table sizes, comma-separated (default 2,4)")
    args = parser.parse_args()
    results = [measure(int(n), args.games, args.seed) for n in args.players.split(",")]
    print(json.dumps({"bench": "expert_moves", "cpu_count": os.cpu_count(), "results": results}))


if __name__ == "__main__":
    main()
