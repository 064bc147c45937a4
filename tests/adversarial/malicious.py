"""A malicious peer for the adversarial tests: one small, named capability per cheat.

Three kinds of capability:

* ``CHEATS``: messages a cheating seat can forge from its own replica and
  secrets (``Malicious(seat, identity, table)``). Each forger returns the raw
  envelope of one cheat, or None while the table is not at a point where the
  cheat makes sense; ``Cheat.code`` is the refusal every honest table must
  answer with (protocol.md §7), changing nothing.
* ``DUTY_CHEATS``: ``Peer`` classes that cheat in their own duties (a false
  shuffle or re-masking, a false share, withholding what they owe), for
  whole games in one process (``play_crypto_game(peer_types=...)``). Those
  cheats are not refused at once: they halt the game, are caught by
  ``ttr verify``, or leave the others waiting.
* ``ChainCheater`` and its forgers (``stack``, ``alias``, ``replay``,
  ``misprove``, ``never_prove``, ...): a seat that publishes a false step of
  one deck epoch with whatever proof it can bring, at any position of the
  chain (seated mid-game by ``games.Run.recast``; test_proven_shuffles.py).

Nothing here is used by the game itself.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from unittest import mock

from p2p_ttr.deck import (
    Ciphertext,
    DecryptionShare,
    JointKey,
    RemaskStep,
    SecretKey,
    Seed,
    ShuffleStep,
    announce_key,
    card_element,
    commit_seed,
    make_share,
    shuffle_step,
)
from p2p_ttr.deck import remaskproof, shuffleproof
from p2p_ttr.deck.fixedbase import generator_table
from p2p_ttr.deck.group import G, P, canonical
from p2p_ttr.deck.remaskproof import RemaskProof
from p2p_ttr.deck.shuffle import shuffle_witness
from p2p_ttr.deck.shuffleproof import ShuffleProof
from p2p_ttr.engine.board import LOCOMOTIVE, europe
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.events import ClaimRoute, DrawBlind
from p2p_ttr.engine.rules import actors, claim_problem
from p2p_ttr.engine.state import GameState, NeedRemask, NeedReveal, NeedShuffle, Phase
from p2p_ttr.table.envelope import MAX_ENVELOPE_BYTES, open_envelope, pack, seal
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.messages import (
    Act,
    Audit,
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
from p2p_ttr.table import peer as peer_module
from p2p_ttr.table.peer import Peer
from p2p_ttr.table.cards import DECK_NAMES, deck_ref
from p2p_ttr.table.table import Table

OTHER_GAME = b"\xee" * 16


class Malicious:
    """Forges messages as ``seat``, from that seat's replica (with its secrets)."""

    def __init__(self, seat: int, identity: Identity, table: Table, min_seq: int = 0) -> None:
        self.seat = seat
        self.identity = identity
        self.table = table
        self.min_seq = min_seq  # above any honest message of ours still in flight

    # ------------------------------------------------------------- helpers

    @property
    def engine(self) -> GameState | None:
        return self.table.engine

    @property
    def key(self) -> SecretKey:
        assert self.table.me is not None, "a cheater needs its own secrets"
        return self.table.me.key

    def next_seq(self) -> int:
        return max(self.table.last_seq.get(self.seat, 0) + 1, self.min_seq)

    def seal(self, body: list[Any], seat: int | None = None, game_id: bytes | None = None,
             head: bytes | None = None, identity: Identity | None = None) -> bytes:
        """An envelope of ``body``; every field the honest one unless given."""
        assert self.table.game_id is not None
        return seal(identity or self.identity, game_id or self.table.game_id,
                    self.seat if seat is None else seat, self.next_seq(),
                    self.table.head if head is None else head, body).raw

    def send(self, message: Message) -> bytes:
        return self.seal(message.to_wire())

    def share(self, ref: CardRef, ciphertext: Ciphertext | None = None) -> DecryptionShare:
        """Our share of ``ref`` (over ``ciphertext`` if given: then its proof fails)."""
        return make_share(self.key, deck_ref(ref), ciphertext or self.table.ciphertext(ref))

    def my_turn(self) -> GameState | None:
        """The engine when it waits for our move in a normal turn, before any draw."""
        e = self.engine
        if e is None or self.table.finished or self.seat not in actors(e):
            return None
        return e if e.phase is Phase.TURN and not e.cards_drawn else None

    def claim(self, cards: Callable[[GameState, int], list[CardRef]]) -> bytes | None:
        """Claim the first open route of length 1..4, paying ``cards(engine, length)``.
        The act carries no shares: ours of the hidden cards it plays are owed
        once the log holds it (see ``false_shares_of_our_act``)."""
        e = self.my_turn()
        if e is None:
            return None
        for route in sorted(europe().routes, key=lambda r: (r.length, r.id)):
            if route.length > 4 or claim_problem(e, self.seat, route) is not None:
                continue
            paid = cards(e, route.length)
            if paid:
                return self.send(Act(ClaimRoute(self.seat, route.id, tuple(paid))))
        return None

    def our_pending_cards(self) -> list[CardRef]:
        """The hidden cards of our own act in the log, whose shares we owe now."""
        pending = self.table.pending_act
        if pending is None or pending.seat != self.seat or self.table.finished:
            return []
        return [r for r in pending.cards if r in self.owed()]

    def false_shares_of_our_act(self) -> bytes | None:
        """Our shares of the cards our pending act plays, each computed on
        another ciphertext (its proof fails): they would open other cards."""
        cards = self.our_pending_cards()
        if not cards:
            return None
        swapped = {r: (self.table.ciphertext(r)[1], self.table.ciphertext(r)[0]) for r in cards}
        return self.send(Shares(tuple(self.share(r, swapped[r]) for r in cards)))

    def owed(self) -> list[CardRef]:
        return sorted(self.table.owed_shares().get(self.seat, set()))

    def owed_to_all(self) -> list[CardRef]:
        """Shares we owe for cards being opened to everyone: their proofs are
        checked on arrival (a private draw's, by the drawer when it reads the
        card: see FalseSharer)."""
        e = self.engine
        reveal = set(e.awaiting.refs) if e is not None and isinstance(e.awaiting, NeedReveal) else set()
        return [r for r in self.owed() if r in reveal]

    def own_entries(self) -> list[bytes]:
        return [raw for raw in self.table.log if open_envelope(raw).seat == self.seat]

    def other_seat(self) -> int:
        return (self.seat + 1) % self.table.n


