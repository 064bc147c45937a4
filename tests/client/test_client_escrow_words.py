"""The client's words for escrow: requests to carry a seat on, a seat
carried on, what the table waits for."""

from __future__ import annotations

from client_states import FakeTable, a_turn_of

from p2p_ttr.client.phrases import carry_on_asks, forfeits, waiting_words
from p2p_ttr.client.snapshot import Publisher
from p2p_ttr.table.obligations import Obligation, Owed

NAMES = ("Ann", "Bob", "Cy", "Dee")


def test_each_new_request_is_told_with_how_many_are_needed() -> None:
    lines = carry_on_asks({}, {2: frozenset({1})}, (0, 1, 2, 3), None, NAMES)
    assert lines == ["Bob asks to carry on Cy's seat (1 of 3)"]
    lines = carry_on_asks({2: frozenset({1})}, {2: frozenset({0, 1})}, (0, 1, 2, 3), 0, NAMES)
    assert lines == ["You ask to carry on Cy's seat (2 of 3)"]
    assert carry_on_asks({}, {0: frozenset({1})}, (0, 1, 2), 0, NAMES) == ["Bob asks to carry on your seat (1 of 2)"]


def test_requests_that_lapse_say_the_seat_is_back() -> None:
    assert carry_on_asks({2: frozenset({1})}, {}, (0, 1, 2), None, NAMES) == [
        "Cy is back: the requests to carry their seat on lapse"]
    assert carry_on_asks({2: frozenset({1})}, {}, (0, 1, 2), 2, NAMES) == [
        "You are back: the requests to carry your seat on lapse"]


def test_a_carried_on_seat_is_told_apart_from_a_forfeit() -> None:
    assert forfeits((), (2,), None, NAMES, carried=(2,)) == [
        "Cy's seat is carried on: the others opened its key from escrow; the table plays it from now on "
        "(their cards are shown)"]
    assert forfeits((), (1,), None, NAMES) == [
        "Bob forfeited: the table plays their seat from now on (their cards are shown)"]
    # A forfeit that leaves one seat in play ends the game: nobody plays the seat on.
    assert forfeits((), (1,), 1, NAMES[:2], ended=True) == ["You forfeited (your cards are shown)"]
    # A name stays as its player wrote it at the head of a line; only 'your' is capitalised.
    lower = ("ann", "bob", "mcKay")
    assert forfeits((), (2,), None, lower, carried=(2,))[0].startswith("mcKay's seat is carried on")
    assert forfeits((), (2,), 2, lower, carried=(2,))[0].startswith("Your seat is carried on")


def test_the_status_line_names_escrow_duties() -> None:
    owed = [Obligation(1, Owed.ESCROW), Obligation(2, Owed.ESCROW)]
    assert waiting_words(owed, None, 0, NAMES) == "waiting for Bob and Cy to escrow their secrets with the others"
    share = [Obligation(1, Owed.ESCROW_SHARE, target=2)]
    assert "Bob to hand over their share of the escrow of a seat carried on" in waiting_words(share, None, 0, NAMES)
    assert share[0].describe(NAMES) == "Bob owes escrow share (of seat 2, carried on)"


def test_the_publisher_logs_requests_then_the_seat_carried_on_and_marks_it_left() -> None:
    names = ("Ann", "Bob", "Cid")
    before, after = a_turn_of(2)
    publisher = Publisher("join")
    table = FakeTable(before, in_play=(0, 1, 2))
    publisher.update(table, 0, names)  # type: ignore[arg-type]
    table.carry_on_requests = {2: frozenset({1})}
    snap = publisher.update(table, 0, names)  # type: ignore[arg-type]
    assert snap is not None and snap.log[-1] == ("class:log.forfeit", "Bob asks to carry on Cid's seat (1 of 2)")
    table.carry_on_requests, table.carried_on, table.in_play = {}, {2: 40}, (0, 1)
    table.forfeited[2] = object()
    table.engine = after
    snap = publisher.update(table, 0, names)  # type: ignore[arg-type]
    assert snap is not None and snap.forfeited == (2,)
    assert ("class:log.forfeit", "Cid's seat is carried on: the others opened its key from escrow; the table plays "
            "it from now on (their cards are shown)") in snap.log
    assert not any("is back" in text for _, text in snap.log)
