"""Words a peer sent, made safe to show: the one sanitiser.

Whoever a joiner or a watcher dials (a host, a relay after a hand-over,
whatever a spoofed beacon points at) can put any text in the frames it
sends: a refusal's code and reason, the names in `welcome` and `lobby`, a
`rejected`'s code and reason. Sent raw to a terminal, an ESC or a C1
control sets its title, clears the screen, draws a fake prompt or hides
text; a bidirectional override (a format character) reorders what is read.
So every character that is no glyph (Unicode's control, format, surrogate,
private-use, unassigned, line and paragraph separator categories) is shown as
its escape (``\\x1b``, ``\\u202e``), visible and inert; everything else, any
printable Unicode, passes unchanged.

The net layer applies it where frames from a peer are decoded
(``net/peerdoor.py``), and the words of what a peer reports to its player
apply it again to every string a notice carries (``networds.py``: an
error's text may quote what a peer sent), so no print needs to think of it. Display only: the
running Python's Unicode is fine here (names in the seating are judged by
Unicode 3.2.0, in ``table/messages.py``, and are already printable).
"""

from __future__ import annotations

import dataclasses
import unicodedata
from typing import Any, TypeVar

NOT_SHOWN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

T = TypeVar("T")


def escaped(ch: str) -> str:
    """``ch`` as the text of its Python escape: ``\\x1b``, ``\\u202e``, ``\\U000e0001``."""
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def shown(text: str) -> str:
    """``text`` with every character that is no glyph shown as its escape."""
    if text.isprintable():  # the common case, at C speed (printable includes no NOT_SHOWN character)
        return text
    return "".join(escaped(ch) if unicodedata.category(ch) in NOT_SHOWN else ch for ch in text)


def _shown_value(value: Any) -> Any:
    if isinstance(value, str):
        return shown(value)
    if isinstance(value, tuple):
        return tuple(_shown_value(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return words_shown(value)  # a typed fact inside another (netnotices.py), shown the same
    return value


def words_shown(frame: T) -> T:
    """``frame`` (a frozen dataclass off the wire, or a notice for the
    player) with every string in it, in tuples and in dataclasses inside it
    too, passed through ``shown``; any other value kept."""
    if not dataclasses.is_dataclass(frame) or isinstance(frame, type):
        return frame
    changes = {}
    for field in dataclasses.fields(frame):
        value = getattr(frame, field.name)
        safe = _shown_value(value)
        if safe is not value and safe != value:
            changes[field.name] = safe
    return dataclasses.replace(frame, **changes) if changes else frame
