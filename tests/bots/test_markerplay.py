"""How the bots play Old West's city markers (bots/markerplay.py): where they
start, how their plan reaches their network, what a rival's marker costs a
route, and when a marker is worth its two cards."""

from __future__ import annotations

import sys
from pathlib import Path

from p2p_ttr.bots.markerplay import best_marker, joined_to_network, rivals_cities_cost, start_city
from p2p_ttr.bots.planning import Plan, plan_tickets, route_costs
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.citymarkers import CityMarkers
from p2p_ttr.engine.events import ClaimRoute, PlaceMarker, PlaceStartCity, SkipMarker
from p2p_ttr.engine.state import GameState, Phase

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from engine_scenario import play, position  # noqa: E402

OLD_WEST = load_game("oldwest")
BOARD = OLD_WEST.board


def at(markers: dict[str, int], **laid_out: object) -> GameState:
    state, _ = position(2, game=OLD_WEST, **laid_out)  # type: ignore[arg-type]
    return state.evolve(markers=CityMarkers(placed=tuple(markers.items()), route_points=(0, 0)))


def ticket(a: str, b: str) -> int:
    return next(t.id for t in BOARD.tickets if {t.a, t.b} == {a, b})


def test_the_start_is_where_the_plan_is_busiest() -> None:
    state = at({"Boise": 1}).evolve(phase=Phase.START_CITY)
    plan = plan_tickets(OLD_WEST, route_costs(state, 0), [ticket("Salt Lake City", "Cheyenne")], (), 40)
    chosen = start_city(state, 0, plan.routes)
    assert isinstance(chosen, PlaceStartCity)
    touched = [c for r in plan.routes for c in BOARD.routes[r].cities]
    assert touched.count(chosen.city) == max(touched.count(c) for c in touched)  # a city inside the plan


def test_a_plan_out_of_reach_is_joined_to_the_network_first() -> None:
    state = at({"Seattle": 0, "Boise": 1})
    costs = route_costs(state, 0)
    plan = plan_tickets(OLD_WEST, costs, [ticket("Salt Lake City", "Cheyenne")], (), 40)
    joined = joined_to_network(state, 0, costs, plan)
    added = joined.routes[: len(joined.routes) - len(plan.routes)]
    assert added and joined.routes[len(added):] == plan.routes
    assert "Seattle" in BOARD.routes[added[0]].cities or any("Seattle" in BOARD.routes[r].cities for r in added)
    assert joined.trains == plan.trains + sum(BOARD.routes[r].cars for r in added)
    plain = Plan(OLD_WEST, plan.routes, plan.trains, plan.cost, (), (), ())
    assert joined_to_network(state.evolve(markers=None), 0, costs, plain) is plain  # other boards: as it is


def test_a_route_into_a_rivals_city_costs_more_than_its_twin_elsewhere() -> None:
    state = at({"Denver": 0, "Grand Junction": 1})
    costs = route_costs(state, 0)
    dearer = rivals_cities_cost(state, 0, costs, 0.05, 0.15)
    into = next(r.id for r in BOARD.routes if {r.a, r.b} == {"Denver", "Grand Junction"})
    plain = next(r.id for r in BOARD.routes if {r.a, r.b} == {"Pueblo", "Durango"})
    assert dearer[into] is not None and costs[into] is not None and dearer[into] > costs[into]
    assert dearer[plain] == costs[plain]


def test_a_marker_goes_down_only_where_it_is_worth_its_cards() -> None:
    route = next(r for r in BOARD.routes if {r.a, r.b} == {"Denver", "Grand Junction"})
    state = at({"Denver": 0, "Boise": 1}, hands={0: ["red"] * 3 + ["blue", "blue"]})
    state = play(state, ClaimRoute(0, route.id, state.players[0].hand[:3]))
    assert state.phase is Phase.MARKER
    assert isinstance(best_marker(state, 0, least_worth=1.0), PlaceMarker)
    assert best_marker(state, 0, least_worth=1000.0) == SkipMarker(0)
