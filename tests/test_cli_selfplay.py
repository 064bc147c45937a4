"""`ttr selfplay`, in-process and as the real installed command."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cli.main import main


def test_json_summary_has_the_promised_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--players", "3", "--seed", "11", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["seed"] == 11 and summary["turns"] > 0 and summary["stalled"] is False
    assert set(summary["cards"]) == {"deck", "discard", "face_up"}
    assert 0 <= summary["winner"] < 3 and len(summary["players"]) == 3
    cards_on_table = summary["cards"]["deck"] + summary["cards"]["discard"] + summary["cards"]["face_up"]
    assert cards_on_table + sum(p["hand"] for p in summary["players"]) == 110
    for p in summary["players"]:
        assert set(p) >= {"name", "routes", "stations", "tickets", "trains_left", "hand", "score"}
        assert set(p["score"]) == {
            "routes", "tickets", "stations", "express", "total", "longest_path", "completed_tickets"
        }
        assert p["trains_left"] + sum(_length(r) for r in p["routes"]) == 45
        for t in p["tickets"]:
            assert set(t) == {"a", "b", "points", "completed"}
    winner = summary["players"][summary["winner"]]["score"]["total"]
    assert winner == max(p["score"]["total"] for p in summary["players"])


def _length(route: list[str]) -> int:
    from p2p_ttr.engine.board import europe

    return next(r.length for r in europe().routes_between(route[0], route[1]) if r.color == route[2])


def test_same_seed_prints_the_same_game(capsys: pytest.CaptureFixture[str]) -> None:
    main(["selfplay", "--players", "2", "--seed", "5", "--json"])
    first = capsys.readouterr().out
    main(["selfplay", "--players", "2", "--seed", "5", "--json"])
    assert capsys.readouterr().out == first


def test_readable_summary_names_the_winner(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--players", "4", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "4 bots (medium), seed 2" in out and out.rstrip().endswith("wins.")


@pytest.mark.parametrize("level", ["random", "easy", "hard"])
def test_every_bot_level_plays_a_game(level: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--players", "2", "--seed", "4", "--bot-level", level, "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["bot_level"] == level and summary["turns"] > 0


def test_bad_player_count_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--players", "7"]) == 2
    assert "--players must be 2 to 5" in capsys.readouterr().err


def test_the_installed_command_runs() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cli.main", "selfplay", "--players", "2", "--seed", "1", "--json"],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.splitlines()[-1])["seed"] == 1


def test_crypto_selfplay_writes_a_log_that_verifies(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    log = Path(str(tmp_path)) / "game.log"
    assert main(["selfplay", "--crypto", "--players", "2", "--seed", "3", "--log", str(log), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["log"] == str(log) and len(summary["game_id"]) == 32
    plain = main(["selfplay", "--players", "2", "--seed", "3", "--json"])
    assert plain == 0
    capsys.readouterr()
    assert main(["verify", str(log)]) == 0
    assert "VERIFIED" in capsys.readouterr().out


def test_log_needs_crypto(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--log", "x.log"]) == 2
    assert "--log needs --crypto" in capsys.readouterr().err
