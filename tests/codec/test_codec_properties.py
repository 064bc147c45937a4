"""Properties of the declared codecs (p2p_ttr/codec.py): every declared
frame and message round-trips (values drawn from the declarations
themselves; the deck's records from the pinned bodies), and garbage, random
or a valid value mutated, is refused with the family's own error and nothing
else."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import msgpack
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from p2p_ttr import codec
from p2p_ttr.net import frames
from p2p_ttr.net.frames import FrameError
from p2p_ttr.table.errors import Malformed
from p2p_ttr.table import messages
from p2p_ttr.engine.limits import any_game_limits
from p2p_ttr.table.messages import MESSAGES, Mix, Remask, Shuffle, message_from_wire

PINNED: dict[str, Any] = json.loads((Path(__file__).parent / "pinned_wire.json").read_text())
BODIES = [msgpack.unpackb(bytes.fromhex(h), raw=False) for hexes in PINNED["messages"].values() for h in hexes]
MESSAGE_SAMPLES = [message_from_wire(b) for b in BODIES]
LIMITS = any_game_limits()  # what every message is read within
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def seen_values() -> dict[int, list[Any]]:
    """The values each opaque spec (a deck record, a mapped value) took in the pinned bodies, by the spec's id."""
    pools: dict[int, list[Any]] = defaultdict(list)

    def visit(spec: codec.Spec, value: Any) -> None:
        if isinstance(spec, (codec.Foreign, codec.Mapped)):
            pools[id(spec)].append(value)
        elif isinstance(spec, (codec.List,)):
            for v in value:
                visit(spec.item, v)
        elif isinstance(spec, codec.Trailing) and value is not None:
            visit(spec.inner, value)

    for message in MESSAGE_SAMPLES:
        for name, spec in codec.specs(type(message)):
            visit(spec, getattr(message, name))
    return pools


POOLS = seen_values()


def strategy(spec: codec.Spec, limits: Any) -> st.SearchStrategy[Any]:
    """Values that ``spec`` declares (byte strings kept short)."""
    at = codec._at  # noqa: SLF001 - the tests read bounds as the codec does
    match spec:
        case codec.Int(lo, hi):
            return st.integers(at(lo, limits), at(hi, limits))
        case codec.Bool():
            return st.booleans()
        case codec.Bytes(lo, hi):
            low = at(lo, limits)
            return st.binary(min_size=low, max_size=low if hi is None else min(at(hi, limits), 300))
        case codec.Str(lo, hi, among, test):
            if among is not None:
                return st.sampled_from(sorted(among(limits)))
            text = st.text(min_size=at(lo, limits), max_size=at(hi, limits))
            return text.filter(test) if test is not None else text
        case codec.EnumValue(members):
            return st.sampled_from(list(members))
        case codec.OneOf(values):
            return st.sampled_from(values)
        case codec.Optional(inner):
            return st.none() | strategy(inner, limits)
        case codec.Trailing(inner, absent):
            return st.just(absent) | strategy(inner, limits)
        case codec.List(item, hi, lo, unique):
            return st.lists(strategy(item, limits), min_size=at(lo, limits), max_size=min(at(hi, limits), 6),
                            unique_by=unique).map(tuple)
        case codec.Tuple(items):
            return st.tuples(*(strategy(s, limits) for _, s in items))
        case codec.Record(cls):
            return declared(cls, limits)
        case codec.Checked(inner, check):
            return strategy(inner, limits).filter(lambda value: passes(check, value, limits))
        case codec.Mapped(inner, read) if id(spec) not in POOLS:  # no pinned body shows one: read from its inner
            return strategy(inner, limits).map(read)
    return st.sampled_from(POOLS[id(spec)])


def passes(check: Any, value: Any, limits: Any) -> bool:
    try:
        check(value, limits)
    except codec.Refusal:
        return False
    return True


def declared(cls: type[Any], limits: Any) -> st.SearchStrategy[Any]:
    return st.builds(cls, **{name: strategy(spec, limits) for name, spec in codec.specs(cls)})


