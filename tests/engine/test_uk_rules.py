"""The United Kingdom, scenario by scenario from the rules summary
(shared/rules/other_boards.txt, "United Kingdom"): 2-4 players and 35
trains; both sides of a double route from 3 players; a locomotive given to
every player besides the 4 cards dealt; any 4 cards as a locomotive; no row
reset on three face-up locomotives; 5 tickets keep 3, draw 3 keep 1, the
rest to the bottom; ferries; no standard bonus; and the technologies:
bought with locomotives before a turn, one a turn, which open the regions,
the longer routes and the ferries, and score or pay on their own."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from engine_scenario import ScenarioDealer, play, position, ticket_ref

from p2p_ttr.engine.board import LOCOMOTIVE, Route
from p2p_ttr.engine.caretaker import caretaker_move
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.cards import Deck
from p2p_ttr.engine.depotstate import Depots
from p2p_ttr.engine.errors import IllegalMove, OutOfTurn
from p2p_ttr.engine.events import (
    EmptyWarehouses,
    BuyTechnology,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawThreeBlind,
    DrawTickets,
    FinishTurn,
    KeepTickets,
)
from p2p_ttr.engine.game import Game, Unkept
from p2p_ttr.engine.moves import claim_actions, legal_actions
from p2p_ttr.engine.payments import locomotives_payment_problem
from p2p_ttr.engine.rules import apply, check_for_some_faces, claim_problem, new_game
from p2p_ttr.engine.view import view_for
from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.local.game import play_local_game
from p2p_ttr.local.summary import game_summary
from p2p_ttr.engine.scoring import ClaimError, PlayerClaims, ScorePart, score_game
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.technologies import (
    copies_left,
    holdings_at_start,
    route_needs,
    technology_cards,
    technology_end_parts,
)
from p2p_ttr.engine.techstate import (
    BOILER_LAGGING,
    BOOSTER,
    DIESEL_POWER,
    DOUBLE_HEADING,
    EQUALISING_BEAM,
    EVERY_TECHNOLOGY,
    IRELAND_FRANCE,
    MECHANICAL_STOKER,
    PROPELLERS,
    RIGHT_OF_WAY,
    RISKY_CONTRACTS,
    SCOTLAND,
    STEAM_TURBINES,
    SUPERHEATED_BOILER,
    THERMOCOMPRESSOR,
    WALES,
    WATER_TENDERS,
)

UK = load_game("uk")
ADVANCED = load_game("uk", "advanced")
BOARD = UK.board
SHARED = Path(__file__).resolve().parents[3] / "shared" / "maps" / "uk.json"


def between(a: str, b: str) -> Route:
    found = BOARD.routes_between(a, b)
    assert found, f"no route {a}-{b}"
    return found[0]


def uk_position(hands: Mapping[int, list[str]], held: Mapping[int, tuple[str, ...]] | None = None,
                n_players: int = 2, owners: Mapping[int, int] | None = None, game: Game = UK) -> GameState:
    """A UK game at player 0's turn with these hands and technologies."""
    state, _ = position(n_players=n_players, game=game, hands=hands, owners=owners)
    tech = holdings_at_start(game, n_players)
    assert tech is not None
    mine = tuple((held or {}).get(p, ()) for p in range(n_players))
    return state.evolve(technologies=replace(tech, held=mine))


def claims_of(state: GameState, route: Route) -> list[ClaimRoute]:
    return [a for a in legal_actions(state, 0) if isinstance(a, ClaimRoute) and a.route == route.id]


def buys(state: GameState, name: str) -> list[BuyTechnology]:
    return [a for a in legal_actions(state, 0) if isinstance(a, BuyTechnology) and a.technology == name]


