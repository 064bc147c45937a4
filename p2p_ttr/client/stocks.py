"""Pennsylvania's stock shares in the client: the ``take`` command after a
claim, the holdings everyone sees, the companies beside a route, and the rule
in words (engine/stockmarket.py, engine/sharemoves.py).

A share is public once taken (everyone at the table sees which one goes to
whom), so the panel shows every holder's count per company; only the two-
player dummy's shares that will count stay unknown until the end.
"""

from __future__ import annotations

import re

from p2p_ttr.engine.board import Route
from p2p_ttr.engine.events import TakeShares
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.sharemoves import has_dummy, plays_shares, share_choices, take_shares_problem
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.stockmarket import DUMMY, StockHoldings, StockMarket, dummy_counts_of

from .numbering import seat_number
from .outcomes import Context, Outcome, Play, Refused
from .styled import Line, wrap

NONE_WORDS = ("none", "no", "nothing")


def _joined(parts: list[str], last: str = "and") -> str:
    """'NYC, B&O or PRR'."""
    return ", ".join(parts[:-1]) + f" {last} " + parts[-1] if len(parts) > 1 else "".join(parts)


def _key(text: str) -> str:
    """'B&O' and 'bo' alike; 'BR&P' and 'brp'."""
    return re.sub(r"[^a-z0-9]", "", text.casefold())


def company_code(market: StockMarket, word: str) -> str | None:
    """The company ``word`` names: its code, ignoring case and '&' ('bo' is B&O)."""
    key = _key(word)
    return next((c.code for c in market.companies if _key(c.code) == key), None)


def _market_and_holdings(view: GameState) -> tuple[StockMarket, StockHoldings]:
    market, holdings = view.game.board.stock_market, view.shares
    if market is None or holdings is None:
        raise Refused(f"{view.game.title} has no stock shares")
    return market, holdings


