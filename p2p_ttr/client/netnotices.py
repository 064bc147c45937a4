"""What a networked peer tells its player, as typed facts (issue 44).

The peer (net/) decides what happened: the relay moved, a watcher joined, a
frame was dropped. It reports each as one of these values through one
callback (``Report``) and never writes the sentence: the words are
networds.py's, one ``match`` over ``Notice``. A seat goes up as its number
and the words look its name up; a string in a notice is a peer's own words
(a name, a reason, an error's text) and is made safe to show there.

They are declared here, below net/ in the layer line, because the words
that read them (client) may not import net/, and net/ may import this.
Two families have modules of their own: who holds the game up
(livenessfacts.py) and what a peer drops (doorfacts.py); ``Notice`` is the
union of them all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from p2p_ttr.table.escrowbook import Blocked

from .doorfacts import Dropped, FirstAtDoor, MoreAtDoor
from .livenessfacts import OtherGaveUp, StalledAsk, WaitingFor, WaitingForFollowed

# ----------------------------------------------------------- the relay moves


class RelayLoss(Enum):
    """Why this peer counts the relay as gone."""

    LEFT = "left"  # its seat left the game
    HOLDS_BACK = "holds back"  # it answers, but does not sequence a seat's message
    SILENT = "silent"  # nothing from it for the relay timeout
    OUT_OF_REACH = "out of reach"  # another seat turned away from it and showed us its signed request


@dataclass(frozen=True)
class RelayLost:
    """The relay (``relay``) is gone for us, ``why``; ``successor`` relays next
    (None: no seat is left to relay). ``silent_s``: the relay timeout (SILENT);
    ``shown_by``: the seat that showed us its request (OUT_OF_REACH)."""

    relay: int
    why: RelayLoss
    successor: int | None
    we_relay_next: bool = False
    silent_s: float = 0.0
    shown_by: int = -1


@dataclass(frozen=True)
class Unreachable:
    """``seat`` never put where it accepts connections in the log: we cannot turn to it."""

    seat: int


@dataclass(frozen=True)
class EveryOtherLostRelay:
    """Every other seat in play turned to us from ``relay``: we relay next."""

    relay: int


@dataclass(frozen=True)
class RelayAnswersAgain:
    """The relay we turned away from answers again before anyone took over."""

    relay: int


@dataclass(frozen=True)
class RelayMoved:
    """The log moved the relay from ``old`` to ``new`` (``ours``: to our seat)."""

    old: int
    new: int
    ours: bool = False


@dataclass(frozen=True)
class HandOverWhileAway:
    """A hand-over to ``relay`` at entry ``index`` cut our ``dropped`` later entries (we relayed them, unheard)."""

    relay: int
    index: int
    dropped: int


@dataclass(frozen=True)
class RelayElsewhere:
    """The game we resume is relayed by ``relay`` now: we connect there."""

    relay: int


@dataclass(frozen=True)
class RelayingAgain:
    """We relayed this game when we stopped: we relay again once every seat in play says what it holds."""


@dataclass(frozen=True)
class FollowsUs:
    """``seat`` lost the relay (``relay``) and turned to us, its successor."""

    seat: int
    relay: int


@dataclass(frozen=True)
class SeatBack:
    """``seat`` reached our ROUTER again (``relaying``: we relay; else we stand by as successor)."""

    seat: int
    relaying: bool


# ------------------------------------------------------------------ the lobby


@dataclass(frozen=True)
class WaitsForPlace:
    """``name`` came to a full lobby (``lobby``) and waits for a place."""

    name: str
    lobby: tuple[str, ...]


@dataclass(frozen=True)
class JoinedLobby:
    """``name`` joined the lobby, now ``count`` strong (``wanted``: the game starts at; 0: when the host says)."""

    name: str
    count: int
    wanted: int


@dataclass(frozen=True)
class LeftLobby:
    """``name`` left the lobby (``silent_s``: it went silent that long; 0: it said so);
    ``taken``: who took its place from the waiting."""

    name: str
    lobby: tuple[str, ...]
    silent_s: float = 0.0
    taken: str | None = None


@dataclass(frozen=True)
class RollCall:
    """The lobby is full: the game starts once every member answers (one silent ``silent_s`` is dropped)."""

    silent_s: float


@dataclass(frozen=True)
class LobbyNow:
    """Who is in the lobby we joined (``placed``: we are among them; else we wait for a place)."""

    names: tuple[str, ...]
    placed: bool
    wanted: int = 0


@dataclass(frozen=True)
class NameTaken:
    """Our login name ``name`` is taken at this table: we join as ``new``."""

    name: str
    new: str


class LobbyWord(Enum):
    """What the host's lobby says of itself, needing no value."""

    ESCROW_ON = "escrow on"  # the host started with --escrow
    ESCROW_IN_LOBBY = "escrow in lobby"  # a joiner hears the game it joins escrows every key
    ESCROW_NEEDS_THREE = "escrow needs three"
    NEEDS_TWO = "needs two"
    CLOSED = "closed"  # the host closed the lobby: no game started


