"""Why a data directory or a game's files cannot be used (client/storefacts.py),
in the words client/storewords.py gives them: one sample of every fact, worded
as net/store.py wrote it before it handed up facts; a ``StoreError`` reads
as its fact's words; nothing a file held reaches a screen raw."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest

from p2p_ttr.client.storefacts import (AmbiguousGame, CannotWrite, CopyAJoinersLog, CorruptEntry, DataDirInUse,
                                      DataDirUnusable, FetchTheLogAgain, HostLogMissing, JoinedHere, KeyCorrupt,
                                      KeyMissing, KeyUnusable, LogDoesNotFold, LogHoldsNoEntry, NeverStarted,
                                      NoSuchGame, NotAGameFolder, NotAGameLog, NoSeatHere, NotTheHost, OtherGamesLog,
                                      ReceiptsTooLarge, ReceiptsUnreadable, Remedied, SecretsCorrupt, SecretsDamaged,
                                      SecretsFault, SecretsMissing, StoreTrouble)
from p2p_ttr.client.storewords import LOST_FOR_GOOD, SECRETS_FAULTS, store_words
from p2p_ttr.net.store import StoreError, WriteFailed

D = Path("/d")
GAME = "3fa2c1d0" + "0" * 56  # a game id in hex
SAMPLES: list[tuple[StoreTrouble, str]] = [
    (CannotWrite(D / "game.log", "No space left on device", full=True),
     "cannot write /d/game.log: the disk is full (No space left on device); nothing half-written is kept: free some "
     "space, then run the same command again to resume"),
    (CannotWrite(D / "meta.json", "Permission denied"), "cannot write /d/meta.json: Permission denied"),
    (DataDirUnusable(D, "Permission denied"), "cannot use data directory /d: Permission denied"),
    (DataDirInUse(D, "4242"),
     "/d is in use by another ttr (pid 4242): one player per data directory (give this one its own --data-dir)"),
    (DataDirInUse(D, ""), "/d is in use by another ttr (pid another process): one player per data directory (give "
                          "this one its own --data-dir)"),
    (KeyMissing(D / "identity.key", D / "games"),
     "/d/identity.key is missing, but /d/games holds unfinished games played with it: put the file back (a new key "
     "cannot take their seats), or move the games folder away to start afresh"),
    (KeyCorrupt(D / "identity.key", 7, 32), "/d/identity.key is corrupt (7 bytes, not 32); move it away to start afresh"),
    (KeyUnusable(D / "identity.key", "Is a directory"), "cannot use identity key /d/identity.key: Is a directory"),
    (NoSuchGame("3fa2", D / "games"), "no game '3fa2' in /d/games"),
    (AmbiguousGame("3", 2), "'3' matches 2 games: give more of the id"),
    (NotAGameFolder(D / "games" / "3zz"), "/d/games/3zz is not a game folder"),
    (NotAGameLog(D / "game.log"), "/d/game.log is not a game log"),
    (OtherGamesLog(D / "game.log", bytes.fromhex("3fa2")), "/d/game.log is not the log of game 3fa2"),
    (CorruptEntry(D / "game.log", 12), "/d/game.log: entry 12 is corrupt"),
    (ReceiptsUnreadable(D / "receipts", "Permission denied"), "/d/receipts cannot be read: Permission denied"),
    (ReceiptsTooLarge(D / "receipts", 900, 800, 100, 8),
     "/d/receipts is 900 bytes; a receipts file is at most 800 (one receipt of 100 bytes per entry of a log of at "
     "most 8): it is no peer's; move it away"),
    (SecretsCorrupt(D / "secrets"), "/d/secrets is corrupt: this seat's secrets are lost"),
    (SecretsDamaged(D / "secrets", SecretsFault.SEED_NOT_COMMITTED),
     f"/d/secrets is damaged: its seed is not the one this seat committed to in the log; {LOST_FOR_GOOD}"),
    (SecretsMissing(), "our key is in the log but our secrets are not on disk: this seat cannot go on"),
    (NoSeatHere(), "this identity has no seat in the game"),
    (LogDoesNotFold(D / "game.log", 4, "bad signature"),
     "/d/game.log: entry 4 does not fold (bad signature); the log is corrupt"),
    (JoinedHere(GAME), f"game {GAME} was joined, not hosted, from this data directory: `ttr join` resumes it"),
    (HostLogMissing(D / "game.log", GAME), "/d/game.log is missing: this host cannot resume game 3fa2c1d0 without its log"),
    (NeverStarted(GAME), "game 3fa2c1d0 never started: its first entry was never written (a full disk, or a crash), "
                         "so nothing of it reached anyone; `ttr host --new` starts a new game"),
    (LogHoldsNoEntry(D / "game.log", GAME), "/d/game.log holds no entry of game 3fa2c1d0"),
    (NotTheHost(D, GAME, "Ann"), "the identity in /d is not the host of game 3fa2c1d0 (that is Ann's)"),
    (Remedied(HostLogMissing(D / "game.log", GAME), CopyAJoinersLog(GAME, D / "game.log")),
     f"/d/game.log is missing: this host cannot resume game 3fa2c1d0 without its log; a joiner's copy of the log is "
     f"as good: copy its games/{GAME}/game.log to /d/game.log (keep the secrets file there) and run the same command "
     "again"),
    (Remedied(CorruptEntry(D / "game.log", 12), FetchTheLogAgain()),
     "/d/game.log: entry 12 is corrupt; delete that file (only it: the secrets beside it exist nowhere else) and run "
     "the same command again: the host sends the whole log again"),
]


@pytest.mark.parametrize(("trouble", "words"), SAMPLES)
def test_each_trouble_reads_as_the_store_said_it(trouble: StoreTrouble, words: str) -> None:
    assert store_words(trouble) == words
    assert str(StoreError(trouble)) == words == str(WriteFailed(trouble))


def test_every_trouble_has_a_sample() -> None:
    assert {type(t) for t, _ in SAMPLES} == set(get_args(StoreTrouble))
    assert set(SECRETS_FAULTS) == set(SecretsFault)


def test_the_cli_s_own_words_are_kept() -> None:
    assert str(StoreError("no game chosen")) == "no game chosen"


def test_what_the_log_names_is_shown_safely_even_inside_a_remedy() -> None:
    host = NotTheHost(D, GAME, "\x1b[2JAnn")  # a seat's name is the peer's own choosing
    folded = Remedied(LogDoesNotFold(D / "game.log", 1, "seat 2 said \x1b]0;x\x07"), FetchTheLogAgain())
    for words in (store_words(host), store_words(folded)):
        assert "\x1b" not in words and "\\x1b" in words


def test_what_a_lock_file_held_is_shown_safely() -> None:
    words = store_words(DataDirInUse(D, "\x1b]0;owned\x07"))
    assert "\x1b" not in words and "(pid \\x1b]0;owned\\x07)" in words
