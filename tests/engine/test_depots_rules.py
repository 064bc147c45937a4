"""Europe 1912's Warehouses and Depots, on any board, scenario by scenario
from the rules summary (shared/rules/other_boards.txt, "Warehouses and
Depots (this can be played with ANY Ticket to Ride map!)"): 5 depots and a
warehouse each; one depot placed by each player before the game, from the
last player counter-clockwise; a draw of train cards first puts the top card
of the deck, unseen, on a warehouse of the drawer's choice; a claim into a
depot lets the claimer take all the cards of the warehouse of its colour,
discarding a depot per warehouse; depots placed as a free action, never with
a station; the warehouses become the draw pile when the draw and discard
piles are empty and a player is out of depots; 10 points for the most
unused depots, ties included."""

from __future__ import annotations

from collections import Counter

import pytest
from engine_scenario import first_tickets_kept, play, position, route

from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.depotstate import Depots
from p2p_ttr.engine.errors import IllegalMove, OutOfTurn
from p2p_ttr.engine.events import (
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    EmptyWarehouses,
    PlaceDepot,
    StockWarehouse,
    event_from_wire,
    to_wire,
)
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.outcome import final_score
from p2p_ttr.engine.caretaker import caretaker_move
from p2p_ttr.engine.rules import actors, apply, new_game
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.view import view_for
from p2p_ttr.local.dealer import LocalDealer

DEPOTS = load_game("europe", "depots")


def at(n_players: int = 3, placed: dict[str, int] | None = None, supply: tuple[int, ...] | None = None,
       warehouses: dict[int, int] | None = None, **laid_out: object) -> GameState:
    """A turn of Europe with depots laid out by ``position``: depots on ``placed`` (city: seat),
    ``supply`` left, ``warehouses`` (seat: cards taken off the bottom of the draw pile)."""
    state, _ = position(n_players, game=DEPOTS, **laid_out)  # type: ignore[arg-type]
    piles: list[tuple[CardRef, ...]] = [() for _ in range(n_players)]
    pile = state.draw_pile
    for seat, count in (warehouses or {}).items():
        piles[seat], pile = pile[len(pile) - count:], pile[:len(pile) - count]
    depots = Depots(supply=supply or (4,) * n_players, warehouses=tuple(piles),
                    placed=tuple((placed or {}).items()))
    return state.evolve(depots=depots, draw_pile=pile)


def to_depot_setup(n_players: int) -> GameState:
    return first_tickets_kept(DEPOTS, n_players, 2)


def test_each_player_has_five_depots_and_an_empty_warehouse() -> None:
    state = new_game(DEPOTS, 4)
    assert state.depots is not None
    assert state.depots.supply == (5,) * 4 and state.depots.warehouses == ((),) * 4
    assert new_game(load_game("europe"), 4).depots is None  # nothing of it without `--with depots`


def test_before_the_game_each_places_a_depot_from_the_last_player_counter_clockwise() -> None:
    state = to_depot_setup(3)
    assert (state.phase, state.current) == (Phase.DEPOT_SETUP, 2)
    with pytest.raises(OutOfTurn):
        apply(state, PlaceDepot(0, "Paris"))
    state = apply(state, PlaceDepot(2, "Paris"))
    assert state.current == 1
    with pytest.raises(IllegalMove, match="Paris already has a depot"):
        apply(state, PlaceDepot(1, "Paris"))
    state = apply(apply(state, PlaceDepot(1, "Wien")), PlaceDepot(0, "Roma"))
    assert (state.phase, state.current) == (Phase.TURN, 0)
    assert state.depots is not None and state.depots.placed == (("Paris", 2), ("Wien", 1), ("Roma", 0))
    assert state.depots.supply == (4, 4, 4)