@dataclass(frozen=True)
class LobbySaid:
    """One of the lobby's fixed words."""

    word: LobbyWord


@dataclass(frozen=True)
class StartFailed:
    """Someone asked to start with a member that is gone: the game did not start; ``names`` are in."""

    names: tuple[str, ...]


@dataclass(frozen=True)
class MoreToJoin:
    """The host waits for ``count`` more to join."""

    count: int


# ---------------------------------------------------------- the game, its log


@dataclass(frozen=True)
class GameStarted:
    """The host wrote the seating of game ``game_id`` (every seat's name and colour follow)."""

    game_id: bytes


@dataclass(frozen=True)
class GameStarts:
    """The seating reached us: ``seat`` is ours (None: we watch)."""

    seat: int | None


@dataclass(frozen=True)
class GameResumed:
    """The host resumed game ``game`` (its id in hex) at ``turn`` (None: before the first)."""

    game: str
    turn: int | None


@dataclass(frozen=True)
class GameReloaded:
    """A joiner reloaded game ``game_id`` from its own log, at ``turn`` (None: before the first)."""

    game_id: bytes
    turn: int | None


@dataclass(frozen=True)
class MetaRebuilt:
    """``path`` (meta.json) was lost: rebuilt from the log."""

    path: Path


@dataclass(frozen=True)
class StoppedUnanswered:
    """We stop for now before the host answered: ``ongoing`` (a game we hold, kept) or a lobby we leave."""

    ongoing: bool


@dataclass(frozen=True)
class Refetched:
    """Our log had lost entries ``first``-``last``: fetched from ``seat``, under their relay's signature."""

    seat: int
    first: int
    last: int


@dataclass(frozen=True)
class SentNone:
    """``seat`` said it holds ``said`` entries, but sent none when asked: it does not follow us after all."""

    seat: int
    said: int | None


# ------------------------------------------------------------ our own messages


@dataclass(frozen=True)
class OwnMessageRefused:
    """Our own table refused a message of ours we sequence (``code``, ``reason``)."""

    code: str
    reason: str


@dataclass(frozen=True)
class TableRefused:
    """The relay's table refused our message (``code``, ``reason``)."""

    code: str
    reason: str


@dataclass(frozen=True)
class CarryOnTooLate:
    """Our request to carry a seat on was refused (``reason``): the seat came back first."""

    reason: str


@dataclass(frozen=True)
class CarriedOnUs:
    """Our seat was carried on by the others at entry ``entry`` (escrow): we watch the rest."""

    entry: int


@dataclass(frozen=True)
class AskingCarryOn:
    """``seat`` has been silent ``silent_s``: we ask the others to carry it on (escrow)."""

    seat: int
    silent_s: float


@dataclass(frozen=True)
class CannotGoOn:
    """The silent seats cannot be carried on (the table's ``Blocked``): the game waits for them."""

    blocked: Blocked


