"""The boards we have, how a game is named and loaded, and that each board's
data and rules agree with the checked transcriptions in shared/maps."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_ttr.cli.main import main
from p2p_ttr.engine.boards import BOARDS, NOT_AVAILABLE, UnknownGame, every_game, load_game, parse_game_name
from p2p_ttr.engine.errors import MalformedEvent
from p2p_ttr.engine.events import event_from_wire, to_wire
from p2p_ttr.engine.cards import Deck
from p2p_ttr.engine.game import LocomotiveUse, Unkept

MAPS = Path(__file__).resolve().parents[3] / "shared" / "maps"
# Our name of each variant -> the shared file's name of its ticket set.
USA_SETS = {"": "base", "1910": "1910", "mega": "mega", "bigcities": "big_cities"}


def test_a_game_is_loaded_once_by_its_names_and_named_back() -> None:
    usa = load_game("usa", "1910")
    assert usa is load_game("usa", "1910")  # one value per game: compared by identity
    assert usa.name == "usa(variant=1910)" and usa.title == "USA 1910"
    assert parse_game_name(usa.name) == ("usa", "1910")
    assert parse_game_name("europe") == ("europe", "")
    assert load_game(*parse_game_name(load_game("europe").name)) is load_game("europe")


def test_unknown_boards_and_variants_are_refused_naming_what_there_is() -> None:
    with pytest.raises(UnknownGame, match="no board 'mars'; the boards are europe, usa, india, nordic, switzerland"):
        load_game("mars")
    with pytest.raises(UnknownGame, match="USA has no variant 'x'; its variants are 1910, mega, bigcities"):
        load_game("usa", "x")
    with pytest.raises(UnknownGame, match="Europe has no variant '1910'; its variants are expanded, mega, bigcities"):
        load_game("europe", "1910")
    with pytest.raises(UnknownGame, match="India has no variant 'mega'; its variants are none"):
        load_game("india", "mega")
    with pytest.raises(UnknownGame, match="board or board"):
        parse_game_name("usa(level=3)")


def test_the_boards_we_cannot_play_are_named_with_why(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(UnknownGame, match="Nederland is not available: we have no transcription"):
        load_game("nederland")
    assert not set(NOT_AVAILABLE) & set(BOARDS)
    assert main(["boards"]) == 0
    listed = capsys.readouterr().out.split("Not available here:")[1]
    for title in ("Märklin", "Team Asia", "Heart of Africa", "Nederland"):
        assert title in listed


def test_every_game_has_its_own_digest() -> None:
    games = every_game()
    assert [g.name for g in games] == ["europe", "europe(variant=expanded)", "europe(variant=mega)",
                                      "europe(variant=bigcities)", "usa", "usa(variant=1910)", "usa(variant=mega)",
                                      "usa(variant=bigcities)", "india", "nordic",
                                      "switzerland", "asia", "pennsylvania", "uk", "uk(variant=advanced)", "france",
                                      "oldwest", "oldwest(variant=alvin)"]
    assert len({g.digest for g in games}) == len(games)
    assert all(len(g.digest) == 32 for g in games)


def test_europe_deals_and_numbers_as_it_always_did() -> None:
    europe = load_game("europe")
    assert [europe.deck_size(d) for d in Deck] == [110, 40, 6, 0]
    assert europe.card_ids(Deck.LONG) == range(40, 46)
    rules = europe.rules
    assert (rules.trains, rules.stations, rules.station_points, rules.cards_dealt) == (45, 3, 4, 4)
    assert [(d.deck, d.count) for d in rules.setup_tickets.deals] == [(Deck.LONG, 1), (Deck.TICKETS, 3)]
    assert (rules.setup_tickets.keep_min, rules.setup_tickets.unkept) == (2, Unkept.BOX)
    assert (rules.draw_tickets.size, rules.draw_tickets.keep_min, rules.draw_tickets.unkept) == (3, 1, Unkept.BOTTOM)
    assert rules.longest_path_bonus == "European Express" and rules.globetrotter_points == 0


def _shared(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((MAPS / f"{name}.json").read_text())
    return data


needs_shared = pytest.mark.skipif(not MAPS.exists(), reason="shared/maps is not beside this checkout")


@needs_shared
@pytest.mark.parametrize("name", ["usa", "india", "nordic", "switzerland"])
def test_the_board_data_is_the_checked_transcription(name: str) -> None:
    shared = _shared(name)
    board = load_game(name).board
    endpoints = [e for zone in shared.get("zones", {}).values() for e in zone["endpoints"]]
    assert list(board.cities) == shared["cities"] + endpoints
    assert [(r.a, r.b, r.length, r.color, r.tunnel, r.ferry_locomotives) for r in board.routes] == [
        (r["a"], r["b"], r["length"], r["color"], r["tunnel"], r["ferry_locomotives"]) for r in shared["routes"]]
    assert board.route_points == {int(k): v for k, v in shared["route_points"].items()}
    assert {c: list(p) for c, p in board.positions.items()} == {c: shared["positions"][c] for c in board.cities}
    cards = shared["train_cards"]
    assert (board.colors, board.cards_per_color, board.locomotives) == (
        tuple(cards["colors"]), cards["per_color"], cards["locomotives"])


@needs_shared
@pytest.mark.parametrize("variant", list(USA_SETS))
def test_each_usa_variant_deals_its_ticket_set_by_its_rules(variant: str) -> None:
    shared = _shared("usa")
    ticket_set = shared["ticket_sets"][USA_SETS[variant]]
    game = load_game("usa", variant)
    rules = game.rules
    wanted = [(t["a"], t["b"], t["points"]) for t in shared["tickets"] if USA_SETS[variant] in t["sets"]]
    assert [(t.a, t.b, t.points) for t in game.board.tickets] == wanted
    assert not game.board.long_tickets and game.deck_size(Deck.LONG) == 0
    assert (rules.min_players, rules.max_players) == (shared["players"]["min"], shared["players"]["max"])
    assert rules.trains == shared["trains_per_player"] and rules.stations == 0
    assert rules.cards_dealt == shared["setup"]["train_cards_dealt"]
    assert (rules.setup_tickets.size, rules.setup_tickets.keep_min) == (
        ticket_set["setup"]["tickets_dealt"], ticket_set["setup"]["tickets_keep_min"])
    assert (rules.draw_tickets.size, rules.draw_tickets.keep_min) == (
        ticket_set["ticket_draw"]["draw"], ticket_set["ticket_draw"]["keep_min"])
    assert rules.setup_tickets.unkept is rules.draw_tickets.unkept is Unkept.BOTTOM  # "bottom of deck"
    assert rules.both_sides_min_players == shared["double_routes"]["both_tracks_min_players"]
    bonuses = {b["name"]: b["points"] for b in ticket_set["bonuses"]}
    assert rules.longest_path_points == bonuses.get("Longest Path", 0)
    assert rules.globetrotter_points == bonuses.get("Globetrotter", 0)


def test_every_board_entry_names_a_data_file_and_a_standard_game() -> None:
    for name, entry in BOARDS.items():
        assert entry.name == name and "" in entry.variants
        assert load_game(name).board.routes


@needs_shared
def test_india_plays_by_its_transcribed_rules() -> None:
    shared = _shared("india")
    game = load_game("india")
    rules = game.rules
    assert [(t.a, t.b, t.points) for t in game.board.tickets] == [(t["a"], t["b"], t["points"]) for t in shared["tickets"]]
    assert (rules.min_players, rules.max_players, rules.trains, rules.stations) == (
        shared["players"]["min"], shared["players"]["max"], shared["trains_per_player"], 0)
    assert (rules.setup_tickets.size, rules.setup_tickets.keep_min, rules.setup_tickets.unkept) == (
        shared["setup"]["tickets_dealt"], shared["setup"]["tickets_keep_min"], Unkept.BOTTOM)
    assert (rules.draw_tickets.size, rules.draw_tickets.keep_min, rules.draw_tickets.unkept) == (
        shared["ticket_draw"]["draw"], shared["ticket_draw"]["keep_min"], Unkept.BOTTOM)
    assert rules.both_sides_min_players == shared["double_routes"]["both_tracks_min_players"]
    express, tour = shared["bonuses"]
    assert (rules.longest_path_bonus, rules.longest_path_points) == (express["name"], express["points"])
    by_count = tour["points_by_count"]
    assert rules.grand_tour_points == (0, by_count["1"], by_count["2"], by_count["3"], by_count["4"], by_count["5+"])


@needs_shared
def test_nordic_plays_by_its_transcribed_rules() -> None:
    shared = _shared("nordic")
    game = load_game("nordic")
    rules, board = game.rules, game.board
    assert [(t.a, t.b, t.points) for t in board.tickets] == [(t["a"], t["b"], t["points"]) for t in shared["tickets"]]
    assert (rules.min_players, rules.max_players, rules.trains, rules.stations) == (
        shared["players"]["min"], shared["players"]["max"], shared["trains_per_player"], 0)
    assert (rules.setup_tickets.size, rules.setup_tickets.keep_min, rules.setup_tickets.unkept) == (
        shared["setup"]["tickets_dealt"], shared["setup"]["tickets_keep_min"], Unkept.BOX)  # "removed from the game"
    assert (rules.draw_tickets.size, rules.draw_tickets.keep_min, rules.draw_tickets.unkept) == (
        shared["ticket_draw"]["draw"], shared["ticket_draw"]["keep_min"], Unkept.BOX)
    locos = shared["locomotive_rules"]
    assert rules.locomotive_use is LocomotiveUse.TUNNELS_AND_FERRIES and locos["usable_on"] == "tunnels and ferries only"
    assert rules.face_up_locomotive_ends_draw is not locos["face_up_locomotive_counts_as_one_card"]
    assert rules.three_locomotives_reset_row is locos["reset_on_three_face_up_locomotives"]
    assert rules.ferry_stand_in == locos["any_cards_as_one_locomotive_on_ferries"]
    assert rules.both_sides_min_players == shared["double_routes"]["both_tracks_min_players"]
    (bonus,) = shared["bonuses"]
    assert (bonus["name"], rules.globetrotter_points, rules.longest_path_points) == ("Globetrotter", bonus["points"], 0)
    (special,) = shared["special_routes"]
    (route,) = board.routes_between(special["a"], special["b"])
    assert (route.stand_in, board.route_points[route.length]) == (special["any_cards_per_colour_card"], special["points"])
    for a, b in shared["unequal_double_routes"]:
        sides = board.routes_between(a, b)
        assert len(sides) == 2 and sides[0].twin == sides[1].id


_WIRE = st.recursive(st.none() | st.booleans() | st.integers(-3, 200) | st.sampled_from(
    ["claim", "keep_tickets", "station", "reveal", "peek", "draw_face_up", "Denver", "Wien", "Lieksa"]),
    lambda inner: st.lists(inner, max_size=6), max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(which=st.sampled_from([g.name for g in every_game()]), tag=st.sampled_from(
    ["claim", "keep_tickets", "station", "reveal", "peek", "pay_tunnel", "draw_face_up", "shuffled"]),
    fields=st.lists(_WIRE, max_size=4))
def test_event_decoding_of_every_game_refuses_only_with_malformed_event(which: str, tag: str, fields: list[Any]) -> None:
    game = load_game(*parse_game_name(which))
    try:
        event = event_from_wire([tag, *fields], game)
    except MalformedEvent:
        return
    assert event_from_wire(to_wire(event), game) == event  # what is accepted reads back the same


def test_an_event_is_held_to_its_games_bounds() -> None:
    usa, mega, europe = load_game("usa"), load_game("usa", "mega"), load_game("europe")
    assert len(usa.board.routes) == 100
    with pytest.raises(MalformedEvent, match="route"):
        event_from_wire(["claim", 0, 100, []], usa)
    event_from_wire(["claim", 0, 100, []], europe)  # Europe has 101 routes
    with pytest.raises(MalformedEvent, match="no long deck"):
        event_from_wire(["keep_tickets", 0, [[2, 0, 0]], []], usa)
    five = [[1, 0, i] for i in range(5)]
    event_from_wire(["keep_tickets", 0, five, []], mega)  # Mega deals 5 tickets at set-up
    with pytest.raises(MalformedEvent, match="keep must be a list of 0..4 items"):
        event_from_wire(["keep_tickets", 0, five, []], europe)
    with pytest.raises(MalformedEvent, match="city is unknown: .Denver."):
        event_from_wire(["station", 0, "Denver", []], europe)
    with pytest.raises(MalformedEvent, match="player"):
        event_from_wire(["draw_blind", 4], load_game("india"))  # India seats 4: players 0..3


@needs_shared
def test_switzerland_plays_by_its_transcribed_rules() -> None:
    shared = _shared("switzerland")
    game = load_game("switzerland")
    rules, board = game.rules, game.board
    city = [t for t in board.tickets if not t.goals]
    assert [(t.a, t.b, t.points) for t in city] == [(t["a"], t["b"], t["points"]) for t in shared["tickets"]]
    cards = [(c["from"], [(g["country"], g["points"]) for g in c["to"]]) for c in shared["country_tickets"]
             for _ in range(c["copies"])]
    country = [t for t in board.tickets if t.goals]
    assert [(t.title.split("-")[0], [(g.name, g.points) for g in t.goals]) for t in country] == cards
    assert (rules.min_players, rules.max_players, rules.trains, rules.stations) == (
        shared["players"]["min"], shared["players"]["max"], shared["trains_per_player"], 0)
    assert (rules.setup_tickets.size, rules.setup_tickets.keep_min, rules.setup_tickets.unkept) == (
        shared["setup"]["tickets_dealt"], shared["setup"]["tickets_keep_min"], Unkept.BOX)
    assert (rules.draw_tickets.size, rules.draw_tickets.keep_min, rules.draw_tickets.unkept) == (
        shared["ticket_draw"]["draw"], shared["ticket_draw"]["keep_min"], Unkept.BOX)
    assert rules.locomotive_use is LocomotiveUse.TUNNELS and shared["locomotive_rules"]["usable_on"] == "tunnels only"
    assert not rules.face_up_locomotive_ends_draw and shared["locomotive_rules"]["face_up_locomotive_counts_as_one_card"]
    assert rules.both_sides_min_players == shared["double_routes"]["both_tracks_min_players"]
    (bonus,) = shared["bonuses"]
    assert (rules.longest_path_bonus, rules.longest_path_points) == (bonus["name"], bonus["points"])
    for zone in shared["zones"].values():  # dead ends: one route each
        assert all(len(board.routes_at[e]) == 1 for e in zone["endpoints"])


# Our name of each Europe 1912 variant -> the shared file's name of its ticket set and way to play.
EUROPE_1912_SETS = {"expanded": "europe_expanded", "mega": "mega_europe", "bigcities": "big_cities_of_europe"}


@needs_shared
def test_the_1912_tickets_are_the_checked_transcription_and_its_originals_are_europes() -> None:
    data = json.loads((Path(__file__).resolve().parents[2] / "p2p_ttr" / "data" / "europe1912.json").read_text())
    assert data == _shared("europe1912")
    europe = load_game("europe").board
    originals = [t for t in data["tickets"] if "europe" in t["sets"]]
    # The 1912 box reprints Europe's 46 tickets (two with their cities the other way round).
    assert sorted((*sorted((t["a"], t["b"])), t["points"], t["kind"] == "long") for t in originals) == sorted(
        (*sorted((t.a, t.b)), t.points, t.long) for t in europe.tickets)


@needs_shared
@pytest.mark.parametrize("variant", list(EUROPE_1912_SETS))
def test_each_1912_variant_deals_its_ticket_set_by_its_rules(variant: str) -> None:
    shared = _shared("europe1912")
    name = EUROPE_1912_SETS[variant]
    way = shared["variants"][name]
    game, europe = load_game("europe", variant), load_game("europe")
    assert game.board.routes == europe.board.routes and game.board.cities == europe.board.cities  # Europe's map
    chosen = [t for t in shared["tickets"] if name in t["sets"]]
    assert [(t.a, t.b, t.points) for t in game.board.regular_tickets] == [
        (t["a"], t["b"], t["points"]) for t in chosen if t["kind"] == "regular"]
    assert [(t.a, t.b, t.points) for t in game.board.long_tickets] == [
        (t["a"], t["b"], t["points"]) for t in chosen if t["kind"] == "long"]
    rules, setup, draw = game.rules, way["setup"], way["ticket_draw"]
    assert rules.cards_dealt == setup["train_cards_dealt"]
    first = rules.setup_tickets
    assert (first.dealt(Deck.LONG), first.dealt(Deck.TICKETS), first.keep_min, first.keep_most(Deck.LONG)) == (
        setup["tickets_long_dealt"], setup["tickets_regular_dealt"], setup["tickets_keep_min"],
        setup.get("tickets_long_keep_max"))
    assert first.unkept is Unkept.BOX  # Europe's set-up: "Discards go in the box"
    assert (rules.draw_tickets.size, rules.draw_tickets.keep_min, rules.draw_tickets.unkept) == (
        draw["draw"], draw["keep_min"], Unkept.BOTTOM)  # "bottom of deck"
    bonuses = {b["name"]: b["points"] for b in way["bonuses"]}
    assert (rules.longest_path_points, rules.globetrotter_points) == (bonuses.get("European Express", 0), 0)
    # Every other rule is Europe's ("all other rules ... are those of Ticket to Ride Europe").
    assert replace(rules, setup_tickets=europe.rules.setup_tickets, draw_tickets=europe.rules.draw_tickets,
                   longest_path_bonus="European Express", longest_path_points=10) == europe.rules


# The digests the first signed seatings named: a setting added later must
# leave them as they are (boards.RECORDED_WHEN_PLAYED), or those logs stop verifying.
FIRST_DIGESTS = {
    "europe": "d355cf2586e00c5bdd894baf61da7b348a776cde4d23e76f7cd94cf901f7675c",
    "usa": "982c44615bd49f08eab0f4b7999d0ad5e1fe5c80804ba7035da2e17fb829611d",
    "usa(variant=1910)": "baaa540bc298f7d965fdec986f8f01c804ce75e9cfc02d7c8acf284981dc87fc",
    "usa(variant=mega)": "e15e0d8da562cc91f6acc258d9f8bfb24dfabda7988709b6c611c842d641ff4d",
    "usa(variant=bigcities)": "be6150d296a7cac75385fb4fc4205fd354765de08742144ebef851d8e2548696",
    "india": "95c941c358c92edd6677189a00a24caa36460bbef53dbde1df6384913a0b6e0b",
    "nordic": "d029aad8aedef1437bdac3bb4e4c7209ee72be83263a0a4eb87007067d465582",
    "switzerland": "5ad1a9ad4ee0d296e9fe6e7b835777989f43520a79859b9728309212d0efb17f",
}


def test_the_games_first_seated_keep_their_digests() -> None:
    assert {g.name: g.digest.hex() for g in every_game() if g.name in FIRST_DIGESTS} == FIRST_DIGESTS
