"""Why the engine refused an event. Each error has a stable ``code`` the network
maps to its wire error codes, and a message a player can read."""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every refusal; the state is unchanged when one is raised."""

    code = "engine_error"


class MalformedEvent(EngineError):
    """The event is not well-formed (bad type, out-of-range field)."""

    code = "malformed"


class OutOfTurn(EngineError):
    """A player acted when it was not theirs to act."""

    code = "out_of_turn"


class IllegalMove(EngineError):
    """The action breaks a rule of the game."""

    code = "illegal_move"


class UnknownCard(EngineError):
    """A rule needs the face of a card this state does not know."""

    code = "unknown_card"


class BadChance(EngineError):
    """A chance event does not answer what the engine is waiting for."""

    code = "bad_chance"
