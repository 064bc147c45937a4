"""What a peer drops or refuses, as typed facts: a frame that does not
decode, a hello that answers no challenge, an entry without its relay's
signature... Rare drops, and those from the one peer we follow, are
reported each time (``Dropped``); what arrives at our ROUTER's doors is
counted (net/droplog.py: ``FirstAtDoor`` once per kind, then ``MoreAtDoor``),
so a flood writes a bounded number of lines. networds.py words them; a
reason a peer's bytes provoked is shown safely there.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Dropping(Enum):
    """Something a peer dropped, said each time (what comes rarely, or from the one peer we follow)."""

    WATCH_ON_SEAT = "watch on seat"  # a watch sent on a seat's connection
    WATCH_UNANSWERED = "watch unanswered"  # a watch that does not answer its challenge
    FOLLOW_UNSIGNED = "follow unsigned"  # a follow request not signed for this relay term
    FOLLOW_NOT_PREFIX = "follow not prefix"  # a follow request from a log that is no prefix of ours
    PAUSE_UNSIGNED = "pause unsigned"  # a pause the host did not sign
    FIRST_MALFORMED = "first malformed"  # a first entry from the host that does not open
    FIRST_NO_SEATING = "first no seating"  # (watching) a first entry that is no seating
    SEATING_UNSIGNED = "seating unsigned"  # (watching) a seating its host did not sign
    ENTRY_UNSIGNED = "entry unsigned"  # (watching) an entry whose relay's signature is not valid
    CONFLICT = "conflict"  # (watching) another entry at an index we hold, no hand-over
    CONFLICT_UNSIGNED = "conflict unsigned"  # another entry at an index we hold, its relay's signature not valid
    HANDOVER_UNFOLDING = "hand-over unfolding"  # (watching) a hand-over that does not fold
    BAD_FRAME = "bad frame"  # (watching) a frame that does not decode


@dataclass(frozen=True)
class Dropped:
    """We dropped ``what`` (``seat``: whose; ``entry``: at that index; ``reason``: the error's own words)."""

    what: Dropping
    seat: int = -1
    entry: int = -1
    reason: str = ""


class Door(Enum):
    """What a peer's doors drop or refuse, counted (drops.py): a flood of one is said once."""

    BAD_FRAME = "bad frame"
    WRONG_SHAPE = "wrong shape"  # a message of other than two parts
    BAD_FRAME_FOLLOWED = "bad frame followed"  # from the peer we follow
    SECOND_HELLO = "second hello"
    HELLO_UNANSWERED = "hello unanswered"  # a hello that does not answer its connection's challenge
    HELLO_REFUSED = "hello refused"  # (code)
    MESSAGE_REFUSED = "message refused"  # a seat's message our table refused (seat, code)
    DESCRIBE_NO_GAME = "describe no game"
    DESCRIBE = "describe"  # (too many a second)
    FETCH_UNDER_WAY = "fetch under way"
    CATCH_UP_DROPPED = "catch-up dropped"  # the oldest catch-up under way: too many at once
    ENTRY_UNSIGNED = "entry unsigned"  # (seat) an entry without its relay's signature
    ENTRY_RELAY_UNSIGNED = "entry relay unsigned"  # from the peer we follow, its relay's signature not valid
    ENTRY_UNFOLDING = "entry unfolding"  # (seat) an entry that does not fold
    ELSE = "else"  # past the kinds counted: everything else, together


@dataclass(frozen=True)
class DoorKind:
    """What ``DropLog`` counts by: the door, and whose or which code where the words name it."""

    door: Door
    seat: int = -1
    code: str = ""


@dataclass(frozen=True)
class DoorDetail:
    """Why, the first time: ``reason`` (an error's or a peer's own words), ``name`` (a hello's),
    ``entry`` (an index), ``parts`` (a message's), ``per_s`` (a rate passed); each -1 or "" when not said."""

    reason: str = ""
    name: str | None = None
    entry: int = -1
    parts: int = -1
    per_s: float = -1.0


@dataclass(frozen=True)
class FirstAtDoor:
    """The first ``kind`` dropped, said with ``detail``; more like it are counted and said every ``every_s``."""

    kind: DoorKind
    detail: DoorDetail
    every_s: float


@dataclass(frozen=True)
class MoreAtDoor:
    """``count`` more of ``kind`` in the last ``span_s``."""

    kind: DoorKind
    count: int
    span_s: float
