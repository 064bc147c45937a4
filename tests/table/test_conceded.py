"""The conceded ending (protocol.md §6, Conceded): once fewer than two seats
are played by their own peers, the game ends at once, is scored as at a
normal end, and the last seat in play is ranked first by concession."""

from __future__ import annotations

import functools

import pytest
from test_forfeit import forfeiting_at

from p2p_ttr.engine.boards import europe_game
from p2p_ttr.bots.levels import make_bot
from p2p_ttr.client.endgame import breakdown
from p2p_ttr.client.phrases import told
from p2p_ttr.engine.board import europe
from p2p_ttr.engine.errors import OutOfTurn
from p2p_ttr.engine.outcome import claims_of, final_score
from p2p_ttr.engine.rules import concede, new_game
from p2p_ttr.engine.scoring import score_game
from p2p_ttr.local.crypto_game import CryptoGame, play_crypto_game
from p2p_ttr.local.summary import game_summary
from p2p_ttr.table.envelope import open_envelope
from p2p_ttr.table.messages import Forfeit, message_from_wire
from p2p_ttr.table.peer import Peer
from p2p_ttr.table.table import Table
from p2p_ttr.table.verify import verify_entries

EUROPE = europe_game()

NAMES = ("Anna", "Boris", "Chiara")


@functools.cache
def everyone_else_leaves() -> CryptoGame:
    bots = [make_bot("medium", 11 + p) for p in range(3)]
    return play_crypto_game(11, bots, NAMES, [Peer, forfeiting_at(4), forfeiting_at(9)])


def test_the_last_seat_in_play_wins_by_concession() -> None:
    g = everyone_else_leaves()
    tables = [p.table for p in g.peers]
    assert all(t.complete and t.rejected == [] for t in tables)
    assert len({t.digest() for t in tables}) == 1
    table = tables[0]
    assert table.conceded and table.in_play == (0,)
    engine = table.engine
    assert engine is not None and engine.over and engine.conceded_to == 0
    # It ended at the second forfeit: no move after it.
    last = max(i for i, raw in enumerate(g.log) if isinstance(message_from_wire(open_envelope(raw).body), Forfeit))
    then = Table()
    for raw in g.log[: last + 1]:
        then.receive(raw)
    assert then.conceded and then.engine is not None and then.engine.turn == engine.turn
    score = final_score(engine)
    usual = score_game(EUROPE, claims_of(engine))
    assert score.ranking == (0,) + tuple(p for p in usual.ranking if p != 0)
    assert score.places[0] == 1 and all(score.places[p] >= 2 for p in (1, 2))
    # Every held ticket was turned over for the count, as at a normal end.
    assert all(r in engine.public for ps in engine.players for r in ps.tickets)


def test_verify_and_the_summary_say_conceded() -> None:
    g = everyone_else_leaves()
    verdict = verify_entries(g.log)
    assert verdict.fair, [f.line() for f in verdict.findings]
    assert verdict.conceded and verdict.conceded_to == 0
    engine = g.peers[0].table.engine
    assert engine is not None
    summary = game_summary(engine, NAMES)
    assert summary.conceded and summary.conceded_to == 0 and summary.winner == 0
    assert summary.to_json()["conceded"] is True and summary.to_json()["conceded_to"] == 0
    page = breakdown(engine, NAMES)
    assert "conceded" in page[0] and page[-1].startswith("Anna wins by concession")


def test_the_log_says_who_won_by_concession() -> None:
    state = new_game(EUROPE, 3)
    after = concede(state, 1)
    lines = [t.text for t in told(state, after, 0, NAMES)]
    assert any("conceded" in line and "Boris is the last one playing and wins by concession" in line
               for line in lines), lines
    mine = [t.text for t in told(state, after, 1, NAMES)]
    assert any("you are the last one playing and win by concession" in line for line in mine), mine


def test_concede_ranks_the_winner_first_and_the_rest_share_places_by_the_usual_count() -> None:
    over = concede(new_game(EUROPE, 3), 2)  # nothing dealt: no ticket to turn over, all equal
    assert over.over and over.conceded and over.awaiting is None
    score = final_score(over)
    assert score.ranking == (2, 0, 1) and score.places == (2, 2, 1)
    nobody = final_score(concede(new_game(EUROPE, 3), None))
    assert nobody.ranking == (0, 1, 2) and nobody.places == (1, 1, 1)
    with pytest.raises(OutOfTurn):
        concede(over, 0)
