"""The board mechanics the turn's skeleton (rules.py) asks, in the order the rules fix.

Each mechanic declares its hooks once, as the ``MECHANIC`` of its own module
(mechanic.py says what each hook is for). :func:`played` is the list a game
plays, read from the game value (its rules and board data); the skeleton
walks only that list, in :data:`MECHANICS`' order:

- after a claim: the track bed's piece goes back first, then the depots
  remember the route (their warehouses are offered as the turn ends, so they
  must hear of it whatever follows), then Old West scores it and may open the
  marker choice (and returns: no later mechanic is asked), then the
  technologies score it and may keep the turn open for a second claim, then
  Pennsylvania offers a share; the turn ends when nobody keeps it;
- before any action, every mechanic may refuse it (the depots' and the
  technologies' refusals never meet: a stocked warehouse bars a claim, and a
  second claim follows one);
- a new table's slices, after a draw, before a turn ends, as it ends: in the same order.

The set-up places its pieces in another order, :data:`SET_UP_ORDER`: Old
West's starting cities (every network grows from one), then Alvin &
Dexter, then the depots, each from the last seat down.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from . import depots, markerrules, monstermoves, sharemoves, stations, technologies, trackbeds, tunnels
from .events import Event
from .game import Game
from .mechanic import Handles, Mechanic

MECHANICS: tuple[Mechanic, ...] = (
    trackbeds.MECHANIC,
    depots.MECHANIC,
    markerrules.MECHANIC,
    technologies.MECHANIC,
    sharemoves.MECHANIC,
    monstermoves.MECHANIC,
    stations.MECHANIC,
    tunnels.MECHANIC,
)

SET_UP_ORDER: tuple[Mechanic, ...] = (markerrules.MECHANIC, monstermoves.MECHANIC, depots.MECHANIC)


@cache  # a game is one value per process (boards.load_game): its list is worked out once
def played(game: Game) -> tuple[Mechanic, ...]:
    """The mechanics ``game`` plays, in the order every walk takes."""
    return tuple(m for m in MECHANICS if m.plays(game))


@cache
def setting_up(game: Game) -> tuple[Mechanic, ...]:
    """The mechanics whose pieces ``game``'s set-up places, in the order it places them."""
    return tuple(m for m in SET_UP_ORDER if m.plays(game))


def handlers(core: tuple[Handles[Any], ...]) -> Mapping[type[Event], Handles[Any]]:
    """Every action's handler by the event's type: the ``core``'s (rules.py) and every
    mechanic's, each type once. A mechanic's are asked in every game: its
    handler refuses its move where the mechanic is not played."""
    table: dict[type[Event], Handles[Any]] = {}
    for handler in core + tuple(h for mechanic in MECHANICS for h in mechanic.handlers):
        assert handler.kind not in table, f"{handler.kind.__name__} has two handlers"
        table[handler.kind] = handler
    return table
