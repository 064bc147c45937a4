"""Nordic Countries, scenario by scenario from the rules summary
(shared/rules/other_boards.txt, "Nordic Countries") and the board's printed
rules where it is silent (shared/maps/nordic.json's locomotive_rules)."""

from __future__ import annotations

from collections import Counter

import pytest
from engine_scenario import ScenarioDealer, hand_kinds, kind, play, position
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_ttr.engine.board import LOCOMOTIVE, Route
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.errors import IllegalMove
from p2p_ttr.engine.events import ClaimRoute, DrawFaceUp, DrawTickets, KeepTickets
from p2p_ttr.engine.moves import claim_actions, legal_actions
from p2p_ttr.engine.payments import route_payment, route_payment_problem
from p2p_ttr.engine.rules import apply, check_for_some_faces, new_game
from p2p_ttr.engine.scoring import PlayerClaims, score_game
from p2p_ttr.engine.state import Phase
from p2p_ttr.engine.view import view_for

NORDIC = load_game("nordic")
BOARD = NORDIC.board
COLOURS = BOARD.colors


def between(a: str, b: str, color: str | None = None) -> Route:
    found = [r for r in BOARD.routes_between(a, b) if color is None or r.color == color]
    assert found, f"no route {a}-{b}"
    return found[0]


def claims_of(state: object, route: Route) -> list[ClaimRoute]:
    return [a for a in legal_actions(state, 0) if isinstance(a, ClaimRoute) and a.route == route.id]  # type: ignore[arg-type]


def test_two_or_three_players_forty_trains_five_tickets_keep_two_the_rest_leave_the_game() -> None:
    with pytest.raises(ValueError, match="Nordic Countries is for 2 to 3 players, not 4"):
        new_game(NORDIC, 4)
    state = play(new_game(NORDIC, 3), dealer=ScenarioDealer())
    assert state.phase is Phase.SETUP_TICKETS and [len(p.offered) for p in state.players] == [5, 5, 5]
    assert all(p.trains == 40 for p in state.players)
    pile = state.ticket_pile
    offered = state.players[0].offered
    with pytest.raises(IllegalMove, match="at least 2 tickets"):
        apply(state, KeepTickets(0, offered[:1], offered[1:]))
    after = apply(state, KeepTickets(0, offered[:2], offered[2:]))
    assert after.awaiting is None and after.ticket_pile == pile  # removed from the game, not under the deck


def test_tickets_drawn_and_not_kept_are_removed_from_the_game() -> None:
    state, _ = position(game=NORDIC, ticket_pile=[5, 6, 7, 8])
    state = play(state, DrawTickets(0))
    offered = state.players[0].offered
    after = apply(state, KeepTickets(0, offered[:1], offered[1:]))
    assert after.awaiting is None and after.current == 1 and len(after.ticket_pile) == 1


def test_two_face_up_locomotives_may_be_taken() -> None:
    state, _ = position(game=NORDIC, face_up=["locomotive", "locomotive", "blue", "green", "black"],
                        draw_pile=["white"] * 4)
    state = play(state, DrawFaceUp(0, 0))
    assert state.current == 0  # a face-up locomotive is one card here
    state = play(state, DrawFaceUp(0, 1))
    assert hand_kinds(state, 0) == [LOCOMOTIVE, LOCOMOTIVE] and state.current == 1


def test_three_face_up_locomotives_stay() -> None:
    state, _ = position(game=NORDIC, face_up=["locomotive", "locomotive", "red", "blue", "green"],
                        draw_pile=["locomotive", "white", "white"])
    state = play(state, DrawFaceUp(0, 2))  # the refill turns a third locomotive: no new row on this board
    assert [kind(state, r) for r in state.face_up if r].count(LOCOMOTIVE) == 3 and not state.discard


def test_locomotives_pay_only_for_tunnels_and_ferries() -> None:
    plain = next(r for r in BOARD.routes if not r.tunnel and not r.ferry_locomotives and r.color != "gray"
                 and r.length == 2 and not r.stand_in)
    state, _ = position(game=NORDIC, hands={0: [plain.color, LOCOMOTIVE]})
    assert not claims_of(state, plain)
    with pytest.raises(IllegalMove, match="locomotives pay only for tunnels and ferries"):
        apply(state, ClaimRoute(0, plain.id, state.players[0].hand))
    tunnel = next(r for r in BOARD.routes if r.tunnel and r.length == 2 and r.color != "gray")
    state, _ = position(game=NORDIC, hands={0: [tunnel.color, LOCOMOTIVE]})
    assert claims_of(state, tunnel)


