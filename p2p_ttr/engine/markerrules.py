"""Old West's checks and moves over the whole game state: a player's network,
whether a starting city, a claim or a city marker is allowed (the rules are
in ``citymarkers.py``'s docstring, Alvin's in ``alvin.py``'s), and the moves
that place them. ``rules`` and ``moves`` ask these functions, so what is
offered and what is accepted are one judgement."""

from __future__ import annotations

from dataclasses import replace

from .alvin import captured, captures, moving
from .alvin import move_problem as alvin_move_problem
from .board import Route
from .citymarkers import CityMarkers, placing_order
from .events import MoveAlvin, PlaceMarker, PlaceStartCity, SkipMarker
from .mechanic import AfterClaim, ClaimTaken, Handles, Mechanic, Then, TurnFlow
from .payments import marker_payment_problem
from .state import GameState, Phase
from .turnkit import discarded_from_hand, expect, expect_city, expect_in_hand, payment, refuse


def network(state: GameState, player: int) -> frozenset[str]:
    """The cities a claim of ``player`` may start from: their starting city and every city their routes reach."""
    assert state.markers is not None
    board = state.game.board
    start = state.markers.start_of(player)
    ends = {city for r in state.players[player].routes for city in board.routes[r].cities}
    return frozenset(ends | ({start} if start is not None else set()))


def network_problem(state: GameState, player: int, route: Route) -> str | None:
    """Why ``route`` is out of ``player``'s reach (None: it touches their network)."""
    if state.markers is None:
        return None
    if not network(state, player) & set(route.cities):
        start = state.markers.start_of(player)
        return f"{route.label} does not touch player {player}'s network (which grows from {start})"
    return None


def start_city_problem(state: GameState, city: str) -> str | None:
    """Why the player to place a starting city may not place it in ``city``."""
    assert state.markers is not None
    if city in state.game.rules.no_start_cities:
        return f"no starting city may be placed in {city}"
    if state.markers.owner(city) is not None:
        return f"{city} already has a marker: one per city"
    return None


def markers_left(state: GameState, player: int) -> int:
    assert state.markers is not None
    return state.game.rules.city_markers - len(state.markers.cities_of(player))


def marker_problem(state: GameState, player: int, city: str) -> str | None:
    """Why ``player`` may not mark ``city`` now (None: they may, paying for it)."""
    markers = state.markers
    assert markers is not None and markers.claimed is not None
    route = state.game.board.routes[markers.claimed]
    if city not in route.cities:
        return f"a marker goes on an end of the route just claimed ({route.a} or {route.b}), not {city}"
    if markers.owner(city) is not None:
        return f"{city} already has a marker: one per city"
    if city in state.game.rules.no_marker_cities:
        return f"no marker may go to {city}"
    if markers_left(state, player) <= 0:
        return f"player {player} has placed all {state.game.rules.city_markers} markers"
    return None


def may_mark(state: GameState, player: int, route: Route) -> bool:
    """Whether a claim of ``route`` opens the marker choice: a marker left, a
    free end, and cards enough in hand (public facts only: every replica
    decides alike)."""
    markers = state.markers
    return (markers is not None and markers_left(state, player) > 0
            and any(markers.owner(city) is None and city not in state.game.rules.no_marker_cities
                    for city in route.cities)
            and len(state.players[player].hand) >= state.game.rules.marker_cards)


# ---------------------------------------------------------------------------
# The moves, and the hooks into the turn (mechanic.py)


def start_city_due(state: GameState) -> GameState | None:
    """As the set-up's ticket choice ends: the next starting city to place, from the last seat down."""
    assert state.markers is not None
    markers = state.markers
    placing = [p for p in placing_order(state.n_players) if markers.start_of(p) is None]
    return state.evolve(phase=Phase.START_CITY, current=placing[0]) if placing else None


def place_start_city(state: GameState, action: PlaceStartCity, flow: TurnFlow) -> GameState:
    p, city = action.player, action.city
    expect(state, p, Phase.START_CITY)
    expect_city(state, city)
    refuse(start_city_problem(state, city))
    assert state.markers is not None
    state = state.evolve(markers=state.markers.place(city, p))
    order = placing_order(state.n_players)
    if p == order[-1]:
        return flow.begin_play(state)
    return state.evolve(current=order[order.index(p) + 1])


def after_claim(state: GameState, claim: ClaimTaken) -> AfterClaim:
    """The route is scored now, by the markers on its ends; a claim into
    Alvin's city captures him (where played), whose captor may have to put
    him down first; then the marker choice. Nobody after Old West is asked."""
    assert state.markers is not None
    route, p = claim.route, claim.player
    markers = state.markers.scored(route, p, state.game.board.route_points[route.length])
    if captures(markers, route):
        markers = captured(markers, p, state.game.rules.alvin_capture_points)
        if moving(markers):
            return AfterClaim(state.evolve(markers=replace(markers, claimed=route.id), phase=Phase.ALVIN), Then.WAIT)
    return _marker_choice(state.evolve(markers=markers), route)


def _marker_choice(state: GameState, route: Route) -> AfterClaim:
    """After a claim of Old West's: the marker choice, where there is one to make; else the turn ends."""
    assert state.markers is not None
    if may_mark(state, state.current, route):
        return AfterClaim(state.evolve(markers=replace(state.markers, claimed=route.id), phase=Phase.MARKER),
                          Then.WAIT)
    return AfterClaim(state.evolve(markers=replace(state.markers, claimed=None), phase=Phase.TURN), Then.END_TURN)


def move_alvin(state: GameState, action: MoveAlvin, flow: TurnFlow) -> GameState:
    expect(state, action.player, Phase.ALVIN)
    markers = state.markers
    assert markers is not None and markers.claimed is not None
    refuse(alvin_move_problem(markers, action.player, action.city))
    state = state.evolve(markers=replace(markers, alvin=action.city))
    return flow.after(_marker_choice(state, state.game.board.routes[markers.claimed]))


def _marked(state: GameState, city: str | None) -> GameState:
    """The marker choice made (a marker on ``city``, or none): back to the turn, which ends."""
    assert state.markers is not None
    markers = replace(state.markers, claimed=None)
    return state.evolve(markers=markers if city is None else markers.place(city, state.current), phase=Phase.TURN)


def place_marker(state: GameState, action: PlaceMarker, flow: TurnFlow) -> GameState:
    p, city, cards = action.player, action.city, action.cards
    expect(state, p, Phase.MARKER)
    expect_city(state, city)
    refuse(marker_problem(state, p, city))
    expect_in_hand(state, p, cards)
    refuse(marker_payment_problem(state.game.rules.marker_cards, payment(state, cards)))
    return flow.end_turn(_marked(discarded_from_hand(state, p, cards), city))


def skip_marker(state: GameState, action: SkipMarker, flow: TurnFlow) -> GameState:
    expect(state, action.player, Phase.MARKER)
    return flow.end_turn(_marked(state, None))


MECHANIC = Mechanic(
    "city markers",
    plays=lambda game: game.rules.city_markers > 0,
    handlers=(Handles(PlaceStartCity, place_start_city), Handles(PlaceMarker, place_marker),
              Handles(SkipMarker, skip_marker), Handles(MoveAlvin, move_alvin)),
    after_claim=after_claim,
    at_start=lambda state: state.evolve(markers=CityMarkers.empty(state.n_players, state.game.rules.alvin_city)),
    set_up=start_city_due,
)
