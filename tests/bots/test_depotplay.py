"""How each level plays Europe 1912's warehouses and depots (bots/depotplay.py,
bots/depotweigh.py): easy takes every warehouse a claim reaches, medium one
of three cards or more, hard only what pays for the depots it gives back
against the most-unused bonus; hard feeds no warehouse a rival will take,
and claims into a rival's depot for a full warehouse where it would draw."""

from __future__ import annotations

import sys
from pathlib import Path

from p2p_ttr.bots.depotplay import DepotPlay, PlainDepots
from p2p_ttr.bots.depotweigh import WeighedDepots, depot_race
from p2p_ttr.bots.levels import make_bot
from p2p_ttr.bots.techvalue import CARD_POINTS
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.cards import CardRef
from p2p_ttr.engine.depotstate import Depots
from p2p_ttr.engine.events import Action, ClaimRoute, DrawBlind, EmptyWarehouses, StockWarehouse
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.view import view_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from engine_scenario import play, position, route  # noqa: E402

DEPOTS = load_game("europe", "depots")


def at(placed: dict[str, int], warehouses: dict[int, int], supply: tuple[int, int] = (4, 4),
       **laid_out: object) -> GameState:
    """Two players' turn with depots on ``placed`` (city: seat), ``warehouses`` (seat: cards) and ``supply`` left."""
    state, _ = position(2, game=DEPOTS, **laid_out)  # type: ignore[arg-type]
    piles: list[tuple[CardRef, ...]] = [(), ()]
    pile = state.draw_pile
    for seat, count in warehouses.items():
        piles[seat], pile = pile[len(pile) - count:], pile[:len(pile) - count]
    return state.evolve(depots=Depots(supply, tuple(piles), tuple(placed.items())), draw_pile=pile)


def emptied_by(level: str, supply: tuple[int, int]) -> tuple[int, ...]:
    """What ``level`` empties after claiming Paris-Bruxelles, into its own depot (3 cards) and the rival's (1)."""
    state = at({"Bruxelles": 0, "Paris": 1}, {0: 3, 1: 1}, supply, hands={0: ["yellow", "yellow"]})
    state = play(state, ClaimRoute(0, route("Paris", "Bruxelles", "yellow"), state.players[0].hand))
    assert state.phase is Phase.WAREHOUSES
    chosen = make_bot(level, 1).choose(view_for(state, 0), 0)
    assert isinstance(chosen, EmptyWarehouses)
    return chosen.seats


def test_the_levels_empty_warehouses_each_their_own_way() -> None:
    assert emptied_by("easy", (4, 4)) == (0, 1)  # a beginner takes all it can
    assert emptied_by("medium", (4, 4)) == (0,)  # three cards are worth a depot
    assert emptied_by("hard", (4, 4)) == ()  # a depot given back now loses the bonus it shares
    assert emptied_by("hard", (4, 2)) == (0,)  # two depots ahead: one given back costs nothing


def test_each_depot_behind_the_rival_costs_hard_more_of_the_bonus() -> None:
    level, behind, further = (depot_race(m, 4, 10, 1.0) for m in (4, 3, 2))
    assert level > behind > further > 0 and depot_race(0, 0, 10, 1.0) == 0.0


def test_hard_feeds_its_own_warehouse_not_a_rivals_its_plan_also_reaches() -> None:
    ticket = next(t.id for t in DEPOTS.board.tickets if {t.a, t.b} == {"Paris", "Wien"})
    state = at({"Wien": 0, "Paris": 1}, {}, tickets={0: [ticket]})
    assert WeighedDepots().warehouse_for(view_for(state, 0), 0) == 0


class DrawsOnly:
    """A level that would draw from the deck every turn."""

    name = "draws"

    def choose(self, view: GameState, player: int) -> Action:
        return DrawBlind(player)


def test_hard_claims_into_a_rivals_depot_for_a_full_warehouse_where_it_would_draw() -> None:
    full = at({"Paris": 1}, {1: 7}, (4, 2), hands={0: ["yellow", "yellow"]})
    raided = DepotPlay(DrawsOnly(), WeighedDepots()).choose(view_for(full, 0), 0)
    assert isinstance(raided, ClaimRoute) and "Paris" in DEPOTS.board.routes[raided.route].cities
    thin = at({"Paris": 1}, {1: 1}, (4, 2), hands={0: ["yellow", "yellow"]})
    assert isinstance(DepotPlay(DrawsOnly(), WeighedDepots()).choose(view_for(thin, 0), 0), StockWarehouse)
    assert isinstance(DepotPlay(DrawsOnly(), PlainDepots()).choose(view_for(full, 0), 0), StockWarehouse)


def test_hard_counts_the_cards_beyond_what_its_plan_lacks_at_a_quarter() -> None:
    """No ticket: the plan lacks nothing, so a spare route's four cards count in full and the rest a quarter."""
    def gain(cards: int) -> float:
        state = at({"Bruxelles": 0}, {0: cards}, (4, 1))
        taken, points = WeighedDepots().taken(view_for(state, 0), 0, (0,))
        assert taken == (0,)
        return points

    assert abs((gain(8) - gain(4)) - 4 * 0.25 * CARD_POINTS) < 1e-9
    assert abs((gain(4) - gain(2)) - 2 * CARD_POINTS) < 1e-9
