"""Finding a game on the LAN: the host's UDP beacon, and listening for it.

A host announces its game once a second with one small UDP datagram to the
broadcast address (protocol.md §10); `ttr join` with no address listens for
a moment and lists what it heard. The beacon is only a hint of where to
connect: everything that matters is checked by the LAN protocol's hello and
by the signed log. A false beacon can point at a wrong address or at a
host of its sender's own, never put its sender between a joiner and the
host it names: the hello signs the address it was dialled to, and the
host admits only its own (hellobind.py; protocol.md §10 says what is left).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from dataclasses import dataclass

import msgpack

from p2p_ttr.engine.boards import MAX_NAME as MAX_GAME_NAME
from p2p_ttr.engine.boards import UnknownGame, load_game
from p2p_ttr.table.envelope import GAME_ID_BYTES, MAX_SEATS, pack
from p2p_ttr.table.messages import MAX_NAME, valid_name

BEACON_PORT = 7312
BEACON_MAGIC = "p2p_ttr/beacon"
# 2: the game's board and variant (a joiner sees the board before it dials).
BEACON_VERSION = 2
MAX_BEACON_BYTES = 512
BEACON_EVERY_S = 1.0
_LIMITS = {"max_str_len": MAX_NAME * 4, "max_bin_len": GAME_ID_BYTES, "max_array_len": 9, "max_map_len": 0,
           "max_ext_len": 0}


class BeaconError(ValueError):
    """A datagram that is not a beacon we understand."""


@dataclass(frozen=True)
class Announcement:
    """What a host says about its game."""

    name: str  # the host player's name
    port: int  # the TCP port `ttr join` connects to
    players: int  # seated or in the lobby, the host included
    seats_free: int  # 0 once the game has started or is full
    game_id: bytes | None = None  # known once the game has started
    board: str = "europe"  # the game, as `ttr boards` names it: board and variant ("" its standard game)
    variant: str = ""
    version: int = BEACON_VERSION

    def to_bytes(self) -> bytes:
        return pack([BEACON_MAGIC, self.version, self.name, self.port, self.players, self.seats_free,
                     self.game_id, self.board, self.variant])

    def game_words(self) -> str:
        """The game announced, as a joiner reads it: its title, or the names
        of a game this version does not have (sanitised: a beacon is a stranger's)."""
        try:
            return load_game(self.board, self.variant).title
        except UnknownGame:
            shown = f"{self.board} {self.variant}".strip().encode("ascii", "backslashreplace").decode()
            return f"{shown!r}, a board this version of p2p_ttr does not have"


def _int(value: object, lo: int, hi: int) -> int:
    if type(value) is not int or not lo <= value <= hi:
        raise BeaconError("a beacon field is out of range")
    return value


def parse(raw: bytes) -> Announcement:
    """The announcement in ``raw``; BeaconError for anything else."""
    if len(raw) > MAX_BEACON_BYTES:
        raise BeaconError(f"a beacon of {len(raw)} bytes is too large")
    try:
        value = msgpack.unpackb(raw, raw=False, use_list=True, **_LIMITS)
    except Exception:  # hostile bytes make the C unpacker raise many kinds
        raise BeaconError("not msgpack") from None
    if not isinstance(value, list) or len(value) < 2 or value[0] != BEACON_MAGIC:
        raise BeaconError("not a p2p_ttr beacon")
    if _int(value[1], 0, 2**16) != BEACON_VERSION:
        raise BeaconError(f"beacon version {value[1]}, we read {BEACON_VERSION}")
    if len(value) != 9:
        raise BeaconError("a beacon has 9 fields")
    _, version, name, port, players, free, game_id, board, variant = value
    if not isinstance(board, str) or not isinstance(variant, str) or not board.isascii() or not variant.isascii() \
            or not board.isprintable() or not variant.isprintable() or len(board) > MAX_GAME_NAME \
            or len(variant) > MAX_GAME_NAME:
        raise BeaconError(f"a beacon's board and variant are printable ASCII of at most {MAX_GAME_NAME} characters")
    if not valid_name(name):
        raise BeaconError("a beacon names its host")
    if game_id is not None and (not isinstance(game_id, bytes) or len(game_id) != GAME_ID_BYTES):
        raise BeaconError("a beacon's game id is 16 bytes or nil")
    return Announcement(name, _int(port, 1, 65535), _int(players, 1, MAX_SEATS), _int(free, 0, MAX_SEATS),
                        game_id, board, variant, version)


class Beacon:
    """Sends the host's announcement at most once a second, from the host's
    own loop (no thread: ``poll`` costs one clock read when not due)."""

    def __init__(self, target: tuple[str, int] = ("255.255.255.255", BEACON_PORT),
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.target = target
        self.clock = clock
        self._next = 0.0
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        self.sock.setblocking(False)
        self.failed: str | None = None  # why the last send failed (no network, say)

    def poll(self, make: Callable[[], Announcement | None]) -> None:
        now = self.clock()
        if now < self._next:
            return
        self._next = now + BEACON_EVERY_S
        announcement = make()
        if announcement is None:
            return
        try:
            self.sock.sendto(announcement.to_bytes(), self.target)
            self.failed = None
        except OSError as exc:  # no route to the broadcast address: nobody can hear us, play on
            self.failed = str(exc)

    def close(self) -> None:
        self.sock.close()


@dataclass(frozen=True)
class Found:
    """A game heard on the LAN: where its beacon came from, and what it announced."""

    address: str  # where the beacon came from: the host's address on this LAN
    announcement: Announcement

    @property
    def join_address(self) -> str:
        return f"{self.address}:{self.announcement.port}"

    def describe(self) -> str:
        a = self.announcement
        state = (f"{a.seats_free} seat{'s' if a.seats_free != 1 else ''} free" if a.seats_free
                 else "started (only its players can rejoin; anyone may watch it)" if a.game_id else "full")
        return f"{a.name}'s game of {a.game_words()} at {self.join_address}: {a.players} in, {state}"


def listen(seconds: float, port: int = BEACON_PORT, bind: str = "",
           clock: Callable[[], float] = time.monotonic) -> list[Found]:
    """Every game announced within ``seconds``, one entry per host address and port."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if hasattr(socket, "SO_REUSEPORT"):  # several joiners on one machine all hear the beacon
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((bind, port))
        found: dict[tuple[str, int], Found] = {}
        end = clock() + seconds
        while (left := end - clock()) > 0:
            sock.settimeout(left)
            try:
                raw, (address, _) = sock.recvfrom(MAX_BEACON_BYTES + 1)
            except TimeoutError:
                break
            try:
                announcement = parse(raw)
            except BeaconError:
                continue
            found[(address, announcement.port)] = Found(address, announcement)
        return sorted(found.values(), key=lambda f: (f.announcement.seats_free == 0, f.announcement.name))
    finally:
        sock.close()
