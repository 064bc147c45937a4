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
   a tunnel only if the cards left in hand pay the worst its turned cards
   can ask (``safe_tunnels``); otherwise draw blind, otherwise the lowest
   face-up slot it may take, otherwise draw tickets, otherwise build a
   station (the first city in board order where it may, paid as a route
   is), otherwise go for a tunnel it may have to give up, otherwise pass;
4. second card: draw blind, otherwise the lowest face-up slot it may take;
5. Pennsylvania's shares after a claim: the first company beside the route
   with a share left (the board's order), and for a dummy the first with a
   share left after it (``sharemoves.share_choices``' first).
6. a track piece to lay after the draw (France): of the colour it holds most
   of (ties: board colour order), on the lowest-id bed it fits.
7. Old West: the first city in board order as its starting city; no city
   marker after a claim (its cards stay for routes); Alvin the Alien, when
   it captures him, to its starting city.
8. Alvin & Dexter: a monster it places at set-up goes on the first city in
   board order it may go on; it never moves one (as it never buys a
   technology: the move is not the turn's action, and its locomotives stay
   for routes).
9. Warehouses and depots (any board with ``--with depots``): its set-up
   depot on the first city in board order it may; no other depot; before a
   draw, the top card on its own warehouse; no warehouse emptied (its depots
   stay for the bonus).

It builds a station only because passing is for a player with nothing else
to do (rules version 3). It never buys a technology (the United Kingdom):
a purchase is not the turn's action, so one of the above still follows,
and the seat plays on with the routes it may already claim. A turn its
player left waiting for the Thermocompressor's second claim is finished
with that claim as above, or with ``finish_turn`` where none can be paid;
it never draws three blind (Water Tenders): it draws as above. It plays from ``state`` as the seat itself sees
it; every card it holds is public by then (the table waits until they are).

Why it cannot loop (``safe_tunnels``, protocol ``ttr/7``): before, it went
for the longest route it could pay the length of, tunnel or not, and gave
the tunnel up when the turned cards asked more than it held; that turn
changed nothing of its own (the hand stays, the turned cards are discarded),
so it went for the same tunnel the next turn, and the next (issue 43: a
carried-on seat stuck on Angora-Constantinople). Now every turn it plays
moves its seat toward the end:
- a claim spends trains and a station spends a station, both finite;
- a tunnel it goes for is one whose worst case it pays (``tunnel_cards``
  more of the colour played, or locomotives, from what stays in hand), so it
  never gives up a tunnel of its own choosing; the last-resort tunnel comes
  only when no train card can be drawn, so no card can be turned either
  and the tunnel asks nothing more (the one tunnel it may give up is one the
  player left undecided when the table took the seat over);
- drawing train cards grows its hand, which only claims and stations shrink;
- drawing tickets keeps at least one for good (the ticket pile shrinks);
- a pass is legal only when nothing else is.
So between two claims or stations it plays at most as many turns as there
are train cards and tickets: its turns are bounded.
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
    EmptyWarehouses,
    FinishTurn,
    KeepTickets,
    LayTrack,
    Pass,
    PayTunnel,
    MoveAlvin,
    PlaceMonster,
    PlaceStartCity,
    SkipMarker,
    StockWarehouse,
    TakeShares,
)
from .moves import legal_actions
from .state import GameState, Phase


def caretaker_move(state: GameState, player: int, safe_tunnels: bool = True) -> Action | None:
    """The caretaker's action for ``player`` now, or None if it is not theirs to act.

    ``safe_tunnels=False`` is the policy of protocol ``ttr/6`` and before,
    which goes for any tunnel it can pay the length of: games seated under
    those rules are played and verified with it, so their logs still replay
    exactly."""
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

    def claim_key(a: ClaimRoute) -> tuple[int, ...]:
        return -board.routes[a.route].length, a.route, *payment_key(a.cards)

    def pays_worst_case(a: ClaimRoute) -> bool:
        """Whether the hand left after paying ``a`` pays every extra its tunnel's turned cards may ask."""
        if not board.routes[a.route].tunnel:
            return True
        left = kinds - Counter(kind_of(r) for r in a.cards)
        played = next((k for r in a.cards if (k := kind_of(r)) != LOCOMOTIVE), None)
        spare = left[LOCOMOTIVE] + (left[played] if played is not None else 0)
        return spare >= state.game.rules.tunnel_cards

    if isinstance(legal[0], TakeShares):
        return legal[0]
    lays = [a for a in legal if isinstance(a, LayTrack)]
    if lays:
        return min(lays, key=lambda a: (-kinds.get(a.color, 0), board.colors.index(a.color), a.route))
    monsters = [a for a in legal if isinstance(a, PlaceMonster)]
    if monsters:  # Alvin & Dexter: the first city in board order it may go on
        return monsters[0]
    starts = [a for a in legal if isinstance(a, PlaceStartCity)]
    if starts:  # Old West: the first city in board order it may start from
        return starts[0]
    if SkipMarker(player) in legal:  # Old West: its cards stay for routes
        return SkipMarker(player)
    if EmptyWarehouses(player, ()) in legal:  # warehouses and depots: the depots stay for the bonus
        return EmptyWarehouses(player, ())
    if state.phase is Phase.DEPOT_SETUP:  # the set-up depot: the first city in board order it may
        return legal[0]
    alvin = [a for a in legal if isinstance(a, MoveAlvin)]
    if alvin:  # Old West's Alvin: to the first city it marked (its starting city)
        return alvin[0]
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
    sure = [a for a in claims if pays_worst_case(a)] if safe_tunnels else claims
    if sure:
        return min(sure, key=claim_key)
    if StockWarehouse(player, player) in legal:  # a draw comes: its card first on the seat's own warehouse
        return StockWarehouse(player, player)
    for kind in (DrawBlind, DrawFaceUp, DrawTickets):
        found = [a for a in legal if isinstance(a, kind)]
        if found:
            return min(found, key=lambda a: getattr(a, "slot", 0))
    stations = [a for a in legal if isinstance(a, BuildStation)]
    if stations:
        return min(stations, key=lambda a: (board.cities.index(a.city), *payment_key(a.cards)))
    if claims:  # only tunnels it may have to give up are left, and no card can be turned (see above)
        return min(claims, key=claim_key)
    if FinishTurn(player) in legal:  # the Thermocompressor's second claim, where none can be paid
        return FinishTurn(player)
    return Pass(player) if Pass(player) in legal else None
