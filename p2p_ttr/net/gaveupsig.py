"""A seat's own signature on its ``give_up`` (protocol.md §9, Heartbeats and liveness).

    statement = msgpack [b"p2p_ttr/gave-up/v1", game_id, seat, why, [seat...], seconds]

The relay passes a ``give_up`` on as ``gave_up`` with this signature, and
every peer checks it against the seated key of the seat it names: only that
seat can say it gave up. Without it the relay, or anyone on the path, could
mark a thinking seat as gone and make every screen accuse it (issue 42, 6).
"""

from __future__ import annotations

from p2p_ttr.client.livenessfacts import SeatGaveUp
from p2p_ttr.table.envelope import pack
from p2p_ttr.table.identity import Identity, signature_valid

DOMAIN = b"p2p_ttr/gave-up/v1"


def gave_up_statement(game_id: bytes | None, news: SeatGaveUp) -> bytes:
    return pack([DOMAIN, game_id, news.seat, news.why.value, list(news.about), news.seconds])


def sign_gave_up(identity: Identity, game_id: bytes | None, news: SeatGaveUp) -> bytes:
    return identity.sign(gave_up_statement(game_id, news))


def gave_up_signed(public: bytes, signature: bytes, game_id: bytes | None, news: SeatGaveUp) -> bool:
    """Whether ``public`` (the key seated at ``news.seat``) signed this word in this game."""
    return signature_valid(public, signature, gave_up_statement(game_id, news))
