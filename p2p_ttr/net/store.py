"""What a player keeps on disk: its identity key and, per game, the log, the
host's receipts, its own secrets and a little metadata.

    DATA/identity.key                 32 bytes, mode 0600
    DATA/lock                         held (flock) by the one process playing from DATA
    DATA/games/<game id hex>/game.log     logfile.py format, one entry appended per
                                      sequenced message; fsync'ed before anything depends on it
    DATA/games/<id>/receipts          msgpack [index, sha256(entry), host signature]*
    DATA/games/<id>/secrets           msgpack [seat, secret key wire, seed, seal key wire?], mode 0600
    DATA/games/<id>/meta.json         role, seat, name, port
    DATA/games/<id>/equivocation-<i>.bin  a proof, if the host ever equivocated

A torn last entry (a kill during a write) is cut off when the log is loaded.
A write that fails (a full disk) is undone as far as the disk lets it and
raises ``StoreError``; whatever it left half-written is a torn tail, cut off
at the next load, so resuming once there is space again works.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgpack

from p2p_ttr.client.storefacts import (AmbiguousGame, CannotWrite, CorruptEntry, DataDirInUse, DataDirUnusable,
                                      KeyCorrupt, KeyMissing, KeyUnusable, NoSuchGame, NotAGameFolder, NotAGameLog,
                                      OtherGamesLog, ReceiptsTooLarge, ReceiptsUnreadable, SecretsCorrupt,
                                      StoreTrouble)
from p2p_ttr.client.storewords import store_words
from p2p_ttr.deck import SecretKey, Seed
from p2p_ttr.deck import MalformedWire
from p2p_ttr.table.envelope import GAME_ID_BYTES, MAX_ENVELOPE_BYTES, pack, unpack_bounded
from p2p_ttr.table.errors import Malformed
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.logfile import FORMAT, MAGIC, MAX_ENTRIES, entry, header
from p2p_ttr.table.table import PeerSecrets

KEY_BYTES = 32
# A receipt is [index, sha256, Ed25519 signature]: at most 106 bytes packed, and
# a log holds at most MAX_ENTRIES entries, so a bigger receipts file is no
# peer's (a hostile one, put beside a log to exhaust `ttr verify`'s memory).
RECEIPT_MAX_BYTES = len(msgpack.packb([MAX_ENTRIES, bytes(32), bytes(64)]))
RECEIPTS_MAX_BYTES = MAX_ENTRIES * RECEIPT_MAX_BYTES


class StoreError(Exception):
    """The data directory, or a game's files in it, cannot be used: ``trouble``
    says why, a typed fact the client words (client/storewords.py); a string
    is the words of cli/, the top layer, which says its own (its choice of a
    game to resume)."""

    def __init__(self, trouble: StoreTrouble | str) -> None:
        super().__init__(trouble)
        self.trouble = trouble

    def __str__(self) -> str:
        """Its words, for ``ttr host: ...``, a peer's last words or a test."""
        return self.trouble if isinstance(self.trouble, str) else store_words(self.trouble)


class WriteFailed(StoreError):
    """A write failed (a full disk, most often): what is on disk is sound,
    and the same command resumes once the cause is gone. Not a damaged file:
    nothing needs deleting or copying."""


def disk_trouble(path: Path, exc: OSError) -> CannotWrite:
    """What a failed write of ``path`` tells: a full disk apart, as the player can free space."""
    return CannotWrite(path, str(exc.strerror or exc), exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG))


@contextmanager
def writing(path: Path) -> Iterator[None]:
    """Turn an OSError while writing ``path`` into a StoreError that tells why."""
    try:
        yield
    except OSError as exc:
        raise WriteFailed(disk_trouble(path, exc)) from None


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "p2p_ttr"


