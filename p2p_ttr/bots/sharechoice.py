"""Which stock share a bot takes after a claim on Pennsylvania (engine/sharemoves.py).

A share is worth what it changes in the majorities as they stand: every
choice the rules allow is tried and the holdings it leaves are scored
(``stockmarket.share_points``, the dummy's shares all counted, as the bot
cannot know which will be drawn). The medium bot weighs its own points
only; ``against_rivals`` weighs its points minus the best rival's, so that
a share that keeps a rival off a rank is worth taking, and the dummy's share
goes where it hurts the rivals most.
"""

from __future__ import annotations

from dataclasses import replace

from p2p_ttr.engine.events import TakeShares
from p2p_ttr.engine.sharemoves import share_choices, take_shares
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.stockmarket import share_points


def choose_shares(view: GameState, player: int, against_rivals: bool) -> TakeShares:
    """The share choice (the first of the best, in the engine's order) for ``player`` in ``view``."""
    choices = share_choices(view, player)
    assert choices, "no share to choose"
    return max(choices, key=lambda choice: _margin(take_shares(view, choice), player, against_rivals))


def share_gain(view: GameState, player: int, route: int) -> int:
    """What claiming ``route`` would add to ``player``'s margin over the best
    rival through the best share it brings (0 on a board without shares)."""
    holdings = view.shares
    if holdings is None:
        return 0
    pending = view.evolve(phase=Phase.SHARES, current=player, shares=replace(holdings, pending=route))
    choices = share_choices(pending, player)
    if not choices:
        return 0
    best = max(_margin(take_shares(pending, choice), player, True) for choice in choices)
    return best - _margin(view, player, True)


def _margin(state: GameState, player: int, against_rivals: bool) -> int:
    """``player``'s majority points as the holdings stand, less the best rival's if ``against_rivals``."""
    market, holdings = state.game.board.stock_market, state.shares
    assert market is not None and holdings is not None
    points = share_points(market, holdings, state.n_players)
    rivals = max((p for q, p in enumerate(points) if q != player), default=0)
    return points[player] - (rivals if against_rivals else 0)
