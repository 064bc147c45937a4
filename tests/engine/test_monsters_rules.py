"""Alvin & Dexter, scenario by scenario from the rules summary
(shared/rules/other_boards.txt, "Alvin & Dexter Mini-Expansion"): placed
after the tickets by the last player and the one to their right; a City in
Chaos takes no claim; a monster moved for one locomotive up to 3 cities,
two up to 6, one a turn, blocked while its card lies face up in front of
another player until the end of their next turn, never from an empty deck;
tickets into chaos halved, the most cards of each monster +15, ties in full."""

from __future__ import annotations

import pytest
from engine_scenario import EUROPE, first_tickets_kept, play, position, route_on

from p2p_ttr.engine.board import LOCOMOTIVE
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.caretaker import caretaker_move
from p2p_ttr.engine.errors import IllegalMove, OutOfTurn
from p2p_ttr.engine.events import (
    BuildStation,
    ClaimRoute,
    DrawBlind,
    MoveMonster,
    PlaceMonster,
)
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.monsterpoints import monster_parts
from p2p_ttr.engine.monsters import Monsters, chaos_places
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.rules import apply
from p2p_ttr.engine.scoring import PlayerClaims, in_chaos, score_game, ticket_outcomes
from p2p_ttr.engine.state import GameState, Phase

MONSTROUS = load_game("europe", "monsters")
BOARD = MONSTROUS.board


def at(cities: tuple[str, str] = ("Paris", "Wien"), n_players: int = 2,
       cards: tuple[tuple[int, int], ...] | None = None, **laid_out: object) -> GameState:
    """A turn of Europe with the monsters, laid out by ``position``, Alvin and Dexter in ``cities``."""
    state, _ = position(n_players, game=MONSTROUS, **laid_out)  # type: ignore[arg-type]
    return state.evolve(monsters=Monsters(cities=cities, cards=cards or ((0, 0),) * n_players))


def to_placing(game: Game, n_players: int) -> GameState:
    """A new game with every first ticket choice made (the first two kept)."""
    return first_tickets_kept(game, n_players, 2)


def moves_of(state: GameState, player: int) -> list[MoveMonster]:
    return [a for a in legal_actions(state, player) if isinstance(a, MoveMonster)]


# --- set-up ---------------------------------------------------------------------


def test_the_last_player_places_alvin_and_the_one_to_their_right_dexter_before_the_first_turn() -> None:
    state = to_placing(MONSTROUS, 4)
    assert state.phase is Phase.MONSTERS and state.current == 3
    assert {a.monster for a in legal_actions(state, 3)} == {"alvin"} and len(legal_actions(state, 3)) == len(BOARD.cities)
    with pytest.raises(OutOfTurn):
        apply(state, PlaceMonster(2, "alvin", "Paris"))
    with pytest.raises(IllegalMove, match="Alvin is placed now"):
        apply(state, PlaceMonster(3, "dexter", "Paris"))
    state = apply(state, PlaceMonster(3, "alvin", "Paris"))
    assert state.phase is Phase.MONSTERS and state.current == 2
    assert PlaceMonster(2, "dexter", "Paris") not in legal_actions(state, 2)
    with pytest.raises(IllegalMove, match="Paris has the other monster"):
        apply(state, PlaceMonster(2, "dexter", "Paris"))
    state = apply(state, PlaceMonster(2, "dexter", "Wien"))
    assert state.phase is Phase.TURN and state.current == 0
    assert state.monsters is not None and state.monsters.cities == ("Paris", "Wien")


def test_with_two_players_the_second_places_alvin_and_the_first_dexter() -> None:
    state = to_placing(MONSTROUS, 2)
    assert state.current == 1
    state = apply(apply(state, PlaceMonster(1, "alvin", "Roma")), PlaceMonster(0, "dexter", "Kyiv"))
    assert state.phase is Phase.TURN and state.current == 0


def test_a_game_without_the_monsters_has_no_placing_and_no_slice() -> None:
    state = to_placing(EUROPE, 2)
    assert state.phase is Phase.TURN and state.monsters is None
    with pytest.raises(OutOfTurn):
        apply(state, PlaceMonster(1, "alvin", "Roma"))


def test_the_caretaker_places_a_monster_on_the_first_city_it_may() -> None:
    state = apply(to_placing(MONSTROUS, 2), PlaceMonster(1, "alvin", BOARD.cities[0]))
    assert caretaker_move(state, 0) == PlaceMonster(0, "dexter", BOARD.cities[1])


# --- chaos ----------------------------------------------------------------------


def test_no_route_into_or_out_of_a_city_in_chaos_may_be_claimed() -> None:
    dieppe = route_on(BOARD, "Dieppe", "Paris")
    state = at(hands={0: ["purple"] * 3})
    assert not [a for a in legal_actions(state, 0) if isinstance(a, ClaimRoute) and a.route == dieppe.id]
    hand = state.players[0].hand
    with pytest.raises(IllegalMove, match="Paris is a City in Chaos"):
        apply(state, ClaimRoute(0, dieppe.id, hand[:1]))
    moved_away = at(("Lisboa", "Wien"), hands={0: ["purple"] * 3})
    assert apply(moved_away, ClaimRoute(0, dieppe.id, moved_away.players[0].hand[:1])).route_owner[dieppe.id] == 0


