"""The replicated table: a deterministic fold over the signed, ordered log.

Every peer feeds the same log entries, in the same order, into its own
``Table``; every table reaches the same public state (``digest``) and the same
obligations. A table may hold one seat's secrets (``PeerSecrets``): then it
also opens that seat's privately drawn cards; an auditor's table holds none.

The table is the fold: it reads each message and hands it to the part that
owns it, then advances the game as far as the log allows. Its parts:

- ``logchain.LogChain``: the entries, their hash chain, sequence numbers;
- ``chains.ChainBook``: the deck epochs, built and proven step by step;
- ``sharebook.ShareBook``: the decryption shares, and opening cards;
- ``acts``: moves that wait for their hidden cards;
- ``forfeits``: what the fold does for seats that left;
- ``escrowbook.EscrowBook``: escrow deals, and carrying a vanished seat on;
- ``obligations``: who owes what now.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from p2p_ttr.deck import (
    Ciphertext,
    DeckError,
    DecryptionShare,
    JointKey,
    KeyAnnouncement,
    RemaskStep,
    SecretKey,
    Seed,
    SeedCommitment,
    ShuffleStep,
    check_seal_key,
    check_seed,
    own_share,
)
from p2p_ttr.deck import CardCodec
from p2p_ttr.deck import EpochPosition as DeckRef
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.engine.events import Peek, Reveal
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.rules import apply, check_for_some_faces, clashes_with_private, concede, new_game
from p2p_ttr.engine.state import GameState, NeedReveal, Phase, public_digest
from p2p_ttr.errorcodes import ErrorCode

from .acts import CardMove, PendingAct, VoidedAct, hidden_cards
from .cards import codec_for, engine_deck
from .chains import CHAIN_NEEDS, ChainBook, ChainDone, FalseStep, Need, Progress, chain_done, chain_kinds, check_source
from .decoded import DecodedEntry, decoded_for
from .envelope import Envelope, open_envelope
from .errors import BadProof, BadSignature, Cheating, Malformed, NotExpected, TableError
from .escrowbook import Blocked, Carried, DealerCheated, EscrowBook
from .forfeits import CaretakerMove, DeriveStep, OpenCards, next_duty
from .logchain import LogChain
from .messages import (
    RULES_6,
    Act,
    Audit,
    CarryOn,
    Escrow,
    EscrowComplaint,
    EscrowReveal,
    Forfeit,
    Keys,
    Message,
    Mix,
    ProveMix,
    ProveRemask,
    ProveShuffle,
    Reach,
    TakeOver,
    Remask,
    Seat,
    Seating,
    Shares,
    Shuffle,
)
from .obligations import Obligation, obligations, owed_shares
from .relaying import EMPTY_HEAD, HandedOver, check_handover, successor
from .sharebook import ShareBook


MAX_REACH = 64  # a seat says where it is once per run of its peer: this many is plenty
MAX_REJECTIONS = 1000  # refusals a table remembers (the latest; a flood is counted by the peer's drop log)


@dataclass(frozen=True)
class PeerSecrets:
    """One seat's secrets for one game: its deck key, its seed and, in an
    escrow game, its seal key (the key escrow shares are sealed to, never
    revealed). Never logged; repr redacts."""

    seat: int
    key: SecretKey
    seed: Seed
    seal: SecretKey | None = None

    def __repr__(self) -> str:
        return f"PeerSecrets(seat={self.seat}, key=<redacted>, seed=<redacted>, seal=<redacted>)"


@dataclass(frozen=True)
class Rejection:
    """A refused entry: who it claims to be from, and why it was refused."""

    seat: int | None  # the seat the message claims to come from, if it says
    seq: int | None
    code: ErrorCode
    reason: str


class Table:
    """One replica of the game: fed the log entry by entry (``receive``), it
    holds the public game (``engine``), the deck (``chains``, ``shares``), and
    who owes what (``obligations``); with a seat's secrets it reads that
    seat's cards too."""

    def __init__(self, me: PeerSecrets | None = None, audit_secret: int | None = None,
                 eager_proofs: bool = False) -> None:
        """``me``: this seat's secrets, to read its own cards. ``audit_secret``:
        the joint secret X = sum of every seat's revealed x, known only when
        verifying a finished log. Then cards are opened with X and shares are
        not checked by their proofs here: the deck audit checks every share
        against its seat's x, which is what a proof stands in for.

        Proofs of shares for a private draw are checked when the shares are
        first used: by the drawer when it reads the card, by everyone when
        the card is opened to all (protocol.md §6). ``eager_proofs`` checks
        every proof on arrival instead, refusing the entry that carries a
        bad one: ``ttr verify`` does that to name it exactly."""
        self.me = me
        self.audit_secret = audit_secret
        self.eager_proofs = eager_proofs
        self.entries = LogChain()
        self.rejected: list[Rejection] = []
        self.keys: dict[int, KeyAnnouncement] = {}
        self.commitments: dict[int, SeedCommitment] = {}
        self.seal_keys: dict[int, int] = {}  # escrow games: seat -> the seal key escrow shares are sealed to
        self.joint: JointKey | None = None
        self.chains = ChainBook()
        self.shares = ShareBook(self.ciphertext, self.codec, audit_secret, eager_proofs)
        # The game the seating names (board, rules, variant); the engine is made from it once every key is in.
        self.game: Game | None = None
        self.engine: GameState | None = None
        self.safe_tunnels = True  # the caretaker of the seating's revision: ttr/6 logs replay with their own
        self.audits: dict[int, Audit] = {}
        # Seats that left for good, with their revealed secrets: the fold
        # computes their shares and chain steps and plays their moves.
        self.forfeited: dict[int, PeerSecrets] = {}
        self.forfeit_entries: dict[int, int] = {}  # seat -> index of its forfeit in the log
        # Escrow deals, requests to carry a silent seat on, and the seats
        # carried on (which are then in ``forfeited`` too).
        self.escrowbook = EscrowBook()
        # Chain steps the fold derived for forfeited seats, with the chain
        # they extend, in order (verify hands them to the deck audit).
        self.derived_steps: list[tuple[Need, ShuffleStep | RemaskStep]] = []
        # Set when the log leads somewhere no honest deck can (a card in two
        # places): the game stops, and only the secret reveals that let the
        # audit find the cheater are still accepted.
        self.halted: str | None = None
        self.halted_at: int | None = None
        # The seat the fold itself proved to have cheated when it halted (a
        # false chain proof, a step that is not its seed's), if any.
        self.culprit: int | None = None
        # The seat whose mid-game reveal halted the game: the audit must then
        # find a cheat, or the blame is the stopper's.
        self.stopper: int | None = None
        self.pending_act: PendingAct | None = None
        self.voided: list[VoidedAct] = []
        # Set when this seat's own cards prove a shuffle false. Only this
        # replica knows; the peer makes it public by revealing its secrets,
        # which halts every replica alike.
        self.suspicion: str | None = None
        # Who sequences the log (relaying.py): seat 0 until a hand-over.
        self.relay = 0
        self.handovers: list[HandedOver] = []
        self.reach: dict[int, tuple[str, int]] = {}  # seat -> where it accepts connections as a relay
        self._reach_sent: dict[int, int] = {}

    # ------------------------------------------------------------------ views

    @property
    def game_id(self) -> bytes | None:
        return self.entries.game_id

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.entries.seats

    @property
    def log(self) -> list[bytes]:
        """The accepted entries, in order."""
        return self.entries.entries

    @property
    def heads(self) -> list[bytes]:
        return self.entries.heads

    @property
    def head(self) -> bytes:
        return self.entries.head

    @property
    def last_seq(self) -> dict[int, int]:
        return self.entries.last_seq

    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def in_play(self) -> tuple[int, ...]:
        """The seats still played by their own peers: not forfeited (nor
        carried on, which the fold treats as forfeited), in seat order."""
        return tuple(s for s in range(self.n) if s not in self.forfeited)

    @property
    def escrow(self) -> bool:
        """The seating asked every seat to escrow its secrets (protocol.md §6, Escrow)."""
        return self.escrowbook.enabled

    @property
    def carried_on(self) -> Mapping[int, int]:
        """Seats the others carried on -> index of the log entry that completed it."""
        return self.escrowbook.carried_on

    @property
    def carry_on_requests(self) -> Mapping[int, frozenset[int]]:
        """Target seat -> the seats that asked to carry it on (requests lapse
        when the target signs again before every seat in play asked)."""
        return {t: frozenset(asked) for t, asked in self.escrowbook.requests.items() if asked}

    @property
    def carrying(self) -> frozenset[int]:
        """Seats every other seat in play asked to carry on, whose shares are
        being handed over: they can no longer come back (their messages are
        refused), and the fold plays them once every share is in."""
        return frozenset(self.escrowbook.carrying)

    def carry_on_problem(self, target: int, by: int | None = None) -> str | None:
        """Why ``by`` (None: any seat in play) may not ask now to carry
        ``target`` on; None when it may. Besides this, the network layer
        decides when a seat has been silent long enough."""
        if not 0 <= target < self.n:
            return f"there is no seat {target}"
        if by is not None and (by not in self.in_play or by in self.escrowbook.carrying):
            return f"seat {by} is not in play"
        return self.escrowbook.request_problem(by, target, self.in_play, self.engine is None or self.finished,
                                               self.left)

    def carry_on_blocked(self, awaited: Iterable[int], silent: Iterable[int]) -> Blocked | None:
        """Why none of the ``awaited`` silent seats can be carried on now, if so (escrowbook.py)."""
        return self.escrowbook.blocked(set(awaited), set(silent), self.in_play, self.engine is None or self.finished,
                                       self.left)

    def can_carry_on(self, target: int, by: int | None = None) -> bool:
        """Whether a request to carry ``target`` on would be accepted now."""
        return self.carry_on_problem(target, by) is None

    @property
    def conceded(self) -> bool:
        """The game ended early: fewer than two seats were left in play."""
        return self.engine is not None and self.engine.conceded

    @property
    def successor(self) -> int | None:
        """The seat that relays next if the relay leaves now (relaying.py)."""
        return successor(self.relay, self.in_play)

    @property
    def term(self) -> int:
        """The relay's term: 0 for seat 0's, one more at each hand-over (relaying.py)."""
        return len(self.handovers)

    @property
    def term_start(self) -> int:
        """How many entries the log held when this term began (after its ``relay`` entry)."""
        return self.handovers[-1].index + 1 if self.handovers else 0

    @property
    def left(self) -> dict[int, int]:
        """The seats that left the game (forfeited, or carried on) -> the entry each left at."""
        return {**self.forfeit_entries, **self.carried_on}

    @property
    def relay_gone(self) -> bool:
        """The relay left the game (forfeited, or carried on): the next entry
        must be its successor's ``relay`` message."""
        return self.seated and self.relay not in self.in_play

    def relay_at(self, index: int) -> int:
        """The seat that sequenced (signed the receipt of) entry ``index``: a
        hand-over entry is its new relay's."""
        relay = 0
        for handed in self.handovers:
            if handed.index <= index:
                relay = handed.new
        return relay

    def prev_head(self, index: int) -> bytes:
        """The log head just before entry ``index`` (at most the log's length)."""
        return EMPTY_HEAD if index == 0 else self.heads[index]

    def sequencer_of(self, raw: bytes) -> int:
        """The seat whose receipt the next entry ``raw`` must carry: the relay,
        or for a hand-over its author, the new relay. Which seat that is does
        not depend on whether the entry will fold (the fold decides that)."""
        if not self.seated:
            return 0
        try:
            envelope = open_envelope(raw)
            if envelope.body and envelope.body[0] == TakeOver.KIND:
                return envelope.seat if 0 <= envelope.seat < self.n else self.relay
        except TableError:
            pass
        return self.relay

    @property
    def seated(self) -> bool:
        """The log holds its seating: the game exists."""
        return self.game_id is not None

    def digest(self) -> str:
        """A hash of everything public: equal on every peer with the same log."""
        return hashlib.sha256(
            self.head + (public_digest(self.engine) if self.engine else "").encode()
        ).hexdigest()

    @property
    def finished(self) -> bool:
        """No more moves: the game is over, or halted."""
        return self.halted is not None or (self.engine is not None and self.engine.over)

    @property
    def complete(self) -> bool:
        """Finished, and every seat revealed its secrets."""
        return self.finished and len(self.audits) == self.n

    def ciphertext(self, ref: CardRef) -> Ciphertext:
        return self.chains.ciphertext(ref)

    def codec(self, deck: Deck) -> CardCodec:
        """How an opened card of ``deck`` is read in this game (once seated)."""
        assert self.game is not None, "a card is opened only once the game is seated"
        return codec_for(self.game, deck)

    def chain_due(self) -> Need | None:
        """The deck epoch the seats are building now (a shuffle, a re-masking or a mix),
        if any. In an escrow game none is before every seat in play dealt its
        escrow: no card exists until every seat can be carried on."""
        if self.escrowbook.missing_deals(self.in_play):
            return None
        need = self.engine.awaiting if self.engine else None
        return need if isinstance(need, CHAIN_NEEDS) else None

    def chain_inputs(self, need: Need) -> tuple[Ciphertext, ...]:
        """What the first seat of that chain starts from."""
        return self.chains.inputs(need)

    def chain_step(self, need: Need, seat: int) -> ShuffleStep | RemaskStep:
        """Seat's step of the chain being built, as the deck library's record."""
        return self.chains.record(need, seat)

    def false_pending_proof(self) -> tuple[int, int, str] | None:
        """(seat, entry, reason) of the first false proof among those the chain
        being built holds unchecked, if any (see ``ChainBook.false_pending_proof``)."""
        need = self.chain_due()
        return self.chains.false_pending_proof(need) if need is not None else None

    def obligations(self) -> list[Obligation]:
        """Who owes what now, in seat order; the same on every peer."""
        return obligations(self)

    def owed_shares(self) -> dict[int, set[CardRef]]:
        """The decryption shares each seat owes now (see ``obligations.owed_shares``)."""
        return owed_shares(self)

    def check_stored(self, refs: Iterable[CardRef]) -> None:
        """Check the proofs of the stored shares of ``refs`` not checked yet.

        Raises:
            BadProof: one is false.
        """
        self.shares.check_stored(self.joint, refs)

    # --------------------------------------------------------------- receive

    def receive(self, raw: bytes, decoded: DecodedEntry | None = None) -> Envelope:
        """Check and apply one log entry (``decoded``: the caller's decoding of it, decoded_for); on
        refusal record it and re-raise.

        An entry that is valid but completes something impossible (a card
        that is no card, a false proof) is accepted and halts the game.

        Raises:
            TableError: the entry is refused (its ``code`` says why:
                malformed, bad_signature, wrong_game, replay, unknown_head,
                not_expected, bad_proof, cheating); nothing changed.
            EngineError: the engine refused the move it carries; nothing changed.
        """
        try:
            envelope = self._accept(raw, decoded)
        except (TableError, EngineError) as exc:
            seat, seq = _claimed(raw)
            self.rejected.append(Rejection(seat, seq, exc.code, str(exc)))
            if len(self.rejected) > 2 * MAX_REJECTIONS:  # a flood of refused messages: keep the latest
                del self.rejected[:-MAX_REJECTIONS]
            raise
        self.entries.append(raw, envelope)
        if self.halted is not None:
            return envelope  # a halted game does not advance: only secrets come in now
        try:
            self._advance()
        except (TableError, EngineError) as exc:
            # The entry itself was valid; what it completed is impossible.
            self.halted, self.halted_at = str(exc), len(self.log) - 1
        return envelope

    def _accept(self, raw: bytes, decoded: DecodedEntry | None) -> Envelope:
        envelope, message = decoded_for(raw, decoded)
        if self.game_id is None:
            if not isinstance(message, Seating):
                raise NotExpected("a game starts with seat 0's seating")
            self.entries.open(envelope, message.seats)
            self.game = message.game
            self.safe_tunnels = message.rules != RULES_6
            self.escrowbook.enabled = message.escrow
            return envelope
        self.entries.check(envelope)
        self._apply(envelope.seat, message, self.entries.written_after(envelope.head))
        return envelope

    # ---------------------------------------------------------- per message

    def _apply(self, seat: int, message: Message, written_after: int) -> None:
        """Apply ``seat``'s ``message``, written once its author had applied
        ``written_after`` entries (the head it names)."""
        if isinstance(message, TakeOver):
            self._handover(seat, message)
            self.escrowbook.back(seat, len(self.log))  # a seat the others asked to carry on is back
            return
        if self.relay_gone:
            raise NotExpected(f"the relay (seat {self.relay}) left the game: the next entry is its "
                              f"successor's (seat {self.successor}) relay message")
        if self.halted is not None and not isinstance(message, Audit):
            raise NotExpected(f"the game is halted ({self.halted}); only secrets may still be revealed")
        if seat in self.carried_on or seat in self.escrowbook.carrying:
            raise NotExpected(f"seat {seat} is carried on by the others: the table plays its seat now")
        if seat in self.forfeited:
            raise NotExpected(f"seat {seat} forfeited: the table plays its seat now")
        self._apply_message(seat, message, written_after)
        self.escrowbook.back(seat, len(self.log))  # a seat the others asked to carry on is back

    def _apply_message(self, seat: int, message: Message, written_after: int) -> None:
        match message:
            case Reach(ip, port):
                sent = self._reach_sent.get(seat, 0)
                if sent >= MAX_REACH:
                    raise NotExpected(f"seat {seat} already said where it is {MAX_REACH} times")
                self._reach_sent[seat] = sent + 1
                self.reach[seat] = (ip, port)
            case Seating():
                raise NotExpected("the game already has its seating")
            case Keys(key, commitment, seal):
                self._keys(seat, key, commitment, seal)
            case Shuffle(step, source) | Remask(step, source) | Mix(step, source):
                need = self._due(message.KIND, step.deck, step.epoch)
                check_source(need, source)
                self._progress(self.chains.add_step(need, seat, step.seat, step.ciphertexts))
            case ProveShuffle(proof) | ProveRemask(proof) | ProveMix(proof):
                need = self._due(message.KIND, proof.deck, proof.epoch)
                # This entry's index: it is appended next.
                self._progress(self.chains.add_proof(need, seat, proof, len(self.log)))
            case Shares(shares):
                self._shares(seat, shares)
            case Act(action):
                self._act(seat, action)
            case Audit():
                self._audit(seat, message)
            case Forfeit():
                self._forfeit(seat, message)
            case Escrow():
                self._escrow(seat, message)
            case EscrowComplaint():
                self._complaint(seat, message)
            case CarryOn(target):
                self._carry_on(seat, target, written_after)
            case EscrowReveal():
                if self.finished:
                    raise NotExpected("the game is over")
                self.escrowbook.reveal(seat, message)

    def _handover(self, seat: int, relay: TakeOver) -> None:
        """The relay moves to ``seat``, if the hand-over holds (relaying.py)."""
        assert self.game_id is not None
        last = len(self.log) - 1
        check_handover(seat, relay.old, relay.receipt, relay.requests, relay=self.relay, successor=self.successor,
                       movable=self.escrow or self.relay_gone, in_play=self.in_play,
                       identities=[s.identity for s in self.seats], game_id=self.game_id, term=self.term,
                       last=(last, self.prev_head(last), self.log[last]), head=self.head)
        self.handovers.append(HandedOver(len(self.log), relay.old, seat))  # this entry's index
        self.relay = seat
        self.escrowbook.new_term()

    def _keys(self, seat: int, key: KeyAnnouncement, commitment: SeedCommitment,
              seal: KeyAnnouncement | None) -> None:
        assert self.game_id is not None
        if seat in self.keys:
            raise NotExpected(f"seat {seat} already announced its key")
        if key.seat != seat or commitment.seat != seat or (seal is not None and seal.seat != seat):
            raise Malformed("a key announcement names its own seat")
        if (seal is not None) != self.escrow:
            raise Malformed("keys carry a seal key in an escrow game, and only there")
        try:
            key.verify(self.game_id)
            if seal is not None:
                check_seal_key(seal, self.game_id)
        except DeckError as exc:
            raise BadProof(str(exc)) from None
        self.keys[seat] = key
        self.commitments[seat] = commitment
        if seal is not None:
            self.seal_keys[seat] = seal.public_key
        if len(self.keys) == self.n:
            self.joint = JointKey(self.game_id, tuple(self.keys[s].public_key for s in range(self.n)))
            self.chains.start(self.n, self.joint)
            assert self.game is not None
            self.engine = new_game(self.game, self.n)

    def _due(self, what: str, deck: str, epoch: int) -> Need:
        """The chain being built, if ``what`` (a step's or a proof's kind) builds it and it is that epoch."""
        need = self.chain_due()
        if need is None or what not in chain_kinds(need) or (need.deck, need.epoch) != (engine_deck(deck), epoch):
            raise NotExpected(f"no {what} of {deck} epoch {epoch} is due")
        return need

    def _progress(self, progress: Progress) -> None:
        """Act on what a chain step or proof completed: tell the engine the
        epoch is done, or halt on a false step, naming its seat."""
        need = self.chain_due()
        if isinstance(progress, FalseStep):
            self._halt(progress.reason, progress.seat, progress.entry)
        elif isinstance(progress, ChainDone):
            assert self.engine is not None and need is not None
            self.engine = apply(self.engine, chain_done(need))

    def _halt(self, reason: str, culprit: int | None, at: int | None = None) -> None:
        """Stop the game; ``at``: the entry that proves it (default: the one
        being applied, which is appended next)."""
        self.halted, self.halted_at, self.culprit = reason, len(self.log) if at is None else at, culprit

    def _shares(self, seat: int, shares: tuple[DecryptionShare, ...]) -> None:
        if self.joint is None:
            raise NotExpected("no shares are owed before every key is in")
        reveal = self.engine.awaiting if self.engine else None
        public = set(reveal.refs) if isinstance(reveal, NeedReveal) else set()
        if self.pending_act is not None:
            public |= set(self.pending_act.cards)  # they open to all once in
        pairs = [(share, self._engine_ref(share.ref)) for share in shares]
        self.shares.store(self.joint, seat, pairs, self.owed_shares().get(seat, set()), public)

    def _engine_ref(self, ref: DeckRef) -> CardRef:
        deck = engine_deck(ref.deck)
        if deck is None:
            raise Malformed(f"there is no deck {ref.deck!r}")
        engine_ref = CardRef(deck, ref.epoch, ref.position)
        if not self.chains.holds(engine_ref):
            raise NotExpected(f"there is no card {engine_ref}")
        return engine_ref

    def _act(self, seat: int, action: object) -> None:
        """A move. One that plays hidden cards waits in ``pending_act`` for its
        author's shares of them (owed from now on); the others apply now."""
        if self.engine is None:
            raise NotExpected("the game has not started")
        if getattr(action, "player", None) != seat:
            raise NotExpected(f"seat {seat} can only act for itself")
        if self.pending_act is not None:
            raise NotExpected(f"seat {self.pending_act.seat}'s last move waits for its cards")
        played = hidden_cards(self.engine, seat, action)
        if not played:
            self.engine = apply(self.engine, action)  # type: ignore[arg-type]
            return
        if not set(played) <= set(self.engine.players[seat].hand):
            raise NotExpected(f"seat {seat} plays cards that are not in its hand")
        move: CardMove = action  # type: ignore[assignment]  # only these play cards (hidden_cards)
        check_for_some_faces(self.engine, move)  # refused now if no faces could make it legal
        self.pending_act = PendingAct(seat, move, played)

    def _play_pending(self) -> bool:
        """Apply the pending act once its author's shares are all in: check
        the shares of its cards (a false one halts the game), open them to
        all, then apply the action. Cards that do not make it legal void it
        (they stay shown; the author moves again). False if it still waits."""
        pending, engine = self.pending_act, self.engine
        assert pending is not None and engine is not None
        if any(pending.seat not in self._sharers(r) for r in pending.cards):
            return False
        self.check_stored(pending.cards)
        self.pending_act = None
        engine = apply(engine, Reveal(tuple((ref, self._open(ref)) for ref in pending.cards)))
        self.suspicion = self.suspicion or clashes_with_private(engine)
        try:
            self.engine = apply(engine, pending.action)
        except EngineError as exc:
            self.engine = engine
            self.voided.append(VoidedAct(len(self.log) - 1, pending.seat, str(exc)))
        return True

    def _check_reveal(self, seat: int, reveal: Audit | Forfeit) -> None:
        assert self.game_id is not None
        if seat in self.audits:
            raise NotExpected(f"seat {seat} already revealed its secrets")
        if seat not in self.keys:
            raise NotExpected(f"seat {seat} has no key to reveal yet")
        if reveal.secret.seat != seat or reveal.secret.game_id != self.game_id:
            raise Malformed("a seat reveals its own secret for this game")
        if reveal.secret.public_key != self.keys[seat].public_key:
            raise Cheating(f"seat {seat} revealed a secret exponent that is not its key")
        try:
            check_seed(self.game_id, self.commitments[seat], reveal.seed)
        except DeckError as exc:
            raise Cheating(str(exc)) from None

    def _forfeit(self, seat: int, forfeit: Forfeit) -> None:
        if self.finished:
            raise NotExpected("the game is over: reveal secrets with an audit, not a forfeit")
        if seat in self.escrowbook.owed_reveals(self.in_play):
            # Its shares leave with it otherwise, and the seat being carried on never would be.
            raise NotExpected(f"seat {seat} owes its shares of a seat being carried on: those first")
        self._check_reveal(seat, forfeit)
        self._play_on(seat, forfeit.secret, forfeit.seed)
        self.forfeit_entries[seat] = len(self.log)  # this entry's index: it is appended next

    def _play_on(self, seat: int, key: SecretKey, seed: Seed) -> None:
        """From now on the fold plays ``seat`` from its secrets (forfeited, or
        carried on): they count as its audit."""
        self.audits[seat] = Audit(seed, key)
        self.forfeited[seat] = PeerSecrets(seat, key, seed)
        need = self.chain_due()
        if need is not None:
            # A step in but not proven: the revealed seed proves it, or shows it false.
            self._progress(self.chains.prove_by_seed(need, seat, seed))
        self.shares.forget_unchecked(seat)

    # ---------------------------------------------------------------- escrow

    def _public_keys(self) -> dict[int, int]:
        return {s: k.public_key for s, k in self.keys.items()}

    def _escrow(self, seat: int, escrow: Escrow) -> None:
        if self.joint is None or self.game_id is None:
            raise NotExpected("an escrow is dealt once every key is in")
        if self.finished:
            raise NotExpected("the game is over")
        self.escrowbook.deal(seat, escrow, self.game_id, self._public_keys()[seat], self.seal_keys)

    def _complaint(self, seat: int, complaint: EscrowComplaint) -> None:
        if self.finished:
            raise NotExpected("the game is over")
        dealer = self.escrowbook.judge(seat, complaint, self.seal_keys)
        # Signed evidence that the dealer sealed a false share: nobody could
        # carry that seat on, so the game stops and the audit names it.
        self._halt(f"seat {dealer} dealt seat {seat} a false share of its {complaint.secret} in escrow", dealer)

    def _carry_on(self, seat: int, target: int, written_after: int) -> None:
        problem = self.carry_on_problem(target, seat)
        if problem is None and written_after < self.term_start:
            # Asked of the relay before the last hand-over: each term counts its own requests.
            problem = f"seat {seat} asked to carry seat {target} on before the relay moved (at entry " \
                      f"{self.term_start - 1}): a request counts only in the relay's term it was written in"
        if problem is None and written_after <= self.escrowbook.back_at.get(target, -1):
            # Written before the target's latest message: it was back by then.
            problem = f"seat {seat} asked to carry seat {target} on before seat {target}'s message at entry " \
                      f"{self.escrowbook.back_at[target]}: it was back by then"
        if problem is not None:
            raise NotExpected(problem)
        self.escrowbook.request(seat, target, self.in_play, self.finished, self.left)

    def _carry_escrowed(self) -> bool:
        """Start handing over for a seat every other seat in play asked to
        carry on; or, with every share of a seat known, rebuild its secrets
        and play it on. False if neither is due."""
        book = self.escrowbook
        if book.settle(self.in_play):
            return True
        if not book.carrying or self.game_id is None:
            return False
        done = book.ready(self._public_keys(), self.commitments, self.game_id)
        match done:
            case Carried(seat, key, seed):
                self._play_on(seat, key, seed)
                book.carried(seat, len(self.log) - 1)  # the entry being applied completed it
            case DealerCheated(seat, reason):
                book.carrying.discard(seat)
                self._halt(reason, seat, len(self.log) - 1)
            case None:
                return False
        return True

    def _audit(self, seat: int, audit: Audit) -> None:
        self._check_reveal(seat, audit)
        self.audits[seat] = audit
        if not self.finished:
            # Revealing secrets mid-game stops it: the revealer's cards are open
            # to all now. An honest peer does this only on proof of cheating.
            self._halt(f"seat {seat} stopped the game and revealed its secrets", None)
            self.stopper = seat

    # ------------------------------------------------------- opening cards

    def _sharers(self, ref: CardRef) -> set[int]:
        """The seats whose share of ``ref`` is known: published, or computable
        from a forfeited seat's secret."""
        return self.shares.sharers(ref, self.forfeited)

    def _open(self, ref: CardRef, own: int | None = None) -> int:
        """The face of ``ref`` from every seat's share (or the others' plus our
        ``own``). A result that is no card proves a shuffle was false (Cheating)."""
        keys = {s: f.key for s, f in self.forfeited.items()}
        mine = (self.me.seat, own) if self.me is not None and own is not None else None
        return self.shares.open(ref, keys, mine)

    def _advance(self) -> None:
        """Apply what the log now allows: carrying a seat on, the conceded
        end, the waiting act, public reveals, what forfeited seats owe (the
        fold does it for them), and our private peeks."""
        while self.engine is not None and self.halted is None:
            if self._carry_escrowed():
                continue
            if self._concedes():
                # Nobody is left to play against: the game is conceded (§6).
                # A move waiting for its cards is dropped with everything else.
                self.pending_act = None
                self.engine = concede(self.engine, self.in_play[0] if self.in_play else None)
                continue
            if self.pending_act is not None and self._play_pending():
                continue
            need = self.engine.awaiting
            if isinstance(need, NeedReveal) and all(len(self._sharers(ref)) == self.n for ref in need.refs):
                self.check_stored(need.refs)  # a false one halts the game (see receive)
                faces = tuple((ref, self._open(ref)) for ref in need.refs)
                self.engine = apply(self.engine, Reveal(faces))
                self.suspicion = self.suspicion or clashes_with_private(self.engine)
                continue
            if self.forfeited and self._play_forfeited():
                continue
            peek = self._my_peek() if self.suspicion is None else None
            if peek is not None:
                try:
                    self.engine = apply(self.engine, peek)
                except EngineError as exc:
                    self.suspicion = str(exc)
                    return
                continue
            return

    def _concedes(self) -> bool:
        """Fewer than two seats are in play and the game has not ended. A deck
        chain already begun is finished first (the seats gone have their steps
        derived): the audit re-runs every chain of the log, so none may be
        left half built; no card of it is dealt."""
        assert self.engine is not None
        if len(self.in_play) >= 2 or self.engine.phase in (Phase.SCORING, Phase.OVER):
            return False
        need = self.chain_due()
        return need is None or self.chains.turn(need) == 0

    def _play_forfeited(self) -> bool:
        """One duty of a forfeited seat, done by the fold; False if none is due.
        Every replica does the same, in the same order (protocol.md §6.6)."""
        assert self.engine is not None
        seeds = {s: f.seed for s, f in self.forfeited.items()}
        duty = next_duty(self.engine, self.chain_due(), self.chains, seeds, self._sharers, self.n, self.safe_tunnels)
        match duty:
            case DeriveStep(need, seat, step):
                self.derived_steps.append((need, step))
                self._progress(self.chains.add_step(need, seat, seat, step.ciphertexts, proven=True))
            case OpenCards(refs):
                self.check_stored(refs)
                self.engine = apply(self.engine, Reveal(tuple((r, self._open(r)) for r in refs)))
                self.suspicion = self.suspicion or clashes_with_private(self.engine)
            case CaretakerMove(action):
                self.engine = apply(self.engine, action)
            case None:
                return False
        return True

    def _my_peek(self) -> Peek | None:
        if self.me is None or self.engine is None:
            return None
        me = self.me.seat
        ps = self.engine.players[me]
        others = set(range(self.n)) - {me}
        ready = [r for r in ps.hand + ps.offered if self.engine.face(r) is None and others <= self._sharers(r)]
        if not ready:
            return None
        try:
            self.check_stored(ready)  # the others' proofs, before we trust the cards
            faces = [(r, self._open(r, own_share(self.me.key, self.ciphertext(r)))) for r in ready]
        except TableError as exc:
            # A false share or shuffle that only we can see: the peer reveals
            # its secrets, which halts every replica and lets the audit name it.
            self.suspicion = str(exc)
            return None
        return Peek(me, tuple(faces))


def _claimed(raw: bytes) -> tuple[int | None, int | None]:
    """Who a (possibly bad) entry claims to be from, for the rejection record."""
    try:
        envelope = open_envelope(raw)
    except TableError:
        return None, None
    return envelope.seat, envelope.seq
