"""Who holds a game up, as a peer can tell (design.md §4: liveness is not
progress), as typed facts: what a seat the table waits for is doing, a seat
that gave up and why, whom our connection reaches and its silence, and the
notes of whom we wait for. The peer decides them (net/liveness.py,
net/follower.py); giveup.py and networds.py word them.

``Why`` is also a field of the ``give_up`` and ``gave_up`` frames
(net/frames.py): declared once, here, below net/ in the layer line, where
both the frames and the words reach it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum

from p2p_ttr.table.obligations import Owed


class Why(StrEnum):
    """Why a peer gave up on the game (its value is the string on the wire)."""

    SILENT = "silent"  # the seats it waited for sent no heartbeat for its timeout
    WITHHELD = "withheld"  # they were connected, but withheld a duty their software does at once


class Waiting(Enum):
    """What a seat the table waits for is doing, as this peer can tell."""

    THINKING = "thinking"  # alive, owes only a move: a person's decision takes what it takes
    WITHHOLDING = "withholding"  # alive, owes a duty its software does at once
    SILENT = "silent"  # no heartbeat reaches the relay from it
    GAVE_UP = "gave up"  # it said it gave up on the game, and left


@dataclass(frozen=True)
class Stall:
    """One seat the table waits for: what it is doing, what it owes, and for how
    many seconds (silent for, or the table stalled for)."""

    seat: int
    waiting: Waiting
    owed: tuple[Owed, ...]
    seconds: int


@dataclass(frozen=True)
class SeatGaveUp:
    """``seat`` gave up on the game after ``seconds``, ``why``, waiting for ``about``."""

    seat: int
    why: Why
    about: tuple[int, ...]
    seconds: int


class Dialled(Enum):
    """Whom a seat's connection reaches: the host (no hand-over yet), the
    relay after a hand-over, or the seat that relays next (standing by)."""

    HOST = "host"
    RELAY = "relay"
    NEXT_RELAY = "next relay"


@dataclass(frozen=True)
class RelaySilence:
    """The peer we follow has sent nothing, heartbeats included, for
    ``seconds``: the table cannot move (it sequences every move), whatever
    the status line would say of whose turn it is."""

    dialled: Dialled
    seat: int | None  # None: not known yet (before the seating)
    seconds: int


class Awaited(Enum):
    """What the table, or our taking over or resuming as relay, waits for the seats named to do."""

    PLAY = "play"  # their move, or a duty the table says they owe
    TURN_TO_US = "turn to us"  # turn to us, the successor (the relay is gone)
    SEND_HELD = "send held"  # send us the entries they hold
    CATCH_UP = "catch up"  # catch up with our log and ask again
    SAY_HELD = "say held"  # say how much of the log they hold (a resumed relay goes on only then)
    HOLD_OUR_LOG = "hold our log"  # hold our log, theirs differing (the relay may have moved on)


@dataclass(frozen=True)
class WaitingFor:
    """A repeated note while the table waits: ``seats`` to do ``awaited``, for
    ``seconds``; ``silent``: those of them with no heartbeat, and for how long."""

    seats: tuple[int, ...]
    awaited: Awaited
    seconds: int
    silent: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class WaitingForFollowed:
    """A repeated note while the peer we follow (``dialled``, at ``seat``; None:
    not known yet) at ``address`` has been silent for ``seconds``."""

    dialled: Dialled
    seat: int | None
    address: str
    seconds: int


@dataclass(frozen=True)
class OtherGaveUp:
    """Another peer gave up on the game (its signed word, passed on by the relay); ``me``: our seat."""

    news: SeatGaveUp
    me: int | None


@dataclass(frozen=True)
class StalledAsk:
    """The table has not moved for ``seconds``, held by ``stalls``: the player is asked to wait or end."""

    stalls: tuple[Stall, ...]
    seconds: int