def _write_private(path: Path, data: bytes) -> None:
    """Write ``data`` atomically to a 0600 file and make it durable."""
    tmp = path.with_name(path.name + ".tmp")
    with writing(path):
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                _write_all(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, path)
        except OSError:
            tmp.unlink(missing_ok=True)  # never leave a half-written copy behind
            raise
        _fsync_dir(path.parent)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class DataDir:
    """A peer's data directory: its identity key, a lock so one process uses it, and one folder per game."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock: int | None = None
        try:
            (path / "games").mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as exc:
            raise StoreError(DataDirUnusable(path, str(exc.strerror))) from None

    def claim(self) -> None:
        """Hold the directory for this process (released when it exits).

        One identity is one seat: two processes playing from one directory
        would sign different messages with the same sequence numbers and
        append to the same log. A second `ttr` on it is refused instead."""
        if self._lock is not None:
            return
        path = self.path / "lock"
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise WriteFailed(disk_trouble(path, exc)) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(fd, 32).decode(errors="replace").strip()  # its pid; '' if it wrote none (a full disk)
            os.close(fd)
            raise StoreError(DataDirInUse(self.path, holder)) from None
        try:
            os.ftruncate(fd, 0)
            os.write(fd, str(os.getpid()).encode())
        except OSError:
            pass  # a full disk: the lock holds all the same, only without our pid in it
        self._lock = fd

    def unfinished(self, role: str) -> list[GameStore]:
        """The games played from here in ``role`` ("host" or "peer") that
        meta.json says are not complete yet, the most recent first."""
        found = []
        for folder in (self.path / "games").iterdir() if (self.path / "games").is_dir() else ():
            try:
                game_id = bytes.fromhex(folder.name)
            except ValueError:
                continue
            store = GameStore(folder, game_id)
            meta = store.load_meta()
            if (len(game_id) == GAME_ID_BYTES and meta.get("role") == role and meta.get("finished") is False
                    and not meta.get("left")):
                found.append(store)
        return sorted(found, key=lambda g: g.meta_path.stat().st_mtime, reverse=True)

    def identity(self) -> Identity:
        """The long-lived identity key, created on first use."""
        path = self.path / "identity.key"
        try:
            if not path.exists() and (self.unfinished("host") or self.unfinished("peer")):
                # A new key would be a stranger to the games under way here:
                # the host would refuse it, or it would join some other game.
                raise StoreError(KeyMissing(path, self.path / "games"))
            if path.exists():
                raw = path.read_bytes()
                if len(raw) != KEY_BYTES:
                    raise StoreError(KeyCorrupt(path, len(raw), KEY_BYTES))
                return Identity.from_bytes(raw)
            identity = Identity.generate()
            _write_private(path, identity.to_bytes())
            return identity
        except OSError as exc:
            raise StoreError(KeyUnusable(path, str(exc.strerror))) from None

    def game(self, game_id: bytes) -> GameStore:
        return GameStore(self.path / "games" / game_id.hex(), game_id)

    def has_game(self, game_id: bytes) -> bool:
        return (self.path / "games" / game_id.hex() / "game.log").exists()

    def find_game(self, prefix: str) -> GameStore:
        """The game whose id starts with ``prefix`` (hex)."""
        prefix = prefix.lower()
        found = sorted(p for p in (self.path / "games").iterdir() if p.name.startswith(prefix) and p.is_dir())
        if not found:
            raise StoreError(NoSuchGame(prefix, self.path / "games"))
        if len(found) > 1:
            raise StoreError(AmbiguousGame(prefix, len(found)))
        try:
            game_id = bytes.fromhex(found[0].name)
        except ValueError:
            raise StoreError(NotAGameFolder(found[0])) from None
        if len(game_id) != GAME_ID_BYTES:
            raise StoreError(NotAGameFolder(found[0]))
        return GameStore(found[0], game_id)


class GameStore:
    """One game's folder: the log, the host's receipts, this seat's secrets and meta.json; written so that a crash
    or a full disk never leaves a half record taken for valid."""

    def __init__(self, path: Path, game_id: bytes) -> None:
        self.path = path
        self.game_id = game_id
        self.log_path = path / "game.log"
        self.receipts_path = path / "receipts"
        self.secrets_path = path / "secrets"
        self.meta_path = path / "meta.json"
        self._log: int | None = None  # O_APPEND descriptors, written unbuffered
        self._receipts: int | None = None
        self._log_size = 0  # bytes of whole entries (and the header): a failed write is cut back to it
        self._receipts_size = 0
        self._unsynced = False
        self._broken: CannotWrite | None = None  # why a write failed: nothing more is written

    # ------------------------------------------------------------ lifecycle

    def open(self) -> list[bytes]:
        """Create the folder (or reopen it); the entries already stored."""
        with writing(self.path):
            self.path.mkdir(parents=True, exist_ok=True, mode=0o700)
        entries, good = self._read_entries()
        with writing(self.log_path):
            if not self.log_path.exists() or good == 0:
                with open(self.log_path, "wb") as f:
                    f.write(header(self.game_id))
                    f.flush()
                    os.fsync(f.fileno())
                _fsync_dir(self.path)
            elif good < self.log_path.stat().st_size:
                os.truncate(self.log_path, good)  # a torn last entry
            self._log = os.open(self.log_path, os.O_WRONLY | os.O_APPEND)
            self._log_size = os.fstat(self._log).st_size
        receipts, good = self._read_receipts()
        with writing(self.receipts_path):
            if self.receipts_path.exists() and (good < self.receipts_path.stat().st_size or
                                                any(i >= len(entries) for i in receipts)):
                # A torn tail, or receipts for entries the log lost: keep the sound part.
                with open(self.receipts_path, "wb") as f:
                    for i in sorted(receipts):
                        if i < len(entries):
                            f.write(pack([i, *receipts[i]]))
                    f.flush()
                    os.fsync(f.fileno())
            self._receipts = os.open(self.receipts_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            self._receipts_size = os.fstat(self._receipts).st_size
        return entries

    def close(self) -> None:
        """Make everything durable and let go of the files. After a failed
        write there is nothing more to make durable: just let go."""
        try:
            if self._broken is None:
                self.sync()
        finally:
            for fd in (self._log, self._receipts):
                if fd is not None:
                    os.close(fd)
            self._log = self._receipts = None

    def _append(self, fd: int, size: int, data: bytes, path: Path) -> int:
        """Write ``data`` at the end of ``fd`` (whose whole records span
        ``size`` bytes); the new size. A failed write is cut back to ``size``
        (a full disk can always give back what it was given), and the store
        refuses every later write: the process stops and, resumed, goes on
        from the last whole record."""
        if self._broken is not None:
            raise WriteFailed(self._broken)
        try:
            _write_all(fd, data)
        except OSError as exc:
            self._broken = disk_trouble(path, exc)
            try:
                os.ftruncate(fd, size)
            except OSError:
                pass  # the torn tail is cut at the next load instead
            raise WriteFailed(self._broken) from None
        return size + len(data)

    # ---------------------------------------------------------------- log

    def never_started(self) -> bool:
        """The log is there but holds no whole entry: the game's first entry
        was never written (the disk was full, or the host was killed while
        writing it), so nothing of it ever reached anyone. (A missing log
        is not that: it was lost, and a joiner's copy may replace it.)"""
        try:
            size = self.log_path.stat().st_size
            if size > len(header(self.game_id)) + MAX_ENVELOPE_BYTES + 16:
                return False  # room for a whole entry at least: read no further
            return not self._read_entries()[0]
        except (OSError, StoreError):
            return False

    def stored_entries(self) -> list[bytes]:
        """The whole entries on disk, read without opening the store for writing."""
        return self._read_entries()[0]

    def _read_entries(self) -> tuple[list[bytes], int]:
        """The complete entries and the byte length they (and the header) span."""
        if not self.log_path.exists():
            return [], 0
        data = self.log_path.read_bytes()
        unpacker = msgpack.Unpacker(
            raw=False, max_buffer_size=max(len(data), 1), max_str_len=64, max_bin_len=MAX_ENVELOPE_BYTES,
            max_array_len=3, max_map_len=0, max_ext_len=0,
        )
        unpacker.feed(data)
        try:
            first = next(unpacker)
        except StopIteration:
            return [], 0  # an empty or torn header: start the file again
        except Exception:
            raise StoreError(NotAGameLog(self.log_path)) from None
        if not (isinstance(first, list) and len(first) == 3 and first[0] == MAGIC and first[1] == FORMAT
                and first[2] == self.game_id):
            raise StoreError(OtherGamesLog(self.log_path, self.game_id))
        entries: list[bytes] = []
        good = unpacker.tell()
        try:
            for item in unpacker:
                if not isinstance(item, bytes) or len(entries) >= MAX_ENTRIES:
                    raise StoreError(CorruptEntry(self.log_path, len(entries)))
                entries.append(item)
                good = unpacker.tell()
        except StoreError:
            raise
        except Exception:
            raise StoreError(CorruptEntry(self.log_path, len(entries))) from None
        return entries, good

    def append(self, raw: bytes) -> None:
        """Append one entry (written to the OS now; durable at the next ``sync``)."""
        assert self._log is not None, "open() first"
        self._log_size = self._append(self._log, self._log_size, entry(raw), self.log_path)
        self._unsynced = True

    def cut(self, length: int) -> None:
        """Keep only the first ``length`` entries (a relay that took entries
        no other seat holds, and finds the relay moved on without them)."""
        assert self._log is not None, "open() first"
        self.sync()
        entries, _ = self._read_entries()
        if length >= len(entries):
            return
        data = self.log_path.read_bytes()
        unpacker = msgpack.Unpacker(raw=False, max_buffer_size=max(len(data), 1), max_str_len=64,
                                    max_bin_len=MAX_ENVELOPE_BYTES, max_array_len=3, max_map_len=0, max_ext_len=0)
        unpacker.feed(data)
        next(unpacker)  # the header
        for _ in range(length):
            next(unpacker)
        size = unpacker.tell()
        with writing(self.log_path):
            os.ftruncate(self._log, size)
            os.fsync(self._log)
        self._log_size = size

    def sync(self) -> None:
        """Make every appended entry durable: call before acting on them or relaying them."""
        if self._broken is not None:
            raise WriteFailed(self._broken)
        if self._unsynced and self._log is not None:
            try:
                os.fsync(self._log)
                if self._receipts is not None:
                    # A successor takes over with the old relay's receipt of
                    # its last entry, and sends receipts back on a fetch.
                    os.fsync(self._receipts)
            except OSError as exc:
                self._broken = disk_trouble(self.log_path, exc)
                raise WriteFailed(self._broken) from None
            self._unsynced = False

    # ------------------------------------------------------------ receipts

    def add_receipt(self, index: int, digest: bytes, sig: bytes) -> None:
        """Receipts are evidence, not state: written to the OS (a killed process
        keeps them), fsync'ed only with the log's next sync."""
        assert self._receipts is not None, "open() first"
        self._receipts_size = self._append(self._receipts, self._receipts_size, pack([index, digest, sig]),
                                           self.receipts_path)

    def receipts(self) -> dict[int, tuple[bytes, bytes]]:
        """index -> (entry hash, host signature); a torn tail is ignored."""
        return self._read_receipts()[0]

    def _read_receipts(self) -> tuple[dict[int, tuple[bytes, bytes]], int]:
        out: dict[int, tuple[bytes, bytes]] = {}
        try:
            size = self.receipts_path.stat().st_size
        except FileNotFoundError:
            return out, 0
        except OSError as exc:
            raise StoreError(ReceiptsUnreadable(self.receipts_path, str(exc.strerror))) from None
        if size > RECEIPTS_MAX_BYTES:  # judged before a byte is read
            raise StoreError(ReceiptsTooLarge(self.receipts_path, size, RECEIPTS_MAX_BYTES, RECEIPT_MAX_BYTES,
                                              MAX_ENTRIES))
        good = 0
        try:
            with open(self.receipts_path, "rb") as f:  # read as it is parsed: the bytes are never held twice
                unpacker = msgpack.Unpacker(f, raw=False, max_buffer_size=1 << 16, max_bin_len=64, max_array_len=3,
                                            max_map_len=0, max_ext_len=0, max_str_len=0)
                for item in unpacker:
                    if not (isinstance(item, list) and len(item) == 3 and type(item[0]) is int
                            and 0 <= item[0] < MAX_ENTRIES and isinstance(item[1], bytes)
                            and isinstance(item[2], bytes)):
                        break
                    out[item[0]] = (item[1], item[2])
                    good = unpacker.tell()
        except Exception:
            pass
        return out, good

    # ------------------------------------------------------------- secrets

    def save_secrets(self, secrets: PeerSecrets) -> None:
        with writing(self.path):
            self.path.mkdir(parents=True, exist_ok=True, mode=0o700)
        seal = [secrets.seal.to_wire()] if secrets.seal is not None else []
        _write_private(self.secrets_path, pack([secrets.seat, secrets.key.to_wire(), secrets.seed.to_wire(), *seal]))

    def load_secrets(self) -> PeerSecrets | None:
        if not self.secrets_path.exists():
            return None
        try:
            value = unpack_bounded(self.secrets_path.read_bytes(), "secrets")
            seat, key, seed, *seal = value
            if len(seal) > 1:
                raise ValueError("too many fields")
            if type(seat) is not int:  # not int(seat): a float (inf, 1.5) is no seat
                raise ValueError("the seat is not an integer")
            return PeerSecrets(seat, SecretKey.from_wire(key), Seed.from_wire(seed),
                               SecretKey.from_wire(seal[0]) if seal else None)
        except (Malformed, MalformedWire, ValueError, TypeError):
            raise StoreError(SecretsCorrupt(self.secrets_path)) from None

    # ---------------------------------------------------------------- meta

    def save_meta(self, meta: dict[str, Any]) -> None:
        tmp = self.meta_path.with_name("meta.json.tmp")
        with writing(self.meta_path):
            try:
                self.path.mkdir(parents=True, exist_ok=True, mode=0o700)
                tmp.write_text(json.dumps(meta))
                os.replace(tmp, self.meta_path)
            except OSError:
                tmp.unlink(missing_ok=True)
                raise

    def mark_finished(self) -> None:
        """Note in meta.json that the game is complete (an unfinished one is
        resumed by `ttr host` without --resume, and kept by `ttr join`)."""
        meta = self.load_meta()
        if meta and not meta.get("finished"):
            self.save_meta({**meta, "finished": True})

    def mark_left(self) -> None:
        """Note in meta.json that our seat forfeited: the game goes on (or
        ended) without us, so it is no game of ours to resume, nor one that
        keeps us from joining another."""
        meta = self.load_meta()
        if meta and not meta.get("left"):
            self.save_meta({**meta, "left": True})

    def load_meta(self) -> dict[str, Any]:
        try:
            meta = json.loads(self.meta_path.read_text())
        except (OSError, ValueError):
            return {}
        return meta if isinstance(meta, dict) else {}

    def save_proof(self, index: int, proof: bytes) -> Path:
        path = self.path / f"equivocation-{index}.bin"
        path.write_bytes(proof)
        return path
