"""The track beds' slice of the game state (France): plain data, apart from
``trackbeds.py``, which reads and changes it, so that ``state.py`` can name
its type without importing the rules that use the state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class TrackBeds:
    """The pieces on the board and the routes they cut (``GameState.track_beds``)."""

    laid: tuple[tuple[int, str], ...] = ()  # (bed, colour) of each piece on the board, by bed id
    cut: frozenset[int] = frozenset()  # routes a piece has covered: never built nor claimed
    # ``laid`` by bed, for the rules' many look-ups (derived: not part of the value).
    colors: Mapping[int, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "colors", dict(self.laid))