def test_a_tunnel_into_chaos_is_never_started_and_no_station_goes_there() -> None:
    zurich = route_on(BOARD, "Paris", "Zurich")
    assert zurich.tunnel
    state = at(hands={0: ["red"] * 6})
    with pytest.raises(IllegalMove, match="City in Chaos"):
        apply(state, ClaimRoute(0, zurich.id, state.players[0].hand[:3]))
    with pytest.raises(IllegalMove, match="no station may be built"):
        apply(state, BuildStation(0, "Wien", state.players[0].hand[:1]))
    assert apply(state, BuildStation(0, "Roma", state.players[0].hand[:1])).players[0].stations == ("Roma",)


def test_a_monster_on_a_flag_of_a_country_puts_the_whole_country_in_chaos() -> None:
    game = load_game("switzerland", "monsters")
    chaos = chaos_places(game.board, Monsters(("France (Geneve)", "Bern"), ((0, 0), (0, 0))))
    assert {"France (Martigny)", "France (Delemont)", "Bern"} < chaos and "Geneve" not in chaos
    uk = load_game("uk", "monsters").board  # the United Kingdom's France, reached at either port
    assert {"France (Dover)", "France (Southampton)"} <= chaos_places(uk, Monsters(("France (Dover)", "London"),
                                                                                   ((0, 0), (0, 0))))
    state, _ = position(2, game=game, hands={0: ["black"] * 2})
    state = state.evolve(monsters=Monsters(("France (Geneve)", "Bern"), ((0, 0), (0, 0))))
    delemont = route_on(game.board, "Delemont", "France (Delemont)")
    with pytest.raises(IllegalMove, match="France \\(Delemont\\) is a City in Chaos"):
        apply(state, ClaimRoute(0, delemont.id, state.players[0].hand))


# --- moving a monster ------------------------------------------------------------


def test_one_locomotive_moves_a_monster_up_to_three_cities_and_the_turn_goes_on() -> None:
    state = at(hands={0: [LOCOMOTIVE, LOCOMOTIVE, "red"]})
    loco = state.players[0].hand[0]
    state = apply(state, MoveMonster(0, "alvin", "Wien", (loco,)))  # Paris-Zurich-Munchen-Wien: 3
    assert state.monsters is not None and state.monsters.cities == ("Wien", "Wien")
    assert state.monsters.cards == ((1, 0), (0, 0))
    assert state.phase is Phase.TURN and state.current == 0 and loco in state.discard
    assert loco not in state.players[0].hand
    apply(state, DrawBlind(0))  # the turn's action is still to come


def test_a_city_too_far_is_refused_naming_the_cities_in_reach() -> None:
    state = at(hands={0: [LOCOMOTIVE, LOCOMOTIVE]})
    locos = state.players[0].hand
    with pytest.raises(IllegalMove, match=r"Athina is more than 3 cities from Alvin in Paris; within 3: .*Brindisi"):
        apply(state, MoveMonster(0, "alvin", "Athina", locos[:1]))
    far = apply(state, MoveMonster(0, "alvin", "Moskva", locos))  # 6 cities: two locomotives
    assert far.monsters is not None and far.monsters.cities[0] == "Moskva"
    with pytest.raises(IllegalMove, match="more than 6 cities"):
        apply(state, MoveMonster(0, "alvin", "Sochi", locos))
    offered = {(a.city, len(a.cards)) for a in moves_of(state, 0) if a.monster == "alvin"}
    assert ("Wien", 1) in offered and ("Moskva", 2) in offered and ("Paris", 1) in offered
    assert not any(city == "Sochi" for city, _ in offered)


def test_only_locomotive_cards_pay_for_a_monster() -> None:
    state = at(hands={0: ["red", "red", LOCOMOTIVE]})
    red = state.players[0].hand[:1]
    with pytest.raises(IllegalMove, match="one or two locomotive cards, and nothing else"):
        apply(state, MoveMonster(0, "alvin", "Dieppe", red))
    assert all(len(a.cards) == 1 for a in moves_of(state, 0))  # one locomotive: 3 cities at most
    assert not moves_of(at(hands={0: ["red"] * 4}), 0)


def test_one_monster_a_turn_and_only_before_the_turns_action() -> None:
    state = at(hands={0: [LOCOMOTIVE] * 3})
    locos = state.players[0].hand
    moved = apply(state, MoveMonster(0, "alvin", "Dieppe", locos[:1]))
    with pytest.raises(IllegalMove, match="only one monster may be moved a turn"):
        apply(moved, MoveMonster(0, "dexter", "Budapest", locos[1:2]))
    assert not moves_of(moved, 0)
    drawn = play(state, DrawBlind(0))
    with pytest.raises(IllegalMove, match="before the turn's action"):
        apply(drawn, MoveMonster(0, "alvin", "Dieppe", locos[:1]))


