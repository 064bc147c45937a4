"""Which track piece the bots lay on France (bots/trackpieces.py): a bed of
their plan in a colour they hold, never across their own plan, and, for a
bot that reads the others, across what the others want."""

from __future__ import annotations

from collections import Counter

from p2p_ttr.bots.trackpieces import choose_lay
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.rules import new_game
from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.trackbeds import lays

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
