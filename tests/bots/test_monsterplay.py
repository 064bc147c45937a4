"""How the bots play Alvin & Dexter (bots/monsterplay.py): they plan around
a City in Chaos, place a monster where the rivals want most and their own
plan does not run, and the hard bot moves one off a city its tickets need,
or onto one the rivals want, only when it gains more than its locomotives."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from p2p_ttr.bots.levels import make_bot
from p2p_ttr.bots.monsterplay import monster_move, place_monster
from p2p_ttr.bots.planning import plan_tickets, route_costs
from p2p_ttr.engine.board import LOCOMOTIVE
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.events import MoveMonster, PlaceMonster
from p2p_ttr.engine.monsters import Monsters
from p2p_ttr.engine.state import GameState, Phase

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from engine_scenario import position, route_on  # noqa: E402
from test_playouts import play_checked  # noqa: E402

GAME = load_game("europe", "monsters")
BOARD = GAME.board


def at(cities: tuple[str, str], **laid_out: object) -> GameState:
    state, _ = position(2, game=GAME, **laid_out)  # type: ignore[arg-type]
    return state.evolve(monsters=Monsters(cities=cities, cards=((0, 0), (0, 0))))


def ticket(a: str, b: str) -> int:
    return next(t.id for t in BOARD.tickets if {t.a, t.b} == {a, b})


def test_every_route_into_a_city_in_chaos_is_closed_to_the_plan() -> None:
    costs = route_costs(at(("Paris", "Wien")), 0)
    assert all(costs[r] is None for r in BOARD.routes_at["Paris"])
    assert costs[route_on(BOARD, "Dieppe", "Brest").id] is not None


def test_a_monster_is_placed_in_the_busiest_city_off_the_bots_own_plan() -> None:
    state = at(("", "")).evolve(phase=Phase.MONSTERS, current=1)
    placed = place_monster(state, 1, ())
    busiest = max(len(BOARD.routes_at[c]) for c in BOARD.cities)
    assert isinstance(placed, PlaceMonster) and len(BOARD.routes_at[placed.city]) == busiest
    assert place_monster(state, 1, BOARD.routes_at[placed.city]).city != placed.city  # type: ignore[attr-defined]
    threat = [0.0] * len(BOARD.routes)
    threat[route_on(BOARD, "Cadiz", "Lisboa").id] = 1.0
    assert place_monster(state, 1, (), threat).city in ("Cadiz", "Lisboa")  # type: ignore[attr-defined]


def test_the_hard_bot_frees_a_city_its_tickets_need_and_spares_its_only_locomotive_otherwise() -> None:
    calm = [0.0] * len(BOARD.routes)
    mine = at(("Edinburgh", "Wien"), hands={0: [LOCOMOTIVE]}, tickets={0: [ticket("Edinburgh", "Paris")]})
    moved = monster_move(mine, 0, calm)
    assert isinstance(moved, MoveMonster) and moved.monster == "alvin" and moved.city != "Edinburgh"
    assert monster_move(at(("Roma", "Wien"), hands={0: [LOCOMOTIVE]}), 0, calm) is None
    wanted = list(calm)
    for r in BOARD.routes_at["Berlin"]:
        wanted[r] = 1.0
    spare = monster_move(at(("Roma", "Wien"), hands={0: [LOCOMOTIVE, LOCOMOTIVE]}), 0, wanted)
    assert isinstance(spare, MoveMonster) and spare.city == "Berlin" and len(spare.cards) == 1
    assert monster_move(at(("Roma", "Wien"), hands={0: [LOCOMOTIVE, LOCOMOTIVE]}), 0, calm) is None


def test_the_medium_bot_plans_around_the_chaos_and_never_moves_a_monster() -> None:
    state = at(("Paris", "Wien"), hands={0: [LOCOMOTIVE] * 3 + ["red"] * 4},
               tickets={0: [ticket("Edinburgh", "Paris")]})
    bot = make_bot("medium", 1)
    assert not isinstance(bot.choose(state, 0), MoveMonster)
    brest_marseille = [ticket("Brest", "Marseille")]
    calm = plan_tickets(GAME, route_costs(at(("Roma", "Wien")), 0), brest_marseille, (), 45)
    assert any("Paris" in BOARD.routes[r].cities for r in calm.routes)  # the way through Paris, without chaos
    plan = plan_tickets(GAME, route_costs(state, 0), brest_marseille, (), 45)
    assert plan.routes and not any("Paris" in BOARD.routes[r].cities for r in plan.routes)


@pytest.mark.parametrize("name", ["usa", "europe"])
def test_the_expert_places_the_monsters_and_plays_to_the_end(name: str) -> None:
    state = play_checked(2, 9, load_game(name, "monsters"), bots=[make_bot("expert", 3), make_bot("hard", 4)])
    assert state.monsters is not None and all(state.monsters.cities) and not state.stalled
