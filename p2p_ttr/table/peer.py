"""One seat at the table: its identity and secrets, its own replica of the
game, and what it owes next. The cryptographic duties (keys, shuffles, shares,
the final reveal) are fulfilled automatically; game decisions come from a
``Decider`` (a bot, or a human through the client).

A peer only writes messages; how they travel (a function call, ZeroMQ) is the
caller's business.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from p2p_ttr.deck import (
    BadEscrow,
    RandomSource,
    SecretKey,
    Seed,
    announce_key,
    announce_seal_key,
    commit_seed,
    deal_exponent,
    escrow_complaint,
    escrow_image,
    make_share,
    open_escrow_share,
    prove_remask,
    prove_shuffle,
    remask_step,
    shuffle_step,
)
from p2p_ttr.engine.boards import europe_game
from p2p_ttr.engine.events import Action
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.rules import actors
from p2p_ttr.engine.state import GameState, NeedMix, NeedShuffle
from p2p_ttr.engine.view import view_for

from .envelope import GAME_ID_BYTES, open_envelope, seal
from .identity import Identity
from .messages import (
    ESCROWED,
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
    message_from_wire,
)
from .relaying import FollowRequest, sign_follow
from .cards import DECK_NAMES, deck_ref
from .table import PeerSecrets, Table

# Decides a move from the player's own view; None means "not yet" (a human thinking).
Decider = Callable[[GameState, int], Action | None]

MAX_SHARES_PER_MESSAGE = 64


class Peer:
    """One seat's side of the table: its secrets and replica, and what it owes next (``outbox``):
    keys, chain steps and proofs, shares, and the moves its decider picks."""

    def __init__(self, seat: int, identity: Identity, decide: Decider, source: RandomSource | None = None,
                 table: Table | None = None) -> None:
        self.seat = seat
        self.identity = identity
        self.decide = decide
        self.source = source
        self.table = table if table is not None else Table()  # a peer's replica is given; else our own
        self.seq = 0
        # Our shares of the others' escrow deals, opened as each deal comes in:
        # (dealer, "key" | "seed") -> the share, or None when it did not open
        # (then we complained). Never logged: they are the others' secrets.
        self._escrowed: dict[tuple[int, str], int | None] = {}

    def resume_after(self, last_seq: int) -> None:
        """Never reuse a sequence number: our next message continues after ``last_seq``, our last in the log."""
        self.seq = max(self.seq, last_seq)

    # ---------------------------------------------------------------- setup

    def open_game(self, seats: tuple[Seat, ...], game_id: bytes | None = None, escrow: bool = False,
                  game: Game | None = None) -> bytes:
        """Seat 0 only: the seating message that starts ``game`` (None:
        Europe's standard game). ``escrow``: every seat escrows its secrets
        among the others, so that they can carry a seat on that vanishes (3
        to 5 seats; protocol.md §6, Escrow)."""
        if self.seat != 0:
            raise ValueError("only seat 0 opens the game")
        game_id = game_id or (self.source(GAME_ID_BYTES) if self.source else os.urandom(GAME_ID_BYTES))
        self.seq += 1
        return seal(self.identity, game_id, 0, self.seq, b"\0" * 32, Seating(seats, escrow, game=game or europe_game()).to_wire()).raw

    def _secrets(self) -> PeerSecrets:
        if self.table.me is None:
            assert self.table.game_id is not None
            key = SecretKey.generate(self.table.game_id, self.seat, self.source)
            seed = Seed.generate(self.source)
            seal = SecretKey.generate(self.table.game_id, self.seat, self.source) if self.table.escrow else None
            secrets = PeerSecrets(self.seat, key, seed, seal)
            self.table.hold_secrets(secrets)
            return secrets
        return self.table.me

    def reseal(self, raw: bytes) -> bytes:
        """One of our messages written earlier, signed again as our next
        message at the head we hold now (its body unchanged). A new relay's
        messages in flight to the old one: its ``relay`` entry took the next
        sequence number, so the old envelopes would be replays."""
        return self._seal(message_from_wire(open_envelope(raw).body))

    def _seal(self, message: Message) -> bytes:
        assert self.table.game_id is not None
        self.seq += 1
        return seal(self.identity, self.table.game_id, self.seat, self.seq, self.table.head, message.to_wire()).raw

    # ---------------------------------------------------------------- duties

    def outbox(self) -> list[bytes]:
        """The messages this seat owes now, given its replica (empty if none)."""
        table = self.table
        if table.game_id is None or table.relay_gone:
            return []  # (a relay that left: nothing but the new relay's first entry may follow)
        me = self._secrets()
        if self.seat not in table.keys:
            commitment = commit_seed(table.game_id, self.seat, me.seed)
            seal = announce_seal_key(me.seal, self.source) if me.seal is not None else None
            return [self._seal(Keys(announce_key(me.key, self.source), commitment, seal))]
        if self.seat in table.forfeited or self.seat in table.escrowbook.carrying:
            return []  # the fold plays this seat now, or will once the others' shares are in
        if table.halted is not None or table.halting.suspicion is not None:
            # Halted, or our own cards prove a shuffle false: reveal our secrets
            # so that everyone stops and the audit can name the cheater.
            return [] if self.seat in table.audits else [self._seal(Audit(me.seed, me.key))]
        if table.engine is None:
            return []
        out = [self._seal(m) for m in self._escrow_duties()]
        step = self._chain_step(table.engine)
        if step is not None:
            out.append(self._seal(step))
        else:
            proof = self._chain_proof(table.engine)
            if proof is not None:
                out.append(self._seal(proof))
        owed = sorted(table.owed_shares().get(self.seat, set()))
        for i in range(0, len(owed), MAX_SHARES_PER_MESSAGE):
            chunk = owed[i : i + MAX_SHARES_PER_MESSAGE]
            shares = tuple(make_share(me.key, deck_ref(r), table.ciphertext(r), self.source) for r in chunk)
            out.append(self._seal(Shares(shares)))
        if out:
            return out  # act once the table has caught up with them
        action = self._decision(table.engine)
        if action is not None:
            out.append(self._seal(self._act(action)))
        elif table.finished and self.seat not in table.audits:
            out.append(self._seal(Audit(me.seed, me.key)))
        return out

    def carry_on(self, seat: int) -> bytes:
        """Ask the others to carry ``seat`` on (the network layer calls this
        when the seat has been silent too long). Once every other seat in
        play asked, each hands over its shares of the seat's escrow (our
        ``outbox`` does) and the fold plays the seat from then on.

        Raises:
            ValueError: the table would refuse it now (``Table.carry_on_problem``).
        """
        problem = self.table.carry_on_problem(seat, self.seat)
        if problem is not None:
            raise ValueError(problem)
        return self._seal(CarryOn(seat))

    def forfeit(self) -> bytes:
        """Leave for good: publish our secrets so the game goes on without us.
        Only once our key is in the log (before that there is nothing to
        reveal) and while the game is on (after it, the audit reveals them)."""
        table = self.table
        if self.seat not in table.keys or table.finished or self.seat in table.audits:
            raise ValueError("nothing to forfeit: our key is not in the log yet, or the game is over")
        me = self._secrets()
        return self._seal(Forfeit(me.seed, me.key))

    def _escrow_duties(self) -> list[Message]:
        """Our deal, once every key is in; a complaint for each share of ours
        that does not open; our shares of a seat the others carry on."""
        table, me = self.table, self.table.me
        assert me is not None and table.game_id is not None
        out: list[Message] = []
        if table.finished:
            return out  # what is left is the audit
        book = table.escrowbook
        if me.seal is None:
            return out  # secrets made before the seating asked for escrow: nothing can be opened
        if self.seat in book.missing_deals(table.in_play):
            seals = dict(table.keyring.seal_keys)
            seed = int.from_bytes(me.seed.value, "big")
            out.append(Escrow(deal_exponent(table.game_id, self.seat, me.key.x, seals, self.source),
                              deal_exponent(table.game_id, self.seat, seed, seals, self.source),
                              escrow_image(seed)))
        for dealer, escrow in sorted(book.deals.items()):
            if dealer == self.seat:
                continue
            for secret, deal in zip(ESCROWED, (escrow.key, escrow.seed)):
                if (dealer, secret) in self._escrowed:
                    continue
                try:
                    self._escrowed[dealer, secret] = open_escrow_share(deal, me.seal)
                except BadEscrow:
                    self._escrowed[dealer, secret] = None
                    out.append(EscrowComplaint(secret, escrow_complaint(deal, me.seal, self.source)))
        for target in book.owed_reveals(table.in_play).get(self.seat, ()):
            key_share, seed_share = self._escrowed.get((target, "key")), self._escrowed.get((target, "seed"))
            if key_share is not None and seed_share is not None:
                out.append(EscrowReveal(target, key_share, seed_share))
        return out

    def reach(self, ip: str, port: int) -> bytes:
        """Say where we accept the others' connections, should we become the relay."""
        return self._seal(Reach(ip, port))

    def follow(self, old: int, new: int) -> FollowRequest:
        """Our signed word that we leave relay ``old`` for ``new``, holding the log we hold now."""
        table = self.table
        assert table.game_id is not None
        return sign_follow(self.identity, self.seat, table.game_id, table.term, old, new, len(table.log), table.head)

    def take_relay(self, receipt: bytes, requests: tuple[FollowRequest, ...]) -> bytes:
        """Our first entry as the new relay (we are the table's successor):
        the old relay's ``receipt`` of our last entry and every other seat's request."""
        return self._seal(TakeOver(self.table.relay, receipt, tuple(sorted(requests, key=lambda r: r.seat))))

    def _chain_step(self, engine: GameState) -> Shuffle | Remask | Mix | None:
        need = self.table.chain_due()
        if need is None:
            return None
        built = self.table.chains.get((need.deck, need.epoch))
        turn = len(built.steps) if built else 0
        joint = self.table.joint
        assert joint is not None and self.table.me is not None
        seed, deck = self.table.me.seed, DECK_NAMES[need.deck]
        if turn != self.seat:
            return None  # not our turn in this chain (or our step is in)
        inputs = built.output if built else self.table.chain_inputs(need)
        if isinstance(need, NeedShuffle):
            # Made from its input too (deck/shuffle.py): no factors can be made before the input is here.
            return Shuffle(shuffle_step(joint, seed, self.seat, deck, need.epoch, inputs), need.cards)
        if isinstance(need, NeedMix):  # a shuffle step over the cards' ciphertexts
            return Mix(shuffle_step(joint, seed, self.seat, deck, need.epoch, inputs), tuple(map(deck_ref, need.refs)))
        return Remask(remask_step(joint, seed, self.seat, deck, need.epoch, inputs), tuple(deck_ref(r) for r in need.refs))

    def _chain_proof(self, engine: GameState) -> ProveShuffle | ProveRemask | ProveMix | None:
        """The proof of our step, once the log holds the step: the next seat
        works on its step meanwhile."""
        need = self.table.chain_due()
        if need is None:
            return None
        built = self.table.chains.get((need.deck, need.epoch))
        if built is None or self.seat >= len(built.steps) or self.seat in built.proven or self.seat in built.proofs:
            return None
        joint, me = self.table.joint, self.table.me
        assert joint is not None and me is not None
        step, inputs = self.table.chains.record(need, self.seat), built.step_input(self.seat)
        if isinstance(need, NeedShuffle):
            proof = prove_shuffle(joint, me.seed, step, inputs)
            self.table.chains.vouch(need, proof, me.seed)
            return ProveShuffle(proof)
        if isinstance(need, NeedMix):
            mixed = prove_shuffle(joint, me.seed, step, inputs)
            self.table.chains.vouch(need, mixed, me.seed)
            return ProveMix(mixed)
        remask = prove_remask(joint, me.seed, step, inputs)
        self.table.chains.vouch(need, remask, me.seed)
        return ProveRemask(remask)

    def _decision(self, engine: GameState) -> Action | None:
        if self.table.pending_act is not None:
            return None  # our last move waits for its cards
        if self.seat not in actors(engine):
            return None
        ps = engine.players[self.seat]
        if any(engine.face(r) is None for r in ps.hand + ps.offered):
            return None  # wait until every card we hold can be read
        return self.decide(view_for(engine, self.seat), self.seat)

    def _act(self, action: Action) -> Act:
        # No shares here: the table asks for ours of the cards it plays once
        # the log holds the act (they are then owed like any other share).
        return Act(action)
