"""The adversarial suite: shared helpers come from tests/net (the LAN process
harness) and from this folder (malicious.py, games.py).

Fault injection runs a few seeds by default (CI); more with
``pytest tests/adversarial --fault-seeds N`` or ``TTR_FAULT_SEEDS=N``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent / "net"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--fault-seeds", type=int, default=None,
                     help="fault-injection games to play (default: TTR_FAULT_SEEDS, or a quick CI subset)")
