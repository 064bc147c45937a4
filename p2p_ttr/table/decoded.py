"""A log entry decoded once, for folds handed a log whose entries their caller
has already decoded (`ttr verify` decodes the whole log first, to find the
secrets and the deck records and to start the audit's work ahead).

A ``DecodedEntry`` holds the bytes it was decoded from: the table takes its
envelope and message only for those very bytes (``decoded_for``), so it
checks exactly what it would have decoded itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from .envelope import Envelope, open_envelope
from .messages import Message, message_from_wire


@dataclass(frozen=True, eq=False)
class DecodedEntry:
    """``raw``, its envelope (signature not checked) and its message (decoded
    within the bounds of every game we have, as the table decodes it)."""

    raw: bytes
    envelope: Envelope
    message: Message


def decode_entry(raw: bytes) -> DecodedEntry:
    """Raises TableError (Malformed) as ``open_envelope`` and ``message_from_wire`` do."""
    envelope = open_envelope(raw)
    return DecodedEntry(raw, envelope, message_from_wire(envelope.body))


def decoded_for(raw: bytes, decoded: DecodedEntry | None) -> tuple[Envelope, Message]:
    """``raw``'s envelope and message: ``decoded``'s when it was made from
    these bytes, else decoded now."""
    if decoded is not None and decoded.raw == raw:
        return decoded.envelope, decoded.message
    fresh = decode_entry(raw)
    return fresh.envelope, fresh.message