# Forgers: each returns one cheat's raw envelope, or None when it does not apply now.
Forger = Callable[[Malicious], bytes | None]


@dataclass(frozen=True)
class Cheat:
    name: str
    code: str  # the refusal every honest table answers with
    forge: Forger
    doc: str


CHEATS: dict[str, Cheat] = {}


def cheat(code: str) -> Callable[[Forger], Forger]:
    def register(forge: Forger) -> Forger:
        name = forge.__name__
        CHEATS[name] = Cheat(name, code, forge, (forge.__doc__ or "").strip())
        return forge

    return register


# --- moves -------------------------------------------------------------------


@cheat("out_of_turn")
def act_out_of_turn(m: Malicious) -> bytes | None:
    """Draw a card while another seat is to move."""
    e = m.engine
    if e is None or m.table.finished or not actors(e) or m.seat in actors(e):
        return None
    return m.send(Act(DrawBlind(m.seat)))


@cheat("not_expected")
def act_for_another_seat(m: Malicious) -> bytes | None:
    """Sign, as ourselves, the move of the seat whose turn it is."""
    e = m.engine
    others = [a for a in actors(e) if a != m.seat] if e is not None and not m.table.finished else []
    return m.send(Act(DrawBlind(others[0]))) if others else None


@cheat("illegal_move")
def illegal_claim(m: Malicious) -> bytes | None:
    """Claim a route paying one card fewer than its length (cards we hold)."""

    def short(e: GameState, length: int) -> list[CardRef]:
        hand = e.players[m.seat].hand
        return list(hand[: length - 1]) if 2 <= length <= len(hand) + 1 else []

    return m.claim(short)


@cheat("not_expected")
def claim_with_undrawn_cards(m: Malicious) -> bytes | None:
    """Claim a route paying with the top cards of the draw pile, never drawn."""
    return m.claim(lambda e, length: list(e.draw_pile[:length]) if len(e.draw_pile) >= length else [])


