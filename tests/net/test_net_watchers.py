"""Watchers on the ROUTER (p2p_ttr/net/watchers.py), against the contract
its docstring states: a distinct hello, never a seat, only public frames,
and bounded whatever a watcher sends. Real processes: test_net_watch.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_net_parts import FakeDealer, FakeRouter, admit, game, receipt, seat

from p2p_ttr.net import frames, watchers
from p2p_ttr.net.frames import NET_VERSION, encode
from p2p_ttr.net.node import Node
from p2p_ttr.net.console import Console
from p2p_ttr.net.pause import pause_signed, sign_pause
from p2p_ttr.net.seqsig import entry_signed, sign_entry
from p2p_ttr.net.watcher import WatchOptions, Watcher
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.table import Table

SEAT_ONLY = {"welcome", "lobby", "rejected", "fetch", "silent"}  # frames a watcher is never sent


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def watching(tmp_path: Path, upto: int = 40) -> tuple[Node, FakeRouter, Clock]:
    """Seat 0 (the relay) holding ``upto`` entries, its watchers on a clock of ours."""
    node, router, _ = seat(tmp_path, 0, upto)
    clock = Clock()
    node.relay.watchers.clock = clock
    node.relay.watchers.budget = watchers.Bucket.full(watchers.ALL_BYTES_PER_S, watchers.ALL_BYTES_PER_S, clock())
    return node, router, clock


def watch(node: Node, router: FakeRouter, rid: bytes) -> None:
    """``rid`` says hi, and answers its challenge with ``watch``."""
    node.relay.handle([rid, encode("hi", NET_VERSION)])
    challenge = router.to(rid, "challenge")[-1][2]
    node.relay.handle([rid, encode("watch", NET_VERSION, challenge)])


def test_a_watch_answering_its_challenge_admits_a_watcher_and_never_a_seat(tmp_path: Path) -> None:
    node, router, _ = watching(tmp_path)
    watch(node, router, b"\0w")
    assert router.to(b"\0w", "watching") == [[node.table.game_id, 40]]  # type: ignore[union-attr]
    c = node.relay.admission.connections
    assert b"\0w" in node.relay.watchers.conns
    assert b"\0w" not in c.known and b"\0w" not in c.conn.values() and b"\0w" not in c.heard
    # What seats send means nothing from a watcher's connection: no follow, no envelope, no length heard.
    node.relay.handle([b"\0w", encode("ping", 99)])
    node.relay.handle([b"\0w", encode("follow", 3, bytes(32), bytes(64))])
    node.relay.handle([b"\0w", encode("env", game().log[40])])
    assert node.relay.catchup.peer_len == {} and node.relay.requests == {} and len(node.table.log) == 40  # type: ignore[union-attr]
    assert node.relay.silent_seats(0.0) == (1,)  # the seat, unheard; never the watcher
    # A watch on a seat's connection admits nothing.
    admit(node, router, b"\0s", 1)
    node.relay.handle([b"\0s", encode("watch", NET_VERSION, bytes(32))])
    assert b"\0s" not in node.relay.watchers.conns and node.relay.admission.connections.known[b"\0s"] == 1


def test_a_watch_of_another_connection_or_version_or_one_too_many_admits_nobody(tmp_path: Path) -> None:
    node, router, _ = watching(tmp_path)
    node.relay.handle([b"\0a", encode("hi", NET_VERSION)])
    recorded = router.to(b"\0a", "challenge")[-1][2]
    node.relay.handle([b"\0b", encode("watch", NET_VERSION, recorded)])  # answered on another connection
    assert b"\0b" not in node.relay.watchers.conns and router.to(b"\0b", "challenge")
    node.relay.handle([b"\0a", encode("watch", NET_VERSION - 1, recorded)])
    assert router.to(b"\0a", "refused")[-1][0] == "version" and not node.relay.watchers.conns
    for i in range(watchers.MAX_WATCHERS):
        watch(node, router, b"\0w%d" % i)
    watch(node, router, b"\0late")
    assert len(node.relay.watchers.conns) == watchers.MAX_WATCHERS
    assert router.to(b"\0late", "refused") == [["full", f"this table has {watchers.MAX_WATCHERS} watchers already"]]


def test_a_watcher_is_sent_the_log_with_its_receipts_and_only_public_frames(tmp_path: Path) -> None:
    node, router, _ = watching(tmp_path)
    watch(node, router, b"\0w")
    node.relay.handle([b"\0w", encode("sync", 0)])
    node.relay.flush()
    node.relay.beat()
    node.relay.pause()
    sent = [(k, f) for r, k, f in router.sent if r == b"\0w"]
    assert {k for k, _ in sent} == {"challenge", "watching", "entry", "ping", "pause"}
    assert not {k for k, _ in sent} & SEAT_ONLY
    entries = [f for k, f in sent if k == "entry"]
    assert [e[0] for e in entries] == list(range(40))
    table = Table()
    for index, raw, sig in entries:
        assert raw == game().log[index]  # a public log entry, byte for byte
        assert entry_signed(game().peers[0].identity.public, open_id(), index, table.head if index else bytes(32),
                            raw, sig)
        table.receive(raw)
        assert table.engine is None or not table.engine.private  # a table with no secret reads no hidden card
    (pause,) = [f for k, f in sent if k == "pause"]
    challenge = router.to(b"\0w", "challenge")[-1][2]
    assert pause_signed(node.identity.public, pause[1], challenge, open_id(), 40)


def test_syncs_only_move_a_cursor_and_what_is_sent_keeps_within_the_budget(tmp_path: Path) -> None:
    node, router, clock = watching(tmp_path)
    watch(node, router, b"\0w")
    for _ in range(int(watchers.FRAME_BURST) // 2):
        node.relay.handle([b"\0w", encode("sync", 0)])  # many asks for the whole log: one cursor, no queue
    node.relay.flush()
    sent = [f for f in router.to(b"\0w", "entry")]
    assert [e[0] for e in sent] == list(range(40))  # each entry once, however many syncs
    # A tiny budget: each turn of the loop sends at most what the watcher's bytes allow (or, the bucket
    # full, one entry larger than it), and the rest as the seconds go.
    w = node.relay.watchers.conns[b"\0w"]
    w.cursor, w.sent = 0, watchers.Bucket.full(10_000, 10_000, clock())
    total, seconds = 0, 0
    while w.cursor < 40:
        before = len(router.sent)
        node.relay.flush()
        node.relay.flush()  # nothing more in the same second
        sizes = [len(encode("entry", *f)) for r, k, f in router.sent[before:] if r == b"\0w"]
        assert sum(sizes) <= 10_000 or len(sizes) == 1
        total += sum(sizes)
        assert total <= 10_000 * (seconds + 1) + frames.MAX_FRAME_BYTES
        clock.now += 1.0
        seconds += 1
        assert seconds < 1000


def test_a_flooding_watcher_is_forgotten_and_not_listened_to(tmp_path: Path) -> None:
    node, router, clock = watching(tmp_path)
    watch(node, router, b"\0w")
    for _ in range(int(watchers.FRAME_BURST) + 10):
        node.relay.handle([b"\0w", encode("sync", 0)])
    assert b"\0w" not in node.relay.watchers.conns and node.relay.watchers.is_muted(b"\0w")
    sent = len(router.sent)
    for _ in range(1000):
        node.relay.handle([b"\0w", encode("sync", 0)])  # dropped unread: not even a challenge
    node.relay.flush()
    assert len(router.sent) == sent
    clock.now += watchers.MUTE_S + 1
    node.relay.beat()
    assert not node.relay.watchers.is_muted(b"\0w")  # later it may say hi and watch again


def test_a_silent_watcher_is_forgotten(tmp_path: Path) -> None:
    node, router, clock = watching(tmp_path)
    watch(node, router, b"\0w")
    clock.now += watchers.SILENT_S / 2
    node.relay.handle([b"\0w", encode("ping", 40)])
    clock.now += watchers.SILENT_S / 2 + 1
    node.relay.beat()
    assert b"\0w" in node.relay.watchers.conns  # heard half way
    clock.now += watchers.SILENT_S + 1
    node.relay.beat()
    assert b"\0w" not in node.relay.watchers.conns


def test_a_watcher_in_the_lobby_is_told_no_game_yet(tmp_path: Path) -> None:
    from p2p_ttr.net.host import Host, HostOptions
    from p2p_ttr.net.store import DataDir

    host = Host(HostOptions(DataDir(tmp_path / "h"), "Anna", players=2), lambda v, s: None, Console(True))
    router = FakeRouter()
    host.relay.router.sock = router  # type: ignore[assignment]
    watch(host, router, b"\0w")
    assert router.to(b"\0w", "watching") == [[None, 0]]
    admit(host, router, b"\0b", 1)
    assert router.to(b"\0b", "lobby")[-1][0] == ["Anna", "Boris"] and not router.to(b"\0w", "lobby")
    assert host.lobby.names == ["Anna", "Boris"]  # the watcher took no place


def open_id() -> bytes:
    table = Table()
    table.receive(game().log[0])
    assert table.game_id is not None
    return table.game_id


def test_frames_of_a_watcher_round_trip() -> None:
    assert frames.decode_to_host(frames.encode_frame(frames.Watch(NET_VERSION, b"c" * 32))) == \
        frames.Watch(NET_VERSION, b"c" * 32)
    assert frames.decode_to_peer(frames.encode_frame(frames.Watching(None, 0))) == frames.Watching(None, 0)
    with pytest.raises(frames.FrameError):
        frames.decode_to_host(encode("watch", NET_VERSION, b"short"))


# ------------------------------------------------------------ the watcher's side


def watcher_with(dealer: FakeDealer) -> Watcher:
    w = Watcher(WatchOptions("127.0.0.1", 7311), Console(True))
    w.uplink.sock = dealer  # type: ignore[assignment]
    return w


def greeted(w: Watcher, dealer: FakeDealer) -> bytes:
    """The relay (seat 0) challenges ``w`` and admits it; the challenge it answered."""
    challenge = b"c" * 32
    w.handle(encode("challenge", NET_VERSION, game().peers[0].identity.public, challenge, None))
    assert dealer.sent[-1] == ("watch", [NET_VERSION, challenge])
    w.handle(encode("watching", None, 0))
    assert dealer.sent[-1] == ("sync", [0]) and w.admitted
    return challenge


def test_the_watcher_takes_entries_in_order_under_their_relay_s_receipt() -> None:
    dealer = FakeDealer()
    w = watcher_with(dealer)
    greeted(w, dealer)
    w.handle(encode("entry", 1, game().log[1], receipt(1)))  # ahead of our log: asks from where it stands
    assert w.table is None and dealer.sent[-1] == ("sync", [0])
    for i in range(30):
        w.handle(encode("entry", i, game().log[i], receipt(i)))
    assert w.table is not None and len(w.table.log) == 30 and not w.table.engine.private  # type: ignore[union-attr]
    forged = Identity.generate()
    w.handle(encode("entry", 30, game().log[30], sign_entry(forged, open_id(), 30, w.table.head, game().log[30])))
    assert len(w.table.log) == 30  # not its relay's receipt: dropped
    w.handle(encode("entry", 12, game().log[12], receipt(12)))  # a repeat: harmless
    assert len(w.table.log) == 30 and w.given == 0


def test_the_watcher_stops_on_a_pause_its_relay_signed_over_its_challenge() -> None:
    dealer = FakeDealer()
    w = watcher_with(dealer)
    challenge = greeted(w, dealer)
    for i in range(5):
        w.handle(encode("entry", i, game().log[i], receipt(i)))
    relay = game().peers[0].identity
    w.handle(encode("pause", 5, sign_pause(relay, b"x" * 32, open_id(), 5)))  # another connection's
    assert w.paused is None
    w.handle(encode("pause", 5, sign_pause(relay, challenge, open_id(), 5)))
    assert w.paused is not None and w.paused.entries == 5


def test_the_watcher_does_not_answer_a_seat_that_is_not_the_one_it_dialled() -> None:
    dealer = FakeDealer()
    w = watcher_with(dealer)
    greeted(w, dealer)
    for i in range(5):
        w.handle(encode("entry", i, game().log[i], receipt(i)))
    w.uplink.seat = 1  # we dialled seat 1 at the address we were given; seat 0's key answers
    w.given = 1
    w.uplink.challenge = None
    sent = len(dealer.sent)
    w.handle(encode("challenge", NET_VERSION, game().peers[0].identity.public, b"d" * 32, open_id()))
    assert not any(k == "watch" for k, _ in dealer.sent[sent:])
    assert ("127.0.0.1", 7311) in w.bad and 1 not in w.addresses()
