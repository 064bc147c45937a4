"""Bot tests run the expert's search for real, on a tiny budget: one world per
candidate, rollouts of two turns (a full budget plays thousands of turns a move)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from p2p_ttr.bots import expert


@pytest.fixture(autouse=True)
def tiny_search(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(expert, "BUDGET", 1)
    monkeypatch.setattr(expert, "TICKET_BUDGET", 1)
    monkeypatch.setattr(expert, "MIN_WORLDS", 1)
    monkeypatch.setattr(expert, "HORIZON", 2)
    yield
