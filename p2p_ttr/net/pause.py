"""Pausing a game: stopping for now, to resume later with the same commands.

Either player may stop for now (`end`); the host, whose relay the game needs,
also tells every joiner with a ``pause`` frame signed by its identity over
the challenge each connection answered (protocol.md §9, Pause):

    statement = msgpack ["p2p_ttr/pause/v1", host_public_key, challenge, game_id or nil, log_length]

so a pause recorded on one connection cannot stop another, nor another game.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2p_ttr.table.envelope import pack
from p2p_ttr.table.identity import Identity, signature_valid
from p2p_ttr.table.table import Table

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
    by_name: str = "the host"
    carried_on_after: float | None = None


def paused_at(table: Table, ours: bool, carried_on_after: float | None = None) -> Paused:
    assert table.game_id is not None
    engine = table.engine
    by = table.relay if table.seated else 0
    by_name = "the host" if by == 0 or not table.seats else f"the relay ({table.seats[by].name})"
    return Paused(table.game_id, len(table.log), engine.turn + 1 if engine is not None else None, ours, by, by_name,
                  carried_on_after)


def pause_statement(host_public: bytes, challenge: bytes, game_id: bytes | None, length: int) -> bytes:
    return pack([DOMAIN, host_public, challenge, game_id, length])


def sign_pause(host: Identity, challenge: bytes, game_id: bytes | None, length: int) -> bytes:
    return host.sign(pause_statement(host.public, challenge, game_id, length))


def pause_signed(host_public: bytes, signature: bytes, challenge: bytes, game_id: bytes | None, length: int) -> bool:
    return signature_valid(host_public, signature, pause_statement(host_public, challenge, game_id, length))
