"""The entries a table refused, and who each claimed to be from."""

from __future__ import annotations

from dataclasses import dataclass

from p2p_ttr.engine.errors import EngineError
from p2p_ttr.errorcodes import ErrorCode

from .envelope import open_envelope
from .errors import TableError

MAX_REJECTIONS = 1000  # refusals a table remembers (the latest; a flood is counted by the peer's drop log)


@dataclass(frozen=True)
class Rejection:
    """A refused entry: who it claims to be from, and why it was refused."""

    seat: int | None  # the seat the message claims to come from, if it says
    seq: int | None
    code: ErrorCode
    reason: str


def rejection_of(raw: bytes, refusal: TableError | EngineError) -> Rejection:
    """The record of refusing the entry ``raw``: who it claims to be from, if it says, and why."""
    try:
        envelope = open_envelope(raw)
    except TableError:
        return Rejection(None, None, refusal.code, str(refusal))
    return Rejection(envelope.seat, envelope.seq, refusal.code, str(refusal))

