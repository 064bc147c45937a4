"""The numbers a person reads, in one place: seats from 1 (the panel's
`1 red`, `map 2`, `seat 2` in `ttr verify`'s words) and turns from 1 (the
first turn is turn 1: the header, a pause, `ttr replay --turn`, `ttr
verify`). The log, its envelopes and every JSON keep the 0-based seat ids
and the engine's count of turns played; every sentence for a person takes
its numbers from here, so no two screens disagree."""

from __future__ import annotations

from p2p_ttr.engine.state import GameState


def seat_number(seat: int) -> int:
    """Seat id ``seat`` (0-based, as the log has it) as a person reads it."""
    return seat + 1


def turn_number(state: GameState) -> int:
    """The turn under way in ``state`` as a person reads it (1 for the first)."""
    return state.turn + 1


def point_words(state: GameState | None) -> str:
    """Where a game stands, for a person: 'at turn 29', 'before the first
    turn' (not the log's count of entries, which only the log reads)."""
    return turn_point_words(turn_number(state) if state is not None else None)


def turn_point_words(turn: int | None) -> str:
    """``point_words`` from the turn a person reads (None: before the first turn)."""
    return f"at turn {turn}" if turn is not None else "before the first turn"


def seat_words(seat: int, names: tuple[str, ...] = ()) -> str:
    """``seat 2 Bob``: a seat as a report names it (``seat 2`` with no name for it)."""
    name = names[seat] if 0 <= seat < len(names) else ""
    return f"seat {seat_number(seat)}" + (f" {name}" if name else "")
