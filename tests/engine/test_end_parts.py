"""A board's own end-of-game parts (engine/endparts.py) count in the total
before the ranking and reach every score table through score_parts, worded
by their key (client/scorewords.py) or, without words of their own, by their
title."""

from __future__ import annotations

import pytest

from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.client.endgame import breakdown
from p2p_ttr.engine import endparts, outcome
from p2p_ttr.engine.boards import europe_game
from p2p_ttr.engine.scoring import PlayerScore, ScorePart, score_parts
from p2p_ttr.engine.state import GameState
from p2p_ttr.local.game import play_local_game

EUROPE = europe_game()


@pytest.fixture(scope="module")
def finished() -> GameState:
    return play_local_game(EUROPE, 2, 5, [RandomBot(1), RandomBot(2)], record=False).final


def last_gets_bonus(state: GameState, scores: tuple[PlayerScore, ...]) -> tuple[tuple[ScorePart, ...], ...]:
    """A made-up mechanic: whoever is behind gets enough to lead by one, as 'relief'."""
    behind = min(range(len(scores)), key=lambda p: scores[p].total)
    gap = max(s.total for s in scores) - scores[behind].total + 1
    return tuple((ScorePart("relief", "Relief Fund", gap if p == behind else 0, count=p),) for p in range(len(scores)))


def test_without_a_board_mechanic_nothing_is_added(finished: GameState) -> None:
    score = outcome.final_score(finished)
    assert all(p.extra == () for p in score.players)
    assert all(part.key != "relief" for p in score.players for part in score_parts(EUROPE, p))


def test_a_mechanics_parts_count_before_the_ranking(finished: GameState, monkeypatch: pytest.MonkeyPatch) -> None:
    before = outcome.final_score(finished)
    monkeypatch.setattr(endparts, "END_SCORERS", (last_gets_bonus,))
    after = outcome.final_score(finished)
    behind = before.ranking[-1]
    assert after.ranking[0] == behind  # the part moved the last player first
    mine = after.players[behind]
    assert mine.total == before.players[behind].total + mine.extra[0].points
    assert mine.total == max(p.total for p in before.players) + 1
    assert score_parts(EUROPE, mine)[-1] == ScorePart("relief", "Relief Fund", mine.extra[0].points, behind)
    # Every other part is unchanged: stations and the express first, as always.
    assert score_parts(EUROPE, mine)[:-1] == score_parts(EUROPE, before.players[behind])


def test_the_end_page_shows_a_part_without_words_by_its_title(
        finished: GameState, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(endparts, "END_SCORERS", (last_gets_bonus,))
    page = breakdown(finished, ("Ann", "Bob"))
    header = next(line for line in page if "player" in line and "total" in line)
    assert "relief" in header
    assert sum("Relief Fund" in line for line in page) == 2  # one line per player
