"""The client on Legendary Asia: its mountain routes (each X one more car
to the Mountain Crossing) and the Asian Explorer are said wherever a player
reads a route, a refusal, the rules or the final score."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from client_states import states_of

from p2p_ttr.client.endgame import breakdown
from p2p_ttr.client.explain import route_problem
from p2p_ttr.client.outcomes import Context, Show
from p2p_ttr.client.pagetext import lay_out
from p2p_ttr.client.panel import claim_details
from p2p_ttr.client.verbs import interpret
from p2p_ttr.client.words import route_details
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.outcome import final_score
from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.view import view_for

ASIA = load_game("asia")
NAMES = ("Ann", "Bob", "Cid")
HANOI_MANDALAY = next(r for r in ASIA.board.routes if {r.a, r.b} == {"Hanoi", "Mandalay"})  # red 2, 2 X


@cache
def asia_states() -> tuple[GameState, ...]:
    return states_of(ASIA, 4)


def test_a_mountain_route_says_its_crossings() -> None:
    assert route_details(HANOI_MANDALAY) == "red, 2, mountain: 2 more cars"
    assert claim_details(HANOI_MANDALAY) == "red 2 X2"


def test_a_claim_short_of_the_crossings_cars_says_why() -> None:
    state = next(s for s in asia_states() if s.turn > 3)
    short = state.evolve(players=(replace(state.players[0], trains=3), *state.players[1:]),
                         route_owner=tuple(None if r == HANOI_MANDALAY.id else o for r, o in enumerate(state.route_owner)))
    problem = route_problem(view_for(short, 0), 0, HANOI_MANDALAY, NAMES)
    assert problem is not None and "needs 4 trains (2 of them for its mountain crossings) and you have 3" in problem


def test_the_final_score_shows_the_crossing_and_the_explorer() -> None:
    end = asia_states()[-1]
    score = final_score(end)
    lines = breakdown(end, NAMES)
    assert lines[2].split() == ["player", "total", "routes", "tickets", "mount", "explor", "trail"]
    for p, sc in enumerate(score.players):
        assert sc.total == sc.routes + sc.tickets + sc.mountains + sc.most_cities
        mine = lines[lines.index(f"{NAMES[p]}: {sc.total} points"):]
        assert any(line.startswith(f"  mount   {sc.mountains:>3}   ") for line in mine)
        assert any(line.startswith(f"  explor  {sc.most_cities:>3}   largest network {sc.network_cities} ")
                   for line in mine)
    assert any(sc.most_cities == 10 for sc in score.players)


def test_the_rules_page_says_the_mountains_and_the_explorer() -> None:
    state = next(s for s in asia_states() if s.turn > 3)
    shown = interpret("rules", Context(view_for(state, 0), 0, NAMES))
    assert isinstance(shown, Show)
    said = " ".join(" ".join(lay_out(shown.lines, 100)).split())
    assert "a mountain route takes one more of your trains for each X on it" in said
    assert "each car a mountain route's X sends to the Mountain Crossing scores 2" in said
    assert "the most cities in one network of your routes wins the Asian Explorer (10)" in said
    assert "then most mountain routes" in said
