"""Setup and drawing train cards."""

from __future__ import annotations

import pytest
from engine_scenario import ScenarioDealer, hand_kinds, kind, play, position

from p2p_ttr.engine.board import LOCOMOTIVE, STARTING_STATIONS, STARTING_TRAINS
from p2p_ttr.engine.cards import Deck
from p2p_ttr.engine.errors import IllegalMove, OutOfTurn
from p2p_ttr.engine.events import DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Pass
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.rules import actors, apply, new_game
from p2p_ttr.engine.state import MAX_ROW_RESETS, NeedShuffle, Phase
from p2p_ttr.local.dealer import LocalDealer


def _set_up(n: int, seed: int = 1):  # type: ignore[no-untyped-def]
    dealer = LocalDealer(seed)
    state = new_game(n)
    while (chance := dealer.answer(state)) is not None:
        state = apply(state, chance)
    for peek in dealer.peeks(state):
        state = apply(state, peek)
    return state


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_deals_what_the_rules_say(n: int) -> None:
    state = _set_up(n)
    assert state.phase is Phase.SETUP_TICKETS
    assert set(actors(state)) == set(range(n))
    for ps in state.players:
        assert ps.trains == STARTING_TRAINS and ps.stations_left == STARTING_STATIONS
        assert len(ps.hand) == 4
        assert [r.deck for r in ps.offered] == [Deck.LONG] + [Deck.TICKETS] * 3
    assert all(r is not None for r in state.face_up)
    assert len(state.draw_pile) + len(state.discard) == 110 - 4 * n - 5
    assert len(state.long_pile) == 6 - n and len(state.ticket_pile) == 40 - 3 * n


def test_starting_tickets_keep_two_or_more_and_the_rest_leave_the_game() -> None:
    state = _set_up(2)
    offered = state.players[1].offered
    with pytest.raises(IllegalMove, match="at least 2"):
        apply(state, KeepTickets(1, offered[:1], offered[1:]))
    state = apply(state, KeepTickets(1, offered[:2], offered[2:]))
    assert state.players[1].tickets == offered[:2]
    assert not set(offered[2:]) & set(state.ticket_pile)
    with pytest.raises(OutOfTurn):
        apply(state, KeepTickets(1, (), ()))
    assert state.phase is Phase.SETUP_TICKETS  # player 0 has not chosen yet
    offered0 = state.players[0].offered
    state = apply(state, KeepTickets(0, offered0, ()))
    assert state.phase is Phase.TURN and state.current == 0


def test_two_blind_cards_end_the_turn() -> None:
    state, _ = position(draw_pile=["red", "locomotive", "blue"])
    state = play(state, DrawBlind(0))
    assert state.current == 0 and state.cards_drawn == 1
    state = play(state, DrawBlind(0))  # a blind locomotive counts as one card
    assert state.current == 1
    assert len(state.players[0].hand) == 2 and len(state.draw_pile) == 1


def test_face_up_locomotive_is_the_whole_turn_and_the_slot_refills() -> None:
    state, _ = position(face_up=["locomotive", "red", "blue", "green", "black"], draw_pile=["white", "yellow"])
    state = play(state, DrawFaceUp(0, 0))
    assert state.current == 1 and hand_kinds(state, 0) == [LOCOMOTIVE]
    assert kind(state, state.face_up[0]) == "white"


def test_face_up_locomotive_cannot_be_the_second_card() -> None:
    state, _ = position(face_up=["red", "locomotive", "blue", "green", "black"], draw_pile=["white"] * 3)
    state = play(state, DrawFaceUp(0, 0))
    assert DrawFaceUp(0, 1) not in legal_actions(state, 0)
    with pytest.raises(IllegalMove, match="second card"):
        apply(state, DrawFaceUp(0, 1))
    state = play(state, DrawFaceUp(0, 2))
    assert hand_kinds(state, 0) == ["blue", "red"] and state.current == 1


