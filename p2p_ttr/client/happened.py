"""What the players did between two views of one game, as typed facts.

Read off the difference of the two states the client already has: a route
that gained an owner was claimed, a hand that gained a face-up card took it.
The log tells each fact in a sentence (``phrases``); the summary of each
player's last turn tells them in a few words (``lastturn``). A player's own
view knows their cards, so their own blind draws are facts once read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeAlias

from p2p_ttr.engine.board import LOCOMOTIVE
from p2p_ttr.engine.cards import CardRef
from p2p_ttr.engine.payments import tunnel_extra
from p2p_ttr.engine.state import GameState, Phase, PlayerState
from p2p_ttr.engine.trackbeds import laid_color

from p2p_ttr.engine.stockmarket import DUMMY

from .explain import kinds
from .stocks import new_shares
from .laying import LaidPiece, pieces_laid
from .depotfacts import DepotPlaced, Emptied, Stocked, depot_facts, from_warehouses
from .markerfacts import AlvinTaken, Marked, PointsMoved, marker_facts
from .monsterfacts import MonsterMoved, monster_facts

SETUP = (Phase.SETUP, Phase.SETUP_TICKETS)


@dataclass(frozen=True)
class Claimed:
    seat: int
    route: int
    color: str = ""  # the colour it was claimed in where the board prints none (France: a built bed's piece)


@dataclass(frozen=True)
class Built:
    """A station built in ``city``."""

    seat: int
    city: str


@dataclass(frozen=True)
class TookFaceUp:
    seat: int
    kinds: tuple[str, ...]


@dataclass(frozen=True)
class DrewBlind:
    """Cards drawn from the deck (the drawer's own are read later: ``ReadOwn``)."""

    seat: int
    count: int


@dataclass(frozen=True)
class ReadOwn:
    """The reader's own cards from the deck, once their faces are read (after the draw, often after the turn)."""

    seat: int
    kinds: tuple[str, ...]


@dataclass(frozen=True)
class DrewTickets:
    seat: int
    count: int


@dataclass(frozen=True)
class KeptTickets:
    """Tickets kept: ``tickets`` names them where the reader may see them (their own)."""

    seat: int
    count: int
    returned: int
    tickets: tuple[int, ...] = ()
    first: bool = False  # the first tickets, at the start of the game


@dataclass(frozen=True)
class WentForTunnel:
    seat: int
    route: int


@dataclass(frozen=True)
class TunnelTurned:
    """The tunnel's cards are turned: they ask ``extra`` more (0: none, and the tunnel is claimed at once)."""

    seat: int
    route: int
    kinds: tuple[str, ...]
    extra: int


@dataclass(frozen=True)
class GaveUpTunnel:
    seat: int
    route: int


@dataclass(frozen=True)
class Passed:
    seat: int


@dataclass(frozen=True)
class TookShares:
    """Pennsylvania: stock shares taken after a claim ('PRR #3'), and the dummy's beside them."""

    seat: int
    shares: tuple[str, ...]
    dummy: tuple[str, ...] = ()


Fact: TypeAlias = (Claimed | Built | TookFaceUp | DrewBlind | ReadOwn | DrewTickets | KeptTickets | WentForTunnel
                   | TunnelTurned | GaveUpTunnel | Passed | TookShares | LaidPiece | Marked | PointsMoved
                   | AlvinTaken | MonsterMoved | DepotPlaced | Stocked | Emptied)


def facts(before: GameState, after: GameState, me: int | None) -> list[Fact]:
    """The players' moves between two views, in the order they were made:
    seat by seat in playing order from the one whose turn it was, each
    seat's tunnel first, then its claims, stations, cards and tickets; then
    a pass. Two views may span the end of one turn and the next (the fold
    plays a seat the table plays as soon as the turn before it ends, in the
    same update): the next seat's moves come after the last one's, not
    before them because of a lower seat number or because they were a
    tunnel ('Bob drew 1 card / Cy went for the tunnel ... / Bob drew 1
    card' told Cy's move in the middle of Bob's turn)."""
    tunnel = _tunnel(before, after)
    found: list[Fact] = []
    n = len(before.players)
    first = before.current if 0 <= before.current < n and before.phase not in SETUP else 0
    for p in [(first + i) % n for i in range(n)]:
        found += [f for f in tunnel if f.seat == p]
        found += _player(before, after, p, before.players[p], after.players[p], p == me)
        if p == first:  # France: the piece laid after the draw ends the turn of the seat it was
            found += pieces_laid(before, after)
    if after.passes > before.passes:
        found.append(Passed(before.current))
    return found


def _player(before: GameState, after: GameState, p: int, b: PlayerState, a: PlayerState,
            mine: bool) -> list[Fact]:
    found: list[Fact] = [Claimed(p, r, laid_color(before, r) or "") for r in a.routes[len(b.routes):]]
    found += [Built(p, city) for city in a.stations[len(b.stations):]]
    took = new_shares(before, after, p)
    if took:  # the dummy's shares come only with a player's, in the same move
        found.append(TookShares(p, took, new_shares(before, after, DUMMY)))
    found += monster_facts(before, after, p)  # Alvin & Dexter: placed, or moved before the turn's action
    found += marker_facts(before, after, p)  # Old West's city markers
    found += depot_facts(before, after, p)  # Europe 1912's warehouses and depots
    if after.phase not in SETUP:
        found += _drawn(before, after, p, b, a, mine)
    if not b.offered and a.offered and after.phase is Phase.TICKETS:
        found.append(DrewTickets(p, len(a.offered)))
    kept = a.tickets[len(b.tickets):]
    if kept:
        returned = max(0, len(b.offered) - len(kept)) if b.offered else 0
        named = tuple(_faces(after, kept)) if mine else ()
        found.append(KeptTickets(p, len(kept), returned, named, first=before.phase in SETUP))
    return found


def _drawn(before: GameState, after: GameState, p: int, b: PlayerState, a: PlayerState,
           mine: bool) -> list[Fact]:
    """Train cards that came into a hand: taken face up, or drawn blind."""
    found: list[Fact] = []
    had = set(b.hand) | from_warehouses(before, after)  # a warehouse's cards are no draw (Emptied)
    added = [r for r in a.hand if r not in had]
    row = {r for r in before.face_up if r is not None}
    taken = [r for r in added if r in row]
    if taken:
        found.append(TookFaceUp(p, tuple(kinds(after, taken))))
    blind = [r for r in added if r not in row]
    if blind:
        found.append(DrewBlind(p, len(blind)))
    if mine:
        # Our blind cards are read a moment after they are drawn (often after the turn).
        collected = {r for _, _, refs in after.depots.taken for r in refs} if after.depots else set()
        newly = [r for r in a.hand if r not in row and r not in collected and after.face(r) is not None
                 and (r not in had or before.face(r) is None)]
        if newly:
            found.append(ReadOwn(p, tuple(kinds(after, newly))))
    return found


def _faces(state: GameState, refs: Iterable[CardRef]) -> list[int]:
    return [f for r in refs if (f := state.face(r)) is not None]


def _tunnel(before: GameState, after: GameState) -> list[Fact]:
    found: list[Fact] = []
    old, new = before.tunnel, after.tunnel
    player = before.current if old is not None else after.current
    if new is not None and (old is None or old.route != new.route):
        found.append(WentForTunnel(player, new.route))
    if new is not None and new.extra and after.phase is Phase.TUNNEL and before.phase is not Phase.TUNNEL:
        found.append(TunnelTurned(player, new.route, tuple(kinds(after, new.revealed)), new.extra))
    if before.phase is not Phase.TUNNEL:
        found += _decided_at_once(before, after)
    if old is not None and new is None and after.route_owner[old.route] is None:
        found.append(GaveUpTunnel(player, old.route))
    return found


def _decided_at_once(before: GameState, after: GameState) -> list[Fact]:
    """The turned cards of a tunnel decided in the same update as its turning,
    never shown waiting for the player: a tunnel that asked nothing more, or
    one that a seat the table plays paid or gave up at once (the fold turns
    the cards and plays the caretaker's answer in one entry). Told as a
    player's are, what they asked included, before the claim or the giving
    up. The turned cards are the update's new discards that were in nobody's
    hand nor in the face-up row; only one tunnel decided, and no reshuffle,
    lets them be told apart (otherwise nothing is told rather than a guess)."""
    if after.epoch != before.epoch:
        return []
    old = before.tunnel
    board = after.game.board
    decided = [(p, route) for p, (b, a) in enumerate(zip(before.players, after.players))
               for route in set(a.routes) - set(b.routes) if board.routes[route].tunnel]
    if old is not None and after.tunnel is None and after.route_owner[old.route] is None:
        decided.append((before.current, old.route))
    if len(decided) != 1:
        return []
    (p, route), = decided
    held = {r for ps in before.players for r in ps.hand} | {r for r in before.face_up if r is not None}
    was_discarded = set(before.discard)
    discarded = [r for r in after.discard if r not in was_discarded]
    turned = kinds(after, [r for r in discarded if r not in held])
    if not turned:
        return []
    if old is not None and old.route == route:
        played = old.color
    else:  # claimed at once: the colour it was paid in, if any
        paid = kinds(after, [r for r in discarded if r in set(before.players[p].hand)])
        played = next((k for k in paid if k != LOCOMOTIVE), None)
    return [TunnelTurned(p, route, tuple(turned), tunnel_extra(played, turned))]
