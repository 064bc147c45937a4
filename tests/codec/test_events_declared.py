"""Every engine event (engine/events.py, converted by the lead once the
boards work lands) declared with p2p_ttr/codec.py, and checked against
today's hand-written codec: the declared decoder accepts exactly the wire
values ``event_from_wire`` accepts, refuses the rest with MalformedEvent,
and writes back what ``to_wire`` writes. Every bound that depends on the
board (players, routes, cities, each deck's size and first card id) is read
from ``EventLimits`` at decode time."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, ClassVar

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_ttr.codec import Choice, Family, Int, List, Record, Str, same, specs
from p2p_ttr.engine.board import europe
from p2p_ttr.engine.cards import MAX_EPOCH, Deck
from p2p_ttr.engine.errors import MalformedEvent
from p2p_ttr.engine.boards import europe_game
from p2p_ttr.engine.events import event_from_wire, to_wire

from test_codec_properties import mutated, strategy


@dataclass(frozen=True)
class EventLimits:
    """What the board decides: a value given to the decoder."""

    players: int
    routes: int
    cities: frozenset[str]
    deck_sizes: tuple[int, int, int]  # by Deck
    first_ids: tuple[int, int, int]  # the first card id of each deck


EUROPE = EventLimits(5, len(europe().routes), frozenset(europe().routes_at), (110, 40, 6), (0, 0, 40))


def _players(g: EventLimits) -> int:
    return g.players - 1


def _routes(g: EventLimits) -> int:
    return g.routes - 1


def _cities(g: EventLimits) -> frozenset[str]:
    return g.cities


def _largest_deck(g: EventLimits) -> int:
    return max(g.deck_sizes) - 1


def _highest_id(g: EventLimits) -> int:
    return max(f + n for f, n in zip(g.first_ids, g.deck_sizes)) - 1


PLAYER = Int(0, _players)
Player = Annotated[int, PLAYER]


@dataclass(frozen=True)
class Ref:
    deck: Annotated[Deck, Choice(Deck)]
    epoch: Annotated[int, Int(0, MAX_EPOCH)]
    pos: Annotated[int, Int(0, _largest_deck)]

    def validate(self, limits: EventLimits) -> None:
        if self.pos >= limits.deck_sizes[self.deck]:
            raise MalformedEvent(f"position {self.pos} is past the {self.deck.name} deck")


@dataclass(frozen=True)
class Face:
    ref: Annotated[Ref, Record(Ref, "ref")]
    card: Annotated[int, Int(0, _highest_id)]

    def validate(self, limits: EventLimits) -> None:
        first = limits.first_ids[self.ref.deck]
        if not first <= self.card < first + limits.deck_sizes[self.ref.deck]:
            raise MalformedEvent(f"card id {self.card} is not of the {self.ref.deck.name} deck")


def _ref_of(face: Face) -> Ref:
    return face.ref


def refs(most: int) -> List:
    return List(Record(Ref, "ref"), most, unique=same, name="ref")


FACES = List(Record(Face, "face"), 110, unique=_ref_of, name="face")  # Europe's largest deck


@dataclass(frozen=True)
class DrawBlind:
    player: Player
    TAG: ClassVar[str] = "draw_blind"


@dataclass(frozen=True)
class DrawFaceUp:
    player: Player
    slot: Annotated[int, Int(0, 4)]
    TAG: ClassVar[str] = "draw_face_up"


@dataclass(frozen=True)
class ClaimRoute:
    player: Player
    route: Annotated[int, Int(0, _routes)]
    cards: Annotated[tuple[Ref, ...], refs(8)]
    TAG: ClassVar[str] = "claim"


@dataclass(frozen=True)
class PayTunnel:
    player: Player
    cards: Annotated[tuple[Ref, ...], refs(3)]
    TAG: ClassVar[str] = "pay_tunnel"


@dataclass(frozen=True)
class AbandonTunnel:
    player: Player
    TAG: ClassVar[str] = "abandon_tunnel"


@dataclass(frozen=True)
class DrawTickets:
    player: Player
    TAG: ClassVar[str] = "draw_tickets"


@dataclass(frozen=True)
class KeepTickets:
    player: Player
    keep: Annotated[tuple[Ref, ...], refs(4)]
    bottom: Annotated[tuple[Ref, ...], refs(4)]
    TAG: ClassVar[str] = "keep_tickets"

    def validate(self, limits: EventLimits) -> None:
        if set(self.keep) & set(self.bottom):
            raise MalformedEvent("a ticket cannot be both kept and returned")


@dataclass(frozen=True)
class BuildStation:
    player: Player
    city: Annotated[str, Str(1, 64, among=_cities)]
    cards: Annotated[tuple[Ref, ...], refs(3)]
    TAG: ClassVar[str] = "station"


@dataclass(frozen=True)
class Pass:
    player: Player
    TAG: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Shuffled:
    deck: Annotated[Deck, Choice(Deck)]
    epoch: Annotated[int, Int(0, MAX_EPOCH)]
    TAG: ClassVar[str] = "shuffled"


@dataclass(frozen=True)
class Remasked:
    deck: Annotated[Deck, Choice(Deck)]
    epoch: Annotated[int, Int(0, MAX_EPOCH)]
    TAG: ClassVar[str] = "remasked"


@dataclass(frozen=True)
class Reveal:
    cards: Annotated[tuple[Face, ...], FACES]
    TAG: ClassVar[str] = "reveal"


@dataclass(frozen=True)
class Peek:
    player: Player
    cards: Annotated[tuple[Face, ...], FACES]
    TAG: ClassVar[str] = "peek"


EVENTS: Family[Any] = Family((DrawBlind, DrawFaceUp, ClaimRoute, PayTunnel, AbandonTunnel, DrawTickets, KeepTickets,
                              BuildStation, Pass, Shuffled, Remasked, Reveal, Peek), MalformedEvent, tag="TAG",
                             limits=EUROPE)
PINNED = json.loads((Path(__file__).parent / "pinned_wire.json").read_text())
ACTS = [msgpack.unpackb(bytes.fromhex(h), raw=False)[1] for h in PINNED["messages"]["act"]]
DECLARED = st.one_of(*(st.builds(t, **{n: strategy(s, EUROPE) for n, s in specs(t)})
                       for t in EVENTS.values()))
FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def same_verdict(wire: Any) -> None:
    """Both codecs refuse ``wire``, or both accept it and write it back alike."""
    try:
        old = to_wire(event_from_wire(wire, europe_game()))  # EUROPE's bounds, as the declarations here
    except MalformedEvent:
        old = None
    try:
        new = EVENTS.encode(EVENTS.decode(wire))
    except MalformedEvent:
        new = None
    assert new == old, wire


def test_every_event_tag_is_declared_with_today_s_arity() -> None:
    from p2p_ttr.engine import events
    assert set(EVENTS) == {t.TAG for t in (*events.ACTION_TYPES, *events.CHANCE_TYPES)}


def test_the_pinned_acts_decode_alike() -> None:
    for wire in ACTS:
        assert EVENTS.encode(EVENTS.decode(wire)) == to_wire(event_from_wire(wire, europe_game())) == wire


@FUZZ
@given(st.data())
def test_a_declared_event_and_its_mutations_get_the_same_verdict_from_both_codecs(data: st.DataObject) -> None:
    wire = EVENTS.encode(data.draw(DECLARED)) if data.draw(st.booleans()) else data.draw(st.sampled_from(ACTS))
    same_verdict(wire)
    same_verdict([wire[0], *mutated(data, wire[1:])])


def test_the_board_s_bounds_come_from_the_limits() -> None:
    """A board with three routes and two cities: route 3 and Paris are off it."""
    small = EventLimits(2, 3, frozenset({"A", "B"}), (110, 40, 6), (0, 0, 40))
    assert EVENTS.decode(["claim", 1, 2, []], small) == ClaimRoute(1, 2, ())
    for wire in (["claim", 1, 3, []], ["station", 0, "Paris", []], ["draw_blind", 2]):
        try:
            EVENTS.decode(wire, small)
        except MalformedEvent:
            continue
        raise AssertionError(f"{wire} passed a board that has no room for it")
    assert EVENTS.decode(["station", 0, "Paris", []]) == BuildStation(0, "Paris", ())


REF_WIRE = (st.tuples(st.integers(0, 2), st.integers(0, 1), st.integers(0, 5))  # valid: lists reach their lengths
            | st.tuples(st.integers(-1, 3), st.sampled_from([0, 1, MAX_EPOCH, MAX_EPOCH + 1]), st.integers(-1, 111))
            ).map(list)
NEAR = st.one_of(st.integers(-1, 111), st.sampled_from(sorted(EUROPE.cities)[:5] + ["Nowhere", ""]),
                 st.lists(REF_WIRE, max_size=9), st.lists(st.tuples(REF_WIRE, st.integers(-1, 111)).map(list), max_size=4))


@FUZZ
@given(st.sampled_from(sorted(EVENTS)), st.lists(NEAR, max_size=4))
def test_values_near_every_bound_get_the_same_verdict_from_both_codecs(tag: str, fields: list[Any]) -> None:
    """Fields of every shape an event takes, at and just past each bound, under every tag."""
    same_verdict([tag, *fields])


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
def test_a_declared_event_nudged_past_a_bound_gets_the_same_verdict_from_both_codecs(data: st.DataObject) -> None:
    wire = EVENTS.encode(data.draw(DECLARED))
    same_verdict([wire[0], *nudged(data, wire[1:])])
