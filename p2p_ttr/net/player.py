"""One seat's duties over the network: its replica, its secrets (persisted
before anything that depends on them is sent) and its outbox."""

from __future__ import annotations

from p2p_ttr.deck import SecretKey, Seed
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.peer import Decider, Peer
from p2p_ttr.table.table import PeerSecrets, Table

from .store import GameStore, StoreError


class SeatPlayer:
    def __init__(self, identity: Identity, table: Table, store: GameStore, decide: Decider) -> None:
        self.identity = identity
        self.table = table
        self.store = store
        self.decide = decide
        self.peer: Peer | None = None

    @property
    def seat(self) -> int | None:
        for s, seat in enumerate(self.table.seats):
            if seat.identity == self.identity.public:
                return s
        return None

    def ready(self) -> bool:
        """Once the seating is in the log: set up our seat (secrets first)."""
        if self.peer is not None:
            return True
        if self.table.game_id is None:
            return False
        seat = self.seat
        if seat is None:
            raise StoreError("this identity has no seat in the game")
        if self.table.me is None:
            secrets = self.store.load_secrets()
            if secrets is None:
                if seat in self.table.keys:
                    raise StoreError("our key is in the log but our secrets are not on disk: this seat cannot go on")
                secrets = PeerSecrets(seat, SecretKey.generate(self.table.game_id, seat), Seed.generate())
                self.store.save_secrets(secrets)  # durable before the keys message exists
            self.table.me = secrets
        peer = Peer(seat, self.identity, self.decide)
        peer.table = self.table
        self.peer = peer
        return True

    def outbox(self) -> list[bytes]:
        """What this seat owes now (call only when caught up with the host)."""
        if not self.ready():
            return []
        assert self.peer is not None
        # Never reuse a sequence number: continue after our last one in the log.
        self.peer.seq = max(self.peer.seq, self.table.last_seq.get(self.peer.seat, 0))
        return self.peer.outbox()