def test_the_card_face_up_blocks_the_monster_for_the_others_until_the_end_of_its_takers_next_turn() -> None:
    state = at(hands={0: [LOCOMOTIVE] * 3, 1: [LOCOMOTIVE] * 3},
               draw_pile=["purple", "orange", "black", "white"] * 2)
    mine, theirs = state.players[0].hand, state.players[1].hand
    state = play(state, MoveMonster(0, "alvin", "Dieppe", mine[:1]), DrawBlind(0), DrawBlind(0))
    assert state.current == 1
    with pytest.raises(IllegalMove, match="Alvin's card lies face up in front of player 0"):
        apply(state, MoveMonster(1, "alvin", "Paris", theirs[:1]))
    assert {a.monster for a in moves_of(state, 1)} == {"dexter"}
    state = play(state, DrawBlind(1), DrawBlind(1))
    # Its taker may move it again on their next turn; they do not, and after it nobody is blocked.
    assert {a.monster for a in moves_of(state, 0)} == {"alvin", "dexter"}
    state = play(state, DrawBlind(0), DrawBlind(0))
    assert {a.monster for a in moves_of(state, 1)} == {"alvin", "dexter"}
    state = apply(state, MoveMonster(1, "alvin", "Paris", theirs[:1]))
    assert state.monsters is not None and state.monsters.cards == ((1, 0), (1, 0))


def test_a_monster_whose_deck_is_empty_moves_no_more() -> None:
    state = at(hands={0: [LOCOMOTIVE]}, cards=((12, 3), (8, 0)))
    with pytest.raises(IllegalMove, match="Alvin's deck is empty"):
        apply(state, MoveMonster(0, "alvin", "Dieppe", state.players[0].hand))
    assert {a.monster for a in moves_of(state, 0)} == {"dexter"}


# --- the end ----------------------------------------------------------------------


def test_a_ticket_naming_a_city_in_chaos_scores_half_and_loses_half_rounded_down() -> None:
    assert (in_chaos(7, True), in_chaos(8, True), in_chaos(7, False)) == (3, 4, 7)
    edinburgh_paris = next(t for t in BOARD.tickets if {t.a, t.b} == {"Edinburgh", "Paris"})
    assert edinburgh_paris.points == 7
    way = [route_on(BOARD, a, b).id for a, b in (("Edinburgh", "London"), ("London", "Dieppe"), ("Dieppe", "Paris"))]
    done = PlayerClaims(tuple(way), (), (edinburgh_paris.id,))
    failed = PlayerClaims(tuple(way[:2]), (), (edinburgh_paris.id,))
    (won,) = ticket_outcomes(BOARD, done, chaos=frozenset({"Paris"}))
    (lost,) = ticket_outcomes(BOARD, failed, chaos=frozenset({"Paris"}))
    assert (won.points, won.halved, lost.points, lost.halved) == (3, True, -3, True)
    (calm,) = ticket_outcomes(BOARD, failed, chaos=frozenset({"Roma"}))
    assert (calm.points, calm.halved) == (-7, False)
    score = score_game(MONSTROUS, [done, PlayerClaims((), (), ())], chaos=frozenset({"Edinburgh"}))
    assert score.players[0].tickets == 3


def test_a_country_ticket_is_halved_by_the_chaos_of_its_start_or_of_the_destination_it_scores() -> None:
    swiss = load_game("switzerland", "monsters").board
    ticket = next(t for t in swiss.tickets if t.goals and len(t.origin) == 1)
    goal = max(ticket.destinations, key=lambda g: g.points)
    calm = [g for g in ticket.destinations if g is not goal]
    chaos = frozenset(goal.places)
    (failed,) = ticket_outcomes(swiss, PlayerClaims((), (), (ticket.id,)), chaos=chaos)
    lowest = min(g.points for g in calm) if calm else goal.points
    assert failed.points == -min(lowest, goal.points // 2)
    (from_chaos,) = ticket_outcomes(swiss, PlayerClaims((), (), (ticket.id,)), chaos=frozenset(ticket.origin))
    assert from_chaos.points == -(min(g.points for g in ticket.destinations) // 2) and from_chaos.halved


def test_the_most_cards_of_each_monster_earn_15_every_tied_player_in_full_and_nobody_at_none() -> None:
    state = at(n_players=3, cards=((2, 0), (2, 0), (1, 0)))
    parts = monster_parts(state, (None, None, None))  # type: ignore[arg-type]
    assert [[(p.key, p.points, p.count) for p in mine] for mine in parts] == [
        [("monster_alvin", 15, 2), ("monster_dexter", 0, 0)],
        [("monster_alvin", 15, 2), ("monster_dexter", 0, 0)],
        [("monster_alvin", 0, 1), ("monster_dexter", 0, 0)],
    ]
    assert monster_parts(at().evolve(monsters=None), (None, None)) == ()  # type: ignore[arg-type]
