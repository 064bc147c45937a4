"""Why the table refused a message. Each refusal has a stable wire ``code``
(sent back to the author by the network layer) and a readable reason.

Engine refusals keep their own codes (out_of_turn, illegal_move, ...); deck
refusals map to bad_proof or bad_element.
"""

from __future__ import annotations


class TableError(ValueError):
    code = "rejected"


class Malformed(TableError):
    """Undecodable bytes or a field of the wrong type, size or range."""

    code = "malformed"


class BadSignature(TableError):
    code = "bad_signature"


class WrongGame(TableError):
    """A message for another game (a foreign or replayed message)."""

    code = "wrong_game"


class Replay(TableError):
    """A sequence number already used by that seat."""

    code = "replay"


class UnknownHead(TableError):
    """The author claims to have applied a log head that is not in our log."""

    code = "unknown_head"


class NotExpected(TableError):
    """A well-formed message nobody owes now (out of turn, out of order, twice)."""

    code = "not_expected"


class BadProof(TableError):
    """A share, key proof or seed that does not check out."""

    code = "bad_proof"


class Cheating(TableError):
    """Proof, found in the log, that a seat broke the protocol."""

    code = "cheating"
