"""An outsider's audit of a game log, from protocol.md alone (§1 limits, §3
the deck, §4 envelopes, §5 messages, §6 the head chain and the chains'
order, §8 the file). It checks every envelope (limits, signature, sequence
number, head), every key proof, every chain step's input, proof and
re-execution from its revealed seed, every epoch's decryption, and every
share (proof and value): what the deck audit of `ttr verify` checks. It
does not play the rules of §2 (moves and scores) nor judge escrow and
hand-overs; it counts those entries.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import msgpack
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from outsider_math import (
    G,
    Pair,
    Refused,
    card,
    decrypt,
    element,
    enc,
    genesis,
    key_proof_holds,
    power,
    product,
    remask_proof_holds,
    remask_step,
    same,
    seed_commitment,
    share_proof_holds,
    shuffle_proof_holds,
    shuffle_step,
    uint,
)

# the seating is [kind, rules, [board, variant, digest], players, escrow?]; 7 changed only the caretaker (§6)
RULES = ("ttr/7", "ttr/6")
RULES_5 = "ttr-europe/5"  # before the boards: [kind, rules, players, escrow?]
MAX_ENVELOPE = 128 * 1024
ENVELOPE_LIMITS = dict(max_str_len=4096, max_bin_len=MAX_ENVELOPE, max_array_len=512, max_map_len=0,
                       max_ext_len=0)
DECKS = ("train", "tickets", "long")


@dataclass(frozen=True)
class Finding:
    entry: int | None
    seat: int | None
    what: str


@dataclass
class Step:
    seat: int
    output: list[Pair]
    entry: int | None  # None: the fold's own step for a seat that left (protocol.md §3)


@dataclass
class Chain:
    kind: str  # "shuffle", "remask" or "mix" (a shuffle of earlier cards' ciphertexts)
    deck: str
    epoch: int
    source: list[Any]  # card ids, or [deck, epoch, pos] references
    steps: list[Step] = field(default_factory=list)


@dataclass
class Report:
    entries: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    keys: int = 0
    proofs: int = 0
    steps: int = 0
    derived: int = 0
    reproduced: int = 0
    epochs: int = 0
    shares: int = 0
    findings: list[Finding] = field(default_factory=list)

    @property
    def first(self) -> Finding | None:
        placed = [f for f in self.findings if f.entry is not None]
        return min(placed, key=lambda f: f.entry or 0) if placed else (self.findings[0] if self.findings else None)


def read_log(data: bytes) -> tuple[bytes, list[bytes]]:
    """§8: a header, then one msgpack bin per entry."""
    unpacker = msgpack.Unpacker(raw=False, max_buffer_size=len(data), max_bin_len=MAX_ENVELOPE, max_str_len=64,
                                max_array_len=3, max_map_len=0, max_ext_len=0)
    unpacker.feed(data)
    magic, version, game_id = next(unpacker)
    assert (magic, version) == ("p2p_ttr-log", 1) and len(game_id) == 16
    entries = list(unpacker)
    assert all(isinstance(e, bytes) for e in entries) and unpacker.tell() == len(data)
    return game_id, entries


class LogAudit:
    """Folds the entries in order, as §6 says every peer does, keeping only
    what the deck needs; then the audit of §3, Auditing the deck."""

    def __init__(self, game_id: bytes, entries: list[bytes]) -> None:
        self.game_id, self.entries = game_id, entries
        self.report = Report(entries=len(entries))
        self.identities: list[bytes] = []
        self.heads = [genesis(game_id)]
        self.last_seq: dict[int, int] = {}
        self.public: dict[int, int] = {}
        self.commitments: dict[int, bytes] = {}
        self.joint: int | None = None
        self.chains: dict[tuple[str, int], Chain] = {}
        self.seeds: dict[int, bytes] = {}
        self.secrets: dict[int, int] = {}
        self.forfeited: set[int] = set()
        self.published: list[tuple[int, int, int, int]] = []  # entry, seat, a, d

    @property
    def n(self) -> int:
        return len(self.identities)

    def find(self, entry: int | None, seat: int | None, what: str) -> None:
        self.report.findings.append(Finding(entry, seat, what))

    # ------------------------------------------------------------ the fold

    def run(self) -> Report:
        for index, raw in enumerate(self.entries):
            try:
                self.fold(index, raw)
            except (Refused, ValueError, TypeError, KeyError, IndexError) as exc:
                self.find(index, None, f"refused: {exc}")
                break
            self.heads.append(hashlib.sha256(self.heads[-1] + hashlib.sha256(raw).digest()).digest())
        self.audit()
        return self.report

    def fold(self, index: int, raw: bytes) -> None:
        if len(raw) > MAX_ENVELOPE:
            raise Refused("an envelope is at most 128 KiB")
        signed, signature = msgpack.unpackb(raw, raw=False, **ENVELOPE_LIMITS)
        version, game_id, seat, seq, head, body = msgpack.unpackb(signed, raw=False, **ENVELOPE_LIMITS)
        if version != 1 or game_id != self.game_id or not isinstance(body, list) or not body:
            raise Refused("another version or game, or no body")
        kind = body[0]
        self.report.kinds[kind] += 1
        if index == 0:
            if (kind, seat, seq, head) != ("seating", 0, 1, bytes(32)) or body[1] not in (*RULES, RULES_5):
                raise Refused(f"entry 0 is seat 0's seating under {' or '.join(RULES)} or {RULES_5}, "
                              "written at 32 zero bytes")
            self.identities = [identity for _, identity in body[2 if body[1] == RULES_5 else 3]]
        elif head not in self.heads:  # h0 .. h(index)
            raise Refused(f"seat {seat} wrote at a head this log never had")
        if not 0 <= seat < self.n:
            raise Refused("no such seat")
        try:
            Ed25519PublicKey.from_public_bytes(self.identities[seat]).verify(signature, signed)
        except InvalidSignature:
            raise Refused(f"not seat {seat}'s signature") from None
        if seq <= self.last_seq.get(seat, 0):
            raise Refused(f"seat {seat} replays message {seq}")
        self.last_seq[seat] = seq
        handler = getattr(self, "on_" + kind, None)
        if handler is not None:
            handler(index, seat, body)

    def on_keys(self, index: int, seat: int, body: list[Any]) -> None:
        (key_seat, y_raw, t_raw, s_raw), (commit_seat, digest) = body[1], body[2]
        y, t, s = element(y_raw), element(t_raw), uint(s_raw, 65)
        if (key_seat, commit_seat) != (seat, seat) or seat in self.public or len(digest) != 32:
            raise Refused("a seat announces its own key, once")
        if not key_proof_holds(self.game_id, seat, y, t, s):
            raise Refused(f"seat {seat}'s key has no valid proof")
        self.report.keys += 1
        self.public[seat], self.commitments[seat] = y, digest
        if len(self.public) == self.n:
            self.joint = enc(product([self.public[j] for j in range(self.n)]))

    def on_shuffle(self, index: int, seat: int, body: list[Any]) -> None:
        self._step("shuffle", index, seat, body)

    def on_remask(self, index: int, seat: int, body: list[Any]) -> None:
        self._step("remask", index, seat, body)

    def on_mix(self, index: int, seat: int, body: list[Any]) -> None:
        self._step("mix", index, seat, body)

    def _step(self, kind: str, index: int, seat: int, body: list[Any]) -> None:
        (deck, epoch, step_seat, pairs), source = body[1], body[2]
        if deck not in DECKS or step_seat != seat or len(source) != len(pairs):
            raise Refused("a step of a known deck, by its author, naming one card per ciphertext")
        chain = self.chains.setdefault((deck, epoch), Chain(kind, deck, epoch, source))
        if chain.kind != kind or chain.source != source:
            raise Refused(f"a {kind} of {deck} epoch {epoch} naming other cards")
        self._derive(chain, until=seat)
        if len(chain.steps) != seat:
            raise Refused(f"seat {seat} steps out of turn in {deck} epoch {epoch}")
        output = [(element(a), element(b)) for a, b in pairs]
        if len(output) != len(self.input(chain, seat)):
            raise Refused("one output per input")
        chain.steps.append(Step(seat, output, index))
        self.report.steps += 1

    def _derive(self, chain: Chain, until: int) -> None:
        """The fold's own steps for seats that left, up to seat ``until`` (§3)."""
        while len(chain.steps) < until and len(chain.steps) in self.forfeited:
            seat = len(chain.steps)
            make = remask_step if chain.kind == "remask" else shuffle_step  # a mix's steps are shuffles
            assert self.joint is not None
            chain.steps.append(Step(seat, make(self.seeds[seat], self.game_id, seat, chain.deck, chain.epoch,
                                               self.joint, self.input(chain, seat)), None))
            self.report.derived += 1

    def input(self, chain: Chain, seat: int) -> list[Pair]:
        """§3, Chain inputs."""
        if seat > 0:
            return chain.steps[seat - 1].output
        if chain.kind == "shuffle":
            return [(1, card(chain.deck, c)) for c in chain.source]
        return [self.final(deck, epoch)[pos] for deck, epoch, pos in chain.source]

    def final(self, deck: str, epoch: int) -> list[Pair]:
        chain = self.chains[(deck, epoch)]
        if len(chain.steps) != self.n:
            raise Refused(f"{deck} epoch {epoch} is not finished")
        return chain.steps[-1].output

    def on_shuffle_proof(self, index: int, seat: int, body: list[Any]) -> None:
        self._proof(index, seat, body[1], shuffle_proof_holds)

    def on_remask_proof(self, index: int, seat: int, body: list[Any]) -> None:
        self._proof(index, seat, body[1], remask_proof_holds)

    def on_mix_proof(self, index: int, seat: int, body: list[Any]) -> None:
        self._proof(index, seat, body[1], shuffle_proof_holds)

    def _proof(self, index: int, seat: int, proof: list[Any], holds: Any) -> None:
        deck, epoch = proof[0], proof[1]
        chain = self.chains[(deck, epoch)]
        step = chain.steps[seat]
        assert self.joint is not None and step.entry is not None
        self.report.proofs += 1
        if not holds(self.joint, self.game_id, seat, deck, epoch, self.input(chain, seat), step.output, proof):
            self.find(index, seat, f"a false proof of its step of {deck} epoch {epoch}")

    def on_shares(self, index: int, seat: int, body: list[Any]) -> None:
        for deck, epoch, pos, share_seat, d_raw, t1_raw, t2_raw, s_raw in body[1]:
            if share_seat != seat:
                raise Refused("a seat publishes its own shares")
            a = self.final(deck, epoch)[pos][0]
            d, t1, t2, s = element(d_raw), element(t1_raw), element(t2_raw), uint(s_raw, 65)
            self.report.shares += 1
            if not share_proof_holds(self.game_id, seat, deck, epoch, pos, self.public[seat], a, d, t1, t2, s):
                self.find(index, seat, f"a false share of {deck}/{epoch}/{pos}")
            self.published.append((index, seat, a, d))

    def on_audit(self, index: int, seat: int, body: list[Any]) -> None:
        seed, (game_id, key_seat, x_raw) = body[1], body[2]
        x = int.from_bytes(x_raw, "big")
        if game_id != self.game_id or key_seat != seat or len(seed) != 32 or len(x_raw) not in (32, 256):
            raise Refused("a seat reveals its own secrets for this game")
        if not same(power(G, x), self.public[seat]):
            self.find(index, seat, "a revealed exponent that is not its key")
        if seed_commitment(self.game_id, seat, seed) != self.commitments[seat]:
            self.find(index, seat, "a revealed seed that does not open its commitment")
        self.seeds[seat], self.secrets[seat] = seed, x

    def on_forfeit(self, index: int, seat: int, body: list[Any]) -> None:
        self.on_audit(index, seat, body)
        self.forfeited.add(seat)

    # ----------------------------------------------------------- the audit

    def audit(self) -> None:
        """§3, Auditing the deck: every step from its seed, every epoch's
        cards, every share's value (once every seat revealed)."""
        for chain in self.chains.values():
            self._derive(chain, until=self.n)
        if sorted(self.secrets) != list(range(self.n)) or self.joint is None:
            self.find(None, None, "not every seat revealed its secrets: the audit cannot run")
            return
        secret_sum = sum(self.secrets.values())
        cards: dict[tuple[str, int], list[int | None]] = {}
        for (deck, epoch), chain in self.chains.items():  # log order: sources come first
            self.report.epochs += 1
            for step in chain.steps:
                make = remask_step if chain.kind == "remask" else shuffle_step
                if step.entry is None:
                    continue
                again = make(self.seeds[step.seat], self.game_id, step.seat, deck, epoch, self.joint,
                             self.input(chain, step.seat))
                if again == step.output:
                    self.report.reproduced += 1
                else:
                    self.find(step.entry, step.seat, f"its step of {deck} epoch {epoch} is not its seed's")
            if len(chain.steps) < self.n:
                self.find(None, len(chain.steps), f"{deck} epoch {epoch} was never finished")
                continue
            # A shuffle holds the cards it names, in some order; a re-masking
            # the cards at the references it names, in that order; a mix those, in some order.
            wanted = chain.source if chain.kind == "shuffle" else [cards[(d, e)][pos] for d, e, pos in chain.source]
            table = {card(deck, c): c for c in wanted if c is not None}
            found = [table.get(decrypt(pair, secret_sum)) for pair in chain.steps[-1].output]
            cards[(deck, epoch)] = found
            if Counter(found) != Counter(wanted) or (chain.kind == "remask" and found != wanted):
                self.find(None, None, f"{deck} epoch {epoch} does not hold its cards")
        for entry, seat, a, d in self.published:
            if not same(power(a, self.secrets[seat]), d):
                self.find(entry, seat, "a share that is not a^x")


def audit_log(data: bytes) -> Report:
    game_id, entries = read_log(data)
    return LogAudit(game_id, entries).run()
