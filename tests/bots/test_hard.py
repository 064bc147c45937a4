"""The hard bot counts what the end counts: route points in its ticket choices, the European Express in its
last claims, the Globetrotter where it is played, Legendary Asia's mountain crossings and Asian Explorer."""

from __future__ import annotations

from dataclasses import replace

from positions import decision_points
from p2p_ttr.bots.hard import TRAIN_OPPORTUNITY, HardBot, globetrotter, hard_weights
from p2p_ttr.bots.planning import plan_tickets, route_costs, shortest_path
from p2p_ttr.engine.boards import europe_game, load_game
from p2p_ttr.engine.scoring import PlayerClaims
from p2p_ttr.engine.rules import actors
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.view import view_for

EUROPE = europe_game()
BOARD = EUROPE.board
EXPRESS_POINTS = EUROPE.rules.longest_path_points


def route(a: str, b: str) -> int:
    return next(r.id for r in BOARD.routes if set(r.cities) == {a, b})


def with_routes(state: GameState, owned: dict[int, tuple[int, ...]]) -> GameState:
    """``state`` with each seat owning exactly the routes given (its trains paid)."""
    board = state.game.board
    owner: list[int | None] = [None] * len(board.routes)
    players = list(state.players)
    for seat, routes in owned.items():
        for r in routes:
            owner[r] = seat
        trains = state.game.rules.trains - sum(board.routes[r].cars for r in routes)
        players[seat] = replace(players[seat], routes=routes, trains=trains)
    return state.evolve(route_owner=tuple(owner), players=tuple(players))


def test_the_express_counts_in_a_last_claim_reaching_or_passing_the_longest_rival_trail() -> None:
    """Seat 0's trail Lisboa-Madrid-Pamplona is 6 cars, the rival's
    Paris-Frankfurt-Berlin-Danzig 10: Pamplona-Paris (4 cars) draws level
    and wins the Express (shared), a route off the trail changes nothing,
    and once level, a car more passes the rival and takes it from them too."""
    state = next(s for s, _ in decision_points(2, seed=4) if s.phase is Phase.TURN and actors(s)[0] == 0)
    mine = (route("Lisboa", "Madrid"), route("Madrid", "Pamplona"))
    rival = (route("Paris", "Frankfurt"), route("Frankfurt", "Berlin"), route("Berlin", "Danzig"))
    bot = HardBot(1)
    express = bot.express_margin(bot.situation(view_for(with_routes(state, {0: mine, 1: rival}), 0), 0))
    assert express(route("Pamplona", "Paris")) == EXPRESS_POINTS
    assert express(route("Barcelona", "Madrid")) == 0
    level = mine + (route("Pamplona", "Paris"),)
    bot = HardBot(1)
    express = bot.express_margin(bot.situation(view_for(with_routes(state, {0: level, 1: rival}), 0), 0))
    assert express(route("Paris", "Bruxelles")) == EXPRESS_POINTS  # the rival's 10 points gone, in 2 players
    assert express(route("Barcelona", "Madrid")) == 0


def ticket(a: str, b: str) -> int:
    return next(t.id for t in BOARD.regular_tickets if {t.a, t.b} == {a, b})


def test_a_ticket_over_long_routes_is_worth_more_than_one_over_short_routes_of_as_many_trains() -> None:
    """Palermo-Constantinople and Brest-Venezia are both 8 points and 8
    trains away; the first goes by the 6-car ferry (15 points) and a
    2-car route, the second by 3, 3 and 2 cars (10 points). At the end the
    first is worth 7 points more, and hard's choice says so."""
    state = next(s for s, _ in decision_points(2, seed=4) if s.phase is Phase.TURN and actors(s)[0] == 0)
    view = view_for(state, 0)
    costs = route_costs(view, 0, weights=hard_weights)
    bot = HardBot(1)
    long_way = bot.ticket_choice_value(view, 0, costs, (), (ticket("Palermo", "Constantinople"),))
    short_way = bot.ticket_choice_value(view, 0, costs, (), (ticket("Brest", "Venezia"),))
    assert long_way[1] == short_way[1] == -8.0  # as many trains
    assert long_way[0] - short_way[0] == 17 - 10


