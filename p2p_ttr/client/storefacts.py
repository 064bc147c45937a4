"""Why a player's data directory, or a game's files in it, cannot be used, as
typed facts (issue 44): net/store.py finds the trouble and raises a
``StoreError`` carrying one of these; storewords.py words it where it
reaches the player (``ttr host: ...``, a peer's last words). A path is the
player's own; a string is the operating system's words (``strerror``) or
what a file held, shown safely where it is worded.

Declared in client/, below net/ in the layer line, for the same reason as
netnotices.py: the words may not import net/, and net/ may import this.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path


@dataclass(frozen=True)
class CannotWrite:
    """A write to ``path`` failed (``cause``, the system's words); ``full``: the disk is full."""

    path: Path
    cause: str
    full: bool = False


@dataclass(frozen=True)
class DataDirUnusable:
    """The data directory ``path`` cannot be made or opened (``cause``)."""

    path: Path
    cause: str


@dataclass(frozen=True)
class DataDirInUse:
    """Another ttr plays from ``path``: ``holder``, the pid its lock file holds ('' for none)."""

    path: Path
    holder: str


@dataclass(frozen=True)
class KeyMissing:
    """The identity key ``path`` is gone while ``games`` holds unfinished games played with it."""

    path: Path
    games: Path


@dataclass(frozen=True)
class KeyCorrupt:
    """The identity key ``path`` is ``size`` bytes, not ``expected``."""

    path: Path
    size: int
    expected: int


@dataclass(frozen=True)
class KeyUnusable:
    """The identity key ``path`` cannot be read or written (``cause``)."""

    path: Path
    cause: str


@dataclass(frozen=True)
class NoSuchGame:
    """No game in ``games`` has an id starting with ``prefix``."""

    prefix: str
    games: Path


@dataclass(frozen=True)
class AmbiguousGame:
    """``prefix`` starts the ids of ``count`` games."""

    prefix: str
    count: int


@dataclass(frozen=True)
class NotAGameFolder:
    """``folder``, in the games folder, is named by no game id."""

    folder: Path


@dataclass(frozen=True)
class NotAGameLog:
    """``path`` does not start as a game log does."""

    path: Path


@dataclass(frozen=True)
class OtherGamesLog:
    """``path`` is a game log, but of another game than ``game_id``."""

    path: Path
    game_id: bytes


@dataclass(frozen=True)
class CorruptEntry:
    """Entry ``entry`` of the log ``path`` is corrupt."""

    path: Path
    entry: int


@dataclass(frozen=True)
class ReceiptsUnreadable:
    """The receipts file ``path`` cannot be read (``cause``)."""

    path: Path
    cause: str


@dataclass(frozen=True)
class ReceiptsTooLarge:
    """The receipts file ``path`` is ``size`` bytes, more than any peer's can be:
    ``limit``, one receipt of ``per_receipt`` bytes for each of ``max_entries`` entries."""

    path: Path
    size: int
    limit: int
    per_receipt: int
    max_entries: int


@dataclass(frozen=True)
class SecretsCorrupt:
    """This seat's secrets file ``path`` is corrupt."""

    path: Path


class SecretsFault(Enum):
    """How a seat's secrets file, read sound, disagrees with the game (net/player.py checks it against the log)."""

    NOT_THIS_SEATS_KEY = "not this seat's key"  # its key names another game or seat
    KEY_NOT_ANNOUNCED = "key not announced"  # its secret exponent is not the key the log announced
    SEED_NOT_COMMITTED = "seed not committed"  # its seed is not the one the log committed to
    OTHER_SEAT = "other seat"  # it is another seat's


@dataclass(frozen=True)
class SecretsDamaged:
    """This seat's secrets file ``path`` disagrees with the game: ``fault``; the seat cannot go on."""

    path: Path
    fault: SecretsFault


@dataclass(frozen=True)
class SecretsMissing:
    """Our key is in the log, but our secrets are not on disk: the seat cannot go on."""


@dataclass(frozen=True)
class NoSeatHere:
    """This identity has no seat in the game it resumes."""


@dataclass(frozen=True)
class LogDoesNotFold:
    """Entry ``entry`` of the log ``path`` reads, but the table refuses it (``detail``, the table's words)."""

    path: Path
    entry: int
    detail: str


@dataclass(frozen=True)
class JoinedHere:
    """``ttr host --resume`` named game ``game`` (hex), which this data directory joined."""

    game: str


@dataclass(frozen=True)
class HostLogMissing:
    """The host's log ``path`` of game ``game`` (hex) is gone."""

    path: Path
    game: str


@dataclass(frozen=True)
class NeverStarted:
    """Game ``game`` (hex) was hosted from here, but its first entry was never written."""

    game: str


@dataclass(frozen=True)
class LogHoldsNoEntry:
    """The host's log ``path`` of game ``game`` (hex) holds no entry."""

    path: Path
    game: str


@dataclass(frozen=True)
class NotTheHost:
    """The identity in the data directory ``data`` is not game ``game``'s host, ``host`` (its name in the log)."""

    data: Path
    game: str
    host: str


@dataclass(frozen=True)
class CopyAJoinersLog:
    """What a host whose log of game ``game`` (hex) is unusable can do: put a joiner's copy at ``log``."""

    game: str
    log: Path


@dataclass(frozen=True)
class FetchTheLogAgain:
    """What a joiner whose log is unusable can do: delete it, and the host sends it again."""


Remedy = CopyAJoinersLog | FetchTheLogAgain


@dataclass(frozen=True)
class Remedied:
    """``trouble``, and what the player can do about it here: ``remedy``."""

    trouble: StoreTrouble
    remedy: Remedy


StoreTrouble = (CannotWrite | DataDirUnusable | DataDirInUse | KeyMissing | KeyCorrupt | KeyUnusable | NoSuchGame
                | AmbiguousGame | NotAGameFolder | NotAGameLog | OtherGamesLog | CorruptEntry | ReceiptsUnreadable
                | ReceiptsTooLarge | SecretsCorrupt | SecretsDamaged | SecretsMissing | NoSeatHere | LogDoesNotFold
                | JoinedHere | HostLogMissing | NeverStarted | LogHoldsNoEntry | NotTheHost | Remedied)
