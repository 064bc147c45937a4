"""The escrow messages on the wire (protocol.md §5): each decodes to what was
encoded, every field is bounded and checked before the table acts, and no
body, however mangled, crashes a replica or changes it."""

from __future__ import annotations

import functools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_ttr.bots.levels import make_bot
from p2p_ttr.deck import Q, Complaint
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.table.envelope import seal
from p2p_ttr.table.errors import Malformed, TableError
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.messages import (
    CarryOn,
    Escrow,
    EscrowComplaint,
    EscrowReveal,
    Seat,
    Seating,
    message_from_wire,
)
from p2p_ttr.table.peer import Peer
from p2p_ttr.table.table import Table

NAMES = ("Anna", "Boris", "Chiara", "Dmitri", "Elena")
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def seats(n: int) -> tuple[Seat, ...]:
    return tuple(Seat(NAMES[p], bytes([p + 1]) * 32) for p in range(n))


@functools.cache
def dealt() -> list[Peer]:
    """Three peers of an escrow game, run until every seat's deal is in."""
    peers = [Peer(p, Identity.from_bytes(bytes([p + 9]) * 32), make_bot("medium", p).choose) for p in range(3)]
    seating = tuple(Seat(NAMES[p], peers[p].identity.public) for p in range(3))
    first = peers[0].open_game(seating, escrow=True)
    for peer in peers:
        peer.table.receive(first)
    while len(peers[0].table.escrowbook.deals) < 3:
        for peer in peers:
            for raw in peer.outbox():
                for other in peers:
                    other.table.receive(raw)
    return peers


def test_a_seating_without_escrow_encodes_as_before_and_the_flag_round_trips() -> None:
    plain = Seating(seats(3))
    assert len(plain.to_wire()) == 4  # kind, rules, game, players: no escrow flag
    assert message_from_wire(plain.to_wire()) == plain
    escrow = Seating(seats(3), True)
    assert escrow.to_wire()[-1] is True and message_from_wire(escrow.to_wire()) == escrow


@pytest.mark.parametrize("tail", [[1], [None], ["yes"], [True, True], [False]])
def test_a_seating_escrow_flag_is_true_written_alone_or_absent(tail: list[Any]) -> None:
    """One encoding per seating (protocol.md §5): an explicit false is refused too."""
    with pytest.raises(Malformed):
        message_from_wire(Seating(seats(3)).to_wire() + tail)


def test_escrow_needs_three_to_five_seats() -> None:
    with pytest.raises(Malformed, match="3 to 5 players"):
        message_from_wire(Seating(seats(2), True).to_wire())
    for n in (3, 4, 5):
        assert message_from_wire(Seating(seats(n), True).to_wire()) == Seating(seats(n), True)


def test_an_escrow_deal_round_trips_and_its_repr_shows_no_share() -> None:
    deal = dealt()[0].table.escrowbook.deals[1]
    assert message_from_wire(deal.to_wire()) == deal
    reveal = EscrowReveal(2, 12345678901234567890, 98765432109876543210)
    assert "12345678901234567890" not in repr(reveal) and "98765432109876543210" not in repr(reveal)


exponent = st.integers(0, Q - 1)


@FUZZ
@given(st.integers(0, 4), exponent, exponent)
def test_carry_on_and_reveal_round_trip(seat: int, a: int, b: int) -> None:
    assert message_from_wire(CarryOn(seat).to_wire()) == CarryOn(seat)
    assert message_from_wire(EscrowReveal(seat, a, b).to_wire()) == EscrowReveal(seat, a, b)


@FUZZ
@given(st.sampled_from(["key", "seed"]), st.integers(0, 4), st.integers(0, 4), st.integers(2, 2**2040),
       st.integers(0, 2**128 - 1), st.integers(0, 2**2200 - 1))
def test_a_complaint_round_trips(secret: str, dealer: int, recipient: int, key: int, c: int, z: int) -> None:
    message = EscrowComplaint(secret, Complaint(dealer, recipient, key, c, z))
    assert message_from_wire(message.to_wire()) == message


def test_out_of_range_values_are_malformed() -> None:
    for body in (["carry_on", 6], ["carry_on", -1], ["carry_on", True], ["carry_on"], ["carry_on", 1, 2],
                 ["escrow_reveal", 1, Q.to_bytes(256, "big"), bytes(256)],
                 ["escrow_reveal", 1, bytes(255), bytes(256)],
                 ["escrow_complaint", "hand", [0, 1, bytes(256), bytes(16), bytes(280)]],
                 ["escrow", [], [], bytes(256)]):
        with pytest.raises(Malformed):
            message_from_wire(body)


value = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**40), 2**64 - 1), st.binary(max_size=300),
              st.sampled_from([bytes(256), (Q - 1).to_bytes(256, "big"), b"\xff" * 256, "key", "seed"])),
    lambda inner: st.lists(inner, max_size=5), max_leaves=10)


@FUZZ
@given(st.sampled_from(["escrow", "escrow_complaint", "carry_on", "escrow_reveal", "seating"]),
       st.lists(value, max_size=5))
def test_no_mangled_escrow_body_gets_past_the_decoder_unchecked(kind: str, rest: list[Any]) -> None:
    try:
        message_from_wire([kind, *rest])
    except Malformed:
        pass


@FUZZ
@given(st.sampled_from(["escrow", "escrow_complaint", "carry_on", "escrow_reveal"]), st.lists(value, max_size=4),
       st.integers(0, 2))
def test_a_signed_mangled_escrow_message_changes_no_replica(kind: str, rest: list[Any], seat: int) -> None:
    peers = dealt()
    table = Table()
    for raw in peers[0].table.log:
        table.receive(raw)
    before = (table.digest(), len(table.log), dict(table.carry_on_requests), table.halted)
    assert table.game_id is not None
    raw = seal(peers[seat].identity, table.game_id, seat, 10**6, table.head, [kind, *rest]).raw
    try:
        table.receive(raw)
    except (TableError, EngineError):
        assert (table.digest(), len(table.log), dict(table.carry_on_requests), table.halted) == before
    else:  # a well-formed request after all: it is kept, and nothing else changes
        assert kind == "carry_on" and table.carry_on_requests == {rest[0]: frozenset({seat})}
