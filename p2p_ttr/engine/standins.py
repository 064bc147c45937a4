"""Stand-ins: cards of any kind that count as another card (Nordic Countries).

* On a ferry, any ``Rules.ferry_stand_in`` cards (Nordic: 3) stand in for one
  of the locomotives its icons ask for ("any 3 train cards can be used as 1
  Locomotive for Ferry use").
* On a route with ``Route.stand_in`` (Nordic's Lieksa-Murmansk: 4), that many
  cards of any kind stand in for one card of the colour paid ("a player may
  use any 4 train cards to represent any 1 color").
* Where any cards may be paid as a locomotive (the United Kingdom: "Any 4
  card can be substituted for a Locomotive", 3 with the Booster; the number
  is the player's, ``per_locomotive``, given by the caller), that many cards
  of any kind stand in for a locomotive on any route: for any card of its
  length, a ferry's locomotives included.

A payment is read here as a mix ``(colour, colored, locomotives, stand_ins)``
(``payments.Payment`` is this tuple with names): ``stand_ins`` lists by kind
the cards that stand in, in groups of the route's size. Each group adds
``size - 1`` cards to the route's length, so the number of groups follows
from how many cards are offered; which cards stand in is then forced up to
the choice of the colour, taken as the one most offered (which leaves the
fewest cards that can only stand in), and locomotives are kept as
locomotives where they may pay. So a set of cards that can pay for the
route in some reading is read in a way that does (the generator's payments
are checked against this reading by the tests).
"""

from __future__ import annotations

from collections import Counter
from typing import TypeAlias

from .board import GRAY, LOCOMOTIVE, Route
from .game import Game

Mix: TypeAlias = tuple[str | None, int, int, tuple[tuple[str, int], ...]]


def uses_stand_ins(game: Game, route: Route, per_locomotive: int = 0) -> bool:
    """Whether some cards may stand in for others on ``route`` in ``game``
    (``per_locomotive``: any that many cards are a locomotive; 0: not so)."""
    return per_locomotive > 0 or route.stand_in > 0 or (route.ferry_locomotives > 0 and game.rules.ferry_stand_in > 0)


def _group(game: Game, route: Route, per_locomotive: int) -> int:
    """How many cards of any kind make one stand-in on ``route``."""
    return per_locomotive or route.stand_in or game.rules.ferry_stand_in


def _stands_for(route: Route, per_locomotive: int) -> str:
    return "a card of its colour" if route.stand_in and not per_locomotive else "a locomotive"


def stand_in_mix(game: Game, route: Route, counts: Counter[str], per_locomotive: int = 0) -> Mix | str:
    """How cards of these kinds pay for ``route``, or why they cannot."""
    group = _group(game, route, per_locomotive)
    total = sum(counts.values())
    extra = total - route.length
    if extra < 0 or extra % (group - 1):
        return (f"{route.label} needs {route.length} cards, each {_stands_for(route, per_locomotive)} it asks for "
                f"being one card or {group} of any kind, not {total}")
    groups = extra // (group - 1)
    locos_pay = game.rules.locomotives_pay_for(route)
    if route.color != GRAY:
        color: str | None = route.color
    else:
        offered = [k for k in game.board.colors if counts.get(k)]
        color = max(offered, key=lambda k: counts[k]) if offered else None
    kept_locos = counts.get(LOCOMOTIVE, 0) if locos_pay else 0
    of_color = counts.get(color, 0) if color is not None else 0
    others = total - of_color - kept_locos  # cards that can only stand in
    spare = group * groups - others  # stand-ins still to find: among the colour's cards, then locomotives
    if spare < 0:
        return (f"{route.label}: {others} cards are neither {color or 'of one colour'} nor locomotives, "
                f"more than {groups} group{'s' if groups != 1 else ''} of {group} can hold")
    from_color = min(spare, of_color)
    from_locos = spare - from_color
    stand_ins = Counter({k: n for k, n in counts.items() if k != color and (k != LOCOMOTIVE or not locos_pay)})
    stand_ins[color or LOCOMOTIVE] += from_color
    stand_ins[LOCOMOTIVE] += from_locos
    colored = of_color - from_color
    return (color if colored else None, colored, kept_locos - from_locos, _listed(stand_ins))


