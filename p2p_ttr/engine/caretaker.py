"""The caretaker: how a forfeited seat plays on.

When a player forfeits, every replica plays that seat itself from its now
public hand, so the choice of move is part of the rules (protocol.md §6.6):
each peer must pick exactly the same action. The policy is therefore small,
fully specified and free of randomness, rather than one of the bots:

1. choosing tickets: keep the fewest allowed, the earliest offered;
2. a tunnel asks for more: pay with the fewest locomotives, or give it up;
3. first action of a turn: claim the longest route it can pay for (ties: the
   lowest route id), paying with the fewest locomotives, then in the colour it
   holds most of (ties: board colour order), the first cards in hand order;
   otherwise draw blind, otherwise the lowest face-up slot it may take,
   otherwise draw tickets, otherwise build a station (the first city in board
   order where it may, paid as a route is), otherwise pass;
4. second card: draw blind, otherwise the lowest face-up slot it may take.

It builds a station only because passing is for a player with nothing else
to do (rules version 3). It plays from ``state`` as the seat itself sees
it; every card it holds is public by then (the table waits until they are).
"""

from __future__ import annotations

from collections import Counter

from .board import LOCOMOTIVE
from .events import (
    AbandonTunnel,
    Action,
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
)
from .moves import legal_actions
from .state import GameState


def caretaker_move(state: GameState, player: int) -> Action | None:
    """The caretaker's action for ``player`` now, or None if it is not theirs to act."""
    legal = legal_actions(state, player)
    if not legal:
        return None
    board = state.game.board
    kinds = Counter(board.card_kind(c) for r in state.players[player].hand if (c := state.face(r)) is not None)

    def kind_of(ref: object) -> str:
        card = state.face(ref)  # type: ignore[arg-type]
        return board.card_kind(card) if card is not None else ""

    def payment_key(cards: tuple[object, ...]) -> tuple[int, int, int]:
        locos = sum(1 for r in cards if kind_of(r) == LOCOMOTIVE)
        colour = next((k for r in cards if (k := kind_of(r)) != LOCOMOTIVE), None)
        order = board.colors.index(colour) if colour in board.colors else len(board.colors)
        return locos, -kinds.get(colour or "", 0), order

    keeps = [a for a in legal if isinstance(a, KeepTickets)]
    if keeps:
        offered = state.players[player].offered
        return min(keeps, key=lambda a: (len(a.keep), sorted(offered.index(r) for r in a.keep)))
    pays = [a for a in legal if isinstance(a, PayTunnel)]
    if pays:
        return min(pays, key=lambda a: payment_key(a.cards))
    if any(isinstance(a, AbandonTunnel) for a in legal):
        return AbandonTunnel(player)
    claims = [a for a in legal if isinstance(a, ClaimRoute)]
    if claims:
        return min(claims, key=lambda a: (-board.routes[a.route].length, a.route, *payment_key(a.cards)))
    for kind in (DrawBlind, DrawFaceUp, DrawTickets):
        found = [a for a in legal if isinstance(a, kind)]
        if found:
            return min(found, key=lambda a: getattr(a, "slot", 0))
    stations = [a for a in legal if isinstance(a, BuildStation)]
    if stations:
        return min(stations, key=lambda a: (board.cities.index(a.city), *payment_key(a.cards)))
    return Pass(player) if Pass(player) in legal else None
