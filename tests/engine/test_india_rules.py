"""India, scenario by scenario from the rules summary (shared/rules/other_boards.txt, "India"):
2-4 players, 4 tickets dealt keep 2, the Longest Train (the Indian Express), ferries, and the Grand
Tour bonus."""

from __future__ import annotations

from typing import Any

import pytest
from engine_scenario import ScenarioDealer, play, position

from p2p_ttr.engine.board import board_from_dict
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.errors import IllegalMove
from p2p_ttr.engine.events import ClaimRoute, KeepTickets
from p2p_ttr.engine.grandtour import grand_tour_bonus, two_separate_paths
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.rules import apply, new_game
from p2p_ttr.engine.scoring import PlayerClaims, score_game
from p2p_ttr.engine.state import NeedRemask, Phase

INDIA = load_game("india")


def tiny_board(pairs: list[tuple[str, str]]) -> Any:
    cities = sorted({c for pair in pairs for c in pair})
    data = {
        "cities": cities,
        "positions": {c: [i, i] for i, c in enumerate(cities)},
        "routes": [{"a": a, "b": b, "length": 1, "color": "gray", "tunnel": False, "ferry_locomotives": 0}
                   for a, b in pairs],
        "tickets": [],
        "train_cards": {"colors": ["red"], "per_color": 1, "locomotives": 1},
        "route_points": {"1": 1},
    }
    return board_from_dict(data, regular=[], long=[])


def test_two_paths_may_cross_at_a_city_but_share_no_route() -> None:
    # A-X-B and A-Y-X-Z-B meet at X and share no route: a Grand Tour.
    board = tiny_board([("A", "X"), ("X", "B"), ("A", "Y"), ("Y", "X"), ("X", "Z"), ("Z", "B")])
    assert two_separate_paths(board, range(6), "A", "B")
    # Without Z-B both ways need X-B: one path only.
    assert not two_separate_paths(board, range(5), "A", "B")
    # A single line, and a city with itself, are no tour.
    line = tiny_board([("A", "X"), ("X", "B")])
    assert not two_separate_paths(line, range(2), "A", "B")
    assert not two_separate_paths(board, range(6), "A", "A")


def test_the_search_undoes_a_first_path_that_blocks_the_second() -> None:
    # The shortest first path A-C-D-B uses C-D, which both separate paths
    # (A-C-B and A-D-B) need to avoid: the second search must cancel it.
    board = tiny_board([("A", "C"), ("C", "D"), ("D", "B"), ("C", "B"), ("A", "D")])
    assert two_separate_paths(board, range(5), "A", "B")


def test_the_bonus_is_by_the_number_of_tours() -> None:
    points = INDIA.rules.grand_tour_points
    assert [grand_tour_bonus(points, n) for n in range(8)] == [0, 5, 10, 20, 30, 40, 40, 40]


def _joining(routes: list[int], a: str, b: str) -> tuple[int, ...] | None:
    came: dict[str, tuple[str, int] | None] = {a: None}
    queue = [a]
    for city in queue:
        for r in routes:
            route = INDIA.board.routes[r]
            if city in route.cities and (nxt := route.other_end(city)) not in came:
                came[nxt] = (city, r)
                queue.append(nxt)
    if b not in came:
        return None
    path, at = [], b
    while (step := came[at]) is not None:
        at, r = step
        path.append(r)
    return tuple(path)


def test_a_ticket_joined_twice_scores_the_grand_tour() -> None:
    every = list(range(len(INDIA.board.routes)))
    for ticket in INDIA.board.tickets:
        first = _joining(every, ticket.a, ticket.b)
        assert first is not None
        rest = [r for r in every if r not in first and INDIA.board.routes[r].twin not in first]
        second = _joining(rest, ticket.a, ticket.b)
        if second is not None and sum(INDIA.board.routes[r].length for r in first + second) <= 45:
            break
    else:
        pytest.fail("no ticket of India can be joined twice within 45 cars")
    once = score_game(INDIA, [PlayerClaims(first, (), (ticket.id,)), PlayerClaims((), (), ())])
    twice = score_game(INDIA, [PlayerClaims(first + second, (), (ticket.id,)), PlayerClaims((), (), ())])
    assert once.players[0].grand_tour == 0 and once.players[0].completed_tickets == 1
    assert twice.players[0].grand_tour == 5
    assert twice.players[0].total == (twice.players[0].routes + twice.players[0].tickets
                                      + twice.players[0].express + 5)


def test_india_is_for_two_to_four_and_deals_four_tickets_keeping_two() -> None:
    with pytest.raises(ValueError, match="India is for 2 to 4 players, not 5"):
        new_game(INDIA, 5)
    state = play(new_game(INDIA, 4), dealer=ScenarioDealer())
    assert state.phase is Phase.SETUP_TICKETS and [len(p.offered) for p in state.players] == [4] * 4
    offered = state.players[0].offered
    with pytest.raises(IllegalMove, match="at least 2 tickets"):
        apply(state, KeepTickets(0, offered[:1], offered[1:]))
    asked = apply(state, KeepTickets(0, offered[:2], offered[2:]))
    assert isinstance(asked.awaiting, NeedRemask)  # "Discard to the bottom of the deck"
    assert INDIA.rules.longest_path_bonus == "Indian Express" and INDIA.rules.longest_path_points == 10


def test_a_ferry_needs_its_locomotives() -> None:
    ferry = next(r for r in INDIA.board.routes if r.ferry_locomotives)
    hand = ["red"] * ferry.length
    state, _ = position(game=INDIA, hands={0: hand})
    assert not [a for a in legal_actions(state, 0) if isinstance(a, ClaimRoute) and a.route == ferry.id]
    with pytest.raises(IllegalMove, match="ferry"):
        apply(state, ClaimRoute(0, ferry.id, state.players[0].hand))
    locos = ["locomotive"] * ferry.ferry_locomotives + ["red"] * (ferry.length - ferry.ferry_locomotives)
    state, _ = position(game=INDIA, hands={0: locos})
    assert [a for a in legal_actions(state, 0) if isinstance(a, ClaimRoute) and a.route == ferry.id]
