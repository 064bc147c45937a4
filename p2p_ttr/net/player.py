"""One seat's duties over the network: its replica, its secrets (persisted
before anything that depends on them is sent) and its outbox."""

from __future__ import annotations

from pathlib import Path

from p2p_ttr.client.storefacts import NoSeatHere, SecretsDamaged, SecretsFault, SecretsMissing
from p2p_ttr.deck import DeckError, KeyAnnouncement, SecretKey, Seed, SeedCommitment, check_seed
from p2p_ttr.table.envelope import open_envelope
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.messages import Keys, message_from_wire
from p2p_ttr.table.peer import Decider, Peer
from p2p_ttr.table.table import PeerSecrets, Table

from .store import GameStore, StoreError


def check_secrets(path: Path, game_id: bytes, secrets: PeerSecrets,
                  announced: tuple[KeyAnnouncement, SeedCommitment] | None) -> None:
    """Refuse secrets that are not the ones this seat announced: a damaged
    file found now, not at the end of the game, where the audit would call
    the seat a cheater."""
    if secrets.key.game_id != game_id or secrets.key.seat != secrets.seat:
        raise StoreError(SecretsDamaged(path, SecretsFault.NOT_THIS_SEATS_KEY))
    if announced is None:
        return  # our keys are not in the log yet: nothing to compare with
    key, commitment = announced
    if secrets.key.public_key != key.public_key:
        raise StoreError(SecretsDamaged(path, SecretsFault.KEY_NOT_ANNOUNCED))
    try:
        check_seed(game_id, commitment, secrets.seed)
    except DeckError:
        raise StoreError(SecretsDamaged(path, SecretsFault.SEED_NOT_COMMITTED)) from None


def announced_in(entries: list[bytes], seat: int) -> tuple[KeyAnnouncement, SeedCommitment] | None:
    """The key and seed commitment ``seat`` put in the log, if it did (read
    without folding: the fold that follows checks every entry anyway)."""
    for raw in entries:
        try:
            envelope = open_envelope(raw)
            if envelope.seat != seat or not envelope.body or envelope.body[0] != Keys.KIND:
                continue
            message = message_from_wire(envelope.body)
        except (TableError, IndexError, TypeError):
            continue
        if isinstance(message, Keys):
            return message.key, message.commitment
    return None


def load_checked_secrets(store: GameStore, entries: list[bytes]) -> PeerSecrets | None:
    """This seat's secrets from ``store``, checked against what the log says of them."""
    secrets = store.load_secrets()
    if secrets is not None:
        check_secrets(store.secrets_path, store.game_id, secrets, announced_in(entries, secrets.seat))
    return secrets


class SeatPlayer:
    """Plays one seat over the network: the seat's ``Peer`` (what it owes next) on its replica, with its
    secrets saved before its key is announced and checked against the log when loaded."""

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
            raise StoreError(NoSeatHere())
        if self.table.me is None:
            secrets = self.store.load_secrets()
            if secrets is not None:
                key, commitment = self.table.keys.get(seat), self.table.commitments.get(seat)
                check_secrets(self.store.secrets_path, self.table.game_id, secrets,
                              (key, commitment) if key is not None and commitment is not None else None)
                if secrets.seat != seat:
                    raise StoreError(SecretsDamaged(self.store.secrets_path, SecretsFault.OTHER_SEAT))
            if secrets is None:
                if seat in self.table.keys:
                    raise StoreError(SecretsMissing())
                seal = SecretKey.generate(self.table.game_id, seat) if self.table.escrow else None
                secrets = PeerSecrets(seat, SecretKey.generate(self.table.game_id, seat), Seed.generate(), seal)
                self.store.save_secrets(secrets)  # durable before the keys message exists
            self.table.hold_secrets(secrets)
        self.peer = Peer(seat, self.identity, self.decide, table=self.table)
        return True

    def catch_up_seq(self) -> None:
        """Never reuse a sequence number: our next message continues after our last one in the log."""
        if self.peer is not None:
            self.peer.resume_after(self.table.last_seq.get(self.peer.seat, 0))

    def outbox(self) -> list[bytes]:
        """What this seat owes now (call only when caught up with the host)."""
        if not self.ready():
            return []
        assert self.peer is not None
        self.catch_up_seq()
        return self.peer.outbox()
