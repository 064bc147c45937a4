"""Re-execute a finished game's deck transcript and report every deviation.

After the game every seat publishes a :class:`~.transcript.SecretReveal`
(seed and secret exponent). :func:`audit` then checks, in this order:

1. every key's proof of knowledge (for this game and seat);
2. every reveal: the seed opens the seat's commitment, ``G^x`` is the
   seat's announced key;
3. every shuffle and re-masking step: seats in order, one step per seat per
   deck epoch, and the published output equals what the revealed seed
   produces from the previous output (bit for bit); a mixed epoch's steps
   are shuffle steps;
4. every deck epoch: its final list decrypts (with ``X = sum x_j``) to
   exactly the cards the epoch was created with (a re-masked epoch: the
   cards at its source references, in the same order; a mixed epoch: those
   cards in any order); a step that did not
   reproduce is also decrypted to say what it did (dropped, duplicated or
   foreign cards);
5. every published share equals ``a^x_j`` for the seat's revealed key
   (checked per seat in one batch with random weights, then one by one to
   locate a failure); a share of a seat that revealed nothing is checked by
   its proof instead;
6. every claimed opening names the card that is really at that position.

Each finding carries the record index and the seat to blame. Nothing here
raises on a bad transcript: every problem becomes a line of the report.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from .commit import Seed, SeedCommitment, check_seed
from .deckorder import EpochPosition
from .drbg import RandomSource, fresh_bytes
from .elgamal import Ciphertext, DeckCreation, decrypt_with_exponent, decrypt_with_shares
from .encoding import CardCodec
from .errors import CommitmentMismatch, InvalidKeyProof, InvalidShareProof
from .fixedbase import g_pow, multi_exp
from .group import exp
from .keys import JointKey, KeyAnnouncement
from .shares import DecryptionShare, verify_share
from .remask import MixCreation, RemaskCreation, RemaskStep, remask_step
from .shuffle import ShuffleStep, shuffle_step
from .transcript import CardOpening, SecretReveal, Transcript

_WEIGHT_BYTES = 8
_R = TypeVar("_R", KeyAnnouncement, SeedCommitment, SecretReveal)


Locate = Callable[[int | None], str]
"""How a report line names where a record came from: by default "record N"
(its index in the transcript); ``ttr verify`` names the log entry instead."""


def _mark(ok: bool) -> str:
    return "ok  " if ok else "FAIL"


def by_record(record: int | None) -> str:
    """The default :data:`Locate`: the record's index in the transcript."""
    return "record -" if record is None else f"record {record}"


@dataclass(frozen=True, slots=True)
class KeyCheck:
    """A key announcement's proof of knowledge."""

    record: int
    seat: int
    ok: bool
    detail: str

    def line(self, at: Locate = by_record) -> str:
        return f"{_mark(self.ok)} key      {at(self.record)}: seat {self.seat} {self.detail}"


@dataclass(frozen=True, slots=True)
class RevealCheck:
    """A seat's end-of-game reveal against its commitment and key."""

    record: int | None
    seat: int
    seed_ok: bool
    key_ok: bool
    detail: str

    @property
    def ok(self) -> bool:
        return self.seed_ok and self.key_ok

    def line(self, at: Locate = by_record) -> str:
        return f"{_mark(self.ok)} reveal   {at(self.record)}: seat {self.seat} {self.detail}"


@dataclass(frozen=True, slots=True)
class ShuffleCheck:
    """Whether a chain step (``kind`` "shuffle" or "remask") is what its seed produces."""

    record: int
    deck: str
    epoch: int
    seat: int
    reproduced: bool
    detail: str
    kind: str = "shuffle"

    @property
    def ok(self) -> bool:
        return self.reproduced

    def line(self, at: Locate = by_record) -> str:
        return (
            f"{_mark(self.ok)} {self.kind:<8} {at(self.record)}: {self.deck}/{self.epoch} "
            f"seat {self.seat} {self.detail}"
        )


@dataclass(frozen=True, slots=True)
class DeckCheck:
    """Whether a deck epoch's final list is a permutation of its cards."""

    record: int
    deck: str
    epoch: int
    ok: bool
    missing: tuple[int, ...]
    duplicated: tuple[int, ...]
    foreign: int
    blamed: tuple[int, ...]
    detail: str

    def line(self, at: Locate = by_record) -> str:
        return f"{_mark(self.ok)} deck     {at(self.record)}: {self.deck}/{self.epoch} {self.detail}"


