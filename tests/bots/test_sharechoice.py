"""The bots' stock shares on Pennsylvania (bots/sharechoice.py): a share is
worth what it changes in the majorities; hard weighs the best rival too."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))

from engine_scenario import play, position  # noqa: E402

from p2p_ttr.bots.sharechoice import choose_shares, share_gain  # noqa: E402
from p2p_ttr.engine.boards import load_game  # noqa: E402
from p2p_ttr.engine.events import ClaimRoute, TakeShares  # noqa: E402
from p2p_ttr.engine.sharemoves import opening_holdings  # noqa: E402
from p2p_ttr.engine.state import GameState  # noqa: E402

PENN = load_game("pennsylvania")
MARKET = PENN.board.stock_market
ALBANY_NEW_YORK = next(r for r in PENN.board.routes_between("Albany", "New York") if r.color == "blue")  # NYC B&O PRR
ALBANY_SYRACUSE = next(r for r in PENN.board.routes_between("Albany", "Syracuse") if r.color == "red")  # NYC


def with_rival_nyc() -> GameState:
    """Three players, seat 0 to play; seat 1 holds NYC share 1."""
    assert MARKET is not None
    state, _ = position(n_players=3, game=PENN)
    holdings = opening_holdings(PENN)
    assert holdings is not None
    return state.evolve(shares=holdings.take(MARKET, "NYC", 1))


def test_medium_takes_its_best_points_and_hard_its_best_margin() -> None:
    # Seat 1 holds PRR shares 1 and 2 (first: 30), seat 0 shares 3 and 4 (second: 21). Beside
    # Buffalo-Ontario: PRR, ERIE, NYC. ERIE alone adds most to seat 0 (16); PRR share 5 makes
    # seat 0 first and seat 1 second: a margin of +9 against ERIE's 21 + 16 - 30 = +7.
    ferry = next(r for r in PENN.board.routes_between("Buffalo", "Ontario (Buffalo)"))
    state, _ = position(n_players=3, game=PENN, hands={0: ["locomotive"]})
    holdings = opening_holdings(PENN)
    assert holdings is not None and MARKET is not None
    for seat in (1, 1, 0, 0):
        holdings = holdings.take(MARKET, "PRR", seat)
    state = play(state.evolve(shares=holdings), ClaimRoute(0, ferry.id, state.players[0].hand))
    assert choose_shares(state, 0, against_rivals=False) == TakeShares(0, "ERIE", "")
    assert choose_shares(state, 0, against_rivals=True) == TakeShares(0, "PRR", "")


def test_a_route_s_share_gain_is_the_margin_it_adds() -> None:
    state = with_rival_nyc()
    assert share_gain(state, 0, ALBANY_SYRACUSE.id) == 6  # NYC alone beside it: second (6) behind seat 1's share 1
    assert share_gain(state, 0, ALBANY_NEW_YORK.id) == 30  # PRR alone: 30 more, the rival unchanged
    plain = next(r for r in PENN.board.routes if MARKET is not None and not MARKET.route_companies[r.id])
    assert share_gain(state, 0, plain.id) == 0
    assert share_gain(position(game=load_game("usa"))[0], 0, 0) == 0
