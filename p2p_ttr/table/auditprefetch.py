"""The deck audit's heavy work, started in worker processes from the log
alone while `ttr verify` folds it (checkpool.py).

The audit re-makes every chain step from its seat's revealed seed and opens
every finished deck epoch with the joint secret. Both depend only on what
the log says: each step message carries its output and names its chain's
input (the cards a shuffle starts from, the cards a re-masking or a mix
takes),
and the reveals carry the seeds. So a pass over the decoded log, before the
fold, guesses each step's input (the previous step's output, or the chain's
start) and has the workers compute ahead. The audit takes a result only for
exactly the arguments it would compute with (``Precomputed``), so a wrong
guess (a step the fold derived for a forfeited seat, a forged log) costs
the time of computing it inline, never a different finding.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future
from typing import TypeVar

from p2p_ttr.deck import Ciphertext, DeckCreation, Seed

from .checkpool import CheckPool, JointId
from .decoded import DecodedEntry
from .messages import Audit, Forfeit, Keys, Mix, Remask, Seating, Shuffle

T = TypeVar("T")
StepKey = tuple[str, bytes, int, str, int, tuple[Ciphertext, ...]]  # kind, seed, seat, deck, epoch, inputs


class AuditPrefetch:
    """The audit's re-made steps and opened epochs, computed ahead by a pool
    (the deck's ``Precomputed``); the opened epochs also give the fold the
    faces it opens (``plaintext``), so no card is decrypted twice."""

    def __init__(self) -> None:
        self._steps: dict[StepKey, Future[tuple[Ciphertext, ...]]] = {}
        self._opened: dict[tuple[tuple[Ciphertext, ...], int], Future[tuple[int, ...]]] = {}
        self._cards: dict[tuple[Ciphertext, int], tuple[Future[tuple[int, ...]], int]] = {}  # (card, x) -> its epoch's

    def start(self, pool: CheckPool, opened: Sequence[DecodedEntry | None], secret: int) -> None:
        """Send the pool every epoch opened and every step re-made, as guessed
        from the decoded log: the openings first, which the fold asks for as it
        goes, then the steps, which only the audit at the end needs."""
        game_id, keys, seeds = _setting(opened)
        if game_id is None or sorted(keys) != list(range(len(keys))):
            return
        joint_id: JointId = (game_id, tuple(keys[s] for s in range(len(keys))))
        outputs: dict[tuple[str, int], tuple[tuple[Ciphertext, ...], int]] = {}  # epoch -> (last output, its seat)
        reruns: list[tuple[StepKey, Seed]] = []
        for decoded in opened:
            if decoded is None:
                continue
            match decoded.message:
                case Shuffle(step, cards):
                    kind, first = "shuffle", DeckCreation(step.deck, step.epoch, cards).ciphertexts()
                case Remask(step, sources) | Mix(step, sources):
                    kind = "remask" if isinstance(decoded.message, Remask) else "shuffle"  # a mix's steps are shuffles
                    try:
                        first = tuple(outputs[(r.deck, r.epoch)][0][r.position] for r in sources)
                    except (KeyError, IndexError):
                        continue
                case _:
                    continue
            here = (step.deck, step.epoch)
            inputs = first if step.seat == 0 else outputs.get(here, ((), -1))[0]
            seed = seeds.get(step.seat)
            if seed is not None and inputs:
                reruns.append(((kind, seed.value, step.seat, step.deck, step.epoch, inputs), seed))
            outputs[here] = (step.ciphertexts, step.seat)
        for cts, seat in outputs.values():
            if seat == len(keys) - 1 and (cts, secret) not in self._opened:
                future = self._opened[(cts, secret)] = pool.plaintexts(cts, secret)
                for position, card in enumerate(cts):
                    self._cards.setdefault((card, secret), (future, position))
        for key, seed in reruns:
            if key not in self._steps:
                kind, _, seat, deck, epoch, inputs = key
                self._steps[key] = pool.rerun(joint_id, kind, seed, seat, deck, epoch, inputs)

    def step(self, kind: str, seed: Seed, seat: int, deck: str, epoch: int,
             inputs: tuple[Ciphertext, ...]) -> tuple[Ciphertext, ...] | None:
        return _result(self._steps.get((kind, seed.value, seat, deck, epoch, inputs)))

    def plaintexts(self, ciphertexts: tuple[Ciphertext, ...], x: int) -> tuple[int, ...] | None:
        return _result(self._opened.get((ciphertexts, x)))

    def plaintext(self, ciphertext: Ciphertext, x: int) -> int | None:
        """``ciphertext`` decrypted with ``x``, if an opened epoch holds it (None: not computed ahead)."""
        held = self._cards.get((ciphertext, x))
        if held is None:
            return None
        epoch = _result(held[0])
        return None if epoch is None else epoch[held[1]]


def _result(future: Future[T] | None) -> T | None:
    if future is None:
        return None
    try:
        return future.result()
    except Exception:  # a guess the worker could not compute: the audit computes (and judges) it itself
        return None


def _setting(opened: Sequence[DecodedEntry | None]) -> tuple[bytes | None, dict[int, int], dict[int, Seed]]:
    """The game id, each seat's public key and each seat's revealed seed (the first of each, as the audit takes)."""
    game_id: bytes | None = None
    keys: dict[int, int] = {}
    seeds: dict[int, Seed] = {}
    for decoded in opened:
        if decoded is None:
            continue
        envelope, message = decoded.envelope, decoded.message
        match message:
            case Seating():
                game_id = game_id or envelope.game_id
            case Keys(key, _):
                keys.setdefault(envelope.seat, key.public_key)
            case Audit(seed, _) | Forfeit(seed, _):
                seeds.setdefault(envelope.seat, seed)
    return game_id, keys, seeds
