"""A game's log replayed move by move (p2p_ttr/client/replay.py), and
opened with the secrets its audit revealed (p2p_ttr/table/opened.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from p2p_ttr.cli.main import main
from p2p_ttr.client.replay import replay
from p2p_ttr.client.watchscreen import WatchModel, screen_text
from p2p_ttr.engine.outcome import final_score
from p2p_ttr.table.logfile import write_log
from p2p_ttr.table.verify import verify_entries

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))
from test_net_parts import game  # noqa: E402 (a finished 2-seat game, cached for the session)


def test_the_replay_reaches_the_end_the_audit_scores() -> None:
    played = replay(game().log)
    assert not played.stopped and played.entries == len(game().log)
    last = played.moves[-1].snap.view
    assert last is not None and last.over and played.moves[-1].entry == len(game().log) - 1
    verdict = verify_entries(game().log)
    assert verdict.score is not None and final_score(last) == verdict.score


def test_every_move_tells_something_and_turns_only_go_forward() -> None:
    played = replay(game().log)
    told = [m.snap.noted for m in played.moves]
    assert told == sorted(set(told))  # each move says something new
    turns = [played.turn_of(i) for i in range(len(played.moves))]
    assert turns == sorted(turns) and turns[-1] >= 20
    for turn in (1, 5, turns[-1] // 2, turns[-1]):
        at = played.move_of_turn(turn)
        assert played.turn_of(at) >= turn and (at == 0 or played.turn_of(at - 1) < turn)
    assert played.move_of_turn(10_000) == len(played.moves) - 1
    assert played.where(0) == f"move 1 of {len(played.moves)} · entry {played.moves[0].entry + 1} of {played.entries}"


def test_closed_the_replay_shows_no_hidden_card_opened_it_shows_each_seat_its_own_cards() -> None:
    played = replay(game().log)
    assert played.can_open
    for at in range(0, len(played.moves), 7):
        view = played.snapshot(at).view
        assert view is not None and not view.private  # what a watcher saw: no hand
    # At the end each seat's own table read its hand: the opened replay reads the same faces.
    opened = played.snapshot(len(played.moves) - 1, opened=True).view
    assert opened is not None
    for peer in game().peers:
        own = peer.table.engine
        assert own is not None and peer.table.me is not None
        seat = peer.table.me.seat
        for ref in own.players[seat].hand + own.players[seat].tickets:
            assert opened.face(ref) == own.face(ref) is not None
    text = screen_text(WatchModel(played.snapshot(len(played.moves) // 2, opened=True)), 160, 45)
    assert "HANDS AND TICKETS" in text and "Anna:" in text and "Boris:" in text


def test_a_log_that_stops_mid_game_replays_to_where_it_stops_and_cannot_be_opened() -> None:
    half = game().log[: len(game().log) // 2]
    played = replay(half)
    last = played.moves[-1].snap.view
    assert not played.can_open and last is not None and not last.over and played.moves[-1].entry < len(half)


def log_file(tmp_path: Path, entries: list[bytes]) -> Path:
    path = tmp_path / "game.log"
    game_id = game().peers[0].table.game_id
    assert game_id is not None
    write_log(path, game_id, entries)
    return path


def test_ttr_replay_json_ends_where_the_game_ended(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(log_file(tmp_path, game().log)), "--json"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["over"] and out["entries"] == len(game().log) and out["stopped"] is None
    verdict = verify_entries(game().log)
    assert verdict.score is not None
    assert [p["score"]["total"] for p in out["summary"]["players"]] == [s.total for s in verdict.score.players]


def test_ttr_replay_in_words_opened_and_not(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = log_file(tmp_path, game().log)
    assert main(["replay", str(path), "--plain", "--turn", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("[move ") and "turn 3]" in out.splitlines()[0]
    # Each move under the turn it was made in: the turns never go back and never skip one.
    headers = [line for line in out.splitlines() if line.startswith("[move ")]
    turns = [int(h.rsplit("turn ", 1)[1].rstrip("]")) for h in headers]
    assert turns == sorted(turns) and all(b - a <= 1 for a, b in zip(turns, turns[1:]))
    assert "  (nothing told)" not in out
    assert "\n    1 Anna: " not in out and "The end" in out and "VERIFIED" in out
    assert main(["replay", str(path), "--plain", "--open"]) == 0
    assert "\n    1 Anna: " in capsys.readouterr().out  # every move, each hand


def test_ttr_replay_open_needs_every_secret(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = log_file(tmp_path, game().log[: len(game().log) // 2])
    assert main(["replay", str(path), "--open"]) == 1
    assert "--open needs a finished game" in capsys.readouterr().err
    (tmp_path / "junk.log").write_bytes(b"not a log")
    assert main(["replay", str(tmp_path / "junk.log")]) == 2


def test_a_seat_the_table_plays_is_told_after_the_turn_before_it_not_inside_it() -> None:
    """A seat that forfeited is played by the fold the moment the turn
    before it ends, in the same entry as that turn's last card: its moves
    are told after that card, never inside the other player's turn ('Boris
    drew 1 card / Chiara went for the tunnel ... / Boris drew 1 card')."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "table"))
    from test_forfeit import game as forfeit_game  # Chiara (seat 3) forfeits at turn 5

    played = replay(list(forfeit_game(3, 2, 5).log))
    text = [words for _, words in played.moves[-1].snap.log]
    names = [s.name for s in played.table.seats]

    def seat(line: str) -> str:
        return line.split()[0] if line.split() and line.split()[0] in names else ""

    inside = [text[i - 1:i + 2] for i in range(1, len(text) - 1)
              if seat(text[i - 1]) and seat(text[i - 1]) == seat(text[i + 1]) != seat(text[i]) and seat(text[i])
              and "drew 1 card" in text[i - 1] and "drew 1 card" in text[i + 1]]
    assert any(line.startswith("Chiara ") for line in text[-150:]), text[-20:]  # the table plays Chiara's seat
    assert not inside, inside


def test_e_shows_the_score_and_e_again_the_table() -> None:
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from p2p_ttr.cli.tui.viewer import ReplayScreen

    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        screen = ReplayScreen(replay(game().log), the_end=lambda: ("The end", ["FINAL SCORE"]))
        screen.toggle_score()
        assert screen.page is not None and screen.page.title == "The end"
        screen.toggle_score()
        assert screen.page is None
