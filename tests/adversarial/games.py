"""Games and snapshots shared by the adversarial tests (built once per session),
and ``Run``: a game among in-process peers that can stop anywhere, be copied,
seat a cheater mid-game, and have its host refuse messages."""

from __future__ import annotations

import contextlib
import copy
import functools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.deck import shuffleproof as shuffleproof_module
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.local.crypto_game import CryptoGame, GameStuck, SeededSource, play_crypto_game
from p2p_ttr.table import chains as chains_module
from p2p_ttr.table import peer as peer_module
from p2p_ttr.table import sharebook as sharebook_module
from p2p_ttr.table.envelope import GAME_ID_BYTES, open_envelope
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.messages import Seat
from p2p_ttr.table.peer import Decider, Peer
from p2p_ttr.table.table import Table

NAMES = ("Ann", "Bob")
ALL_NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")


@functools.cache
def honest_game() -> CryptoGame:
    """A whole honest 2-player game: the log and every seat's replica."""
    return play_crypto_game(31, [RandomBot(310 + p) for p in range(2)], NAMES)


def snapshot(t: Table) -> Any:
    """Everything a refused message could have touched in a replica."""
    return (
        t.digest(), len(t.log), id(t.engine), dict(t.last_seq), sorted(t.keys), sorted(t.audits), t.halted,
        t.halting.suspicion, {k: (len(c.steps), sorted(c.proven)) for k, c in t.chains.items()},
        {r: sorted(d) for r, d in t.shares.items()}, t.pending_act, t.culprit, t.halted_at,
    )


def replica(seat: int | None, entries: int) -> Table:
    """A fresh replica (seat's, with its secrets; or an auditor's) folded up to ``entries``."""
    game = honest_game()
    table = Table(game.peers[seat].table.me if seat is not None else None)
    for raw in game.log[:entries]:
        table.receive(raw)
    return table


class FakeSocket:
    """Stands in for a ZeroMQ socket: keeps what is sent."""

    def __init__(self) -> None:
        self.sent: list[list[bytes]] = []

    def getsockopt(self, option: int) -> bytes:
        """Where it listens (LAST_ENDPOINT, all a relay asks): where the tests' hellos say they dialled."""
        return b"tcp://127.0.0.1:7311"

    def send_multipart(self, parts: list[bytes]) -> None:
        self.sent.append(parts)

    def send(self, raw: bytes) -> None:
        self.sent.append([raw])


# ------------------------------------------------------------------ Run


