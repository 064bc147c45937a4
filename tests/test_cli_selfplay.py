"""`ttr selfplay`, in-process and as the real installed command."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from p2p_ttr.cli.main import main
from p2p_ttr.table.logfile import read_log, write_log


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
        [sys.executable, "-m", "p2p_ttr.cli.main", "selfplay", "--players", "2", "--seed", "1", "--json"],
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
    # In words, it says where the log went.
    again = log.with_name("again.log")
    assert main(["selfplay", "--crypto", "--players", "2", "--seed", "3", "--log", str(again)]) == 0
    assert f"the signed log is {again} (`ttr verify {again}` audits it)" in capsys.readouterr().out
    # The same entries under a header naming another game: the file mixes two games.
    game_id, entries = read_log(log)
    mixed = log.with_name("mixed.log")
    write_log(mixed, bytes(16), entries)
    assert main(["verify", str(mixed)]) == 2
    assert f"its seating opens game {game_id.hex()[:8]}" in capsys.readouterr().out


def test_log_needs_crypto(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--log", "x.log"]) == 2
    assert "--log needs --crypto" in capsys.readouterr().err


# ------------------------------------------------- where --crypto's secrets come from


def _crypto_run(args: list[str], log: object, capsys: pytest.CaptureFixture[str]) -> tuple[str, dict[str, object]]:
    assert main(["selfplay", "--crypto", "--players", "2", "--bot-level", "random", "--json", "--log", str(log),
                 *args]) == 0
    out = capsys.readouterr().out
    return out, json.loads(out.strip().splitlines()[-1])


def _secrets_in(log: object) -> tuple[bytes, set[bytes]]:
    """The game id of a crypto log, and every secret the log shows or is made
    from: each seat's identity key and deck key, seed commitment, and the
    seed and secret exponent it revealed at the end."""
    from pathlib import Path

    from p2p_ttr.table.envelope import open_envelope
    from p2p_ttr.table.logfile import read_log
    from p2p_ttr.table.messages import Audit, Keys, Seating, message_from_wire

    game_id, entries = read_log(Path(str(log)))
    found: set[bytes] = set()
    for raw in entries:
        match message_from_wire(open_envelope(raw).body):
            case Seating(seats):
                found |= {seat.identity for seat in seats}
            case Keys(key, commitment):
                found |= {key.public_key.to_bytes(256, "big"), commitment.digest}
            case Audit(seed, secret):
                found |= {seed.to_wire(), secret.x.to_bytes(32, "big")}
    assert len(found) == 2 * 5  # two seats, five each, all different
    return game_id, found


def test_crypto_selfplay_without_a_seed_takes_every_secret_from_the_os(
    tmp_path: object, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The printed seed drives the bots only: two games with the same printed
    seed share no key, seed or game id, with each other or with the game
    `--seed` replays from that number."""
    import types

    import p2p_ttr.cli.commands.selfplay as selfplay

    monkeypatch.setattr(selfplay, "secrets", types.SimpleNamespace(randbelow=lambda n: 4242))
    from pathlib import Path

    tmp = Path(str(tmp_path))
    games = []
    for i, args in enumerate([[], [], ["--seed", "4242"]]):
        out, summary = _crypto_run(args, tmp / f"{i}.log", capsys)
        assert summary["seed"] == 4242 and summary["secrets"] == ("seed" if args else "os")
        game_id, found = _secrets_in(tmp / f"{i}.log")
        assert summary["game_id"] == game_id.hex()
        games.append((game_id, found))
    for a in range(3):
        for b in range(a + 1, 3):
            assert games[a][0] != games[b][0]
            assert not games[a][1] & games[b][1]
    assert main(["selfplay", "--crypto", "--players", "2", "--bot-level", "random"]) == 0
    assert "seed 4242 (for the bots only: keys and deck from the OS" in capsys.readouterr().out


def test_crypto_selfplay_with_a_seed_replays_bit_for_bit(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    tmp = Path(str(tmp_path))
    first, summary = _crypto_run(["--seed", "8"], tmp / "a.log", capsys)
    second, _ = _crypto_run(["--seed", "8"], tmp / "b.log", capsys)
    assert summary["secrets"] == "seed"
    assert first.replace("a.log", "b.log") == second
    assert (tmp / "a.log").read_bytes() == (tmp / "b.log").read_bytes()
    assert main(["selfplay", "--crypto", "--players", "2", "--bot-level", "random", "--seed", "8"]) == 0
    assert "seed 8 (keys and deck too: a reproducible demo, not a proof)" in capsys.readouterr().out


def test_selfplay_help_says_where_the_secrets_come_from() -> None:
    result = subprocess.run([sys.executable, "-m", "p2p_ttr.cli.main", "selfplay", "--help"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    text = " ".join(result.stdout.split())
    assert "Without --seed every key, deck seed, the game id and all proof randomness come from the OS" in text
    assert "so that log is only a demo: it proves nothing to anyone who knows the seed" in text
