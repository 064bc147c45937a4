"""Card references and the drawing order: positions move, ciphertexts never do."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2p_ttr.deck import EpochPosition, DeckUsageError, draw_from_top, initial_order, move_to_bottom


def test_draw_then_return_unkept_tickets_to_the_bottom() -> None:
    order = initial_order(8)
    drawn, rest = draw_from_top(order, 3)
    assert drawn == (0, 1, 2) and rest == (3, 4, 5, 6, 7)
    # keep ticket 1, return 2 then 0: they go under the pile in that order
    assert move_to_bottom(rest, [2, 0]) == (3, 4, 5, 6, 7, 2, 0)


def test_moving_positions_still_in_the_pile() -> None:
    assert move_to_bottom((5, 1, 4, 0), [1, 5]) == (4, 0, 1, 5)
    assert move_to_bottom((5, 1), []) == (5, 1)


def test_bad_moves_and_draws_are_refused() -> None:
    with pytest.raises(DeckUsageError, match="repeat"):
        move_to_bottom((0, 1, 2), [1, 1])
    with pytest.raises(DeckUsageError, match="not a deck position"):
        move_to_bottom((0, 1, 2), [-1])
    with pytest.raises(DeckUsageError, match="cannot draw 4"):
        draw_from_top((0, 1, 2), 4)


@given(st.permutations(list(range(12))), st.lists(st.integers(0, 11), unique=True))
def test_move_to_bottom_keeps_every_position_once(order: list[int], moving: list[int]) -> None:
    result = move_to_bottom(order, moving)
    assert sorted(result) == list(range(12))
    assert result[len(result) - len(moving) :] == tuple(moving)


def test_references_are_stable_values() -> None:
    ref = EpochPosition("tickets", 2, 17)
    assert str(ref) == "tickets/2/17"
    assert EpochPosition.from_wire(ref.to_wire()) == ref
    assert len({ref, EpochPosition("tickets", 2, 17), EpochPosition("tickets", 3, 17)}) == 2
