"""The client on Old West: the commands for its city markers (home, marker),
what the turn waits for, the points markers move (the panel, the log, the
end page), the markers on the map, the rules page, and six seats on every
screen size."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from p2p_ttr.client.endgame import breakdown
from p2p_ttr.client.mapview import ALVIN, MARKER, MY_MARKER, draw_map, geometry, marks_for
from p2p_ttr.client.outcomes import Ask, Context, Play, Refuse, Show
from p2p_ttr.client.pagetext import lay_out
from p2p_ttr.client.phrases import changes, what_now
from p2p_ttr.client.screen import ScreenModel, screen_text
from p2p_ttr.client.snapshot import Snapshot
from p2p_ttr.client.styled import text_of
from p2p_ttr.client.verbs import interpret
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.citymarkers import CityMarkers
from p2p_ttr.engine.events import ClaimRoute, KeepTickets, MoveAlvin, PlaceMarker, PlaceStartCity, SkipMarker
from p2p_ttr.engine.rules import apply, new_game
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.view import view_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from engine_scenario import ScenarioDealer, play, position  # noqa: E402

OLD_WEST = load_game("oldwest")
BOARD = OLD_WEST.board
NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
DENVER_GJ = next(r for r in BOARD.routes if {r.a, r.b} == {"Denver", "Grand Junction"})  # red 3


def at(n: int, markers: dict[str, int], **laid_out: object) -> GameState:
    state, _ = position(n, game=OLD_WEST, **laid_out)  # type: ignore[arg-type]
    return state.evolve(markers=CityMarkers(placed=tuple(markers.items()), route_points=(0,) * n))


def said(line: str, state: GameState, seat: int = 0) -> object:
    return interpret(line, Context(view_for(state, seat), seat, NAMES[:state.n_players]))


def claimed(extra: tuple[str, ...] = ("blue", "locomotive")) -> GameState:
    """Ann (seat 0, starting in Denver) has just claimed Denver-Grand Junction: a marker may go on Grand Junction."""
    state = at(2, {"Denver": 0, "Boise": 1}, hands={0: ["red"] * 3 + list(extra)})
    return play(state, ClaimRoute(0, DENVER_GJ.id, state.players[0].hand[:3]))


def test_home_places_the_starting_city_and_refuses_roswell() -> None:
    state = at(3, {"Denver": 2}).evolve(phase=Phase.START_CITY, current=1)
    assert what_now(view_for(state, 1), 1).startswith("place your starting city: home CITY")
    played = said("home salt lake city", state, 1)
    assert isinstance(played, Play) and played.action == PlaceStartCity(1, "Salt Lake City")
    refused = said("home roswell", state, 1)
    assert isinstance(refused, Refuse) and "no starting city may be placed in Roswell" in refused.reason
    refused = said("home denver", state, 1)
    assert isinstance(refused, Refuse) and "Denver already has a marker" in refused.reason
    refused = said("draw", state, 1)
    assert isinstance(refused, Refuse) and "first place your starting city (home CITY)" in refused.reason


def test_after_a_claim_marker_places_one_paying_two_cards_or_none() -> None:
    state = claimed()
    assert state.phase is Phase.MARKER
    assert what_now(view_for(state, 0), 0) == ("a city marker on Grand Junction for 2 cards of one colour "
                                               "(2 markers left): marker CITY, or marker none")
    played = said("marker grand junction", state)
    assert isinstance(played, Play) and isinstance(played.action, PlaceMarker)
    assert played.action.city == "Grand Junction" and set(played.action.cards) == set(state.players[0].hand)
    none = said("marker none", state)
    assert isinstance(none, Play) and none.action == SkipMarker(0)
    refused = said("marker denver", state)
    assert isinstance(refused, Refuse) and "Denver already has a marker: one per city" in refused.reason
    refused = said("marker pueblo", state)
    assert isinstance(refused, Refuse) and "a marker goes on an end of the route just claimed (Denver or Grand Junction), not Pueblo" in refused.reason


def test_a_hand_without_a_pair_is_told_what_a_marker_costs() -> None:
    state = claimed(("blue", "green"))
    refused = said("marker grand junction", state)
    assert isinstance(refused, Refuse) and "costs 2 cards of one colour" in refused.reason
    several = said("marker grand junction", claimed(("blue", "blue", "green", "green")))
    assert isinstance(several, Ask)  # two colours pay: the player picks


def test_the_log_says_who_the_markers_gave_the_points_to() -> None:
    state = at(2, {"Grand Junction": 1, "Denver": 1, "Pueblo": 0}, hands={0: ["red"] * 3},
               owners={next(r.id for r in BOARD.routes_between("Pueblo", "Denver")): 0})
    after = play(state, ClaimRoute(0, DENVER_GJ.id, state.players[0].hand))
    lines = changes(view_for(state, 0), view_for(after, 0), 0, NAMES[:2])
    assert lines == ["You claimed Denver–Grand Junction (red, 3) for 4 points",
                     "the 4 points of Denver–Grand Junction went twice to Bob (city markers on its ends)"]
    before = claimed()
    marked = play(before, PlaceMarker(0, "Grand Junction", before.players[0].hand[:2]))
    assert "Ann put a city marker on Grand Junction" in changes(view_for(before, 1), view_for(marked, 1), 1,
                                                                NAMES[:2])


def test_the_panel_scores_what_was_scored_in_play_and_counts_markers_left() -> None:
    state = at(2, {"Grand Junction": 1, "Denver": 1, "Pueblo": 0}, hands={0: ["red"] * 3},
               owners={next(r.id for r in BOARD.routes_between("Pueblo", "Denver")): 0})
    after = play(state, ClaimRoute(0, DENVER_GJ.id, state.players[0].hand))
    snap = Snapshot(role="join", seat=0, names=NAMES[:2], game="3fa2c1d0aa", view=view_for(after, 0), log=(),
                    status="")
    rows = screen_text(ScreenModel(snap), 80, 24).splitlines()
    head = next(r for r in rows if r.startswith("PLAYERS"))
    assert head.split()[1:6] == ["pts", "trn", "crd", "tkt", "mk"]
    assert rows[rows.index(head) + 1].split()[3:8] == ["0", "36", "0", "0", "2"]  # Ann: her route's points went to Bob
    assert rows[rows.index(head) + 2].split()[3:8] == ["8", "40", "0", "0", "1"]


def test_the_map_draws_each_seats_markers_mine_apart() -> None:
    state = at(2, {"Denver": 0, "Boise": 1})
    lines = draw_map(BOARD, marks_for(BOARD, view_for(state, 0), 0), 120, 30)
    text = "\n".join(text_of(line) for line in lines)
    assert text.count(MY_MARKER) == 1 and text.count(MARKER) == 1


def test_six_seats_show_on_every_screen_size_each_named_with_its_colour() -> None:
    state = at(6, {"Denver": 0, "Boise": 1, "Tucson": 2, "Seattle": 3, "Helena": 4, "Fresno": 5})
    for width, height in ((80, 24), (100, 30), (120, 40)):
        snap = Snapshot(role="join", seat=0, names=NAMES, game="3fa2c1d0aa", view=view_for(state, 0), log=(),
                        status="")
        text = screen_text(ScreenModel(snap), width, height)
        for number, colour, name in zip(range(1, 7), ("red", "blue", "green", "yellow", "black", "white"), NAMES):
            assert f"{number} {colour:<6} {'you' if number == 1 else name}" in text, (width, height, name)


def test_the_rules_page_says_the_city_markers() -> None:
    shown = said("rules", at(2, {"Denver": 0, "Boise": 1}))
    assert isinstance(shown, Show)
    text = " ".join(" ".join(lay_out(shown.lines, 100)).split())
    assert "2 to 6 players, each with 40 trains" in text
    assert "City markers, 3 each" in text and "never Roswell" in text
    assert "A route scores when it is claimed, to the owner of each marked end instead of the claimer" in text


def test_the_end_page_shows_what_the_markers_moved() -> None:
    state = at(2, {"Grand Junction": 1, "Denver": 1, "Pueblo": 0}, hands={0: ["red"] * 3},
               owners={next(r.id for r in BOARD.routes_between("Pueblo", "Denver")): 0})
    over = play(state, ClaimRoute(0, DENVER_GJ.id, state.players[0].hand)).evolve(phase=Phase.OVER)
    lines = breakdown(over, NAMES[:2])
    assert "cities" in lines[2].split()
    assert any(line.startswith("  cities   -5   route points the city markers moved (1 marker placed)")
               for line in lines)
    assert any(line.startswith("  cities    8   route points the city markers moved (2 markers placed)")
               for line in lines)


def test_the_start_city_phase_follows_the_first_tickets_in_a_real_deal() -> None:
    dealer = ScenarioDealer()
    state = play(new_game(OLD_WEST, 2), dealer=dealer)
    for p in range(2):
        offered = state.players[p].offered
        state = play(state, KeepTickets(p, offered[:3], offered[3:]), dealer=dealer)
    assert (state.phase, state.current) == (Phase.START_CITY, 1)
    assert what_now(view_for(state, 1), 1).startswith("place your starting city")
    assert apply(state, PlaceStartCity(1, "Denver")).current == 0


def test_alvin_is_taken_to_one_of_your_cities_and_the_log_says_so() -> None:
    alvin_game = load_game("oldwest", "alvin")
    state, _ = position(2, game=alvin_game, hands={0: ["yellow"] * 3})
    state = state.evolve(markers=CityMarkers(placed=(("Santa Fe", 0), ("Denver", 0), ("Boise", 1)),
                                             route_points=(0, 0), alvin="Roswell", alvin_points=(0, 0)))
    roswell = next(r for r in alvin_game.board.routes if {r.a, r.b} == {"Roswell", "Santa Fe"})
    caught = play(state, ClaimRoute(0, roswell.id, state.players[0].hand))
    assert caught.phase is Phase.ALVIN
    assert what_now(view_for(caught, 0), 0) == ("you captured Alvin the Alien: take him to one of your cities, "
                                                "Santa Fe or Denver (alvin CITY)")
    assert "Ann captured Alvin the Alien for 10 points" in changes(view_for(state, 1), view_for(caught, 1), 1,
                                                                   NAMES[:2])
    played = said("alvin denver", caught)
    assert isinstance(played, Play) and played.action == MoveAlvin(0, "Denver")
    refused = said("alvin boise", caught)
    assert isinstance(refused, Refuse) and "Alvin goes to a city you control" in refused.reason
    moved = apply(caught, MoveAlvin(0, "Denver"))
    assert "Ann took Alvin the Alien to Denver" in changes(view_for(caught, 1), view_for(moved, 1), 1, NAMES[:2])


def test_the_map_shows_alvin_in_his_holders_city() -> None:
    alvin_game = load_game("oldwest", "alvin")
    board = alvin_game.board
    nodes = geometry(board, 120, 30).nodes
    state, _ = position(2, game=alvin_game)
    state = state.evolve(markers=CityMarkers(placed=(("Denver", 0), ("Boise", 1)), route_points=(0, 0),
                                             alvin="Roswell", alvin_points=(0, 0)))

    def at_city(view_of: GameState, city: str) -> str:
        rows = [text_of(line) for line in draw_map(board, marks_for(board, view_for(view_of, 0), 0), 120, 30)]
        column, row = nodes[city]
        return rows[row][column]

    assert (at_city(state, "Roswell"), at_city(state, "Denver"), at_city(state, "Boise")) == (ALVIN, MY_MARKER, MARKER)
    held = state.evolve(markers=replace(state.markers, alvin="Denver", alvin_holder=0))  # type: ignore[arg-type]
    assert (at_city(held, "Roswell"), at_city(held, "Denver")) == ("●", ALVIN)  # Alvin in place of the marker
