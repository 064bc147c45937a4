"""Europe 1912's warehouses and depots through random legal play, on two
boards: after every event the train cards are all there, each once (deck,
discards, face-up row, hands, a tunnel's turned cards and the warehouses),
no replica knows a warehouse card, and the depots obey their rules
(``test_playouts.check_invariants``)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_playouts import play_checked

from p2p_ttr.engine import depots
from p2p_ttr.engine.boards import every_expanded_game, load_game
from p2p_ttr.engine.depots import refilled, warehouse_cards
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.state import GameState, Phase

BOARDS = ("europe", "usa")
SEED = 3  # a seed whose game refills the deck from the warehouses


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=st.sampled_from(BOARDS), data=st.data())
def test_train_cards_are_conserved_with_warehouses_through_random_legal_play(board: str, data: st.DataObject) -> None:
    game = load_game(board, "depots")
    n_players = data.draw(st.integers(game.rules.min_players, game.rules.max_players), label="players")
    state = play_checked(n_players, data.draw(st.integers(0, 2**32), label="seed"), game)
    assert state.over and state.depots is not None


def test_a_seeded_game_refills_the_deck_from_the_warehouses_and_keeps_every_invariant(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Random players spend their depots freely: the warehouses become the draw pile at least once."""
    refills: list[int] = []

    def counted(state: GameState) -> GameState:
        refills.append(len(warehouse_cards(state)))
        return refilled(state)

    monkeypatch.setattr(depots, "refilled", counted)
    state = play_checked(3, SEED, load_game("europe", "depots"))
    assert state.over and state.depots is not None and min(state.depots.supply) == 0
    assert refills and min(refills) > 0


@pytest.mark.parametrize("game", [g for g in every_expanded_game() if g.variant == "depots"], ids=lambda g: g.name)
def test_every_board_plays_with_depots_at_its_fewest_and_most_players(game: Game) -> None:
    """Depots on any board: with its own pieces (France's track pieces after a stocked draw, the United
    Kingdom's technologies and three-card draw, Pennsylvania's shares, Old West's markers) every invariant holds."""
    for n_players in sorted({game.rules.min_players, game.rules.max_players}):
        assert play_checked(n_players, 11, game).over


@pytest.mark.parametrize("board", ["europe", "switzerland"])
def test_both_expansions_play_together_monsters_placed_before_the_depots(board: str) -> None:
    """With Alvin & Dexter and the depots, the set-up places both monsters, then every depot, then
    seat 0 plays; every invariant holds to the end (Switzerland: its country flags in chaos too)."""
    game = load_game(board, "monsters+depots")
    assert game.variant == "depots+monsters"
    phases: list[Phase] = []

    def setup_order(before: GameState, event: object, after: GameState) -> None:
        if after.phase is not before.phase and after.phase in (Phase.MONSTERS, Phase.DEPOT_SETUP, Phase.TURN):
            phases.append(after.phase)

    state = play_checked(3, 5, game, setup_order)
    assert state.over and state.depots is not None and state.monsters is not None
    assert phases[:3] == [Phase.MONSTERS, Phase.DEPOT_SETUP, Phase.TURN]
