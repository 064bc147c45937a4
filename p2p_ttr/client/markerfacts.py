"""What Old West's city markers did between two views, as typed facts
(``happened`` lists them with the others): a starting city placed, a marker
placed after a claim, and whom a claim's route points went to when markers
took them from the claimer."""

from __future__ import annotations

from dataclasses import dataclass

from p2p_ttr.engine.citymarkers import route_scorers
from p2p_ttr.engine.state import GameState


@dataclass(frozen=True)
class Marked:
    """``seat`` put a city marker on ``city``: its starting city (``start``), or one after a claim."""

    seat: int
    city: str
    start: bool


@dataclass(frozen=True)
class AlvinTaken:
    """``seat`` captured Alvin the Alien for ``points`` (Old West's variant); ``city``: where he went ("": not yet)."""

    seat: int
    points: int
    city: str


@dataclass(frozen=True)
class PointsMoved:
    """The points of ``route``, claimed by ``seat``, went to the owners of the markers on its ends instead."""

    seat: int
    route: int
    points: int
    scorers: tuple[int, ...]  # once per share: a seat owning both ends is named twice


def marker_facts(before: GameState, after: GameState, seat: int) -> list[Marked | PointsMoved | AlvinTaken]:
    """``seat``'s markers placed and claims scored by others' markers between the two views."""
    if before.markers is None or after.markers is None:
        return []
    board = after.game.board
    found: list[Marked | PointsMoved | AlvinTaken] = []
    for r in after.players[seat].routes[len(before.players[seat].routes):]:
        scorers = route_scorers(before.markers, board.routes[r], seat)
        if scorers != (seat,):
            found.append(PointsMoved(seat, r, board.route_points[board.routes[r].length], scorers))
    if after.markers.alvin_points and after.markers.alvin_points[seat] > before.markers.alvin_points[seat]:
        gained = after.markers.alvin_points[seat] - before.markers.alvin_points[seat]
        found.append(AlvinTaken(seat, gained, after.markers.alvin if after.markers.alvin_holder == seat else ""))
    elif (after.markers.alvin_holder == seat and not before.markers.alvin and after.markers.alvin
          and before.markers.alvin_holder == seat):
        found.append(AlvinTaken(seat, 0, after.markers.alvin))  # put down after the capture
    mine_before = before.markers.cities_of(seat)
    for city in after.markers.cities_of(seat)[len(mine_before):]:
        found.append(Marked(seat, city, start=not mine_before and city == after.markers.start_of(seat)))
    return found
