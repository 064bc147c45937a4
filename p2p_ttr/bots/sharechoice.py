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

from p2p_ttr.engine.events import TakeShares
from p2p_ttr.engine.sharemoves import share_choices, take_shares
from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.stockmarket import share_points


def choose_shares(view: GameState, player: int, against_rivals: bool) -> TakeShares:
    """The share choice (the first of the best, in the engine's order) for ``player`` in ``view``."""
    market = view.game.board.stock_market
    choices = share_choices(view, player)
    assert market is not None and choices, "no share to choose"

    def value(choice: TakeShares) -> int:
        after = take_shares(view, choice).shares
        assert after is not None
        points = share_points(market, after, view.n_players)
        rivals = max((p for q, p in enumerate(points) if q != player), default=0)
        return points[player] - (rivals if against_rivals else 0)

    return max(choices, key=value)
