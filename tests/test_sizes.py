"""Classes small enough to read at a glance: no class in the peer (net/) or
the replicated table (table/) is over 450 lines, the fold's facade ``Table``
included (what grows goes into a part of its own)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "p2p_ttr"
LIMIT = 450


def classes(package: str) -> list[tuple[str, str, int]]:
    found = []
    for path in sorted((ROOT / package).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                assert node.end_lineno is not None
                found.append((path.name, node.name, node.end_lineno - node.lineno + 1))
    return found


@pytest.mark.parametrize("package", ["net", "table"])
def test_no_class_is_too_long_to_read(package: str) -> None:
    long = [(f, name, size) for f, name, size in classes(package) if size > LIMIT]
    assert not long, f"split these along their seams: {long}"