@pytest.mark.skipif(not SHARED.exists(), reason="shared/maps is not beside this checkout")
def test_the_board_is_the_checked_transcription_with_its_technologies() -> None:
    shared = json.loads(SHARED.read_text())
    assert list(BOARD.cities) == shared["cities"] + ["France (Dover)", "France (Southampton)", "New York"]
    assert [(r.a, r.b, r.length, r.color, r.ferry_locomotives) for r in BOARD.routes] == [
        (r["a"], r["b"], r["length"], r["color"], r["ferry_locomotives"]) for r in shared["routes"]]
    assert list(route_needs(UK)) == [tuple(r["technologies_required"]) for r in shared["routes"]]
    assert [(t.a, t.goals[0].name if t.goals else t.b, t.points)
            for t in BOARD.tickets] == [(t["a"], t["b"], t["points"]) for t in shared["tickets"]]
    cards = technology_cards(UK)
    assert [(c.name, c.copies, c.cost, c.advanced) for c in cards.values()] == [
        (t["name"], t["copies"], t["cost_locomotives"], t["advanced"]) for t in shared["technologies"]
        if not t["advanced"]]
    assert [t["name"] for t in shared["technologies"]] == list(EVERY_TECHNOLOGY)
    rules = UK.rules
    assert (rules.min_players, rules.max_players, rules.trains, rules.stations) == (
        shared["players"]["min"], shared["players"]["max"], shared["trains_per_player"], 0)
    assert (rules.cards_dealt, rules.locomotives_dealt) == (
        shared["setup"]["train_cards_dealt"], shared["setup"]["locomotives_dealt"])
    assert rules.cards_per_locomotive == shared["locomotive_rules"]["any_cards_as_one_locomotive"]
    assert rules.three_locomotives_reset_row is shared["locomotive_rules"]["reset_on_three_face_up_locomotives"]
    assert rules.both_sides_min_players == shared["double_routes"]["both_tracks_min_players"]
    assert (BOARD.n_cards, BOARD.locomotives) == (116, shared["train_cards"]["locomotives"])
    assert BOARD.route_points[10] == 40


def test_the_technologies_each_route_needs_follow_from_its_ends_its_length_and_its_ferry() -> None:
    shared = json.loads((Path(__file__).resolve().parents[2] / "p2p_ttr" / "data" / "uk.json").read_text())
    region = {city: name for name, cities in shared["regions"].items() for city in cities}
    region.update({"France (Dover)": "France", "France (Southampton)": "France"})
    concession = {"Wales": WALES, "Scotland": SCOTLAND, "Ireland": IRELAND_FRANCE, "France": IRELAND_FRANCE}
    for route, needs in zip(BOARD.routes, route_needs(UK), strict=True):
        if "New York" in route.cities:  # "Exception: Southampton - New York is always available!"
            assert needs == ()
            continue
        wanted = {concession[region[c]] for c in route.cities if region[c] != "England"}
        if route.length == 3:
            wanted.add(MECHANICAL_STOKER)
        if route.length >= 4:
            wanted.add(SUPERHEATED_BOILER)
        if route.ferry_locomotives:
            wanted.add(PROPELLERS)
        assert set(needs) == wanted, route.label


def test_two_to_four_players_with_35_trains() -> None:
    with pytest.raises(ValueError, match="2 to 4 players, not 5"):
        new_game(UK, 5)
    state = new_game(UK, 4)
    assert all(p.trains == 35 for p in state.players)


def test_every_player_starts_with_a_locomotive_face_up_besides_four_dealt_cards() -> None:
    state = play(new_game(UK, 3), dealer=ScenarioDealer())
    first = state.game.board.n_cards - 3
    for p, ps in enumerate(state.players):
        assert len(ps.hand) == 5
        gift = ps.hand[0]
        assert (gift.deck, gift.epoch, gift.pos) == (Deck.TRAIN, 0, first + p)
        assert BOARD.card_kind(state.public[gift]) == LOCOMOTIVE  # public: no one is kept from seeing it
    # The gifts never were in the deck: its first shuffle leaves them out.
    dealer = ScenarioDealer()
    play(new_game(UK, 3), dealer=dealer)
    shuffled = dealer.shuffled[0].cards
    assert len(shuffled) == BOARD.n_cards - 3
    assert {state.public[ps.hand[0]] for ps in state.players}.isdisjoint(shuffled)


