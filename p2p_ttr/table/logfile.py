"""The game log on disk: what `ttr selfplay --crypto --log` writes and
`ttr verify` reads.

    file   = header entry*
    header = msgpack ["p2p_ttr-log", FORMAT, game_id]
    entry  = msgpack bin: one envelope, exactly as sequenced (see envelope.py)

Entries are in log order; the hash chain is recomputed by whoever reads them,
so the file needs no hashes of its own. Appending an entry is one write of
its bytes, which keeps a log written while a game is played easy to make
durable (flush + fsync per entry, done by the network layer).
"""

from __future__ import annotations

import os
from pathlib import Path

import msgpack

from .envelope import GAME_ID_BYTES, MAX_ENVELOPE_BYTES, pack
from .errors import Malformed

MAGIC = "p2p_ttr-log"
FORMAT = 1
MAX_ENTRIES = 200_000
MAX_LOG_BYTES = 1 << 30


class LogFileError(Malformed):
    """The file is not a readable game log."""


def header(game_id: bytes) -> bytes:
    return pack([MAGIC, FORMAT, game_id])


def entry(raw: bytes) -> bytes:
    return pack(raw)


def write_log(path: Path, game_id: bytes, entries: list[bytes]) -> None:
    """Write a whole log atomically (a temporary file renamed into place)."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(header(game_id))
        for raw in entries:
            f.write(entry(raw))
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def read_log(path: Path) -> tuple[bytes, list[bytes]]:
    """The game id and the entries of the log at ``path``; LogFileError if it
    cannot be read as one."""
    try:
        size = path.stat().st_size
        if size > MAX_LOG_BYTES:
            raise LogFileError(f"{path} is {size} bytes; a game log is at most {MAX_LOG_BYTES}")
        data = path.read_bytes()
    except OSError as exc:
        raise LogFileError(f"cannot read {path}: {exc.strerror}") from None
    return parse_log(data)


def parse_log(data: bytes) -> tuple[bytes, list[bytes]]:
    unpacker = msgpack.Unpacker(
        raw=False,
        max_buffer_size=max(len(data), 1),
        max_str_len=64,
        max_bin_len=MAX_ENVELOPE_BYTES,
        max_array_len=3,
        max_map_len=0,
        max_ext_len=0,
    )
    unpacker.feed(data)
    try:
        first = next(unpacker)
    except StopIteration:
        raise LogFileError("the file is empty") from None
    except Exception as exc:
        raise LogFileError(f"the file does not start with a log header ({type(exc).__name__})") from None
    if not (isinstance(first, list) and len(first) == 3 and first[0] == MAGIC):
        raise LogFileError("the file does not start with a p2p_ttr log header")
    if first[1] != FORMAT:
        raise LogFileError(f"log format {first[1]!r} is not supported (this version reads {FORMAT})")
    game_id = first[2]
    if not isinstance(game_id, bytes) or len(game_id) != GAME_ID_BYTES:
        raise LogFileError("the log header's game id is malformed")
    entries: list[bytes] = []
    try:
        for item in unpacker:
            if not isinstance(item, bytes):
                raise LogFileError(f"entry {len(entries)} is not an envelope")
            entries.append(item)
            if len(entries) > MAX_ENTRIES:
                raise LogFileError(f"more than {MAX_ENTRIES} entries")
    except LogFileError:
        raise
    except Exception as exc:
        raise LogFileError(f"entry {len(entries)} is corrupt ({type(exc).__name__})") from None
    # The unpacker stops quietly at an incomplete object: the bytes must all be used.
    if unpacker.tell() != len(data):
        raise LogFileError(f"entry {len(entries)} is truncated")
    return game_id, entries