def _listed(stand_ins: Counter[str]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((k, n) for k, n in stand_ins.items() if n > 0))


def stand_in_problem(game: Game, route: Route, mix: Mix, per_locomotive: int = 0) -> str | None:
    """Why ``mix`` cannot pay for ``route`` (None if it can)."""
    color, colored, locomotives, stand_ins = mix
    group = _group(game, route, per_locomotive)
    stands_for = _stands_for(route, per_locomotive)
    cards = sum(n for _, n in stand_ins)
    if cards % group:
        return f"on {route.label}, {group} cards of any kind stand in for {stands_for}, not {cards}"
    groups = cards // group
    if colored + locomotives + groups != route.length:
        return (f"{route.label} needs {route.length} cards, each {stands_for} it asks for being one "
                f"card or {group} of any kind")
    if colored and route.color != GRAY and color != route.color:
        return f"{route.label} must be paid in {route.color}, not {color}"
    if per_locomotive:  # a group is a locomotive: it pays for any space, a ferry's icons too
        if locomotives + groups < route.ferry_locomotives:
            return (f"the ferry {route.label} needs {route.ferry_locomotives} locomotive"
                    f"{'s' if route.ferry_locomotives > 1 else ''} (or {group} cards of any kind for each)")
    elif not route.stand_in:  # a ferry: groups stand in for its locomotives only
        if groups > route.ferry_locomotives:
            return (f"on the ferry {route.label}, cards of any kind stand in only for its "
                    f"{route.ferry_locomotives} locomotive{'s' if route.ferry_locomotives > 1 else ''}")
        if locomotives + groups < route.ferry_locomotives:
            return (f"the ferry {route.label} needs {route.ferry_locomotives} locomotive"
                    f"{'s' if route.ferry_locomotives > 1 else ''} (or {group} cards of any kind for each)")
    return None


def stand_in_mixes(game: Game, route: Route, counts: Counter[str], per_locomotive: int = 0) -> list[Mix]:
    """Payments for ``route`` that use stand-ins and that a hand with ``counts``
    can make: for each colour and number of groups, the one with the fewest
    locomotives, its stand-ins taken from the kinds the hand has most of."""
    group = _group(game, route, per_locomotive)
    icons = 0 if route.stand_in and not per_locomotive else route.ferry_locomotives
    most_groups = route.length if route.stand_in or per_locomotive else icons
    # Each group adds group - 1 cards to the route's length: the hand holds no more groups than that allows.
    most_groups = min(most_groups, (sum(counts.values()) - route.length) // (group - 1))
    locos_have = counts.get(LOCOMOTIVE, 0) if game.rules.locomotives_pay_for(route) else 0
    colors = game.board.colors if route.color == GRAY else (route.color,)
    out: list[Mix] = []
    for color in colors:
        for groups in range(1, most_groups + 1):
            mix = _fewest_locomotives(counts, route, color, groups, group, icons, locos_have)
            if mix is not None and mix not in out:
                out.append(mix)
    return out


def _fewest_locomotives(counts: Counter[str], route: Route, color: str, groups: int, group: int, icons: int,
                        locos_have: int) -> Mix | None:
    units = route.length - groups
    for locos in range(max(0, icons - groups), min(locos_have, units) + 1):
        colored = units - locos
        if colored > counts.get(color, 0):
            continue
        left = counts.copy()
        left[color] -= colored
        left[LOCOMOTIVE] -= locos
        picked = _pick(left, group * groups, color)
        if picked is not None:
            return (color if colored else None, colored, locos, picked)
    return None


def _pick(left: Counter[str], wanted: int, color: str) -> tuple[tuple[str, int], ...] | None:
    """``wanted`` cards from ``left``: other colours first (most held first), then ``color``, locomotives last."""
    order = sorted((k for k in left if k not in (color, LOCOMOTIVE) and left[k] > 0), key=lambda k: (-left[k], k))
    picked: Counter[str] = Counter()
    for kind in order + [color, LOCOMOTIVE]:
        take = min(max(0, left.get(kind, 0)), wanted - sum(picked.values()))
        if take:
            picked[kind] += take
    return _listed(picked) if sum(picked.values()) == wanted else None
