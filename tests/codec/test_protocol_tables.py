"""protocol.md's tables of frames (§9), messages (§5) and engine events (§2)
are the declarations written out: every row names a declared kind and lists
its fields as the declaration describes them, and every declared kind has
its row. Change a declaration and this fails until protocol.md says the same."""

from __future__ import annotations

import re
from pathlib import Path

from p2p_ttr.codec import Family
from p2p_ttr.engine import events
from p2p_ttr.engine.boards import europe_game
from p2p_ttr.engine.limits import GameLimits, any_game_limits
from p2p_ttr.net import frames
from p2p_ttr.table.messages import MESSAGES

PROTOCOL = (Path(__file__).resolve().parents[2] / "protocol.md").read_text()


def bracketed(text: str, start: int) -> str:
    """The balanced ``[...]`` that opens at ``start``."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"[": 1, "]": -1}.get(text[i], 0)
        if depth == 0:
            return text[start:i + 1]
    raise AssertionError(f"unbalanced row: {text[start:start + 80]!r}")


def code_block(after: str) -> str:
    start = PROTOCOL.index("```\n", PROTOCOL.index(after)) + 4
    return PROTOCOL[start:PROTOCOL.index("```", start)]


def frame_rows() -> dict[str, dict[str, str]]:
    """§9's rows by direction: kind -> its field list."""
    rows: dict[str, dict[str, str]] = {}
    side = ""
    for line in code_block("**Frames.**").splitlines():
        if line in ("peer -> host", "host -> peer"):
            side = line
            rows[side] = {}
        elif (m := re.match(r"(\w+) +\[", line)) and side:
            rows[side][m.group(1)] = bracketed(line, line.index("["))
    return rows


def message_rows(section: str = "## 5. Messages") -> dict[str, str]:
    """§5's rows (or another section's written alike): kind -> its field list (the kind's own string left out)."""
    rows = {}
    for line in code_block(section).splitlines():
        if m := re.match(r'(\w+) *= \["(\w+)"', line):
            assert m.group(1) == m.group(2), line
            whole = bracketed(line, line.index("["))
            rows[m.group(1)] = "[" + whole[len(m.group(2)) + 3:].lstrip(", ")
    return rows


def declared(family: Family[object], limits: object = None) -> dict[str, str]:
    return {kind: family.describe(kind, limits) for kind in family}


def test_every_frame_row_is_its_declaration_and_every_frame_has_a_row() -> None:
    rows = frame_rows()
    assert rows["peer -> host"] == declared(frames.TO_HOST)  # type: ignore[arg-type]
    assert rows["host -> peer"] == declared(frames.TO_PEER)  # type: ignore[arg-type]


def test_every_message_row_is_its_declaration_and_every_message_has_a_row() -> None:
    assert message_rows() == declared(MESSAGES, any_game_limits())  # type: ignore[arg-type]


def test_every_event_row_is_its_declaration_with_europe_s_bounds_and_every_event_has_a_row() -> None:
    europe = GameLimits.of(europe_game())
    assert message_rows("## 2. Game events") == declared(events.EVENTS, europe)  # type: ignore[arg-type]
    ref = re.search(r"^ref += (\[.*\])$", code_block("## 2. Game events"), re.M)
    assert ref is not None and ref.group(1) == events.REF_FIELDS.describe("ref", europe)


def test_the_rows_are_read_as_written() -> None:
    """The parser itself: a row's nested lists and its comment."""
    assert frame_rows()["host -> peer"]["silent"] == "[list([seat(0..5), seconds(0..10^6)], 6)]"
    assert message_rows()["seating"] == '["ttr/7" | "ttr/6", [board, variant, digest(32)], list([name, identity(32)], 6), escrow(bool)?]'
    assert message_rows()["carry_on"] == "[seat(0..5)]"
