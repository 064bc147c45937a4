"""Engine events declared with p2p_ttr/codec.py (engine/events.py,
``EVENTS``): every declared event of every game round-trips through msgpack;
every bound that depends on the game (players, routes, cities, each deck's
positions and card ids, the cards one move names) is read from the game's
``GameLimits`` at decode time; values at and one step past each bound get
the verdicts the hand-written decoder gave them; and garbage, random or a
valid event mutated, is refused with MalformedEvent and nothing else, while
whatever is accepted is written back as it came (one encoding per event)."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_ttr.codec import specs
from p2p_ttr.engine.boards import every_expanded_game, every_game, load_game
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.errors import MalformedEvent
from p2p_ttr.engine.events import EVENTS, BuildStation, ClaimRoute, event_from_wire, to_wire
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.limits import GameLimits

from test_codec_properties import ANY_VALUE, mutated, strategy

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                       HealthCheck.filter_too_much])
GAMES = {game.name: game for game in every_game() + every_expanded_game()}
A_GAME = st.sampled_from(sorted(GAMES)).map(GAMES.__getitem__)


@functools.cache  # one strategy per game, built once
def declared_event(game: Game) -> st.SearchStrategy[Any]:
    """Any event the declarations allow in ``game`` (``validate`` included)."""
    limits = GameLimits.of(game)
    return st.one_of(*(st.builds(t, **{n: strategy(s, limits) for n, s in specs(t)})
                       for t in EVENTS.values())).filter(lambda event: valid(event, limits))


def valid(event: Any, limits: GameLimits) -> bool:
    try:
        getattr(event, "validate", lambda limits: None)(limits)
    except MalformedEvent:
        return False
    return True


def over_msgpack(wire: Any) -> Any:
    return msgpack.unpackb(msgpack.packb(wire, use_bin_type=True), raw=False)


@FUZZ
@given(st.data())
def test_every_declared_event_of_every_game_round_trips(data: st.DataObject) -> None:
    game = data.draw(A_GAME)
    event = data.draw(declared_event(game))
    wire = over_msgpack(to_wire(event))
    assert event_from_wire(wire, game) == event
    assert event_from_wire(wire) == event  # every game's event fits the bounds of any game


def read_back_or_refused(wire: Any, game: Game | None) -> None:
    """``wire`` is refused as MalformedEvent, or accepted and written back exactly."""
    try:
        event = event_from_wire(wire, game)
    except MalformedEvent:
        return
    assert to_wire(event) == wire


def nudged(data: st.DataObject, value: Any) -> Any:
    """``value`` one step past a bound somewhere: an int one up or down, or a
    list one item longer (a sibling with its last number bumped, so usually
    a fresh item) or shorter."""
    if type(value) is int:
        return value + data.draw(st.sampled_from([1, -1]))
    if not isinstance(value, list) or not value:
        return value
    i = data.draw(st.integers(0, len(value) - 1))
    how = data.draw(st.integers(0, 2))
    if how == 0:
        return value[:i] + [nudged(data, value[i])] + value[i + 1:]
    if how == 1:
        item = value[i]
        fresh = item[:-1] + [item[-1] + 1] if isinstance(item, list) and item and type(item[-1]) is int else item
        return value + [fresh]
    return value[:i] + value[i + 1:]


@FUZZ
@given(st.data())
def test_an_event_mutated_or_nudged_past_a_bound_is_refused_only_as_malformed(data: st.DataObject) -> None:
    game = data.draw(A_GAME)
    wire = over_msgpack(to_wire(data.draw(declared_event(game))))
    changed = [wire[0], *(mutated(data, wire[1:]) if data.draw(st.booleans()) else nudged(data, wire[1:]))]
    read_back_or_refused(changed, game)
    read_back_or_refused(changed, None)


@FUZZ
@given(st.sampled_from(sorted(EVENTS)), ANY_VALUE)
def test_any_value_under_any_tag_is_refused_only_as_malformed(tag: str, value: Any) -> None:
    read_back_or_refused(value, None)
    read_back_or_refused([tag, *value] if isinstance(value, list) else [tag, value], None)


def train(*positions: int) -> list[list[int]]:
    return [[0, 0, p] for p in positions]


# (game, wire, None if accepted, else words of its refusal): every bound, at it and one step past it.
# The verdicts are those of the hand-written decoder the declarations replaced.
AT_AND_PAST = [
    ("europe", ["draw_blind", 4], None),
    ("europe", ["draw_blind", 5], "player is 5, outside [0, 4]"),
    ("europe", ["draw_blind", -1], "player is -1"),
    ("europe", ["draw_blind", True], "player must be an int"),
    ("india", ["draw_tickets", 3], None),
    ("india", ["draw_tickets", 4], "player is 4, outside [0, 3]"),
    ("nordic", ["pass", 3], "outside [0, 2]"),
    ("europe", ["draw_face_up", 0, 4], None),
    ("europe", ["draw_face_up", 0, 5], "slot is 5"),
    ("europe", ["claim", 0, 100, train(*range(8))], None),
    ("europe", ["claim", 0, 101, []], "route is 101, outside [0, 100]"),
    ("usa", ["claim", 0, 100, []], "route is 100, outside [0, 99]"),
    ("europe", ["claim", 0, 1, train(*range(9))], "cards must be a list of 0..8 items"),
    ("usa", ["claim", 0, 1, train(*range(7))], "0..6 items"),
    ("nordic", ["claim", 0, 1, train(*range(36))], None),
    ("nordic", ["claim", 0, 1, train(*range(37))], "0..36 items"),
    ("europe", ["claim", 0, 1, train(3, 3)], "names one ref twice"),
    ("europe", ["claim", 0, 1, [[0, 0, 109], [0, 65536, 0]]], None),
    ("europe", ["claim", 0, 1, [[0, 0, 110]]], "pos is 110, outside [0, 109]"),
    ("europe", ["claim", 0, 1, [[0, 65537, 0]]], "epoch is 65537"),
    ("europe", ["claim", 0, 1, [[4, 0, 0]]], "deck must be one of [0, 1, 2, 3]"),
    ("europe", ["claim", 0, 1, [[3, 0, 0]]], "this game has no dummy_shares deck"),
    ("pennsylvania", ["take_shares", 1, "BR&P", "PRR"], None),
    ("pennsylvania", ["take_shares", 1, "", ""], None),
    ("pennsylvania", ["take_shares", 1, "BR&PX", ""], "must be a string of 0..4 characters"),
    ("pennsylvania", ["take_shares", 1, "XYZ", ""], "is unknown"),
    ("pennsylvania", ["take_shares", 1, "", "PRR"], "the dummy takes a share only beside one its player takes"),
    ("europe", ["take_shares", 0, "PRR", ""], "must be a string of 0..0 characters"),
    ("europe", ["claim", 0, 1, [[0, 0]]], "must be a list of 3 items"),
    ("europe", ["pay_tunnel", 0, train(1, 2, 3)], None),
    ("europe", ["pay_tunnel", 0, train(1, 2, 3, 4)], "0..3 items"),
    ("europe", ["keep_tickets", 0, [[1, 0, 39], [2, 0, 5]], [[1, 3, 0]]], None),
    ("europe", ["keep_tickets", 0, [[1, 0, 40]], []], "pos 40 is past the tickets deck's 40 cards"),
    ("europe", ["keep_tickets", 0, [[2, 0, 6]], []], "pos 6 is past the long deck's 6 cards"),
    ("europe", ["keep_tickets", 0, [], [[1, 0, i] for i in range(4)]], None),
    ("europe", ["keep_tickets", 0, [], [[1, 0, i] for i in range(5)]], "bottom must be a list of 0..4 items"),
    ("usa(variant=mega)", ["keep_tickets", 0, [[1, 0, i] for i in range(5)], []], None),
    ("usa(variant=mega)", ["keep_tickets", 0, [[1, 0, 68]], []], None),
    ("usa(variant=mega)", ["keep_tickets", 0, [[1, 0, 69]], []], "past the tickets deck's 69 cards"),
    ("europe", ["keep_tickets", 0, [[1, 0, 1]], [[1, 0, 1]]], "both kept and returned"),
    ("usa", ["keep_tickets", 0, [[2, 0, 0]], []], "deck 2: this game has no long deck"),
    ("europe", ["station", 4, "Zurich", train(1, 2, 3)], None),
    ("europe", ["station", 4, "Zurich", train(1, 2, 3, 4)], "0..3 items"),
    ("europe", ["station", 4, "Denver", []], "city is unknown: 'Denver'"),
    ("europe", ["station", 4, "", []], "city must be a string"),
    ("usa", ["station", 0, "Denver", train(1)], "cards must be a list of 0..0 items"),
    ("europe", ["shuffled", 2, 65536], None),
    ("europe", ["shuffled", 2, 65537], "epoch is 65537"),
    ("usa", ["shuffled", 2, 0], "this game has no long deck"),
    ("europe", ["remasked", 1, 0], None),
    ("europe", ["remasked", False, 0], "deck must be one of"),
    ("europe", ["reveal", [[[0, 0, 109], 109], [[1, 0, 39], 39], [[2, 0, 5], 45]]], None),
    ("europe", ["reveal", [[[2, 0, 5], 39]]], "card is 39, outside [40, 45]: not of the long deck"),
    ("europe", ["reveal", [[[1, 0, 5], 40]]], "card is 40, outside [0, 39]"),
    ("europe", ["reveal", [[[0, 0, 0], 110]]], "card is 110, outside [0, 109]"),
    ("europe", ["reveal", [[[0, 0, p], p] for p in range(110)]], None),
    ("europe", ["reveal", [[[0, 0, p], p] for p in range(110)] + [[[0, 1, 0], 0]]], "0..110 items"),
    ("europe", ["reveal", [[[0, 0, 1], 1], [[0, 0, 1], 2]]], "names one face twice"),
    ("europe", ["reveal", [[[0, 0, 1]]]], "must be a list of 2 items"),
    ("europe", ["peek", 4, []], None),
    ("europe", ["pass"], "pass must have 2 items, got 1"),
    ("europe", ["pass", 0, 0], "pass must have 2 items, got 3"),
    ("europe", ["nope", 0], "unknown event 'nope'"),
    ("europe", [3, 0], "a list that starts with its kind"),
    ("europe", [], "a list that starts with its kind"),
    ("europe", "claim", "a list that starts with its kind"),
    # Before the game is known: the bounds every game fits.
    (None, ["claim", 5, 156, train(*range(40))], None),  # (France has the most routes: 157; the UK the largest claim)
    (None, ["claim", 6, 0, []], "player is 6, outside [0, 5]"),  # (Old West seats 6)
    (None, ["claim", 0, 157, []], "route is 157, outside [0, 156]"),
    (None, ["buy_technology", 3, "Right of Way", train(*range(40))], None),
    (None, ["buy_technology", 0, "Telegraph", []], "is unknown: 'Telegraph'"),
    (None, ["lay_track", 0, 156, "white"], None),
    (None, ["lay_track", 0, 156, "pink"], "color is unknown: 'pink'"),
    # Old West's city markers.
    ("oldwest", ["start_city", 5, "Las Cruces"], None),
    ("oldwest", ["start_city", 6, "Las Cruces"], "player is 6, outside [0, 5]"),
    ("oldwest", ["start_city", 0, "Paris"], "city is unknown: 'Paris'"),
    ("oldwest", ["marker", 0, "Denver", train(1, 2)], None),
    ("oldwest", ["marker", 0, "Denver", train(1, 2, 3)], "cards must be a list of 0..2 items"),
    ("oldwest", ["no_marker", 5], None),
    ("oldwest", ["no_marker", 5, 0], "no_marker must have 2 items, got 3"),
    ("oldwest(variant=alvin)", ["alvin", 5, "Denver"], None),
    ("oldwest(variant=alvin)", ["alvin", 0, "Paris"], "city is unknown: 'Paris'"),
    ("usa", ["marker", 0, "Denver", train(1)], "cards must be a list of 0..0 items"),
    # Alvin & Dexter.
    ("usa(variant=monsters)", ["place_monster", 4, "alvin", "Denver"], None),
    ("usa(variant=monsters)", ["place_monster", 0, "godzilla", "Denver"], "monster must be a string of 1..6"),
    ("usa(variant=monsters)", ["place_monster", 0, "dino", "Denver"], "monster is unknown: 'dino'"),
    ("usa(variant=monsters)", ["monster", 0, "dexter", "Denver", train(1, 2)], None),
    ("usa(variant=monsters)", ["monster", 0, "dexter", "Denver", train(1, 2, 3)], "cards must be a list of 0..2 items"),
    ("usa(variant=monsters)", ["monster", 0, "dexter", "Denver", []], "one or two locomotives, not for none"),
    (None, ["station", 0, "Denver", train(1, 2, 3)], None),
    # (Mega Europe's deck is the largest: 89 regular tickets, then 12 long ones, ids 89..100.)
    (None, ["keep_tickets", 0, [[2, 0, 100]], [[1, 0, 88]]], None),
    (None, ["keep_tickets", 0, [[2, 0, 101]], []], "pos 101 is past the long deck's 101 cards"),
    (None, ["reveal", [[[2, 0, 100], 100], [[1, 0, 0], 0]]], None),
    (None, ["reveal", [[[2, 0, 1], 101]]], "card is 101, outside [0, 100]"),
]


@pytest.mark.parametrize(("name", "wire", "refusal"), AT_AND_PAST,
                         ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(AT_AND_PAST)])
def test_at_and_one_step_past_every_bound(name: str | None, wire: Any, refusal: str | None) -> None:
    game = None if name is None else GAMES[name]
    if refusal is None:
        assert to_wire(event_from_wire(wire, game)) == wire
        return
    with pytest.raises(MalformedEvent) as refused:
        event_from_wire(wire, game)
    assert refusal in str(refused.value)


def test_the_bounds_are_read_from_the_limits_alone() -> None:
    """A game with three routes and two cities: route 3 and Paris are off it."""
    europe = GameLimits.of(load_game("europe"))
    small = dataclasses.replace(europe, max_players=2, routes=3, cities=frozenset({"A", "B"}))
    assert EVENTS.decode(["claim", 1, 2, [[1, 0, 39]]], small) == ClaimRoute(1, 2, (CardRef(Deck.TICKETS, 0, 39),))
    assert EVENTS.decode(["station", 1, "B", []], small) == BuildStation(1, "B", ())
    for wire in (["claim", 1, 3, []], ["station", 0, "Paris", []], ["draw_blind", 2]):
        with pytest.raises(MalformedEvent):
            EVENTS.decode(wire, small)