@cheat("not_expected")
def claim_with_anothers_cards(m: Malicious) -> bytes | None:
    """Claim a route paying with cards in another player's hand."""

    def theirs(e: GameState, length: int) -> list[CardRef]:
        # Their hidden cards only: a card they took from the face-up row is
        # public, and the engine would refuse its colour first (illegal_move).
        hand = [r for r in e.players[m.other_seat()].hand if r not in e.public]
        return hand[:length] if len(hand) >= length else []

    return m.claim(theirs)


@cheat("bad_proof")
def claim_with_a_false_share(m: Malicious) -> bytes | None:
    """Once the log holds our claim, show the cards it plays with shares that
    would open other cards."""
    return m.false_shares_of_our_act()


def claim_with_our_cards(m: Malicious) -> bytes | None:
    """Claim a short open route with cards we hold (a legal act if they are the
    right colours: the table cannot tell before our shares open them). Not a
    cheat by itself; withholding the shares it then owes is (test_acts.py)."""

    def ours(e: GameState, length: int) -> list[CardRef]:
        hand = [r for r in e.players[m.seat].hand if r not in e.public]
        return hand[:length] if len(hand) >= length else []

    return m.claim(ours)


# --- decryption shares --------------------------------------------------------


@cheat("bad_proof")
def wrong_share(m: Malicious) -> bytes | None:
    """A share we owe for a public reveal, computed on another ciphertext."""
    owed = m.owed_to_all()
    if not owed:
        return None
    a, b = m.table.ciphertext(owed[0])
    return m.send(Shares((m.share(owed[0], (b, a)),)))


@cheat("bad_proof")
def share_for_another_position(m: Malicious) -> bytes | None:
    """A genuine share of another card, labelled as a card we owe for a public reveal."""
    owed = m.owed_to_all()
    if not owed:
        return None
    ref = owed[0]
    other = ref._replace(pos=(ref.pos + 1) % len(m.table.chains[(ref.deck, ref.epoch)].output))
    genuine = m.share(other)
    return m.send(Shares((dataclasses.replace(genuine, ref=deck_ref(ref)),)))


@cheat("not_expected")
def unowed_share(m: Malicious) -> bytes | None:
    """Publish our share of a card in our own hand (nobody asked; it would leak it)."""
    e = m.engine
    if e is None or m.table.finished:
        return None
    mine = [r for r in e.players[m.seat].hand if r not in e.public and r not in m.owed()]
    return m.send(Shares((m.share(mine[0]),))) if mine else None


# --- envelopes ----------------------------------------------------------------


def _a_move(m: Malicious) -> list[Any] | None:
    e = m.engine
    return Act(DrawBlind(m.seat)).to_wire() if e is not None and not m.table.finished else None


@cheat("bad_signature")
def forged_signature(m: Malicious) -> bytes | None:
    """A move in another seat's name, signed with our own key (a host forging a peer)."""
    e = m.engine
    if e is None or m.table.finished:
        return None
    victim = m.other_seat()
    return m.seal(Act(DrawBlind(victim)).to_wire(), seat=victim)


@cheat("malformed")
def stripped_signature(m: Malicious) -> bytes | None:
    """An envelope whose signature was taken off."""
    body = _a_move(m)
    return pack([open_envelope(m.seal(body)).signed]) if body else None


@cheat("bad_signature")
def zeroed_signature(m: Malicious) -> bytes | None:
    """An envelope whose signature was replaced by zeros."""
    body = _a_move(m)
    return pack([open_envelope(m.seal(body)).signed, bytes(64)]) if body else None


@cheat("replay")
def replay_own_message(m: Malicious) -> bytes | None:
    """Send our last accepted message again, byte for byte."""
    mine = m.own_entries()
    return mine[-1] if mine and m.engine is not None else None


@cheat("not_expected")
def replay_earlier_turn(m: Malicious) -> bytes | None:
    """Re-sign the shares we sent on an earlier turn as a new message."""
    for raw in m.own_entries():
        body = open_envelope(raw).body
        if isinstance(message_from_wire(body), Shares) and not m.table.finished:
            return m.seal(body)
    return None


@cheat("wrong_game")
def message_from_another_game(m: Malicious) -> bytes | None:
    """A move signed by us for another game."""
    body = _a_move(m)
    return m.seal(body, game_id=OTHER_GAME) if body else None


