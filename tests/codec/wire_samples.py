"""Representative values of every wire type, for the pinned encodings
(``pinned_wire.json``, captured from the code before the codecs were
declared: the bytes of each must never change by accident)."""

from __future__ import annotations

from p2p_ttr.client.livenessfacts import Why
from p2p_ttr.net import frames as f

SIG = bytes(range(64))
KEY = bytes(range(100, 132))
CHALLENGE = bytes(range(200, 232))
GID = bytes(range(16))
HEAD = bytes(range(32, 64))

FRAMES: list[f.Frame] = [
    f.Hi(9), f.Hi(0), f.Hi(2**16),
    f.Hello(10, "Ann", KEY, CHALLENGE, "192.168.1.5", 7311, SIG),
    f.Hello(65536, "Zoë 日本 x" + "y" * 14, KEY, CHALLENGE, "fe80::1ff:fe23:4567:890a", 65535, SIG),
    f.Env(b"\x01"), f.Env(bytes(300)),
    f.Sync(0), f.Sync(200000), f.Ping(0), f.Ping(127), f.Ping(128), f.Ping(70000),
    f.LeaveLobby(),
    f.Have(5, b"envelope", SIG),
    f.Follow(1, HEAD, SIG), f.Follow(200000, HEAD, SIG),
    f.Witness(b"w" * 40),
    f.GiveUp(Why.SILENT, (), 0, SIG), f.GiveUp(Why.WITHHELD, (1, 3, 0), 10**6, SIG),
    f.Watch(9, CHALLENGE),
    f.Challenge(9, KEY, CHALLENGE, None), f.Challenge(9, KEY, CHALLENGE, GID),
    f.Welcome(-1, None, 0, ()), f.Welcome(4, GID, 312, ("Ann", "Bob", "Cy", "Dee", "Eve")),
    f.LobbyNews(("Ann",), 0, False), f.LobbyNews(("Ann", "Bob"), 5, True),
    f.NotAdmitted("version", "update: this host speaks LAN version 9"), f.NotAdmitted("x", "r" * 400),
    f.Entry(0, b"e" * 10, SIG), f.Entry(199999, bytes(1000), SIG),
    f.Rejected(HEAD, "malformed", "a frame"),
    f.Fetch(3), f.Pause(17, SIG),
    f.Silent(()), f.Silent(((0, 12), (4, 10**6), (2, 0))),
    f.GaveUp(0, Why.SILENT, (1,), 25, SIG), f.GaveUp(4, Why.WITHHELD, (0, 1, 2, 3), 999, SIG),
    f.Watching(None, 0), f.Watching(GID, 88),
    # Pinned with LAN version 10: the challenge names the game played.
    f.Challenge(10, KEY, CHALLENGE, GID, ("europe", "mega", HEAD)),
    f.Challenge(10, KEY, CHALLENGE, None, ("usa", "", HEAD)),
    # LAN version 10: the hello signs the address it was dialled to (appended: the indices above stay)
    f.Hello(10, "Bob", KEY, CHALLENGE, "127.0.0.1", 1, SIG),
    # LAN version 11: a joiner that heard a beacon asks the host to describe its game, signed (vouch.py)
    f.Describe(11, CHALLENGE, "192.168.1.5", 7311), f.Describe(0, CHALLENGE, "fe80::1", 65535),
    f.Described("Ann", 1, 4, None, "europe", "", SIG), f.Described("Zoë 日本", 5, 0, GID, "usa", "1910", SIG),
    # LAN version 11: a seat's ping carries its log head at that length (a gated relay counts prefixes only)
    f.Ping(5, HEAD),
]
