"""France, scenario by scenario from the rules summary
(shared/rules/other_boards.txt, "France"): 2-5 players and 40 trains; all
pathways of double and triple routes at 4-5 players, one at 2-3; 5 tickets
dealt keep 3, the rest under the deck, draw 4 keep 1; countries are dead
ends and a ticket naming one is completed at any of its endpoints; 8 cards
dealt; the Longest Route (+10) and the Globetrotter (+15), ties in full;
ferries; and the track beds (engine/trackbeds.py)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from engine_scenario import ScenarioDealer, play, position

from p2p_ttr.engine.board import LOCOMOTIVE, TRACK_BED, Route
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.caretaker import caretaker_move
from p2p_ttr.engine.errors import IllegalMove, MalformedEvent
from p2p_ttr.engine.events import ClaimRoute, DrawBlind, DrawFaceUp, KeepTickets, LayTrack, event_from_wire, to_wire
from p2p_ttr.engine.game import Unkept
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.rules import apply, new_game
from p2p_ttr.engine.scoring import ClaimError, PlayerClaims, check_claims, longest_trail, score_game, ticket_outcomes
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.tablegame import parse_games
from p2p_ttr.engine import trackbeds
from p2p_ttr.engine.laidpieces import TrackBeds
from p2p_ttr.engine.trackbeds import bed_map, supply

FRANCE = load_game("france")
BOARD = FRANCE.board
SHARED = Path(__file__).resolve().parents[3] / "shared" / "maps" / "france.json"
# Our copy splits the one endpoint joined to two cities (see the data's ``about``).
SPLIT = {"Strasbourg": "Allemagne (Strasbourg)", "Mulhouse": "Allemagne (Mulhouse)"}


def between(a: str, b: str) -> tuple[Route, ...]:
    found = BOARD.routes_between(a, b)
    assert found, f"no route {a}-{b}"
    return found


def at(n_players: int = 2, **kwargs: object) -> GameState:
    """A France position in its TURN phase (engine_scenario.position), no piece laid yet."""
    state, _ = position(n_players, game=FRANCE, **kwargs)  # type: ignore[arg-type]
    return state.evolve(track_beds=TrackBeds())


def laid(state: GameState, *pieces: tuple[int, str]) -> GameState:
    """``state`` with these pieces laid (and what they cross cut), as a LayTrack lays them."""
    for route, color in pieces:
        state = state.evolve(track_beds=trackbeds.laid(state, route, color))
    return state


def drawn_two(state: GameState) -> GameState:
    return play(state, DrawBlind(0), DrawBlind(0))


@pytest.mark.skipif(not SHARED.exists(), reason="shared/maps is not beside this checkout")
def test_the_board_data_is_the_checked_transcription_with_the_two_city_endpoint_split() -> None:
    shared = json.loads(SHARED.read_text())
    endpoints = [e for zone in shared["zones"].values() for e in zone["endpoints"]]
    joined = "Allemagne (Strasbourg/Mulhouse)"
    endpoints[endpoints.index(joined):endpoints.index(joined) + 1] = list(SPLIT.values())
    assert list(BOARD.cities) == shared["cities"] + endpoints

    def place(end: str, other: str) -> str:
        return SPLIT[other] if end == joined else end

    assert [(r.a, r.b, r.length, r.color, r.ferry_locomotives) for r in BOARD.routes] == [
        (place(r["a"], r["b"]), place(r["b"], r["a"]), r["length"], r["color"], r["ferry_locomotives"])
        for r in shared["routes"]]
    assert [(t.a, t.b, t.points) if not t.goals else (t.title) for t in BOARD.tickets] == [
        (t["a"], t["b"], t["points"]) if t["a"] in BOARD.cities and t["b"] in BOARD.cities
        else f"{t['a']}-{t['b']} ({t['points']})" for t in shared["tickets"]]
    found = bed_map(FRANCE)
    assert found is not None
    assert set(found.beds) == {i for i, r in enumerate(shared["routes"]) if r["track_bed"]}
    assert {(i, j) for i, others in found.crosses.items() for j in others} == {
        pair for i, r in enumerate(shared["routes"]) for c in r["crosses"] for pair in ((i, c - 1), (c - 1, i))}
    assert sum(found.pieces.values()) == shared["track_pieces"]["total"] == 64


def test_two_to_five_players_forty_trains_eight_cards_five_tickets_keep_three_under_the_deck() -> None:
    rules = FRANCE.rules
    assert (rules.min_players, rules.max_players, rules.trains, rules.cards_dealt, rules.stations) == (2, 5, 40, 8, 0)
    state = play(new_game(FRANCE, 3), dealer=ScenarioDealer())
    assert all(len(p.hand) == 8 and len(p.offered) == 5 for p in state.players)
    offered = state.players[0].offered
    with pytest.raises(IllegalMove, match="at least 3 tickets"):
        apply(state, KeepTickets(0, offered[:2], offered[2:]))
    after = apply(state, KeepTickets(0, offered[:3], offered[3:]))
    # The two returned wait for every other player's, to be shuffled together under the deck (test_setup_mix.py).
    assert after.awaiting is None and after.returned == offered[3:]
    assert rules.setup_tickets.unkept is Unkept.BOTTOM_SHUFFLED and rules.draw_tickets.unkept is Unkept.BOTTOM
    assert (rules.draw_tickets.size, rules.draw_tickets.keep_min) == (4, 1)


def test_with_two_or_three_players_one_pathway_of_a_triple_route_is_used_with_four_or_five_each_but_one_a_player() -> None:
    blue, orange, purple = between("Orleans", "Paris")  # a printed triple route of 1 space
    assert set(blue.parallel) == {orange.id, purple.id}
    hands = {0: ["orange", "purple"], 1: ["orange"]}
    three = at(3, hands=hands, owners={blue.id: 1})
    assert not [a for a in legal_actions(three, 0) if isinstance(a, ClaimRoute) and a.route in (orange.id, purple.id)]
    four = at(4, hands=hands, owners={blue.id: 1})
    mine = play(four, ClaimRoute(0, orange.id, four.players[0].hand[:1]))
    assert mine.route_owner[orange.id] == 0
    with pytest.raises(IllegalMove, match="already holds another side of the triple route"):
        apply(mine.evolve(current=0), ClaimRoute(0, purple.id, mine.players[0].hand))


def path(a: str, b: str) -> tuple[int, ...]:
    """The routes of a fewest-routes path from ``a`` to ``b`` (breadth first, in route id order)."""
    came: dict[str, int | None] = {a: None}
    frontier = [a]
    while b not in came:
        reached = []
        for city in frontier:
            for r in BOARD.routes_at[city]:
                far = BOARD.routes[r].other_end(city)
                if far not in came:
                    came[far] = r
                    reached.append(far)
        frontier = reached
    routes = []
    while (step := came[b]) is not None:
        routes.append(step)
        b = BOARD.routes[step].other_end(b)
    return tuple(routes)


def test_a_ticket_naming_a_country_is_completed_at_any_of_its_endpoints() -> None:
    ticket = next(t for t in BOARD.tickets if t.title == "Toulouse-Corse (8)")
    corse = ("Corse (Perpignan)", "Corse (Marseille)", "Corse (Nice)")
    assert {p for g in ticket.destinations for p in g.places} == set(corse)
    for endpoint in corse:
        (result,) = ticket_outcomes(BOARD, PlayerClaims(path("Toulouse", endpoint), (), (ticket.id,)))
        assert result.completed and result.points == 8, endpoint
    (missed,) = ticket_outcomes(BOARD, PlayerClaims(path("Toulouse", "Marseille"), (), (ticket.id,)))
    assert not missed.completed and missed.points == -8


def test_a_country_is_a_dead_end_a_path_never_goes_through_it() -> None:
    strasbourg = between("Allemagne (Strasbourg)", "Strasbourg")[0]
    mulhouse = between("Allemagne (Mulhouse)", "Mulhouse")[0]
    # Both end in Germany, at two endpoints: no trail runs Strasbourg-Germany-Mulhouse.
    assert longest_trail(BOARD, (strasbourg.id, mulhouse.id)) == max(strasbourg.length, mulhouse.length)
    assert all(len({BOARD.routes[r].other_end(e) for r in BOARD.routes_at[e]}) == 1
               for zone in ("Belgique", "Allemagne", "Suisse", "Italie", "Espagne", "Corse")
               for e in BOARD.cities if e.startswith(f"{zone} ("))


def test_the_longest_route_and_the_globetrotter_score_every_tied_player_in_full() -> None:
    one = (between("Amiens", "Calais")[0].id,)
    other = (between("Montpellier", "Rodez")[0].id,)  # both 2 spaces
    score = score_game(FRANCE, [PlayerClaims(one, (), ()), PlayerClaims(other, (), ())])
    assert [p.express for p in score.players] == [10, 10]
    tickets = [t for t in BOARD.tickets if not t.goals]
    a = tickets[0]
    b = tickets[1]
    paths = score_game(FRANCE, [PlayerClaims((), (), (a.id,)), PlayerClaims((), (), (b.id,))])
    assert [p.globetrotter for p in paths.players] == [0, 0]  # nobody completed one: nobody scores it
    assert FRANCE.rules.globetrotter_points == 15 and FRANCE.rules.longest_path_points == 10


def test_a_track_bed_can_never_be_claimed_until_built() -> None:
    (bed,) = between("Amiens", "Calais")
    assert bed.color == TRACK_BED and bed.length == 2
    state = at(hands={0: ["red", "red", LOCOMOTIVE, LOCOMOTIVE]})
    assert not [a for a in legal_actions(state, 0) if isinstance(a, ClaimRoute) and a.route == bed.id]
    with pytest.raises(IllegalMove, match="track bed with no piece on it"):
        apply(state, ClaimRoute(0, bed.id, state.players[0].hand[2:]))


def test_after_drawing_train_cards_a_piece_of_the_beds_length_must_be_laid() -> None:
    state = drawn_two(at())
    assert state.phase is Phase.LAY_TRACK and state.current == 0
    lays = legal_actions(state, 0)
    assert lays and all(isinstance(a, LayTrack) for a in lays)
    assert {BOARD.routes[a.route].color for a in lays if isinstance(a, LayTrack)} == {TRACK_BED}
    (bed,) = between("Amiens", "Calais")
    with pytest.raises(IllegalMove, match="not a track bed"):
        apply(state, LayTrack(0, between("Brest", "Cherbourg")[0].id, "red"))
    after = apply(state, LayTrack(0, bed.id, "red"))
    assert after.phase is Phase.TURN and after.current == 1  # the lay ends the turn
    assert supply(after)[("red", 2)] == supply(state)[("red", 2)] - 1


def test_a_face_up_locomotive_is_the_whole_draw_and_then_a_piece_is_laid() -> None:
    state = at(face_up=(LOCOMOTIVE, "blue", "green", "yellow", "black"))
    assert play(state, DrawFaceUp(0, 0)).phase is Phase.LAY_TRACK


def test_a_first_card_with_no_second_to_take_is_the_whole_draw_and_then_a_piece_is_laid() -> None:
    state = at(face_up=(None,) * 5, draw_pile=("red",))
    after = play(state, DrawBlind(0))
    assert after.phase is Phase.LAY_TRACK and after.cards_drawn == 1


def test_a_built_bed_takes_the_pieces_colour_and_is_claimed_in_it() -> None:
    (bed,) = between("Amiens", "Calais")
    state = laid(at(hands={0: ["red", "red", "blue", "blue"]}), (bed.id, "blue"))
    claims = [a for a in legal_actions(state, 0) if isinstance(a, ClaimRoute) and a.route == bed.id]
    assert claims and all(a.cards == state.players[0].hand[2:] for a in claims)
    with pytest.raises(IllegalMove, match="must be paid in blue"):
        apply(state, ClaimRoute(0, bed.id, state.players[0].hand[:2]))


def test_a_laid_piece_cuts_for_good_every_bed_and_route_it_crosses() -> None:
    (lorient,) = between("Le Mans", "Lorient")  # 5 spaces, across Angers-Rennes and Nantes-Rennes
    (angers,), (nantes,) = between("Angers", "Rennes"), between("Nantes", "Rennes")
    state = apply(drawn_two(at()), LayTrack(0, lorient.id, "green"))
    assert state.track_beds is not None and {angers.id, nantes.id} <= state.track_beds.cut
    again = drawn_two(state.evolve(current=0))
    with pytest.raises(IllegalMove, match="cut off"):
        apply(again, LayTrack(0, angers.id, "red"))
    # A printed route under a piece is cut too: Avignon-Toulouse under Montpellier-Rodez.
    (rodez,), (toulouse,) = between("Montpellier", "Rodez"), between("Avignon", "Toulouse")
    cut = laid(at(hands={0: ["red"] * 6}), (rodez.id, "red"))
    with pytest.raises(IllegalMove, match="cut off"):
        apply(cut, ClaimRoute(0, toulouse.id, cut.players[0].hand))
    # ... and stays cut once the piece has gone back to the supply.
    claimed = laid(at(hands={0: ["red", "red"]}, owners={}), (rodez.id, "red"))
    claimed = play(claimed, ClaimRoute(0, rodez.id, claimed.players[0].hand))
    assert claimed.track_beds is not None and toulouse.id in claimed.track_beds.cut


def test_a_piece_may_not_be_laid_through_a_claimed_route() -> None:
    (rodez,), (toulouse,) = between("Montpellier", "Rodez"), between("Avignon", "Toulouse")
    state = drawn_two(at(owners={toulouse.id: 1}))
    with pytest.raises(IllegalMove, match="through the claimed route Avignon-Toulouse"):
        apply(state, LayTrack(0, rodez.id, "red"))


def test_on_a_double_route_a_piece_goes_on_one_pathway_more_later_only_with_four_or_five() -> None:
    first, second, third = between("Dijon", "Paris")  # a triple track bed of 5
    two = laid(at(2), (first.id, "red"))
    assert not [a for a in legal_actions(drawn_two(two), 0) if isinstance(a, LayTrack)
                and a.route in (second.id, third.id)]
    with pytest.raises(IllegalMove, match="only one pathway"):
        apply(drawn_two(two), LayTrack(0, second.id, "blue"))
    four = drawn_two(laid(at(4), (first.id, "red")))
    after = apply(four, LayTrack(0, second.id, "blue"))
    assert after.track_beds is not None and (second.id, "blue") in after.track_beds.laid


def test_a_claimed_piece_goes_back_to_the_supply() -> None:
    (bed,) = between("Amiens", "Calais")
    state = laid(at(hands={0: ["red", "red"]}), (bed.id, "red"))
    assert supply(state)[("red", 2)] == 2
    after = play(state, ClaimRoute(0, bed.id, state.players[0].hand))
    assert after.route_owner[bed.id] == 0 and supply(after)[("red", 2)] == 3
    assert after.track_beds is not None and not after.track_beds.laid


def test_when_no_piece_fits_an_open_bed_the_laying_is_skipped() -> None:
    found = bed_map(FRANCE)
    assert found is not None
    # Every piece on the board: nothing left to lay, so the draw ends the turn.
    every: list[tuple[int, str]] = []
    beds = sorted(found.beds)
    for (color, length), n in found.pieces.items():
        free = [b for b in beds if BOARD.routes[b].length == length and b not in {r for r, _ in every}]
        every += [(b, color) for b in free[:n]]
    full = at().evolve(track_beds=TrackBeds(tuple(sorted(every))))
    assert not supply(full)
    after = drawn_two(full)
    assert after.phase is Phase.TURN and after.current == 1


def test_a_ferry_needs_a_locomotive_for_each_icon() -> None:
    ferry = between("Corse (Nice)", "Nice")[0]
    assert ferry.ferry_locomotives == 1 and ferry.length == 2
    plain = at(hands={0: ["red", "red"]})
    assert not [a for a in legal_actions(plain, 0) if isinstance(a, ClaimRoute) and a.route == ferry.id]
    loco = at(hands={0: ["red", LOCOMOTIVE]})
    assert [a for a in legal_actions(loco, 0) if isinstance(a, ClaimRoute) and a.route == ferry.id]


def test_the_lay_is_decoded_strictly() -> None:
    (bed,) = between("Amiens", "Calais")
    event = LayTrack(1, bed.id, "red")
    assert event_from_wire(to_wire(event), FRANCE) == event
    for wrong in (["lay_track", 1, bed.id, "pink"], ["lay_track", 1, len(BOARD.routes), "red"],
                  ["lay_track", 1, bed.id, 3], ["lay_track", 5, bed.id, "red"]):
        with pytest.raises(MalformedEvent):
            event_from_wire(wrong, FRANCE)


def test_the_caretaker_lays_the_colour_it_holds_most_of_on_the_first_bed() -> None:
    state = drawn_two(at(hands={0: ["yellow", "yellow", "red"]}))
    move = caretaker_move(state, 0)
    assert isinstance(move, LayTrack) and move.color in ("yellow", "purple", "orange", "black")
    held = Counter(BOARD.card_kind(c) for r in state.players[0].hand if (c := state.face(r)) is not None)
    best = max(held[c] for c in BOARD.colors)
    assert held[move.color] == best
    assert move == min((a for a in legal_actions(state, 0) if isinstance(a, LayTrack) and held[a.color] == best),
                       key=lambda a: (BOARD.colors.index(a.color), a.route))
    assert apply(state, move).phase is Phase.TURN


def test_the_final_check_knows_a_triple_route_has_three_tracks() -> None:
    blue, orange, purple = between("Orleans", "Paris")
    with pytest.raises(ClaimError, match="both sides of the double route Orleans-Paris by one player"):
        check_claims(FRANCE, [PlayerClaims((blue.id, purple.id), (), ())] + [PlayerClaims((), (), ())] * 3)
    with pytest.raises(ClaimError, match="with 2 or 3 players only one side"):
        check_claims(FRANCE, [PlayerClaims((blue.id,), (), ()), PlayerClaims((), (), ()),
                              PlayerClaims((purple.id,), (), ())])
    check_claims(FRANCE, [PlayerClaims((blue.id,), (), ()), PlayerClaims((orange.id,), (), ()),
                          PlayerClaims((purple.id,), (), ()), PlayerClaims((), (), ())])


def test_a_paper_score_sheet_names_a_built_bed_by_its_pieces_colour_and_a_country_ticket_by_its_ends() -> None:
    sheet = json.dumps({"players": [
        {"name": "Ann", "routes": [["Corse (Nice)", "Nice"]] + [
            [BOARD.routes[r].a, BOARD.routes[r].b, "red" if BOARD.routes[r].color == TRACK_BED else BOARD.routes[r].color]
            for r in path("Toulouse", "Nice")],
         "tickets": [["Toulouse", "Corse"]]},
        {"name": "Bob", "routes": [["Amiens", "Calais", "blue"]], "tickets": [["Belgique", "Suisse"]]}]})
    (played,) = parse_games(FRANCE, sheet)
    assert played.claims[1].routes == (between("Amiens", "Calais")[0].id,)
    assert [BOARD.tickets[t].title for c in played.claims for t in c.tickets] == [
        "Toulouse-Corse (8)", "Belgique-Suisse (12)"]
    score = score_game(FRANCE, played.claims)
    assert score.players[0].ticket_results[0].completed and not score.players[1].ticket_results[0].completed
