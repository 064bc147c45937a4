"""Where the expert departs from its prior (the hard bot's move), and by how much.

    python bench/expert_overrides.py [--games 100] [--seed 5] [--against medium] [--workers 2]

Plays 2-player games of one expert against one bot of another level (seats
alternating) and records every search whose chosen move is not the prior's:
its phase, the kind of move each proposed (a ticket choice by how many it
keeps), the mean margin the search found for the switch, and for ticket
choices the trains their plans need. The table says which of the expert's
searches change the game and in which direction, so a rule the search keeps
finding can be tried in hard itself (without the rollouts). The last line is
one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from p2p_ttr.bots.expert import ExpertBot
from p2p_ttr.bots.planning import plan_tickets, ticket_ids
from p2p_ttr.engine.events import Action, KeepTickets
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.local.game import play_local_game
from p2p_ttr.local.tournament import game_seeds, seat_bots


@dataclass(frozen=True)
class Override:
    """One search that chose another move than the prior's."""

    phase: str
    prior: str
    chosen: str
    gain: float  # the chosen move's mean margin less the prior's, in points
    prior_trains: int  # ticket choices: the trains the kept tickets' plan needs (0 otherwise)
    chosen_trains: int


def kind_of(action: Action) -> str:
    if isinstance(action, KeepTickets):
        return f"keep {len(action.keep)}"
    return type(action).__name__


class Watched:
    """The expert, with every override of its prior written down."""

    def __init__(self, bot: ExpertBot, seen: list[Override]) -> None:
        self.bot, self.seen, self.name = bot, seen, bot.name

    def choose(self, view: GameState, player: int) -> Action:
        action = self.bot.choose(view, player)
        last = self.bot.last
        if last is not None and last.chosen != last.candidates[0]:
            prior = last.candidates[0]
            gain = last.means[last.candidates.index(last.chosen)] - last.means[0]
            trains = (self.plan_trains(view, player, prior), self.plan_trains(view, player, last.chosen))
            self.seen.append(Override(view.phase.name, kind_of(prior), kind_of(last.chosen), round(gain, 2), *trains))
        return action

    def plan_trains(self, view: GameState, player: int, action: Action) -> int:
        if not isinstance(action, KeepTickets):
            return 0
        me = view.players[player]
        costs = self.bot.prior.route_costs(view, player)
        tickets = tuple(ticket_ids(view, me.tickets)) + tuple(ticket_ids(view, action.keep))
        return plan_tickets(costs, tickets, me.routes, me.trains).trains


def play(job: tuple[int, int, str]) -> list[Override]:
    """One game, seeded as the tournament's (``seat_bots``), the expert in seat ``index % 2``."""
    index, game_seed, against = job
    seats = ("expert", against) if index % 2 == 0 else (against, "expert")
    bots = seat_bots(game_seed, seats)
    seen: list[Override] = []
    at = seats.index("expert")
    expert = bots[at]
    assert isinstance(expert, ExpertBot)
    bots[at] = Watched(expert, seen)
    play_local_game(2, game_seed, bots, record=False)
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--against", default="medium", help="the other seat's level")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    seeds = game_seeds(args.seed, (args.games + 1) // 2)
    jobs = [(i, seeds[i // 2], args.against) for i in range(args.games)]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        found = [o for game in pool.map(play, jobs) for o in game]
    groups: dict[tuple[str, str, str], list[Override]] = defaultdict(list)
    for o in found:
        groups[(o.phase, o.prior, o.chosen)].append(o)
    print(f"{args.games} games, 2 players, expert against {args.against}, seed {args.seed}: {len(found)} overrides")
    print(f"{'phase':<15}{'prior':<14}{'chosen':<14}{'times':>6}{'mean gain':>11}{'trains prior':>14}{'chosen':>8}")
    rows: list[dict[str, Any]] = []
    for (phase, prior, chosen), items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        gain = statistics.fmean(o.gain for o in items)
        trains = (statistics.fmean(o.prior_trains for o in items), statistics.fmean(o.chosen_trains for o in items))
        shown = f"{trains[0]:>14.1f}{trains[1]:>8.1f}" if phase.endswith("TICKETS") else ""
        print(f"{phase:<15}{prior:<14}{chosen:<14}{len(items):>6}{gain:>11.1f}{shown}")
        rows.append({"phase": phase, "prior": prior, "chosen": chosen, "times": len(items), "mean_gain": round(gain, 2),
                     "prior_trains": round(trains[0], 1), "chosen_trains": round(trains[1], 1)})
    print(json.dumps({"games": args.games, "seed": args.seed, "against": args.against, "overrides": rows}))


if __name__ == "__main__":
    main()
