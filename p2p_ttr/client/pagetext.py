"""Text for a page (help, the rules, the final score) that wraps cleanly at
any width.

A page is written as blocks, not as lines broken for one width: a paragraph
(``Para``) is wrapped to the width it is shown at, its later rows indented
under its text; a term and what it means (``Term``, a command and its help)
sit side by side in two columns where they fit, the meaning under the term
where they do not. A plain string is a line as written (a table row), wrapped
only if it is wider than the page.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

MEANING_MIN = 44  # narrower than this beside its term, a meaning goes under it
STACKED_INDENT = 4  # a meaning under its term
KEEP = "\u00a0"  # a space a row is never broken at (within one example); shown as a space


@dataclass(frozen=True)
class Para:
    """A paragraph: ``indent`` spaces before its first row, ``hang`` more before the others."""

    text: str
    indent: int = 0
    hang: int = 2


@dataclass(frozen=True)
class Term:
    """A term and what it means: the first line of ``meaning`` beside the
    term, the others (examples) under it, in the same column."""

    term: str
    meaning: tuple[str, ...]


Block: TypeAlias = str | Para | Term


def lay_out(blocks: Sequence[Block], width: int) -> list[str]:
    """The blocks as rows of at most ``width`` columns (a word longer than a row is cut)."""
    width = max(8, width)
    rows: list[str] = []
    i = 0
    while i < len(blocks):
        block = blocks[i]
        if isinstance(block, Term):
            run: list[Term] = []
            while i < len(blocks) and isinstance(term := blocks[i], Term):
                run.append(term)
                i += 1
            rows += _terms(run, width)
            continue
        if isinstance(block, Para):
            rows += _para(block.text, width, block.indent, block.indent + block.hang)
        else:
            lead = len(block) - len(block.lstrip(" "))
            rows += _para(block.lstrip(" "), width, lead, lead + 2) if len(block) > width else [block]
        i += 1
    return rows


def _para(text: str, width: int, first: int, later: int) -> list[str]:
    later = min(later, width // 2)
    rows = textwrap.wrap(text, width, initial_indent=" " * min(first, width // 2), subsequent_indent=" " * later,
                         break_on_hyphens=False) or [""]
    return [row.replace(KEEP, " ") for row in rows]


def _terms(run: list[Term], width: int) -> list[str]:
    """A run of terms with their meanings in one column where it leaves the
    meanings room; else each meaning under its term."""
    column = max(len(t.term) for t in run) + 2
    rows: list[str] = []
    if width - column >= MEANING_MIN:
        for t in run:
            first, *more = t.meaning or ("",)
            wrapped = _para(first, width - column, 0, 0)
            rows.append(t.term.ljust(column) + wrapped[0])
            rows += [" " * column + row for row in wrapped[1:]]
            for line in more:
                rows += [" " * column + row for row in _para(line, width - column, 0, 2)]
        return rows
    for t in run:
        rows += _para(t.term, width, 0, 2)
        for line in t.meaning:
            rows += _para(line, width, STACKED_INDENT, STACKED_INDENT + 2)
    return rows