def test_five_tickets_keep_three_and_in_game_three_keep_one_the_rest_to_the_bottom() -> None:
    state = play(new_game(UK, 2), dealer=ScenarioDealer())
    offered = state.players[0].offered
    assert len(offered) == 5
    with pytest.raises(IllegalMove, match="at least 3 tickets"):
        apply(state, KeepTickets(0, offered[:2], offered[2:]))
    after = apply(state, KeepTickets(0, offered[:3], offered[3:]))
    assert after.awaiting is not None  # the two returned go under the deck, re-masked
    rules = UK.rules
    assert rules.setup_tickets.unkept is Unkept.BOTTOM and rules.draw_tickets.unkept is Unkept.BOTTOM
    assert (rules.draw_tickets.size, rules.draw_tickets.keep_min) == (3, 1)


def test_three_face_up_locomotives_do_not_reset_the_row() -> None:
    state, _ = position(game=UK, face_up=("red", LOCOMOTIVE, LOCOMOTIVE, "blue", "green"),
                        draw_pile=(LOCOMOTIVE, "red", "red"))
    after = play(state.evolve(technologies=holdings_at_start(UK, 2)), DrawFaceUp(0, 0))
    locos = sum(BOARD.card_kind(after.public[r]) == LOCOMOTIVE for r in after.face_up if r is not None)
    assert locos == 3 and after.face_up[1:] == state.face_up[1:]  # the row stays as it is
    assert after.discard == ()


def test_both_sides_of_a_double_route_from_three_players_one_side_with_two() -> None:
    one, other = (r for r in BOARD.routes_between("Birmingham", "Manchester"))
    assert one.twin == other.id
    two = uk_position({0: ["yellow", "yellow"]}, owners={one.id: 1})
    assert claim_problem(two, 0, other) == (
        "in a game of 2, only one side of the double route Birmingham-Manchester is used")
    three = uk_position({0: ["yellow", "yellow"]}, n_players=3, owners={one.id: 1})
    assert claim_problem(three, 0, other) is None


def test_without_technology_only_england_s_one_and_two_space_land_routes() -> None:
    state = uk_position({0: ["red"] * 6 + [LOCOMOTIVE] * 3})
    open_routes = {BOARD.routes[a.route] for a in legal_actions(state, 0) if isinstance(a, ClaimRoute)}
    assert open_routes
    for route in open_routes:
        assert "New York" in route.cities or (route.length <= 2 and not route.ferry_locomotives)
    assert claim_problem(state, 0, between("Aberdeen", "Dundee")) == (
        "Aberdeen-Dundee (white) needs Scotland Concession, which player 0 does not hold")
    assert claim_problem(state, 0, between("Bristol", "Plymouth")) == (
        "Bristol-Plymouth (yellow) needs Mechanical Stoker, which player 0 does not hold")
    assert "needs Propellers" in (claim_problem(state, 0, between("Barrow", "Liverpool")) or "")


def test_southampton_new_york_is_always_open() -> None:
    new_york = between("New York", "Southampton")
    assert (new_york.length, new_york.ferry_locomotives) == (10, 3)
    state = uk_position({0: ["red"] * 7 + [LOCOMOTIVE] * 3})
    assert claim_problem(state, 0, new_york) is None
    after = play(state, ClaimRoute(0, new_york.id, state.players[0].hand))
    assert after.route_owner[new_york.id] == 0 and after.players[0].trains == 25
    assert BOARD.route_points[10] == 40


def test_any_four_cards_pay_as_a_locomotive_and_three_with_the_booster() -> None:
    route = between("Barrow", "Carlisle")  # red, 1 space
    mixed = ["blue", "green", "white", "black"]
    state = uk_position({0: mixed})
    hand = state.players[0].hand
    after = play(state, ClaimRoute(0, route.id, hand))
    assert after.route_owner[route.id] == 0 and not after.players[0].hand
    short = uk_position({0: mixed[:3]})
    with pytest.raises(IllegalMove, match="each a locomotive it asks for being one card or 4 of any kind"):
        apply(short, ClaimRoute(0, route.id, short.players[0].hand))
    boosted = uk_position({0: mixed[:3]}, held={0: (BOOSTER,)})
    assert play(boosted, ClaimRoute(0, route.id, boosted.players[0].hand)).route_owner[route.id] == 0
    assert claims_of(boosted, route)


