"""The audit re-executes a transcript and names the seat behind every deviation."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from p2p_ttr.deck import (
    AuditReport,
    CardOpening,
    EpochPosition,
    G,
    KeyAnnouncement,
    SecretReveal,
    Seed,
    ShuffleStep,
    Transcript,
    audit,
    card_element,
    create_deck,
    make_share,
    shuffle_step,
)
from p2p_ttr.deck.remask import RemaskCreation, RemaskStep, remask_step
from p2p_ttr.deck.elgamal import decrypt_with_exponent
from p2p_ttr.deck.fixedbase import g_pow
from p2p_ttr.deck.group import canonical, mul, P

SEATS = 3


Edit = Callable[[list[tuple[int, int]]], list[tuple[int, int]]]


def build_transcript(
    game: Any,
    cheat: tuple[int, Edit] | None = None,
    remask_cheat: tuple[int, Edit] | None = None,
) -> list[Any]:
    """A small game: two shuffled epochs, a private draw, a public reveal, a
    play, and two cards returned under the deck (a re-masked epoch).

    ``cheat = (seat, edit)`` replaces that seat's first-epoch output by
    ``edit(output)``; the later seats shuffle what was published, as they
    would. ``remask_cheat`` does the same to a re-masking step.
    """
    first = create_deck("train", 0, range(6))
    second = create_deck("train", 1, [1, 4])
    records: list[Any] = [*game.announcements, *game.commitments, first]
    current = first.ciphertexts()
    for seat in range(game.seats):
        step = shuffle_step(game.joint, game.seeds[seat], seat, "train", 0, current)
        if cheat is not None and cheat[0] == seat:
            step = dataclasses.replace(step, ciphertexts=tuple(cheat[1](list(step.ciphertexts))))
        records.append(step)
        current = step.ciphertexts

    def shares(position: int, seats: list[int]) -> list[Any]:
        ref = EpochPosition("train", 0, position)
        return [make_share(game.secrets[s], ref, current[position]) for s in seats]

    def card(position: int) -> int:
        (plaintext,) = decrypt_with_exponent([current[position]], game.secret_sum)
        return first.codec().card(plaintext) if plaintext in first.codec() else 0

    # seat 0 draws position 0 privately; position 1 is revealed to all; seat 0 plays its card
    records += [*shares(0, [1, 2]), *shares(1, [0, 1, 2]), CardOpening(EpochPosition("train", 0, 1), card(1), 2)]
    records += [*shares(0, [0]), CardOpening(EpochPosition("train", 0, 0), card(0), 0)]
    records += [second, *game.chain(second)]
    # positions 3 then 2 of epoch 0 go back under the deck, re-masked as epoch 2
    returned = (EpochPosition("train", 0, 3), EpochPosition("train", 0, 2))
    records.append(RemaskCreation("train", 2, returned))
    masked: tuple[tuple[int, int], ...] = tuple(current[r.position] for r in returned)
    for seat in range(game.seats):
        remask = remask_step(game.joint, game.seeds[seat], seat, "train", 2, masked)
        if remask_cheat is not None and remask_cheat[0] == seat:
            remask = dataclasses.replace(remask, ciphertexts=tuple(remask_cheat[1](list(remask.ciphertexts))))
        records.append(remask)
        masked = remask.ciphertexts
    ref = EpochPosition("train", 2, 0)
    records += [make_share(game.secrets[s], ref, masked[0]) for s in (0, 2)]  # seat 1 draws it
    records += [SecretReveal.of(s, seed) for s, seed in zip(game.secrets, game.seeds)]
    return records


@pytest.fixture(scope="module")
def honest(game_of) -> dict[str, Any]:
    game = game_of(SEATS, b"audit-game")
    return {"game": game, "records": build_transcript(game)}


def _index(records: list[Any], predicate: Any) -> int:
    return next(i for i, r in enumerate(records) if predicate(r))


def _run(game: Any, records: list[Any]) -> AuditReport:
    return audit(Transcript(game.game_id, tuple(records)))


def test_an_honest_game_passes(honest: dict[str, Any]) -> None:
    report = _run(honest["game"], honest["records"])
    assert report.ok, report.lines()
    assert len(report.keys) == SEATS and all(k.ok for k in report.keys)
    assert len(report.shuffles) == 3 * SEATS and all(s.reproduced for s in report.shuffles)
    assert [s.kind for s in report.shuffles].count("remask") == SEATS
    assert [(d.deck, d.epoch, d.ok) for d in report.decks] == [
        ("train", 0, True), ("train", 1, True), ("train", 2, True)
    ]
    assert "in order" in report.decks[2].detail
    assert len(report.shares) == 8 and all(s.ok for s in report.shares)
    assert len(report.openings) == 2 and all(o.ok for o in report.openings)
    assert report.lines()[-1] == "audit passed: no deviation"
    assert all(line.startswith("ok") for line in report.lines()[:-1])


def _cheating_step(
    honest: dict[str, Any], seat: int, edit: Edit
) -> tuple[list[Any], int, AuditReport]:
    """A transcript where ``seat`` published ``edit(its honest output)``; audit."""
    game = honest["game"]
    records = build_transcript(game, (seat, edit))
    index = _index(records, lambda r: isinstance(r, ShuffleStep) and r.seat == seat)
    return records, index, _run(game, records)


def _reencrypt(game: Any, ciphertext: tuple[int, int], r: int) -> tuple[int, int]:
    a, b = ciphertext
    return mul(a, g_pow(r)), mul(b, canonical(pow(game.joint.element, r, P)))


def test_a_duplicated_card_is_blamed_on_its_shuffler(honest: dict[str, Any]) -> None:
    game = honest["game"]

    def duplicate(cts: list[tuple[int, int]]) -> list[tuple[int, int]]:
        cts[3] = _reencrypt(game, cts[2], 12345)
        return cts

    _, index, report = _cheating_step(honest, 1, duplicate)
    assert not report.ok and report.blamed_seats == (1,)
    (bad_step,) = [s for s in report.shuffles if not s.reproduced]
    assert (bad_step.record, bad_step.seat) == (index, 1)
    assert "duplicated cards" in bad_step.detail and "dropped cards" in bad_step.detail
    deck = report.decks[0]
    assert not deck.ok and deck.blamed == (1,)
    assert len(deck.duplicated) == 1 and len(deck.missing) == 1
    assert any(d.seat == 1 and d.record == index and d.kind == "shuffle mismatch"
               for d in report.deviations)
    assert any("CHEAT" in line and "seat 1" in line for line in report.lines())


def test_a_card_swapped_in_is_blamed_on_its_shuffler(honest: dict[str, Any]) -> None:
    game = honest["game"]

    def swap_in(cts: list[tuple[int, int]]) -> list[tuple[int, int]]:
        foreign = (G, mul(card_element("train", 77), game.joint.element))  # card 77, r = 1
        cts[0] = _reencrypt(game, foreign, 999)
        return cts

    _, index, report = _cheating_step(honest, 2, swap_in)
    assert report.blamed_seats == (2,)
    deck = report.decks[0]
    assert deck.foreign == 1 and len(deck.missing) == 1 and deck.blamed == (2,)
    assert "1 foreign value(s)" in next(s.detail for s in report.shuffles if s.record == index)


def test_a_dropped_card_is_blamed_on_its_shuffler(honest: dict[str, Any]) -> None:
    _, index, report = _cheating_step(honest, 0, lambda cts: cts[:-1])
    assert report.blamed_seats == (0,)
    assert report.decks[0].missing and report.decks[0].blamed == (0,)
    assert any(d.seat == 0 and d.record == index and d.kind == "wrong size"
               for d in report.deviations)


def test_a_revealed_seed_that_does_not_match_is_caught(honest: dict[str, Any]) -> None:
    game, records = honest["game"], list(honest["records"])
    index = _index(records, lambda r: isinstance(r, SecretReveal) and r.seat == 2)
    records[index] = SecretReveal(2, Seed(bytes(32)), game.secrets[2].x)
    report = _run(game, records)
    assert report.blamed_seats == (2,)
    assert any(d.kind == "seed mismatch" and d.record == index for d in report.deviations)
    # its shuffles can no longer be reproduced, and say why
    assert all(not s.reproduced for s in report.shuffles if s.seat == 2)
    assert not next(r for r in report.reveals if r.seat == 2).seed_ok


def test_a_share_that_is_not_a_to_the_x_is_caught(honest: dict[str, Any]) -> None:
    game, records = honest["game"], list(honest["records"])
    index = _index(records, lambda r: type(r).__name__ == "DecryptionShare" and r.seat == 1)
    records[index] = dataclasses.replace(records[index], share=mul(records[index].share, G))
    report = _run(game, records)
    assert report.blamed_seats == (1,)
    assert [(s.record, s.ok) for s in report.shares if not s.ok] == [(index, False)]


def test_a_false_opening_claim_is_blamed_on_the_claimant(honest: dict[str, Any]) -> None:
    game, records = honest["game"], list(honest["records"])
    index = _index(records, lambda r: isinstance(r, CardOpening) and r.claimant == 0)
    true_card = records[index].card
    records[index] = dataclasses.replace(records[index], card=(true_card + 1) % 6)
    report = _run(game, records)
    assert report.blamed_seats == (0,)
    (opening,) = [o for o in report.openings if not o.ok]
    assert opening.actual == true_card and opening.record == index


def test_a_missing_reveal_is_blamed_and_decks_cannot_be_checked(honest: dict[str, Any]) -> None:
    game = honest["game"]
    records = [r for r in honest["records"] if not (isinstance(r, SecretReveal) and r.seat == 1)]
    report = _run(game, records)
    assert 1 in report.blamed_seats
    assert all(not d.ok and "cannot decrypt" in d.detail for d in report.decks)
    # shares of seats that did reveal are still checked against their keys
    assert all(s.ok for s in report.shares)


def test_a_bad_key_proof_and_an_out_of_turn_shuffle_are_reported(honest: dict[str, Any]) -> None:
    game, records = honest["game"], list(honest["records"])
    key = records[1]
    records[1] = KeyAnnouncement(key.seat, key.public_key, key.commitment, key.response + 1)
    i, j = (_index(records, lambda r, s=s: isinstance(r, ShuffleStep) and r.seat == s)
            for s in (0, 1))
    records[i], records[j] = records[j], records[i]
    report = _run(game, records)
    kinds = {(d.seat, d.kind) for d in report.deviations}
    assert (1, "bad key proof") in kinds and (1, "out of turn") in kinds


def test_the_report_never_raises_on_a_transcript_without_keys() -> None:
    report = audit(Transcript(b"empty", ()))
    assert not report.ok and report.deviations[0].kind == "seats"


def test_a_remask_that_reorders_or_swaps_cards_is_blamed(honest: dict[str, Any]) -> None:
    game = honest["game"]
    swapped = build_transcript(game, remask_cheat=(1, lambda cts: cts[::-1]))
    report = _run(game, swapped)
    assert report.blamed_seats == (1,)
    index = _index(swapped, lambda r: isinstance(r, RemaskStep) and r.seat == 1)
    (bad,) = [s for s in report.shuffles if not s.reproduced]
    assert (bad.record, bad.kind) == (index, "remask")
    assert "changed the order" in bad.detail
    assert not report.decks[2].ok and "not its cards in their order" in report.decks[2].detail

    def swap_in(cts: list[tuple[int, int]]) -> list[tuple[int, int]]:
        cts[1] = _reencrypt(game, (G, mul(card_element("train", 5), game.joint.element)), 7)
        return cts

    report = _run(game, build_transcript(game, remask_cheat=(2, swap_in)))
    assert report.blamed_seats == (2,)
    assert report.decks[2].blamed == (2,)


def test_a_remask_of_cards_that_do_not_exist_is_reported(honest: dict[str, Any]) -> None:
    game, records = honest["game"], list(honest["records"])
    index = _index(records, lambda r: isinstance(r, RemaskCreation))
    records[index] = RemaskCreation("train", 2, (EpochPosition("train", 0, 99),))
    report = _run(game, records)
    assert [(d.kind, d.record, d.seat) for d in report.deviations] == [("bad remask", index, None)]