@cheat("unknown_head")
def unknown_head(m: Malicious) -> bytes | None:
    """A move written at a log head this game never had (a forked or made-up log)."""
    body = _a_move(m)
    return m.seal(body, head=b"\x07" * 32) if body else None


@cheat("not_expected")
def second_seating(m: Malicious) -> bytes | None:
    """Open the game again with another seating."""
    if not m.table.seats:
        return None
    seats = tuple(Seat(s.name + "x", s.identity) for s in m.table.seats)
    return m.send(Seating(seats))


# --- keys, chains, secrets ---------------------------------------------------------


@cheat("bad_proof")
def copied_key(m: Malicious) -> bytes | None:
    """Announce another seat's key as ours (a rogue key: its proof names the other seat)."""
    theirs = [k for s, k in m.table.keys.items() if s != m.seat]
    if m.seat in m.table.keys or not theirs or m.table.game_id is None or m.table.me is None:
        return None
    key = dataclasses.replace(theirs[0], seat=m.seat)
    return m.send(Keys(key, commit_seed(m.table.game_id, m.seat, m.table.me.seed)))


@cheat("not_expected")
def second_key(m: Malicious) -> bytes | None:
    """Announce a second key once ours is in."""
    if m.seat not in m.table.keys or m.table.game_id is None or m.table.me is None:
        return None
    return m.send(Keys(announce_key(m.key), commit_seed(m.table.game_id, m.seat, m.table.me.seed)))


def _my_chain_turn(m: Malicious) -> tuple[ShuffleStep | RemaskStep, Shuffle | Remask] | None:
    """Our honest step of the chain being built, if it is our turn in it."""
    e = m.engine
    if e is None:
        return None
    helper = Peer(m.seat, m.identity, lambda view, seat: None)
    helper.table = m.table
    step = helper._chain_step(e)
    if step is None:
        return None
    return step.step, step


@cheat("malformed")
def shuffle_dropping_a_card(m: Malicious) -> bytes | None:
    """Our chain step with one card left out."""
    mine = _my_chain_turn(m)
    if mine is None or len(mine[0].ciphertexts) < 2:
        return None
    step, message = mine
    short = dataclasses.replace(step, ciphertexts=step.ciphertexts[:-1])
    return m.send(dataclasses.replace(message, step=short))


@cheat("not_expected")
def shuffle_out_of_turn(m: Malicious) -> bytes | None:
    """A shuffle step of ours while another seat's step is due."""
    need = m.table.chain_due()
    if not isinstance(need, NeedShuffle) or m.table.joint is None or m.table.me is None:
        return None
    built = m.table.chains.get((need.deck, need.epoch))
    if (len(built.steps) if built else 0) == m.seat:
        return None
    inputs = built.output if built else m.table.chain_inputs(need)
    step = shuffle_step(m.table.joint, m.table.me.seed, m.seat, DECK_NAMES[need.deck], need.epoch, inputs)
    return m.send(Shuffle(step, need.cards))


def _proofs_in_log(m: Malicious, seat: int) -> list[list[Any]]:
    """The bodies of ``seat``'s chain proofs in the log, oldest first."""
    envs = [open_envelope(raw) for raw in m.table.log]
    return [e.body for e in envs if e.seat == seat and e.kind in (ProveShuffle.KIND, ProveRemask.KIND)]


def _is_due(m: Malicious, body: list[Any]) -> bool:
    need = m.table.chain_due()
    return need is not None and (body[1][0], body[1][1]) == (DECK_NAMES[need.deck], need.epoch)


@cheat("not_expected")
def proof_before_its_step(m: Malicious) -> bytes | None:
    """The proof of our chain step, sent before the step itself."""
    mine = _my_chain_turn(m)
    need = m.table.chain_due()
    if mine is None or need is None or m.table.joint is None or m.table.me is None:
        return None
    built = m.table.chains.get((need.deck, need.epoch))
    inputs = built.output if built else m.table.chain_inputs(need)
    step, message = mine
    if isinstance(message, Shuffle):
        return m.send(ProveShuffle(shuffleproof.prove_shuffle(m.table.joint, m.table.me.seed, step, inputs)))
    return m.send(ProveRemask(remaskproof.prove_remask(m.table.joint, m.table.me.seed, step, inputs)))


