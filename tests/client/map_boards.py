"""The boards the map is drawn for in the tests: every board the project plays
(``p2p_ttr.engine.boards``), Europe first."""

from __future__ import annotations

from p2p_ttr.engine.board import Board
from p2p_ttr.engine.boards import BOARDS, load_game

BOARD_NAMES = tuple(BOARDS)


def board_named(name: str) -> Board:
    """The board called ``name``, as its standard game plays it."""
    return load_game(name).board
