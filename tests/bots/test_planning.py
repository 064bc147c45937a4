"""The bots' planning helpers: open routes, paths, plans, cards, time."""

from __future__ import annotations

from collections import Counter

from p2p_ttr.bots.planning import (
    blind_gain,
    card_gains,
    missing_cards,
    plan_tickets,
    route_costs,
    route_open_to,
    shortest_path,
    trains_of,
    turns_left,
    unseen_kinds,
)
from p2p_ttr.engine.board import LOCOMOTIVE
from p2p_ttr.engine.boards import europe_game
from p2p_ttr.engine.state import GameState, PlayerState

EUROPE = europe_game()
BOARD = EUROPE.board


def _table(n_players: int, owners: dict[int, int] | None = None) -> GameState:
    owner = [None] * len(BOARD.routes)
    for r, p in (owners or {}).items():
        owner[r] = p  # type: ignore[call-overload]
    return GameState(
        game=EUROPE,
        n_players=n_players,
        players=tuple(PlayerState(trains=EUROPE.rules.trains) for _ in range(n_players)),
        route_owner=tuple(owner),
    )


def _route(a: str, b: str, color: str | None = None) -> int:
    return next(r.id for r in BOARD.routes_between(a, b) if color is None or r.color == color)


def _ticket(a: str, b: str) -> int:
    return next(t.id for t in BOARD.tickets if {t.a, t.b} == {a, b})


def test_double_routes_close_with_two_or_three_players_only() -> None:
    first = _route("Paris", "Frankfurt")
    twin = BOARD.routes[first].twin
    assert twin is not None
    for n, open_ in ((2, False), (3, False), (4, True)):
        table = _table(n, {first: 1})
        assert route_open_to(table, 0, BOARD.routes[twin]) is open_
        assert route_open_to(table, 0, BOARD.routes[first]) is False
        # never both sides for one player
        assert route_open_to(table, 1, BOARD.routes[twin]) is False


def test_own_routes_are_free_and_others_closed() -> None:
    mine, theirs = _route("Paris", "Bruxelles"), _route("Madrid", "Lisboa")
    costs = route_costs(_table(4, {mine: 0, theirs: 1}), 0)
    assert costs[mine] == 0.0 and costs[theirs] is None
    closed = {mine, theirs, BOARD.routes[mine].twin}  # never both sides of a double for one player
    assert costs[BOARD.routes[mine].twin] is None  # type: ignore[index]
    assert all(c is not None and c > 0 for r, c in enumerate(costs) if r not in closed)


def test_shortest_path_joins_its_ends_and_avoids_closed_routes() -> None:
    costs = route_costs(_table(2), 0)
    path = shortest_path(EUROPE, costs, "Edinburgh", "Paris")
    assert path is not None and path.routes
    cities = {"Edinburgh"}
    for r in path.routes:
        route = BOARD.routes[r]
        assert route.a in cities or route.b in cities
        cities |= set(route.cities)
    assert "Paris" in cities
    # Edinburgh's only neighbour is London: with both sides taken it is cut off
    both = [r.id for r in BOARD.routes_between("Edinburgh", "London")]
    cut = route_costs(_table(4, {r: 1 for r in both}), 0)
    assert shortest_path(EUROPE, cut, "Edinburgh", "Paris") is None


def test_plans_share_routes_and_respect_trains() -> None:
    costs = route_costs(_table(2), 0)
    tickets = [_ticket("Paris", "Wien"), _ticket("Paris", "Zagrab")]
    plan = plan_tickets(EUROPE, costs, tickets, (), 45)
    assert set(plan.planned) == set(tickets) and not plan.dropped
    alone = 0
    for t in tickets:
        path = shortest_path(EUROPE, costs, BOARD.tickets[t].a, BOARD.tickets[t].b)
        assert path is not None
        alone += trains_of(EUROPE, path.routes)
    assert plan.trains < alone  # the two paths overlap
    assert plan.trains == trains_of(EUROPE, plan.routes)
    tight = plan_tickets(EUROPE, costs, tickets, (), 3)
    assert tight.dropped and tight.points < plan.points


def test_a_ticket_already_joined_is_done() -> None:
    r = _route("Paris", "Bruxelles")
    ticket = next((t.id for t in BOARD.tickets if {t.a, t.b} == {"Paris", "Bruxelles"}), None)
    if ticket is None:  # no such ticket on this map: join a real one by its path
        ticket = _ticket("Paris", "Wien")
        path = shortest_path(EUROPE, route_costs(_table(2), 0), "Paris", "Wien")
        assert path is not None
        owned = {x: 0 for x in path.routes}
    else:
        owned = {r: 0}
    table = _table(2, owned)
    plan = plan_tickets(EUROPE, route_costs(table, 0), [ticket], tuple(owned), 45)
    assert plan.done == (ticket,) and not plan.routes


def test_missing_cards_counts_colours_grays_ferries_and_locomotives() -> None:
    red3 = next(r.id for r in BOARD.routes if r.color == "red" and r.length == 3 and not r.ferry_locomotives)
    gray2 = next(r.id for r in BOARD.routes if r.color == "gray" and r.length == 2 and not r.ferry_locomotives)
    ferry = next(r.id for r in BOARD.routes if r.ferry_locomotives == 1 and r.length == 2)
    assert missing_cards(EUROPE, [red3], Counter()) == 3
    assert missing_cards(EUROPE, [red3], Counter(red=2)) == 1
    assert missing_cards(EUROPE, [red3], Counter(red=2, locomotive=1)) == 0
    assert missing_cards(EUROPE, [red3, gray2], Counter(red=3, blue=2)) == 0
    assert missing_cards(EUROPE, [red3, gray2], Counter(red=4)) == 1
    assert missing_cards(EUROPE, [ferry], Counter(blue=2)) == 1  # a ferry's locomotive is a locomotive
    gains = card_gains(EUROPE, [red3], Counter(red=1))
    assert gains["red"] == 1 and gains[LOCOMOTIVE] == 1 and gains["blue"] == 0


def test_unseen_cards_and_the_blind_draw() -> None:
    unseen = unseen_kinds(_table(2), 0)
    assert sum(unseen.values()) == BOARD.n_cards and unseen[LOCOMOTIVE] == BOARD.locomotives
    assert blind_gain({LOCOMOTIVE: 1.0}, unseen) == BOARD.locomotives / BOARD.n_cards


def test_turns_left_shrink_with_the_opponents_trains() -> None:
    table = _table(2)
    early = turns_left(table, 0)
    late = table.evolve(players=(PlayerState(trains=EUROPE.rules.trains), PlayerState(trains=6)))
    assert turns_left(late, 0) < early
    assert turns_left(table.evolve(final_turns_left=2), 0) == 1.0
