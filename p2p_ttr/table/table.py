"""The replicated table: a deterministic fold over the signed, ordered log.

Every peer feeds the same log entries, in the same order, into its own
``Table``; every table reaches the same public state (``digest``) and the same
obligations. A table may hold one seat's secrets (``PeerSecrets``): then it
also opens that seat's privately drawn cards; an auditor's table holds none.

``receive(raw)`` checks an entry completely before anything changes: framing,
game id, signature, sequence number, log head, and what the message claims
(proofs, turn, legality). A refused entry raises a ``TableError`` (or an
engine error), is recorded in ``rejected`` and changes nothing else.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from p2p_ttr.deck import (
    Ciphertext,
    DeckCreation,
    DecryptionShare,
    JointKey,
    KeyAnnouncement,
    SecretKey,
    Seed,
    SeedCommitment,
    check_seed,
    own_share,
    RemaskStep,
    ShuffleStep,
    remask_step,
    shuffle_step,
    verify_shares,
    InvalidChainProof,
    RemaskProof,
    ShuffleProof,
    verify_remask,
    verify_shuffles,
)
from p2p_ttr.deck import CardRef as DeckRef
from p2p_ttr.deck.elgamal import decrypt_with_exponent, decrypt_with_shares
from p2p_ttr.deck.encoding import CardCodec
from p2p_ttr.deck.errors import DeckError
from p2p_ttr.engine.board import europe
from p2p_ttr.engine.caretaker import caretaker_move
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.engine.events import BuildStation, ClaimRoute, Event, Pass, PayTunnel, Peek, Remasked, Reveal, Shuffled
from p2p_ttr.engine.rules import actors, apply, check_for_some_faces, clashes_with_private, new_game
from p2p_ttr.engine.state import GameState, NeedRemask, NeedReveal, NeedShuffle, public_digest
from p2p_ttr.engine.view import view_for

from .envelope import Envelope, check_signature, open_envelope
from .errors import BadProof, Cheating, Malformed, NotExpected, Replay, TableError, UnknownHead, WrongGame
from .messages import (
    Act,
    Audit,
    Forfeit,
    Keys,
    Message,
    ProveRemask,
    ProveShuffle,
    Remask,
    Seat,
    Seating,
    Shares,
    Shuffle,
    message_from_wire,
)

DECK_NAMES = {Deck.TRAIN: "train", Deck.TICKETS: "tickets", Deck.LONG: "long"}


def deck_ref(ref: CardRef) -> DeckRef:
    """The deck library's name for an engine card reference."""
    return DeckRef(DECK_NAMES[ref.deck], ref.epoch, ref.pos)


def genesis(game_id: bytes) -> bytes:
    return hashlib.sha256(b"p2p_ttr/log/v1/genesis" + game_id).digest()


def chain(head: bytes, raw: bytes) -> bytes:
    """The log head after appending the entry ``raw``."""
    return hashlib.sha256(head + hashlib.sha256(raw).digest()).digest()


@dataclass(frozen=True)
class PeerSecrets:
    """One seat's secrets for one game. Never logged; repr redacts."""

    seat: int
    key: SecretKey
    seed: Seed

    def __repr__(self) -> str:
        return f"PeerSecrets(seat={self.seat}, key=<redacted>, seed=<redacted>)"


@dataclass(frozen=True)
class Obligation:
    """Something a seat owes the table now."""

    seat: int
    what: str  # "keys", "shuffle", "remask", "shuffle proof", "remask proof", "shares", "move", "audit"
    detail: str = ""  # in words: which deck, which cards and for whom

    def describe(self, names: tuple[str, ...] = ()) -> str:
        who = names[self.seat] if self.seat < len(names) else f"seat {self.seat}"
        return f"{who} owes {self.what}" + (f" ({self.detail})" if self.detail else "")


@dataclass(frozen=True)
class Rejection:
    seat: int | None  # the seat the message claims to come from, if it says
    seq: int | None
    code: str
    reason: str


