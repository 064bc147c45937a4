"""Two runs of the same tournament compared game by game: what a bot change did on the same deals.

    ttr tournament ... --seed 1 --progress 2> before.log   (then change the bot)
    ttr tournament ... --seed 1 --progress 2> after.log
    python bench/paired.py before.log after.log [--level hard]

The same seed deals the same cards in the same seats, so the runs' games
pair up one to one. For ``--level`` (default hard) it prints each run's win
rate and average margin (its score less the best other seat's), and the
paired change of the margin with its 95% interval (normal, over the games'
differences): far narrower than the interval of either win rate, since each
deal's luck cancels out. Also how many games the change turned from a loss
into a win and back. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

# "game 45/400 (seed 109289145): hard won; seat 1 (hard) 122, seat 2 (medium) 116"
GAME = re.compile(r"^game (\d+)/\d+ \(seed (\d+)\): (.*?) won; (.*)$")
SEAT = re.compile(r"seat \d+ \((\w+)\) (-?\d+)")


@dataclass(frozen=True)
class Result:
    """One game as the level saw it: its margin over the best other seat, and its share of the win."""

    margin: int
    win: float


def results(path: Path, level: str) -> dict[tuple[int, int], Result]:
    """Each game of a ``--progress`` log, by (game number, deal seed), as ``level`` saw it (its first
    seat; a win shared with another seat of the same level counts as the tournament counts it)."""
    out: dict[tuple[int, int], Result] = {}
    for line in path.read_text().splitlines():
        match = GAME.match(line)
        if match is None:
            continue
        winners = match.group(3).split(", ")  # the game's places, tie-breaks applied
        seats = [(name, int(score)) for name, score in SEAT.findall(match.group(4))]
        mine = next(score for name, score in seats if name == level)
        best = max((score for name, score in seats if name != level), default=mine)
        out[(int(match.group(1)), int(match.group(2)))] = Result(mine - best, winners.count(level) / len(winners))
    return out


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """The mean and its 95% normal interval."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(1, n - 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--level", default="hard")
    args = parser.parse_args()
    before, after = results(args.before, args.level), results(args.after, args.level)
    games = sorted(set(before) & set(after))
    if not games:
        raise SystemExit("no game is in both logs: not the same tournament?")
    win_b = sum(before[g].win for g in games) / len(games)
    win_a = sum(after[g].win for g in games) / len(games)
    margin_b = mean_interval([float(before[g].margin) for g in games])
    margin_a = mean_interval([float(after[g].margin) for g in games])
    change = mean_interval([float(after[g].margin - before[g].margin) for g in games])
    won = sum(1 for g in games if after[g].win > before[g].win)
    lost = sum(1 for g in games if after[g].win < before[g].win)
    print(f"{len(games)} games in both; {args.level} wins {win_b:.2%} before, {win_a:.2%} after "
          f"({won} games turned into wins, {lost} into losses)")
    print(f"margin over the best other seat: {margin_b[0]:+.2f} before, {margin_a[0]:+.2f} after; "
          f"paired change {change[0]:+.2f} [{change[1]:+.2f}, {change[2]:+.2f}] (95%)")
    print(json.dumps({
        "bench": "paired",
        "level": args.level,
        "games": len(games),
        "win_before": round(win_b, 4),
        "win_after": round(win_a, 4),
        "turned_won": won,
        "turned_lost": lost,
        "margin_before": round(margin_b[0], 2),
        "margin_after": round(margin_a[0], 2),
        "margin_change": round(change[0], 2),
        "margin_change_ci95": [round(change[1], 2), round(change[2], 2)],
    }))


if __name__ == "__main__":
    main()
