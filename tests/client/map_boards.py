"""The boards the map is drawn for in the tests: the project's boards from
its registry (``p2p_ttr.engine.boards``), and the boards it does not play yet
built from their transcriptions in ``../shared/maps``."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from p2p_ttr.engine.board import Board, board_from_dict
from p2p_ttr.engine.boards import BOARDS, load_game

MAPS = Path(__file__).resolve().parents[3] / "shared" / "maps"
OTHER_BOARDS = ("usa", "nordic", "switzerland", "india", "uk", "france")
BOARD_NAMES = ("europe",) + OTHER_BOARDS


@cache
def board_named(name: str) -> Board:
    """The board called ``name``: Europe's own, or one built from ``MAPS/name.json``
    (only what a map needs: cities, routes, positions; every ticket a plain one).
    Switzerland's country flags are places of their own (``France (Geneve)``):
    its routes end there."""
    if name in BOARDS:
        return load_game(name).board
    data: dict[str, Any] = json.loads((MAPS / f"{name}.json").read_text("utf-8"))
    ends = {city for route in data["routes"] for city in (route["a"], route["b"])}
    cities = list(data["cities"]) + sorted(ends - set(data["cities"]))
    return board_from_dict({
        "cities": cities,
        "routes": data["routes"],
        "positions": {city: data["positions"][city] for city in cities},
        "train_cards": data["train_cards"],
        "route_points": data["route_points"],
        "tickets_regular": [{"a": t["a"], "b": t["b"], "points": t["points"]} for t in data["tickets"]],
        "tickets_long": [],
    })
