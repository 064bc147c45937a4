"""Where a bot level wins and loses: score parts over a tournament's games.

    python bench/bot_losses.py [--players 4] [--games 400] [--seed 11]
                               [--bots hard,medium,medium,medium] [--workers 2]

The games are exactly the tournament's (`ttr tournament` with the same
players, games, bots and seed: the same deals, seats rotating). The first
level named is the one studied. Per group of seats it prints average score
parts: that level in the games it won; in the games it lost; and the winner
of the games it lost. Comparing the lost games' two lines shows where the
points went (tickets, routes, the Express, trains left unplaced).
The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from p2p_ttr.engine.outcome import final_score
from p2p_ttr.local.game import play_local_game
from p2p_ttr.local.tournament import game_seeds, lineup_for, seat_bots, seats_for

PARTS = ("total", "routes", "tickets_won", "tickets_lost", "express", "stations", "trains_left", "claims", "out_of_trains")


def play(job: tuple[int, tuple[str, ...]]) -> tuple[tuple[str, ...], tuple[int, ...], list[dict[str, float]]]:
    """One game: the seats, the places, and every seat's score parts."""
    game_seed, seats = job
    game = play_local_game(len(seats), game_seed, seat_bots(game_seed, seats), record=False)
    score = final_score(game.final)
    parts: list[dict[str, float]] = []
    for seat, ps in enumerate(score.players):
        state = game.final.players[seat]
        parts.append({
            "total": ps.total,
            "routes": ps.routes,
            "tickets_won": sum(t.points for t in ps.ticket_results if t.points > 0),
            "tickets_lost": -sum(t.points for t in ps.ticket_results if t.points < 0),
            "express": ps.express,
            "stations": ps.stations,
            "trains_left": state.trains,
            "claims": len(state.routes),
            # At 2 trains or fewer: this seat may have started the last round
            # (the final state does not say who did; two seats can both be).
            "out_of_trains": int(state.trains <= 2),
        })
    return seats, score.places, parts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--bots", default="hard,medium,medium,medium", help="levels, the studied one first")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    levels = args.bots.split(",")
    studied = levels[0]
    lineup = lineup_for(levels, args.players)
    seeds = game_seeds(args.seed, math.ceil(args.games / args.players))
    jobs = [(seeds[i // args.players], seats_for(lineup, i)) for i in range(args.games)]
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    counts: dict[str, int] = defaultdict(int)

    def add(group: str, parts: dict[str, float]) -> None:
        counts[group] += 1
        for k in PARTS:
            sums[group][k] += parts[k]

    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for seats, places, parts in pool.map(play, jobs):
            for seat, level in enumerate(seats):
                if level != studied:
                    continue
                if places[seat] == 1:
                    add(f"{studied} won", parts[seat])
                else:
                    add(f"{studied} lost", parts[seat])
                    add("the winner when it lost", parts[places.index(1)])
    report: dict[str, Any] = {"players": args.players, "games": args.games, "seed": args.seed, "bots": levels}
    print(f"{args.games} games, {args.players} players, seed {args.seed}, bots {','.join(levels)}")
    print(f"{'':26}{'seats':>6}" + "".join(f"{k:>13}" for k in PARTS))
    for group in (f"{studied} won", f"{studied} lost", "the winner when it lost"):
        n = counts[group]
        averages = {k: round(sums[group][k] / n, 2) if n else 0.0 for k in PARTS}
        print(f"{group:26}{n:>6}" + "".join(f"{averages[k]:>13}" for k in PARTS))
        report[group] = {"seats": n, **averages}
    print(json.dumps(report))


if __name__ == "__main__":
    main()
