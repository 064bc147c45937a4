"""Finding a game on the LAN: the beacon's bytes, and a beacon heard over
loopback (tests stay on 127.0.0.0/8)."""

from __future__ import annotations

import socket
import threading

import msgpack
import pytest

from p2p_ttr.cli.commands.join import pick
from p2p_ttr.net.discovery import (
    BEACON_MAGIC,
    MAX_BEACON_BYTES,
    Announcement,
    Beacon,
    BeaconError,
    Found,
    listen,
    parse,
)


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_announcements_round_trip_and_junk_is_refused() -> None:
    lobby = Announcement("Ann", 7311, 2, 3)
    assert parse(lobby.to_bytes()) == lobby
    started = Announcement("Ann", 7311, 3, 0, bytes(range(16)))
    assert parse(started.to_bytes()) == started
    assert len(started.to_bytes()) < 100
    usa = Announcement("Bob", 7311, 2, 3, board="usa", variant="1910")
    assert parse(usa.to_bytes()) == usa and usa.game_words() == "USA 1910"
    stranger = Announcement("Bob", 7311, 2, 3, board="mars\x1b]0;", variant="")
    assert "\\x1b" in stranger.game_words() and "\x1b" not in stranger.game_words()
    assert "does not have" in stranger.game_words()
    bad = [b"", b"\xc1", b"x" * (MAX_BEACON_BYTES + 1), msgpack.packb(["other", 2, "Ann", 7311, 2, 3, None, "", ""]),
           msgpack.packb([BEACON_MAGIC, 1, "Ann", 7311, 2, 3, None]),  # version 1: no game named
           msgpack.packb([BEACON_MAGIC, 2, "Ann", 7311, 2, 3, None]),
           msgpack.packb([BEACON_MAGIC, 2, "", 7311, 2, 3, None, "europe", ""]),
           msgpack.packb([BEACON_MAGIC, 2, "Ann", 0, 2, 3, None, "europe", ""]),
           msgpack.packb([BEACON_MAGIC, 2, "Ann", 7311, 2, 9, None, "europe", ""]),
           msgpack.packb([BEACON_MAGIC, 2, "Ann", 7311, 2, 3, b"short", "europe", ""]),
           msgpack.packb([BEACON_MAGIC, 2, "Ann", 7311, 2, 3, None, "x" * 33, ""]),
           msgpack.packb([BEACON_MAGIC, 2, "Ann", 7311, 2, 3, None, "europe", 3]),
           msgpack.packb([BEACON_MAGIC, 2, "Ann", 7311, 2, 3, None, "eur\x1bope", ""]),
           msgpack.packb({"a": 1})]
    for raw in bad:
        with pytest.raises(BeaconError):
            parse(raw)


def test_a_beacon_is_heard_on_loopback() -> None:
    port = free_udp_port()
    beacon = Beacon(("127.0.0.1", port), clock=lambda: 0.0)
    sent: list[Announcement] = []

    def announce() -> Announcement:
        sent.append(Announcement("Ann", 7311, 2, 3))
        return sent[-1]

    timer = threading.Timer(0.3, lambda: beacon.poll(announce))
    timer.start()
    try:
        found = listen(1.0, port, "127.0.0.1")
    finally:
        timer.cancel()
        beacon.close()
    assert [f.join_address for f in found] == ["127.0.0.1:7311"]
    assert found[0].describe() == "Ann's game of Europe at 127.0.0.1:7311: 2 in, 3 seats free"
    beacon2 = Beacon(("127.0.0.1", port), clock=lambda: 0.0)
    beacon2.poll(announce)
    beacon2.poll(announce)  # not due again within the second
    beacon2.close()
    assert len(sent) == 2


def test_picking_a_game() -> None:
    games = [Found("10.0.0.2", Announcement("Ann", 7311, 2, 3)), Found("10.0.0.3", Announcement("Bob", 7311, 3, 0,
                                                                                               bytes(16)))]
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
