"""Why the engine refused an event. Each error has a stable ``code`` the network
maps to its wire error codes, and a message a player can read."""

from __future__ import annotations

from typing import ClassVar

from p2p_ttr.errorcodes import ErrorCode


class EngineError(ValueError):
    """Base of every refusal; the state is unchanged when one is raised."""

    code: ClassVar[ErrorCode] = ErrorCode.ENGINE_ERROR


class MalformedEvent(EngineError):
    """The event is not well-formed (bad type, out-of-range field)."""

    code: ClassVar[ErrorCode] = ErrorCode.MALFORMED


class OutOfTurn(EngineError):
    """A player acted when it was not theirs to act."""

    code: ClassVar[ErrorCode] = ErrorCode.OUT_OF_TURN


class IllegalMove(EngineError):
    """The action breaks a rule of the game."""

    code: ClassVar[ErrorCode] = ErrorCode.ILLEGAL_MOVE


class UnknownCard(EngineError):
    """A rule needs the face of a card this state does not know."""

    code: ClassVar[ErrorCode] = ErrorCode.UNKNOWN_CARD


class BadChance(EngineError):
    """A chance event does not answer what the engine is waiting for."""

    code: ClassVar[ErrorCode] = ErrorCode.BAD_CHANCE
