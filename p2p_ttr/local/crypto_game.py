"""A whole game among in-process peers that share nothing but encoded bytes.

Each peer has its own identity, secrets and replica; seat 0's replica checks
each message before it is sequenced (as the host will), then every other
replica folds the same entry. The result is the signed log and every replica.

Where the secrets come from (identities, keys, deck seeds, the game id, proof
randomness): with a seed, all of them follow from it, so the same seed
replays the game bit for bit -- a demo or a test, whose log proves nothing to
anyone who knows the seed. Without one they come from the OS CSPRNG, as in a
real game. The bots' decisions are the caller's (they may well be seeded).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from p2p_ttr.bots.base import Bot
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.engine.game import Game
from p2p_ttr.table.envelope import GAME_ID_BYTES
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.messages import Seat
from p2p_ttr.table.peer import Peer
from p2p_ttr.table.relaying import sign_receipt

# Far above any real game's message count; turns a bug into an error, not a hang.
MAX_MESSAGES = 50_000


class SeededSource:
    """Reproducible random bytes (counter-mode SHA-256) so that ``--seed``
    replays a game. Not secret to anyone who knows the seed: real games, and
    ``play_crypto_game(None, ...)``, use the OS generator instead."""

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._counter = 0

    def __call__(self, n: int) -> bytes:
        out = b""
        while len(out) < n:
            self._counter += 1
            out += hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
        return out[:n]

    def __repr__(self) -> str:
        return "SeededSource(<redacted>)"


@dataclass
class CryptoGame:
    """A finished (or stopped) game played by separate peers in one process: the signed log and each peer."""

    log: list[bytes]
    peers: list[Peer]


class GameStuck(RuntimeError):
    """The peers of a crypto game stopped with the game unfinished: nobody had anything to send."""

    pass


def play_crypto_game(
    seed: int | None, bots: Sequence[Bot], names: Sequence[str], peer_types: Sequence[type[Peer]] = (),
    escrow: bool = False, game: Game | None = None,
) -> CryptoGame:
    """Play a whole game of ``game`` (None: Europe's standard game);
    ``peer_types[p]`` (default Peer) lets tests seat a cheater; ``escrow``:
    seat it with escrow (protocol.md §6, Escrow).

    ``seed``: every secret of the game follows from it (reproducible, a demo);
    None: every secret comes from the OS CSPRNG (module docstring)."""
    n = len(bots)
    sources: list[SeededSource | None] = [
        None if seed is None else SeededSource(b"p2p_ttr/selfplay/%d/%d" % (seed, p)) for p in range(n)
    ]
    identities = [Identity.generate() if src is None else Identity.from_bytes(src(32)) for src in sources]
    kinds = list(peer_types) + [Peer] * (n - len(peer_types))
    peers = [kinds[p](p, identities[p], bots[p].choose, sources[p]) for p in range(n)]
    seats = tuple(Seat(names[p], identities[p].public) for p in range(n))
    log: list[bytes] = []
    receipts: list[bytes] = []  # the relay's signature on each entry, as a LAN relay keeps them

    def sequence(raw: bytes) -> None:
        # The sequencer checks each message before it relays it, and drops a
        # refused one (its table records why); honest games have none.
        try:
            peers[0].table.receive(raw)
        except (TableError, EngineError):
            return
        table = peers[0].table
        relay = table.relay  # after a hand-over entry: the new relay, its author, signs it
        assert table.game_id is not None
        receipts.append(sign_receipt(identities[relay], table.game_id, len(log), table.prev_head(len(log)), raw))
        for peer in peers[1:]:
            peer.table.receive(raw)
        log.append(raw)

    def hand_over() -> None:
        # The relay forfeited: its successor takes over with every other
        # seat's follow request (here all hold the whole log at once).
        table = peers[0].table
        new = table.successor
        if new is None:
            raise GameStuck(f"{_which(seed)}: the relay left and nobody is left to relay")
        old = table.relay
        requests = tuple(peers[s].follow(old, new) for s in table.in_play if s not in (old, new))
        sequence(peers[new].take_relay(receipts[-1], requests))

    first = sources[0]  # None: open_game draws the game id from the OS
    sequence(peers[0].open_game(seats, game_id=None if first is None else first(GAME_ID_BYTES), escrow=escrow, game=game))
    for _ in range(MAX_MESSAGES):
        if all(peer.table.complete for peer in peers):
            return CryptoGame(log, peers)
        sent = False
        if peers[0].table.relay_gone:
            hand_over()
        for peer in peers:
            for raw in peer.outbox():
                sequence(raw)
                sent = True
        if not sent:
            waiting = [p.seat for p in peers if not p.table.complete]
            raise GameStuck(f"{_which(seed)}: nobody owes anything but the game is not complete (seats {waiting})")
    raise GameStuck(f"{_which(seed)}: no end after {MAX_MESSAGES} messages")


def _which(seed: int | None) -> str:
    return "secrets from the OS" if seed is None else f"seed {seed}"
