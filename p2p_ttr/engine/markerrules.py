"""Old West's checks over the whole game state: a player's network, and
whether a starting city, a claim or a city marker is allowed (the rules are
in ``citymarkers.py``'s docstring). ``rules`` and ``moves`` ask these
functions, so what is offered and what is accepted are one judgement."""

from __future__ import annotations

from .board import Route
from .state import GameState


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
