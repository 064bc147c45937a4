"""The adversarial suite: shared helpers come from tests/net (the LAN process
harness) and from this folder (malicious.py, games.py).

Fault injection runs a few seeds by default (CI); more with
``pytest tests/adversarial --fault-seeds N`` or ``TTR_FAULT_SEEDS=N``.

In this process every proof is made and checked once per distinct set of
arguments (``games.proofs_made_and_checked_once``): the suite folds the same
games into many replicas. Child processes (the LAN tests) are untouched."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent / "net"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from games import proofs_made_and_checked_once  # noqa: E402  (needs the path above)


@pytest.fixture(scope="session", autouse=True)
def _proofs_made_and_checked_once() -> Iterator[None]:
    with proofs_made_and_checked_once():
        yield


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--fault-seeds", type=int, default=None,
                     help="fault-injection games to play (default: TTR_FAULT_SEEDS, or a quick CI subset)")