def test_a_draw_first_puts_the_top_card_unseen_on_a_warehouse_of_the_drawers_choice() -> None:
    state = at()
    top, second = state.draw_pile[:2]
    with pytest.raises(IllegalMove, match="first puts the top card of the deck on a warehouse"):
        apply(state, DrawBlind(0))
    assert not [a for a in legal_actions(state, 0) if isinstance(a, (DrawBlind, DrawFaceUp))]
    assert StockWarehouse(0, 2) in legal_actions(state, 0)
    state = apply(state, StockWarehouse(0, 2))
    assert state.depots is not None and state.depots.warehouses[2] == (top,)
    assert all(state.face(top) is None for _ in (0,)) and top not in view_for(state, 2).private
    state = play(state, DrawBlind(0))
    assert state.players[0].hand[-1] == second  # the drawer's card is the next one
    state = play(state, DrawBlind(0))
    assert state.current == 1 and state.depots is not None and not state.depots.stocked
    assert len(state.depots.warehouses[2]) == 1  # one card per draw action, not per card


def test_once_a_card_is_on_a_warehouse_the_turn_is_a_draw() -> None:
    state = apply(at(hands={0: ["red", "red"]}), StockWarehouse(0, 0))
    with pytest.raises(IllegalMove, match="this turn draws train cards"):
        apply(state, ClaimRoute(0, route("Madrid", "Pamplona"), state.players[0].hand))  # a 3? any claim
    with pytest.raises(IllegalMove, match="this turn draws train cards"):
        apply(state, DrawTickets(0))
    assert {type(a) for a in legal_actions(state, 0)} == {DrawBlind, DrawFaceUp}
    state = play(state, DrawFaceUp(0, 0))  # a face-up card too
    assert state.players[0].hand[-1:] and state.cards_drawn == 1


def test_with_an_empty_deck_nothing_is_placed() -> None:
    state = at(draw_pile=())
    assert not [a for a in legal_actions(state, 0) if isinstance(a, StockWarehouse)]
    with pytest.raises(IllegalMove, match="only before a draw of train cards"):
        apply(state, StockWarehouse(0, 1))
    state = play(state, DrawFaceUp(0, 0))
    assert state.depots is not None and state.depots.warehouses == ((), (), ())


def test_a_claim_into_a_depot_takes_every_card_of_its_colours_warehouse_for_a_depot() -> None:
    claim = route("Paris", "Bruxelles", "yellow")
    state = at(placed={"Bruxelles": 1, "Paris": 2, "Roma": 0}, warehouses={1: 3, 2: 2, 0: 1},
               hands={0: ["yellow", "yellow"]})
    waiting = {s: state.depots.warehouses[s] for s in range(3)} if state.depots else {}
    state = play(state, ClaimRoute(0, claim, state.players[0].hand))
    assert (state.phase, state.current) == (Phase.WAREHOUSES, 0)
    assert set(legal_actions(state, 0)) == {EmptyWarehouses(0, seats) for seats in ((), (1,), (2,), (1, 2))}
    with pytest.raises(IllegalMove, match="no route claimed this turn reaches a depot of player 0's"):
        apply(state, EmptyWarehouses(0, (0,)))  # Roma is no end of Paris-Bruxelles
    state = play(state, EmptyWarehouses(0, (1, 2)))
    assert state.players[0].hand == waiting[1] + waiting[2]
    assert state.depots is not None and state.depots.warehouses == (waiting[0], (), ())
    assert state.depots.supply == (2, 4, 4) and state.current == 1 and state.phase is Phase.TURN


def test_a_warehouse_is_emptied_only_for_a_depot_of_the_supply() -> None:
    state = at(placed={"Bruxelles": 1, "Paris": 2}, warehouses={1: 1, 2: 1}, supply=(1, 4, 4),
               hands={0: ["yellow", "yellow"]})
    state = play(state, ClaimRoute(0, route("Paris", "Bruxelles", "yellow"), state.players[0].hand))
    with pytest.raises(IllegalMove, match="gives back 2 depots; player 0 has 1"):
        apply(state, EmptyWarehouses(0, (1, 2)))
    assert EmptyWarehouses(0, (1, 2)) not in legal_actions(state, 0)


