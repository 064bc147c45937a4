"""The replicated table: a deterministic fold over the signed, ordered log.

Every peer feeds the same log entries, in the same order, into its own
``Table``; every table reaches the same public state (``digest``) and the same
obligations. A table may hold one seat's secrets (``PeerSecrets``): then it
also opens that seat's privately drawn cards; an auditor's table holds none.

The table is the fold: it reads each message and hands it to the part that
owns it, then advances the game as far as the log allows. Its parts:

- ``logchain.LogChain``: the entries, their hash chain, sequence numbers;
- ``keyring.KeyRing``: every seat's keys; with the last, the ``KeyedSeating``
  the game's first state is made from (``opening_state``);
- ``gameplay.GamePlay``: the game under way from that state on, advanced as
  far as the log allows;
- ``deckbook.DeckBook``: the deck epochs' chains and the decryption shares,
  and opening cards with them;
- ``acts``: moves that wait for their hidden cards;
- ``reveals.Reveals``: the secrets seats revealed, and the seats that left;
- ``forfeits``: what the fold does for seats that left;
- ``escrowbook.EscrowBook``: escrow deals, and carrying a vanished seat on;
- ``halting.Halting``: the halt and its blame;
- ``relayterms.RelayTerms``: who relays, and each hand-over;
- ``obligations``: who owes what now.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from p2p_ttr.deck import CardCodec, Ciphertext, JointKey, KeyAnnouncement, SeedCommitment
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.state import GameState, public_digest

from .acts import PendingAct, VoidedAct
from .cards import codec_for, engine_deck
from .chains import ChainBook, Need, chain_kinds, check_source
from .deckbook import DeckBook
from .decoded import DecodedEntry, decoded_for
from .envelope import Envelope
from .errors import NotExpected, TableError
from .escrowbook import Blocked, EscrowBook
from .gameplay import GamePlay
from .halting import Halting
from .keyring import KeyedSeating, KeyRing, PeerSecrets, opening_state
from .logchain import LogChain
from .messages import (
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
from .rejections import MAX_REJECTIONS, Rejection, rejection_of
from .relaying import EMPTY_HEAD, HandedOver
from .relayterms import MAX_REACH, RelayTerms
from .reveals import Reveals
from .sharebook import ShareBook

if TYPE_CHECKING:  # a pool is `ttr verify`'s; a player's process never loads multiprocessing
    from .checkpool import CheckPool

__all__ = ["MAX_REACH", "MAX_REJECTIONS", "PeerSecrets", "Rejection", "Table"]


class Table:
    """One replica of the game: fed the log entry by entry (``receive``), it
    holds the public game (``engine``), the deck (``chains``, ``shares``), and
    who owes what (``obligations``); with a seat's secrets it reads that
    seat's cards too."""

    def __init__(self, me: PeerSecrets | None = None, audit_secret: int | None = None,
                 eager_proofs: bool = False, *, pool: CheckPool | None = None,
                 decrypted_ahead: Callable[[Ciphertext, int], int | None] | None = None) -> None:
        """``me``: this seat's secrets, to read its own cards. The others are
        ``ttr verify``'s (sharebook.py, chains.py): ``audit_secret``, the joint
        secret of a finished log; ``eager_proofs``, every proof checked on
        arrival, to name the entry carrying a bad one; ``pool``, its workers;
        ``decrypted_ahead``, the faces they opened ahead."""
        self.me = me
        self.entries = LogChain()
        self.rejected: list[Rejection] = []
        self.seating: Seating | None = None  # the log's first entry: who plays, and which game
        self.keyring = KeyRing()
        self.deck = DeckBook(self.codec, audit_secret, eager_proofs, pool, decrypted_ahead)
        self.reveals = Reveals()
        self.escrowbook = EscrowBook()  # none until the seating asks for escrow
        self.halting = Halting()
        self.relays = RelayTerms()
        # The game under way, from the keyed seating on: the engine's first state is made from it.
        self.play: GamePlay | None = None

    def hold_secrets(self, secrets: PeerSecrets) -> None:
        """From now on this replica reads ``secrets.seat``'s own cards."""
        self.me = secrets

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
    def game(self) -> Game | None:
        """The game the seating names (board, rules, variant)."""
        return self.seating.game if self.seating is not None else None

    @property
    def keys(self) -> dict[int, KeyAnnouncement]:
        return self.keyring.keys

    @property
    def commitments(self) -> dict[int, SeedCommitment]:
        return self.keyring.commitments

    @property
    def joint(self) -> JointKey | None:
        return self.play.seated.joint if self.play is not None else None

    @property
    def engine(self) -> GameState | None:
        """The game's public state (with our own cards' faces), once every key is in."""
        return self.play.engine if self.play is not None else None

    @property
    def pending_act(self) -> PendingAct | None:
        return self.play.pending_act if self.play is not None else None

    @property
    def voided(self) -> list[VoidedAct]:
        return self.play.voided if self.play is not None else []

    @property
    def chains(self) -> ChainBook:
        return self.deck.chains

    @property
    def shares(self) -> ShareBook:
        return self.deck.shares

    @property
    def audit_secret(self) -> int | None:
        return self.deck.shares.audit_secret

    @property
    def audits(self) -> dict[int, Audit]:
        return self.reveals.audits

    @property
    def forfeited(self) -> dict[int, PeerSecrets]:
        """Seats that left (forfeited, or carried on): the fold plays them from their secrets."""
        return self.reveals.forfeited

    @property
    def forfeit_entries(self) -> dict[int, int]:
        return self.reveals.forfeit_entries

    @property
    def halted(self) -> str | None:
        """Why the game halted, if it did (halting.py): only secrets are accepted now."""
        return self.halting.reason

    @property
    def halted_at(self) -> int | None:
        return self.halting.at

    @property
    def culprit(self) -> int | None:
        return self.halting.culprit

    @property
    def relay(self) -> int:
        """The seat that sequences the log (relayterms.py): seat 0 until a hand-over."""
        return self.relays.relay

    @property
    def handovers(self) -> list[HandedOver]:
        return self.relays.handovers

    @property
    def reach(self) -> dict[int, tuple[str, int]]:
        return self.relays.reach

    @property
    def in_play(self) -> tuple[int, ...]:
        """The seats still played by their own peers, in seat order (reveals.py)."""
        return self.reveals.in_play(self.n)

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

    def carry_on_problem(self, target: int, by: int | None = None) -> str | None:
        """Why ``by`` (None: any seat in play) may not ask now to carry ``target`` on; None
        when it may. The network layer decides when a seat has been silent long enough."""
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
        return self.relays.successor(self.in_play)

    @property
    def term(self) -> int:
        return self.relays.term

    @property
    def left(self) -> dict[int, int]:
        """The seats that left the game (forfeited, or carried on) -> the entry each left at."""
        return {**self.forfeit_entries, **self.carried_on}

    @property
    def relay_gone(self) -> bool:
        """The relay left the game: the next entry must be its successor's ``relay`` message."""
        return self.seated and self.relay not in self.in_play

    def relay_at(self, index: int) -> int:
        return self.relays.relay_at(index)

    def prev_head(self, index: int) -> bytes:
        """The log head just before entry ``index`` (at most the log's length)."""
        return EMPTY_HEAD if index == 0 else self.heads[index]

    def sequencer_of(self, raw: bytes) -> int:
        """The seat whose receipt the next entry ``raw`` must carry (relayterms.py)."""
        return self.relays.sequencer_of(raw, self.n) if self.seated else 0

    @property
    def seated(self) -> bool:
        """The log holds its seating: the game exists."""
        return self.game_id is not None

    def digest(self) -> str:
        """A hash of everything public: equal on every peer with the same log."""
        return hashlib.sha256(self.head + (public_digest(self.engine) if self.engine else "").encode()).hexdigest()

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
        return self.play.chain_due() if self.play is not None else None

    def chain_inputs(self, need: Need) -> tuple[Ciphertext, ...]:
        """What the first seat of that chain starts from."""
        return self.chains.inputs(need)

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
            self.rejected.append(rejection_of(raw, exc))
            if len(self.rejected) > 2 * MAX_REJECTIONS:  # a flood of refused messages: keep the latest
                del self.rejected[:-MAX_REJECTIONS]
            raise
        self.entries.append(raw, envelope)
        if self.halted is not None:
            return envelope  # a halted game does not advance: only secrets come in now
        try:
            if self.play is not None:
                self.play.advance(self.me, len(self.log))
        except (TableError, EngineError) as exc:
            # The entry itself was valid; what it completed is impossible.
            self.halting.halt(str(exc), None, len(self.log) - 1)
        return envelope

    def _accept(self, raw: bytes, decoded: DecodedEntry | None) -> Envelope:
        envelope, message = decoded_for(raw, decoded)
        if self.game_id is None:
            if not isinstance(message, Seating):
                raise NotExpected("a game starts with seat 0's seating")
            self.entries.open(envelope, message.seats)
            self.seating = message
            self.escrowbook = EscrowBook(enabled=message.escrow)
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
                self.relays.note_reach(seat, ip, port)
            case Seating():
                raise NotExpected("the game already has its seating")
            case Keys():
                assert self.seating is not None and self.game_id is not None
                seated = self.keyring.announce(seat, message, self.seating, self.game_id)
                if seated is not None:
                    self._start(seated)
            case Shuffle(step, source) | Remask(step, source) | Mix(step, source):
                need = self._due(message.KIND, step.deck, step.epoch)
                check_source(need, source)
                assert self.play is not None
                self.play.progress(self.chains.add_step(need, seat, step.seat, step.ciphertexts), len(self.log))
            case ProveShuffle(proof) | ProveRemask(proof) | ProveMix(proof):
                need = self._due(message.KIND, proof.deck, proof.epoch)
                assert self.play is not None  # (this entry's index: it is appended next)
                self.play.progress(self.chains.add_proof(need, seat, proof, len(self.log)), len(self.log))
            case Shares(shares):
                if self.play is None:
                    raise NotExpected("no shares are owed before every key is in")
                self.play.store_shares(seat, shares, self.owed_shares().get(seat, set()))
            case Act(action):
                if self.play is None:
                    raise NotExpected("the game has not started")
                self.play.act(seat, action)
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

    def _start(self, seated: KeyedSeating) -> None:
        """Every key is in: the deck's chains and the game start from the keyed seating."""
        self.chains.start(seated.n, seated.joint)
        self.play = GamePlay(seated, opening_state(seated), self.deck, self.reveals, self.escrowbook, self.halting)

    def _handover(self, seat: int, relay: TakeOver) -> None:
        """The relay moves to ``seat``, if the hand-over holds (relayterms.py)."""
        assert self.game_id is not None
        last = len(self.log) - 1
        self.relays.take_over(seat, relay, len(self.log), movable=self.escrow or self.relay_gone,
                              in_play=self.in_play, identities=[s.identity for s in self.seats],
                              game_id=self.game_id, last=(last, self.prev_head(last), self.log[last]), head=self.head)
        self.escrowbook.new_term()

    def _due(self, what: str, deck: str, epoch: int) -> Need:
        """The chain being built, if ``what`` (a step's or a proof's kind) builds it and it is that epoch."""
        need = self.chain_due()
        if need is None or what not in chain_kinds(need) or (need.deck, need.epoch) != (engine_deck(deck), epoch):
            raise NotExpected(f"no {what} of {deck} epoch {epoch} is due")
        return need

    def _forfeit(self, seat: int, forfeit: Forfeit) -> None:
        if self.finished:
            raise NotExpected("the game is over: reveal secrets with an audit, not a forfeit")
        if seat in self.escrowbook.owed_reveals(self.in_play):
            # Its shares leave with it otherwise, and the seat being carried on never would be.
            raise NotExpected(f"seat {seat} owes its shares of a seat being carried on: those first")
        assert self.game_id is not None
        self.reveals.check(seat, forfeit, self.keyring, self.game_id)
        if self.play is not None:
            self.play.play_on(seat, forfeit.secret, forfeit.seed, len(self.log))
        else:  # before every key is in, no chain, card or move is owed yet
            self.reveals.play_on(seat, forfeit.secret, forfeit.seed)
        self.reveals.forfeited_at(seat, len(self.log))  # this entry's index: it is appended next

    def _audit(self, seat: int, audit: Audit) -> None:
        assert self.game_id is not None
        self.reveals.check(seat, audit, self.keyring, self.game_id)
        self.reveals.audit(seat, audit)
        if not self.finished:
            # Revealing secrets mid-game stops it: the revealer's cards are open to all now.
            self.halting.stopped_by(seat, len(self.log))

    # ---------------------------------------------------------------- escrow

    def _escrow(self, seat: int, escrow: Escrow) -> None:
        if self.play is None:
            raise NotExpected("an escrow is dealt once every key is in")
        if self.finished:
            raise NotExpected("the game is over")
        self.escrowbook.deal(seat, escrow, self.play.seated.game_id, self.keys[seat].public_key,
                             self.keyring.seal_keys)

    def _complaint(self, seat: int, complaint: EscrowComplaint) -> None:
        if self.finished:
            raise NotExpected("the game is over")
        dealer = self.escrowbook.judge(seat, complaint, self.keyring.seal_keys)
        # Signed evidence that the dealer sealed a false share: nobody could
        # carry that seat on, so the game stops and the audit names it.
        self.halting.halt(f"seat {dealer} dealt seat {seat} a false share of its {complaint.secret} in escrow",
                          dealer, len(self.log))

    def _carry_on(self, seat: int, target: int, written_after: int) -> None:
        problem = self.carry_on_problem(target, seat) or \
            self.escrowbook.stale_request_problem(seat, target, written_after, self.relays.term_start)
        if problem is not None:
            raise NotExpected(problem)
        self.escrowbook.request(seat, target, self.in_play, self.finished, self.left)
