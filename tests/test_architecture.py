"""docs/architecture.md stays true: the modules it names exist, every module of
net/ and table/ has its place on it, and its layer line is the one enforced."""

from __future__ import annotations

import re
from pathlib import Path

from test_layers import __doc__ as LAYERS_DOC

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "architecture.md").read_text("utf-8")
NAMED = set(re.findall(r"`(p2p_ttr/[\w/]+\.py|(?:cli|client|deck|engine|net|table|local|bots)/[\w/]+\.py)`", PAGE))


def _path(named: str) -> Path:
    return ROOT / (named if named.startswith("p2p_ttr/") else f"p2p_ttr/{named}")


def test_every_module_the_page_names_exists() -> None:
    assert NAMED
    assert sorted(n for n in NAMED if not _path(n).is_file()) == []


def test_every_module_of_net_and_table_has_its_place_on_the_page() -> None:
    for package in ("net", "table"):
        modules = {f"{package}/{p.name}" for p in (ROOT / "p2p_ttr" / package).glob("*.py") if p.name != "__init__.py"}
        assert sorted(modules - NAMED) == [], f"name them in docs/architecture.md's {package}/ table"


def test_the_layer_line_is_the_one_the_layer_test_enforces() -> None:
    assert LAYERS_DOC is not None
    line = next(row.strip() for row in LAYERS_DOC.splitlines() if row.strip().startswith("cli ->"))
    assert f"    {line}\n" in PAGE
