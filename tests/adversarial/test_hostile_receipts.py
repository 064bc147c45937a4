"""A hostile `receipts` file beside a log (issue 42, item 4): `ttr verify`
reads a peer's receipts beside the log it audits, and a file made big on
purpose cost 15 times its size in memory. Now its size is judged before a
byte of it is read: too big for any peer's, it is refused, by name."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from p2p_ttr.cli.main import main
from p2p_ttr.net.store import RECEIPTS_MAX_BYTES, GameStore
from p2p_ttr.table.logfile import write_log

GAME = bytes(range(16))


def a_log_with_receipts(folder: Path, receipts_size: int) -> Path:
    log = folder / "game.log"
    write_log(log, GAME, [])
    with open(folder / "receipts", "wb") as f:
        f.truncate(receipts_size)  # sparse: the disk holds none of it, a reader all of it
    return log


def test_too_big_a_receipts_file_is_refused_by_name_before_it_is_read(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "warm").mkdir()
    main(["verify", str(a_log_with_receipts(tmp_path / "warm", 0))])  # imports every module it uses
    capsys.readouterr()
    log = a_log_with_receipts(tmp_path, RECEIPTS_MAX_BYTES + 1)
    tracemalloc.start()
    try:
        code = main(["verify", str(log)])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    out = capsys.readouterr().out
    assert code == 2
    assert str(tmp_path / "receipts") in out and f"{RECEIPTS_MAX_BYTES + 1} bytes" in out
    assert "at most" in out and "move it away" in out
    assert peak < 1 << 20, "the file was read"


def test_a_receipts_file_at_the_limit_is_read_a_little_at_a_time(tmp_path: Path) -> None:
    # Zeros are no receipt: the reader stops at the first, having read a buffer's worth, not the file.
    a_log_with_receipts(tmp_path, RECEIPTS_MAX_BYTES)
    tracemalloc.start()
    try:
        found = GameStore(tmp_path, GAME).receipts()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert found == {}
    assert peak < 1 << 20


def test_receipts_within_the_limit_are_read_as_before(tmp_path: Path) -> None:
    store = GameStore(tmp_path, GAME)
    store.open()
    store.add_receipt(0, bytes(32), bytes(64))
    store.add_receipt(1, b"\1" * 32, b"\2" * 64)
    store.close()
    assert GameStore(tmp_path, GAME).receipts() == {0: (bytes(32), bytes(64)), 1: (b"\1" * 32, b"\2" * 64)}