def test_a_ferry_needs_a_locomotive_for_each_icon_or_four_cards_for_each() -> None:
    ferry = between("Barrow", "Liverpool")  # gray 1, one locomotive
    held = {0: (PROPELLERS,)}
    assert not claims_of(uk_position({0: ["red", "red"]}, held), ferry)
    assert claims_of(uk_position({0: [LOCOMOTIVE]}, held), ferry)
    assert claims_of(uk_position({0: ["red", "red", "blue", "blue"]}, held), ferry)


def test_no_standard_end_of_game_bonus() -> None:
    rules = UK.rules
    assert not rules.longest_path_points and not rules.globetrotter_points and not rules.most_cities_points


def test_a_technology_is_bought_with_locomotives_before_the_turn_and_the_turn_goes_on() -> None:
    state = uk_position({0: [LOCOMOTIVE, "red"]})
    loco = state.players[0].hand[0]
    after = play(state, BuyTechnology(0, WALES, (loco,)))
    assert after.technologies is not None and after.technologies.held[0] == (WALES,)
    assert after.current == 0 and after.phase is Phase.TURN and loco in after.discard
    assert copies_left(after, WALES) == technology_cards(UK)[WALES].copies - 1
    # Any 4 cards stand for a locomotive in a price too.
    four = uk_position({0: ["red", "blue", "green", "white"]})
    bought = play(four, BuyTechnology(0, SCOTLAND, four.players[0].hand))
    assert bought.technologies is not None and bought.technologies.held[0] == (SCOTLAND,)
    with pytest.raises(IllegalMove, match="the price is 2 locomotives"):
        apply(state, BuyTechnology(0, PROPELLERS, (loco,)))


def test_only_one_technology_a_turn_and_never_after_drawing() -> None:
    state = uk_position({0: [LOCOMOTIVE, LOCOMOTIVE, "red"]})
    first, second = state.players[0].hand[:2]
    after = play(state, BuyTechnology(0, WALES, (first,)))
    with pytest.raises(IllegalMove, match="only one technology may be bought a turn"):
        apply(after, BuyTechnology(0, SCOTLAND, (second,)))
    assert not buys(after, SCOTLAND)
    drawn = play(state, DrawBlind(0))
    with pytest.raises(IllegalMove, match="before the turn's action, not after drawing a card"):
        apply(drawn, BuyTechnology(0, WALES, (first,)))
    with pytest.raises(OutOfTurn):
        apply(state, BuyTechnology(1, WALES, (first,)))


def test_a_technology_is_held_once_and_its_copies_are_counted_down() -> None:
    state = uk_position({0: [LOCOMOTIVE]}, held={0: (WALES,), 1: (WALES, SCOTLAND)})
    with pytest.raises(IllegalMove, match="holds Wales Concession already"):
        apply(state, BuyTechnology(0, WALES, state.players[0].hand))
    assert not buys(state, WALES) and buys(state, SCOTLAND)
    assert (copies_left(state, WALES), copies_left(state, SCOTLAND), copies_left(state, BOOSTER)) == (2, 3, 4)
    assert [c.copies for c in technology_cards(UK).values()] == [4] * 10 + [1]  # Right of Way: one


def test_the_concessions_open_their_regions() -> None:
    for name, route in ((WALES, between("Aberystwyth", "Carmarthen")), (SCOTLAND, between("Aberdeen", "Dundee")),
                        (IRELAND_FRANCE, between("Belfast", "Dundalk"))):
        kinds = [route.color] * route.length
        assert not claims_of(uk_position({0: kinds}), route)
        assert claims_of(uk_position({0: kinds}, {0: (name,)}), route)


