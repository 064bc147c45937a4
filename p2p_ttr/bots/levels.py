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
from .depotplay import DepotPlay, DepotPolicy

_PLAIN, _EAGER = (".depotplay", "PlainDepots"), (".depotplay", "EagerDepots")
_WEIGHED = (".depotweigh", "WeighedDepots")


def _imported(module: str, cls: str, depots: tuple[str, str]) -> Callable[[int, str], Bot]:
    """Make a ``cls`` of ``module`` (in this package), importing it then,
    playing Europe 1912's depots by the policy ``depots`` names (module, class) where a game has them."""
    def make(seed: int, name: str) -> Bot:
        bot: Bot = getattr(importlib.import_module(module, __package__), cls)(seed, name=name)
        policy: DepotPolicy = getattr(importlib.import_module(depots[0], __package__), depots[1])()
        return DepotPlay(bot, policy)
    return make


_FACTORIES: dict[str, Callable[[int, str], Bot]] = {
    "random": _imported(".random_bot", "RandomBot", _EAGER),
    "easy": _imported(".easy", "EasyBot", _EAGER),
    "medium": _imported(".medium", "MediumBot", _PLAIN),
    "hard": _imported(".hard", "HardBot", _WEIGHED),
    "expert": _imported(".expert", "ExpertBot", _WEIGHED),
}

LEVELS: tuple[str, ...] = tuple(_FACTORIES)


def make_bot(level: str, seed: int, name: str | None = None) -> Bot:
    """A new bot of ``level`` whose every random choice comes from ``seed``."""
    factory = _FACTORIES.get(level)
    if factory is None:
        raise ValueError(f"unknown bot level {level!r}; the levels are {', '.join(LEVELS)}")
    return factory(seed, name if name is not None else level)