@dataclass
class _Chain:
    """A deck epoch being built by the seats in turn (a shuffle or a remask).
    It is done when every seat's step is in and proven."""

    inputs: tuple[Ciphertext, ...]
    steps: list[tuple[Ciphertext, ...]] = field(default_factory=list)
    proven: set[int] = field(default_factory=set)  # seats whose step is proven
    # Proofs in the log not checked yet, with their entry: they are checked
    # together once every step and proof is in (one batch for the chain).
    proofs: dict[int, tuple[ShuffleProof | RemaskProof, int]] = field(default_factory=dict)

    @property
    def output(self) -> tuple[Ciphertext, ...]:
        return self.steps[-1] if self.steps else self.inputs

    def step_input(self, seat: int) -> tuple[Ciphertext, ...]:
        return self.steps[seat - 1] if seat else self.inputs


@dataclass(frozen=True)
class PendingAct:
    """An act in the log that plays hidden cards (a pass: the whole hand): it
    waits for its author's shares of them, then opens them and is applied
    (or voided)."""

    seat: int
    action: ClaimRoute | BuildStation | PayTunnel | Pass
    cards: tuple[CardRef, ...]


@dataclass(frozen=True)
class VoidedAct:
    """An act whose cards, once open, did not make it legal (they did not pay,
    or a pass's hand could still play): it changed nothing but showing them,
    and its author moves again."""

    entry: int
    seat: int
    reason: str


