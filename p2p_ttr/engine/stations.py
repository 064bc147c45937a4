"""Europe's train stations (``Rules.stations``; the Europe rules, "Build a
Train Station"): in place of a turn's action, a player builds a station in a city
without one, paying one card for their first, two of one colour for their
second, three for their third (``payments.station_payment_problem``). At the
end each station may borrow one route of another player's into its city
(scoring.py), and each left unbuilt scores ``Rules.station_points``
(endparts.py). No station stands where a monster does (monstermoves.py) nor
where a depot does (depots.py).
"""

from __future__ import annotations

from dataclasses import replace

from .events import BuildStation
from .mechanic import Handles, Mechanic, TurnFlow
from . import depots, monstermoves
from .payments import station_payment_problem
from .state import GameState, Phase
from .turnkit import expect, expect_city, expect_in_hand, payment, publish, refuse, with_player, without


def station_problem(state: GameState, player: int, city: str) -> str | None:
    if state.cards_drawn:
        return "a station cannot be built after drawing a card this turn"
    if not state.game.rules.stations:
        return f"{state.game.title} has no stations"
    if state.players[player].stations_left <= 0:
        return f"player {player} has no stations left"
    for p, ps in enumerate(state.players):
        if city in ps.stations:
            return f"{city} already has a station (player {p}'s)"
    return monstermoves.chaos_station_problem(state, city) or depots.station_problem(state, city)


def build_station(state: GameState, action: BuildStation, flow: TurnFlow) -> GameState:
    """A station built, the turn's action: the turn ends."""
    p, city, cards = action.player, action.city, action.cards
    expect(state, p, Phase.TURN)
    expect_city(state, city)
    refuse(station_problem(state, p, city))
    ps = state.players[p]
    expect_in_hand(state, p, cards)
    refuse(station_payment_problem(len(ps.stations) + 1, payment(state, cards)))
    state = publish(state, cards)
    ps = replace(ps, hand=without(ps.hand, cards), stations=ps.stations + (city,),
                 stations_left=ps.stations_left - 1)
    state = with_player(state, p, ps).evolve(discard=state.discard + cards, passes=0)
    return flow.end_turn(state)


MECHANIC = Mechanic(
    "stations",
    plays=lambda game: game.rules.stations > 0,
    handlers=(Handles(BuildStation, build_station),),
)
