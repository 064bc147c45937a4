"""Old West's city markers: starting cities, networks, markers and the route
points they take (``Rules.city_markers``; rules summary, "Old West").

- Before the first turn, from the last seat down to the first (counter-
  clockwise), each player places one marker on a free city, never one of
  ``Rules.no_start_cities`` (Roswell): their starting city (``Phase.START_CITY``).
- A claim must touch the claimer's network: their starting city and every
  city their routes reach (markers or not).
- Route points are scored when a route is claimed, by the markers then on
  its ends: to the owner of each marked end (both owners when two players
  own them, twice when one player owns both), to the claimer when neither end
  is marked. No route points at the end of the game. A marker placed with a
  claim counts from the next claim on: the rules score the route "like
  normal", when its trains are laid, and place the marker "after laying
  trains".
- After a claim, the claimer may place one more marker on an unmarked end of
  the new route, paying ``Rules.marker_cards`` cards of one colour
  (locomotives allowed), ``Rules.city_markers`` in all, the starting one
  included; one marker per city, never moved (``Phase.MARKER``: a
  ``PlaceMarker`` or a ``SkipMarker``). The phase is offered only when the
  claimer has a marker left, an end is free and their hand holds enough
  cards, so that a claim with nothing to decide ends the turn as anywhere.

The tickets not kept at set-up are shuffled into the whole remaining deck
(``Unkept.SHUFFLED_IN``: one mix of every player's returns with the deck's
never-dealt tickets once the last player has chosen, ``state.NeedMix``), so
nobody knows where a returned ticket lies, its returner included.

This module owns its slice of the state (:class:`CityMarkers`,
``GameState.markers``) and who scores a claim; ``markerrules.py`` the
checks of its moves over the whole state; ``rules.apply`` calls both.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .board import Route


@dataclass(frozen=True, slots=True)
class CityMarkers:
    """The markers on the board and the route points they brought, per player."""

    placed: tuple[tuple[str, int], ...] = ()  # (city, player), in the order placed: each one's first is its start
    route_points: tuple[int, ...] = ()  # per player: route points scored during the game
    claimed: int | None = None  # the route just claimed, while its claimer may mark an end (Phase.MARKER)
    # Alvin the Alien (alvin.py): his city ("" where not played), who holds him, each player's capture points.
    alvin: str = ""
    alvin_holder: int | None = None
    alvin_points: tuple[int, ...] = ()

    @staticmethod
    def empty(n_players: int, alvin: str = "") -> CityMarkers:
        return CityMarkers(route_points=(0,) * n_players, alvin=alvin, alvin_points=(0,) * n_players if alvin else ())

    def owner(self, city: str) -> int | None:
        return next((p for c, p in self.placed if c == city), None)

    def cities_of(self, player: int) -> tuple[str, ...]:
        """The cities ``player`` marked, the starting city first."""
        return tuple(c for c, p in self.placed if p == player)

    def start_of(self, player: int) -> str | None:
        mine = self.cities_of(player)
        return mine[0] if mine else None

    def place(self, city: str, player: int) -> CityMarkers:
        return replace(self, placed=self.placed + ((city, player),))

    def scored(self, route: Route, claimer: int, points: int) -> CityMarkers:
        """The points of ``route`` just claimed by ``claimer``, given to whom the markers on its ends say."""
        totals = list(self.route_points)
        for player in route_scorers(self, route, claimer):
            totals[player] += points
        return replace(self, route_points=tuple(totals))


def route_scorers(markers: CityMarkers, route: Route, claimer: int) -> tuple[int, ...]:
    """Who scores ``route`` claimed now, once per share: the owner of each
    marked end (one player owning both: twice), the claimer if neither is."""
    owners = tuple(o for city in route.cities if (o := markers.owner(city)) is not None)
    return owners or (claimer,)


def placing_order(n_players: int) -> tuple[int, ...]:
    """Who places a starting city, in turn: the last seat first, counter-clockwise."""
    return tuple(range(n_players - 1, -1, -1))