def test_the_stoker_opens_three_spaces_and_the_boiler_four_to_six_but_not_three() -> None:
    three = between("Bristol", "Plymouth")  # yellow 3
    four = between("Norwich", "Nottingham")  # white 4
    yellow, white = ["yellow"] * 3, ["white"] * 4
    assert claims_of(uk_position({0: yellow}, {0: (MECHANICAL_STOKER,)}), three)
    assert not claims_of(uk_position({0: yellow}, {0: (SUPERHEATED_BOILER,)}), three)
    assert claims_of(uk_position({0: white}, {0: (SUPERHEATED_BOILER,)}), four)
    assert not claims_of(uk_position({0: white}, {0: (MECHANICAL_STOKER,)}), four)


def test_boiler_lagging_scores_one_a_route_and_steam_turbines_two_a_ferry_as_they_are_laid() -> None:
    ferry = between("Barrow", "Liverpool")
    land = between("Barrow", "Carlisle")
    state = uk_position({0: [LOCOMOTIVE]}, {0: (PROPELLERS, BOILER_LAGGING, STEAM_TURBINES)})
    after = play(state, ClaimRoute(0, ferry.id, state.players[0].hand))
    assert after.technologies is not None and after.technologies.earned == (1 + 2, 0)
    plain = uk_position({0: ["red"]}, {0: (BOILER_LAGGING, STEAM_TURBINES)})
    after = play(plain, ClaimRoute(0, land.id, plain.players[0].hand))
    assert after.technologies is not None and after.technologies.earned == (1, 0)
    bare = uk_position({0: ["red"]})
    after = play(bare, ClaimRoute(0, land.id, bare.players[0].hand))
    assert after.technologies is not None and after.technologies.earned == (0, 0)


def test_right_of_way_claims_a_held_route_beside_its_trains_then_returns_to_the_table() -> None:
    route = between("Barrow", "Carlisle")
    state = uk_position({0: [LOCOMOTIVE] * 4 + ["red"]}, owners={route.id: 1})
    assert claim_problem(state, 0, route) == "Barrow-Carlisle (red) already belongs to player 1"
    locos = state.players[0].hand[:4]
    bought = play(state, BuyTechnology(0, RIGHT_OF_WAY, locos))
    assert copies_left(bought, RIGHT_OF_WAY) == 0 and claims_of(bought, route)
    after = play(bought, ClaimRoute(0, route.id, bought.players[0].hand))
    assert after.route_owner[route.id] == 1 and route.id in after.players[0].routes
    assert route.id in after.players[1].routes
    assert copies_left(after, RIGHT_OF_WAY) == 1  # back on the table
    assert after.technologies is not None and RIGHT_OF_WAY not in after.technologies.held[0]


def test_the_caretaker_of_a_forfeited_seat_never_buys_a_technology() -> None:
    state = uk_position({0: [LOCOMOTIVE] * 4 + ["red"]})
    assert buys(state, WALES)  # it could
    move = caretaker_move(state, 0)
    assert isinstance(move, ClaimRoute) and BOARD.routes[move.route].length == 2  # the longest it may claim


def test_a_route_held_by_right_of_way_scores_for_both_holders_and_three_are_refused() -> None:
    route = between("Barrow", "Leeds")  # green 2
    both = score_game(UK, [PlayerClaims((route.id,), (), ()), PlayerClaims((route.id,), (), ())])
    assert [p.routes for p in both.players] == [2, 2]
    with pytest.raises(ClaimError, match="already claimed"):
        score_game(UK, [PlayerClaims((route.id,), (), ())] * 3)
    europe = load_game("europe")
    with pytest.raises(ClaimError, match="already claimed"):
        score_game(europe, [PlayerClaims((0,), (), ()), PlayerClaims((0,), (), ())])


