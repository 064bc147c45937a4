"""Pennsylvania's share moves: after a claim, its claimer takes a stock share.

"When claiming a route, a player may take the next available share from 1 of
the companies shown next to the route." A claim of a route beside which some
company still has a share leaves the turn open in ``Phase.SHARES`` until the
claimer says which (``TakeShares``; "" for none: the rule says *may*). With
two players, "when players take a share for themselves, they also select 1 for
the dummy player from among the companies listed on the route claimed": the
same event names the dummy's, required whenever a company beside the route
still has a share after the player's (it may be the same company).

Everyone sees which share is taken, so the holdings are public state
(stockmarket.StockHoldings). The dummy's order deck is shuffled at set-up and
opened at the end, where it decides which of the dummy's shares count.
"""

from __future__ import annotations

from dataclasses import replace

from .cards import CardRef
from .events import TakeShares
from .game import Game
from .mechanic import AfterClaim, ClaimTaken, Handles, Mechanic, Then, TurnFlow
from .scoring import ExtraParts, PlayerScore, ScorePart
from .sharesheet import Held
from .state import GameState, Phase
from .stockmarket import DUMMY, StockHoldings, dummy_counts_of, majority_points, share_points
from .turnkit import expect, refuse


def plays_shares(game: Game) -> bool:
    return game.board.stock_market is not None


def has_dummy(game: Game, n_players: int) -> bool:
    """Whether the table has the dummy holder: shares, and two players."""
    return plays_shares(game) and n_players == 2


def opening_holdings(game: Game) -> StockHoldings | None:
    """The holdings at the start: every share still to take (None: no shares on this board)."""
    market = game.board.stock_market
    return StockHoldings.empty(market) if market is not None else None


def after_claim(state: GameState, claim: ClaimTaken) -> AfterClaim:
    """The state waiting for the claimer's share choice, where a company beside
    the route still has a share; as it was where the turn simply ends."""
    market, holdings, route = state.game.board.stock_market, state.shares, claim.route.id
    if market is None or holdings is None or not holdings.open_companies(market, route):
        return AfterClaim(state)
    return AfterClaim(state.evolve(phase=Phase.SHARES, shares=replace(holdings, pending=route)), Then.WAIT)


def take_shares_problem(state: GameState, action: TakeShares) -> str | None:
    """Why ``action`` does not follow the share rule now (None: it does)."""
    market, holdings = state.game.board.stock_market, state.shares
    if market is None or holdings is None or holdings.pending is None:
        return "there is no share to choose now"
    route = holdings.pending
    listed = holdings.open_companies(market, route)
    if action.company and action.company not in listed:
        return f"{action.company} is not a company beside this route with a share left"
    dummy = has_dummy(state.game, state.n_players)
    if not dummy or not action.company:
        return "only the dummy of a two-player game takes a share for nobody" if action.dummy else None
    left = holdings.take(market, action.company, action.player).open_companies(market, route)
    if action.dummy and action.dummy not in left:
        return f"{action.dummy} is not a company beside this route with a share left for the dummy"
    if left and not action.dummy:
        return "the dummy must take a share too: one of " + ", ".join(left)
    return None


def take_shares(state: GameState, action: TakeShares) -> GameState:
    """The holdings after ``action`` (checked by ``take_shares_problem``), back in the turn's phase."""
    market, holdings = state.game.board.stock_market, state.shares
    assert market is not None and holdings is not None
    if action.company:
        holdings = holdings.take(market, action.company, action.player)
    if action.dummy:
        holdings = holdings.take(market, action.dummy, DUMMY)
    return state.evolve(shares=replace(holdings, pending=None), phase=Phase.TURN)


def choose_shares(state: GameState, action: TakeShares, flow: TurnFlow) -> GameState:
    """The claimer's share choice made: the turn ends."""
    expect(state, action.player, Phase.SHARES)
    refuse(take_shares_problem(state, action))
    return flow.end_turn(take_shares(state, action))


def share_choices(state: GameState, player: int) -> list[TakeShares]:
    """Every share choice open to ``player`` now: the companies beside the
    route in the board's order, taking before taking none, and for each the
    dummy's in the board's order (the caretaker plays the first)."""
    market, holdings = state.game.board.stock_market, state.shares
    if market is None or holdings is None or holdings.pending is None:
        return []
    route = holdings.pending
    choices = []
    for code in holdings.open_companies(market, route):
        left = holdings.take(market, code, player).open_companies(market, route)
        dummies = left if has_dummy(state.game, state.n_players) and left else ("",)
        choices += [TakeShares(player, code, dummy) for dummy in dummies]
    return choices + [TakeShares(player, "", "")]


def with_dummy_order(state: GameState, refs: tuple[CardRef, ...]) -> GameState:
    """The dummy's order deck, shuffled (its cards stay closed until the end)."""
    assert state.shares is not None
    return state.evolve(shares=replace(state.shares, dummy_order=refs))


def dummy_order_closed(state: GameState) -> tuple[CardRef, ...]:
    """The dummy's order cards still to open at the end."""
    if state.shares is None:
        return ()
    return tuple(r for r in state.shares.dummy_order if r not in state.public)


def final_share_points(state: GameState) -> tuple[int, ...]:
    """Each player's points from the majorities: with the dummy, only its
    shares drawn by its order deck count (all of them while the deck is closed:
    the board as it stands)."""
    market, holdings = state.game.board.stock_market, state.shares
    if market is None or holdings is None:
        return (0,) * state.n_players
    counts = None
    faces = [state.public.get(r) for r in holdings.dummy_order]
    if holdings.dummy_order and all(f is not None for f in faces):
        counts = dummy_counts_of(holdings, [f for f in faces if f is not None])
    return share_points(market, holdings, state.n_players, counts)


def share_parts(state: GameState, scores: tuple[PlayerScore, ...]) -> tuple[tuple[ScorePart, ...], ...]:
    """The end scorer of the shares (endparts.END_SCORERS): each player's
    majority points, counting the shares the player holds; () on a board
    without shares."""
    holdings = state.shares
    if holdings is None:
        return ()
    return _parts(final_share_points(state), [len(holdings.held(p)) for p in range(len(scores))])


def sheet_share_parts(game: Game, held: Held) -> ExtraParts | None:
    """The share parts of a game written down (``ttr score``, sharesheet.py); None on a board without shares."""
    market = game.board.stock_market
    if market is None:
        return None
    return lambda scores: _parts(majority_points(market, held, len(scores)),
                                 [sum(1 for holder, _, _ in held if holder == p) for p in range(len(scores))])


def _parts(points: tuple[int, ...], counts: list[int]) -> tuple[tuple[ScorePart, ...], ...]:
    return tuple((ScorePart("shares", "Stock shares", points[p], count=counts[p]),) for p in range(len(points)))


MECHANIC = Mechanic(
    "shares",
    plays=plays_shares,
    handlers=(Handles(TakeShares, choose_shares),),
    after_claim=after_claim,
    at_start=lambda state: state.evolve(shares=opening_holdings(state.game)),
)
