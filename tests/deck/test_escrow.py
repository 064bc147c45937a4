"""Escrow of a seat's key among all the other seats (p2p_ttr/deck/escrow.py):
the shares together are the key and nothing less is checked; a dealer that
seals a false share is shown up by its recipient's complaint, a false
complaint is not believed, and a false share handed over at the end is named."""

from __future__ import annotations

import functools
from dataclasses import replace

import pytest
from conftest import seeded_source
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_ttr.deck import InvalidInput, SecretKey
from p2p_ttr.deck.errors import BadEscrow
from p2p_ttr.deck.escrow import (
    Complaint,
    EscrowDeal,
    SealedShare,
    deal_escrow,
    escrow_complaint,
    escrow_dealer_cheated,
    open_escrow_share,
    reconstruct_key,
)
from p2p_ttr.deck.group import Q

GAME = b"escrow-test-game"


@functools.cache
def keys(n: int = 5) -> tuple[SecretKey, ...]:
    return tuple(SecretKey.generate(GAME, seat, seeded_source(f"escrow key {seat}")) for seat in range(n))


def publics(n: int = 5) -> dict[int, int]:
    return {k.seat: k.public_key for k in keys(n)}


@functools.cache
def honest(dealer: int = 2, n: int = 5) -> EscrowDeal:
    return deal_escrow(keys(n)[dealer], publics(n), seeded_source("escrow deal"))


def test_all_the_other_seats_together_rebuild_the_key_and_each_checks_its_share() -> None:
    deal = honest()
    deal.check(keys()[2].public_key, publics())
    assert [s.recipient for s in deal.shares] == [0, 1, 3, 4]
    shares = {k.seat: open_escrow_share(deal, k) for k in keys() if k.seat != 2}
    assert reconstruct_key(deal, shares, keys()[2].public_key) == keys()[2].x
    with pytest.raises(BadEscrow, match="missing"):  # fewer than all of them: nothing
        reconstruct_key(deal, {s: v for s, v in shares.items() if s != 4}, keys()[2].public_key)
    with pytest.raises(BadEscrow):  # a seat cannot open another's share
        open_escrow_share(deal, replace(keys()[0], seat=1))


def test_six_seats_escrow_to_the_five_others_and_the_deal_reads_back() -> None:
    deal = deal_escrow(keys(6)[5], publics(6), seeded_source("six"))
    assert [s.recipient for s in deal.shares] == [0, 1, 2, 3, 4]
    assert EscrowDeal.from_wire(deal.to_wire()) == deal  # the largest table's deal is within the wire's bound


def test_two_players_escrow_to_the_one_other() -> None:
    deal = deal_escrow(keys(2)[0], publics(2), seeded_source("two"))
    deal.check(keys(2)[0].public_key, publics(2))
    assert reconstruct_key(deal, {1: open_escrow_share(deal, keys(2)[1])}, keys(2)[0].public_key) == keys(2)[0].x


def test_commitments_that_do_not_make_the_key_or_a_seat_left_out_are_refused_in_public() -> None:
    deal = honest()
    other = deal_escrow(keys()[3], publics(), seeded_source("another dealer"))
    swapped = replace(deal, shares=(other.shares[0], *deal.shares[1:]))
    with pytest.raises(BadEscrow, match="do not make its key"):
        swapped.check(keys()[2].public_key, publics())
    with pytest.raises(BadEscrow, match="deals to seats"):
        replace(deal, shares=deal.shares[:-1]).check(keys()[2].public_key, publics())


def _with_false_share(recipient: int) -> EscrowDeal:
    """Seat 2's deal with ``recipient``'s share sealed over garbage (the
    commitments still make the key, so the public check passes)."""
    deal = honest()
    index = [s.recipient for s in deal.shares].index(recipient)
    bad = bytearray(deal.shares[index].sealed)
    bad[5] ^= 0x40
    shares = list(deal.shares)
    shares[index] = replace(shares[index], sealed=bytes(bad))
    return replace(deal, shares=tuple(shares))


def test_a_false_sealed_share_is_shown_up_by_its_recipients_complaint() -> None:
    deal = _with_false_share(3)
    deal.check(keys()[2].public_key, publics())  # nothing to see in public
    with pytest.raises(BadEscrow, match="does not open"):
        open_escrow_share(deal, keys()[3])
    complaint = escrow_complaint(deal, keys()[3], seeded_source("complaint"))
    assert Complaint.from_wire(complaint.to_wire()) == complaint
    assert escrow_dealer_cheated(deal, complaint, keys()[3].public_key)


def test_a_false_complaint_is_not_believed() -> None:
    deal = honest()
    honest_complaint = escrow_complaint(deal, keys()[3], seeded_source("complaint"))
    assert not escrow_dealer_cheated(deal, honest_complaint, keys()[3].public_key)  # the share opens fine
    forged_key = replace(honest_complaint, key=keys()[4].public_key)  # not R^x: its proof fails
    assert not escrow_dealer_cheated(_with_false_share(3), forged_key, keys()[3].public_key)
    other_seat = escrow_complaint(_with_false_share(3), keys()[3], seeded_source("c"))
    assert not escrow_dealer_cheated(_with_false_share(3), replace(other_seat, dealer=1), keys()[3].public_key)


def test_a_false_share_handed_over_at_the_end_is_named() -> None:
    deal = honest()
    shares = {k.seat: open_escrow_share(deal, k) for k in keys() if k.seat != 2}
    shares[1] = (shares[1] + 1) % Q
    with pytest.raises(BadEscrow, match="seat 1 handed over a false share"):
        reconstruct_key(deal, shares, keys()[2].public_key)


def test_a_deal_survives_its_wire_form() -> None:
    deal = honest()
    assert EscrowDeal.from_wire(deal.to_wire()) == deal
    assert SealedShare.from_wire(deal.shares[0].to_wire()) == deal.shares[0]


@settings(max_examples=60, deadline=None)
@given(st.recursive(st.one_of(st.integers(-2, 2**70), st.binary(max_size=300), st.text(max_size=5), st.none()),
                    lambda inner: st.lists(inner, max_size=6), max_leaves=30))
def test_any_wire_value_is_a_deal_or_refused_as_malformed(value: object) -> None:
    for kind in (EscrowDeal, Complaint):
        try:
            kind.from_wire(value)  # type: ignore[attr-defined]
        except InvalidInput:
            pass