def test_three_cards_of_any_kind_stand_in_for_a_ferrys_locomotive() -> None:
    ferry = next(r for r in BOARD.routes if r.ferry_locomotives == 1 and r.color != "gray" and r.length == 2)
    other = [c for c in COLOURS if c != ferry.color]
    state, _ = position(game=NORDIC, hands={0: [ferry.color, other[0], other[1], other[2]]})
    claims = claims_of(state, ferry)
    assert claims, "a colour card and three others pay for a one-locomotive ferry of two"
    after = play(state, ClaimRoute(0, ferry.id, state.players[0].hand))
    assert after.route_owner[ferry.id] == 0 and not after.players[0].hand
    state, _ = position(game=NORDIC, hands={0: [ferry.color, other[0], other[1]]})
    with pytest.raises(IllegalMove, match="needs 2 cards"):
        apply(state, ClaimRoute(0, ferry.id, state.players[0].hand))
    # Only the ferry's locomotives may be stood in for, not its coloured spaces.
    state, _ = position(game=NORDIC, hands={0: [LOCOMOTIVE] + other[:3] + other[3:6]})
    with pytest.raises(IllegalMove):
        apply(state, ClaimRoute(0, ferry.id, state.players[0].hand))


def test_lieksa_murmansk_takes_any_four_cards_for_one_and_scores_27() -> None:
    route = between("Lieksa", "Murmansk")
    assert route.length == 9 and route.stand_in == 4 and BOARD.route_points[9] == 27
    # The rules' example: 7 green cards and 8 other cards.
    others = ["red", "red", "blue", "blue", "white", "white", "black", "yellow"]
    state, _ = position(game=NORDIC, hands={0: ["green"] * 7 + others})
    assert claims_of(state, route)
    after = play(state, ClaimRoute(0, route.id, state.players[0].hand))
    assert after.route_owner[route.id] == 0
    score = score_game(NORDIC, [PlayerClaims((route.id,), (), ()), PlayerClaims((), (), ())])
    assert score.players[0].routes == 27
    state, _ = position(game=NORDIC, hands={0: ["green"] * 7 + others[:7]})
    with pytest.raises(IllegalMove, match="needs 9 cards"):
        apply(state, ClaimRoute(0, route.id, state.players[0].hand))


@pytest.mark.parametrize("pair", [("Kristiansand", "Stavanger"), ("Mo I Rana", "Trondheim"), ("Boden", "Kiruna")])
def test_with_two_players_one_side_of_a_double_route_with_three_both(pair: tuple[str, str]) -> None:
    sides = BOARD.routes_between(*pair)
    assert len(sides) == 2
    second = sides[1]
    hand = [LOCOMOTIVE] * second.length + ([second.color] * second.length if second.color != "gray" else ["red"] * 9)
    for n, open_ in ((2, False), (3, True)):
        state, _ = position(n_players=n, game=NORDIC, owners={sides[0].id: 1}, hands={0: hand})
        assert bool(claims_of(state, second)) == open_, (pair, n)


def test_the_globetrotter_scores_ten_and_there_is_no_longest_path() -> None:
    # A ticket and a way to it: the fewest routes, breadth first.
    ticket = BOARD.tickets[0]
    came: dict[str, tuple[str, int] | None] = {ticket.a: None}
    queue = [ticket.a]
    for city in queue:
        for r in BOARD.routes_at[city]:
            nxt = BOARD.routes[r].other_end(city)
            if nxt not in came:
                came[nxt] = (city, r)
                queue.append(nxt)
    way, at = [], ticket.b
    while (step := came[at]) is not None:
        at, r = step
        way.append(r)
    score = score_game(NORDIC, [PlayerClaims(tuple(way), (), (ticket.id,)), PlayerClaims((), (), ())])
    assert [p.express for p in score.players] == [0, 0]  # no Longest Path on this board
    assert [p.globetrotter for p in score.players] == [10, 0]


def test_a_claim_with_hidden_cards_on_a_plain_route_is_accepted_for_some_faces() -> None:
    plain = next(r for r in BOARD.routes if not r.tunnel and not r.ferry_locomotives and r.color != "gray"
                 and not r.stand_in)
    state, _ = position(game=NORDIC, hands={0: [plain.color] * plain.length})
    check_for_some_faces(view_for(state, 1), ClaimRoute(0, plain.id, state.players[0].hand))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(list(COLOURS) + [LOCOMOTIVE]), min_size=1, max_size=16),
       st.sampled_from([r.id for r in BOARD.routes if r.ferry_locomotives or r.stand_in]))
def test_every_stand_in_claim_offered_is_read_back_as_legal(kinds: list[str], route_id: int) -> None:
    """What move generation offers, the engine accepts: each claim's cards, read
    by the one reading apply uses, pay for the route."""
    state, _ = position(game=NORDIC, hands={0: kinds})
    route = BOARD.routes[route_id]
    for claim in claim_actions(state, 0):
        if claim.route != route_id:
            continue
        paid = Counter(BOARD.card_kind(state.face(r) or 0) for r in claim.cards)
        read = route_payment(NORDIC, route, paid.elements())
        assert not isinstance(read, str), read
        assert route_payment_problem(NORDIC, route, read) is None
        play(state, claim)  # and apply takes it
