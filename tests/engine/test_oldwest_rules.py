"""Old West, scenario by scenario from the rules summary
(shared/rules/other_boards.txt, "Old West"): 2-6 players and 40 trains;
every side of double and triple routes from 4 players, one side below,
one side per player always; 5 tickets keep 3, draw 4 keep 1; the
Globetrotter; 3 city markers each, the starting cities placed before the
first turn from the last player counter-clockwise, never in Roswell; claims
only from one's network; a marker after a claim for 2 cards of one colour;
route points scored at the claim, to the owners of the markers on its
ends; ferries."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from engine_scenario import ScenarioDealer, first_tickets_kept, play, position, route_on

from p2p_ttr.engine.board import LOCOMOTIVE, Route
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.caretaker import caretaker_move
from p2p_ttr.engine.citymarkers import CityMarkers
from p2p_ttr.engine.errors import IllegalMove, OutOfTurn
from p2p_ttr.engine.events import ClaimRoute, KeepTickets, MoveAlvin, PlaceMarker, PlaceStartCity, SkipMarker
from p2p_ttr.engine.game import Unkept
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.outcome import final_score
from p2p_ttr.engine.rules import apply, new_game
from p2p_ttr.engine.scoring import PlayerClaims, score_game
from p2p_ttr.engine.state import GameState, Phase

OLD_WEST = load_game("oldwest")
BOARD = OLD_WEST.board
SHARED = Path(__file__).resolve().parents[3] / "shared" / "maps" / "old_west.json"


def between(a: str, b: str, color: str | None = None) -> Route:
    return route_on(BOARD, a, b, color)


def at(n_players: int = 2, markers: dict[str, int] | None = None, **laid_out: object) -> GameState:
    """A turn of Old West laid out by ``position``, with these (city: owner) markers, starts first."""
    state, _ = position(n_players, game=OLD_WEST, **laid_out)  # type: ignore[arg-type]
    placed = tuple((markers or {}).items())
    return state.evolve(markers=CityMarkers(placed=placed, route_points=(0,) * n_players))


def claims_of(state: GameState, player: int, route: Route) -> list[ClaimRoute]:
    return [a for a in legal_actions(state, player) if isinstance(a, ClaimRoute) and a.route == route.id]


def to_start_cities(n_players: int) -> GameState:
    """A new game of ``n_players`` with every first ticket choice made (the first three kept)."""
    return first_tickets_kept(OLD_WEST, n_players, 3)


@pytest.mark.skipif(not SHARED.exists(), reason="shared/maps is not beside this checkout")
def test_the_board_and_its_rules_are_the_checked_transcription() -> None:
    shared = json.loads(SHARED.read_text())
    assert list(BOARD.cities) == shared["cities"]
    assert [(r.a, r.b, r.length, r.color, r.tunnel, r.ferry_locomotives) for r in BOARD.routes] == [
        (r["a"], r["b"], r["length"], r["color"], r["tunnel"], r["ferry_locomotives"]) for r in shared["routes"]]
    assert [(t.a, t.b, t.points) for t in BOARD.tickets] == [(t["a"], t["b"], t["points"]) for t in shared["tickets"]]
    assert BOARD.route_points == {int(k): v for k, v in shared["route_points"].items()}
    rules = OLD_WEST.rules
    assert (rules.min_players, rules.max_players, rules.trains, rules.stations) == (
        shared["players"]["min"], shared["players"]["max"], shared["trains_per_player"], 0)
    assert (rules.setup_tickets.size, rules.setup_tickets.keep_min) == (
        shared["setup"]["tickets_dealt"], shared["setup"]["tickets_keep_min"])
    assert (rules.draw_tickets.size, rules.draw_tickets.keep_min, rules.draw_tickets.unkept) == (
        shared["ticket_draw"]["draw"], shared["ticket_draw"]["keep_min"], Unkept.BOTTOM)
    assert rules.both_sides_min_players == shared["double_routes"]["all_tracks_min_players"]
    assert (rules.city_markers, rules.marker_cards) == (
        shared["city_markers"]["per_player"], shared["city_markers"]["placement_cost_cards"])
    (globetrotter,) = shared["bonuses"]
    assert rules.globetrotter_points == globetrotter["points"] and not rules.longest_path_points
    assert rules.no_start_cities == (shared["alvin"]["start_city"],)


def test_two_to_six_players_with_forty_trains() -> None:
    for n in (2, 6):
        assert all(p.trains == 40 for p in new_game(OLD_WEST, n).players)
    for n in (1, 7):
        with pytest.raises(ValueError, match="2 to 6 players"):
            new_game(OLD_WEST, n)


def test_from_four_players_every_side_of_a_triple_route_is_used_one_per_player() -> None:
    first, second, third = (BOARD.routes[i] for i in (between("Ashland", "Eugene").id, *between("Ashland", "Eugene").parallel))
    hands = {p: ["blue", "blue", "green", "green", "yellow", "yellow"] for p in range(4)}
    redding = between("Ashland", "Redding")
    state = at(4, {"Ashland": 0, "Eugene": 1, "Redding": 2, "Pueblo": 3}, hands=hands,
               owners={first.id: 0, second.id: 1, redding.id: 2})
    assert claims_of(state.evolve(current=2), 2, third)  # the third side is open to a third player...
    with pytest.raises(IllegalMove, match="already holds another side of the triple route"):
        apply(state, ClaimRoute(0, third.id, state.players[0].hand[4:6]))  # ...never to one holding a side


def test_with_two_or_three_players_only_one_side_is_used() -> None:
    ashland = between("Ashland", "Eugene")
    state = at(3, {"Ashland": 1, "Eugene": 2}, hands={1: ["green", "green"]}, owners={ashland.id: 0}, current=1)
    green = next(BOARD.routes[s] for s in ashland.parallel if BOARD.routes[s].color == "green")
    with pytest.raises(IllegalMove, match="in a game of 3, only one side of the triple route"):
        apply(state, ClaimRoute(1, green.id, state.players[1].hand))


def test_five_tickets_dealt_three_kept_the_rest_shuffled_into_the_deck() -> None:
    state = play(new_game(OLD_WEST, 2), dealer=ScenarioDealer())
    offered = state.players[0].offered
    assert len(offered) == 5
    with pytest.raises(IllegalMove, match="at least 3 tickets"):
        apply(state, KeepTickets(0, offered[:2], offered[2:]))
    after = apply(state, KeepTickets(0, offered[:3], offered[3:]))
    # Gathered until the last choice, then the whole deck is shuffled again (test_setup_mix.py).
    assert after.awaiting is None and after.returned == offered[3:]
    assert OLD_WEST.rules.setup_tickets.unkept is Unkept.SHUFFLED_IN


def test_in_game_four_tickets_drawn_one_kept() -> None:
    assert (OLD_WEST.rules.draw_tickets.size, OLD_WEST.rules.draw_tickets.keep_min) == (4, 1)


def test_starting_cities_are_placed_from_the_last_player_counter_clockwise_before_the_first_turn() -> None:
    state = to_start_cities(4)
    assert (state.phase, state.current) == (Phase.START_CITY, 3)
    with pytest.raises(OutOfTurn):
        apply(state, PlaceStartCity(0, "Denver"))
    for seat, city in zip((3, 2, 1), ("Denver", "Boise", "Tucson")):
        state = apply(state, PlaceStartCity(seat, city))
        assert state.phase is Phase.START_CITY and state.current == seat - 1
    state = apply(state, PlaceStartCity(0, "Seattle"))
    assert (state.phase, state.current) == (Phase.TURN, 0)  # then the first player starts
    assert state.markers is not None
    assert [state.markers.start_of(p) for p in range(4)] == ["Seattle", "Tucson", "Boise", "Denver"]


def test_no_starting_city_in_roswell_nor_where_a_marker_is() -> None:
    state = apply(to_start_cities(2), PlaceStartCity(1, "Denver"))
    with pytest.raises(IllegalMove, match="no starting city may be placed in Roswell"):
        apply(state, PlaceStartCity(0, "Roswell"))
    with pytest.raises(IllegalMove, match="Denver already has a marker"):
        apply(state, PlaceStartCity(0, "Denver"))
    offered = {a.city for a in legal_actions(state, 0) if isinstance(a, PlaceStartCity)}
    assert offered == set(BOARD.cities) - {"Roswell", "Denver"}


def test_the_first_claim_must_start_from_the_starting_city() -> None:
    state = at(2, {"Denver": 0, "Boise": 1}, hands={0: ["red"] * 3})
    grand_junction = between("Denver", "Grand Junction")  # red 3, from Denver
    far = between("Pueblo", "Durango")  # red 3, elsewhere
    assert claims_of(state, 0, grand_junction) and not claims_of(state, 0, far)
    with pytest.raises(IllegalMove, match="does not touch player 0's network .which grows from Denver."):
        apply(state, ClaimRoute(0, far.id, state.players[0].hand))


def test_after_a_claim_the_network_grows_from_its_new_city_without_a_marker() -> None:
    denver_pueblo = between("Denver", "Pueblo", "orange")
    state = at(2, {"Denver": 0, "Boise": 1}, hands={0: ["red"] * 3}, owners={denver_pueblo.id: 0})
    assert claims_of(state, 0, between("Pueblo", "Durango"))  # Pueblo has no marker: in the network all the same


def test_route_points_are_scored_at_the_claim_by_the_claimer_when_no_end_is_marked() -> None:
    durango = between("Grand Junction", "Durango")  # green 2: 2 points
    state = at(2, {"Denver": 1, "Salt Lake City": 0}, hands={0: ["green"] * 2},
               owners={between("Grand Junction", "Salt Lake City").id: 0})
    after = play(state, ClaimRoute(0, durango.id, state.players[0].hand))
    assert after.markers is not None and after.markers.route_points == (2, 0)


def test_a_route_into_another_players_city_scores_for_that_player_instead() -> None:
    route = between("Denver", "Grand Junction")  # red 3: 4 points
    state = at(2, {"Grand Junction": 0, "Denver": 1}, hands={0: ["red"] * 3})
    after = play(state, ClaimRoute(0, route.id, state.players[0].hand))
    assert after.markers is not None and after.markers.route_points == (4, 4)  # both ends owned: both score
    state = at(2, {"Pueblo": 0, "Denver": 1}, hands={0: ["red"] * 3},
               owners={between("Pueblo", "Denver", "orange").id: 0})
    after = play(state, ClaimRoute(0, route.id, state.players[0].hand))
    assert after.markers is not None and after.markers.route_points == (0, 4)  # Denver's owner, not the claimer


def test_a_player_owning_both_ends_scores_the_route_twice() -> None:
    route = between("Denver", "Grand Junction")
    state = at(2, {"Denver": 1, "Grand Junction": 1, "Pueblo": 0}, hands={0: ["red"] * 3},
               owners={between("Pueblo", "Denver", "orange").id: 0})
    after = play(state, ClaimRoute(0, route.id, state.players[0].hand))
    assert after.markers is not None and after.markers.route_points == (0, 8)


def test_after_a_claim_a_marker_goes_on_either_end_for_two_cards_of_one_colour_locomotives_allowed() -> None:
    route = between("Denver", "Grand Junction")
    state = at(2, {"Denver": 0, "Boise": 1}, hands={0: ["red"] * 3 + ["blue", LOCOMOTIVE, "green"]})
    state = play(state, ClaimRoute(0, route.id, state.players[0].hand[:3]))
    assert (state.phase, state.current) == (Phase.MARKER, 0)
    offers = [a for a in legal_actions(state, 0) if isinstance(a, PlaceMarker)]
    assert {a.city for a in offers} == {"Grand Junction"}  # Denver is marked already
    blue, loco, green = state.players[0].hand
    with pytest.raises(IllegalMove, match="two different colours"):
        apply(state, PlaceMarker(0, "Grand Junction", (blue, green)))
    with pytest.raises(IllegalMove, match="an end of the route just claimed"):
        apply(state, PlaceMarker(0, "Pueblo", (blue, loco)))
    after = play(state, PlaceMarker(0, "Grand Junction", (blue, loco)))
    assert after.markers is not None and after.markers.owner("Grand Junction") == 0
    assert (after.phase, after.current, after.players[0].hand) == (Phase.TURN, 1, (green,))
    assert set(after.discard) >= {blue, loco}


def test_a_marker_is_optional_and_placing_none_ends_the_turn() -> None:
    route = between("Denver", "Grand Junction")
    state = at(2, {"Denver": 0, "Boise": 1}, hands={0: ["red"] * 3 + ["blue", "blue"]})
    state = play(state, ClaimRoute(0, route.id, state.players[0].hand[:3]))
    after = apply(state, SkipMarker(0))
    assert (after.phase, after.current) == (Phase.TURN, 1)
    assert after.markers is not None and after.markers.owner("Grand Junction") is None


def test_at_most_three_markers_each_the_starting_one_included() -> None:
    route = between("Denver", "Grand Junction")
    state = at(2, {"Denver": 0, "Pueblo": 0, "Cheyenne": 0, "Boise": 1}, hands={0: ["red"] * 3 + ["blue", "blue"]})
    after = play(state, ClaimRoute(0, route.id, state.players[0].hand[:3]))
    assert after.phase is Phase.TURN and after.current == 1  # no marker left: nothing to decide


def test_one_marker_per_city_so_a_claim_between_marked_cities_offers_none() -> None:
    route = between("Denver", "Grand Junction")
    state = at(2, {"Denver": 0, "Grand Junction": 1}, hands={0: ["red"] * 3 + ["blue", "blue"]})
    after = play(state, ClaimRoute(0, route.id, state.players[0].hand[:3]))
    assert after.phase is Phase.TURN and after.current == 1


def test_a_marker_placed_with_a_claim_takes_the_points_of_the_next_claims() -> None:
    route = between("Denver", "Grand Junction")
    state = at(2, {"Denver": 0, "Boise": 1}, hands={0: ["red"] * 3 + ["blue", "blue"]})
    state = play(state, ClaimRoute(0, route.id, state.players[0].hand[:3]),
                 PlaceMarker(0, "Grand Junction", state.players[0].hand[3:]))
    assert state.markers is not None and state.markers.route_points == (4, 0)  # the claim scored before it


def test_no_route_points_at_the_end_the_score_is_what_was_scored_in_play() -> None:
    route = between("Denver", "Grand Junction")  # 4 points, into player 1's two cities: 8 to player 1
    state = at(2, {"Denver": 1, "Grand Junction": 1, "Pueblo": 0}, hands={0: ["red"] * 3},
               owners={between("Pueblo", "Denver", "orange").id: 0})
    over = play(state, ClaimRoute(0, route.id, state.players[0].hand)).evolve(phase=Phase.OVER)
    score = final_score(over)
    assert [p.total for p in score.players] == [0, 8]
    mine, theirs = score.players
    assert mine.routes == 1 + 4 and [(x.key, x.points, x.count) for x in mine.extra] == [("city_markers", -5, 1)]
    assert theirs.routes == 0 and [(x.key, x.points, x.count) for x in theirs.extra] == [("city_markers", 8, 2)]


def test_the_ferry_needs_a_locomotive_for_each_icon() -> None:
    ferry = between("Los Angeles", "San Francisco")
    assert (ferry.length, ferry.ferry_locomotives) == (7, 3)
    state = at(2, {"Los Angeles": 0, "Boise": 1}, hands={0: ["red"] * 5 + [LOCOMOTIVE] * 2})
    assert not claims_of(state, 0, ferry)
    state = at(2, {"Los Angeles": 0, "Boise": 1}, hands={0: ["red"] * 4 + [LOCOMOTIVE] * 3})
    assert claims_of(state, 0, ferry)


def test_the_globetrotter_goes_in_full_to_everyone_tied_for_the_most_tickets() -> None:
    ferry = between("Los Angeles", "San Francisco")
    ticket = next(t for t in BOARD.tickets if {t.a, t.b} == {"Los Angeles", "San Francisco"})
    one = PlayerClaims((ferry.id,), (), (ticket.id,))
    score = score_game(OLD_WEST, [one, PlayerClaims((), (), ()), PlayerClaims((), (), ())])
    assert [p.globetrotter for p in score.players] == [15, 0, 0]
    # Tied on one ticket each: both score the full 15.
    cheyenne = next(t for t in BOARD.tickets if {t.a, t.b} == {"Salt Lake City", "Cheyenne"})
    other = PlayerClaims((between("Salt Lake City", "Denver").id, between("Denver", "Cheyenne").id), (), (cheyenne.id,))
    score = score_game(OLD_WEST, [one, PlayerClaims((), (), ()), other])
    assert [p.globetrotter for p in score.players] == [15, 0, 15]


def test_the_caretaker_starts_in_the_first_city_it_may_and_places_no_marker() -> None:
    state = to_start_cities(2)
    assert caretaker_move(state, 1) == PlaceStartCity(1, BOARD.cities[0])
    route = between("Denver", "Grand Junction")
    state = at(2, {"Denver": 0, "Boise": 1}, hands={0: ["red"] * 3 + ["blue", "blue"]})
    state = play(state, ClaimRoute(0, route.id, state.players[0].hand[:3]))
    assert caretaker_move(state, 0) == SkipMarker(0)


# --- the Alvin the Alien variant ---------------------------------------------

ALVIN = load_game("oldwest", "alvin")
ROSWELL_SANTA_FE = between("Roswell", "Santa Fe")  # yellow 3


def alvin_at(markers: dict[str, int], alvin: str = "Roswell", **laid_out: object) -> GameState:
    state, _ = position(2, game=ALVIN, **laid_out)  # type: ignore[arg-type]
    return state.evolve(markers=CityMarkers(placed=tuple(markers.items()), route_points=(0, 0), alvin=alvin,
                                            alvin_points=(0, 0)))


@pytest.mark.skipif(not SHARED.exists(), reason="shared/maps is not beside this checkout")
def test_alvin_is_the_boards_variant_with_its_transcribed_points() -> None:
    alvin = json.loads(SHARED.read_text())["alvin"]
    rules = ALVIN.rules
    assert rules.alvin_city == alvin["start_city"] and rules.no_marker_cities == (alvin["start_city"],)
    assert (rules.alvin_capture_points, rules.alvin_end_points) == (alvin["capture_points"], alvin["end_bonus"])
    assert new_game(ALVIN, 2).markers == CityMarkers.empty(2, "Roswell")


def test_the_first_route_into_roswell_captures_alvin_who_goes_to_the_captors_only_city() -> None:
    state = alvin_at({"Santa Fe": 0, "Boise": 1}, hands={0: ["yellow"] * 3 + ["red", "red"]})
    after = play(state, ClaimRoute(0, ROSWELL_SANTA_FE.id, state.players[0].hand[:3]))
    markers = after.markers
    assert markers is not None and (markers.alvin, markers.alvin_holder, markers.alvin_points) == ("Santa Fe", 0, (10, 0))
    # No marker in Roswell, ever: the claim into it offers none (Santa Fe is marked already).
    assert after.phase is Phase.TURN and after.current == 1


def test_a_captor_with_several_cities_chooses_where_alvin_goes() -> None:
    state = alvin_at({"Santa Fe": 0, "Denver": 0, "Boise": 1}, hands={0: ["yellow"] * 3 + ["red", "red"]})
    after = play(state, ClaimRoute(0, ROSWELL_SANTA_FE.id, state.players[0].hand[:3]))
    assert (after.phase, after.current) == (Phase.ALVIN, 0)
    assert {a.city for a in legal_actions(after, 0) if isinstance(a, MoveAlvin)} == {"Santa Fe", "Denver"}
    with pytest.raises(IllegalMove, match="Alvin goes to a city you control"):
        apply(after, MoveAlvin(0, "Boise"))
    assert caretaker_move(after, 0) == MoveAlvin(0, "Santa Fe")
    moved = apply(after, MoveAlvin(0, "Denver"))
    assert moved.markers is not None and moved.markers.alvin == "Denver" and moved.current == 1


def test_a_route_into_alvins_city_captures_him_again() -> None:
    route = between("Denver", "Grand Junction")
    state = alvin_at({"Denver": 0, "Grand Junction": 1}, alvin="Denver", hands={1: ["red"] * 3}, current=1)
    state = state.evolve(markers=replace(state.markers, alvin_holder=0, alvin_points=(10, 0)))  # type: ignore[arg-type]
    after = play(state, ClaimRoute(1, route.id, state.players[1].hand))
    assert after.markers is not None
    assert (after.markers.alvin, after.markers.alvin_holder, after.markers.alvin_points) == ("Grand Junction", 1, (10, 10))


def test_no_marker_may_go_to_roswell() -> None:
    state = alvin_at({"Santa Fe": 0, "Boise": 1}).evolve(
        phase=Phase.MARKER, markers=CityMarkers(placed=(("Santa Fe", 0), ("Boise", 1)), route_points=(0, 0),
                                                claimed=ROSWELL_SANTA_FE.id, alvin="Santa Fe", alvin_points=(0, 0)))
    with pytest.raises(IllegalMove, match="no marker may go to Roswell"):
        apply(state, PlaceMarker(0, "Roswell", ()))


def test_whoever_holds_alvin_at_the_end_scores_ten_more() -> None:
    state = alvin_at({"Santa Fe": 0, "Boise": 1}, hands={0: ["yellow"] * 3})
    over = play(state, ClaimRoute(0, ROSWELL_SANTA_FE.id, state.players[0].hand)).evolve(phase=Phase.OVER)
    parts = [{p.key: (p.points, p.count) for p in sc.extra} for sc in final_score(over).players]
    assert parts[0]["alvin"] == (10 + 10, 1) and parts[1]["alvin"] == (0, 0)
