"""Finding a game on the LAN: the beacon's bytes, a beacon heard over
loopback (tests stay on 127.0.0.0/8), and the listing's words (the games
in it are confirmed by their host's key: adversarial/test_forged_beacon.py)."""

from __future__ import annotations

import socket
import threading

import msgpack
import pytest

from p2p_ttr.cli.commands.join import game_words, pick
from p2p_ttr.net.discovery import (
    BEACON_MAGIC,
    MAX_BEACON_BYTES,
    MAX_HEARD,
    Announcement,
    Beacon,
    BeaconError,
    Heard,
    listen,
    parse,
)
from p2p_ttr.net.vouch import Found

KEY = bytes(range(32))


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_beacons_round_trip_and_junk_is_refused() -> None:
    lobby = Announcement("Ann", 7311, 2, 3, KEY)
    assert parse(lobby.beacon(), "10.0.0.2") == Heard("10.0.0.2", 7311, KEY)
    assert len(lobby.beacon()) < 60
    bad = [b"", b"\xc1", b"x" * (MAX_BEACON_BYTES + 1), msgpack.packb(["other", 3, 7311, KEY]),
           msgpack.packb([BEACON_MAGIC, 2, "Ann", 7311, 2, 3, None, "europe", ""]),  # version 2: unsigned words
           msgpack.packb([BEACON_MAGIC, 3, 7311]),
           msgpack.packb([BEACON_MAGIC, 3, 0, KEY]),
           msgpack.packb([BEACON_MAGIC, 3, 65536, KEY]),
           msgpack.packb([BEACON_MAGIC, 3, True, KEY]),
           msgpack.packb([BEACON_MAGIC, 3, 7311, KEY[:31]]),
           msgpack.packb([BEACON_MAGIC, 3, 7311, "k" * 32]),
           msgpack.packb([BEACON_MAGIC, 3, 7311, KEY, "more"]),
           msgpack.packb({"a": 1})]
    for raw in bad:
        with pytest.raises(BeaconError):
            parse(raw, "10.0.0.2")


def test_a_board_this_version_lacks_is_named_escaped() -> None:
    assert game_words(Announcement("Bob", 7311, 2, 3, KEY, board="usa", variant="1910")) == "USA 1910"
    stranger = game_words(Announcement("Bob", 7311, 2, 3, KEY, board="mars\x1b]0;", variant=""))
    assert "\\x1b" in stranger and "\x1b" not in stranger and "does not have" in stranger


def test_a_beacon_is_heard_on_loopback_and_a_flood_is_bounded() -> None:
    port = free_udp_port()
    beacon = Beacon(("127.0.0.1", port), clock=lambda: 0.0)
    sent: list[Announcement] = []

    def announce() -> Announcement:
        sent.append(Announcement("Ann", 7311, 2, 3, KEY))
        return sent[-1]

    def flood() -> None:  # the real one first, then more forged ones than a listener keeps
        beacon.poll(announce)
        for i in range(MAX_HEARD + 4):
            beacon.sock.sendto(Announcement("X", 1000 + i, 1, 1, KEY).beacon(), beacon.target)

    timer = threading.Timer(0.3, flood)
    timer.start()
    try:
        heard = listen(1.0, port, "127.0.0.1")
    finally:
        timer.cancel()
        beacon.close()
    assert len(heard) == MAX_HEARD and heard[0] == Heard("127.0.0.1", 7311, KEY)
    beacon2 = Beacon(("127.0.0.1", port), clock=lambda: 0.0)
    beacon2.poll(announce)
    beacon2.poll(announce)  # not due again within the second
    beacon2.close()
    assert len(sent) == 2


def test_picking_a_game() -> None:
    games = [Found("10.0.0.2", Announcement("Ann", 7311, 2, 3, KEY)),
             Found("10.0.0.3", Announcement("Bob", 7311, 3, 0, KEY, bytes(16)))]
    said: list[str] = []
    assert pick(games[:1], None, said.append) is games[0] and said == ["found Ann's game of Europe at 10.0.0.2:7311: 2 in, 3 seats free"]
    answers = iter(["7", "2"])
    said.clear()
    assert pick(games, lambda _: next(answers), said.append) is games[1]
    assert "type a number from 1 to 2" in said and any("started (only its players can rejoin; anyone may watch it)" in s for s in said)
    assert pick(games, None, said.append) is None and said[-1] == "name one: ttr join ADDRESS"


def test_ttr_watch_finds_games_as_ttr_join_does(capsys: pytest.CaptureFixture[str]) -> None:
    from p2p_ttr.cli.main import main

    port = free_udp_port()
    assert main(["watch", "--beacon", f"127.0.0.1:{port}", "--listen", "0.2", "--plain"]) == 1
    assert "no game is announced on this LAN" in capsys.readouterr().out