def share_move(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    """``take CODE [CODE]`` (the second for the dummy) or ``take none``."""
    market, holdings = _market_and_holdings(view)
    if view.phase is not Phase.SHARES or holdings.pending is None:
        raise Refused("there is no share to take now: a share comes with a claim beside a company's logo")
    words = [w for w in words if w.casefold() not in ("dummy", "for", "and")]
    if not words:
        raise Refused(share_prompt(view, seat))
    if len(words) == 1 and words[0].casefold() in NONE_WORDS:
        return Play(TakeShares(seat, "", ""), "taking no share")
    if len(words) > 2:
        raise Refused("name one company, and one more for the dummy: take PRR, or take PRR NYC")
    codes = []
    for word in words:
        code = company_code(market, word)
        if code is None:
            raise Refused(f"there is no company {word[:16]!r}; beside this route: "
                          f"{_joined(list(holdings.open_companies(market, holdings.pending)))}")
        codes.append(code)
    action = TakeShares(seat, codes[0], codes[1] if len(codes) > 1 else "")
    problem = take_shares_problem(view, action)
    if problem is not None:
        raise Refused(problem)
    said = f"taking {action.company} share #{len(holdings.holders[market.index(action.company)]) + 1}"
    return Play(action, said + (f", and one of {action.dummy} for the dummy" if action.dummy else ""))


def share_args(args: list[str], ctx: Context) -> list[tuple[str, str]]:
    """What Tab offers after ``share``: the companies open now, then the dummy's, or none."""
    view, seat = ctx.view, ctx.seat
    if view is None or seat is None or view.phase is not Phase.SHARES:
        return []
    choices = share_choices(view, seat)
    market = view.game.board.stock_market
    assert market is not None
    if not args:
        firsts = dict.fromkeys(c.company for c in choices if c.company)
        return [(code, _pays(market, code)) for code in firsts] + [("none", "take no share")]
    first = company_code(market, args[0])
    if len(args) == 1 and first is not None:
        return [(c.dummy, "for the dummy") for c in choices if c.company == first and c.dummy]
    return []


def _pays(market: StockMarket, code: str) -> str:
    company = market.company(code)
    assert company is not None
    return f"{company.name}: {'/'.join(map(str, company.points_by_rank))}"


def share_prompt(view: GameState, seat: int) -> str:
    """What the claimer is to do: which shares it may take, in the command's words."""
    market, holdings = _market_and_holdings(view)
    if holdings.pending is None:
        return "no share to take"
    open_now = list(holdings.open_companies(market, holdings.pending))
    dummy = " and one for the dummy (take CODE CODE)" if has_dummy(view.game, view.n_players) else " (take CODE)"
    return f"take a share of {_joined(open_now, 'or')}{dummy}, or none (take none)"


def route_companies(game: Game, route: Route) -> str:
    """' · shares NYC B&O PRR' for a route with logos beside it; '' otherwise."""
    market = game.board.stock_market
    if market is None or not market.route_companies[route.id]:
        return ""
    return " · shares " + " ".join(market.route_companies[route.id])


def holder_name(holder: int, names: tuple[str, ...]) -> str:
    if holder == DUMMY:
        return "dummy"
    return names[holder] if 0 <= holder < len(names) else f"player {seat_number(holder)}"


def stock_lines(view: GameState, names: tuple[str, ...], width: int) -> list[Line]:
    """Every company with a share taken: who holds how many, most first, and what is left."""
    market, holdings = view.game.board.stock_market, view.shares
    if market is None or holdings is None or not any(holdings.holders):
        return []
    lines: list[Line] = [[("class:title", "SHARES"), ("class:dim", " held · left")]]
    for company, holders in zip(market.companies, holdings.holders):
        if not holders:
            continue
        counts = {h: holders.count(h) for h in dict.fromkeys(holders)}
        ranked = sorted(counts, key=lambda h: (-counts[h], holders.index(h)))
        said = ", ".join(f"{holder_name(h, names)} {counts[h]}" for h in ranked)
        lines += wrap([("", f" {company.code:<5}"), ("", said), ("class:dim", f" · {company.shares - len(holders)}")],
                      width, 7)
    return lines


def new_shares(before: GameState, after: GameState, holder: int) -> tuple[str, ...]:
    """'PRR #3' for each share ``holder`` (a seat, or the dummy) took between two views."""
    market = after.game.board.stock_market
    if market is None or before.shares is None or after.shares is None:
        return ()
    old = set(before.shares.held(holder))
    return tuple(f"{market.companies[c].code} #{n}" for c, n in after.shares.held(holder) if (c, n) not in old)


def took_words(shares: tuple[str, ...], dummy: tuple[str, ...]) -> str:
    """'took share PRR #3, and NYC #1 for the dummy'."""
    said = f"took share{'s' if len(shares) > 1 else ''} {_joined(list(shares))}"
    return said + (f", and {_joined(list(dummy))} for the dummy" if dummy else "")


def dummy_draw_words(state: GameState) -> str | None:
    """Which of the dummy's shares its order deck, opened at the end, made
    count (None: no dummy, or its deck not open yet)."""
    market, holdings = state.game.board.stock_market, state.shares
    if market is None or holdings is None or not holdings.dummy_order:
        return None
    faces = [state.public.get(r) for r in holdings.dummy_order]
    if any(face is None for face in faces):
        return None
    counted = dummy_counts_of(holdings, [face for face in faces if face is not None])
    drawn = [f"{market.companies[c].code} #{n}" for c, n in holdings.dummy_taken if (c, n) in counted]
    return (f"the dummy's shares that count, drawn by its order deck opened at the end: "
            f"{', '.join(drawn) or 'none'} ({len(drawn)} of {len(holdings.dummy_taken)})")


def share_rules(game: Game) -> list[str]:
    """The rule in a few sentences, for the rules page and help."""
    market = game.board.stock_market
    if market is None:
        return []
    return [
        "Claiming a route with railroad logos beside it lets you take the next share (the lowest number left) "
        "of one of those companies: take CODE, or take none.",
        "At the end the biggest holders of each company score its values, 1st, 2nd, ... ("
        + "; ".join(f"{c.code} {'/'.join(map(str, c.points_by_rank))}" for c in market.companies)
        + "); a tie goes to whoever holds the lower-numbered share; no share, no points.",
        "With two players, each share you take comes with one for a dummy holder, from the same route's "
        "companies (take CODE CODE); at the end half of the dummy's shares, rounded up, drawn by a deck "
        "shuffled at the start, count in the majorities. The dummy scores nothing.",
    ]
