"""Styled text as plain data: a line is a list of (style, text) fragments.

The shape is prompt_toolkit's formatted text, so the screen hands lines to
it unchanged, but nothing here imports it: tests read the text, and the
styles are class names (``class:route.red``) that the app maps to colours.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeAlias

Fragment: TypeAlias = tuple[str, str]
Line: TypeAlias = list[Fragment]
# Every character the client draws is one column wide (ASCII and a few
# symbols from the BMP's geometric and box-drawing blocks), so len() is the width.


def text_of(line: Sequence[Fragment]) -> str:
    return "".join(t for _, t in line)


def plain(lines: Iterable[Sequence[Fragment]]) -> str:
    """The lines as text, one per row: what the screen shows without colour."""
    return "\n".join(text_of(line) for line in lines)


def fit(line: Sequence[Fragment], width: int, style: str = "") -> Line:
    """``line`` cut or padded with spaces to exactly ``width`` columns."""
    out: Line = []
    used = 0
    for s, t in line:
        if used >= width:
            break
        room = width - used
        t = t[:room]
        out.append((s, t))
        used += len(t)
    if used < width:
        out.append((style, " " * (width - used)))
    return out


def join(*parts: tuple[Sequence[Fragment], int], sep: Fragment = ("", "")) -> Line:
    """Columns side by side: each (line, width) fitted to its width."""
    out: Line = []
    for i, (line, width) in enumerate(parts):
        if i and sep[1]:
            out.append(sep)
        out += fit(line, width)
    return out


def merge(cells: Iterable[Fragment]) -> Line:
    """Neighbouring fragments of one style as one fragment."""
    out: Line = []
    for style, text in cells:
        if out and out[-1][0] == style:
            out[-1] = (style, out[-1][1] + text)
        else:
            out.append((style, text))
    return out


def wrap(line: Sequence[Fragment], width: int, indent: int = 2) -> list[Line]:
    """``line`` broken into rows of at most ``width`` columns, at spaces where
    it can be (a word longer than a row is cut), rows after the first
    indented by ``indent``: nothing the screen shows is lost at its edge."""
    cells = [(style, ch) for style, text in line for ch in text]
    width = max(1, width)
    indent = min(indent, width // 2)
    rows: list[Line] = []
    start, lead = 0, 0
    while len(cells) - start > width:
        cut = start + width
        space = next((i for i in range(cut, start + lead, -1) if cells[i][1] == " "), None)
        end = space if space is not None else cut
        rows.append(merge(cells[start:end]))
        start = end + 1 if space is not None else end
        while start < len(cells) and cells[start][1] == " ":
            start += 1  # no row starts with the space it was broken at
        if start >= len(cells):
            return rows
        cells[start:start] = [("", " ")] * indent
        lead = indent
    rows.append(merge(cells[start:]))
    return rows
