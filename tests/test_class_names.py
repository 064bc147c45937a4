"""No two classes in the package share a name (issue 44): a reader who meets
``Leave`` or ``Record`` in a traceback, a test or a grep knows which one it is.

``WAITING`` names the pairs still to be renamed, each in files other
branches were changing when the rest were; it may only shrink: a name in it
that is no longer shared fails the test, so it cannot go stale."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "p2p_ttr"
WAITING: dict[str, set[str]] = {}


def class_homes(root: Path = ROOT) -> dict[str, set[str]]:
    """Each class name in ``root`` -> the modules (relative paths) that declare one."""
    homes: dict[str, set[str]] = defaultdict(set)
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef):
                homes[node.name].add(path.relative_to(root).as_posix())
    return homes


def test_no_two_classes_share_a_name() -> None:
    shared = {name: where for name, where in class_homes().items() if len(where) > 1}
    assert {n: w for n, w in shared.items() if WAITING.get(n) != w} == {}
    assert set(WAITING) <= set(shared), f"renamed since: drop from WAITING {set(WAITING) - set(shared)}"


def test_the_check_sees_a_shared_name(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("class Leave:\n    pass\n")
    (tmp_path / "b.py").write_text("def f() -> None:\n    class Leave:\n        pass\n")
    assert class_homes(tmp_path) == {"Leave": {"a.py", "b.py"}}
