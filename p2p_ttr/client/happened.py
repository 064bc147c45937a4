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

from p2p_ttr.engine.cards import CardRef
from p2p_ttr.engine.state import GameState, Phase, PlayerState

from .explain import kinds

SETUP = (Phase.SETUP, Phase.SETUP_TICKETS)


@dataclass(frozen=True)
class Claimed:
    seat: int
    route: int


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


Fact: TypeAlias = (Claimed | Built | TookFaceUp | DrewBlind | ReadOwn | DrewTickets | KeptTickets | WentForTunnel
                   | TunnelTurned | GaveUpTunnel | Passed)


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
    if after.passes > before.passes:
        found.append(Passed(before.current))
    return found


def _player(before: GameState, after: GameState, p: int, b: PlayerState, a: PlayerState,
            mine: bool) -> list[Fact]:
    found: list[Fact] = [Claimed(p, r) for r in a.routes[len(b.routes):]]
    found += [Built(p, city) for city in a.stations[len(b.stations):]]
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
    had = set(b.hand)
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
        newly = [r for r in a.hand if r not in row and after.face(r) is not None
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
    if old is not None and new is None and after.route_owner[old.route] is None:
        found.append(GaveUpTunnel(player, old.route))
    if before.phase is not Phase.TUNNEL and after.epoch == before.epoch:
        # A tunnel whose turned cards asked nothing more is claimed at once:
        # of its new discards, the route's length came from the hand (or its
        # first payment, if the claim was seen before the turning), the rest
        # were turned. More from the hand: it asked more, and that was told
        # (or, all in one update, is not: "nothing more" would be untrue).
        was_discarded = set(before.discard)
        discarded = [r for r in after.discard if r not in was_discarded]
        for p, (b, a) in enumerate(zip(before.players, after.players)):
            for route in set(a.routes) - set(b.routes):
                if after.game.board.routes[route].tunnel:
                    mine = set(b.hand) | (set(old.cards) if old is not None else set())
                    turned = [r for r in discarded if r not in mine]
                    if turned and len(discarded) - len(turned) == after.game.board.routes[route].length:
                        found.append(TunnelTurned(p, route, tuple(kinds(after, turned)), 0))
    return found
