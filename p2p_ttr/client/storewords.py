"""Why the data directory or a game's files cannot be used, in the player's
words: one ``match`` over storefacts.py's facts, each saying what to do
about it where there is something to do. The system's words and what a file
held pass the one sanitiser first."""

from __future__ import annotations

from typing import assert_never

from .peerwords import words_shown
from .storefacts import (AmbiguousGame, CannotWrite, CopyAJoinersLog, CorruptEntry, DataDirInUse, DataDirUnusable,
                         FetchTheLogAgain, HostLogMissing, JoinedHere, KeyCorrupt, KeyMissing, KeyUnusable,
                         LogDoesNotFold, LogHoldsNoEntry, NeverStarted, NoSeatHere, NoSuchGame, NotAGameFolder,
                         NotAGameLog, NotTheHost, OtherGamesLog, ReceiptsTooLarge, ReceiptsUnreadable, Remedied, Remedy,
                         SecretsCorrupt, SecretsDamaged, SecretsFault, SecretsMissing, StoreTrouble)

LOST_FOR_GOOD = ("a seat's secrets exist nowhere else, so this seat cannot go on: in a game with no escrow "
                 "(the default) the game cannot be finished, and the others can `end` it (`ttr verify` audits "
                 "what was played); in an escrow game (`ttr host --escrow`) the others carry this seat on "
                 "once it stays silent")

SECRETS_FAULTS = {
    SecretsFault.NOT_THIS_SEATS_KEY: "it is not this game's and seat's key",
    SecretsFault.KEY_NOT_ANNOUNCED: "its secret exponent is not the key this seat announced in the log",
    SecretsFault.SEED_NOT_COMMITTED: "its seed is not the one this seat committed to in the log",
    SecretsFault.OTHER_SEAT: "it is another seat's",
}


def store_words(trouble: StoreTrouble) -> str:
    """``trouble`` in words; nothing in it unsafe."""
    return _words(words_shown(trouble))


def _words(trouble: StoreTrouble) -> str:  # noqa: C901 - one case per fact, read down
    match trouble:
        case CannotWrite(path, cause, full):
            return (f"cannot write {path}: the disk is full ({cause}); nothing half-written is kept: free some space, "
                    "then run the same command again to resume") if full else f"cannot write {path}: {cause}"
        case DataDirUnusable(path, cause):
            return f"cannot use data directory {path}: {cause}"
        case DataDirInUse(path, holder):
            return (f"{path} is in use by another ttr (pid {holder or 'another process'}): one player per data "
                    "directory (give this one its own --data-dir)")
        case KeyMissing(path, games):
            return (f"{path} is missing, but {games} holds unfinished games played with it: put the file back (a new "
                    "key cannot take their seats), or move the games folder away to start afresh")
        case KeyCorrupt(path, size, expected):
            return f"{path} is corrupt ({size} bytes, not {expected}); move it away to start afresh"
        case KeyUnusable(path, cause):
            return f"cannot use identity key {path}: {cause}"
        case NoSuchGame(prefix, games):
            return f"no game {prefix!r} in {games}"
        case AmbiguousGame(prefix, count):
            return f"{prefix!r} matches {count} games: give more of the id"
        case NotAGameFolder(folder):
            return f"{folder} is not a game folder"
        case NotAGameLog(path):
            return f"{path} is not a game log"
        case OtherGamesLog(path, game_id):
            return f"{path} is not the log of game {game_id.hex()}"
        case CorruptEntry(path, entry):
            return f"{path}: entry {entry} is corrupt"
        case ReceiptsUnreadable(path, cause):
            return f"{path} cannot be read: {cause}"
        case ReceiptsTooLarge(path, size, limit, per_receipt, max_entries):
            return (f"{path} is {size} bytes; a receipts file is at most {limit} (one receipt of {per_receipt} "
                    f"bytes per entry of a log of at most {max_entries}): it is no peer's; move it away")
        case SecretsCorrupt(path):
            return f"{path} is corrupt: this seat's secrets are lost"
        case SecretsDamaged(path, fault):
            return f"{path} is damaged: {SECRETS_FAULTS[fault]}; {LOST_FOR_GOOD}"
        case SecretsMissing():
            return "our key is in the log but our secrets are not on disk: this seat cannot go on"
        case NoSeatHere():
            return "this identity has no seat in the game"
        case LogDoesNotFold(path, entry, detail):
            return f"{path}: entry {entry} does not fold ({detail}); the log is corrupt"
        case JoinedHere(game):
            return f"game {game} was joined, not hosted, from this data directory: `ttr join` resumes it"
        case HostLogMissing(path, game):
            return f"{path} is missing: this host cannot resume game {game[:8]} without its log"
        case NeverStarted(game):
            return (f"game {game[:8]} never started: its first entry was never written (a full disk, or a crash), so "
                    "nothing of it reached anyone; `ttr host --new` starts a new game")
        case LogHoldsNoEntry(path, game):
            return f"{path} holds no entry of game {game[:8]}"
        case NotTheHost(data, game, host):
            return f"the identity in {data} is not the host of game {game[:8]} (that is {host}'s)"
        case Remedied(inner, remedy):
            return f"{_words(inner)}; {remedy_words(remedy)}"
        case _:
            assert_never(trouble)


def remedy_words(remedy: Remedy) -> str:
    """What the player can do about a log that cannot be used."""
    match remedy:
        case CopyAJoinersLog(game, log):
            return (f"a joiner's copy of the log is as good: copy its games/{game}/game.log to {log} (keep the "
                    "secrets file there) and run the same command again")
        case FetchTheLogAgain():
            return ("delete that file (only it: the secrets beside it exist nowhere else) and run the same command "
                    "again: the host sends the whole log again")
        case _:
            assert_never(remedy)
