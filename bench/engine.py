"""Time whole engine-only games: 5 players, random bots, the local dealer.

    python bench/engine.py [--games N] [--players P]

Budget (design.md §5): a 5-bot game under 50 ms. The last line is one JSON
object: {"bench": "engine_game", "players": 5, "median_s": ...}.

This VM's speed drifts by tens of percent over an hour, so the run also times
a fixed pure-Python baseline (dict, tuple and small-int work like the
engine's) and reports the game as a multiple of it: that ratio is what to
compare between runs and commits.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.local.game import play_local_game

BUDGET_S = 0.050


def baseline() -> float:
    """Seconds for a fixed workload shaped like the engine's (median of 5)."""
    def work() -> int:
        state: dict[tuple[int, int], int] = {}
        total = 0
        for i in range(20_000):
            key = (i % 97, i % 13)
            state = {**state, key: i} if i % 50 == 0 else state
            state[key] = state.get(key, 0) + 1
            total += len(tuple(range(i % 7)))
        return total

    times = []
    for _ in range(5):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args()
    play_local_game(args.players, 0, [RandomBot(p) for p in range(args.players)])  # warm caches
    times, events, turns = [], [], []
    for seed in range(1, args.games + 1):
        bots = [RandomBot(seed * 10 + p) for p in range(args.players)]
        start = time.perf_counter()
        game = play_local_game(args.players, seed, bots, record=True)
        times.append(time.perf_counter() - start)
        events.append(len(game.events))
        turns.append(game.final.turn)
    median = statistics.median(times)
    base = baseline()
    per_event_us = statistics.median(t / e for t, e in zip(times, events)) * 1e6
    print(f"{args.games} games of {args.players} random bots")
    print(f"  median {median * 1e3:.1f} ms   p90 {sorted(times)[int(0.9 * len(times))] * 1e3:.1f} ms")
    print(f"  {statistics.median(turns):.0f} turns, {statistics.median(events):.0f} events a game;"
          f" {per_event_us:.0f} us per event (bot decision included)")
    print(f"  baseline workload {base * 1e3:.1f} ms; a game is {median / base:.2f} baselines")
    print(f"  budget {BUDGET_S * 1e3:.0f} ms: {'met' if median < BUDGET_S else 'MISSED'}")
    print(json.dumps({
        "bench": "engine_game",
        "players": args.players,
        "games": args.games,
        "median_s": round(median, 5),
        "per_event_us": round(per_event_us, 1),
        "baseline_s": round(base, 5),
        "ratio": round(median / base, 2),
        "budget_s": BUDGET_S,
    }))


if __name__ == "__main__":
    main()
