"""Which track piece the bots lay on France (bots/trackpieces.py): a bed of
their plan in a colour they hold, never across their own plan, and, for a
bot that reads the others, across what the others want. And how the plans
read a bed (bots/planning.py): a built one in its piece's colour, an empty
one as a wait for a piece."""

from __future__ import annotations

from collections import Counter

from p2p_ttr.bots.planning import (
    NO_PIECE_EFFORT,
    UNBUILT_BED_EFFORT,
    bed_wait,
    card_gains,
    efforts,
    laid_colors,
    missing_cards,
    route_costs,
)
from p2p_ttr.bots.trackpieces import choose_lay
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.laidpieces import TrackBeds
from p2p_ttr.engine.rules import new_game
from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.trackbeds import bed_map, lays

FRANCE = load_game("france")
BOARD = FRANCE.board


def bed(a: str, b: str) -> int:
    (route,) = BOARD.routes_between(a, b)
    return route.id


def fresh() -> GameState:
    """A new table of two: no route claimed, no piece laid (the pieces to lay depend on nothing else)."""
    return new_game(FRANCE, 2)


def test_a_bed_of_the_plan_gets_the_colour_the_hand_holds_most_of() -> None:
    plan = {bed("Amiens", "Calais")}
    lay = choose_lay(fresh(), 0, plan, Counter({"green": 3, "red": 1}))
    assert lay is not None and (lay.route, lay.color) == (bed("Amiens", "Calais"), "green")


def test_no_piece_is_laid_across_the_bots_own_plan() -> None:
    plan = {bed("Angers", "Rennes"), bed("Nantes", "Rennes")}  # both crossed by Le Mans-Lorient
    state = fresh()
    lorient = bed("Le Mans", "Lorient")
    assert any(a.route == lorient for a in lays(state, 0))
    for hand in (Counter({"red": 5}), Counter()):
        lay = choose_lay(state, 0, plan, hand)
        assert lay is not None and lay.route != lorient


def test_a_bot_reading_the_others_cuts_a_route_they_want() -> None:
    threat = [0.0] * len(BOARD.routes)
    threat[bed("Angers", "Rennes")] = threat[bed("Nantes", "Rennes")] = 1.0
    lay = choose_lay(fresh(), 0, set(), Counter(), threat)
    assert lay is not None and lay.route == bed("Le Mans", "Lorient")
    blind = choose_lay(fresh(), 0, set(), Counter())  # without the reading: nothing to cut for
    assert blind is not None and blind.route != bed("Le Mans", "Lorient")


def test_a_built_bed_asks_for_its_piece_s_colour_and_an_empty_one_for_any() -> None:
    """Amiens-Calais (2 spaces) with a red piece on it is a red route: two
    green cards do not pay for it and a red card brings it nearer; empty, the
    bot may still lay the piece its hand suits, so two green pay."""
    calais = bed("Amiens", "Calais")
    built = fresh().evolve(track_beds=TrackBeds(laid=((calais, "red"),)))
    green = Counter({"green": 2})
    assert missing_cards(FRANCE, [calais], green, laid_colors(built)) == 2
    assert card_gains(FRANCE, [calais], green.copy(), laid_colors(built))["red"] == 1
    assert missing_cards(FRANCE, [calais], green, laid_colors(fresh())) == 0


def test_a_plan_counts_the_wait_for_a_piece_on_an_empty_bed() -> None:
    """An empty bed costs a card's effort more than a built one (a piece must
    be laid first, by anyone), and more again when no piece of its length
    is left to lay (the 5-space pieces: one of each colour, fewer than the beds)."""
    calais = bed("Amiens", "Calais")
    built = fresh().evolve(track_beds=TrackBeds(laid=((calais, "red"),)))
    assert route_costs(built, 0)[calais] == efforts(FRANCE)[calais]
    assert route_costs(fresh(), 0)[calais] == efforts(FRANCE)[calais] + UNBUILT_BED_EFFORT
    found = bed_map(FRANCE)
    assert found is not None
    fives = [r for r in found.beds if BOARD.routes[r].length == 5]
    colours = [c for (c, length), n in found.pieces.items() if length == 5 for _ in range(n)]
    assert len(fives) > len(colours)
    every_five = fresh().evolve(track_beds=TrackBeds(laid=tuple(zip(fives, colours))))
    last = BOARD.routes[fives[-1]]
    assert bed_wait(every_five, last) == UNBUILT_BED_EFFORT + NO_PIECE_EFFORT
    assert bed_wait(fresh(), last) == UNBUILT_BED_EFFORT