def test_a_claim_with_no_warehouse_to_take_ends_the_turn() -> None:
    # A depot with an empty warehouse, and a full warehouse with no depot on the route.
    state = at(placed={"Bruxelles": 1}, warehouses={2: 2}, hands={0: ["yellow", "yellow"]})
    state = play(state, ClaimRoute(0, route("Paris", "Bruxelles", "yellow"), state.players[0].hand))
    assert (state.phase, state.current) == (Phase.TURN, 1)


def test_depots_are_placed_as_a_free_action_never_with_a_station() -> None:
    state = at(hands={0: ["red"] * 3}, stations={1: ["Wien"]})
    with pytest.raises(IllegalMove, match="Wien has a station"):
        apply(state, PlaceDepot(0, "Wien"))
    state = apply(apply(state, PlaceDepot(0, "Berlin")), PlaceDepot(0, "Essen"))
    assert state.current == 0 and state.depots is not None and state.depots.supply[0] == 2  # the turn goes on
    with pytest.raises(IllegalMove, match="Berlin has a depot"):
        apply(state, BuildStation(0, "Berlin", state.players[0].hand[:1]))
    state = apply(state, StockWarehouse(0, 1))
    with pytest.raises(IllegalMove, match="this turn draws train cards"):
        apply(state, PlaceDepot(0, "Kyiv"))


def test_the_warehouses_become_the_draw_pile_when_both_piles_are_empty_and_a_player_is_out_of_depots() -> None:
    state = at(draw_pile=("red", "blue", "green"), warehouses={0: 1, 2: 2}, face_up=(None,) * 5)
    cards = state.depots.cards() if state.depots else ()
    stuck = state.evolve(draw_pile=())
    with pytest.raises(IllegalMove, match="no train cards left"):
        apply(stuck, DrawBlind(0))  # every player still has a depot: the warehouses stay
    out = stuck.evolve(depots=state.depots.__class__(supply=(4, 0, 4), warehouses=state.depots.warehouses)
                       if state.depots else None)
    out = play(out, DrawBlind(0))
    assert out.players[0].hand == cards[:1] and out.draw_pile == cards[1:]
    assert out.depots is not None and out.depots.warehouses == ((), (), ())


@pytest.mark.parametrize(("supply", "points"), [((3, 1, 0), (10, 0, 0)), ((2, 2, 1), (10, 10, 0)),
                                                ((0, 0, 0), (0, 0, 0))])
def test_the_most_unused_depots_earn_ten_points_to_every_player_tied(supply: tuple[int, ...],
                                                                     points: tuple[int, ...]) -> None:
    state = at(supply=supply).evolve(phase=Phase.OVER)
    parts = [next(p for p in score.extra if p.key == "depots") for score in final_score(state).players]
    assert tuple(part.points for part in parts) == points
    assert tuple(part.count for part in parts) == supply


def test_the_new_moves_cross_the_wire() -> None:
    for event in (PlaceDepot(1, "Paris"), StockWarehouse(0, 2), EmptyWarehouses(2, (0, 1)), EmptyWarehouses(0, ())):
        assert event_from_wire(to_wire(event), DEPOTS) == event
    assert Counter(to_wire(EmptyWarehouses(0, (1,)))[:1]) == Counter(["empty_warehouses"])


@pytest.mark.parametrize("board", ["europe", "oldwest"])
def test_the_caretaker_plays_a_seat_with_depots_to_the_end(board: str) -> None:
    """Its set-up depot on the first city it may, its draws' cards on its own warehouse, nothing emptied."""
    game, dealer = load_game(board, "depots"), LocalDealer(3)
    state = new_game(game, 3)
    for _ in range(20_000):
        if state.over:
            break
        chance = dealer.answer(state)
        events = [chance] if chance is not None else dealer.peeks(state)
        if not events:
            player = actors(state)[0]
            move = caretaker_move(state, player)
            assert move is not None
            events = [move]
        for event in events:
            state = apply(state, event)
    assert state.over and state.depots is not None
    assert state.depots.supply == (4, 4, 4) and all(state.depots.warehouses)
    assert [seat for _, seat in state.depots.placed] == [2, 1, 0]
