"""Tournaments: seat rotation, statistics, reproducibility, the command, and a strength check."""

from __future__ import annotations

import argparse
import json
import re

import pytest

from p2p_ttr.cli.commands import tournament as command
from p2p_ttr.cli.registry import UsageError
from p2p_ttr.engine.boards import europe_game
from p2p_ttr.local.tournament import (
    GameRecord,
    aggregate,
    lineup_for,
    play_tournament,
    seats_for,
    wilson_interval,
)


def test_lineup_cycles_the_levels_given() -> None:
    assert lineup_for(["hard", "medium"], 4) == ("hard", "medium", "hard", "medium")
    assert lineup_for(["hard"], 3) == ("hard", "hard", "hard")
    with pytest.raises(ValueError):
        lineup_for(["hard", "medium", "easy"], 2)
    with pytest.raises(ValueError):
        lineup_for(["grandmaster"], 2)


def test_seats_rotate_so_no_level_keeps_seat_zero() -> None:
    lineup = ("hard", "medium", "medium", "medium")
    firsts = [seats_for(lineup, g)[0] for g in range(4)]
    assert firsts.count("hard") == 1
    assert sorted(seats_for(lineup, 1)) == sorted(lineup)


def test_ties_share_the_win() -> None:
    record = GameRecord(0, 1, ("a", "b"), (50, 50), (1, 1), (2, 2), (0, 1), (10, 12), 80)
    (a, b) = aggregate(("a", "b"), [record])
    assert a.wins == b.wins == 0.5 and a.games == b.games == 1
    assert a.average(a.failed) == 0 and b.average(b.longest) == 12


def test_wilson_interval_brackets_the_rate() -> None:
    lo, hi = wilson_interval(90, 100)
    assert lo < 0.9 < hi and 0.8 < lo and hi < 0.96
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_same_seed_same_results() -> None:
    a = play_tournament(europe_game(), 2, 4, ["medium", "easy"], seed=5).to_json()
    b = play_tournament(europe_game(), 2, 4, ["medium", "easy"], seed=5).to_json()
    assert a == b
    assert a["tournament"] == {"players": 2, "games": 4, "seed": 5, "bots": ["medium", "easy"], "game": "europe"}
    assert set(a["levels"]) == {"medium", "easy"}
    medium = a["levels"]["medium"]
    assert medium["games"] == 4
    assert set(medium) == {
        "games", "wins", "win_rate", "win_rate_ci95", "avg_score",
        "avg_completed_tickets", "avg_failed_tickets", "avg_longest_path",
    }
    assert a["levels"]["medium"]["wins"] + a["levels"]["easy"]["wins"] == pytest.approx(4)


def test_games_in_parallel_give_the_same_results() -> None:
    """Two worker processes play the games; every game depends only on its seed and seats."""
    seen: list[int] = []
    one = play_tournament(europe_game(), 3, 6, ["easy", "random"], seed=8)
    two = play_tournament(europe_game(), 3, 6, ["easy", "random"], seed=8, workers=2, on_game=lambda g: seen.append(g.index))
    assert two == one
    assert sorted(seen) == list(range(6))
    with pytest.raises(ValueError, match="worker"):
        play_tournament(europe_game(), 2, 2, ["easy"], seed=1, workers=0)


def test_medium_beats_easy() -> None:
    """A smoke check of strength: 20 two-player games."""
    result = play_tournament(europe_game(), 2, 20, ["medium", "easy"], seed=2024)
    medium = result.levels[0]
    assert medium.level == "medium" and medium.win_rate >= 0.7


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_command_prints_a_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert command.run(_args("--players", "3", "--games", "3", "--bots", "medium,random", "--seed", "4")) == 0
    text = capsys.readouterr().out
    assert "medium" in text and "random" in text and "win rate" in text
    assert command.run(_args("--players", "3", "--games", "3", "--bots", "medium,random", "--seed", "4", "--json")) == 0
    first = capsys.readouterr().out.strip().splitlines()[-1]
    assert command.run(_args("--players", "3", "--games", "3", "--bots", "medium,random", "--seed", "4", "--json")) == 0
    second = capsys.readouterr().out.strip().splitlines()[-1]
    assert first == second
    data = json.loads(first)
    assert data["tournament"]["bots"] == ["medium", "random", "medium"]
    assert data["levels"]["medium"]["games"] == 6 and data["levels"]["random"]["games"] == 3


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--players", "6", "--bots", "easy"], "--players must be 2 to 5 for Europe, not 6"),
        (["--players", "1", "--bots", "easy"], "--players must be 2 to 5 for Europe, not 1"),
        (["--games", "0", "--bots", "easy"], "--games"),
        (["--bots", "easy,wizard"], "unknown bot level"),
        (["--players", "2", "--bots", "easy,medium,hard"], "--players is 2"),
        (["--bots", "easy,,medium"], "separated by commas"),
        (["--bots", "easy", "--workers", "0"], "--workers"),
    ],
)
def test_bad_arguments_are_usage_errors(argv: list[str], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        command.run(_args(*argv))


def test_missing_bots_is_refused_by_the_parser() -> None:
    with pytest.raises(SystemExit) as exc:
        _args("--players", "2")
    assert exc.value.code == 2


def test_progress_names_the_seat_and_level_of_each_score(capsys: pytest.CaptureFixture[str]) -> None:
    assert command.run(_args("--players", "2", "--games", "2", "--bots", "easy,random", "--seed", "4",
                             "--progress")) == 0
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2
    # Seats rotate: each game names which level sat where.
    assert re.search(r"^game 1/2 \(seed \d+\): \w+ won; seat 1 \(easy\) -?\d+, seat 2 \(random\) -?\d+$", lines[0])
    assert re.search(r"seat 1 \(random\) -?\d+, seat 2 \(easy\) -?\d+$", lines[1])
