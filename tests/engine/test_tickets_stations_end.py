"""Destination tickets, stations, the last round and the final reveal."""

from __future__ import annotations

import pytest
from engine_scenario import play, position, route, ticket_ref

from p2p_ttr.engine.board import LOCOMOTIVE
from p2p_ttr.engine.errors import IllegalMove, OutOfTurn
from p2p_ttr.engine.events import BuildStation, ClaimRoute, DrawBlind, DrawTickets, KeepTickets
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.outcome import final_score
from p2p_ttr.engine.rules import apply
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.state import NeedRemask, NeedReveal, Phase

L = LOCOMOTIVE


def test_drawing_tickets_offers_three_and_keeps_at_least_one() -> None:
    state, _ = position(ticket_pile=[5, 6, 7, 8])
    state = play(state, DrawTickets(0))
    assert state.phase is Phase.TICKETS and state.players[0].offered == tuple(ticket_ref(t) for t in (5, 6, 7))
    offered = state.players[0].offered
    with pytest.raises(IllegalMove, match="at least 1 ticket"):
        apply(state, KeepTickets(0, (), offered))
    with pytest.raises(IllegalMove, match="exactly once"):
        apply(state, KeepTickets(0, offered[:1], offered[1:2]))
    # keep one; the other two go under the deck in the order the player chose,
    # re-masked as a new epoch of the ticket deck so no old share opens them
    keep = KeepTickets(0, offered[:1], (offered[2], offered[1]))
    asked = apply(state, keep)
    assert isinstance(asked.awaiting, NeedRemask) and asked.awaiting.refs == (offered[2], offered[1])
    assert asked.current == 0  # the turn ends once the tickets are under the deck
    after = play(state, keep)
    assert after.players[0].tickets == offered[:1]
    assert after.ticket_pile == (ticket_ref(8), CardRef(Deck.TICKETS, 1, 0), CardRef(Deck.TICKETS, 1, 1))
    assert after.current == 1 and after.ticket_epoch == 1
    # returned tickets are forgotten, as they go back face down
    assert offered[1] not in after.private and offered[2] not in after.private


def test_fewer_tickets_when_fewer_remain_and_none_when_empty() -> None:
    state, _ = position(ticket_pile=[5])
    state = play(state, DrawTickets(0))
    assert len(state.players[0].offered) == 1
    assert len(legal_actions(state, 0)) == 1  # keep it: the only choice
    empty, _ = position(ticket_pile=[])
    assert DrawTickets(0) not in legal_actions(empty, 0)
    with pytest.raises(IllegalMove, match="ticket deck is empty"):
        apply(empty, DrawTickets(0))


def test_only_the_drawer_chooses_tickets() -> None:
    state, _ = position(ticket_pile=[5, 6, 7])
    state = play(state, DrawTickets(0))
    with pytest.raises(OutOfTurn):
        apply(state, KeepTickets(1, state.players[0].offered, ()))


@pytest.mark.parametrize(
    ("built", "hand", "ok"),
    [
        ((), ["red"], True),
        ((), [L], True),
        (("Paris",), ["red", "red"], True),
        (("Paris",), ["red", L], True),
        (("Paris",), ["red", "blue"], False),
        (("Paris", "Wien"), ["red", "red", L], True),
        (("Paris", "Wien"), ["red", "red"], False),
    ],
)
def test_stations_cost_one_two_three_cards_of_a_colour(built: tuple[str, ...], hand: list[str], ok: bool) -> None:
    state, _ = position(hands={0: hand}, stations={0: built})
    action = BuildStation(0, "Berlin", state.players[0].hand)
    if ok:
        after = play(state, action)
        assert after.players[0].stations == built + ("Berlin",) and after.players[0].hand == ()
        assert after.current == 1
    else:
        with pytest.raises(IllegalMove):
            apply(state, action)


def test_one_station_per_city_and_three_at_most() -> None:
    state, _ = position(hands={0: ["red"]}, stations={1: ["Berlin"]})
    with pytest.raises(IllegalMove, match="already has a station"):
        apply(state, BuildStation(0, "Berlin", state.players[0].hand))
    state, _ = position(hands={0: ["red"] * 4}, stations={0: ["Paris", "Wien", "Roma"]})
    assert not any(isinstance(a, BuildStation) for a in legal_actions(state, 0))
    with pytest.raises(IllegalMove, match="no stations left"):
        apply(state, BuildStation(0, "Berlin", state.players[0].hand[:4]))


def test_last_round_everyone_including_the_trigger_plays_once_more() -> None:
    edinburgh_london = route("Edinburgh", "London", "black")
    state, _ = position(
        n_players=3,
        hands={0: ["black"] * 4},
        trains={0: 6, 1: 30, 2: 30},
        tickets={0: [0], 1: [1], 2: [2]},
    )
    state = play(state, ClaimRoute(0, edinburgh_london, state.players[0].hand[:4]))
    assert state.players[0].trains == 2 and state.final_turns_left == 3
    for player in (1, 2, 0):
        assert not state.over and state.current == player
        state = play(state, DrawBlind(player), DrawBlind(player))
    assert state.over
    # every held ticket was revealed to everyone for the scoring
    assert all(r in state.public for ps in state.players for r in ps.tickets)
    scores = final_score(state)
    assert scores.players[0].routes == 7  # a 4-long route


def test_the_game_waits_for_the_ticket_reveal_before_it_is_over() -> None:
    state, _ = position(trains={0: 3, 1: 30}, tickets={0: [3], 1: [4]})
    state = play(state, DrawBlind(0), DrawBlind(0), DrawBlind(1), DrawBlind(1))
    assert state.final_turns_left is None  # 3 trains left: not yet

    state, _ = position(trains={0: 2, 1: 30}, tickets={0: [3], 1: [4]})
    state = play(state, DrawBlind(0), DrawBlind(0))
    assert state.final_turns_left == 2
    state = play(state, DrawBlind(1), DrawBlind(1), DrawBlind(0))
    last = apply(state, DrawBlind(0))  # no dealer: see what the engine asks for
    assert last.phase is Phase.SCORING and isinstance(last.awaiting, NeedReveal)
    assert set(last.awaiting.refs) == {ticket_ref(3), ticket_ref(4)}
    assert not last.over and legal_actions(last, 1) == []