class Run:
    """A game among in-process peers played as ``play_crypto_game`` plays it
    (seat 0's replica checks each message before it is logged, as the host's
    does, and drops a refused one; every other seat folds the logged entry),
    but it can stop before any seat's turn to speak, be copied, seat a
    cheater in place of an honest peer, and have its host refuse to
    sequence chosen messages (``drop``). ``outsider`` folds the same log
    with no secrets: a spectator, or an auditor following the game."""

    def __init__(self, peers: list[Peer]) -> None:
        self.peers = peers
        self.log: list[bytes] = []
        self.outsider = Table()
        self.refused: list[tuple[int, str]] = []  # (seat, code) of each message the host refused
        self.dropped: list[bytes] = []  # messages the host chose not to sequence (``drop``)
        self.drop: Callable[[Run, bytes], bool] | None = None

    @classmethod
    def start(cls, deciders: Sequence[Decider], seed: int) -> Run:
        """A new game for ``len(deciders)`` seats; every secret follows from ``seed``."""
        n = len(deciders)
        sources = [SeededSource(b"p2p_ttr/adversarial/%d/%d" % (seed, p)) for p in range(n)]
        identities = [Identity.from_bytes(src(32)) for src in sources]
        run = cls([Peer(p, identities[p], deciders[p], sources[p]) for p in range(n)])
        seats = tuple(Seat(ALL_NAMES[p], identities[p].public) for p in range(n))
        run.sequence(run.peers[0].open_game(seats, game_id=sources[0](GAME_ID_BYTES)))
        return run

    @property
    def n(self) -> int:
        return len(self.peers)

    def copy(self) -> Run:
        """An independent copy. What a replica never changes in place is
        shared, not copied: the joint key (its fixed-base tables, with a
        lock, are caches), the engine's states (a fold replaces them), the
        chains' ciphertexts, the shares."""
        shared: dict[int, Any] = {}
        for t in self.tables():
            for kept in (t.joint, t.engine, *(cts for c in t.chains.values() for cts in (c.inputs, *c.steps)),
                         *(share for by_seat in t.shares.values() for share in by_seat.values())):
                if kept is not None:
                    shared[id(kept)] = kept
        return copy.deepcopy(self, memo=shared)

    def tables(self, but: int | None = None) -> list[Table]:
        """Every seat's replica but ``but``'s, and the outsider's."""
        return [p.table for p in self.peers if p.seat != but] + [self.outsider]

    def sequence(self, raw: bytes) -> str | None:
        """Log ``raw`` if the host's replica accepts it; else the refusal's code."""
        try:
            self.peers[0].table.receive(raw)
        except (TableError, EngineError) as exc:
            self.refused.append((open_envelope(raw).seat, exc.code))
            return exc.code
        for peer in self.peers[1:]:
            peer.table.receive(raw)
        self.outsider.receive(raw)
        self.log.append(raw)
        return None

    def play(self, stop: Callable[[Run], bool] = lambda run: False, limit: int = 20_000) -> bool:
        """Every seat in turn sends what it owes, round after round, until
        ``stop(self)`` holds before a seat's turn (True), or nobody sends
        anything: the game is complete, or stalled (``stop(self)``)."""
        for _ in range(limit):
            sent = False
            for peer in self.peers:
                if stop(self):
                    return True
                for raw in peer.outbox():
                    sent = True
                    if self.drop is not None and self.drop(self, raw):
                        self.dropped.append(raw)
                    else:
                        self.sequence(raw)
            if not sent:
                return stop(self)
        raise GameStuck(f"no end after {limit} rounds")

    def recast(self, seat: int, kind: type[Peer]) -> Peer:
        """Seat ``kind`` in place of seat's peer, with its identity, secrets,
        replica and message count: from now on that seat plays as ``kind``."""
        old = self.peers[seat]
        new = kind(seat, old.identity, old.decide, old.source)
        new.table, new.seq = old.table, old.seq
        self.peers[seat] = new
        return new


# ------------------------------------------------------------ proofs made and checked once

_RESULTS: dict[tuple[Any, ...], tuple[bool, Any]] = {}


def _frozen(value: Any) -> Any:
    """``value`` with every list, tuple or iterator in it a tuple (hashable, and re-readable)."""
    if isinstance(value, (list, tuple, Iterator)):
        return tuple(_frozen(v) for v in value)
    return value


def _remembered(name: str, compute: Callable[..., Any]) -> Callable[..., Any]:
    def remembered(joint: Any, *args: Any) -> Any:
        frozen = _frozen(args)
        key = (name, joint.game_id, joint.public_keys, frozen)
        if key not in _RESULTS:
            try:
                _RESULTS[key] = (True, compute(joint, *frozen))
            except Exception as exc:  # a check's verdict, kept to be raised again
                _RESULTS[key] = (False, exc)
        ok, result = _RESULTS[key]
        if not ok:
            raise result.with_traceback(None)
        return result

    return remembered


# The table's checks and the honest peer's provers, by the names they are called
# by (verify_shuffles also by its own name: it checks a failed batch proof by proof).
_REMEMBERED = ((chains_module, ("verify_shuffles", "verify_remask")),
               (sharebook_module, ("verify_shares",)),
               (shuffleproof_module, ("verify_shuffles",)),
               (peer_module, ("prove_shuffle", "prove_remask")))


@contextlib.contextmanager
def proofs_made_and_checked_once() -> Iterator[None]:
    """While active, every replica still checks every proof it meets (chain
    proofs, batches of shares) with the arguments it computed itself, and an
    honest peer still proves its own step; but a check or a proof already
    made with exactly the same arguments (key, step, input, proof or seed)
    returns what it returned then instead of redoing the arithmetic. Both
    are pure functions of their arguments: a proof is deterministic, and a
    check's verdict depends on nothing else (but for its random batch
    weights, which only bound a false proof's luck by 2^-64). Only for
    speed: a dozen replicas folding one proof cost one check."""
    saved = [(module, name, getattr(module, name)) for module, names in _REMEMBERED for name in names]
    try:
        for module, name, compute in saved:
            setattr(module, name, _remembered(name, compute))
        yield
    finally:
        for module, name, compute in saved:
            setattr(module, name, compute)
