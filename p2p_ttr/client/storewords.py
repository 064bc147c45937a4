"""Why the data directory or a game's files cannot be used, in the player's
words: one ``match`` over storefacts.py's facts, each saying what to do
about it where there is something to do. The system's words and what a file
held pass the one sanitiser first."""

from __future__ import annotations

from typing import assert_never

from .peerwords import words_shown
from .storefacts import (AmbiguousGame, CannotWrite, CorruptEntry, DataDirInUse, DataDirUnusable, KeyCorrupt,
                         KeyMissing, KeyUnusable, NoSuchGame, NotAGameFolder, NotAGameLog, OtherGamesLog,
                         ReceiptsTooLarge, ReceiptsUnreadable, SecretsCorrupt, StoreTrouble)


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
        case _:
            assert_never(trouble)
