"""India's Grand Tour: a ticket whose two cities are joined by two paths of
the owner's own cars that share no car (the paths may cross at cities).

Two such paths exist exactly when the cities stay joined after any one route
is removed, that is when the unit-capacity flow between them is at least 2
(Menger); two augmenting searches over the player's routes find it. The
bonus counts a player's completed tickets that make a Grand Tour and scores
by that count (``Rules.grand_tour_points``: India's 5/10/20/30/40 for 1, 2,
3, 4, 5 or more).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .board import Board


def two_separate_paths(board: Board, routes: Iterable[int], a: str, b: str) -> bool:
    """Whether ``routes`` join ``a`` and ``b`` by two paths that share no route."""
    if a == b:
        return False
    # Each route is an undirected edge of capacity 1: an arc each way, where
    # sending flow one way frees the other (the residual of an undirected edge).
    used: dict[int, str] = {}  # route -> the city the flow through it leaves
    mine = tuple(routes)
    at: dict[str, list[int]] = {}
    for r in mine:
        for city in board.routes[r].cities:
            at.setdefault(city, []).append(r)
    for _ in range(2):
        came: dict[str, tuple[str, int] | None] = {a: None}
        queue = [a]
        for city in queue:
            for r in at.get(city, ()):
                nxt = board.routes[r].other_end(city)
                # A route carries flow from ``city`` unless it already does;
                # flow the other way is cancelled by going back along it.
                if nxt in came or used.get(r) == city:
                    continue
                came[nxt] = (city, r)
                queue.append(nxt)
        if b not in came:
            return False
        city = b
        while (step := came[city]) is not None:
            before, r = step
            if used.get(r) == city:  # going back along flow: cancel it
                del used[r]
            else:
                used[r] = before
            city = before
    return True


def grand_tour_bonus(points: Sequence[int], tours: int) -> int:
    """The bonus for ``tours`` Grand Tours: ``points[tours]``, the last entry for any more."""
    if not points or tours <= 0:
        return 0
    return points[min(tours, len(points) - 1)]