def test_nothing_else_after_the_first_card() -> None:
    state, _ = position(hands={0: ["red"]})
    state = play(state, DrawBlind(0))
    assert {type(a) for a in legal_actions(state, 0)} <= {DrawBlind, DrawFaceUp}
    with pytest.raises(IllegalMove):
        apply(state, DrawTickets(0))


def test_three_face_up_locomotives_discard_the_row() -> None:
    state, _ = position(
        face_up=["locomotive", "locomotive", "red", "blue", "green"],
        draw_pile=["locomotive", "white", "white", "white", "white", "white", "yellow"],
    )
    state = play(state, DrawFaceUp(0, 2))  # the refill turns a third locomotive
    assert [kind(state, r) for r in state.face_up if r] == ["white"] * 5
    assert sorted(kind(state, r) for r in state.discard) == sorted([LOCOMOTIVE] * 3 + ["blue", "green"])
    assert state.cards_drawn == 1 and state.current == 0


def test_row_resets_stop_after_the_cap_so_the_game_goes_on() -> None:
    # Every card left to deal is a locomotive, so every new row has 3 or more.
    state, _ = position(
        face_up=["locomotive", "locomotive", "red", "blue", "green"],
        draw_pile=["locomotive"] * 12,
    )
    locos_first = ScenarioDealer(reshuffle_key=lambda card: -card)  # locomotives are 96..109
    state = play(state, DrawFaceUp(0, 2), dealer=locos_first)
    row = [kind(state, r) for r in state.face_up if r]
    assert row.count(LOCOMOTIVE) >= 3  # the row stays after MAX_ROW_RESETS redeals
    assert len(locos_first.shuffled) == 1
    # one card taken, then MAX_ROW_RESETS full rows dealt: 1 + 5 * 3 = 16 cards
    # from a 12-card pile and a reshuffle of the discarded rows
    assert len(state.players[0].hand) == 1 and state.current == 0
    assert MAX_ROW_RESETS == 3


def test_an_empty_deck_is_rebuilt_from_the_shuffled_discards() -> None:
    state, _ = position(draw_pile=["red"], discard=["blue", "green", "yellow"])
    dealer = ScenarioDealer()
    state = play(state, DrawBlind(0), DrawBlind(0), dealer=dealer)
    assert len(dealer.shuffled) == 1
    need = dealer.shuffled[0]
    assert isinstance(need, NeedShuffle) and need.epoch == 1 and len(need.cards) == 3
    assert state.epoch == 1 and state.discard == () and len(state.draw_pile) == 2
    assert state.current == 1 and len(state.players[0].hand) == 2


def test_no_card_to_draw_means_no_drawing() -> None:
    state, _ = position(face_up=[None] * 5, draw_pile=[], discard=[], ticket_pile=[])
    assert DrawBlind(0) not in legal_actions(state, 0)
    with pytest.raises(IllegalMove, match="no train cards"):
        apply(state, DrawBlind(0))


def test_a_single_card_when_only_one_is_left() -> None:
    state, _ = position(face_up=[None] * 5, draw_pile=["red"], discard=[])
    state = play(state, DrawBlind(0))
    assert state.current == 1 and len(state.players[0].hand) == 1


def test_only_a_player_with_nothing_to_draw_may_pass_and_all_passing_stalls() -> None:
    state, _ = position(hands={0: ["red"]})
    with pytest.raises(IllegalMove, match="can still be drawn"):
        apply(state, Pass(0))
    state, _ = position(face_up=[None] * 5, draw_pile=[], discard=[], ticket_pile=[])
    assert legal_actions(state, 0) == [Pass(0)]
    state = play(state, Pass(0))
    assert state.current == 1 and not state.over
    state = play(state, Pass(1))
    assert state.over and state.stalled


def test_out_of_turn_is_refused_and_changes_nothing() -> None:
    state, _ = position()
    with pytest.raises(OutOfTurn, match="player 0's"):
        apply(state, DrawBlind(1))
    assert legal_actions(state, 1) == []
