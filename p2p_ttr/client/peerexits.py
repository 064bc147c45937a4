"""Why a peer's run ends early, as typed facts (net/exits.py's ``PeerExit``
carries one; exitwords.py words it): the rest of what a peer tells its
player (netnotices.py), kept apart because each of these is the last
thing it says (a ``RelayLost`` with no successor is one too). A seat goes up as its number, a string is a peer's or an
error's own words (shown safely where it is worded)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from .livenessfacts import Dialled, Why

# ------------------------------------------------------------ joining a game


@dataclass(frozen=True)
class HostRefusedUs:
    """The host refused our hello with ``code`` (``reason``, its own words);
    ``watch_at``: the game has started without us, and ``ttr watch`` follows it there."""

    code: str
    reason: str
    watch_at: str | None = None


@dataclass(frozen=True)
class OtherGameOpened:
    """The host at ``address`` opened ``opened`` (a game id; None: a new game)
    while ``ours`` (None: a game we cannot name) with it is not finished;
    ``data_flag``: our ` --data-dir DIR`, for the command we print."""

    address: str
    opened: bytes | None
    ours: bytes | None
    data_flag: str


@dataclass(frozen=True)
class OtherProtocol:
    """The host speaks LAN protocol ``version``, we ``ours``."""

    version: int
    ours: int


@dataclass(frozen=True)
class CannotPlayThere:
    """The game at ``address`` (``board``, ``variant``) cannot be played here
    (``reason``); ``watching``: we came to watch it, not to join."""

    address: str
    board: str
    variant: str
    reason: str
    watching: bool = False


@dataclass(frozen=True)
class DifferentHost:
    """Another key than the host's answers at ``address`` (None: the address we
    were given; else the one the host's beacon named, for ``ttr watch``)."""

    address: str | None = None


@dataclass(frozen=True)
class StartedWithoutUs:
    """The seating names no seat of ours."""


@dataclass(frozen=True)
class LobbyClosedByHost:
    """The host paused before the game started: its lobby is closed."""


@dataclass(frozen=True)
class HostSwitched:
    """The host we follow opened another game than ours."""


@dataclass(frozen=True)
class HostNotSeated:
    """The host that answers is no seat of the game we hold."""


@dataclass(frozen=True)
class TooFewJoined:
    """A scripted host's lobby: only ``count`` of ``wanted`` joined in ``timeout_s``."""

    count: int
    wanted: int
    timeout_s: float


@dataclass(frozen=True)
class NothingAnswered:
    """Nothing answered at ``address`` in ``timeout_s`` (no ``ttr host`` there?)."""

    address: str
    timeout_s: float


class NoHostSeen(Enum):
    """What a first join learnt of an address that is no ttr host (net/reach.py)."""

    NOTHING_LISTENS = "nothing listens"  # the connection refused (or timed out) again and again
    HANDSHAKE_FAILED = "handshake failed"  # it failed the ZeroMQ handshake (a PUB or PULL socket)
    SAID_NOTHING = "said nothing"  # it accepted the connection and never began the handshake (libzmq gave up)
    CLOSED = "closed"  # it closed the connection before any handshake (a plain TCP server)
    NO_ZEROMQ = "no zeromq"  # connected, the handshake not done in time (an HTTP server)
    NO_ANSWER = "no answer"  # the handshake done, no frame of ours answered (another program's ZeroMQ socket)


@dataclass(frozen=True)
class NoHostAt:
    """The address a first join dialled (``address``) is no ttr host: ``seen``."""

    address: str
    seen: NoHostSeen


# ------------------------------------------------------- the relay misbehaves


@dataclass(frozen=True)
class RefusedRelayEntry:
    """The relay (``relay``; ``moved``: after a hand-over, else the host)
    sequenced entry ``index``, which our table refuses (``code``, ``reason``)."""

    relay: int
    moved: bool
    index: int
    code: str
    reason: str


@dataclass(frozen=True)
class Equivocated:
    """The relay (``relay``, ``moved`` as above) signed two entries at ``index``; the proof is at ``proof``."""

    relay: int
    moved: bool
    index: int
    proof: Path


@dataclass(frozen=True)
class HidEntries:
    """``seat`` took part in a hand-over at ``index`` while it held entries past
    it (it wrote one at ``seen``); our log is at ``log``."""

    seat: int
    index: int
    seen: int
    log: Path


