"""The bot levels by name: one registry for the CLI, the tournament and games.

``LEVELS`` lists them weakest first, so commands can offer
``--bot-level {random,easy,medium,hard,expert}`` with ``choices=LEVELS``.
A level's module is imported when a bot of that level is first made: a
seat's process pays for its own bot alone (the expert's planner and
rollouts are the heaviest, and most seats are not experts).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from .base import Bot
from .depotplay import DepotPlay


def _imported(module: str, cls: str) -> Callable[[int, str], Bot]:
    """Make a ``cls`` of ``module`` (in this package), importing it then,
    playing Europe 1912's depots where a game has them (depotplay.py)."""
    def make(seed: int, name: str) -> Bot:
        bot: Bot = getattr(importlib.import_module(module, __package__), cls)(seed, name=name)
        return DepotPlay(bot)
    return make


_FACTORIES: dict[str, Callable[[int, str], Bot]] = {
    "random": _imported(".random_bot", "RandomBot"),
    "easy": _imported(".easy", "EasyBot"),
    "medium": _imported(".medium", "MediumBot"),
    "hard": _imported(".hard", "HardBot"),
    "expert": _imported(".expert", "ExpertBot"),
}

LEVELS: tuple[str, ...] = tuple(_FACTORIES)


def make_bot(level: str, seed: int, name: str | None = None) -> Bot:
    """A new bot of ``level`` whose every random choice comes from ``seed``."""
    factory = _FACTORIES.get(level)
    if factory is None:
        raise ValueError(f"unknown bot level {level!r}; the levels are {', '.join(LEVELS)}")
    return factory(seed, name if name is not None else level)
