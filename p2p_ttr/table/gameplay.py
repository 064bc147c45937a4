"""The game under way: the engine's state, from the keyed seating's first
state on, moved on as far as the log allows.

The table (table.py) hands this part what the log brings for the game (a
move, a chain's progress, a seat's shares, a seat that leaves) and, after
each entry, asks it to advance: it applies what is due, in the same order on
every replica: carrying a seat on, the conceded end, the waiting act, public
reveals, what forfeited seats owe (forfeits.py), and our private peeks. It
writes its own state only (the engine, the waiting act, the acts voided);
the other parts it reads, and asks through their methods.
"""

from __future__ import annotations

from collections.abc import Iterable

from p2p_ttr.deck import DecryptionShare, SecretKey, Seed
from p2p_ttr.engine.cards import CardRef
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.engine.events import Reveal
from p2p_ttr.engine.rules import apply, clashes_with_private, concede
from p2p_ttr.engine.state import GameState, NeedReveal, Phase

from .acts import PendingAct, VoidedAct, take_act
from .chains import CHAIN_NEEDS, ChainDone, FalseStep, Need, Progress, chain_done
from .deckbook import DeckBook
from .errors import TableError
from .escrowbook import Carried, DealerCheated, EscrowBook
from .forfeits import CaretakerMove, DeriveStep, OpenCards, next_duty
from .halting import Halting
from .keyring import KeyedSeating, PeerSecrets
from .messages import RULES_6, Seating
from .reveals import Reveals


def safe_tunnels(seating: Seating) -> bool:
    """Whether forfeited seats are played by the caretaker of rules ttr/7 on:
    a log seated under ttr/6 or before replays with its own caretaker."""
    return seating.rules != RULES_6