@cheat("not_expected")
def second_proof(m: Malicious) -> bytes | None:
    """Our accepted proof of the chain being built, re-signed and sent again."""
    due = [b for b in _proofs_in_log(m, m.seat) if _is_due(m, b)]
    return m.seal(due[-1]) if due else None


@cheat("malformed")
def proof_in_anothers_name(m: Malicious) -> bytes | None:
    """Another seat's valid proof of the chain being built, signed by us
    (the proof names its author: it is not ours)."""
    theirs = [b for s in range(m.table.n) if s != m.seat for b in _proofs_in_log(m, s) if _is_due(m, b)]
    return m.seal(theirs[0]) if theirs else None


@cheat("not_expected")
def proof_of_an_earlier_epoch(m: Malicious) -> bytes | None:
    """Our valid proof of an earlier deck epoch, re-signed while another is being built."""
    if m.table.chain_due() is None:
        return None
    old = [b for b in _proofs_in_log(m, m.seat) if not _is_due(m, b)]
    return m.seal(old[-1]) if old else None


@cheat("malformed")
def proof_of_the_wrong_kind(m: Malicious) -> bytes | None:
    """Our shuffle proof sent as a re-masking proof (or the other way round)."""
    mine = _proofs_in_log(m, m.seat)
    if not mine or m.table.finished:
        return None
    kind, proof = mine[-1]
    return m.seal([ProveRemask.KIND if kind == ProveShuffle.KIND else ProveShuffle.KIND, proof])


@cheat("cheating")
def seed_not_committed(m: Malicious) -> bytes | None:
    """Reveal a seed that does not open our commitment."""
    if m.seat not in m.table.keys or m.seat in m.table.audits:
        return None
    return m.send(Audit(Seed(b"\x42" * 32), m.key))


@cheat("cheating")
def exponent_not_our_key(m: Malicious) -> bytes | None:
    """Reveal a secret exponent that is not the one behind our key."""
    if m.seat not in m.table.keys or m.seat in m.table.audits or m.table.game_id is None or m.table.me is None:
        return None
    return m.send(Audit(m.table.me.seed, SecretKey(m.table.game_id, m.seat, m.key.x + 1)))


# --- bytes --------------------------------------------------------------------------


@cheat("malformed")
def garbage_bytes(m: Malicious) -> bytes | None:
    """Bytes that are not msgpack at all."""
    return b"\xc1\xff\x00garbage" if m.table.game_id is not None else None


@cheat("malformed")
def truncated_envelope(m: Malicious) -> bytes | None:
    """A well-signed envelope cut short."""
    body = _a_move(m)
    return m.seal(body)[:-7] if body else None


@cheat("malformed")
def oversized_envelope(m: Malicious) -> bytes | None:
    """An envelope larger than any message may be (a memory-exhaustion attempt)."""
    body = _a_move(m)
    return m.seal(body + [b"\x00" * MAX_ENVELOPE_BYTES]) if body else None


@cheat("malformed")
def unknown_message_kind(m: Malicious) -> bytes | None:
    """A signed message of a kind no peer knows."""
    return m.seal(["teleport", 1, 2]) if m.table.game_id is not None else None


# --- cheating in one's own duties ------------------------------------------------------


def _encrypt(joint: JointKey, element: int, r: int) -> Ciphertext:
    return canonical(generator_table().raw_pow(r)), canonical(element * joint.table().raw_pow(r) % P)


def _known(i: int) -> int:
    """Randomness the cheater knows (256 bits, nonzero)."""
    return int.from_bytes(hashlib.sha256(b"known randomness %d" % i).digest(), "big") | 1


def _rerandomise(joint: JointKey, ct: Ciphertext, r: int) -> Ciphertext:
    return (canonical(ct[0] * generator_table().raw_pow(r) % P), canonical(ct[1] * joint.table().raw_pow(r) % P))


ChainStepT = ShuffleStep | RemaskStep
ChainProof = ShuffleProof | RemaskProof
Witness = tuple[tuple[int, ...], tuple[int, ...]] | tuple[int, ...]  # (permutation, r's) of a shuffle; r's of a re-mask


