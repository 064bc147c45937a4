"""The hard bot's last-turn scoring counts the European Express."""

from __future__ import annotations

from dataclasses import replace

from positions import decision_points
from p2p_ttr.bots.hard import HardBot
from p2p_ttr.bots.planning import BOARD
from p2p_ttr.engine.board import EXPRESS_POINTS, STARTING_TRAINS
from p2p_ttr.engine.rules import actors
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.view import view_for


def route(a: str, b: str) -> int:
    return next(r.id for r in BOARD.routes if set(r.cities) == {a, b})


def with_routes(state: GameState, owned: dict[int, tuple[int, ...]]) -> GameState:
    """``state`` with each seat owning exactly the routes given (its trains paid)."""
    owner: list[int | None] = [None] * len(BOARD.routes)
    players = list(state.players)
    for seat, routes in owned.items():
        for r in routes:
            owner[r] = seat
        trains = STARTING_TRAINS - sum(BOARD.routes[r].length for r in routes)
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
