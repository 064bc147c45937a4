"""A malicious peer for the adversarial tests: one small, named capability per cheat.

Two kinds of capability:

* ``CHEATS``: messages a cheating seat can forge from its own replica and
  secrets (``Malicious(seat, identity, table)``). Each forger returns the raw
  envelope of one cheat, or None while the table is not at a point where the
  cheat makes sense; ``Cheat.code`` is the refusal every honest table must
  answer with (protocol.md §7), changing nothing.
* ``cheating_peer(name)``: a ``Peer`` class that cheats in its own duties (a
  false shuffle, a false re-masking, withholding what it owes), for whole
  games in one process (``play_crypto_game(peer_types=...)``) or over the
  network (``evil.py``). Those cheats are not refused at once: they halt the
  game, are caught by ``ttr verify``, or leave the others waiting.

Nothing here is used by the game itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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
from p2p_ttr.deck.fixedbase import generator_table
from p2p_ttr.deck.group import G, P, canonical
from p2p_ttr.engine.board import europe
from p2p_ttr.engine.cards import CardRef
from p2p_ttr.engine.events import ClaimRoute, DrawBlind
from p2p_ttr.engine.rules import actors, claim_problem
from p2p_ttr.engine.state import GameState, NeedReveal, NeedShuffle, Phase
from p2p_ttr.table.envelope import MAX_ENVELOPE_BYTES, open_envelope, pack, seal
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.messages import Act, Audit, Keys, Message, Remask, Seat, Seating, Shares, Shuffle, message_from_wire
from p2p_ttr.table.peer import Peer
from p2p_ttr.table.table import DECK_NAMES, Table, deck_ref

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

    def claim(self, cards: Callable[[GameState, int], list[CardRef]], false_shares: bool = False) -> bytes | None:
        """Claim the first open route of length 1..4, paying ``cards(engine, length)``
        with our shares of those that are hidden (false ones if asked)."""
        e = self.my_turn()
        if e is None:
            return None
        for route in sorted(europe().routes, key=lambda r: (r.length, r.id)):
            if route.length > 4 or claim_problem(e, self.seat, route) is not None:
                continue
            paid = cards(e, route.length)
            if paid:
                hidden = [r for r in paid if r not in e.public]
                swapped = {r: self.table.ciphertext(r)[::-1] for r in hidden} if false_shares else {}
                shares = tuple(self.share(r, swapped.get(r)) for r in hidden)  # type: ignore[arg-type]
                return self.send(Act(ClaimRoute(self.seat, route.id, tuple(paid)), shares))
        return None

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
        hand = e.players[m.other_seat()].hand
        return list(hand[:length]) if len(hand) >= length else []

    return m.claim(theirs)


@cheat("bad_proof")
def claim_with_a_false_share(m: Malicious) -> bytes | None:
    """Claim with cards we hold, showing them with shares that would open other cards."""

    def ours(e: GameState, length: int) -> list[CardRef]:
        hand = [r for r in e.players[m.seat].hand if r not in e.public]
        return hand[:length] if len(hand) >= length else []

    return m.claim(ours, false_shares=True)


@cheat("malformed")
def act_without_its_shares(m: Malicious) -> bytes | None:
    """Claim with cards we hold but keep back the shares that show them."""
    e = m.my_turn()
    if e is None or not e.players[m.seat].hand:
        return None
    route = min((r for r in europe().routes if claim_problem(e, m.seat, r) is None), key=lambda r: r.length, default=None)
    hand = e.players[m.seat].hand
    if route is None or len(hand) < route.length:
        return None
    return m.send(Act(ClaimRoute(m.seat, route.id, tuple(hand[: route.length]))))


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


def _my_chain_turn(m: Malicious) -> tuple[ShuffleStep | RemaskStep, type[Shuffle] | type[Remask]] | None:
    """Our honest step of the chain being built, if it is our turn in it."""
    e = m.engine
    if e is None:
        return None
    helper = Peer(m.seat, m.identity, lambda view, seat: None)
    helper.table = m.table
    step = helper._chain_step(e)
    if step is None:
        return None
    return step.step, type(step)


@cheat("malformed")
def shuffle_dropping_a_card(m: Malicious) -> bytes | None:
    """Our chain step with one card left out."""
    mine = _my_chain_turn(m)
    if mine is None or len(mine[0].ciphertexts) < 2:
        return None
    step, kind = mine
    short = dataclasses.replace(step, ciphertexts=step.ciphertexts[:-1])
    return m.send(kind(short))  # type: ignore[arg-type]


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
    return m.send(Shuffle(shuffle_step(m.table.joint, m.table.me.seed, m.seat, DECK_NAMES[need.deck], need.epoch, inputs)))


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


class FalseCardsShuffler(Peer):
    """In its train-deck shuffle, replaces the first 40 cards by fresh
    encryptions of ``element(i)``: a well-formed deck of the wrong cards."""

    def element(self, i: int) -> int:
        raise NotImplementedError

    def _chain_step(self, engine: GameState) -> Shuffle | Remask | None:
        step = super()._chain_step(engine)
        if not (isinstance(step, Shuffle) and step.step.deck == "train" and step.step.epoch == 0):
            return step
        joint = self.table.joint
        assert joint is not None
        cts = [_encrypt(joint, self.element(i), 1000 + i) if i < 40 else ct for i, ct in enumerate(step.step.ciphertexts)]
        return Shuffle(dataclasses.replace(step.step, ciphertexts=tuple(cts)))


class SubstitutingShuffler(FalseCardsShuffler):
    """Swaps 40 cards for copies of one locomotive."""

    def element(self, i: int) -> int:
        return card_element("train", 96)


class GarbageShuffler(FalseCardsShuffler):
    """Replaces 40 cards by group elements that are no card at all."""

    def element(self, i: int) -> int:
        return pow(G, 7 + i, P)


class SwappingRemasker(Peer):
    """Re-masks returned tickets honestly but in another order than it must:
    nobody can see it in play (the ciphertexts look random)."""

    def _chain_step(self, engine: GameState) -> Shuffle | Remask | None:
        step = super()._chain_step(engine)
        if isinstance(step, Remask) and len(step.step.ciphertexts) >= 2:
            cts = step.step.ciphertexts
            return Remask(dataclasses.replace(step.step, ciphertexts=(cts[1], cts[0], *cts[2:])))
        return step


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
        private = [i for i, sh in enumerate(message.shares) if table._engine_ref(sh.ref) not in reveal]
        if not private:
            return out
        shares = list(message.shares)
        i = private[0]
        a, b = table.ciphertext(table._engine_ref(shares[i].ref))
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