@dataclass(frozen=True)
class ChainTurn:
    """What a seat has in hand when its step of a chain (a shuffle or a
    re-masking of one deck epoch) is due."""

    table: Table  # its replica, with its secrets
    need: NeedShuffle | NeedRemask
    inputs: tuple[Ciphertext, ...]
    honest: ChainStepT  # the step its committed seed makes

    @property
    def joint(self) -> JointKey:
        assert self.table.joint is not None
        return self.table.joint

    @property
    def seed(self) -> Seed:
        assert self.table.me is not None
        return self.table.me.seed

    @property
    def seat(self) -> int:
        return self.honest.seat

    def with_ciphertexts(self, cts: Iterable[Ciphertext]) -> ChainStepT:
        return dataclasses.replace(self.honest, ciphertexts=tuple(cts))

    def prove(self, step: ChainStepT, witness: Witness | None = None) -> ChainProof:
        """The proof our prover makes for ``step`` on our input: from the
        witness our seed gives (the honest peer's prover, as it proves its
        own step), or from ``witness``."""
        if witness is None:
            if isinstance(step, ShuffleStep):
                return peer_module.prove_shuffle(self.joint, self.seed, step, self.inputs)  # type: ignore[attr-defined]
            return peer_module.prove_remask(self.joint, self.seed, step, self.inputs)  # type: ignore[attr-defined]
        if isinstance(step, ShuffleStep):
            with mock.patch.object(shuffleproof, "shuffle_witness", lambda *args: witness):
                return shuffleproof.prove_shuffle(self.joint, self.seed, step, self.inputs)
        with mock.patch.object(remaskproof, "remask_witness", lambda *args: witness):
            return remaskproof.prove_remask(self.joint, self.seed, step, self.inputs)

    def stacked(self) -> tuple[ChainStepT, Witness]:
        """Fresh encryptions, with randomness we know, of cards we pick in an
        order we pick: for a shuffle, the epoch's public card list with its
        locomotives on top; for a re-masking, the first tickets of the box.
        The "witness" is what we did, as if it were a re-encryption of our input."""
        n = len(self.inputs)
        rs = tuple(_known(i) for i in range(n))
        if isinstance(self.need, NeedShuffle):
            deck, cards = DECK_NAMES[self.need.deck], self.need.cards
            order = sorted(range(n), key=lambda i: (europe().card_kind(cards[i]) != LOCOMOTIVE, i)) \
                if deck == "train" else list(range(n))[::-1]
            cts = [_encrypt(self.joint, card_element(deck, cards[j]), r) for j, r in zip(order, rs)]
            return self.with_ciphertexts(cts), (tuple(order), rs)
        tickets = [t.id for t in europe().regular_tickets][:n]
        return self.with_ciphertexts(_encrypt(self.joint, card_element("tickets", t), r) for t, r in zip(tickets, rs)), rs

    def aliased(self) -> ChainStepT:
        """Our honest step with position 0 replaced by a re-randomised copy of
        another ciphertext: a card in the next seat's hand or tickets if it
        holds one of this deck (dealt to us, it would open that card for us),
        else our own position 1."""
        engine = self.table.engine
        assert engine is not None
        rival = engine.players[(self.seat + 1) % self.table.n]
        theirs = [r for r in rival.hand + rival.tickets + rival.offered
                  if r.deck is self.need.deck and r not in engine.public]
        source = self.table.ciphertext(theirs[0]) if theirs else self.honest.ciphertexts[1]
        return self.with_ciphertexts((_rerandomise(self.joint, source, _known(-1)), *self.honest.ciphertexts[1:]))

    def swapped(self) -> tuple[ChainStepT, Witness | None]:
        """A step and a witness for two different permutations: for a
        shuffle, our honest step with the witness of the permutation that
        exchanges its first two outputs; for a re-masking (which keeps the
        order), our honest step with its first two outputs exchanged, proven
        from the in-order witness our seed gives."""
        if isinstance(self.honest, ShuffleStep):
            h = self.honest
            permutation, rs = shuffle_witness(self.joint.game_id, self.seed, h.seat, h.deck, h.epoch, self.inputs)
            swapped = (permutation[1], permutation[0], *permutation[2:])
            return h, (swapped, rs)
        cts = self.honest.ciphertexts
        return self.with_ciphertexts((cts[1], cts[0], *cts[2:])), None


