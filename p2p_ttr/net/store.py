"""What a player keeps on disk: its identity key and, per game, the log, the
host's receipts, its own secrets and a little metadata.

    DATA/identity.key                 32 bytes, mode 0600
    DATA/lock                         held (flock) by the one process playing from DATA
    DATA/games/<game id hex>/game.log     logfile.py format, one entry appended per
                                      sequenced message; fsync'ed before anything depends on it
    DATA/games/<id>/receipts          msgpack [index, sha256(entry), host signature]*
    DATA/games/<id>/secrets           msgpack [seat, secret key wire, seed], mode 0600
    DATA/games/<id>/meta.json         role, seat, name, port
    DATA/games/<id>/equivocation-<i>.bin  a proof, if the host ever equivocated

A torn last entry (a kill during a write) is cut off when the log is loaded.
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path
from typing import Any

import msgpack

from p2p_ttr.deck import SecretKey, Seed
from p2p_ttr.deck.errors import MalformedWire
from p2p_ttr.table.envelope import GAME_ID_BYTES, MAX_ENVELOPE_BYTES, pack, unpack_bounded
from p2p_ttr.table.errors import Malformed
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.logfile import FORMAT, MAGIC, MAX_ENTRIES, entry, header
from p2p_ttr.table.table import PeerSecrets

KEY_BYTES = 32


class StoreError(Exception):
    """The data directory cannot be used; the message says why."""


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "p2p_ttr"


def _write_private(path: Path, data: bytes) -> None:
    """Write ``data`` atomically to a 0600 file and make it durable."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class DataDir:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock: int | None = None
        try:
            (path / "games").mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as exc:
            raise StoreError(f"cannot use data directory {path}: {exc.strerror}") from None

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
            raise StoreError(f"cannot use data directory {self.path}: {exc.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(fd, 32).decode(errors="replace").strip() or "another process"
            os.close(fd)
            raise StoreError(f"{self.path} is in use by another ttr (pid {holder}): one player per data "
                             "directory (give this one its own --data-dir)") from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._lock = fd

    def identity(self) -> Identity:
        """The long-lived identity key, created on first use."""
        path = self.path / "identity.key"
        try:
            if path.exists():
                raw = path.read_bytes()
                if len(raw) != KEY_BYTES:
                    raise StoreError(f"{path} is corrupt ({len(raw)} bytes, not {KEY_BYTES}); move it away to start afresh")
                return Identity.from_bytes(raw)
            identity = Identity.generate()
            _write_private(path, identity.to_bytes())
            return identity
        except OSError as exc:
            raise StoreError(f"cannot use identity key {path}: {exc.strerror}") from None

    def game(self, game_id: bytes) -> GameStore:
        return GameStore(self.path / "games" / game_id.hex(), game_id)

    def has_game(self, game_id: bytes) -> bool:
        return (self.path / "games" / game_id.hex() / "game.log").exists()

    def find_game(self, prefix: str) -> GameStore:
        """The game whose id starts with ``prefix`` (hex)."""
        prefix = prefix.lower()
        found = sorted(p for p in (self.path / "games").iterdir() if p.name.startswith(prefix) and p.is_dir())
        if not found:
            raise StoreError(f"no game {prefix!r} in {self.path / 'games'}")
        if len(found) > 1:
            raise StoreError(f"{prefix!r} matches {len(found)} games: give more of the id")
        try:
            game_id = bytes.fromhex(found[0].name)
        except ValueError:
            raise StoreError(f"{found[0]} is not a game folder") from None
        if len(game_id) != GAME_ID_BYTES:
            raise StoreError(f"{found[0]} is not a game folder")
        return GameStore(found[0], game_id)


class GameStore:
    def __init__(self, path: Path, game_id: bytes) -> None:
        self.path = path
        self.game_id = game_id
        self.log_path = path / "game.log"
        self.receipts_path = path / "receipts"
        self.secrets_path = path / "secrets"
        self.meta_path = path / "meta.json"
        self._log: Any = None
        self._receipts: Any = None
        self._unsynced = False

    # ------------------------------------------------------------ lifecycle

    def open(self) -> list[bytes]:
        """Create the folder (or reopen it); the entries already stored."""
        self.path.mkdir(parents=True, exist_ok=True, mode=0o700)
        entries, good = self._read_entries()
        if not self.log_path.exists() or good == 0:
            with open(self.log_path, "wb") as f:
                f.write(header(self.game_id))
                f.flush()
                os.fsync(f.fileno())
            _fsync_dir(self.path)
        elif good < self.log_path.stat().st_size:
            os.truncate(self.log_path, good)  # a torn last entry
        self._log = open(self.log_path, "ab")
        receipts, good = self._read_receipts()
        if self.receipts_path.exists() and (good < self.receipts_path.stat().st_size or
                                            any(i >= len(entries) for i in receipts)):
            # A torn tail, or receipts for entries the log lost: keep the sound part.
            with open(self.receipts_path, "wb") as f:
                for i in sorted(receipts):
                    if i < len(entries):
                        f.write(pack([i, *receipts[i]]))
                f.flush()
                os.fsync(f.fileno())
        self._receipts = open(self.receipts_path, "ab")
        return entries

    def close(self) -> None:
        self.sync()
        for f in (self._log, self._receipts):
            if f is not None:
                f.close()
        self._log = self._receipts = None

    # ---------------------------------------------------------------- log

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
            raise StoreError(f"{self.log_path} is not a game log") from None
        if not (isinstance(first, list) and len(first) == 3 and first[0] == MAGIC and first[1] == FORMAT
                and first[2] == self.game_id):
            raise StoreError(f"{self.log_path} is not the log of game {self.game_id.hex()}")
        entries: list[bytes] = []
        good = unpacker.tell()
        try:
            for item in unpacker:
                if not isinstance(item, bytes) or len(entries) >= MAX_ENTRIES:
                    raise StoreError(f"{self.log_path}: entry {len(entries)} is corrupt")
                entries.append(item)
                good = unpacker.tell()
        except StoreError:
            raise
        except Exception:
            raise StoreError(f"{self.log_path}: entry {len(entries)} is corrupt") from None
        return entries, good

    def append(self, raw: bytes) -> None:
        """Append one entry (written to the OS now; durable at the next ``sync``)."""
        assert self._log is not None, "open() first"
        self._log.write(entry(raw))
        self._log.flush()
        self._unsynced = True

    def sync(self) -> None:
        """Make every appended entry durable: call before acting on them or relaying them."""
        if self._unsynced and self._log is not None:
            os.fsync(self._log.fileno())
            self._unsynced = False

    # ------------------------------------------------------------ receipts

    def add_receipt(self, index: int, digest: bytes, sig: bytes) -> None:
        """Receipts are evidence, not state: written to the OS (a killed process
        keeps them), fsync'ed only with the log's next sync."""
        assert self._receipts is not None, "open() first"
        self._receipts.write(pack([index, digest, sig]))
        self._receipts.flush()

    def receipts(self) -> dict[int, tuple[bytes, bytes]]:
        """index -> (entry hash, host signature); a torn tail is ignored."""
        return self._read_receipts()[0]

    def _read_receipts(self) -> tuple[dict[int, tuple[bytes, bytes]], int]:
        out: dict[int, tuple[bytes, bytes]] = {}
        if not self.receipts_path.exists():
            return out, 0
        data = self.receipts_path.read_bytes()
        unpacker = msgpack.Unpacker(raw=False, max_buffer_size=max(len(data), 1), max_bin_len=64, max_array_len=3,
                                    max_map_len=0, max_ext_len=0, max_str_len=0)
        unpacker.feed(data)
        good = 0
        try:
            for item in unpacker:
                if not (isinstance(item, list) and len(item) == 3 and type(item[0]) is int
                        and isinstance(item[1], bytes) and isinstance(item[2], bytes)):
                    break
                out[item[0]] = (item[1], item[2])
                good = unpacker.tell()
        except Exception:
            pass
        return out, good

    # ------------------------------------------------------------- secrets

    def save_secrets(self, secrets: PeerSecrets) -> None:
        self.path.mkdir(parents=True, exist_ok=True, mode=0o700)
        _write_private(self.secrets_path, pack([secrets.seat, secrets.key.to_wire(), secrets.seed.to_wire()]))

    def load_secrets(self) -> PeerSecrets | None:
        if not self.secrets_path.exists():
            return None
        try:
            value = unpack_bounded(self.secrets_path.read_bytes(), "secrets")
            seat, key, seed = value
            return PeerSecrets(int(seat), SecretKey.from_wire(key), Seed.from_wire(seed))
        except (Malformed, MalformedWire, ValueError, TypeError):
            raise StoreError(f"{self.secrets_path} is corrupt: this seat's secrets are lost") from None

    # ---------------------------------------------------------------- meta

    def save_meta(self, meta: dict[str, Any]) -> None:
        self.path.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = self.meta_path.with_name("meta.json.tmp")
        tmp.write_text(json.dumps(meta))
        os.replace(tmp, self.meta_path)

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
