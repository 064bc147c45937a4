"""Every record survives msgpack; decoders refuse garbage with a named error only."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_ttr.deck import (
    CardOpening,
    EpochPosition,
    DecryptionShare,
    DeckCreation,
    InvalidInput,
    KeyAnnouncement,
    MalformedWire,
    SecretKey,
    SecretReveal,
    Seed,
    SeedCommitment,
    ShuffleStep,
    Transcript,
    create_deck,
    record_from_wire,
    record_to_wire,
)
from p2p_ttr.deck.group import Q
from p2p_ttr.deck.remask import RemaskCreation, RemaskStep

DECODERS: list[Any] = [
    KeyAnnouncement.from_wire,
    SeedCommitment.from_wire,
    DeckCreation.from_wire,
    ShuffleStep.from_wire,
    DecryptionShare.from_wire,
    CardOpening.from_wire,
    SecretReveal.from_wire,
    RemaskCreation.from_wire,
    RemaskStep.from_wire,
    SecretKey.from_wire,
    Seed.from_wire,
    EpochPosition.from_wire,
    Transcript.from_wire,
    record_from_wire,
]

leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, Q, Q + 1, 2**32, 2**64 - 1]),
    st.floats(allow_nan=False),
    st.binary(max_size=300),
    st.sampled_from([bytes(256), b"\xff" * 256, (Q + 1).to_bytes(256, "big"), bytes(32), bytes(65)]),
    st.text(max_size=40),
    st.sampled_from(["train", "key", "share", "shuffle", "reveal", "open", "deck", "commit"]),
)
garbage = st.recursive(leaves, lambda inner: st.lists(inner, max_size=9), max_leaves=40)


def _records(game: Any) -> list[Any]:
    creation = create_deck("train", 0, range(4))
    step = game.chain(creation)[0]
    share = game.shares(creation, 1, [0])[0]
    return [
        game.announcements[0],
        game.commitments[1],
        creation,
        step,
        share,
        CardOpening(EpochPosition("train", 0, 1), 3, 0),
        RemaskCreation("train", 1, (EpochPosition("train", 0, 2), EpochPosition("train", 0, 0))),
        RemaskStep("train", 1, 1, step.ciphertexts[:2]),
        SecretReveal.of(game.secrets[1], game.seeds[1]),
    ]


def _msgpack_roundtrip(wire: object) -> object:
    return msgpack.unpackb(msgpack.packb(wire), raw=False)


def test_every_record_roundtrips_through_msgpack(game_of) -> None:
    game = game_of(2)
    records = _records(game)
    for record in records:
        assert type(record).from_wire(_msgpack_roundtrip(record.to_wire())) == record
        assert record_from_wire(_msgpack_roundtrip(record_to_wire(record))) == record
    transcript = Transcript(game.game_id, tuple(records))
    assert Transcript.from_wire(_msgpack_roundtrip(transcript.to_wire())) == transcript
    secret = game.secrets[0]
    assert SecretKey.from_wire(_msgpack_roundtrip(secret.to_wire())) == secret
    assert Seed.from_wire(_msgpack_roundtrip(game.seeds[0].to_wire())) == game.seeds[0]


def test_wire_sizes_are_as_documented(game_of) -> None:
    game = game_of(2)
    announcement = game.announcements[0].to_wire()
    assert [len(x) for x in announcement[1:]] == [256, 256, 65]
    share = next(r for r in _records(game) if isinstance(r, DecryptionShare)).to_wire()
    assert [len(x) for x in share[4:]] == [256, 256, 256, 65]
    assert [len(x) for x in SecretReveal.of(game.secrets[0], game.seeds[0]).to_wire()[1:]] == [32, 32]


@pytest.mark.parametrize(
    ("decoder", "wire", "words"),
    [
        (EpochPosition.from_wire, ["train", 0], "must have 3 items"),
        (EpochPosition.from_wire, ["train", True, 0], "epoch must be an int"),
        (EpochPosition.from_wire, ["tr ain", 0, 0], "deck name"),
        (EpochPosition.from_wire, ["train", 0, 5000], "position is 5000"),
        (SeedCommitment.from_wire, [0, b"short"], "must be 32 bytes"),
        (SeedCommitment.from_wire, [16, bytes(32)], "seat is 16"),
        (DeckCreation.from_wire, ["train", 0, [3, 1]], "ascending"),
        (DeckCreation.from_wire, ["train", 0, []], "1..1024 cards"),
        (record_from_wire, ["nope", []], "unknown transcript record tag"),
        (SecretReveal.from_wire, [0, bytes(32), bytes(32)], "zero"),
    ],
)
def test_malformed_wire_names_the_field(decoder: Any, wire: object, words: str) -> None:
    with pytest.raises(MalformedWire, match=words):
        decoder(wire)


def test_bad_elements_on_the_wire_are_refused(game_of) -> None:
    wire = game_of(2).announcements[0].to_wire()
    for bad in (bytes(256), (1).to_bytes(256, "big"), (Q + 1).to_bytes(256, "big"), b"\xff" * 256):
        with pytest.raises(InvalidInput, match="public key"):
            KeyAnnouncement.from_wire([wire[0], bad, *wire[2:]])


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(DECODERS), garbage)
def test_garbage_raises_only_the_named_error(decoder: Any, data: object) -> None:
    try:
        decoder(data)
    except InvalidInput:
        pass


def _mutations(wire: object, path: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    if isinstance(wire, list):
        found = [path]
        for i, item in enumerate(wire):
            found += _mutations(item, (*path, i))
        return found
    return [path]


def _replace(wire: object, path: tuple[int, ...], value: object) -> object:
    if not path:
        return value
    assert isinstance(wire, list)
    copy = list(wire)
    copy[path[0]] = _replace(copy[path[0]], path[1:], value)
    return copy


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_mutated_records_raise_only_the_named_error(game_of, data: st.DataObject) -> None:
    records = _records(game_of(2))
    wire = record_to_wire(data.draw(st.sampled_from(records)))
    path = data.draw(st.sampled_from(_mutations(wire)))
    mutated = _replace(wire, path, data.draw(garbage))
    try:
        record_from_wire(mutated)
    except InvalidInput:
        pass
