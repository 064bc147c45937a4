"""A chain step names what its chain starts from (rules ttr-europe/5,
protocol.md §5): the cards a shuffle shuffles, the cards a re-masking
re-masks. The fold refuses a step that names anything else, so the log alone
tells an auditor every epoch's input, a reshuffle's discards included."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.engine.limits import any_game_limits
from p2p_ttr.local.crypto_game import CryptoGame, play_crypto_game
from p2p_ttr.table.envelope import open_envelope, seal
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.table import Table


@functools.cache
def game() -> CryptoGame:
    """Two seats; the game reshuffles the train discards and re-masks returned tickets."""
    return play_crypto_game(21, [RandomBot(21 + p) for p in range(2)], ("Anna", "Boris"))


def folded_to(kind: str, deck: str, min_epoch: int) -> tuple[Table, int]:
    """A fresh auditor's replica folded up to (not including) the first
    ``kind`` entry of ``deck`` from epoch ``min_epoch`` on; and that entry's index."""
    log = game().log
    index = next(i for i, raw in enumerate(log) if open_envelope(raw).kind == kind
                 and open_envelope(raw).body[1][0] == deck and open_envelope(raw).body[1][1] >= min_epoch)
    table = Table()
    for raw in log[:index]:
        table.receive(raw)
    return table, index


def resent(table: Table, index: int, body: list[Any]) -> bytes:
    """Entry ``index`` with ``body``, signed by its own seat, at the same head and sequence number."""
    original = open_envelope(game().log[index])
    assert table.game_id is not None
    identity = game().peers[original.seat].identity
    return seal(identity, table.game_id, original.seat, original.seq, original.head, body).raw


def refused(table: Table, raw: bytes, code: str, words: str) -> None:
    length = len(table.log)
    with pytest.raises((TableError, EngineError)) as caught:
        table.receive(raw)
    assert caught.value.code == code and words in str(caught.value), caught.value
    assert len(table.log) == length


PAST_EVERY_DECK = any_game_limits().highest_card_id + 1


def test_every_step_names_its_chains_cards() -> None:
    for raw in game().log:
        body = open_envelope(raw).body
        if body[0] in ("shuffle", "remask"):
            assert len(body[2]) == len(body[1][3])


def test_a_reshuffle_naming_other_cards_than_the_discards_is_refused_and_the_true_one_accepted() -> None:
    table, index = folded_to("shuffle", "train", 1)
    body = open_envelope(game().log[index]).body
    cards = body[2]
    assert len(cards) < 110  # the discards, not the whole deck
    missing = next(c for c in range(110) if c not in cards)
    other = sorted([*cards[1:], missing])
    refused(table, resent(table, index, [body[0], body[1], other]), "not_expected", "names other cards")
    table.receive(game().log[index])  # nothing changed: the honest step follows


def test_a_remask_naming_its_tickets_in_another_order_or_other_tickets_is_refused() -> None:
    table, index = folded_to("remask", "tickets", 1)
    body = open_envelope(game().log[index]).body
    sources = body[2]
    assert all(ref[0] == "tickets" for ref in sources)
    elsewhere = next(pos for pos in range(40) if ["tickets", sources[0][1], pos] not in sources)
    other = [["tickets", sources[0][1], elsewhere], *sources[1:]]
    refused(table, resent(table, index, [body[0], body[1], other]), "not_expected", "names other cards")
    if len(sources) > 1:
        swapped = [sources[1], sources[0], *sources[2:]]
        refused(table, resent(table, index, [body[0], body[1], swapped]), "not_expected", "names other cards")
    table.receive(game().log[index])


@pytest.mark.parametrize("change, words", [
    (lambda b: b[:2], "must have 3 items"),  # a ttr-europe/4 step: no cards named
    (lambda b: [b[0], b[1], b[2][::-1]], "ascending"),
    (lambda b: [b[0], b[1], b[2][:-1]], "one card per ciphertext"),
    # A card id no game has (the UK's train deck is the largest, 116 cards).
    (lambda b: [b[0], b[1], [*b[2][:-1], PAST_EVERY_DECK]], f"card is {PAST_EVERY_DECK}"),
])
def test_a_step_whose_card_list_is_malformed_is_refused(change: Any, words: str) -> None:
    table, index = folded_to("shuffle", "train", 1)
    body = open_envelope(game().log[index]).body
    refused(table, resent(table, index, change(body)), "malformed", words)
