"""Pennsylvania's stock shares as people write them down for ``ttr score``.

Each player may list the shares they hold by company and number::

    "shares": {"PRR": [1, 3], "B&O": [2]}

and a two-player game lists, beside its players, the dummy's shares that
were revealed at the end (only those count)::

    "dummy": {"PRR": [2], "NYC": [1]}

A company is named by its code in any letter case; a share number is one of
the company's (1..its shares) and is held by one holder at most.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .stockmarket import DUMMY, StockMarket

Held = tuple[tuple[int, int, int], ...]  # (holder, company, share number); holder DUMMY for the dummy


class SheetSharesError(ValueError):
    """Shares written down wrong: the message says what, for people."""


def sheet_shares(market: StockMarket | None, players: Sequence[Mapping[str, object]],
                 dummy: object, n_players: int) -> Held:
    """Every share the sheet lists, checked.

    Raises:
        SheetSharesError: a board without shares, an unknown company, a share
            number the company does not have or held twice, a dummy outside a
            two-player game.
    """
    lists = [(seat, player.get("shares")) for seat, player in enumerate(players) if "shares" in player]
    if dummy is not None:
        if n_players != 2:
            raise SheetSharesError('"dummy" shares are for a two-player game only')
        lists.append((DUMMY, dummy))
    if not lists:
        return ()
    if market is None:
        raise SheetSharesError("this board has no stock shares")
    held: list[tuple[int, int, int]] = []
    owner: dict[tuple[int, int], int] = {}
    for holder, listed in lists:
        who = "the dummy" if holder == DUMMY else f"player {holder + 1}"
        if not isinstance(listed, dict):
            raise SheetSharesError(f'{who}: shares must be an object of company codes and share numbers, '
                                   'as {"PRR": [1, 3]}')
        for code, numbers in listed.items():
            c = next((i for i, company in enumerate(market.companies) if company.code.casefold() == code.casefold()),
                     None)
            if c is None:
                raise SheetSharesError(f"{who}: there is no company {code[:16]!r}; they are "
                                       + ", ".join(company.code for company in market.companies))
            top = market.companies[c].shares
            if not isinstance(numbers, list) or not all(type(n) is int and 1 <= n <= top for n in numbers):
                raise SheetSharesError(f"{who}: {market.companies[c].code} shares are numbered 1 to {top}")
            for n in numbers:
                if (c, n) in owner:
                    raise SheetSharesError(f"{market.companies[c].code} share {n} is listed twice")
                owner[(c, n)] = holder
                held.append((holder, c, n))
    return tuple(held)
