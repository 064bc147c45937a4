"""Why the table refused a message. Each refusal has a stable wire ``code``
(sent back to the author by the network layer) and a readable reason.

Engine refusals keep their own codes (out_of_turn, illegal_move, ...); deck
refusals map to bad_proof or bad_element.
"""

from __future__ import annotations

from typing import ClassVar

from p2p_ttr.errorcodes import ErrorCode


class TableError(ValueError):
    """Base of every refusal of the table; ``code`` is its wire code."""

    code: ClassVar[ErrorCode] = ErrorCode.REJECTED


class Malformed(TableError):
    """Undecodable bytes or a field of the wrong type, size or range."""

    code: ClassVar[ErrorCode] = ErrorCode.MALFORMED


class BadSignature(TableError):
    """The signature does not verify under the named seat's identity."""

    code: ClassVar[ErrorCode] = ErrorCode.BAD_SIGNATURE


class WrongGame(TableError):
    """A message for another game (a foreign or replayed message)."""

    code: ClassVar[ErrorCode] = ErrorCode.WRONG_GAME


class Replay(TableError):
    """A sequence number already used by that seat."""

    code: ClassVar[ErrorCode] = ErrorCode.REPLAY


class UnknownHead(TableError):
    """The author claims to have applied a log head that is not in our log."""

    code: ClassVar[ErrorCode] = ErrorCode.UNKNOWN_HEAD


class NotExpected(TableError):
    """A well-formed message nobody owes now (out of turn, out of order, twice)."""

    code: ClassVar[ErrorCode] = ErrorCode.NOT_EXPECTED


class BadProof(TableError):
    """A share, key proof or seed that does not check out."""

    code: ClassVar[ErrorCode] = ErrorCode.BAD_PROOF


class Cheating(TableError):
    """Proof, found in the log, that a seat broke the protocol."""

    code: ClassVar[ErrorCode] = ErrorCode.CHEATING
