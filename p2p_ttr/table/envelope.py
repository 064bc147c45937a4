"""Signed envelopes: how every message of a game travels and is stored.

    envelope = msgpack [signed, signature]
    signed   = msgpack [VERSION, game_id, seat, seq, head, body]

The signature (Ed25519, by the author's identity key) covers the exact bytes of
``signed`` as sent, so a verifier never has to re-encode anything. ``seq``
counts the author's messages (1, 2, 3, ...; a replay repeats one); ``head`` is
the log head hash the author had applied when it wrote the message.

Decoding is bounded before anything is unpacked (total size, string, binary
and array lengths; no maps, no extension types) and strict after.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgpack

from p2p_ttr.deck import MalformedWire, expect_bytes, expect_int, expect_list

from .errors import BadSignature, Malformed
from .identity import SIGNATURE_BYTES, Identity, signature_valid

VERSION = 1
GAME_ID_BYTES = 16
HASH_BYTES = 32
MAX_SEATS = 6  # the most seats any game has (Old West 6: engine limits, any_game_limits); a game's seating bounds its own
MAX_SEQ = 2**31
# The largest legitimate message is a 110-card shuffle output (~57 KiB).
MAX_ENVELOPE_BYTES = 128 * 1024
_LIMITS = dict(  # the total size is checked before unpacking
    max_str_len=4096,
    max_bin_len=MAX_ENVELOPE_BYTES,
    max_array_len=512,
    max_map_len=0,
    max_ext_len=0,
)


def unpack_bounded(data: bytes, what: str) -> Any:
    """msgpack-decode ``data`` within the protocol's limits, or raise Malformed."""
    if not isinstance(data, bytes) or len(data) > MAX_ENVELOPE_BYTES:
        raise Malformed(f"{what} is larger than {MAX_ENVELOPE_BYTES} bytes")
    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=True, use_list=True, **_LIMITS)
    except (ValueError, TypeError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError) as exc:
        raise Malformed(f"{what} is not valid msgpack: {type(exc).__name__}") from None
    except Exception as exc:  # the C unpacker raises a few more kinds on hostile input
        raise Malformed(f"{what} is not valid msgpack: {type(exc).__name__}") from None


def pack(value: Any) -> bytes:
    packed: bytes = msgpack.packb(value, use_bin_type=True)
    return packed


@dataclass(frozen=True, slots=True)
class Envelope:
    """A decoded signed message: game, seat, sequence number, the log head it was written at, body; signature
    checked separately."""

    game_id: bytes
    seat: int
    seq: int
    head: bytes
    body: list[Any]
    signed: bytes  # the exact bytes the signature covers
    signature: bytes

    @property
    def raw(self) -> bytes:
        """The envelope as sent and stored."""
        return pack([self.signed, self.signature])

    @property
    def kind(self) -> str:
        return str(self.body[0]) if self.body else "?"


def seal(identity: Identity, game_id: bytes, seat: int, seq: int, head: bytes, body: list[Any]) -> Envelope:
    """Sign ``body`` as ``seat``'s ``seq``-th message, written at log head ``head``."""
    signed = pack([VERSION, game_id, seat, seq, head, body])
    return Envelope(game_id, seat, seq, head, body, signed, identity.sign(signed))


def open_envelope(raw: bytes) -> Envelope:
    """Decode an envelope's outer and inner layers (signature not yet checked)."""
    envelope = open_frame(raw)
    if not envelope.body or not isinstance(envelope.body[0], str):
        raise Malformed("a message body is a list that starts with its kind")
    return envelope


def open_frame(raw: bytes) -> Envelope:
    """Decode an envelope's layers, its body only as far as being a list (who
    signed what, even when the body is no message: ``ttr verify``'s blame)."""
    try:
        outer = expect_list(unpack_bounded(raw, "message"), "message", 2)
        signed = expect_bytes(outer[0], "signed part")
        signature = expect_bytes(outer[1], "signature", SIGNATURE_BYTES)
        inner = expect_list(unpack_bounded(signed, "signed part"), "signed part", 6)
        version = expect_int(inner[0], "version", 0, 2**16)
        if version != VERSION:
            raise Malformed(f"protocol version {version} is not supported (this peer speaks {VERSION})")
        game_id = expect_bytes(inner[1], "game id", GAME_ID_BYTES)
        seat = expect_int(inner[2], "seat", 0, MAX_SEATS - 1)
        seq = expect_int(inner[3], "sequence number", 1, MAX_SEQ)
        head = expect_bytes(inner[4], "head", HASH_BYTES)
        body = list(expect_list(inner[5], "body"))
    except MalformedWire as exc:
        raise Malformed(str(exc)) from None
    return Envelope(game_id, seat, seq, head, body, signed, signature)


def check_signature(envelope: Envelope, public: bytes) -> None:
    if not signature_valid(public, envelope.signature, envelope.signed):
        raise BadSignature(f"the signature of seat {envelope.seat}'s message {envelope.seq} is not valid")
