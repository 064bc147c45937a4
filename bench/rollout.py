"""How well the expert's rollout policy plays: it is the judge of every search.

    python bench/rollout.py [--players 2] [--games 400] [--seed 2026] [--against hard] [--workers 2]

The expert compares its candidate moves by playing possible worlds to the end
with ``rollout.RolloutPolicy`` for every seat. How far that quick play is
from the bots the expert really meets bounds what the search can see: a
search whose rollouts play much worse than the opponents judges positions
from games nobody will play. Here the policy sits at a table as a player
(one seat, reading only its own view, as in the rollouts), against the level
``--against`` in the other seats; the games are a tournament's (the same
deals, seats rotating, the same game seeds as ``ttr tournament``). Wins count
a shared win as a share; the interval is the 95% Wilson interval. The last
line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from p2p_ttr.bots.base import Bot
from p2p_ttr.bots.levels import LEVELS, make_bot
from p2p_ttr.bots.medium import legal_or_fallback
from p2p_ttr.bots.rollout import RolloutPolicy
from p2p_ttr.engine.events import Action
from p2p_ttr.engine.state import GameState
from p2p_ttr.local.tournament import GameRecord, aggregate, record_game, schedule

ROLLOUT = "rollout"


class RolloutSeat:
    """The rollout policy as a player: it decides from the seat's view (its own
    hand and tickets, the public cards), which is all a rollout reads of a world."""

    def __init__(self, seed: int, name: str) -> None:
        self.name = name
        self.seed = seed
        self.policy: RolloutPolicy | None = None

    def choose(self, view: GameState, player: int) -> Action:
        if self.policy is None:
            self.policy = RolloutPolicy(view.n_players, random.Random(self.seed))
        return legal_or_fallback(view, player, self.policy.choose(view, player))


def play(index: int, game_seed: int, seats: tuple[str, ...]) -> GameRecord:
    bots: list[Bot] = [
        RolloutSeat(game_seed * 8 + seat, f"{level}{seat}") if level == ROLLOUT
        else make_bot(level, game_seed * 8 + seat, f"{level}{seat}")
        for seat, level in enumerate(seats)
    ]
    return record_game(index, game_seed, seats, bots)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, choices=range(2, 6))
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--against", default="hard", choices=[level for level in LEVELS if level != "expert"],
                        help="the level in the other seats (default hard)")
    parser.add_argument("--workers", type=int, default=1, help="games played at once, one process each (default 1)")
    args = parser.parse_args()
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be at least 1")
    lineup = (ROLLOUT,) + (args.against,) * (args.players - 1)
    jobs = schedule(lineup, args.games, args.seed)
    start = time.perf_counter()
    if args.workers == 1:
        records = [play(*job) for job in jobs]
    else:
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            records = list(pool.map(play, *zip(*jobs)))
    stats = {s.level: s for s in aggregate(lineup, records)}
    mine = stats[ROLLOUT]
    lo, hi = mine.win_interval()
    seconds = time.perf_counter() - start
    print(f"the rollout policy against {args.players - 1} {args.against}: wins {mine.win_rate:.2%} of "
          f"{args.games} games (95% {lo:.1%}-{hi:.1%}); average score {mine.average(mine.score):.1f} against "
          f"{stats[args.against].average(stats[args.against].score):.1f}  [{seconds:.0f} s]")
    out: dict[str, Any] = {
        "bench": "rollout", "players": args.players, "games": args.games, "seed": args.seed,
        "against": args.against, "win_rate": round(mine.win_rate, 4), "ci95": [round(lo, 4), round(hi, 4)],
        "avg_score": {level: round(s.average(s.score), 1) for level, s in stats.items()},
        "seconds": round(seconds, 1),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
