"""Setup and drawing train cards."""

from __future__ import annotations

from typing import Any

import pytest
from engine_scenario import BOARD, ScenarioDealer, hand_kinds, kind, play, position, route

from p2p_ttr.engine.boards import europe_game
from p2p_ttr.engine.board import LOCOMOTIVE
from p2p_ttr.engine.cards import Deck
from p2p_ttr.engine.errors import IllegalMove, OutOfTurn
from p2p_ttr.engine.events import BuildStation, ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Pass
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.rules import actors, apply, check_for_some_faces, new_game
from p2p_ttr.engine.state import NeedShuffle, Phase
from p2p_ttr.engine.view import view_for
from p2p_ttr.local.dealer import LocalDealer

EUROPE = europe_game()


def _set_up(n: int, seed: int = 1):  # type: ignore[no-untyped-def]
    dealer = LocalDealer(seed)
    state = new_game(EUROPE, n)
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
        assert ps.trains == EUROPE.rules.trains and ps.stations_left == EUROPE.rules.stations
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


COLOURS = ("purple", "blue", "orange", "white", "green", "yellow", "black", "red")


def _colours(n: int, skip: int = 0) -> list[str]:
    """``n`` non-locomotive kinds, round the colours (so no colour runs out)."""
    return [COLOURS[(skip + i) % len(COLOURS)] for i in range(n)]


def test_three_face_up_locomotives_are_redealt_as_often_as_it_takes() -> None:
    # "If, at any time, 3 of the 5 face-up cards are locomotives, discard all 5
    # and deal 5 new cards": four bad rows in a row, plenty of cards left.
    bad_row = [LOCOMOTIVE] * 3 + ["white", "yellow"]
    good_row = ["purple", "blue", "orange", "black", LOCOMOTIVE]
    rest = _colours(56)
    state, _ = position(
        face_up=[LOCOMOTIVE, LOCOMOTIVE, "red", "blue", "green"],
        draw_pile=[LOCOMOTIVE] + bad_row * 3 + good_row + rest,
    )
    assert len(state.draw_pile) == 77
    dealer = ScenarioDealer()
    state = play(state, DrawFaceUp(0, 2), dealer=dealer)  # the refill turns a third locomotive
    assert [kind(state, r) for r in state.face_up] == good_row  # the fifth row, the first legal one
    assert sorted(kind(state, r) for r in state.discard) == sorted(
        [LOCOMOTIVE] * 3 + ["blue", "green"] + bad_row * 3
    )
    assert dealer.shuffled == [] and len(state.draw_pile) == len(rest)
    assert hand_kinds(state, 0) == ["red"] and state.cards_drawn == 1 and state.current == 0


def test_redealing_goes_on_through_a_reshuffle_of_the_discarded_rows() -> None:
    # The deck runs out while bad rows keep coming: the discarded rows are
    # shuffled into a new deck and the dealing goes on until a legal row.
    state, _ = position(
        face_up=[LOCOMOTIVE, LOCOMOTIVE, "red", "blue", "green"],
        draw_pile=[LOCOMOTIVE] * 4 + ["white"] + [LOCOMOTIVE] * 3 + ["white"] * 2 + [LOCOMOTIVE] * 3,
    )
    # The reshuffle deals the non-locomotives first (locomotives are ids 96..109).
    dealer = ScenarioDealer(reshuffle_key=lambda card: card)
    state = play(state, DrawFaceUp(0, 2), dealer=dealer)
    assert len(dealer.shuffled) == 1
    # Rows 2 and 3 had 4 and 3 locomotives; row 4 is the old deck's last two
    # locomotives and the first three cards of the new one.
    assert [kind(state, r) for r in state.face_up] == [LOCOMOTIVE, LOCOMOTIVE, "blue", "white", "white"]
    # The new deck was the three discarded rows.
    assert sorted(BOARD.card_kind(c) for c in dealer.shuffled[0].cards) == sorted(
        [LOCOMOTIVE] * 10 + ["blue", "green"] + ["white"] * 3
    )
    assert len(state.draw_pile) == 15 - 3
    assert state.discard == () and state.cards_drawn == 1 and state.current == 0


