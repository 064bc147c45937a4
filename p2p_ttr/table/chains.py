"""The deck chains: each deck epoch built by the seats in turn, step by step,
each step proven (protocol.md §3, §6).

A chain is a shuffle (a new deck epoch from known cards), a re-masking
(returned tickets re-encrypted in place) or a mix (hidden cards shuffled
together: the set-up's returned tickets, with what is left of their deck).
A mix starts from its cards' ciphertexts, as a re-masking does, and is made
of shuffle steps with proofs of shuffle. Seat 0 steps first, from the
chain's inputs; each later seat from the step before. A seat's proof of its
step is owed once the step is in. The chain is done when every step is in
and proven; its proofs are checked in one batch when the last one comes.
A replica takes its own seat's proof, made here, as proven (``vouch``): the
other replicas check it, and every auditor.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from p2p_ttr.deck import EpochPosition as DeckRef
from p2p_ttr.deck import (
    Ciphertext,
    DeckCreation,
    InvalidChainProof,
    JointKey,
    RemaskProof,
    RemaskStep,
    Seed,
    ShuffleProof,
    ShuffleStep,
    remask_step,
    shuffle_step,
    verify_remask,
    verify_shuffles,
)
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.events import Chance, Mixed, Remasked, Shuffled
from p2p_ttr.engine.state import NeedMix, NeedRemask, NeedShuffle

from .cards import DECK_NAMES, deck_ref
from .errors import Malformed, NotExpected

if TYPE_CHECKING:  # a pool is `ttr verify`'s; a player's process never loads multiprocessing
    from .checkpool import CheckPool

Need = NeedShuffle | NeedRemask | NeedMix
CHAIN_NEEDS = (NeedShuffle, NeedRemask, NeedMix)
# Each chain's kind: its step message's and its proof message's (messages.py).
_KINDS: dict[type[Need], tuple[str, str]] = {
    NeedShuffle: ("shuffle", "shuffle_proof"),
    NeedRemask: ("remask", "remask_proof"),
    NeedMix: ("mix", "mix_proof"),
}


def permutes(need: Need) -> bool:
    """Whether the chain is made of shuffle steps, proven by proofs of shuffle (a shuffle, a mix)."""
    return not isinstance(need, NeedRemask)


def chain_kinds(need: Need) -> tuple[str, str]:
    """The kinds of the messages that build ``need``'s chain: its step's, its proof's."""
    return _KINDS[type(need)]


def chain_done(need: Need) -> Chance:
    """The chance event that tells the engine the chain is done."""
    if isinstance(need, NeedShuffle):
        return Shuffled(need.deck, need.epoch)
    return Remasked(need.deck, need.epoch) if isinstance(need, NeedRemask) else Mixed(need.deck, need.epoch)


@dataclass
class DeckChain:
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

    def take_proofs(self) -> list[tuple[int, tuple[ShuffleProof | RemaskProof, int]]]:
        """The proofs held unchecked, by seat, handed over to be checked together: none is held after."""
        pending, self.proofs = sorted(self.proofs.items()), {}
        return pending


@dataclass(frozen=True)
class ChainDone:
    """Every step of the chain is in and proven: the engine may use the epoch."""


@dataclass(frozen=True)
class FalseStep:
    """A step shown false (by its proof, or by its author's revealed seed):
    the game halts, naming ``seat``, at ``entry`` (None: the entry being applied)."""

    seat: int
    entry: int | None
    reason: str


Progress = ChainDone | FalseStep | None


def describe(need: Need) -> str:
    return f"{DECK_NAMES[need.deck]} epoch {need.epoch}"


def check_source(need: Need, named: tuple[int, ...] | tuple[DeckRef, ...]) -> None:
    """A step names what its chain starts from (protocol.md §5): the card ids
    a shuffle shuffles, or the cards a re-masking or a mix takes, in order. It must
    be what the game asks for, so that the log alone tells an auditor each
    epoch's input.

    Raises:
        NotExpected: it names other cards.
    """
    wanted = need.cards if isinstance(need, NeedShuffle) else tuple(deck_ref(ref) for ref in need.refs)
    if named != wanted:
        raise NotExpected(f"the step names other cards than {describe(need)} is made of")