@dataclass(frozen=True)
class ChainForgery:
    """What a cheating seat publishes for its step: a step, and the proof
    it brings for it (None: it never proves it)."""

    step: ChainStepT
    proof: ChainProof | None


ChainForger = Callable[[ChainTurn], ChainForgery]


def stack(turn: ChainTurn) -> ChainForgery:
    """(a) Stack the deck: fresh encryptions of the card list in an order we
    picked, with randomness we know, brought with the proof of our honest step."""
    return ChainForgery(turn.stacked()[0], turn.prove(turn.honest))


def stack_with_its_own_witness(turn: ChainTurn) -> ChainForgery:
    """(a) The same stacked deck, with a proof made over what we really did
    (our order and our randomness, as if they re-encrypted our input). For
    the first seat of a shuffle that is TRUE: its input is the public card
    list, so the proof holds (and the seats after it shuffle again)."""
    step, witness = turn.stacked()
    return ChainForgery(step, turn.prove(step, witness))


def alias(turn: ChainTurn) -> ChainForgery:
    """(b) Put a re-randomised copy of another ciphertext at position 0 (a
    decryption oracle), with the proof our prover makes for that output."""
    step = turn.aliased()
    return ChainForgery(step, turn.prove(step))


def replay(proof: ChainProof) -> ChainForger:
    """(c) Stack the deck and bring a valid proof from elsewhere."""

    def forge(turn: ChainTurn) -> ChainForgery:
        return ChainForgery(turn.stacked()[0], proof)

    forge.__doc__ = replay.__doc__
    return forge


def misprove(turn: ChainTurn) -> ChainForgery:
    """(d) A proof for another permutation than the one the step applied."""
    step, witness = turn.swapped()
    return ChainForgery(step, turn.prove(step, witness))


def never_prove(turn: ChainTurn) -> ChainForgery:
    """(e) Publish the stacked deck, and never a proof."""
    return ChainForgery(turn.stacked()[0], None)


class ChainCheater(Peer):
    """A seat that cheats in its step of one deck epoch: instead of its
    honest step it publishes ``forge(turn)``'s, then that forgery's proof
    (if any) once: at its next turn to speak, as an honest seat does, or
    with ``proof_last`` only when that proof is all the epoch waits for (every
    other step and proof in). Honest in everything else. Once the table
    halts it reveals its secrets, like any peer, if ``reveals``."""

    proof_last = False
    reveals = True
    target: tuple[Deck, int] | None = None  # the epoch it cheats in (see aims_at)
    forger: ChainForger | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.forged: tuple[tuple[Deck, int], ChainForgery] | None = None
        self.proved = False

    def aims_at(self, need: NeedShuffle | NeedRemask) -> bool:
        return (need.deck, need.epoch) == self.target

    def forge(self, turn: ChainTurn) -> ChainForgery:
        assert self.forger is not None
        return self.forger(turn)

    def outbox(self) -> list[bytes]:
        if self.table.halted is not None and not self.reveals:
            return []
        return super().outbox()

    def _chain_step(self, engine: GameState) -> Shuffle | Remask | None:
        step = super()._chain_step(engine)
        need = engine.awaiting
        if step is None or not isinstance(need, (NeedShuffle, NeedRemask)):
            return step
        epoch = (need.deck, need.epoch)
        if self.forged is None and self.aims_at(need):
            built = self.table.chains.get(epoch)
            inputs = built.output if built else self.table.chain_inputs(need)
            self.forged = epoch, self.forge(ChainTurn(self.table, need, inputs, step.step))
        if self.forged is None or self.forged[0] != epoch:
            return step
        return dataclasses.replace(step, step=self.forged[1].step)  # the forged step, naming the chain's cards

    def _chain_proof(self, engine: GameState) -> ProveShuffle | ProveRemask | None:
        need = engine.awaiting
        if self.forged is None or not isinstance(need, (NeedShuffle, NeedRemask)) \
                or (need.deck, need.epoch) != self.forged[0]:
            return super()._chain_proof(engine)
        proof, built = self.forged[1].proof, self.table.chains[self.forged[0]]
        if proof is None or self.proved or self.seat >= len(built.steps):
            return None
        others = set(range(self.table.n)) - {self.seat}
        if self.proof_last and (len(built.steps) < self.table.n or not others <= built.proven):
            return None
        self.proved = True
        return ProveShuffle(proof) if isinstance(proof, ShuffleProof) else ProveRemask(proof)


