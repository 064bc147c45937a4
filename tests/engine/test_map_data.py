"""The project's map data agrees with the checked transcription in shared/."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from p2p_ttr.engine.board import LOCOMOTIVE, europe

SHARED = Path(__file__).resolve().parents[3] / "shared" / "europe_map.json"
PROJECT = Path(__file__).resolve().parents[2] / "p2p_ttr" / "data" / "europe.json"


def test_totals_match_the_physical_game() -> None:
    board = europe()
    assert len(board.cities) == 47
    assert len(board.routes) == 101
    assert sum(1 for r in board.routes if r.twin is not None) == 22  # 11 double pairs
    assert sum(1 for r in board.routes if r.tunnel) == 18
    assert sum(1 for r in board.routes if r.ferry_locomotives) == 13
    assert len(board.tickets) == 46
    assert len(board.regular_tickets) == 40 and len(board.long_tickets) == 6
    assert board.n_cards == 110
    kinds = Counter(board.card_kinds)
    assert kinds[LOCOMOTIVE] == 14
    assert all(kinds[c] == 12 for c in board.colors)


def test_twins_point_at_each_other() -> None:
    board = europe()
    for r in board.routes:
        if r.twin is not None:
            twin = board.routes[r.twin]
            assert twin.twin == r.id and set(twin.cities) == set(r.cities)


def test_every_city_has_a_position_and_a_route() -> None:
    board = europe()
    assert set(board.positions) == set(board.cities)
    assert all(board.routes_at[c] for c in board.cities)


@pytest.mark.skipif(not SHARED.exists(), reason="shared/europe_map.json is not beside this checkout")
def test_agrees_entry_for_entry_with_the_shared_transcription() -> None:
    shared = json.loads(SHARED.read_text())
    ours = json.loads(PROJECT.read_text())
    for key in ("cities", "routes", "tickets_regular", "tickets_long", "train_cards", "route_points", "positions"):
        assert ours[key] == shared[key], key


def test_city_lookup_forgives_case() -> None:
    assert europe().find_city("  paris ") == "Paris"
    assert europe().find_city("Atlantis") is None
