"""Old West's part of the final score: the route points the city markers moved.

Old West scores routes when they are claimed, to the owners of the markers
on their ends (citymarkers.py), not at the end to the claimer. Every score
table shows the shared ``routes`` part as what the player's own routes are
worth, as on every board; this part, "City markers", is what the markers
moved: the route points the player scored in play less that, so that the two
together are what the player's score track shows (a player whose routes ran
into others' cities has a negative part, one whose cities others ran into a
positive one). Its count is the markers the player placed. With Alvin the
Alien (alvin.py), a part "Alvin": the points of each capture and, for whoever
holds him at the end, the end bonus; its count is the captures.
"""

from __future__ import annotations

from .scoring import PlayerScore, ScorePart
from .state import GameState


def city_marker_part(scored_in_play: int, own_routes: int, markers: int) -> ScorePart:
    """The part of a player who scored ``scored_in_play`` route points in play
    with routes of their own worth ``own_routes``, having placed ``markers``."""
    return ScorePart("city_markers", "City markers", scored_in_play - own_routes, markers)


def marker_parts(state: GameState, scores: tuple[PlayerScore, ...]) -> tuple[tuple[ScorePart, ...], ...]:
    """Every player's City markers part (() where the game has no markers): engine/endparts.py's scorer."""
    markers = state.markers
    if markers is None:
        return ()
    rules = state.game.rules
    parts = []
    for p, score in enumerate(scores):
        mine: tuple[ScorePart, ...] = (city_marker_part(markers.route_points[p], score.routes, len(markers.cities_of(p))),)
        if rules.alvin_city:
            held = rules.alvin_end_points if markers.alvin_holder == p else 0
            captures = markers.alvin_points[p] // rules.alvin_capture_points
            mine += (ScorePart("alvin", "Alvin", markers.alvin_points[p] + held, captures),)
        parts.append(mine)
    return tuple(parts)
