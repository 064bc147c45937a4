"""The wire bytes never change by accident: every frame, message and engine
event type encodes to the bytes captured from the code before the codecs
were declared (``pinned_wire.json``: frames from ``wire_samples.FRAMES``,
message bodies from a seeded crypto game, an escrow game's opening and a few
built by hand, events built by hand at and near their bounds), and decodes
back to the value it came from."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgpack

from p2p_ttr.engine.boards import europe_game
from p2p_ttr.engine.events import ACTION_TYPES, CHANCE_TYPES, event_from_wire, to_wire
from p2p_ttr.table.messages import EUROPE_RULES_5, RULES_6, Seating
import pytest

from p2p_ttr.net import frames
from p2p_ttr.table.envelope import pack
from p2p_ttr.table.messages import message_from_wire

from wire_samples import FRAMES

PINNED: dict[str, Any] = json.loads((Path(__file__).parent / "pinned_wire.json").read_text())
EVENTS = [bytes.fromhex(h) for h in PINNED["events"]]
BODIES = [(kind, bytes.fromhex(h)) for kind, hexes in sorted(PINNED["messages"].items()) for h in hexes]


@pytest.mark.parametrize("index", range(len(FRAMES)))
def test_every_frame_encodes_to_its_pinned_bytes_and_back(index: int) -> None:
    frame = FRAMES[index]
    raw = frames.encode_frame(frame)
    assert raw.hex() == PINNED["frames"][index], frame
    decoded = frames.decode_to_host(raw) if frame.KIND in frames.TO_HOST else frames.decode_to_peer(raw)
    assert decoded == frame
    if frame.KIND in frames.TO_PEER:
        assert frames.decode_to_peer(raw) == frame


def test_the_samples_cover_every_frame_kind() -> None:
    assert {f.KIND for f in FRAMES} == set(frames.TO_HOST) | set(frames.TO_PEER)


@pytest.mark.parametrize(("kind", "raw"), BODIES, ids=[f"{k}-{i}" for i, (k, _) in enumerate(BODIES)])
def test_every_message_decodes_and_encodes_to_its_pinned_bytes(kind: str, raw: bytes) -> None:
    body = msgpack.unpackb(raw, raw=False)
    message = message_from_wire(body)
    assert message.KIND == kind
    if isinstance(message, Seating) and body[1] == EUROPE_RULES_5:
        # Pinned before the boards: still read, as Europe's standard game, and
        # written as revision 6 writes it (the game named after the rules), revision 6 being the rules it was played by.
        assert message.game is europe_game()
        assert message.to_wire() == ["seating", RULES_6, ["europe", "", europe_game().digest], *body[2:]]
        return
    assert pack(message.to_wire()) == raw


def test_the_pinned_bodies_cover_every_message_kind() -> None:
    from p2p_ttr.table import messages
    kinds = {t.KIND for t in messages.Message.__args__}  # type: ignore[attr-defined]
    assert {k for k, _ in BODIES} == kinds


@pytest.mark.parametrize("raw", EVENTS, ids=[f"event-{i}" for i in range(len(EVENTS))])
def test_every_event_decodes_and_encodes_to_its_pinned_bytes(raw: bytes) -> None:
    wire = msgpack.unpackb(raw, raw=False)
    event = event_from_wire(wire, europe_game())
    assert event_from_wire(wire) == event  # within every game's bounds too
    assert pack(to_wire(event)) == raw


def test_the_pinned_events_cover_every_event_kind() -> None:
    assert {msgpack.unpackb(raw, raw=False)[0] for raw in EVENTS} == {t.TAG for t in (*ACTION_TYPES, *CHANCE_TYPES)}