def test_the_row_stays_when_no_new_row_could_have_fewer_than_three_locomotives() -> None:
    # Every card left to deal is a locomotive but for the two face-up ones, so
    # a new row could never do better: redealing would never end.
    state, _ = position(
        face_up=[LOCOMOTIVE, LOCOMOTIVE, "red", "blue", "green"],
        draw_pile=[LOCOMOTIVE] * 12,
    )
    locos_first = ScenarioDealer(reshuffle_key=lambda card: -card)  # locomotives are 96..109
    state = play(state, DrawFaceUp(0, 2), dealer=locos_first)
    row = [kind(state, r) for r in state.face_up if r]
    assert row == [LOCOMOTIVE] * 5  # the row stays as dealt
    # Public facts could not rule a legal row out until the deck ran out and
    # the discarded rows (13 locomotives, blue, green) made a new deck: two
    # redeals from the old deck, a third that reshuffled, then no more.
    assert len(locos_first.shuffled) == 1
    assert len(state.draw_pile) == 15 - 4 and state.discard == ()
    assert len(state.players[0].hand) == 1 and state.cards_drawn == 1 and state.current == 0
    # Taking a face-up card refills the slot and checks again: still no redeal.
    state = play(state, DrawBlind(0), DrawFaceUp(1, 0), dealer=locos_first)
    assert [kind(state, r) for r in state.face_up] == [LOCOMOTIVE] * 5
    assert state.discard == () and len(state.draw_pile) == 9 and state.current == 0


def test_a_short_row_of_the_last_cards_is_not_redealt() -> None:
    # Three locomotives are all the cards left: a redeal would deal them again.
    state, _ = position(face_up=[LOCOMOTIVE, LOCOMOTIVE, "red", None, None], draw_pile=[LOCOMOTIVE], discard=[])
    dealer = ScenarioDealer()
    state = play(state, DrawFaceUp(0, 2), dealer=dealer)
    assert [kind(state, r) if r else None for r in state.face_up] == [LOCOMOTIVE] * 3 + [None, None]
    assert dealer.shuffled == [] and state.discard == () and state.draw_pile == ()
    assert state.current == 1  # face-up locomotives only: no second card to take


def test_empty_face_up_slots_are_filled_once_the_discards_make_a_new_deck() -> None:
    # Five cards are face up whenever cards remain. Deck and discards are empty
    # when player 0 takes two face-up cards, so their slots stay empty.
    state, _ = position(
        face_up=["red", "blue", "green", "yellow", "black"], draw_pile=[], discard=[], hands={1: ["white"] * 3}
    )
    state = play(state, DrawFaceUp(0, 0), DrawFaceUp(0, 1))
    assert state.face_up[:2] == (None, None) and state.current == 1
    paid = state.players[1].hand
    state = play(state, ClaimRoute(1, route("Frankfurt", "Paris", "white"), paid))
    assert state.discard == paid and state.face_up[:2] == (None, None)
    # A blind draw needs the discards shuffled into a new deck: the drawer gets
    # its top card, and the empty slots are filled from what follows.
    dealer = ScenarioDealer()
    state = play(state, DrawBlind(0), dealer=dealer)
    assert len(dealer.shuffled) == 1
    assert [kind(state, r) for r in state.face_up] == ["white", "white", "green", "yellow", "black"]
    blind = state.players[0].hand[2]
    assert state.face(blind) is None and BOARD.card_kind(dealer.face(state, blind)) == "white"
    assert state.draw_pile == () and state.discard == ()
    assert state.cards_drawn == 1 and state.current == 0


def test_a_refilled_row_with_three_locomotives_is_redealt() -> None:
    # Two slots were left empty when no card remained; since then cards were
    # discarded. The new deck fills them, turning a third locomotive: "discard
    # all 5 and deal 5 new cards".
    state, _ = position(
        face_up=[None, None, LOCOMOTIVE, LOCOMOTIVE, "green"],
        draw_pile=[],
        discard=[LOCOMOTIVE, LOCOMOTIVE, "white", "white", "white", "yellow"],
    )
    locos_first = ScenarioDealer(reshuffle_key=lambda card: -card)  # locomotives are 96..109
    state = play(state, DrawBlind(0), dealer=locos_first)
    (blind,) = state.players[0].hand  # the blind draw: the top of the new deck
    assert BOARD.card_kind(locos_first.face(state, blind)) == LOCOMOTIVE
    # The refill (locomotive, yellow) made three locomotives: that row went to
    # the discards, the deck's three whites and, after a second reshuffle, two
    # of the discarded row's locomotives make the new row.
    assert len(locos_first.shuffled) == 2
    assert [kind(state, r) for r in state.face_up] == ["white"] * 3 + [LOCOMOTIVE] * 2
    assert sorted(BOARD.card_kind(c) for c in locos_first.shuffled[1].cards) == sorted(
        [LOCOMOTIVE] * 3 + ["yellow", "green"]
    )
    assert len(state.draw_pile) == 3 and state.discard == ()
    assert state.cards_drawn == 1 and state.current == 0


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


