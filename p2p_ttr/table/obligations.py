"""Who owes the table what, now: computed from the log alone, so every
replica names the same seats (the client words it; liveness times it)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.rules import actors
from p2p_ttr.engine.state import GameState, NeedMix, NeedReveal, NeedShuffle

from .acts import PendingAct
from .cards import DECK_NAMES
from .chains import ChainBook, Need
from .escrowbook import EscrowBook


class Owed(Enum):
    """What a seat owes."""

    KEYS = "keys"
    SHUFFLE = "shuffle"
    REMASK = "remask"
    MIX = "mix"
    SHUFFLE_PROOF = "shuffle proof"
    REMASK_PROOF = "remask proof"
    MIX_PROOF = "mix proof"
    SHARES = "shares"
    MOVE = "move"
    AUDIT = "audit"
    ESCROW = "escrow"  # its deal of its key and seed, in an escrow game
    ESCROW_SHARE = "escrow share"  # its shares of a seat the others carry on


@dataclass(frozen=True)
class Obligation:
    """Something a seat owes the table now, with what it is about: the chain
    (for a step or a proof), or the cards (for shares)."""

    seat: int
    what: Owed
    chain: tuple[Deck, int] | None = None  # (deck, epoch) of a step or proof owed
    playing: int = 0  # shares of the cards the seat's own waiting move plays
    to_all: int = 0  # shares of cards being opened to all
    drawn: int = 0  # shares of cards other seats drew
    drawn_by: tuple[int, ...] = ()
    target: int | None = None  # the seat being carried on, for an escrow share

    @property
    def detail(self) -> str:
        """In words: which deck, which cards and for whom."""
        if self.target is not None:
            return f"of seat {self.target}, carried on"
        if self.chain is not None:
            return f"{DECK_NAMES[self.chain[0]]} epoch {self.chain[1]}"
        if self.playing:
            return f"{self.playing} of the cards its move plays"
        parts = []
        if self.to_all:
            parts.append(f"{self.to_all} to reveal to all")
        if self.drawn_by:
            seats = ", ".join(map(str, self.drawn_by))
            parts.append(f"{self.drawn} drawn by seat{'s' if len(self.drawn_by) > 1 else ''} {seats}")
        return "; ".join(parts)

    def describe(self, names: tuple[str, ...] = ()) -> str:
        who = names[self.seat] if self.seat < len(names) else f"seat {self.seat}"
        detail = self.detail
        return f"{who} owes {self.what.value}" + (f" ({detail})" if detail else "")


class TableState(Protocol):
    """What obligations are computed from (``Table`` provides it)."""

    @property
    def n(self) -> int: ...
    @property
    def seated(self) -> bool: ...
    @property
    def keys(self) -> Collection[int]: ...
    @property
    def audits(self) -> Collection[int]: ...
    @property
    def finished(self) -> bool: ...
    @property
    def engine(self) -> GameState | None: ...
    @property
    def chains(self) -> ChainBook: ...
    @property
    def pending_act(self) -> PendingAct | None: ...
    @property
    def forfeited(self) -> Collection[int]: ...
    @property
    def shares(self) -> Mapping[CardRef, Collection[int]]: ...
    @property
    def escrowbook(self) -> EscrowBook: ...
    @property
    def in_play(self) -> tuple[int, ...]: ...

    def chain_due(self) -> Need | None: ...


def owed_shares(t: TableState) -> dict[int, set[CardRef]]:
    """The decryption shares each seat owes now: its own waiting move's
    cards, a public reveal's, and every card a player drew and cannot read
    yet. A forfeited seat owes none: the fold computes its shares."""
    owed: dict[int, set[CardRef]] = {}
    engine = t.engine
    if engine is None:
        return owed
    pending = t.pending_act
    if pending is not None and pending.seat not in t.forfeited:
        mine = {r for r in pending.cards if pending.seat not in t.shares.get(r, ())}
        if mine:
            owed[pending.seat] = mine
    live = [s for s in range(t.n) if s not in t.forfeited]
    shares = t.shares  # looked up once per card: this runs for every share in the log
    if isinstance(engine.awaiting, NeedReveal):
        for ref in engine.awaiting.refs:
            have = shares.get(ref, ())
            for s in live:
                if s not in have:
                    owed.setdefault(s, set()).add(ref)
    for p, ps in enumerate(engine.players):
        for ref in ps.hand + ps.offered:
            if ref in engine.public:
                continue
            have = shares.get(ref, ())
            for s in live:
                if s != p and s not in have:
                    owed.setdefault(s, set()).add(ref)
    return owed


def obligations(t: TableState) -> list[Obligation]:
    """Who owes what now, in seat order; the same on every peer."""
    if not t.seated:
        return []
    if len(t.keys) < t.n:
        return [Obligation(s, Owed.KEYS) for s in range(t.n) if s not in t.keys]
    if t.finished:
        return [Obligation(s, Owed.AUDIT) for s in range(t.n) if s not in t.audits]
    # Escrow first: no chain starts before every deal is in, and a carry-on
    # under way waits for nothing else (the seat it plays on is silent).
    out = [Obligation(s, Owed.ESCROW) for s in t.escrowbook.missing_deals(t.in_play)]
    for seat, targets in sorted(t.escrowbook.owed_reveals(t.in_play).items()):
        out += [Obligation(seat, Owed.ESCROW_SHARE, target=target) for target in targets]
    need = t.chain_due()
    if need is not None:
        step, proof = ((Owed.SHUFFLE, Owed.SHUFFLE_PROOF) if isinstance(need, NeedShuffle)
                       else (Owed.MIX, Owed.MIX_PROOF) if isinstance(need, NeedMix)
                       else (Owed.REMASK, Owed.REMASK_PROOF))
        chain = (need.deck, need.epoch)
        turn = t.chains.turn(need)
        if turn < t.n:
            out.append(Obligation(turn, step, chain))
        out += [Obligation(s, proof, chain) for s in t.chains.unproven(need)]
    engine = t.engine
    assert engine is not None
    public = set(engine.awaiting.refs) if isinstance(engine.awaiting, NeedReveal) else set()
    pending = t.pending_act
    for seat, refs in sorted(owed_shares(t).items()):
        if pending is not None and seat == pending.seat:
            playing = refs & set(pending.cards)
            out.append(Obligation(seat, Owed.SHARES, playing=len(playing)))
            refs = refs - playing
            if not refs:
                continue
        drawn_by = sorted({h for r in refs if r not in public and (h := _holder(engine, r)) is not None})
        out.append(Obligation(seat, Owed.SHARES, to_all=len(refs & public), drawn=len(refs - public),
                              drawn_by=tuple(drawn_by)))
    if not out:
        out += [Obligation(p, Owed.MOVE) for p in actors(engine)]
    return out


def _holder(engine: GameState, ref: CardRef) -> int | None:
    for p, ps in enumerate(engine.players):
        if ref in ps.hand or ref in ps.offered:
            return p
    return None
