"""Card references and the drawing order of a deck epoch.

After the shuffle chain of an epoch, the deck is a fixed list of ciphertexts.
A card is referred to forever by ``EpochPosition(deck, epoch, position)`` into that
list: **ciphertexts never move**. What changes during play is the *drawing
order*, a separate tuple of positions (top of the pile first). Drawing takes
positions from the front; :func:`move_to_bottom` puts positions at the
bottom, in the order given. Everyone holds the same order because it changes
only through logged events.

Cards that a player has *seen* and returns (unkept destination tickets) must
not simply go back by reference: to let the next drawer open them, the
returner would publish its share, and with the shares published when it drew
them anyone could open them. They go back as a re-masked epoch instead (see
:mod:`.remask`), whose positions are then placed at the bottom.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import DeckUsageError
from .wire import expect_deck_name, expect_epoch, expect_index, expect_list


@dataclass(frozen=True, slots=True, order=True)
class EpochPosition:
    """A position in the final shuffled list of a deck epoch.

    Wire: ``[deck, epoch, position]``.
    """

    deck: str
    epoch: int
    position: int

    def __post_init__(self) -> None:
        expect_deck_name(self.deck)
        expect_epoch(self.epoch)
        expect_index(self.position, "position")

    def to_wire(self) -> list[object]:
        return [self.deck, self.epoch, self.position]

    @classmethod
    def from_wire(cls, data: object) -> EpochPosition:
        deck, epoch, position = expect_list(data, "card reference", 3)
        return cls(expect_deck_name(deck), expect_epoch(epoch), expect_index(position, "position"))

    def __str__(self) -> str:
        return f"{self.deck}/{self.epoch}/{self.position}"


def initial_order(size: int) -> tuple[int, ...]:
    """The drawing order of a freshly shuffled epoch: position 0 is the top."""
    return tuple(range(size))


def draw_from_top(order: Sequence[int], count: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(drawn positions, remaining order)`` after taking ``count`` from the top."""
    if not 0 <= count <= len(order):
        raise DeckUsageError(f"cannot draw {count} cards from a pile of {len(order)}")
    return tuple(order[:count]), tuple(order[count:])


def move_to_bottom(order: Sequence[int], positions: Sequence[int]) -> tuple[int, ...]:
    """The order with ``positions`` placed at the bottom, in the order given.

    Positions still in the pile are moved; positions drawn earlier (returned
    cards) are put back. The ciphertexts themselves do not move.
    """
    moving = tuple(positions)
    if len(set(moving)) != len(moving):
        raise DeckUsageError(f"positions {list(moving)} repeat a position")
    for position in moving:
        if type(position) is not int or position < 0:
            raise DeckUsageError(f"{position!r} is not a deck position")
    moving_set = set(moving)
    return tuple(p for p in order if p not in moving_set) + moving
