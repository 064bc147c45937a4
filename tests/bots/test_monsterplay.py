"""How the bots play Alvin & Dexter (bots/monsterplay.py): they plan around
a City in Chaos, place a monster where the rivals want most and their own
plan does not run; easy moves one at random now and then, medium off a city
its tickets need or for a bonus it does not lead, and hard off a city its
tickets need, onto one the rivals want or for a bonus, when that gains more
than its locomotives."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from p2p_ttr.bots.levels import make_bot
from p2p_ttr.bots.monsterplay import (
    majority_gain,
    place_monster,
    plain_monster_move,
    random_monster_move,
    weighed_monster_move,
)
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


def at(cities: tuple[str, str], cards: tuple[tuple[int, int], tuple[int, int]] = ((1, 1), (0, 0)),
       **laid_out: object) -> GameState:
    """Two players; by default seat 1 leads both monsters' bonuses already (one more card gains nothing)."""
    state, _ = position(2, game=GAME, **laid_out)  # type: ignore[arg-type]
    return state.evolve(monsters=Monsters(cities=cities, cards=cards))


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
    moved = weighed_monster_move(mine, 0, calm)
    assert isinstance(moved, MoveMonster) and moved.monster == "alvin" and moved.city != "Edinburgh"
    assert weighed_monster_move(at(("Roma", "Wien"), hands={0: [LOCOMOTIVE]}), 0, calm) is None
    wanted = list(calm)
    for r in BOARD.routes_at["Berlin"]:
        wanted[r] = 1.0
    spare = weighed_monster_move(at(("Roma", "Wien"), hands={0: [LOCOMOTIVE, LOCOMOTIVE]}), 0, wanted)
    assert isinstance(spare, MoveMonster) and spare.city == "Berlin" and len(spare.cards) == 1
    assert weighed_monster_move(at(("Roma", "Wien"), hands={0: [LOCOMOTIVE, LOCOMOTIVE]}), 0, calm) is None


def test_the_hard_bot_spends_even_its_last_locomotive_on_a_monster_bonus_it_would_lead_or_tie() -> None:
    calm = [0.0] * len(BOARD.routes)
    behind = at(("Roma", "Wien"), ((1, 1), (1, 2)), hands={0: [LOCOMOTIVE]})
    assert majority_gain(behind, 0, 1) == 15.0 and majority_gain(behind, 0, 0) == 15.0  # tie, then ahead
    taken = weighed_monster_move(behind, 0, calm)
    assert isinstance(taken, MoveMonster) and len(taken.cards) == 1
    ahead = at(("Roma", "Wien"), ((2, 2), (1, 1)), hands={0: [LOCOMOTIVE] * 2})
    assert majority_gain(ahead, 0, 0) == 0.0 and weighed_monster_move(ahead, 0, calm) is None


def test_the_medium_bot_frees_its_ticket_city_and_takes_a_bonus_only_with_a_spare_locomotive() -> None:
    state = at(("Paris", "Wien"), hands={0: [LOCOMOTIVE] + ["red"] * 4}, tickets={0: [ticket("Edinburgh", "Paris")]})
    freed = plain_monster_move(state, 0, ())
    assert isinstance(freed, MoveMonster) and freed.monster == "alvin" and freed.city != "Paris"
    none_led = at(("Roma", "Wien"), ((0, 0), (0, 0)), hands={0: [LOCOMOTIVE]})
    assert plain_monster_move(none_led, 0, ()) is None  # its only locomotive stays
    spare = plain_monster_move(at(("Roma", "Wien"), ((0, 0), (0, 0)), hands={0: [LOCOMOTIVE] * 2}), 0, ())
    assert isinstance(spare, MoveMonster) and len(spare.cards) == 1
    assert plain_monster_move(at(("Roma", "Wien"), hands={0: [LOCOMOTIVE] * 2}), 0, ()) is None  # ahead already


def test_the_easy_bot_moves_a_monster_now_and_then_with_a_spare_locomotive() -> None:
    spare = at(("Roma", "Wien"), hands={0: [LOCOMOTIVE] * 2})
    moves = [random_monster_move(spare, 0, random.Random(seed)) for seed in range(40)]
    assert 0 < sum(isinstance(m, MoveMonster) for m in moves) < 40
    assert all(random_monster_move(at(("Roma", "Wien"), hands={0: [LOCOMOTIVE]}), 0, random.Random(seed)) is None
               for seed in range(10))


def test_the_medium_bot_plans_around_the_chaos() -> None:
    state = at(("Paris", "Wien"), hands={0: [LOCOMOTIVE] * 3 + ["red"] * 4},
               tickets={0: [ticket("Edinburgh", "Paris")]})
    brest_marseille = [ticket("Brest", "Marseille")]
    calm = plan_tickets(GAME, route_costs(at(("Roma", "Wien")), 0), brest_marseille, (), 45)
    assert any("Paris" in BOARD.routes[r].cities for r in calm.routes)  # the way through Paris, without chaos
    plan = plan_tickets(GAME, route_costs(state, 0), brest_marseille, (), 45)
    assert plan.routes and not any("Paris" in BOARD.routes[r].cities for r in plan.routes)


@pytest.mark.parametrize("name", ["usa", "europe"])
def test_the_expert_places_the_monsters_and_plays_to_the_end(name: str) -> None:
    state = play_checked(2, 9, load_game(name, "monsters"), bots=[make_bot("expert", 3), make_bot("hard", 4)])
    assert state.monsters is not None and all(state.monsters.cities) and not state.stalled