NOTHING_TO_DRAW: dict[str, Any] = {"face_up": [None] * 5, "draw_pile": [], "discard": [], "ticket_pile": []}
EVERY_STATION = ["Paris", "Wien", "Roma"]


def test_a_player_who_can_still_draw_may_not_pass() -> None:
    state, _ = position(hands={0: ["red"]})
    with pytest.raises(IllegalMove, match="can still be drawn"):
        apply(state, Pass(0))
    state, _ = position(hands={0: ["red"]}, face_up=[None] * 5, draw_pile=[], discard=[])
    with pytest.raises(IllegalMove, match="tickets can still be drawn"):
        apply(state, Pass(0))


def test_you_must_perform_an_action_a_full_hand_with_nothing_to_draw_cannot_pass() -> None:
    """"A player will not be able to draw Train cards. He must then Claim a
    Route, Draw Destination Tickets or Build a Station": 55 cards and 45
    trains, nothing to draw, and the player must play them."""
    hand = [c for c in BOARD.colors for _ in range(6)] + [LOCOMOTIVE] * 7
    state, _ = position(hands={0: hand}, **NOTHING_TO_DRAW)
    assert len(state.players[0].hand) == 55 and state.players[0].trains == 45
    legal = legal_actions(state, 0)
    assert Pass(0) not in legal and any(isinstance(a, ClaimRoute) for a in legal)
    with pytest.raises(IllegalMove, match="can still be claimed"):
        apply(state, Pass(0))


def test_a_station_that_can_be_built_forbids_passing() -> None:
    state, _ = position(hands={0: ["red"]}, trains={0: 0}, **NOTHING_TO_DRAW)
    legal = legal_actions(state, 0)
    assert legal and all(isinstance(a, BuildStation) for a in legal)
    with pytest.raises(IllegalMove, match="a station can still be built"):
        apply(state, Pass(0))
    # The second station costs two cards of one colour: a red and a blue pay for none.
    state, _ = position(hands={0: ["red", "blue"]}, trains={0: 0}, stations={0: ["Paris"]}, **NOTHING_TO_DRAW)
    assert legal_actions(state, 0) == [Pass(0)]


def test_a_pass_is_judged_only_where_the_hand_is_known() -> None:
    """Another seat's view cannot tell whether a hand could play: the table
    opens the hand first (protocol.md §6), and until then a pass is refused."""
    state, _ = position(hands={0: ["red"]}, trains={0: 0}, stations={0: EVERY_STATION}, **NOTHING_TO_DRAW)
    assert legal_actions(state, 0) == [Pass(0)]
    with pytest.raises(IllegalMove, match="must show the hand"):
        apply(view_for(state, 1), Pass(0))
    check_for_some_faces(view_for(state, 1), Pass(0))  # the table lets it wait for the hand
    with pytest.raises(IllegalMove, match="can still be drawn"):
        check_for_some_faces(view_for(position(hands={0: ["red"]})[0], 1), Pass(0))


def test_passing_ends_the_game_only_when_no_player_can_act() -> None:
    stuck = {"trains": {0: 0}, "stations": {0: EVERY_STATION}, **NOTHING_TO_DRAW}
    # Seat 1 holds cards that claim a route: after seat 0's pass it must play them.
    state, _ = position(hands={0: ["red"], 1: ["blue", "blue"]}, **stuck)
    state = play(state, Pass(0))
    assert state.current == 1 and not state.over
    assert Pass(1) not in legal_actions(state, 1)
    claim = next(a for a in legal_actions(state, 1) if isinstance(a, ClaimRoute))
    state = play(state, claim)
    assert not state.over and state.passes == 0
    assert Pass(0) not in legal_actions(state, 0)  # the claim's cards are in the discards now: draw
    # Nobody can do anything: every player passes in turn and the game ends.
    state, _ = position(hands={0: ["red"]}, **stuck)
    assert legal_actions(state, 0) == [Pass(0)] and legal_actions(state.evolve(current=1), 1) == [Pass(1)]
    state = play(state, Pass(0))
    assert state.current == 1 and not state.over
    state = play(state, Pass(1))
    assert state.over and state.stalled


def test_out_of_turn_is_refused_and_changes_nothing() -> None:
    state, _ = position()
    with pytest.raises(OutOfTurn, match="player 0's"):
        apply(state, DrawBlind(1))
    assert legal_actions(state, 1) == []
