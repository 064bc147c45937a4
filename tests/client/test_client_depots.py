"""The client with Europe 1912's warehouses and depots: the commands (depot,
warehouse, empty), what the turn waits for, Tab after them, the moves in
words, the panel's counts, the depots on the map and the rules page."""

from __future__ import annotations

import sys
from pathlib import Path

from p2p_ttr.client.depotwords import warehouse_counts
from p2p_ttr.client.helptext import rules_page, verb_help
from p2p_ttr.client.mapview import DEPOT, MY_DEPOT, draw_map, legend, marks_for
from p2p_ttr.client.outcomes import Ask, Context, Play, Refuse
from p2p_ttr.client.pagetext import Para
from p2p_ttr.client.phrases import changes, what_now
from p2p_ttr.client.styled import text_of
from p2p_ttr.client.verbs import VERBS, complete, interpret
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.depotstate import Depots
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.events import ClaimRoute, DrawFaceUp, EmptyWarehouses, PlaceDepot, StockWarehouse
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.view import view_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from engine_scenario import play, position, route  # noqa: E402

DEPOTS = load_game("europe", "depots")
NAMES = ("Ann", "Bob", "Cid")


def at(placed: dict[str, int] | None = None, warehouses: dict[int, int] | None = None, **laid_out: object) -> GameState:
    state, _ = position(3, game=DEPOTS, **laid_out)  # type: ignore[arg-type]
    piles = [state.draw_pile[:0]] * 3
    pile = state.draw_pile
    for seat, count in (warehouses or {}).items():
        piles[seat], pile = pile[-count:], pile[:-count]
    return state.evolve(draw_pile=pile, depots=Depots((4, 4, 4), tuple(piles), tuple((placed or {}).items())))


def ctx(state: GameState, seat: int = 0) -> Context:
    return Context(view_for(state, seat), seat, NAMES)


def said(line: str, state: GameState, seat: int = 0) -> object:
    return interpret(line, ctx(state, seat))


def sent(line: str, state: GameState, seat: int = 0) -> object:
    """The action ``line`` plays (it must play one)."""
    outcome = said(line, state, seat)
    assert isinstance(outcome, Play), outcome
    return outcome.action


def why_not(line: str, state: GameState, seat: int = 0) -> str:
    """Why ``line`` is refused (it must be)."""
    outcome = said(line, state, seat)
    assert isinstance(outcome, Refuse), outcome
    return outcome.reason


def test_depot_places_one_at_set_up_and_refuses_a_taken_city() -> None:
    state = at({"Paris": 2}).evolve(phase=Phase.DEPOT_SETUP, current=1)
    assert what_now(view_for(state, 1), 1) == "put your first depot on a city: depot CITY"
    assert sent("depot wien", state, 1) == PlaceDepot(1, "Wien")
    assert "Paris already has a depot (player 2's)" in why_not("depot paris", state, 1)
    assert "first put your first depot on a city (depot CITY)" in why_not("draw", state, 1)


def test_a_draw_asks_for_the_warehouse_first() -> None:
    state = at()
    assert "warehouse SEAT" in what_now(view_for(state, 0), 0)
    assert sent("warehouse bob", state) == StockWarehouse(0, 1) and sent("warehouse me", state) == StockWarehouse(0, 0)
    stocked = play(state, StockWarehouse(0, 1))
    assert sent("draw", stocked) is not None
    assert "a card went on a warehouse, so this turn draws" in why_not("tickets", stocked)
    offered = [s.text for s in complete("warehouse ", ctx(state))]
    assert offered == ["1", "2", "3"]


def test_draw_asks_whose_warehouse_and_enter_takes_your_own() -> None:
    state = at(warehouses={1: 2})
    asked = said("draw 2", state)
    assert isinstance(asked, Ask) and "whose? (Enter: yours)" in asked.question
    assert [(c.key, c.label) for c in asked.choices[:3]] == [
        ("1", "yours (0 cards)"), ("2", "seat 2 Bob (2 cards)"), ("3", "seat 3 Cid (0 cards)")]
    own = interpret("", ctx(state), asked)
    assert isinstance(own, Play) and own.action == StockWarehouse(0, 0)
    assert own.said == "the deck's top card on your warehouse; now your draw: draw 2"
    assert interpret("2", ctx(state), asked) == asked.choices[1].outcome
    assert sent("draw 2", play(state, StockWarehouse(0, 1))) == DrawFaceUp(0, 1)


def test_draw_refuses_a_bad_draw_before_asking_for_a_warehouse() -> None:
    assert "draw takes a face-up slot 1-5 or a colour" in why_not("draw sideways", at())


def test_help_says_draw_asks_for_a_warehouse_only_with_depots() -> None:
    def summary(game: Game) -> str:
        block = verb_help(VERBS.find("draw"), game)[1]  # type: ignore[arg-type]
        assert isinstance(block, Para)
        return block.text

    assert "asks which warehouse the deck's top card goes on" in summary(DEPOTS)
    assert "warehouse" not in summary(load_game("europe"))


def test_empty_takes_the_warehouses_a_claim_reaches() -> None:
    state = at({"Bruxelles": 1, "Paris": 2}, {1: 3, 2: 2}, hands={0: ["yellow", "yellow"]})
    state = play(state, ClaimRoute(0, route("Paris", "Bruxelles", "yellow"), state.players[0].hand))
    assert what_now(view_for(state, 0), 0) == ("take a warehouse for a depot each: empty SEAT (of 2 (3 cards), "
                                               "3 (2 cards)), or empty none")
    assert sent("empty 2 cid", state) == EmptyWarehouses(0, (1, 2))
    assert sent("empty none", state) == EmptyWarehouses(0, ())
    assert "player 0's warehouse is empty" in why_not("empty 1", state)
    assert [s.text for s in complete("empty ", ctx(state))] == ["2", "3", "none"]
    after = play(state, EmptyWarehouses(0, (1,)))
    told = changes(view_for(state, 1), view_for(after, 1), 1, NAMES)
    assert "Ann took the 3 cards of your warehouse (a depot back to the box)" in told
    assert not any("drew" in line for line in told)  # a warehouse's cards are no draw


def test_the_moves_in_words_the_panel_counts_and_the_map_marks() -> None:
    state = at({"Paris": 0, "Wien": 1}, {2: 4})
    stocked = play(state, StockWarehouse(0, 2))
    told = changes(view_for(state, 1), view_for(stocked, 1), 1, NAMES)
    assert "Ann put the top card of the deck, unseen, on Cid's warehouse" in told
    placed = play(state, PlaceDepot(0, "Berlin"))
    assert "Ann put a depot on Berlin" in changes(view_for(state, 1), view_for(placed, 1), 1, NAMES)
    assert warehouse_counts(stocked) == "depots/warehouse: 1 4/0  2 4/0  3 4/5"
    board = DEPOTS.board
    marks = marks_for(board, view_for(state, 0), 0)
    assert dict(marks.depots) == {"Paris": 0, "Wien": 1}
    drawn = "\n".join(text_of(line) for line in draw_map(board, marks, 100, 30))
    assert MY_DEPOT in drawn and DEPOT in drawn
    assert "depot" in text_of(legend(DEPOTS))
    assert any(isinstance(block, Para) and block.text.startswith("Warehouses and depots")
               for block in rules_page(DEPOTS))
