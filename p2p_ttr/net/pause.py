"""Pausing a game: stopping for now, to resume later with the commands
printed, and what `end` means for a player now.

Either player may stop for now (`end`); the host, whose relay the game needs,
also tells every joiner with a ``pause`` frame signed by its identity over
the challenge each connection answered (protocol.md §9, Pause):

    statement = msgpack ["p2p_ttr/pause/v1", host_public_key, challenge, game_id or nil, log_length]

so a pause recorded on one connection cannot stop another, nor another game.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2p_ttr.client.numbering import turn_number
from p2p_ttr.client.outcomes import EndMeans, end_means
from p2p_ttr.table.envelope import pack
from p2p_ttr.table.identity import Identity, signature_valid
from p2p_ttr.table.table import Table

from .store import GameStore
from .transport import format_address

DOMAIN = "p2p_ttr/pause/v1"


@dataclass(frozen=True)
class Paused:
    """Where a game was paused, and by whom: ``ours`` when this player paused
    it, else the relay (``by``, its seat: the host's is 0) paused it and told
    us. ``carried_on_after``: we left an escrow game we do not relay, which
    does not wait for us: once we have been silent that many seconds the
    others carry our seat on (None: the game waits)."""

    game_id: bytes
    entries: int  # the log's length when it stopped
    turn: int | None  # the turn under way (1 for the first), None before the deal
    ours: bool
    by: int = 0
    relay_name: str | None = None  # who paused it, if the relay moved from the host (else the host did)
    carried_on_after: float | None = None


def paused_at(table: Table, ours: bool, carried_on_after: float | None = None) -> Paused:
    assert table.game_id is not None
    engine = table.engine
    by = table.relay if table.seated else 0
    relay_name = None if by == 0 or not table.seats else table.seats[by].name
    return Paused(table.game_id, len(table.log), turn_number(engine) if engine is not None else None, ours, by,
                  relay_name, carried_on_after)


def end_means_now(table: Table | None, relaying: bool) -> EndMeans | None:
    """What a player's `end` does now: pause everyone (we relay), step away
    (the game waits), or leave a seat the others carry on (escrow). None
    outside a game under way (the role says)."""
    if table is None or not table.seated or table.finished:
        return None
    return end_means(relaying, table.escrow)


def relay_address(table: Table | None, seat: int | None, host: str) -> str:
    """Where a seat comes back to its game: the relay the log names now, if
    it moved (its ``reach``: our own when the relay moved to us, where the
    others come back to; never the host it moved away from), else the
    ``host`` joined at."""
    if table is not None and table.handovers and table.relay in table.reach:
        return format_address(*table.reach[table.relay])
    return host


def remember_relay(store: GameStore, address: str) -> None:
    """A joiner keeps in meta.json where the relay is now (``relay``): the
    command that resumes its seat dials it, and `ttr join` at that address
    finds the game as ours."""
    meta = store.load_meta()
    if meta.get("role") == "peer" and meta.get("relay") != address:
        store.save_meta({**meta, "relay": address})


def pause_statement(host_public: bytes, challenge: bytes, game_id: bytes | None, length: int) -> bytes:
    return pack([DOMAIN, host_public, challenge, game_id, length])


def sign_pause(host: Identity, challenge: bytes, game_id: bytes | None, length: int) -> bytes:
    return host.sign(pause_statement(host.public, challenge, game_id, length))


def pause_signed(host_public: bytes, signature: bytes, challenge: bytes, game_id: bytes | None, length: int) -> bool:
    return signature_valid(host_public, signature, pause_statement(host_public, challenge, game_id, length))