class Table:
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
        self.game_id: bytes | None = None
        self.seats: tuple[Seat, ...] = ()
        self.log: list[bytes] = []
        self.heads: list[bytes] = []
        self._head_index: dict[bytes, int] = {}
        self.last_seq: dict[int, int] = {}
        self.rejected: list[Rejection] = []
        self.keys: dict[int, KeyAnnouncement] = {}
        self.commitments: dict[int, SeedCommitment] = {}
        self.joint: JointKey | None = None
        self.chains: dict[tuple[Deck, int], _Chain] = {}
        self.shares: dict[CardRef, dict[int, DecryptionShare]] = {}
        # Stored shares whose proofs this replica has not checked yet (card -> seats).
        self.unchecked: dict[CardRef, set[int]] = {}
        self.engine: GameState | None = None
        self.audits: dict[int, Audit] = {}
        # Seats that left for good, with their revealed secrets: the fold
        # computes their shares and chain steps and plays their moves.
        self.forfeited: dict[int, PeerSecrets] = {}
        # Chain steps the fold derived for forfeited seats, with the chain
        # they extend, in order (verify hands them to the deck audit).
        self.forfeit_entries: dict[int, int] = {}  # seat -> index of its forfeit in the log
        self.derived_steps: list[tuple[NeedShuffle | NeedRemask, ShuffleStep | RemaskStep]] = []
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

    # ------------------------------------------------------------------ views

    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def head(self) -> bytes:
        return self.heads[-1] if self.heads else b"\0" * 32

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
        return self.chains[(ref.deck, ref.epoch)].output[ref.pos]

    # --------------------------------------------------------------- receive

    def receive(self, raw: bytes) -> Envelope:
        """Check and apply one log entry; on refusal record it and re-raise."""
        try:
            envelope = self._accept(raw)
        except (TableError, EngineError) as exc:
            seat, seq = _claimed(raw)
            self.rejected.append(Rejection(seat, seq, exc.code, str(exc)))
            raise
        self.log.append(raw)
        head = chain(self.head, raw)
        self.heads.append(head)
        self._head_index[head] = len(self.heads) - 1
        self.last_seq[envelope.seat] = envelope.seq
        if self.halted is not None:
            return envelope  # a halted game does not advance: only secrets come in now
        try:
            self._advance()
        except (TableError, EngineError) as exc:
            # The entry itself was valid; what it completed is impossible.
            self.halted, self.halted_at = str(exc), len(self.log) - 1
        return envelope

    def _accept(self, raw: bytes) -> Envelope:
        envelope = open_envelope(raw)
        message = message_from_wire(envelope.body)
        if self.game_id is None:
            if not isinstance(message, Seating) or envelope.seat != 0 or envelope.seq != 1:
                raise NotExpected("a game starts with seat 0's seating")
            if envelope.head != b"\0" * 32:
                raise UnknownHead("the seating must be written at the empty log")
            check_signature(envelope, message.seats[0].identity)
            self.game_id = envelope.game_id
            self.seats = message.seats
            self.heads = [genesis(envelope.game_id)]
            self._head_index = {self.heads[0]: 0}
            return envelope
        if envelope.game_id != self.game_id:
            raise WrongGame(f"message for game {envelope.game_id.hex()[:8]}, this is {self.game_id.hex()[:8]}")
        if envelope.seat >= self.n:
            raise Malformed(f"there is no seat {envelope.seat} in this game")
        check_signature(envelope, self.seats[envelope.seat].identity)
        if envelope.seq <= self.last_seq.get(envelope.seat, 0):
            raise Replay(f"seat {envelope.seat} already sent message {envelope.seq}")
        if envelope.head not in self._head_index:
            raise UnknownHead(f"seat {envelope.seat} wrote at a log head this table never had")
        self._apply(envelope.seat, message)
        return envelope

    # ---------------------------------------------------------- per message

    def _apply(self, seat: int, message: Message) -> None:
        if self.halted is not None and not isinstance(message, Audit):
            raise NotExpected(f"the game is halted ({self.halted}); only secrets may still be revealed")
        if seat in self.forfeited:
            raise NotExpected(f"seat {seat} forfeited: the table plays its seat now")
        match message:
            case Seating():
                raise NotExpected("the game already has its seating")
            case Keys(key, commitment):
                self._keys(seat, key, commitment)
            case Shuffle(step) | Remask(step):
                need = self._due(NeedShuffle if isinstance(message, Shuffle) else NeedRemask, message.KIND,
                                 step.deck, step.epoch)
                self._chain_step(seat, need.deck, need.epoch, step.seat, step.ciphertexts)
            case ProveShuffle(proof) | ProveRemask(proof):
                need = self._due(NeedShuffle if isinstance(message, ProveShuffle) else NeedRemask, message.KIND,
                                 proof.deck, proof.epoch)
                self._chain_proof(seat, need, proof)
            case Shares(shares):
                reveal = self.engine.awaiting if self.engine else None
                public = set(reveal.refs) if isinstance(reveal, NeedReveal) else set()
                if self.pending_act is not None:
                    public |= set(self.pending_act.cards)  # they open to all once in
                self._shares(seat, shares, self.owed_shares().get(seat, set()), public)
            case Act(action):
                self._act(seat, action)
            case Audit():
                self._audit(seat, message)
            case Forfeit():
                self._forfeit(seat, message)

    def _keys(self, seat: int, key: KeyAnnouncement, commitment: SeedCommitment) -> None:
        assert self.game_id is not None
        if seat in self.keys:
            raise NotExpected(f"seat {seat} already announced its key")
        if key.seat != seat or commitment.seat != seat:
            raise Malformed("a key announcement names its own seat")
        try:
            key.verify(self.game_id)
        except DeckError as exc:
            raise BadProof(str(exc)) from None
        self.keys[seat] = key
        self.commitments[seat] = commitment
        if len(self.keys) == self.n:
            self.joint = JointKey(self.game_id, tuple(self.keys[s].public_key for s in range(self.n)))
            self.engine = new_game(self.n)

    def _due(self, kind: type[NeedShuffle] | type[NeedRemask], what: str, deck: str,
             epoch: int) -> NeedShuffle | NeedRemask:
        need = self.chain_due()
        if not isinstance(need, kind) or (DECK_NAMES[need.deck], need.epoch) != (deck, epoch):
            raise NotExpected(f"no {what} of {deck} epoch {epoch} is due")
        return need

    def chain_due(self) -> NeedShuffle | NeedRemask | None:
        """The deck epoch the seats are building now (a shuffle or a re-masking), if any."""
        need = self.engine.awaiting if self.engine else None
        return need if isinstance(need, (NeedShuffle, NeedRemask)) else None

    def chain_inputs(self, need: NeedShuffle | NeedRemask) -> tuple[Ciphertext, ...]:
        """What the first seat of that chain starts from."""
        if isinstance(need, NeedShuffle):
            return DeckCreation(DECK_NAMES[need.deck], need.epoch, need.cards).ciphertexts()
        return tuple(self.ciphertext(ref) for ref in need.refs)

    def _chain_step(self, seat: int, deck: Deck, epoch: int, claimed: int, cts: tuple[Ciphertext, ...]) -> None:
        need = self.chain_due()
        assert need is not None and self.engine is not None
        built = self.chains.get((deck, epoch))
        turn = len(built.steps) if built else 0
        if seat != turn or claimed != seat:
            raise NotExpected(f"it is seat {turn}'s step of {DECK_NAMES[deck]} epoch {epoch}, not seat {seat}'s")
        size = len(need.cards) if isinstance(need, NeedShuffle) else len(need.refs)
        if len(cts) != size:
            raise Malformed(f"{DECK_NAMES[deck]} epoch {epoch} has {size} cards, the step {len(cts)}")
        if built is None:
            built = self.chains[(deck, epoch)] = _Chain(self.chain_inputs(need))
        built.steps.append(cts)
        self._finish_chain(need, built)

    def _finish_chain(self, need: NeedShuffle | NeedRemask, built: _Chain) -> None:
        """Once every step and every proof is in: check the proofs (a false one
        halts the game, naming its seat, at its own entry), then tell the
        engine the epoch is done. No card of it is dealt, shared or opened
        before."""
        assert self.engine is not None and self.joint is not None
        if len(built.steps) < self.n or len(built.proven) + len(built.proofs) < self.n:
            return
        pending, built.proofs = sorted(built.proofs.items()), {}
        try:
            self._check_proofs(need, built, [(seat, proof) for seat, (proof, _) in pending])
        except InvalidChainProof as exc:
            seat = exc.seat if exc.seat is not None else pending[0][0]
            self._halt(f"seat {seat} sent a false proof of its step of {DECK_NAMES[need.deck]} epoch "
                       f"{need.epoch} ({exc})", seat, at=dict(pending)[seat][1])
            return
        built.proven.update(seat for seat, _ in pending)
        if len(built.proven) == self.n:
            done: Event = Shuffled(need.deck, need.epoch) if isinstance(need, NeedShuffle) else Remasked(need.deck, need.epoch)
            self.engine = apply(self.engine, done)

    def chain_step(self, need: NeedShuffle | NeedRemask, seat: int) -> ShuffleStep | RemaskStep:
        """Seat's step of the chain being built, as the deck library's record."""
        built = self.chains[(need.deck, need.epoch)]
        kind = ShuffleStep if isinstance(need, NeedShuffle) else RemaskStep
        return kind(DECK_NAMES[need.deck], need.epoch, seat, built.steps[seat])

    def _chain_proof(self, seat: int, need: NeedShuffle | NeedRemask, proof: ShuffleProof | RemaskProof) -> None:
        """Take seat's proof of its step, owed once the step is in. It is
        checked with the chain's others when the last one comes (a false one
        is accepted into the log, as signed evidence, and halts the game)."""
        built = self.chains.get((need.deck, need.epoch))
        if proof.seat != seat:
            raise Malformed("a proof names its author's seat")
        if built is None or seat >= len(built.steps) or seat in built.proven or seat in built.proofs:
            raise NotExpected(f"seat {seat} owes no proof of {DECK_NAMES[need.deck]} epoch {need.epoch} now")
        built.proofs[seat] = (proof, len(self.log))  # this entry's index: it is appended next
        self._finish_chain(need, built)

    def false_pending_proof(self) -> tuple[int, int, str] | None:
        """(seat, entry, reason) of the first false proof among those the chain
        being built holds unchecked, if any: for an audit of a log that ends
        while a seat withholds the chain's last proof."""
        need = self.chain_due()
        built = self.chains.get((need.deck, need.epoch)) if need is not None else None
        if need is None or built is None:
            return None
        for seat, (proof, entry) in sorted(built.proofs.items()):
            try:
                self._check_proofs(need, built, [(seat, proof)])
            except InvalidChainProof as exc:
                return seat, entry, str(exc)
        return None

    def _check_proofs(self, need: NeedShuffle | NeedRemask, built: _Chain,
                      proofs: list[tuple[int, ShuffleProof | RemaskProof]]) -> None:
        """Check these seats' proofs of their steps of ``built`` (shuffle proofs
        in one batch); raise InvalidChainProof naming the first false one."""
        assert self.joint is not None
        shuffles = [(self.chain_step(need, seat), built.step_input(seat), proof)
                    for seat, proof in proofs if isinstance(proof, ShuffleProof)]
        if shuffles:
            verify_shuffles(self.joint, shuffles)
        for seat, proof in proofs:
            if isinstance(proof, RemaskProof):
                verify_remask(self.joint, self.chain_step(need, seat), built.step_input(seat), proof)

    def _halt(self, reason: str, culprit: int | None, at: int | None = None) -> None:
        """Stop the game; ``at``: the entry that proves it (default: the one
        being applied, which is appended next)."""
        self.halted, self.halted_at, self.culprit = reason, len(self.log) if at is None else at, culprit

    def _shares(self, seat: int, shares: tuple[DecryptionShare, ...], owed: set[CardRef],
                public: set[CardRef]) -> None:
        """Check and store ``seat``'s shares; each must be owed now. Proofs of
        shares of ``public`` cards (about to be opened to all) are checked now,
        the others' when first used (``check_stored``)."""
        if self.joint is None:
            raise NotExpected("no shares are owed before every key is in")
        refs = []
        for share in shares:
            if share.seat != seat:
                raise Malformed("a share carries its author's seat")
            ref = self._engine_ref(share.ref)
            if ref not in owed:
                raise NotExpected(f"seat {seat} owes no share for card {ref} now")
            refs.append(ref)
        if len(set(refs)) != len(refs):
            raise Malformed("the same share is sent twice")
        now = [(s, r) for s, r in zip(shares, refs) if self.eager_proofs or r in public]
        if self.audit_secret is None and now:
            try:
                verify_shares(self.joint, [(s, self.ciphertext(r)) for s, r in now])
            except DeckError as exc:
                raise BadProof(str(exc)) from None
        for share, ref in zip(shares, refs):
            self.shares.setdefault(ref, {})[seat] = share
            if self.audit_secret is None and not (self.eager_proofs or ref in public):
                self.unchecked.setdefault(ref, set()).add(seat)

    def check_stored(self, refs: Iterable[CardRef]) -> None:
        """Check the proofs of the stored shares of ``refs`` not checked yet;
        raise BadProof naming the seat of a bad one (and leave them unchecked)."""
        todo = [(self.shares[r][s], r) for r in refs for s in sorted(self.unchecked.get(r, ()))]
        if not todo:
            return
        assert self.joint is not None
        try:
            verify_shares(self.joint, [(share, self.ciphertext(r)) for share, r in todo])
        except DeckError as exc:
            raise BadProof(f"a share stored earlier is false: {exc}") from None
        for _, r in todo:
            self.unchecked.pop(r, None)

    def _engine_ref(self, ref: DeckRef) -> CardRef:
        for deck, name in DECK_NAMES.items():
            if name == ref.deck:
                engine_ref = CardRef(deck, ref.epoch, ref.position)
                if (deck, ref.epoch) not in self.chains or ref.position >= len(self.chains[(deck, ref.epoch)].output):
                    raise NotExpected(f"there is no card {engine_ref}")
                return engine_ref
        raise Malformed(f"there is no deck {ref.deck!r}")

    def _act(self, seat: int, action: object) -> None:
        """A move. One that plays hidden cards waits in ``pending_act`` for its
        author's shares of them (owed from now on); the others apply now."""
        if self.engine is None:
            raise NotExpected("the game has not started")
        if getattr(action, "player", None) != seat:
            raise NotExpected(f"seat {seat} can only act for itself")
        if self.pending_act is not None:
            raise NotExpected(f"seat {self.pending_act.seat}'s last move waits for its cards")
        played: tuple[CardRef, ...] = ()
        if isinstance(action, (ClaimRoute, BuildStation, PayTunnel)):
            played = tuple(r for r in action.cards if r not in self.engine.public)
        elif isinstance(action, Pass):
            # A pass shows the whole hand: that nothing in it can be played is
            # what makes it legal, and every replica must be able to tell.
            played = tuple(r for r in self.engine.players[seat].hand if r not in self.engine.public)
        if not played:
            self.engine = apply(self.engine, action)  # type: ignore[arg-type]
            return
        if not set(played) <= set(self.engine.players[seat].hand):
            raise NotExpected(f"seat {seat} plays cards that are not in its hand")
        assert isinstance(action, (ClaimRoute, BuildStation, PayTunnel, Pass))
        check_for_some_faces(self.engine, action)  # refused now if no faces could make it legal
        self.pending_act = PendingAct(seat, action, played)

    def _play_pending(self) -> bool:
        """Apply the pending act once its author's shares are all in: check
        the shares of its cards (a false one halts the game), open them to
        all, then apply the action. Cards that do not pay for it void it
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
        self._check_reveal(seat, forfeit)
        self.audits[seat] = Audit(forfeit.seed, forfeit.secret)
        self.forfeited[seat] = PeerSecrets(seat, forfeit.secret, forfeit.seed)
        self._prove_by_seed(seat, forfeit.seed)
        for seats in self.unchecked.values():
            seats.discard(seat)  # its shares are computed from now on: its published ones are not used
        self.forfeit_entries[seat] = len(self.log)  # this entry's index: it is appended next

    def _prove_by_seed(self, seat: int, seed: Seed) -> None:
        """A seat that leaves with its step of the chain being built in but not
        proven (its proof missing, or in but not checked yet): its revealed
        seed proves the step, or shows it false (halt)."""
        need = self.chain_due()
        built = self.chains.get((need.deck, need.epoch)) if need is not None else None
        if need is None or built is None or seat >= len(built.steps) or seat in built.proven:
            return
        built.proofs.pop(seat, None)  # its seed decides now, whatever proof it sent
        assert self.joint is not None
        make = shuffle_step if isinstance(need, NeedShuffle) else remask_step
        if make(self.joint, seed, seat, DECK_NAMES[need.deck], need.epoch, built.step_input(seat)).ciphertexts \
                != built.steps[seat]:
            self._halt(f"seat {seat}'s step of {DECK_NAMES[need.deck]} epoch {need.epoch} is not the one "
                       "its revealed seed makes", seat)
            return
        built.proven.add(seat)
        self._finish_chain(need, built)

    def _audit(self, seat: int, audit: Audit) -> None:
        self._check_reveal(seat, audit)
        self.audits[seat] = audit
        if not self.finished:
            # Revealing secrets mid-game stops it: the revealer's cards are open
            # to all now. An honest peer does this only on proof of cheating.
            self._halt(f"seat {seat} stopped the game and revealed its secrets", None)
            self.stopper = seat

    # ------------------------------------------------------- opening cards

    def _codec(self, ref: CardRef) -> CardCodec:
        board = europe()
        if ref.deck is Deck.TRAIN:
            cards: Iterable[int] = range(board.n_cards)
        elif ref.deck is Deck.TICKETS:
            cards = (t.id for t in board.regular_tickets)
        else:
            cards = (t.id for t in board.long_tickets)
        return _codec(DECK_NAMES[ref.deck], tuple(cards))

    def _open(self, ref: CardRef, own: int | None = None) -> int:
        """The face of ``ref`` from every seat's published share (or the others'
        plus our ``own``). A result that is no card proves a shuffle was false."""
        ciphertext = self.ciphertext(ref)
        try:
            if self.audit_secret is not None:
                (plain,) = decrypt_with_exponent([ciphertext], self.audit_secret)
            else:
                # A forfeited seat's share is always computed from its secret,
                # even where it had published one (protocol.md §6, Forfeit).
                have = self.shares.get(ref, {})
                parts = [have[s].share for s in sorted(have) if s not in self.forfeited]
                if own is not None:
                    parts.append(own)
                mine = self.me.seat if self.me is not None and own is not None else None
                parts += [own_share(f.key, ciphertext) for s, f in sorted(self.forfeited.items()) if s != mine]
                plain = decrypt_with_shares(ciphertext, parts)
            return self._codec(ref).card(plain)
        except DeckError:
            raise Cheating(
                f"card {ref} decrypts to no card of its deck: a shuffle or share was false "
                "(run `ttr verify` on the log to find the seat)"
            ) from None

    def _advance(self) -> None:
        """Apply what the log now allows: public reveals, our private peeks,
        and whatever forfeited seats owe (the fold does it for them)."""
        while self.engine is not None:
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

    def _sharers(self, ref: CardRef) -> set[int]:
        """The seats whose share of ``ref`` is known: published, or computable
        from a forfeited seat's secret."""
        return set(self.shares.get(ref, {})) | set(self.forfeited)

    def _play_forfeited(self) -> bool:
        """One duty of a forfeited seat, done by the fold; False if none is due.
        Every replica does the same, in the same order (protocol.md §6.6)."""
        assert self.engine is not None
        need = self.chain_due()
        if need is not None:
            built = self.chains.get((need.deck, need.epoch))
            turn = len(built.steps) if built else 0
            secrets = self.forfeited.get(turn)
            if secrets is None:
                return False  # a live seat's step is due; nothing else can happen first
            assert self.joint is not None
            inputs = built.output if built else self.chain_inputs(need)
            make = shuffle_step if isinstance(need, NeedShuffle) else remask_step
            step = make(self.joint, secrets.seed, turn, DECK_NAMES[need.deck], need.epoch, inputs)
            self.derived_steps.append((need, step))
            self.chains.setdefault((need.deck, need.epoch), _Chain(inputs)).proven.add(turn)  # computed here
            self._chain_step(turn, need.deck, need.epoch, turn, step.ciphertexts)
            return True
        for seat in sorted(self.forfeited):
            ps = self.engine.players[seat]
            # Its cards go public as soon as every other seat's share is in.
            openable = tuple(r for r in ps.hand + ps.tickets + ps.offered
                             if r not in self.engine.public and len(self._sharers(r)) == self.n)
            if openable:
                self.check_stored(openable)
                self.engine = apply(self.engine, Reveal(tuple((r, self._open(r)) for r in openable)))
                self.suspicion = self.suspicion or clashes_with_private(self.engine)
                return True
        for seat in sorted(self.forfeited):
            ps = self.engine.players[seat]
            if seat not in actors(self.engine) or any(r not in self.engine.public for r in ps.hand + ps.offered):
                continue
            action = caretaker_move(view_for(self.engine, seat), seat)
            if action is not None:
                self.engine = apply(self.engine, action)
                return True
        return False

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

    # ---------------------------------------------------------- obligations

    def obligations(self) -> list[Obligation]:
        """Who owes what now, in seat order; the same on every peer."""
        if self.game_id is None:
            return []
        out: list[Obligation] = []
        if len(self.keys) < self.n:
            return [Obligation(s, "keys") for s in range(self.n) if s not in self.keys]
        if self.halted is not None or (self.engine is not None and self.engine.over):
            return [Obligation(s, "audit") for s in range(self.n) if s not in self.audits]
        need = self.chain_due()
        if need is not None:
            built = self.chains.get((need.deck, need.epoch))
            what = "shuffle" if isinstance(need, NeedShuffle) else "remask"
            epoch = f"{DECK_NAMES[need.deck]} epoch {need.epoch}"
            if not built or len(built.steps) < self.n:
                out.append(Obligation(len(built.steps) if built else 0, what, epoch))
            out += [Obligation(s, f"{what} proof", epoch) for s in range(len(built.steps) if built else 0)
                    if built is not None and s not in built.proven and s not in built.proofs]
        reveal = self.engine.awaiting if self.engine is not None else None
        for seat, refs in sorted(self.owed_shares().items()):
            public = set(reveal.refs) if isinstance(reveal, NeedReveal) else set()
            if self.pending_act is not None and seat == self.pending_act.seat:
                playing = refs & set(self.pending_act.cards)
                out.append(Obligation(seat, "shares", f"{len(playing)} of the cards its move plays"))
                refs = refs - playing
                if not refs:
                    continue
            for_whom = sorted({self._holder(r) for r in refs if r not in public} - {None})  # type: ignore[type-var]
            parts = []
            if refs & public:
                parts.append(f"{len(refs & public)} to reveal to all")
            if for_whom:
                parts.append(f"{len(refs - public)} drawn by seat{'s' if len(for_whom) > 1 else ''} {', '.join(map(str, for_whom))}")
            out.append(Obligation(seat, "shares", "; ".join(parts)))
        if not out and self.engine is not None:
            out += [Obligation(p, "move") for p in actors(self.engine)]
        return out

    def _holder(self, ref: CardRef) -> int | None:
        assert self.engine is not None
        for p, ps in enumerate(self.engine.players):
            if ref in ps.hand or ref in ps.offered:
                return p
        return None

    def owed_shares(self) -> dict[int, set[CardRef]]:
        """The decryption shares each seat owes now: for a public reveal, and
        for every card a player drew and cannot read yet."""
        owed: dict[int, set[CardRef]] = {}
        if self.engine is None:
            return owed
        if self.pending_act is not None and self.pending_act.seat not in self.forfeited:
            author = self.pending_act.seat
            mine = {r for r in self.pending_act.cards if author not in self.shares.get(r, {})}
            if mine:
                owed[author] = mine
        need = self.engine.awaiting
        live = [s for s in range(self.n) if s not in self.forfeited]  # the fold computes the others' shares
        if isinstance(need, NeedReveal):
            for ref in need.refs:
                for s in live:
                    if s not in self.shares.get(ref, {}):
                        owed.setdefault(s, set()).add(ref)
        for p, ps in enumerate(self.engine.players):
            for ref in ps.hand + ps.offered:
                if ref in self.engine.public:
                    continue
                for s in live:
                    if s != p and s not in self.shares.get(ref, {}):
                        owed.setdefault(s, set()).add(ref)
        return owed


_CODECS: dict[tuple[str, tuple[int, ...]], CardCodec] = {}


def _codec(deck: str, cards: tuple[int, ...]) -> CardCodec:
    # Building a codec hashes every card into the group: do it once per deck.
    key = (deck, cards)
    if key not in _CODECS:
        _CODECS[key] = CardCodec(deck, cards)
    return _CODECS[key]


def _claimed(raw: bytes) -> tuple[int | None, int | None]:
    """Who a (possibly bad) entry claims to be from, for the rejection record."""
    try:
        envelope = open_envelope(raw)
    except TableError:
        return None, None
    return envelope.seat, envelope.seq