class ChainBook(Mapping[tuple[Deck, int], DeckChain]):
    """Every deck epoch's chain, by (deck, epoch); the ciphertext of any card."""

    def __init__(self, pool: CheckPool | None = None) -> None:
        """``pool``: `ttr verify`'s workers: a finished chain's proofs are sent
        there and taken as passing; the caller asks the pool whether they did
        (and folds again inline if not). None: checked here and now."""
        self._chains: dict[tuple[Deck, int], DeckChain] = {}
        self.n = 0
        self.joint: JointKey | None = None
        self.pool = pool
        # Proofs this replica's own seat made (table/peer.py), by (deck, epoch):
        # when one comes back in the log it is taken as proven, unchecked.
        self._vouched: dict[tuple[Deck, int], ShuffleProof | RemaskProof] = {}

    def start(self, n: int, joint: JointKey) -> None:
        """Every key is in: chains can be built and proven now."""
        self.n, self.joint = n, joint

    def __getitem__(self, key: tuple[Deck, int]) -> DeckChain:
        return self._chains[key]

    def __iter__(self) -> Iterator[tuple[Deck, int]]:
        return iter(self._chains)

    def __len__(self) -> int:
        return len(self._chains)

    def ciphertext(self, ref: CardRef) -> Ciphertext:
        return self._chains[(ref.deck, ref.epoch)].output[ref.pos]

    def holds(self, ref: CardRef) -> bool:
        """Whether the card exists: its epoch is built and has that position."""
        built = self._chains.get((ref.deck, ref.epoch))
        return built is not None and ref.pos < len(built.output)

    def inputs(self, need: Need) -> tuple[Ciphertext, ...]:
        """What the first seat of that chain starts from."""
        if isinstance(need, NeedShuffle):
            return DeckCreation(DECK_NAMES[need.deck], need.epoch, need.cards).ciphertexts()
        return tuple(self.ciphertext(ref) for ref in need.refs)  # a re-masking's or a mix's: their cards as they are

    def turn(self, need: Need) -> int:
        """The seat whose step is due next (n when every step is in)."""
        built = self._chains.get((need.deck, need.epoch))
        return len(built.steps) if built else 0

    def unproven(self, need: Need) -> list[int]:
        """The seats whose step is in and whose proof is not."""
        built = self._chains.get((need.deck, need.epoch))
        if built is None:
            return []
        return [s for s in range(len(built.steps)) if s not in built.proven and s not in built.proofs]

    def record(self, need: Need, seat: int) -> ShuffleStep | RemaskStep:
        """Seat's step of the chain, as the deck library's record."""
        built = self._chains[(need.deck, need.epoch)]
        kind = ShuffleStep if permutes(need) else RemaskStep
        return kind(DECK_NAMES[need.deck], need.epoch, seat, built.steps[seat])

    # --------------------------------------------------------------- steps

    def add_step(self, need: Need, seat: int, claimed: int, cts: tuple[Ciphertext, ...],
                 proven: bool = False) -> Progress:
        """Take ``seat``'s step (``proven``: the fold computed it itself).

        Raises:
            NotExpected: it is another seat's turn.
            Malformed: the step has the wrong number of cards.
        """
        turn = self.turn(need)
        if seat != turn or claimed != seat:
            raise NotExpected(f"it is seat {turn}'s step of {describe(need)}, not seat {seat}'s")
        size = len(need.cards) if isinstance(need, NeedShuffle) else len(need.refs)
        if len(cts) != size:
            raise Malformed(f"{describe(need)} has {size} cards, the step {len(cts)}")
        built = self._chains.setdefault((need.deck, need.epoch), DeckChain(self.inputs(need)))
        built.steps.append(cts)
        if proven:
            built.proven.add(seat)
        return self._finish(need, built)

    def derive_step(self, need: Need, seat: int, seed: Seed) -> ShuffleStep | RemaskStep:
        """The step ``seat`` must make with ``seed``: exactly what an honest seat computes."""
        assert self.joint is not None
        make = shuffle_step if permutes(need) else remask_step
        built = self._chains.get((need.deck, need.epoch))
        inputs = built.output if built else self.inputs(need)
        return make(self.joint, seed, seat, DECK_NAMES[need.deck], need.epoch, inputs)

    # -------------------------------------------------------------- proofs

    def add_proof(self, need: Need, seat: int, proof: ShuffleProof | RemaskProof, entry: int) -> Progress:
        """Take seat's proof of its step, owed once the step is in. It is
        checked with the chain's others when the last one comes (a false one
        is accepted into the log, as signed evidence, and halts the game).

        Raises:
            Malformed: the proof names another seat.
            NotExpected: the seat owes no proof of this chain now.
        """
        built = self._chains.get((need.deck, need.epoch))
        if proof.seat != seat:
            raise Malformed("a proof names its author's seat")
        if permutes(need) != isinstance(proof, ShuffleProof):
            # The checker is the chain's, whatever the proof claims to be: a
            # re-masking keeps the order, which a proof of shuffle never shows.
            raise Malformed(f"{describe(need)} takes a proof of {'shuffle' if permutes(need) else 're-masking'}")
        if built is None or seat >= len(built.steps) or seat in built.proven or seat in built.proofs:
            raise NotExpected(f"seat {seat} owes no proof of {describe(need)} now")
        if self._vouched.get((need.deck, need.epoch)) == proof:
            built.proven.add(seat)
        else:
            built.proofs[seat] = (proof, entry)
        return self._finish(need, built)

    def vouch(self, need: Need, proof: ShuffleProof | RemaskProof, seed: Seed) -> None:
        """``proof`` was made here, by this replica's own seat, from ``seed``
        for the step and input the log holds. If that step is the one the
        seed makes (one step's work to re-make, against ~0.12 of the chain's
        batch check), the proof needs no check here when the log brings it
        back: it could only find this peer's own code at fault. The other
        replicas and every audit still check it; a proof that differs from
        this one in any byte is checked as usual, and so is a step the seed
        does not make (a seat whose code altered its step halts at its own
        proof like every other replica)."""
        if self.made_by_seed(need, proof.seat, seed):
            self._vouched[(need.deck, need.epoch)] = proof

    def prove_by_seed(self, need: Need, seat: int, seed: Seed) -> Progress:
        """A seat that leaves with its step of the chain in but not proven (its
        proof missing, or in but not checked yet): its revealed seed proves
        the step, or shows it false."""
        built = self._chains.get((need.deck, need.epoch))
        if built is None or seat >= len(built.steps) or seat in built.proven:
            return None
        built.proofs.pop(seat, None)  # its seed decides now, whatever proof it sent
        if not self.made_by_seed(need, seat, seed):
            return FalseStep(seat, None, f"seat {seat}'s step of {describe(need)} is not the one its revealed "
                                         "seed makes")
        built.proven.add(seat)
        return self._finish(need, built)

    def made_by_seed(self, need: Need, seat: int, seed: Seed) -> bool:
        """Whether seat's step in the log is the one ``seed`` makes from its input."""
        assert self.joint is not None
        built = self._chains[(need.deck, need.epoch)]
        make = shuffle_step if permutes(need) else remask_step
        made = make(self.joint, seed, seat, DECK_NAMES[need.deck], need.epoch, built.step_input(seat))
        return made.ciphertexts == built.steps[seat]

    def false_pending_proof(self, need: Need) -> tuple[int, int, str] | None:
        """(seat, entry, reason) of the first false proof among those the chain
        holds unchecked, if any: for an audit of a log that ends while a seat
        withholds the chain's last proof."""
        built = self._chains.get((need.deck, need.epoch))
        if built is None:
            return None
        for seat, (proof, entry) in sorted(built.proofs.items()):
            try:
                self._check(need, built, [(seat, proof)])
            except InvalidChainProof as exc:
                return seat, entry, str(exc)
        return None

    def _finish(self, need: Need, built: DeckChain) -> Progress:
        """Once every step and every proof is in: check the proofs (a false one
        is reported at its own entry), and report the chain done. No card of
        it is dealt, shared or opened before."""
        if len(built.steps) < self.n or len(built.proven) + len(built.proofs) < self.n:
            return None
        pending = built.take_proofs()
        try:
            self._check(need, built, [(seat, proof) for seat, (proof, _) in pending], self.pool)
        except InvalidChainProof as exc:
            seat = exc.seat if exc.seat is not None else pending[0][0]
            return FalseStep(seat, dict(pending)[seat][1],
                             f"seat {seat} sent a false proof of its step of {describe(need)} ({exc})")
        built.proven.update(seat for seat, _ in pending)
        return ChainDone() if len(built.proven) == self.n else None

    def _check(self, need: Need, built: DeckChain, proofs: list[tuple[int, ShuffleProof | RemaskProof]],
               pool: CheckPool | None = None) -> None:
        """Check these seats' proofs of their steps of ``built`` (shuffle proofs
        in one batch); raise InvalidChainProof naming the first false one.
        With ``pool``, the proofs themselves go to its workers and a proof of
        the wrong kind still raises here."""
        assert self.joint is not None
        if permutes(need):  # the chain's kind chooses the checker, never the proof's
            shuffles = []
            for seat, proof in proofs:
                if not isinstance(proof, ShuffleProof):
                    raise InvalidChainProof(f"seat {seat}'s proof of {describe(need)} is not a proof of shuffle",
                                            seat=seat)
                shuffles.append((self.record(need, seat), built.step_input(seat), proof))
            if shuffles and pool is not None:
                pool.shuffles(self.joint, shuffles)
            elif shuffles:
                verify_shuffles(self.joint, shuffles)
            return
        remasks: list[tuple[ShuffleStep | RemaskStep, tuple[Ciphertext, ...], RemaskProof]] = []
        for seat, proof in proofs:
            if not isinstance(proof, RemaskProof):
                if pool is not None:
                    pool.remasks(self.joint, remasks)
                raise InvalidChainProof(f"seat {seat}'s proof of {describe(need)} is not a proof of re-masking",
                                        seat=seat)
            claim = (self.record(need, seat), built.step_input(seat), proof)
            if pool is None:
                verify_remask(self.joint, *claim)
            else:
                remasks.append(claim)
        if pool is not None and remasks:
            pool.remasks(self.joint, remasks)