class ForfeitWord(Enum):
    """What our forfeit does, when it needs no seat named."""

    TOO_LATE = "too late"  # the game ended before it went out
    GAME_OVER = "game over"  # asked after the end
    GOES_ON = "goes on"  # the others play on


@dataclass(frozen=True)
class ForfeitSaid:
    """Our forfeit: ``word``; ``relaying``: the next seat relays (GOES_ON)."""

    word: ForfeitWord
    relaying: bool = False


@dataclass(frozen=True)
class ForfeitConcedes:
    """Our forfeit leaves ``alone`` the only seat in play (None: none), so the game ends."""

    alone: int | None


# ------------------------------------------------- messages the relay holds back


@dataclass(frozen=True)
class WitnessRefused:
    """The relay refused the message ``author`` showed us directly (``code``): its word was wrong."""

    author: int
    code: str


@dataclass(frozen=True)
class RelayHoldsBack:
    """``relay`` has not sequenced ``author``'s message, shown to us ``seconds`` ago
    (``escrow``: the relay counts as gone, we turn to the next seat)."""

    relay: int
    author: int
    seconds: float
    escrow: bool


@dataclass(frozen=True)
class OursHeldBack:
    """``relay`` has not sequenced our message for ``seconds``: we show it to the others."""

    relay: int
    seconds: float


# ------------------------------------------------------------------ watchers


@dataclass(frozen=True)
class WatcherJoined:
    """A watcher joined: ``count`` watch now."""

    count: int


class WatcherGone(Enum):
    """Why a watcher is no longer sent the game."""

    FLOODED = "flooded"  # sent more than its frames a second
    IDLE = "idle"  # read nothing, and gave its slot to a new watcher
    SILENT = "silent"  # unheard for the watchers' silence


@dataclass(frozen=True)
class WatcherLeft:
    """A watcher is dropped, ``why``, past ``limit`` (frames a second, or seconds); ``count`` watch now."""

    why: WatcherGone
    limit: float
    count: int


@dataclass(frozen=True)
class WatchingFrom:
    """``ttr watch`` reaches ``seat``, the relay (``next``: the one that relays next)."""

    seat: int
    next: bool


@dataclass(frozen=True)
class WatchedSilent:
    """The address ``dialled`` is silent: ``ttr watch`` tries ``seat``."""

    dialled: str
    seat: int


@dataclass(frozen=True)
class WrongKey:
    """The address ``dialled`` answers with a key that is not ``seat``'s: ``ttr watch`` tries another."""

    dialled: str
    seat: int


@dataclass(frozen=True)
class WatchedHandOver:
    """A hand-over to ``relay`` at entry ``index`` replaces the ``dropped`` later entries ``ttr watch`` had."""

    relay: int
    index: int
    dropped: int


Notice = (RelayLost | Unreachable | EveryOtherLostRelay | RelayAnswersAgain | RelayMoved | HandOverWhileAway
          | RelayElsewhere | RelayingAgain | FollowsUs | SeatBack
          | WaitsForPlace | JoinedLobby | LeftLobby | RollCall | LobbyNow | NameTaken | LobbySaid | StartFailed
          | MoreToJoin
          | GameStarted | GameStarts | GameResumed | GameReloaded | MetaRebuilt | StoppedUnanswered | Refetched
          | SentNone
          | OwnMessageRefused | TableRefused | CarryOnTooLate | CarriedOnUs | AskingCarryOn | CannotGoOn | ForfeitSaid
          | ForfeitConcedes
          | WitnessRefused | RelayHoldsBack | OursHeldBack
          | WatcherJoined | WatcherLeft | WatchingFrom | WatchedSilent | WrongKey | WatchedHandOver
          | Dropped | FirstAtDoor | MoreAtDoor
          | OtherGaveUp | StalledAsk | WaitingFor | WaitingForFollowed)

Report = Callable[[Notice], None]  # how a part of the peer tells its player a fact