def cheat_in_chain(peer: Peer, forger: ChainForger, target: tuple[Deck, int],
                   proof_last: bool = False, reveals: bool = True) -> ChainCheater:
    """Set up a ChainCheater (seated by ``games.Run.recast``) to cheat with ``forger`` in ``target``."""
    assert isinstance(peer, ChainCheater)
    peer.forger, peer.target, peer.proof_last, peer.reveals = forger, target, proof_last, reveals
    return peer


class FalseCardsShuffler(ChainCheater):
    """In its train-deck shuffle, replaces the first 40 cards by fresh
    encryptions of ``element(i)``: a well-formed deck of the wrong cards. It
    cannot prove that step; it brings the proof of its honest one."""

    target = (Deck.TRAIN, 0)

    def element(self, i: int) -> int:
        raise NotImplementedError

    def forge(self, turn: ChainTurn) -> ChainForgery:
        cts = [_encrypt(turn.joint, self.element(i), 1000 + i) if i < 40 else ct
               for i, ct in enumerate(turn.honest.ciphertexts)]
        return ChainForgery(turn.with_ciphertexts(cts), turn.prove(turn.honest))


class SubstitutingShuffler(FalseCardsShuffler):
    """Swaps 40 cards for copies of one locomotive."""

    def element(self, i: int) -> int:
        return card_element("train", 96)


class GarbageShuffler(FalseCardsShuffler):
    """Replaces 40 cards by group elements that are no card at all."""

    def element(self, i: int) -> int:
        return pow(G, 7 + i, P)


class SwappingRemasker(ChainCheater):
    """Re-masks returned tickets honestly but in another order than it must
    (the first time two or more come back), with the proof of its honest,
    in-order step."""

    def aims_at(self, need: NeedShuffle | NeedRemask) -> bool:
        return isinstance(need, NeedRemask) and len(need.refs) >= 2

    def forge(self, turn: ChainTurn) -> ChainForgery:
        cts = turn.honest.ciphertexts
        return ChainForgery(turn.with_ciphertexts((cts[1], cts[0], *cts[2:])), turn.prove(turn.honest))


class FalseSharer(Peer):
    """Sends a false share (its proof fails) for a card another seat draws.
    Only the drawer checks it, when it reads the card; it then reveals its
    secrets, which halts every replica and lets the audit name the cheat."""

    lied = False

    def outbox(self) -> list[bytes]:
        out = super().outbox()
        table = self.table
        if self.lied or table.engine is None or not table.engine.draw_pile or not out:
            return out
        env = open_envelope(out[0])
        message = message_from_wire(env.body)
        if not isinstance(message, Shares):
            return out
        reveal = table.engine.awaiting.refs if isinstance(table.engine.awaiting, NeedReveal) else ()
        private = [i for i, sh in enumerate(message.shares) if table.deck.engine_ref(sh.ref) not in reveal]
        if not private:
            return out
        shares = list(message.shares)
        i = private[0]
        a, b = table.ciphertext(table.deck.engine_ref(shares[i].ref))
        assert table.me is not None
        shares[i] = make_share(table.me.key, shares[i].ref, (b, a))
        self.lied = True
        body = Shares(tuple(shares)).to_wire()
        return [seal(self.identity, env.game_id, env.seat, env.seq, env.head, body).raw, *out[1:]]


class Withholder(Peer):
    """Plays honestly until the deck is built, then never sends anything again
    (it keeps its connection: a peer that stalls, not one that crashed)."""

    def outbox(self) -> list[bytes]:
        if self.table.engine is not None and self.table.engine.draw_pile:
            return []
        return super().outbox()


DUTY_CHEATS: dict[str, type[Peer]] = {
    "substitute_cards": SubstitutingShuffler,
    "garbage_cards": GarbageShuffler,
    "swap_remask": SwappingRemasker,
    "false_private_share": FalseSharer,
    "withhold": Withholder,
}
