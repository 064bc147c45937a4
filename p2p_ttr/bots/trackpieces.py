"""Which track piece a bot lays after drawing (France's track beds, engine/trackbeds.py).

A good piece builds a bed of the bot's own plan in a colour it holds (it can
then claim that bed with the cards in hand), never cuts a route of its plan,
and, where the bot reads the others' wants, cuts a route they need. Every
level lays through :func:`choose_lay`; what differs is the plan and whether
it weighs the others' wants (``threat``: per route, how likely an opponent
wants it, from ``opponents.read_opponents``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from p2p_ttr.engine.events import LayTrack
from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.trackbeds import bed_map, open_beds

# A piece on a bed of the plan counts for this many cards held of its colour.
PLAN_BED = 10.0
# A whole route an opponent surely wants, cut, counts for this many cards held.
CUT_THREAT = 4.0


def choose_lay(view: GameState, player: int, plan: Collection[int], hand: Mapping[str, int],
               threat: Sequence[float] = ()) -> LayTrack | None:
    """The piece to lay: on a bed of ``plan`` if one is open, in the colour
    ``hand`` holds most of; never across a route of the plan when another
    lay avoids it; with ``threat``, cutting what the others want counts too.
    Ties: the lowest bed id, then the board's colour order. None: nothing to lay."""
    beds = open_beds(view)
    found = bed_map(view.game)
    if not beds or found is None:
        return None
    planned = set(plan)
    safe = [(route, colors) for route, colors in beds if not found.crosses.get(route.id, frozenset()) & planned]
    best: tuple[float, int] | None = None
    chosen: LayTrack | None = None
    for route, colors in safe or beds:
        # The colour held most, the first in board order among equals.
        color = max(colors, key=lambda c: (hand.get(c, 0), -colors.index(c)))
        worth = hand.get(color, 0) + (PLAN_BED if route.id in planned else 0.0)
        if threat:
            crossed = found.crosses.get(route.id, frozenset())
            worth += CUT_THREAT * sum(threat[r] for r in crossed if view.route_owner[r] is None)
        if best is None or (worth, -route.id) > best:
            best, chosen = (worth, -route.id), LayTrack(player, route.id, color)
    return chosen
