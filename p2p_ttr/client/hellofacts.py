"""Why a host turns a hello (or a watch, or a describe) away, as typed facts
(issue 44): net/lobby.py, admission.py and hellobind.py decide, and raise a
``HelloRefusal`` carrying a wire code and one of these; hellowords.py words
it, both for the ``refused`` frame the joiner reads and for the note on the
host's own screen. Declared in client/, below net/, as netnotices.py is.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OtherVersion:
    """The peer speaks LAN protocol ``version``; this host ``ours``."""

    version: int
    ours: int


@dataclass(frozen=True)
class HelloUnsigned:
    """The hello's signature is not the named identity's."""


@dataclass(frozen=True)
class NameRefused:
    """The name breaks the naming rule: ``problem``, the rule's own words (table/names.py)."""

    problem: str


@dataclass(frozen=True)
class HostsOwnIdentity:
    """The hello is signed by the host's own identity."""


@dataclass(frozen=True)
class NameInUse:
    """``name`` is taken at this table."""

    name: str


@dataclass(frozen=True)
class NameLookalike:
    """``name`` looks the same as ``other``, already at this table."""

    name: str
    other: str


@dataclass(frozen=True)
class LobbyFull:
    """The lobby holds ``capacity`` players and ``waiting`` more wait for a place."""

    capacity: int
    waiting: int


@dataclass(frozen=True)
class GameUnderWay:
    """The game has started, with no seat for this identity."""


@dataclass(frozen=True)
class NoGameYet:
    """No lobby and no game here yet."""


@dataclass(frozen=True)
class StartedBeforePlace:
    """A joiner waiting for a place: the game started without it."""


@dataclass(frozen=True)
class WatchersFull:
    """The table has ``count`` watchers already."""

    count: int


@dataclass(frozen=True)
class DialledNoAddress:
    """The hello names ``ip`` as the address dialled: no IP address."""

    ip: str


@dataclass(frozen=True)
class DialledElsewhere:
    """The hello was dialled to ``ip``:``port``, not where this host listens: a relay in between."""

    ip: str
    port: int


NotDialledHere = DialledNoAddress | DialledElsewhere
HelloProblem = (OtherVersion | HelloUnsigned | NameRefused | HostsOwnIdentity | NameInUse | NameLookalike | LobbyFull
                | GameUnderWay | NoGameYet | StartedBeforePlace | WatchersFull | DialledNoAddress | DialledElsewhere)
