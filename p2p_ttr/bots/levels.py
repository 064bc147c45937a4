"""The bot levels by name: one registry for the CLI, the tournament and games.

``LEVELS`` lists them weakest first, so commands can offer
``--bot-level {random,easy,medium,hard,expert}`` with ``choices=LEVELS``.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot
from .easy import EasyBot
from .expert import ExpertBot
from .hard import HardBot
from .medium import MediumBot
from .random_bot import RandomBot

_FACTORIES: dict[str, Callable[[int, str], Bot]] = {
    "random": lambda seed, name: RandomBot(seed, name=name),
    "easy": lambda seed, name: EasyBot(seed, name=name),
    "medium": lambda seed, name: MediumBot(seed, name=name),
    "hard": lambda seed, name: HardBot(seed, name=name),
    "expert": lambda seed, name: ExpertBot(seed, name=name),
}

LEVELS: tuple[str, ...] = tuple(_FACTORIES)


def make_bot(level: str, seed: int, name: str | None = None) -> Bot:
    """A new bot of ``level`` whose every random choice comes from ``seed``."""
    factory = _FACTORIES.get(level)
    if factory is None:
        raise ValueError(f"unknown bot level {level!r}; the levels are {', '.join(LEVELS)}")
    return factory(seed, name if name is not None else level)
