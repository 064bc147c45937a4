"""The caretaker (how a forfeited seat plays on) as a player of whole games."""

from __future__ import annotations

import pytest
from engine_scenario import kind, position

from p2p_ttr.engine.boards import europe_game
from p2p_ttr.engine.board import europe
from p2p_ttr.engine.caretaker import caretaker_move
from p2p_ttr.engine.events import Action, BuildStation, ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Pass
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.state import GameState
from p2p_ttr.local.game import play_local_game

EUROPE = europe_game()

CITIES = europe().cities


class CheckedCaretaker:
    """Plays the caretaker's move and checks the policy's promises on the way."""

    def __init__(self) -> None:
        self.claims = 0

    def choose(self, view: GameState, player: int) -> Action:
        move = caretaker_move(view, player)
        assert move is not None
        assert move == caretaker_move(view, player)  # no hidden state, no randomness
        legal = legal_actions(view, player)
        assert move in legal
        if isinstance(move, BuildStation):  # only when nothing else is left to do
            assert not any(isinstance(a, (ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets)) for a in legal)
        claims = [a for a in legal if isinstance(a, ClaimRoute)]
        if claims:
            routes = europe().routes
            assert isinstance(move, ClaimRoute)
            assert routes[move.route].length == max(routes[a.route].length for a in claims)
            self.claims += 1
        if isinstance(move, KeepTickets):
            assert len(move.keep) == min(len(a.keep) for a in legal if isinstance(a, KeepTickets))
        return move


@pytest.mark.parametrize("n", [2, 3, 5])
def test_caretakers_play_whole_games_by_the_policy(n: int) -> None:
    bots = [CheckedCaretaker() for _ in range(n)]
    game = play_local_game(EUROPE, n, seed=n, bots=bots)
    assert game.final.over
    assert all(b.claims > 0 for b in bots)


def test_with_nothing_to_draw_or_claim_the_caretaker_builds_a_station_rather_than_pass() -> None:
    """Passing is for a player who can do nothing else (rules version 3): the
    caretaker builds in the first free city in board order, paid like a route."""
    state, _ = position(hands={0: ["red", "blue", "locomotive"]}, trains={0: 0}, stations={1: [CITIES[0]]},
                        face_up=[None] * 5, draw_pile=[], discard=[], ticket_pile=[])
    move = caretaker_move(state, 0)
    assert isinstance(move, BuildStation) and move.city == CITIES[1]
    assert [kind(state, r) for r in move.cards] in (["red"], ["blue"])  # no locomotive when a colour pays
    state, _ = position(hands={0: []}, trains={0: 0}, face_up=[None] * 5, draw_pile=[], discard=[], ticket_pile=[])
    assert caretaker_move(state, 0) == Pass(0)