def test_double_heading_scores_two_a_completed_ticket_and_the_laid_points_count_at_the_end() -> None:
    leeds = between("Barrow", "Leeds")
    ticket = next(t for t in BOARD.tickets if {t.a, t.b} == {"Leeds", "Manchester"})
    manchester = between("Leeds", "Manchester")
    state = uk_position({0: []}, held={0: (DOUBLE_HEADING,), 1: ()})
    assert state.technologies is not None
    state = state.evolve(technologies=replace(state.technologies, earned=(0, 5)))
    claims = [PlayerClaims((leeds.id, manchester.id), (), (ticket.id,)), PlayerClaims((manchester.id,), (), ())]
    score = score_game(UK, claims, lambda scores: technology_end_parts(state, scores))
    mine, theirs = score.players
    assert mine.extra == (ScorePart("laid", "Boiler Lagging and Steam Turbines", 0, 0),
                          ScorePart("double_heading", DOUBLE_HEADING, 2, 1))
    assert theirs.extra[0].points == 5 and theirs.extra[1].points == 0
    assert mine.total == mine.routes + mine.tickets + 2 and theirs.total == theirs.routes + 5


KINDS = list(BOARD.colors) + [LOCOMOTIVE]
EVERY_HELD = (WALES, SCOTLAND, IRELAND_FRANCE, MECHANICAL_STOKER, SUPERHEATED_BOILER, PROPELLERS)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(KINDS), min_size=1, max_size=14), st.booleans())
def test_every_claim_and_purchase_offered_is_taken_and_conserves_the_cards(kinds: list[str], boosted: bool) -> None:
    """What move generation offers (cards standing in for locomotives too), the engine takes, and the cards
    it takes go to the discards: none lost, none made."""
    held = EVERY_HELD + ((BOOSTER,) if boosted else ())
    state = uk_position({0: kinds}, {0: held})
    for action in claim_actions(state, 0) + buys(state, DOUBLE_HEADING) + buys(state, STEAM_TURBINES):
        assert isinstance(action, (ClaimRoute, BuyTechnology))
        after = play(state, action)
        assert after.discard == state.discard + action.cards
        assert set(after.players[0].hand) == set(state.players[0].hand) - set(action.cards)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(KINDS), max_size=12), st.integers(1, 4), st.sampled_from([0, 3, 4]))
def test_a_price_in_locomotives_is_paid_exactly_when_the_cards_make_that_many(
        kinds: list[str], cost: int, per: int) -> None:
    """locomotives_payment_problem against its meaning: the cards split into ``cost`` units, each a
    locomotive or ``per`` cards of any kind (none left over)."""
    locos = kinds.count(LOCOMOTIVE)
    others = len(kinds) - locos

    def splits() -> bool:
        for groups in range(cost + 1):
            real = cost - groups
            in_groups = groups * per if per else (0 if groups == 0 else -1)
            if in_groups < 0 or real > locos:
                continue
            # the groups take every other card, and locomotives for the rest of their room
            if in_groups >= others and real + in_groups == len(kinds):
                return True
        return False

    assert (locomotives_payment_problem(kinds, cost, per) is None) == splits()


def test_a_purchase_with_hidden_cards_is_accepted_for_some_faces() -> None:
    state = uk_position({0: [LOCOMOTIVE, "red"]})
    check_for_some_faces(view_for(state, 1), BuyTechnology(0, WALES, state.players[0].hand[:1]))
    bought = play(state, BuyTechnology(0, WALES, state.players[0].hand[:1]))
    with pytest.raises(IllegalMove, match="only one technology"):
        check_for_some_faces(view_for(bought, 1), BuyTechnology(0, SCOTLAND, bought.players[0].hand))


def test_a_ticket_to_france_is_done_at_either_port_and_named_france() -> None:
    london = next(t for t in BOARD.tickets if t.a == "London" and t.goals)
    assert london.goals[0].places == ("France (Dover)", "France (Southampton)")
    dover = (between("London", "Dover").id, between("Dover", "France (Dover)").id)
    southampton = (between("London", "Southampton").id, between("France (Southampton)", "Southampton").id)
    for routes in (dover, southampton):
        score = score_game(UK, [PlayerClaims(routes, (), (london.id,)), PlayerClaims((), (), ())])
        assert score.players[0].ticket_results[0].completed
    ended = play_local_game(UK, 2, 3, [RandomBot(1), RandomBot(2)], record=False).final
    ended = ended.evolve(players=(replace(ended.players[0], tickets=(ticket_ref(london.id, UK),)),
                                  replace(ended.players[1], tickets=())),
                         public={**ended.public, ticket_ref(london.id, UK): london.id})
    named = game_summary(ended, ("Ann", "Bob")).players[0].tickets[0]
    assert (named.a, named.b, named.points) == ("London", "France", 7)