def test_the_globetrotter_counts_where_it_is_played_and_only_there() -> None:
    """On USA 1910 (the Globetrotter, no Longest Path) a completed ticket is
    worth its points and a share of the 15-point bonus; on USA's standard
    game just its points; the trail is worth nothing without the bonus."""
    base, trotting = load_game("usa"), load_game("usa", "1910")
    for game in (base, trotting):
        state = next(s for s, _ in decision_points(2, seed=4, game=game) if s.phase is Phase.TURN and actors(s)[0] == 0)
        view = view_for(state, 0)
        bot = HardBot(1)
        s = bot.situation(view, 0)
        held = s.tickets[0]
        ticket_ = game.board.tickets[held]
        path = shortest_path(game, route_costs(view, 0), ticket_.a, ticket_.b)
        assert path is not None
        worth = bot.tickets_worth(s, [])
        done = worth(PlayerClaims(path.routes, (), (held,)))
        open_ = worth(PlayerClaims((), (), (held,)))
        trotter = globetrotter(view, 0)
        if game is trotting:
            # The rival holds some tickets: level with its reckoned count is part of the
            # bonus, well past it all of it and the rival's share (2 players: as much again).
            ramp = [trotter(n) for n in range(12)]
            assert ramp[0] == 0.0 and ramp == sorted(ramp) and len(set(ramp)) > 2
            assert ramp[-1] == 2 * trotting.rules.globetrotter_points
            assert done - open_ == 2 * ticket_.points + trotter(1) - trotter(0)
            assert bot.express_margin(s)(path.routes[0]) == 0.0
        else:
            assert trotter(5) == 0.0
            assert done - open_ == 2 * ticket_.points


ASIA = load_game("asia")


def asia_route(a: str, b: str) -> int:
    return next(r.id for r in ASIA.board.routes if set(r.cities) == {a, b} and not r.mountain_x)


def test_the_asian_explorer_counts_in_a_last_claim_reaching_or_passing_the_largest_rival_network() -> None:
    """Seat 0's network Rangoon-Bangkok-Saigon has 3 cities, the rival's
    Ankara-Baghdad-Mecca/Tehran 4: Bangkok-Singapore draws level and wins
    the Asian Explorer (shared), a route off the network changes nothing,
    and once level, a city more passes the rival and takes it from them too."""
    state = next(s for s, _ in decision_points(2, seed=4, game=ASIA) if s.phase is Phase.TURN and actors(s)[0] == 0)
    mine = (asia_route("Bangkok", "Rangoon"), asia_route("Bangkok", "Saigon"))
    rival = (asia_route("Ankara", "Baghdad"), asia_route("Baghdad", "Mecca"), asia_route("Baghdad", "Tehran"))
    bonus = ASIA.rules.most_cities_points
    bot = HardBot(1)
    explorer = bot.explorer_margin(bot.situation(view_for(with_routes(state, {0: mine, 1: rival}), 0), 0))
    assert explorer(asia_route("Bangkok", "Singapore")) == bonus
    assert explorer(asia_route("Hanoi", "Macau")) == 0
    level = mine + (asia_route("Bangkok", "Singapore"),)
    bot = HardBot(1)
    explorer = bot.explorer_margin(bot.situation(view_for(with_routes(state, {0: level, 1: rival}), 0), 0))
    assert explorer(asia_route("Hanoi", "Saigon")) == bonus  # the rival's share gone, in 2 players
    assert explorer(asia_route("Hanoi", "Macau")) == 0
    europe = next(s for s, _ in decision_points(2, seed=4) if s.phase is Phase.TURN and actors(s)[0] == 0)
    assert all(bot.explorer_margin(bot.situation(view_for(europe, 0), 0))(r.id) == 0.0 for r in BOARD.routes)


def test_a_ticket_over_mountain_routes_counts_the_mountain_crossing_points() -> None:
    """On Legendary Asia each X of a mountain route costs a car and scores 2:
    a ticket's plan over mountain routes is worth its routes' length points
    and 2 a crossing, less what every car of it (the crossings' included)
    would score elsewhere."""
    state = next(s for s, _ in decision_points(2, seed=4, game=ASIA) if s.phase is Phase.TURN and actors(s)[0] == 0)
    view = view_for(state, 0)
    costs = route_costs(view, 0, weights=hard_weights)
    routes = ASIA.board.routes
    for ticket_ in ASIA.board.regular_tickets:
        plan = plan_tickets(ASIA, costs, (ticket_.id,), (), ASIA.rules.trains)
        if plan.planned and any(routes[r].mountain_x for r in plan.routes):
            break
    else:
        raise AssertionError("no ticket of Legendary Asia is planned over a mountain route")
    value = HardBot(1).ticket_choice_value(view, 0, costs, (), (ticket_.id,))
    crossing = sum(2 * routes[r].mountain_x for r in plan.routes)
    lengths = sum(ASIA.board.route_points[routes[r].length] for r in plan.routes)
    cars = sum(routes[r].cars for r in plan.routes)
    assert crossing > 0 and value[1] == -cars
    assert value[0] == ticket_.points + lengths + crossing - TRAIN_OPPORTUNITY * cars