@dataclass(frozen=True, slots=True)
class ShareCheck:
    """Whether a published decryption share matches its seat's key."""

    record: int
    ref: EpochPosition
    seat: int
    ok: bool
    detail: str

    def line(self, at: Locate = by_record) -> str:
        return f"{_mark(self.ok)} share    {at(self.record)}: {self.ref} seat {self.seat} {self.detail}"


@dataclass(frozen=True, slots=True)
class OpeningCheck:
    """Whether a claimed card is the one at its position."""

    record: int
    ref: EpochPosition
    claimant: int
    claimed: int
    actual: int | None
    ok: bool
    detail: str

    def line(self, at: Locate = by_record) -> str:
        return (
            f"{_mark(self.ok)} opening  {at(self.record)}: {self.ref} seat {self.claimant} "
            f"{self.detail}"
        )


@dataclass(frozen=True, slots=True)
class Deviation:
    """A departure from the protocol, the seat to blame (if any) and where."""

    seat: int | None
    record: int | None
    kind: str
    detail: str

    def line(self, at: Locate = by_record) -> str:
        who = "no seat" if self.seat is None else f"seat {self.seat}"
        return f"CHEAT    {at(self.record)}: {who}: {self.kind}: {self.detail}"


@dataclass(frozen=True, slots=True)
class AuditReport:
    """Everything the audit checked; ``ok`` iff no deviation was found."""

    game_id: bytes
    keys: tuple[KeyCheck, ...]
    reveals: tuple[RevealCheck, ...]
    shuffles: tuple[ShuffleCheck, ...]
    decks: tuple[DeckCheck, ...]
    shares: tuple[ShareCheck, ...]
    openings: tuple[OpeningCheck, ...]
    deviations: tuple[Deviation, ...]

    @property
    def ok(self) -> bool:
        return not self.deviations

    @property
    def blamed_seats(self) -> tuple[int, ...]:
        """Every seat named by a deviation, ascending."""
        return tuple(sorted({d.seat for d in self.deviations if d.seat is not None}))

    def lines(self, at: Locate = by_record) -> tuple[str, ...]:
        """One human-readable line per item, then the deviations and a verdict;
        ``at`` names where each item's record came from."""
        items: list[KeyCheck | RevealCheck | ShuffleCheck | DeckCheck | ShareCheck | OpeningCheck]
        items = [*self.keys, *self.reveals, *self.shuffles, *self.decks, *self.shares, *self.openings]
        verdict = (
            "audit passed: no deviation"
            if self.ok
            else f"audit FAILED: {len(self.deviations)} deviation(s), seats {list(self.blamed_seats)}"
        )
        return (*(item.line(at) for item in items), *(d.line(at) for d in self.deviations), verdict)


@dataclass
class _Epoch:
    """A deck epoch as replayed: its chain so far and, later, its cards."""

    record: int
    deck: str
    epoch: int
    kind: str  # "shuffle" (from a DeckCreation), "remask" (a RemaskCreation) or "mix" (a MixCreation)
    current: tuple[Ciphertext, ...]  # the chain's input, then each published output
    universe: tuple[int, ...]  # every card that may legitimately appear
    created: tuple[int, ...] = ()  # a shuffled epoch's cards
    sources: tuple[EpochPosition, ...] = ()  # a re-masked or mixed epoch's cards, in order
    steps: list[tuple[int, ShuffleStep | RemaskStep, list[Ciphertext]]] = field(
        default_factory=list
    )
    cards: tuple[int | None, ...] | None = None  # after decryption, by position

    @property
    def size(self) -> int:
        return len(self.created or self.sources)

    @property
    def step_kind(self) -> str:
        """The kind of step its chain is made of: a mixed epoch's are shuffles."""
        return "remask" if self.kind == "remask" else "shuffle"

    def codec(self) -> CardCodec:
        return CardCodec(self.deck, self.universe)


