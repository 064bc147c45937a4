"""Old West's city markers in the client: the commands a player types
(``home CITY`` for the starting city, ``marker CITY [with CARDS]`` or
``marker none`` after a claim), what the turn waits for, and the points
scored in play that the panel shows (engine/citymarkers.py has the rules)."""

from __future__ import annotations

from p2p_ttr.engine.events import MoveAlvin, PlaceMarker, PlaceStartCity, SkipMarker
from p2p_ttr.engine.alvin import move_problem
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.markerrules import marker_problem, markers_left, start_city_problem
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.state import GameState, Phase

from .outcomes import Context, Outcome, Play, Refused
from .paying import Option, pay_spec, payment_in, settle
from .words import plural, take_city

NONE_WORDS = ("none", "no", "skip", "0")  # marker none: no marker after this claim


def has_markers(game: Game) -> bool:
    return game.rules.city_markers > 0


def marker_rules(game: Game) -> str:
    """The rules page's words on city markers (Old West)."""
    rules = game.rules
    never = f", never {' or '.join(rules.no_start_cities)}" if rules.no_start_cities else ""
    return (f"City markers, {rules.city_markers} each: before the first turn, from the last player back to the "
            f"first, each places one on a free city{never}: their starting city (home CITY). Every route you "
            "claim must touch your network: your starting city and every city your routes reach. After a claim "
            f"you may put another marker on a free end of the route for {rules.marker_cards} cards of one colour "
            "(marker CITY, or marker none); markers are never moved, one per city. A route scores when it is "
            "claimed, to the owner of each marked end instead of the claimer (both owners if two, twice if one "
            "owns both ends), to the claimer if neither is marked: no route points at the end."
            + (f" Alvin the Alien starts in {rules.alvin_city}, where no marker may go: whoever claims a route "
               f"into his city captures him ({rules.alvin_capture_points}) and takes him to one of their cities "
               f"(alvin CITY); whoever holds him at the end scores {rules.alvin_end_points}."
               if rules.alvin_city else ""))


def _city(view: GameState, words: list[str], usage: str) -> tuple[str, list[str]]:
    taken = take_city(view.game.board, words) if words else None
    if taken is None:
        raise Refused(f"name one city of the map: {usage}")
    return taken[0], words[taken[1]:]


def home_move(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    """``home CITY``: the starting city marker, before the first turn."""
    if view.phase is not Phase.START_CITY:
        raise Refused("the starting cities are placed before the first turn; that is over")
    city, _ = _city(view, words, "home CITY (e.g. home Denver)")
    problem = start_city_problem(view, city)
    if problem is not None:
        raise Refused(problem)
    return Play(PlaceStartCity(seat, city), f"starting in {city}: every route you claim grows from it")


def marker_move(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    """``marker CITY [with CARDS]`` or ``marker none``, right after a claim."""
    markers = view.markers
    if view.phase is not Phase.MARKER or markers is None or markers.claimed is None:
        raise Refused("a city marker is placed right after a claim, on an end of the route claimed")
    if words and words[0].lower() in NONE_WORDS:
        return Play(SkipMarker(seat), "no city marker this time")
    route = view.game.board.routes[markers.claimed]
    city, rest = _city(view, words, f"marker {route.a} or marker {route.b} (with CARDS), or marker none")
    spec = pay_spec(rest, view.game.board)
    options = []
    for action in legal_actions(view, seat, only=PlaceMarker):
        assert isinstance(action, PlaceMarker)
        pay = payment_in(view, action.cards)
        if action.city == city and spec.fits(pay):
            options.append(Option(action, pay.describe(), pay.locomotives,
                                  f"a city marker on {city} for {pay.describe()}"))
    if not options:
        raise Refused(marker_refusal(view, seat, city))
    return settle(options, f"How do you pay for the marker on {city}?")


def home_args(args: list[str], ctx: Context) -> list[tuple[str, str]]:
    """Tab after ``home``: the cities a starting marker may go to."""
    view = ctx.view
    if args or view is None or view.markers is None:
        return []
    return [(city, "start here") for city in view.game.board.cities if start_city_problem(view, city) is None]


def marker_args(args: list[str], ctx: Context) -> list[tuple[str, str]]:
    """Tab after ``marker``: the free ends of the route just claimed, and none."""
    view = ctx.view
    markers = view.markers if view is not None else None
    if args or view is None or markers is None or markers.claimed is None:
        return []
    route = view.game.board.routes[markers.claimed]
    return [(c, "a marker here") for c in route.cities if markers.owner(c) is None] + [("none", "no marker")]


def marker_refusal(view: GameState, seat: int, city: str) -> str:
    """Why no marker of ``seat``'s may go on ``city`` now: the rule's words, or what it costs."""
    problem = marker_problem(view, seat, city)
    if problem is not None:
        return problem
    need = view.game.rules.marker_cards
    return f"a city marker costs {need} cards of one colour (locomotives count as any): your hand has no such pair"


def alvin_move(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    """``alvin CITY``: where Alvin the Alien, just captured, goes (one of your markers)."""
    markers = view.markers
    if view.phase is not Phase.ALVIN or markers is None:
        raise Refused("Alvin the Alien is moved only by whoever just captured him")
    city, _ = _city(view, words, f"alvin CITY, one of {', '.join(markers.cities_of(seat))}")
    problem = move_problem(markers, seat, city)
    if problem is not None:
        raise Refused(problem)
    return Play(MoveAlvin(seat, city), f"taking Alvin the Alien to {city}")


def alvin_args(args: list[str], ctx: Context) -> list[tuple[str, str]]:
    """Tab after ``alvin``: the cities of yours he may go to."""
    view, seat = ctx.view, ctx.seat
    if args or view is None or seat is None or view.markers is None or view.phase is not Phase.ALVIN:
        return []
    return [(city, "Alvin here") for city in view.markers.cities_of(seat)]


def has_alvin(game: Game) -> bool:
    return bool(game.rules.alvin_city)


def marker_now(view: GameState, seat: int) -> str | None:
    """What the turn waits for from ``seat`` in a city-marker phase (None in any other)."""
    if view.phase is Phase.ALVIN and view.markers is not None:
        homes = " or ".join(view.markers.cities_of(seat))
        return f"you captured Alvin the Alien: take him to one of your cities, {homes} (alvin CITY)"
    if view.phase is Phase.START_CITY:
        return "place your starting city: home CITY (every route you claim must grow from it)"
    markers = view.markers
    if view.phase is Phase.MARKER and markers is not None and markers.claimed is not None:
        route = view.game.board.routes[markers.claimed]
        free = [c for c in route.cities if markers.owner(c) is None]
        return (f"a city marker on {' or '.join(free)} for {view.game.rules.marker_cards} cards of one colour "
                f"({plural(markers_left(view, seat), 'marker')} left): marker CITY, or marker none")
    return None


def marker_waiting(view: GameState, people: str) -> str | None:
    """Whom (``people``, named) the table waits for in a city-marker phase, in words (None in any other)."""
    if view.phase is Phase.START_CITY:
        return f"{people} to place their starting city"
    if view.phase is Phase.MARKER:
        return f"{people} to place a city marker or not"
    if view.phase is Phase.ALVIN:
        return f"{people} to take Alvin the Alien to one of their cities"
    return None


def points_in_play(view: GameState, player: int) -> int | None:
    """The route points ``player`` has scored in play where routes score to city markers (None elsewhere)."""
    return view.markers.route_points[player] if view.markers is not None else None
