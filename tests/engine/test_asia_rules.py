"""Legendary Asia, scenario by scenario from the rules summary
(shared/rules/other_boards.txt, "Legendary Asia"): 2-5 players and 45
trains; one long ticket and three regular ones dealt, two kept, the rest
to the box; ferries; mountain routes, whose every X sends one more car to
the Mountain Crossing for 2 points and cannot be claimed without those
cars; the Asian Explorer for the most cities in one network; ties broken
by tickets, then mountain routes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from engine_scenario import ScenarioDealer, play, position, route_on

from p2p_ttr.engine.board import LOCOMOTIVE, Route
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.cards import Deck
from p2p_ttr.engine.errors import IllegalMove
from p2p_ttr.engine.events import ClaimRoute, KeepTickets
from p2p_ttr.engine.game import Unkept
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.rules import apply, new_game
from p2p_ttr.engine.scoring import PlayerClaims, deciding_tiebreak, largest_network, score_game
from p2p_ttr.engine.state import GameState, Phase

ASIA = load_game("asia")
BOARD = ASIA.board
SHARED = Path(__file__).resolve().parents[3] / "shared" / "maps" / "legendary_asia.json"


def between(a: str, b: str, color: str | None = None) -> Route:
    return route_on(BOARD, a, b, color)


def claims_of(state: GameState, route: Route) -> list[ClaimRoute]:
    return [a for a in legal_actions(state, 0) if isinstance(a, ClaimRoute) and a.route == route.id]


@pytest.mark.skipif(not SHARED.exists(), reason="shared/maps is not beside this checkout")
def test_the_board_is_the_checked_transcription_with_its_mountain_crossings() -> None:
    shared = json.loads(SHARED.read_text())
    assert list(BOARD.cities) == shared["cities"]
    assert [(r.a, r.b, r.length, r.color, r.ferry_locomotives, r.mountain_x) for r in BOARD.routes] == [
        (r["a"], r["b"], r["length"], r["color"], r["ferry_locomotives"], r["mountain_x"]) for r in shared["routes"]]
    assert not any(r.tunnel for r in BOARD.routes)
    assert [(t.a, t.b, t.points) for t in BOARD.long_tickets] == [
        (t["a"], t["b"], t["points"]) for t in shared["tickets_long"]]
    rules = ASIA.rules
    assert (rules.min_players, rules.max_players, rules.trains, rules.stations) == (
        shared["players"]["min"], shared["players"]["max"], shared["trains_per_player"], 0)
    assert rules.mountain_car_points == shared["mountain_x_points"] == 2
    assert rules.both_sides_min_players == shared["double_routes"]["both_tracks_min_players"]
    (explorer,) = shared["bonuses"]
    assert (rules.most_cities_bonus, rules.most_cities_points) == (explorer["name"], explorer["points"])
    assert not rules.longest_path_points and not rules.globetrotter_points


def test_one_long_and_three_regular_tickets_keep_two_the_rest_to_the_box() -> None:
    state = play(new_game(ASIA, 3), dealer=ScenarioDealer())
    assert state.phase is Phase.SETUP_TICKETS
    for p in state.players:
        assert len(p.offered) == 4 and sum(r.deck is Deck.LONG for r in p.offered) == 1
    offered = state.players[0].offered
    with pytest.raises(IllegalMove, match="at least 2 tickets"):
        apply(state, KeepTickets(0, offered[:1], offered[1:]))
    pile = state.ticket_pile
    after = apply(state, KeepTickets(0, offered[:2], offered[2:]))
    assert after.awaiting is None and after.ticket_pile == pile  # to the box, not under the deck
    assert ASIA.rules.setup_tickets.unkept is Unkept.BOX and ASIA.rules.draw_tickets.unkept is Unkept.BOTTOM
    assert (ASIA.rules.draw_tickets.size, ASIA.rules.draw_tickets.keep_min) == (3, 1)


def test_a_mountain_route_takes_a_car_per_x_besides_its_spaces() -> None:
    route = between("Hanoi", "Mandalay")  # red, 2 spaces, 2 X
    assert (route.length, route.mountain_x, route.cars) == (2, 2, 4)
    state, _ = position(game=ASIA, hands={0: ["red", "red"]})
    after = play(state, ClaimRoute(0, route.id, state.players[0].hand))
    assert after.route_owner[route.id] == 0 and after.players[0].trains == 45 - 4
    assert not after.players[0].hand  # the X cost cars, not cards


def test_without_the_cars_for_every_x_a_mountain_route_cannot_be_claimed() -> None:
    route = between("Hanoi", "Mandalay")
    state, _ = position(game=ASIA, hands={0: ["red", "red"]}, trains={0: 3})
    assert not claims_of(state, route)
    with pytest.raises(IllegalMove, match="needs 4 trains .2 and 2 for its mountain crossings.; player 0 has 3"):
        apply(state, ClaimRoute(0, route.id, state.players[0].hand))
    state, _ = position(game=ASIA, hands={0: ["red", "red"]}, trains={0: 4})
    assert claims_of(state, route)


def test_each_car_sent_to_the_mountain_crossing_scores_two() -> None:
    hanoi = between("Hanoi", "Mandalay")  # 2 spaces (2 points) and 2 X (4 points)
    plain = between("Agra", "Bombay")  # no X
    score = score_game(ASIA, [PlayerClaims((hanoi.id, plain.id), (), ()), PlayerClaims((), (), ())])
    mine = score.players[0]
    assert (mine.routes, mine.mountains, mine.mountain_routes) == (2 + 2, 4, 1)
    assert mine.total == 4 + 4 + ASIA.rules.most_cities_points  # and the Asian Explorer: the only network


def test_a_gray_track_beside_a_mountain_track_is_an_ordinary_route() -> None:
    doubles = [(r, BOARD.routes[r.twin]) for r in BOARD.routes if r.twin is not None and r.mountain_x]
    assert doubles
    mixed = [(m, o) for m, o in doubles if not o.mountain_x]
    for mountain, other in mixed:
        assert other.cars == other.length  # only the track with the X is a mountain route


def test_a_ferry_needs_a_locomotive_for_each_icon() -> None:
    ferry = between("Kobe", "Seoul")  # gray 2, one locomotive
    assert ferry.ferry_locomotives == 1
    state, _ = position(game=ASIA, hands={0: ["red", "red"]})
    assert not claims_of(state, ferry)
    state, _ = position(game=ASIA, hands={0: ["red", LOCOMOTIVE]})
    assert claims_of(state, ferry)


def test_the_asian_explorer_counts_cities_of_one_network_branches_and_loops_included() -> None:
    # A branching network: Agra to Bombay, Calcutta and Karachi (4 cities),
    # beside a loop of three cities elsewhere is a separate, smaller network.
    star = tuple(between("Agra", city).id for city in ("Bombay", "Calcutta", "Karachi"))
    assert largest_network(BOARD, star) == 4
    loop = (between("Tbilisi", "Tehran").id, between("Ankara", "Tbilisi").id)
    assert largest_network(BOARD, star + loop) == 4
    assert largest_network(BOARD, ()) == 0
    score = score_game(ASIA, [PlayerClaims(star, (), ()), PlayerClaims(loop, (), ()), PlayerClaims((), (), ())])
    assert [p.network_cities for p in score.players] == [4, 3, 0]
    assert [p.most_cities for p in score.players] == [10, 0, 0]


def test_tied_explorers_all_score_the_full_bonus() -> None:
    one = (between("Agra", "Bombay").id,)
    other = (between("Agra", "Calcutta").id,)
    score = score_game(ASIA, [PlayerClaims(one, (), ()), PlayerClaims(other, (), ()), PlayerClaims((), (), ())])
    assert [p.most_cities for p in score.players] == [10, 10, 0]


def test_ties_go_to_the_most_tickets_then_the_most_mountain_routes() -> None:
    mountain = between("Agra", "Kathmandu")  # purple 2 with 1 X: 2 + 2 points
    three = next(r for r in BOARD.routes if r.length == 3 and not r.mountain_x and not r.ferry_locomotives)
    assert BOARD.route_points[3] == 4
    # Seat 0 with the plain route, seat 1 with the mountain route: 4 points and a
    # two-city network (the Asian Explorer, shared) each, no ticket either.
    score = score_game(ASIA, [PlayerClaims((three.id,), (), ()), PlayerClaims((mountain.id,), (), ())])
    assert [p.total for p in score.players] == [14, 14]
    assert score.ranking == (1, 0) and score.places == (2, 1)
    assert deciding_tiebreak(score.players[1], score.players[0]) == "mountain routes"
    # A completed ticket comes first in the chain.
    ticket = next(t for t in BOARD.regular_tickets if {t.a, t.b} == {three.a, three.b}) if any(
        {t.a, t.b} == {three.a, three.b} for t in BOARD.regular_tickets) else None
    if ticket is not None:
        score = score_game(ASIA, [PlayerClaims((three.id,), (), (ticket.id,)), PlayerClaims((mountain.id,), (), ())])
        assert score.ranking[0] == 0