def test_the_advanced_technologies_are_a_variant_of_their_own() -> None:
    assert UK.rules.technologies == tuple(n for n in EVERY_TECHNOLOGY if not technology_cards(ADVANCED)[n].advanced)
    assert ADVANCED.rules.technologies == EVERY_TECHNOLOGY and ADVANCED.digest != UK.digest
    state = uk_position({0: [LOCOMOTIVE]})
    with pytest.raises(IllegalMove, match="there is no Thermocompressor on this table"):
        apply(state, BuyTechnology(0, THERMOCOMPRESSOR, state.players[0].hand))


def test_the_thermocompressor_claims_two_routes_this_turn_then_returns_to_the_table() -> None:
    first, second = between("Barrow", "Carlisle"), between("Barrow", "Leeds")  # red 1, green 2
    state = uk_position({0: [LOCOMOTIVE, "red", "green", "green"]}, game=ADVANCED)
    loco, red, *greens = state.players[0].hand
    bought = play(state, BuyTechnology(0, THERMOCOMPRESSOR, (loco,)))
    once = play(bought, ClaimRoute(0, first.id, (red,)))
    assert once.current == 0 and once.turn == state.turn  # the turn waits for the second claim
    assert {type(a) for a in legal_actions(once, 0)} == {ClaimRoute, FinishTurn}
    with pytest.raises(IllegalMove, match="only with a second claim, or finish_turn"):
        apply(once, DrawBlind(0))
    twice = play(once, ClaimRoute(0, second.id, tuple(greens)))
    assert twice.current == 1 and set(twice.players[0].routes) == {first.id, second.id}
    assert copies_left(twice, THERMOCOMPRESSOR) == 1  # back on the table
    finished = play(once, FinishTurn(0))
    assert finished.current == 1 and finished.players[0].routes == (first.id,)
    with pytest.raises(IllegalMove, match="no second claim"):
        apply(state, FinishTurn(0))



def test_a_thermocompressor_turn_given_up_after_a_claim_into_a_depot_still_empties_its_warehouses() -> None:
    """With Warehouses and Depots too: the first claim reaches a depot, the
    second is given up (finish_turn); the turn ends on the warehouse choice,
    which the pending second claim must not refuse (it stuck the game)."""
    game = load_game("uk", "advanced+depots")
    first = between("Barrow", "Carlisle")  # red 1
    state = uk_position({0: [LOCOMOTIVE, "red"]}, game=game)
    pile = state.draw_pile
    state = state.evolve(depots=Depots(supply=(4, 4), warehouses=((), pile[-2:]),
                                       placed=(("Carlisle", 1), ("Leeds", 0))), draw_pile=pile[:-2])
    loco, red = state.players[0].hand
    once = play(state, BuyTechnology(0, THERMOCOMPRESSOR, (loco,)), ClaimRoute(0, first.id, (red,)))
    assert legal_actions(once, 0) == [FinishTurn(0)]  # no card left for a second claim
    choosing = play(once, FinishTurn(0))
    assert (choosing.phase, choosing.current) == (Phase.WAREHOUSES, 0)
    assert set(legal_actions(choosing, 0)) == {EmptyWarehouses(0, ()), EmptyWarehouses(0, (1,))}
    emptied = play(choosing, EmptyWarehouses(0, (1,)))
    assert (emptied.phase, emptied.current) == (Phase.TURN, 1)
    assert emptied.players[0].hand == pile[-2:]

def test_water_tenders_draws_three_blind_instead_of_two() -> None:
    state = uk_position({0: ["red"]}, held={0: (WATER_TENDERS,)}, game=ADVANCED)
    after = play(state, DrawThreeBlind(0))
    assert len(after.players[0].hand) == 4 and after.current == 1
    with pytest.raises(IllegalMove, match="only a holder of Water Tenders"):
        apply(uk_position({0: ["red"]}, game=ADVANCED), DrawThreeBlind(0))
    with pytest.raises(IllegalMove, match="three blind cards are the whole draw"):
        apply(play(state, DrawBlind(0)), DrawThreeBlind(0))