@dataclass(frozen=True)
class NoReceipt:
    """We hold no relay's receipt of entry ``entry``: we cannot take over."""

    entry: int


@dataclass(frozen=True)
class OwnHandOverRefused:
    """Our own ``relay`` entry was refused: we cannot relay."""


@dataclass(frozen=True)
class KeepsRefusing:
    """The host refused our messages time after time."""


@dataclass(frozen=True)
class LogLacksEntries:
    """Our log (``log``; None: none) lacks the entries from ``start`` that ``seat``
    holds but cannot send with their relay's signature."""

    log: Path | None
    start: int
    seat: int


@dataclass(frozen=True)
class SignedEntryUnfolding:
    """Entry ``index``, which we signed and ``seat`` sent back, does not fold (``reason``)."""

    index: int
    seat: int
    reason: str


@dataclass(frozen=True)
class FollowedSilent:
    """The peer we follow (``dialled``, at ``seat``; None: not known yet) at
    ``address`` has been silent for ``timeout_s``."""

    dialled: Dialled
    seat: int | None
    address: str
    timeout_s: float


# ---------------------------------------------------- a scripted peer gives up


@dataclass(frozen=True)
class HostResume:
    """How the host resumes the game: ``ttr host --resume GAME`` (``game_id`` None: not known yet)."""

    game_id: bytes | None


@dataclass(frozen=True)
class GaveUpStalled:
    """No progress for ``timeout_s`` waiting for ``waiting``: we give up, ``why``,
    on ``about`` (for ``seconds``); our log is ``log``; ``resume``: how the host resumes."""

    timeout_s: float
    waiting: tuple[int, ...]
    why: Why
    about: tuple[int, ...]
    seconds: int
    log: str
    resume: HostResume | None = None


@dataclass(frozen=True)
class GaveUpHeldBack:
    """No progress for ``timeout_s``: the relay (``relay``) holds back a message its author showed us."""

    timeout_s: float
    relay: int


@dataclass(frozen=True)
class GaveUpNotBack:
    """No progress for ``timeout_s``: not every seat came back after our restart as relay."""

    timeout_s: float
    resume: HostResume | None = None


# ------------------------------------------------------------------ leaving


@dataclass(frozen=True)
class ForfeitedGoesOn:
    """We forfeited; the others play on."""


@dataclass(frozen=True)
class ForfeitedEnded:
    """We forfeited and the game ended with that; ``short_s``: the end never
    reached us in that many seconds (0: it did)."""

    short_s: float = 0.0


# ------------------------------------------------------------------ watching


@dataclass(frozen=True)
class NoSeatAnswers:
    """``ttr watch``: no seat answered for ``timeout_s``; last tried ``dialled``."""

    timeout_s: float
    dialled: str


@dataclass(frozen=True)
class WatchRefused:
    """``dialled`` refused our watch with ``code`` (``reason``, its own words)."""

    dialled: str
    code: str
    reason: str


@dataclass(frozen=True)
class NotASeat:
    """The address we were given (``address``) is no seat of the game we watch."""

    address: str


@dataclass(frozen=True)
class PlayingAnother:
    """``dialled`` plays another game now; ours (``game_id``) stopped there."""

    dialled: str
    game_id: bytes


@dataclass(frozen=True)
class WatchedEntryUnfolding:
    """Entry ``index``, sequenced by ``relay``, does not fold (``reason``): we stop watching."""

    index: int
    relay: int
    reason: str


PeerEnd = (HostRefusedUs | OtherGameOpened | OtherProtocol | CannotPlayThere | DifferentHost | StartedWithoutUs
           | LobbyClosedByHost | HostSwitched | HostNotSeated | TooFewJoined | NothingAnswered | NoHostAt
           | RefusedRelayEntry | Equivocated | HidEntries | NoReceipt | OwnHandOverRefused | KeepsRefusing
           | LogLacksEntries | SignedEntryUnfolding | FollowedSilent | GaveUpStalled | GaveUpHeldBack | GaveUpNotBack
           | ForfeitedGoesOn | ForfeitedEnded
           | NoSeatAnswers | WatchRefused | NotASeat | PlayingAnother | WatchedEntryUnfolding)