class GamePlay:
    """The engine's state and the move that waits for its cards, with the
    parts whose state the game reads: the deck's book, the seats' reveals,
    the escrow and the halt. ``logged`` in a method: how many entries the
    log holds as it runs (an entry being applied is appended next)."""

    def __init__(self, seated: KeyedSeating, first: GameState, deck: DeckBook, reveals: Reveals,
                 escrowbook: EscrowBook, halting: Halting) -> None:
        """``first``: the game's first state, made from ``seated`` (keyring.opening_state)."""
        self.seated = seated
        self.engine = first
        self.pending_act: PendingAct | None = None
        self.voided: list[VoidedAct] = []
        self._deck = deck
        self._reveals = reveals
        self._escrowbook = escrowbook
        self._halting = halting
        self._safe_tunnels = safe_tunnels(seated.seating)

    @property
    def n(self) -> int:
        return self.seated.n

    @property
    def in_play(self) -> tuple[int, ...]:
        return self._reveals.in_play(self.n)

    def chain_due(self) -> Need | None:
        """The deck epoch the seats are building now (a shuffle, a re-masking or a mix),
        if any. In an escrow game none is before every seat in play dealt its
        escrow: no card exists until every seat can be carried on."""
        if self._escrowbook.missing_deals(self.in_play):
            return None
        need = self.engine.awaiting
        return need if isinstance(need, CHAIN_NEEDS) else None

    def sharers(self, ref: CardRef) -> set[int]:
        """The seats whose share of ``ref`` is known: published, or computable
        from a forfeited seat's secret."""
        return self._deck.sharers(ref, self._reveals.forfeited)

    # ------------------------------------------------- what the log brings

    def progress(self, progress: Progress, logged: int) -> None:
        """Act on what a chain step or proof completed: tell the engine the
        epoch is done, or halt on a false step, naming its seat."""
        need = self.chain_due()
        if isinstance(progress, FalseStep):
            at = logged if progress.entry is None else progress.entry  # None: the entry being applied
            self._halting.halt(progress.reason, progress.seat, at)
        elif isinstance(progress, ChainDone):
            assert need is not None
            self.engine = apply(self.engine, chain_done(need))

    def act(self, seat: int, action: object) -> None:
        """A move: one that plays hidden cards waits in ``pending_act`` for its
        author's shares of them (owed from now on); the others apply now."""
        taken = take_act(self.engine, seat, action, self.pending_act)
        if isinstance(taken, PendingAct):
            self.pending_act = taken
        else:
            self.engine = taken

    def store_shares(self, seat: int, shares: tuple[DecryptionShare, ...], owed: set[CardRef]) -> None:
        """Check and keep ``seat``'s shares, each ``owed`` now; the proofs of
        those that open a card to all are checked at once."""
        reveal = self.engine.awaiting
        public = set(reveal.refs) if isinstance(reveal, NeedReveal) else set()
        if self.pending_act is not None:
            public |= set(self.pending_act.cards)  # they open to all once in
        self._deck.store_shares(self.seated.joint, seat, shares, owed, public)

    def play_on(self, seat: int, key: SecretKey, seed: Seed, logged: int) -> None:
        """From now on the fold plays ``seat`` from its secrets (forfeited, or
        carried on): they count as its audit."""
        self._reveals.play_on(seat, key, seed)
        need = self.chain_due()
        if need is not None:
            # A step in but not proven: the revealed seed proves it, or shows it false.
            self.progress(self._deck.chains.prove_by_seed(need, seat, seed), logged)
        self._deck.shares.forget_unchecked(seat)

    # ------------------------------------------------------------- advance

    def advance(self, me: PeerSecrets | None, logged: int) -> None:
        """Apply what the log now allows (``me``: our seat's secrets, to read our own cards)."""
        while self._halting.reason is None:
            if self._carry_escrowed(logged):
                continue
            if self._concedes():
                # Nobody is left to play against: the game is conceded (§6).
                # A move waiting for its cards is dropped with everything else.
                self.pending_act = None
                self.engine = concede(self.engine, self.in_play[0] if self.in_play else None)
                continue
            if self.pending_act is not None and self._play_pending(logged):
                continue
            need = self.engine.awaiting
            if isinstance(need, NeedReveal) and all(len(self.sharers(ref)) == self.n for ref in need.refs):
                self._check_stored(need.refs)  # a false one halts the game (table.receive)
                self.engine = self._revealed(self.engine, need.refs)
                continue
            if self._reveals.forfeited and self._play_forfeited(logged):
                continue
            if not self._peek(me):
                return

    def _check_stored(self, refs: Iterable[CardRef]) -> None:
        self._deck.shares.check_stored(self.seated.joint, refs)

    def _revealed(self, engine: GameState, refs: Iterable[CardRef]) -> GameState:
        """``engine`` with ``refs`` opened to all (their shares checked already)."""
        engine = apply(engine, Reveal(tuple((ref, self._deck.open(ref, self._reveals.forfeited)) for ref in refs)))
        self._halting.suspect(clashes_with_private(engine))
        return engine

    def _carry_escrowed(self, logged: int) -> bool:
        """Start handing over for a seat every other seat in play asked to
        carry on; or, with every share of a seat known, rebuild its secrets
        and play it on. False if neither is due."""
        book, seated = self._escrowbook, self.seated
        if book.settle(self.in_play):
            return True
        if not book.carrying:
            return False
        match book.ready(seated.public_keys(), dict(enumerate(seated.commitments)), seated.game_id):
            case Carried(seat, key, seed):
                self.play_on(seat, key, seed, logged)
                book.carried(seat, logged - 1)  # the entry being applied completed it
            case DealerCheated(seat, reason):
                book.cannot_carry(seat)
                self._halting.halt(reason, seat, logged - 1)
            case None:
                return False
        return True

    def _concedes(self) -> bool:
        """Fewer than two seats are in play and the game has not ended. A deck
        chain already begun is finished first (the seats gone have their steps
        derived): the audit re-runs every chain of the log, so none may be
        left half built; no card of it is dealt."""
        if len(self.in_play) >= 2 or self.engine.phase in (Phase.SCORING, Phase.OVER):
            return False
        need = self.chain_due()
        return need is None or self._deck.chains.turn(need) == 0

    def _play_pending(self, logged: int) -> bool:
        """Apply the pending act once its author's shares are all in: check
        the shares of its cards (a false one halts the game), open them to
        all, then apply the action. Cards that do not make it legal void it
        (they stay shown; the author moves again). False if it still waits."""
        pending, engine = self.pending_act, self.engine
        assert pending is not None
        if any(pending.seat not in self.sharers(r) for r in pending.cards):
            return False
        self._check_stored(pending.cards)
        self.pending_act = None
        engine = self._revealed(engine, pending.cards)
        try:
            self.engine = apply(engine, pending.action)
        except EngineError as exc:
            self.engine = engine
            self.voided.append(VoidedAct(logged - 1, pending.seat, str(exc)))
        return True

    def _play_forfeited(self, logged: int) -> bool:
        """One duty of a forfeited seat, done by the fold; False if none is due.
        Every replica does the same, in the same order (protocol.md §6.6)."""
        seeds = {s: f.seed for s, f in self._reveals.forfeited.items()}
        chains = self._deck.chains
        match next_duty(self.engine, self.chain_due(), chains, seeds, self.sharers, self.n, self._safe_tunnels):
            case DeriveStep(need, seat, step):
                self.progress(self._deck.derive_step(need, seat, step), logged)
            case OpenCards(refs):
                self._check_stored(refs)
                self.engine = self._revealed(self.engine, refs)
            case CaretakerMove(action):
                self.engine = apply(self.engine, action)
            case None:
                return False
        return True

    def _peek(self, me: PeerSecrets | None) -> bool:
        """Open our own cards that are ready, to us alone; False if none is.
        A false share or shuffle only we can see is our suspicion: the peer
        reveals its secrets, which halts every replica and lets the audit name it."""
        if me is None or self._halting.suspicion is not None:
            return False
        try:
            peek = self._deck.peek(self.engine, me, self._reveals.forfeited, self.seated.joint)
            if peek is None:
                return False
        except TableError as exc:
            self._halting.suspect(str(exc))
            return False
        try:
            self.engine = apply(self.engine, peek)
        except EngineError as exc:
            self._halting.suspect(str(exc))
            return False
        return True