def test_risky_contracts_and_the_equalising_beam_win_or_lose_at_the_end() -> None:
    leeds, manchester = between("Barrow", "Leeds"), between("Leeds", "Manchester")
    ticket = next(t for t in BOARD.tickets if {t.a, t.b} == {"Leeds", "Manchester"})
    state = uk_position({0: []}, held={0: (RISKY_CONTRACTS,), 1: (EQUALISING_BEAM,)}, game=ADVANCED)
    claims = [PlayerClaims((manchester.id,), (), (ticket.id,)), PlayerClaims((leeds.id,), (), ())]
    score = score_game(ADVANCED, claims, lambda scores: technology_end_parts(state, scores))
    mine, theirs = (dict((part.key, part.points) for part in p.extra) for p in score.players)
    assert mine["risky"] == 20 and theirs["risky"] == 0  # the most tickets: +20
    assert theirs["beam"] == 15  # Barrow-Leeds (2) is as long as Leeds-Manchester (2): a tie counts
    fewer = score_game(ADVANCED, [PlayerClaims((between("Barrow", "Carlisle").id,), (), ()),
                                  PlayerClaims((leeds.id, manchester.id), (), (ticket.id,))],
                       lambda scores: technology_end_parts(state, scores))
    lost, won = (dict((part.key, part.points) for part in p.extra) for p in fewer.players)
    assert lost["risky"] == -20 and won["beam"] == 15  # fewer tickets: -20; the longest trail: +15


def test_diesel_power_plays_one_card_fewer_but_never_a_ferry_s_locomotives() -> None:
    route = between("Barrow", "Leeds")  # green 2
    state = uk_position({0: ["green"]}, held={0: (DIESEL_POWER,)}, game=ADVANCED)
    after = play(state, ClaimRoute(0, route.id, state.players[0].hand))
    assert after.route_owner[route.id] == 0 and after.players[0].trains == 35 - 2
    without = uk_position({0: ["green"]}, game=ADVANCED)
    assert not claims_of(without, route)
    ferry = between("Barrow", "Liverpool")  # gray 1 with its locomotive: nothing to leave out
    held = {0: (DIESEL_POWER, PROPELLERS)}
    assert not claims_of(uk_position({0: ["red"]}, held, game=ADVANCED), ferry)


def test_risky_contracts_and_the_beam_leave_the_table_with_the_first_reshuffle() -> None:
    state = uk_position({0: [LOCOMOTIVE, LOCOMOTIVE]}, game=ADVANCED)
    assert buys(state, RISKY_CONTRACTS) and buys(state, EQUALISING_BEAM)
    reshuffled = state.evolve(epoch=1)
    for name in (RISKY_CONTRACTS, EQUALISING_BEAM):
        assert not buys(reshuffled, name)
        with pytest.raises(IllegalMove, match="only before the train deck's first reshuffle"):
            apply(reshuffled, BuyTechnology(0, name, state.players[0].hand))


def test_the_caretaker_finishes_a_turn_left_waiting_for_the_second_claim() -> None:
    state = uk_position({0: [LOCOMOTIVE, "red"]}, game=ADVANCED)
    loco, red = state.players[0].hand
    carlisle = between("Barrow", "Carlisle").id
    once = play(state, BuyTechnology(0, THERMOCOMPRESSOR, (loco,)), ClaimRoute(0, carlisle, (red,)))
    assert caretaker_move(once, 0) == FinishTurn(0)  # nothing left in hand to pay for a second
    richer = uk_position({0: [LOCOMOTIVE, "red", "green", "green"]}, game=ADVANCED)
    loco, red, *greens = richer.players[0].hand
    once = play(richer, BuyTechnology(0, THERMOCOMPRESSOR, (loco,)), ClaimRoute(0, carlisle, (red,)))
    move = caretaker_move(once, 0)
    assert isinstance(move, ClaimRoute) and set(move.cards) == set(greens)
