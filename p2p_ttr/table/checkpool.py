"""Proof checks spread over the machine's cores (`ttr verify`).

A finished log's proofs are independent of each other: each chain's proofs
of shuffle (one batch), each re-masking's proof, each slice of the share
proofs. ``CheckPool`` checks them in worker processes while the caller goes
on folding; ``holds()`` then says whether every check submitted passed.

A check here only ever answers pass or fail. Who is to blame, and in what
order, is for the serial fold to say: a caller that sees a failure folds
the log again checking every proof inline, so the findings are exactly
those of one process (verify.py does). With one core, or a tiny log, there
is no pool and every check stays inline.

Workers rebuild the joint key from the game id and the seats' keys (the key's
fixed-base tables are built once per worker, never pickled).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from functools import lru_cache

from p2p_ttr.deck import (
    Ciphertext,
    DecryptionShare,
    InvalidChainProof,
    InvalidShareProof,
    JointKey,
    RemaskProof,
    RemaskStep,
    Seed,
    ShuffleProof,
    ShuffleStep,
    decrypt_with_exponent,
    generators,
    remask_step,
    shuffle_step,
    verify_remask,
    verify_shares,
    verify_shuffles,
)

# Below this many log entries a pool costs more than it saves (a worker
# starts in ~0.05 s; a 2-player game's proofs check in well under that).
SMALL_LOG = 200

ShuffleClaims = tuple[tuple[ShuffleStep | RemaskStep, tuple[Ciphertext, ...], ShuffleProof], ...]
RemaskClaim = tuple[ShuffleStep | RemaskStep, tuple[Ciphertext, ...], RemaskProof]
JointId = tuple[bytes, tuple[int, ...]]  # what rebuilds a joint key in a worker


def cores() -> int:
    return os.cpu_count() or 1


def pool_for(entries: int, workers: int | None = None, cards: int = 0) -> CheckPool | None:
    """A pool of ``workers`` processes for a log of ``entries`` entries whose
    largest chain has ``cards`` cards; None for one worker. By default one
    per core, and none where the serial path is the faster one (one core, or
    a tiny log)."""
    count = cores() if workers is None else workers
    if count < 2 or (workers is None and entries < SMALL_LOG):
        return None
    return CheckPool(count, cards)


@lru_cache(maxsize=4)
def _joint(joint_id: JointId) -> JointKey:
    game_id, keys = joint_id
    return JointKey(game_id, keys)


def _shuffles_hold(joint_id: JointId, claims: ShuffleClaims) -> bool:
    try:
        verify_shuffles(_joint(joint_id), claims)
    except InvalidChainProof:
        return False
    return True


def _remasks_hold(joint_id: JointId, claims: tuple[RemaskClaim, ...]) -> bool:
    try:
        for step, inputs, proof in claims:
            verify_remask(_joint(joint_id), step, inputs, proof)
    except InvalidChainProof:
        return False
    return True


def _shares_hold(joint_id: JointId, items: tuple[tuple[DecryptionShare, Ciphertext], ...]) -> bool:
    try:
        verify_shares(_joint(joint_id), items)
    except InvalidShareProof:
        return False
    return True


def _rerun(joint_id: JointId, kind: str, seed: Seed, seat: int, deck: str, epoch: int,
           inputs: tuple[Ciphertext, ...]) -> tuple[Ciphertext, ...]:
    make = shuffle_step if kind == "shuffle" else remask_step
    return make(_joint(joint_id), seed, seat, deck, epoch, inputs).ciphertexts


def _plaintexts(ciphertexts: tuple[Ciphertext, ...], x: int) -> tuple[int, ...]:
    return tuple(decrypt_with_exponent(ciphertexts, x))


class CheckPool:
    """Worker processes checking proofs; ``holds()`` waits for every check
    submitted so far and says whether all passed."""

    def __init__(self, workers: int, cards: int = 0) -> None:
        # The proofs' generators (hashed to the group: ~2 ms each) are made
        # here once, before the workers fork, rather than once per worker.
        generators(cards)
        # Forked workers start at once with the deck's tables already built.
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        self._executor = ProcessPoolExecutor(workers, mp_context=context)
        self._workers = workers
        self._pending: list[Future[bool]] = []

    @staticmethod
    def _id(joint: JointKey) -> JointId:
        return joint.game_id, joint.public_keys

    def shuffles(self, joint: JointKey, claims: Sequence[tuple[ShuffleStep | RemaskStep, Sequence[Ciphertext], ShuffleProof]]) -> None:
        """Check a chain's proofs of shuffle, in one batch as the fold would."""
        frozen = tuple((step, tuple(inputs), proof) for step, inputs, proof in claims)
        self._pending.append(self._executor.submit(_shuffles_hold, self._id(joint), frozen))

    def remasks(self, joint: JointKey, claims: Sequence[tuple[ShuffleStep | RemaskStep, Sequence[Ciphertext], RemaskProof]]) -> None:
        frozen = tuple((step, tuple(inputs), proof) for step, inputs, proof in claims)
        self._pending.append(self._executor.submit(_remasks_hold, self._id(joint), frozen))

    def shares(self, joint: JointKey, items: Sequence[tuple[DecryptionShare, Ciphertext]]) -> None:
        """Check these shares' proofs, one slice per worker (the slices' batches
        pass iff one batch of all would). As few slices as keep every worker
        busy: a batch's multi-exponentiation costs a fixed part per batch (its
        buckets), so slices of 400 did ~1.5x the work of one batch."""
        size = max(1, -(-len(items) // self._workers))
        for start in range(0, len(items), size):
            part = tuple(items[start:start + size])
            self._pending.append(self._executor.submit(_shares_hold, self._id(joint), part))

    def rerun(self, joint_id: JointId, kind: str, seed: Seed, seat: int, deck: str, epoch: int,
              inputs: tuple[Ciphertext, ...]) -> Future[tuple[Ciphertext, ...]]:
        """A chain step re-made from its seed (the deck audit's), computed ahead."""
        return self._executor.submit(_rerun, joint_id, kind, seed, seat, deck, epoch, inputs)

    def plaintexts(self, ciphertexts: tuple[Ciphertext, ...], x: int) -> Future[tuple[int, ...]]:
        """A deck epoch opened with the joint secret (the deck audit's), computed ahead."""
        return self._executor.submit(_plaintexts, ciphertexts, x)

    def holds(self) -> bool:
        """Whether every check submitted since the last call passed (waits for them)."""
        pending, self._pending = self._pending, []
        return all([future.result() for future in pending])

    def close(self) -> None:
        for future in self._pending:
            future.cancel()
        self._pending = []
        self._executor.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> CheckPool:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
