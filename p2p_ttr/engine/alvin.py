"""Old West's Alvin the Alien variant (``Rules.alvin_city``; rules summary,
"Variant - Alvin the Alien"), on top of the city markers (citymarkers.py):

- Alvin starts in ``Rules.alvin_city`` (Roswell), where no marker may ever go
  (``Rules.no_marker_cities``; no starting city either).
- Whoever claims a route into Alvin's city captures him, scoring
  ``Rules.alvin_capture_points``, and moves him to a city they control (one of
  their markers: ``Phase.ALVIN``, a ``MoveAlvin``, asked only when they have
  more than one); the first capture is the first route into Roswell.
- Whoever holds Alvin at the end scores ``Rules.alvin_end_points``.

The capture is scored with the claim, before the claimer's marker choice, so
a marker placed with that claim is not yet a place Alvin may go. His state
is part of Old West's slice (``CityMarkers.alvin``, ``alvin_holder``,
``alvin_points``).
"""

from __future__ import annotations

from dataclasses import replace

from .board import Route
from .citymarkers import CityMarkers


def captures(markers: CityMarkers, route: Route) -> bool:
    """Whether claiming ``route`` captures Alvin: it runs into his city."""
    return bool(markers.alvin) and markers.alvin in route.cities


def captured(markers: CityMarkers, claimer: int, points: int) -> CityMarkers:
    """Alvin in ``claimer``'s hands, with the capture's points; on the move
    (``alvin`` empty) until they put him down, at once when they have one city."""
    totals = list(markers.alvin_points)
    totals[claimer] += points
    homes = markers.cities_of(claimer)
    return replace(markers, alvin=homes[0] if len(homes) == 1 else "", alvin_holder=claimer,
                   alvin_points=tuple(totals))


def moving(markers: CityMarkers | None) -> bool:
    """Whether Alvin waits for his captor to put him down (Phase.ALVIN)."""
    return markers is not None and markers.alvin_holder is not None and not markers.alvin


def move_problem(markers: CityMarkers, player: int, city: str) -> str | None:
    """Why ``player`` may not put Alvin down in ``city`` (None: they may)."""
    if markers.alvin_holder != player or markers.alvin:
        return f"player {player} has no Alvin to move"
    if markers.owner(city) != player:
        return f"Alvin goes to a city you control (one of your markers: {', '.join(markers.cities_of(player))})"
    return None
