"""Finding a game on the LAN: the host's UDP beacon, and listening for it.

A host announces its game once a second with one small UDP datagram to the
broadcast address (protocol.md §10): its ROUTER's port and its public key,
nothing else. Anyone can send one, so `ttr join` with no address shows no
game on a beacon's say-so: it asks each address heard to describe its game,
signed by the key the beacon names over a nonce of its own (vouch.py), and
lists only what that key signed. Everything else is checked by the LAN
protocol's hello and by the signed log.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from dataclasses import dataclass

import msgpack

from p2p_ttr.table.envelope import pack
from p2p_ttr.table.identity import PUBLIC_KEY_BYTES

BEACON_PORT = 7312
BEACON_MAGIC = "p2p_ttr/beacon"
# 2: the game's board and variant (a joiner sees the board before it dials).
# 3: the port and the host's key only: what a joiner lists comes from the
#    host's signed description (vouch.py), never from the unsigned datagram.
BEACON_VERSION = 3
MAX_BEACON_BYTES = 512
BEACON_EVERY_S = 1.0
MAX_HEARD = 16  # distinct beacons a listener keeps: each costs a connection to confirm it
_LIMITS = {"max_str_len": 32, "max_bin_len": PUBLIC_KEY_BYTES, "max_array_len": 4, "max_map_len": 0,
           "max_ext_len": 0}


class BeaconError(ValueError):
    """A datagram that is not a beacon we understand. Its words are for a
    test or a trace, never a player's: a listener skips such a datagram
    without a word (anyone on the LAN may send one)."""


@dataclass(frozen=True)
class Announcement:
    """What a host says about its game: its beacon carries the port and key,
    its signed description (vouch.py) the rest."""

    name: str  # the host player's name
    port: int  # the TCP port `ttr join` connects to
    players: int  # seated or in the lobby, the host included
    seats_free: int  # 0 once the game has started or is full
    host_key: bytes  # the identity key that signs the description
    game_id: bytes | None = None  # known once the game has started
    board: str = "europe"  # the game, as `ttr boards` names it: board and variant ("" its standard game)
    variant: str = ""

    def beacon(self) -> bytes:
        """The datagram that points at this game."""
        return pack([BEACON_MAGIC, BEACON_VERSION, self.port, self.host_key])


@dataclass(frozen=True)
class Heard:
    """A beacon heard: where it came from, the port it names, and the key it
    says answers there (a claim until the host signs for it: vouch.py)."""

    address: str  # the datagram's source address: the host's address on this LAN, if the beacon is true
    port: int
    host_key: bytes


def _int(value: object, lo: int, hi: int) -> int:
    if type(value) is not int or not lo <= value <= hi:
        raise BeaconError("a beacon field is out of range")
    return value


def parse(raw: bytes, address: str) -> Heard:
    """The beacon in ``raw``, heard from ``address``; BeaconError for anything else."""
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
    if len(value) != 4:
        raise BeaconError("a beacon has 4 fields")
    key = value[3]
    if not isinstance(key, bytes) or len(key) != PUBLIC_KEY_BYTES:
        raise BeaconError(f"a beacon's key is {PUBLIC_KEY_BYTES} bytes")
    return Heard(address, _int(value[2], 1, 65535), key)


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
            self.sock.sendto(announcement.beacon(), self.target)
            self.failed = None
        except OSError as exc:  # no route to the broadcast address: nobody can hear us, play on
            self.failed = str(exc)

    def close(self) -> None:
        self.sock.close()


def listen(seconds: float, port: int = BEACON_PORT, bind: str = "",
           clock: Callable[[], float] = time.monotonic) -> list[Heard]:
    """Every beacon heard within ``seconds``, one per address, port and key
    (the first ``MAX_HEARD``: a flood of forged ones costs a bounded wait)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if hasattr(socket, "SO_REUSEPORT"):  # several joiners on one machine all hear the beacon
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((bind, port))
        found: dict[tuple[str, int, bytes], Heard] = {}
        end = clock() + seconds
        while (left := end - clock()) > 0:
            sock.settimeout(left)
            try:
                raw, (address, _) = sock.recvfrom(MAX_BEACON_BYTES + 1)
            except TimeoutError:
                break
            try:
                heard = parse(raw, address)
            except BeaconError:
                continue
            if len(found) < MAX_HEARD:
                found[(heard.address, heard.port, heard.host_key)] = heard
        return list(found.values())
    finally:
        sock.close()