class Precomputed(Protocol):
    """Results of the audit's heavy pure computations, worked out elsewhere
    (`ttr verify` has worker processes compute them from the log while it
    folds). Each answers only for exactly these arguments, else None, and
    the audit computes it itself: what it finds never depends on them."""

    def step(self, kind: str, seed: Seed, seat: int, deck: str, epoch: int,
             inputs: tuple[Ciphertext, ...]) -> tuple[Ciphertext, ...] | None:
        """The ciphertexts ``shuffle_step`` ("shuffle") or ``remask_step`` ("remask") makes of these."""

    def plaintexts(self, ciphertexts: tuple[Ciphertext, ...], x: int) -> tuple[int, ...] | None:
        """``decrypt_with_exponent(ciphertexts, x)``."""


class _Auditor:
    def __init__(self, transcript: Transcript, source: RandomSource | None,
                 precomputed: Precomputed | None = None) -> None:
        self.game_id = transcript.game_id
        self.records = transcript.records
        self.source = source
        self.precomputed = precomputed
        self.keys: list[KeyCheck] = []
        self.reveals: list[RevealCheck] = []
        self.shuffles: list[ShuffleCheck] = []
        self.decks: list[DeckCheck] = []
        self.shares: list[ShareCheck] = []
        self.openings: list[OpeningCheck] = []
        self.deviations: list[Deviation] = []
        self.seeds: dict[int, Seed] = {}
        self.exponents: dict[int, int] = {}
        self.epochs: dict[tuple[str, int], _Epoch] = {}
        self.broken: set[tuple[str, int]] = set()  # epochs whose creation was invalid
        self.joint: JointKey | None = None
        self.secret_sum: int | None = None

    def deviate(self, seat: int | None, record: int | None, kind: str, detail: str) -> None:
        self.deviations.append(Deviation(seat, record, kind, detail))

    # -- keys, commitments and reveals ----------------------------------------

    def check_keys_and_reveals(self) -> None:
        announcements: dict[int, tuple[int, KeyAnnouncement]] = {}
        commitments: dict[int, tuple[int, SeedCommitment]] = {}
        reveals: dict[int, tuple[int, SecretReveal]] = {}
        first_shuffle = next(
            (i for i, r in enumerate(self.records) if isinstance(r, (ShuffleStep, RemaskStep))),
            len(self.records),
        )
        for index, record in enumerate(self.records):
            if isinstance(record, KeyAnnouncement):
                self._collect(announcements, index, record, "key announcement")
                if index > first_shuffle:
                    self.deviate(record.seat, index, "late key", "key announced after shuffling began")
            elif isinstance(record, SeedCommitment):
                self._collect(commitments, index, record, "seed commitment")
                if index > first_shuffle:
                    self.deviate(
                        record.seat, index, "late commitment", "seed committed after shuffling began"
                    )
            elif isinstance(record, SecretReveal):
                self._collect(reveals, index, record, "secret reveal")
        for seat, (index, announcement) in sorted(announcements.items()):
            try:
                announcement.verify(self.game_id)
            except InvalidKeyProof:
                self.keys.append(KeyCheck(index, seat, False, "key has no valid proof of knowledge"))
                self.deviate(seat, index, "bad key proof", "public key without a valid proof")
            else:
                self.keys.append(KeyCheck(index, seat, True, "key proof valid"))
        seats = sorted(announcements)
        if not seats or seats != list(range(len(seats))):
            self.deviate(None, None, "seats", f"key announcements for seats {seats}, not 0..n-1")
            return
        self.joint = JointKey(self.game_id, tuple(announcements[s][1].public_key for s in seats))
        for seat in seats:
            self._check_reveal(seat, commitments.get(seat), reveals.get(seat))
        if len(self.exponents) == len(seats):
            self.secret_sum = sum(self.exponents.values())

    def _collect(self, found: dict[int, tuple[int, _R]], index: int, record: _R, what: str) -> None:
        """Keep the first record per seat; a second one is a deviation."""
        seat = record.seat
        if seat in found:
            self.deviate(seat, index, f"duplicate {what}", f"seat {seat} already did at {found[seat][0]}")
        else:
            found[seat] = (index, record)

    def _check_reveal(
        self,
        seat: int,
        commitment: tuple[int, SeedCommitment] | None,
        reveal: tuple[int, SecretReveal] | None,
    ) -> None:
        assert self.joint is not None
        if reveal is None:
            self.reveals.append(RevealCheck(None, seat, False, False, "revealed nothing"))
            self.deviate(seat, None, "no reveal", "did not reveal its seed and key")
            return
        index, revealed = reveal
        problems = []
        seed_ok = False
        if commitment is None:
            problems.append("never committed to a seed")
            self.deviate(seat, None, "no commitment", "never committed to a seed")
        else:
            try:
                check_seed(self.game_id, commitment[1], revealed.seed)
            except CommitmentMismatch:
                problems.append("seed does not match its commitment")
                self.deviate(seat, index, "seed mismatch", "revealed seed does not open its commitment")
            else:
                seed_ok = True
                self.seeds[seat] = revealed.seed
        key_ok = g_pow(revealed.x) == self.joint.public_keys[seat]
        if key_ok:
            self.exponents[seat] = revealed.x
        else:
            problems.append("exponent does not match its public key")
            self.deviate(seat, index, "key mismatch", "revealed exponent is not the announced key's")
        detail = "; ".join(problems) if problems else "seed and key match"
        self.reveals.append(RevealCheck(index, seat, seed_ok, key_ok, detail))

    # -- decks and shuffles ---------------------------------------------------

    def replay_decks(self) -> None:
        pending_shares: list[tuple[int, DecryptionShare, Ciphertext]] = []
        pending_openings: list[tuple[int, CardOpening]] = []
        for index, record in enumerate(self.records):
            if isinstance(record, DeckCreation):
                if self._new_epoch(index, record.deck, record.epoch):
                    self.epochs[(record.deck, record.epoch)] = _Epoch(
                        index, record.deck, record.epoch, "shuffle", record.ciphertexts(),
                        record.cards, created=record.cards,
                    )
            elif isinstance(record, RemaskCreation):
                self._remask_creation(index, record)
            elif isinstance(record, (ShuffleStep, RemaskStep)):
                self._replay_step(index, record)
            elif isinstance(record, DecryptionShare):
                ciphertext = self._final_ciphertext(index, record.ref, record.seat, "share")
                if ciphertext is not None:
                    pending_shares.append((index, record, ciphertext))
            elif isinstance(record, CardOpening):
                if self._final_ciphertext(index, record.ref, record.claimant, "opening") is not None:
                    pending_openings.append((index, record))
        for epoch in self.epochs.values():  # creation order: sources before re-maskings
            self._check_epoch(epoch)
        self._check_shares(pending_shares)
        for index, opening in pending_openings:
            self._check_opening(index, opening, pending_shares)

    def _new_epoch(self, index: int, deck: str, epoch: int) -> bool:
        if (deck, epoch) in self.epochs:
            self.deviate(None, index, "duplicate deck", f"{deck}/{epoch} created twice")
            return False
        return True

    def _remask_creation(self, index: int, record: RemaskCreation) -> None:
        """A re-masked or mixed epoch (MixCreation is a RemaskCreation): made of earlier cards."""
        assert self.joint is not None
        inputs = []
        universe: set[int] = set()
        for ref in record.refs:
            source = self.epochs.get((ref.deck, ref.epoch))
            if (
                ref.deck != record.deck
                or source is None
                or len(source.steps) < self.joint.seats
                or ref.position >= source.size
            ):
                self.deviate(
                    None, index, "bad remask", f"{ref} is not a card of a finished {record.deck} epoch"
                )
                # its steps, shares and openings are not the seats' fault: skip them
                self.broken.add((record.deck, record.epoch))
                return
            inputs.append(source.current[ref.position])
            universe.update(source.universe)
        if self._new_epoch(index, record.deck, record.epoch):
            self.epochs[(record.deck, record.epoch)] = _Epoch(
                index, record.deck, record.epoch, "mix" if isinstance(record, MixCreation) else "remask",
                tuple(inputs), tuple(sorted(universe)),
                sources=record.refs,
            )

    def _replay_step(self, index: int, step: ShuffleStep | RemaskStep) -> None:
        assert self.joint is not None
        kind = "shuffle" if isinstance(step, ShuffleStep) else "remask"
        if (step.deck, step.epoch) in self.broken:
            return
        epoch = self.epochs.get((step.deck, step.epoch))

        def fail(problem: str, detail: str) -> None:
            self.shuffles.append(
                ShuffleCheck(index, step.deck, step.epoch, step.seat, False, detail, kind)
            )
            self.deviate(step.seat, index, problem, detail)

        if epoch is None:
            return fail("unknown deck", f"{kind} of {step.deck}/{step.epoch}, never created")
        if epoch.step_kind != kind:
            return fail("wrong step", f"a {kind} step in a {epoch.kind} epoch")
        done = len(epoch.steps)
        if done >= self.joint.seats:
            return fail(f"extra {kind}", "every seat had already done its step in this epoch")
        inputs = list(epoch.current)
        epoch.steps.append((index, step, inputs))
        epoch.current = step.ciphertexts
        if step.seat != done:
            return fail("out of turn", f"stepped as step {done}, which is seat {done}'s turn")
        if len(step.ciphertexts) != len(inputs):
            return fail(
                "wrong size", f"output has {len(step.ciphertexts)} cards, input had {len(inputs)}"
            )
        seed = self.seeds.get(step.seat)
        if seed is None:
            return fail(f"unverifiable {kind}", "no valid seed revealed to reproduce it")
        expected = self._rerun(kind, seed, step, tuple(inputs))
        if expected != step.ciphertexts:
            wrong = sum(e != p for e, p in zip(expected, step.ciphertexts))
            return fail(
                f"{kind} mismatch",
                f"{wrong} of {len(inputs)} ciphertexts differ from what the seed produces"
                + self._diagnose(epoch, inputs, step.ciphertexts),
            )
        self.shuffles.append(
            ShuffleCheck(
                index, step.deck, step.epoch, step.seat, True, "reproduced from its seed", kind
            )
        )

    def _rerun(self, kind: str, seed: Seed, step: ShuffleStep | RemaskStep,
               inputs: tuple[Ciphertext, ...]) -> tuple[Ciphertext, ...]:
        """What ``step``'s seat makes of ``inputs`` with ``seed``."""
        assert self.joint is not None
        if self.precomputed is not None:
            done = self.precomputed.step(kind, seed, step.seat, step.deck, step.epoch, inputs)
            if done is not None:
                return done
        rerun = shuffle_step if kind == "shuffle" else remask_step
        return rerun(self.joint, seed, step.seat, step.deck, step.epoch, inputs).ciphertexts

    def _lookup(self, codec: CardCodec, ciphertexts: Sequence[Ciphertext]) -> tuple[int | None, ...]:
        """The card each ciphertext decrypts to (None: not a card of the codec)."""
        assert self.secret_sum is not None
        done = None if self.precomputed is None else self.precomputed.plaintexts(tuple(ciphertexts), self.secret_sum)
        plaintexts = done if done is not None else decrypt_with_exponent(ciphertexts, self.secret_sum)
        return tuple(codec.card(m) if m in codec else None for m in plaintexts)

    def _diagnose(
        self, epoch: _Epoch, inputs: list[Ciphertext], outputs: tuple[Ciphertext, ...]
    ) -> str:
        """What a non-reproducing step did to the cards, if keys are known."""
        if self.secret_sum is None:
            return ""
        codec = epoch.codec()
        before_cards, after_cards = self._lookup(codec, inputs), self._lookup(codec, outputs)
        before, after = Counter(before_cards), Counter(after_cards)
        dropped = sorted(c for c in before if c is not None and c not in after)
        duplicated = sorted(c for c, n in after.items() if c is not None and n > 1)
        parts = []
        if dropped:
            parts.append(f"dropped cards {dropped}")
        if duplicated:
            parts.append(f"duplicated cards {duplicated}")
        if after[None]:
            parts.append(f"{after[None]} foreign value(s)")
        if epoch.kind == "remask" and not parts and before_cards != after_cards:
            parts.append("changed the order of the cards")
        return "; " + ", ".join(parts) if parts else "; same cards, unexplained order or randomness"

    def _final_ciphertext(
        self, index: int, ref: EpochPosition, seat: int, what: str
    ) -> Ciphertext | None:
        assert self.joint is not None
        epoch = self.epochs.get((ref.deck, ref.epoch))
        if (ref.deck, ref.epoch) in self.broken:
            pass
        elif epoch is None:
            self.deviate(seat, index, f"{what} of unknown deck", f"{ref}: deck epoch never created")
        elif len(epoch.steps) < self.joint.seats:
            self.deviate(seat, index, f"early {what}", f"{ref}: its chain is not finished")
        elif ref.position >= epoch.size:
            self.deviate(seat, index, f"{what} out of range", f"{ref}: deck has {epoch.size} cards")
        elif seat >= self.joint.seats:
            self.deviate(seat, index, f"{what} by unknown seat", f"seat {seat} is not in the game")
        else:
            return epoch.current[ref.position]
        return None

    def _expected_cards(self, epoch: _Epoch) -> tuple[int | None, ...] | None:
        """A re-masked epoch's cards, in order, once its sources are decrypted."""
        cards = []
        for ref in epoch.sources:
            source = self.epochs[(ref.deck, ref.epoch)]
            if source.cards is None:
                return None
            cards.append(source.cards[ref.position])
        return tuple(cards)

    def _check_epoch(self, epoch: _Epoch) -> None:
        assert self.joint is not None
        blamed = tuple(
            sorted({step.seat for i, step, _ in epoch.steps if not self._reproduced(i)})
        )
        name = f"{epoch.kind} epoch of {epoch.size} cards"

        def report(
            ok: bool, detail: str, missing: tuple[int, ...] = (),
            duplicated: tuple[int, ...] = (), foreign: int = 0,
        ) -> None:
            if not ok and blamed:
                detail += f"; steps not reproduced: seats {list(blamed)}"
            self.decks.append(
                DeckCheck(epoch.record, epoch.deck, epoch.epoch, ok, missing, duplicated,
                          foreign, blamed, detail)
            )

        if len(epoch.steps) < self.joint.seats:
            turn = len(epoch.steps)
            self.deviate(turn, None, "missing step", f"{epoch.deck}/{epoch.epoch}: seat {turn} never stepped")
            return report(False, f"{name}: chain incomplete, {turn} of {self.joint.seats} steps")
        if self.secret_sum is None:
            return report(False, f"{name}: cannot decrypt, not every seat revealed a valid key")
        epoch.cards = self._lookup(epoch.codec(), epoch.current)
        expected = epoch.created if epoch.kind == "shuffle" else self._expected_cards(epoch)
        if expected is None:
            return report(False, f"{name}: cannot check, a source epoch did not decrypt")
        counts, wanted = Counter(epoch.cards), Counter(expected)
        missing = tuple(sorted(c for c in wanted if c is not None and counts[c] < wanted[c]))
        duplicated = tuple(sorted(c for c, n in counts.items() if c is not None and n > wanted[c]))
        foreign = counts[None]
        reordered = epoch.kind == "remask" and epoch.cards != expected  # a mix may reorder: that is its job
        if missing or duplicated or foreign or reordered:
            if not blamed:
                self.deviate(None, epoch.record, "deck not a permutation", "with every step reproduced")
            what = "not its cards in their order" if reordered else "not a permutation of its cards"
            return report(
                False,
                f"{name}: {what}: missing {list(missing)}, duplicated {list(duplicated)}, "
                f"{foreign} foreign",
                missing, duplicated, foreign,
            )
        report(True, f"{name}: exactly its cards" + (" in order" if epoch.kind == "remask" else ""))

    def _reproduced(self, record: int) -> bool:
        return any(check.record == record and check.reproduced for check in self.shuffles)

    # -- shares and openings --------------------------------------------------

    def _check_shares(self, pending: list[tuple[int, DecryptionShare, Ciphertext]]) -> None:
        assert self.joint is not None
        by_seat: dict[int, list[tuple[int, DecryptionShare, Ciphertext]]] = {}
        for entry in pending:
            by_seat.setdefault(entry[1].seat, []).append(entry)
        results: dict[int, tuple[bool, str]] = {}
        for seat, entries in by_seat.items():
            x = self.exponents.get(seat)
            if x is not None:
                if not self._batch_matches(entries, x):
                    for index, share, (a, _) in entries:
                        ok = exp(a, x) == share.share
                        results[index] = (ok, "matches the revealed key" if ok else "is not a^x")
                else:
                    results.update((index, (True, "matches the revealed key")) for index, _, _ in entries)
            else:
                for index, share, ciphertext in entries:
                    try:
                        verify_share(self.joint, share, ciphertext)
                    except InvalidShareProof:
                        results[index] = (False, "proof invalid (key not revealed)")
                    else:
                        results[index] = (True, "proof valid (key not revealed)")
        for index, share, _ in pending:
            ok, detail = results[index]
            self.shares.append(ShareCheck(index, share.ref, share.seat, ok, detail))
            if not ok:
                self.deviate(share.seat, index, "bad share", f"{share.ref}: share {detail}")

    def _batch_matches(self, entries: list[tuple[int, DecryptionShare, Ciphertext]], x: int) -> bool:
        """``prod d_i^rho_i == (prod a_i^rho_i)^x`` for random 64-bit ``rho_i``."""
        weights = fresh_bytes(self.source, _WEIGHT_BYTES * len(entries))
        rho = [
            int.from_bytes(weights[k * _WEIGHT_BYTES : (k + 1) * _WEIGHT_BYTES], "big")
            for k in range(len(entries))
        ]
        shares = multi_exp([(share.share, r) for (_, share, _), r in zip(entries, rho)])
        bases = multi_exp([(a, r) for (_, _, (a, _)), r in zip(entries, rho)])
        return shares == exp(bases, x)

    def _check_opening(
        self, index: int, opening: CardOpening, shares: list[tuple[int, DecryptionShare, Ciphertext]]
    ) -> None:
        assert self.joint is not None
        epoch = self.epochs[(opening.ref.deck, opening.ref.epoch)]
        actual: int | None = None
        how = "decrypted with the revealed keys"
        if epoch.cards is not None:
            actual = epoch.cards[opening.ref.position]
        else:
            actual, how = self._open_from_shares(epoch, opening.ref, shares)
        if actual is None:
            ok, detail = False, f"claims card {opening.card}; cannot be checked ({how})"
        elif actual == opening.card:
            ok, detail = True, f"card {opening.card} confirmed ({how})"
        else:
            ok, detail = False, f"claims card {opening.card}, the card is {actual} ({how})"
            self.deviate(opening.claimant, index, "false opening", f"{opening.ref}: {detail}")
        self.openings.append(
            OpeningCheck(index, opening.ref, opening.claimant, opening.card, actual, ok, detail)
        )

    def _open_from_shares(
        self, epoch: _Epoch, ref: EpochPosition, shares: list[tuple[int, DecryptionShare, Ciphertext]]
    ) -> tuple[int | None, str]:
        """Open from published, audited shares when the keys are not all revealed."""
        assert self.joint is not None
        good = {check.record for check in self.shares if check.ok}
        by_seat = {s.seat: s.share for i, s, _ in shares if s.ref == ref and i in good}
        if len(by_seat) < self.joint.seats:
            return None, "not every seat's share is published"
        codec = epoch.codec()
        plaintext = decrypt_with_shares(epoch.current[ref.position], list(by_seat.values()))
        return (codec.card(plaintext) if plaintext in codec else None), "opened from published shares"

    def report(self) -> AuditReport:
        self.deviations.sort(key=lambda d: (d.record is None, d.record or 0))
        return AuditReport(
            self.game_id,
            tuple(self.keys),
            tuple(self.reveals),
            tuple(self.shuffles),
            tuple(self.decks),
            tuple(self.shares),
            tuple(self.openings),
            tuple(self.deviations),
        )


def audit(transcript: Transcript, source: RandomSource | None = None,
          precomputed: Precomputed | None = None) -> AuditReport:
    """Re-execute ``transcript`` and report every check and every deviation.

    ``source`` supplies the random weights of the batched share check
    (default: the OS CSPRNG); ``precomputed``, results of its re-executions
    worked out elsewhere (the report is the same with or without them).
    Never raises on a bad transcript.
    """
    auditor = _Auditor(transcript, source, precomputed)
    auditor.check_keys_and_reveals()
    if auditor.joint is not None:
        auditor.replay_decks()
    return auditor.report()


__all__ = [
    "AuditReport",
    "DeckCheck",
    "Deviation",
    "KeyCheck",
    "OpeningCheck",
    "Precomputed",
    "RevealCheck",
    "ShareCheck",
    "ShuffleCheck",
    "audit",
]