# A shuffle's, a re-masking's and a mix's cards follow from their step: drawn from the pinned ones.
WHOLE = {kind: st.sampled_from([m for m in MESSAGE_SAMPLES if isinstance(m, kind)]) for kind in (Shuffle, Remask, Mix)}
ANY_FRAME = st.one_of(*(declared(t, None) for family in (frames.TO_HOST, frames.TO_PEER) for t in family.values()))
ANY_MESSAGE = st.one_of(*(WHOLE[t] if t in WHOLE else declared(t, LIMITS) for t in MESSAGES.values()))


@FUZZ
@given(ANY_FRAME)
def test_every_frame_round_trips(frame: frames.Frame) -> None:
    raw = frames.encode_frame(frame)
    if frame.KIND in frames.TO_HOST:
        assert frames.decode_to_host(raw) == frame
    if frame.KIND in frames.TO_PEER:
        assert frames.decode_to_peer(raw) == frame


@FUZZ
@given(ANY_MESSAGE)
def test_every_message_round_trips(message: Any) -> None:
    try:
        message.validate(LIMITS)
    except AttributeError:
        pass
    except Malformed:
        assume(False)  # two seats of one name, two requests of one seat: drawn, but not a message
    body = msgpack.unpackb(msgpack.packb(message.to_wire(), use_bin_type=True), raw=False)
    assert message_from_wire(body) == message


def test_the_strategies_reach_every_type() -> None:
    assert all(POOLS[id(s)] for t in MESSAGES.values() for _, s in codec.specs(t)
               if isinstance(s, (codec.Foreign, codec.Mapped))), "a pinned body of every kind"


LEAF = (st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1) | st.text(max_size=12) | st.binary(max_size=40)
        | st.sampled_from(["silent", "key", "seed", "ttr-europe/5", "::1"]))
ANY_VALUE = st.recursive(LEAF, lambda inner: st.lists(inner, max_size=5), max_leaves=25)


def mutated(data: st.DataObject, value: Any) -> Any:
    """``value`` with one item somewhere replaced, dropped or doubled (a list stays a list)."""
    if not isinstance(value, list) or not value or data.draw(st.integers(0, 3)) == 0:
        other = data.draw(ANY_VALUE)
        return other if not isinstance(value, list) or isinstance(other, list) else [other]
    i = data.draw(st.integers(0, len(value) - 1))
    how = data.draw(st.integers(0, 3))
    if how == 0:
        return value[:i] + value[i + 1:]
    if how == 1:
        return value[:i] + [value[i]] + value[i:]
    return value[:i] + [mutated(data, value[i])] + value[i + 1:]


@FUZZ
@given(st.data())
def test_a_mutated_frame_is_refused_only_as_a_frame_error(data: st.DataObject) -> None:
    frame = data.draw(ANY_FRAME)
    value = msgpack.unpackb(frames.encode_frame(frame), raw=False)
    raw = msgpack.packb([value[0], *mutated(data, value[1:])], use_bin_type=True)
    if data.draw(st.booleans()):
        at = data.draw(st.integers(0, len(raw) - 1))
        raw = raw[:at] + bytes([data.draw(st.integers(0, 255))]) + raw[at + 1:]
    for decode in (frames.decode_to_host, frames.decode_to_peer):
        try:
            decode(raw)
        except FrameError:
            pass


@FUZZ
@given(st.data())
def test_a_mutated_message_is_refused_only_as_malformed(data: st.DataObject) -> None:
    body = data.draw(st.sampled_from(BODIES))
    changed = [body[0], *mutated(data, body[1:])]
    try:
        message = message_from_wire(changed)
    except Malformed:
        return
    # What is accepted is exactly what it says; the one rewrite is a revision-5
    # seating, read as the Europe seating it always meant.
    assert message.to_wire() == messages._as_revision_6(changed)


@FUZZ
@given(ANY_VALUE)
def test_any_value_is_refused_only_as_malformed_or_a_frame_error(value: Any) -> None:
    for kind in MESSAGES:
        try:
            message_from_wire([kind, *value] if isinstance(value, list) else [kind, value])
        except Malformed:
            pass
    try:
        frames.decode_to_host(msgpack.packb(value, use_bin_type=True))
    except FrameError:
        pass
