"""A peer's parts on their own, each against the contract its docstring
states: the ROUTER's queue, admission, the sequencer, catch-up, the
successor's standby, the uplink, the follower, our seat's duties, the
hand-over's rule of silence and the player's input. The loop that joins them
is tested with real processes everywhere else (test_net_lan.py and others).
"""

from __future__ import annotations

import functools
import time
from pathlib import Path
from typing import Any

import pytest

from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.client.livenessfacts import Dialled, RelaySilence, SeatGaveUp, Why
from p2p_ttr.client.peerexits import GaveUpHeldBack, GaveUpStalled
from p2p_ttr.engine.events import DrawBlind
from p2p_ttr.local.crypto_game import CryptoGame, play_crypto_game
from p2p_ttr.net import frames, sequencer
from p2p_ttr.net.admission import LOBBY_SILENT_S
from p2p_ttr.net.console import Console, Quit
from p2p_ttr.net.exits import PeerExit
from p2p_ttr.net.frames import NET_VERSION, encode
from p2p_ttr.net.gaveupsig import gave_up_signed, sign_gave_up
from p2p_ttr.net.host import Host, HostOptions
from p2p_ttr.net.liveness import HOST_SILENT_S, GiveUpVerdict
from p2p_ttr.net.lobby import sign_hello
from p2p_ttr.net.node import Node, NodeOptions
from p2p_ttr.client.outcomes import Leave
from p2p_ttr.net.playerinput import InputClosed, PlayerMove
from p2p_ttr.net.seqsig import EMPTY_HEAD, entry_hash, sign_entry
from p2p_ttr.net.store import DataDir
from p2p_ttr.table.relaying import sign_follow
from p2p_ttr.table.table import Table

HERE = ("127.0.0.1", 7311)  # the address a hello says it dialled (a fake router listens there)


@functools.cache
def game() -> CryptoGame:
    return play_crypto_game(12, [RandomBot(120 + p) for p in range(2)], ("Anna", "Boris"))


class FakeRouter:
    """A ROUTER that keeps what it is given to send."""

    def __init__(self) -> None:
        self.sent: list[tuple[bytes, str, list[Any]]] = []

    def getsockopt(self, option: int) -> bytes:
        """Where it listens (LAST_ENDPOINT, all a relay asks): where the tests' hellos say they dialled."""
        return b"tcp://127.0.0.1:7311"

    def send_multipart(self, parts: list[bytes]) -> None:
        kind, fields = frames.decode(parts[1], frames.TO_PEER)
        self.sent.append((parts[0], kind, fields))

    def to(self, rid: bytes, kind: str) -> list[list[Any]]:
        return [f for r, k, f in self.sent if r == rid and k == kind]


class FakeDealer:
    """A DEALER that keeps what it is given to send."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, list[Any]]] = []

    def send(self, raw: bytes, flags: int = 0) -> None:
        self.sent.append(frames.decode(raw, frames.TO_HOST))

    def kinds(self) -> list[str]:
        return [k for k, _ in self.sent]


def seat(tmp_path: Path, s: int, upto: int) -> tuple[Node, FakeRouter, FakeDealer]:
    """Seat ``s`` of the game as a Node whose log holds the entries before
    ``upto`` (each with the relay's receipt), its sockets fakes."""
    g = game()
    data = DataDir(tmp_path / f"seat{s}")
    (data.path / "identity.key").write_bytes(g.peers[s].identity.to_bytes())
    node = Node(NodeOptions(data, "127.0.0.1", 1, ("Anna", "Boris")[s]), lambda v, st: None, Console(True))
    router, dealer = FakeRouter(), FakeDealer()
    node.relay.router.sock = router  # type: ignore[assignment]
    node.uplink.sock = dealer  # type: ignore[assignment]
    table = Table(me=g.peers[s].table.me)
    gid = open_game_id()
    store = data.game(gid)
    store.open()
    for i, raw in enumerate(g.log[:upto]):
        sig = sign_entry(g.peers[0].identity, gid, i, table.prev_head(i) if i else EMPTY_HEAD, raw)
        table.receive(raw)
        store.append(raw)
        store.add_receipt(i, entry_hash(raw), sig)
    node.use_table(table, store)
    return node, router, dealer


def open_game_id() -> bytes:
    table = Table()
    table.receive(game().log[0])
    assert table.game_id is not None
    return table.game_id


def receipt(i: int) -> bytes:
    """Seat 0's (the relay's) receipt of entry ``i`` of the game."""
    table = Table()
    for raw in game().log[:i]:
        table.receive(raw)
    return sign_entry(game().peers[0].identity, open_game_id(), i, table.prev_head(i) if i else EMPTY_HEAD,
                      game().log[i])


def admit(node: Node, router: FakeRouter, rid: bytes, s: int) -> None:
    """Seat ``s`` says hello on connection ``rid`` of ``node``'s ROUTER."""
    who = game().peers[s].identity
    node.relay.handle([rid, encode("hi", NET_VERSION)])
    (challenge,) = router.to(rid, "challenge")
    name = ("Anna", "Boris")[s]
    node.relay.handle([rid, encode("hello", NET_VERSION, name, who.public, challenge[2], *HERE,
                                   sign_hello(who, name, node.identity.public, challenge[2], HERE))])


# ------------------------------------------------------------------ relay side


def test_the_router_sends_queued_entries_only_once_they_are_durable(tmp_path: Path) -> None:
    node, router, _ = seat(tmp_path, 0, 10)
    durable: list[int] = []
    node.relay.router.queue([b"\0a", b"\0b"], frames.Entry(9, game().log[9], receipt(9)))
    assert router.sent == []
    node.relay.router.flush(lambda: durable.append(len(router.sent)))
    assert durable == [0] and [r for r, _, _ in router.sent] == [b"\0a", b"\0b"]
    node.relay.router.flush(lambda: durable.append(-1))  # nothing queued: no fsync
    assert durable == [0]


def test_admission_keeps_the_lobby_and_drops_a_silent_member(tmp_path: Path) -> None:
    host = Host(HostOptions(DataDir(tmp_path / "h"), "Anna", players=3), lambda v, s: None, Console(True))
    router = FakeRouter()
    host.relay.router.sock = router  # type: ignore[assignment]
    admit(host, router, b"\0b", 1)
    assert host.lobby.names == ["Anna", "Boris"] and router.to(b"\0b", "welcome")[0][0] == -1
    assert router.to(b"\0b", "lobby")[-1][0] == ["Anna", "Boris"]
    c = host.relay.admission.connections
    c.heard[b"\0b"] = time.monotonic() - LOBBY_SILENT_S - 1
    host.relay.admission.drop_silent_members()
    assert host.lobby.names == ["Anna"] and b"\0b" not in c.known


def test_the_lobby_seats_only_members_heard_since_it_filled(tmp_path: Path) -> None:
    """The roll call: a full lobby starts once every member has been heard
    after it filled; one never heard again is dropped and the lobby waits."""
    host = Host(HostOptions(DataDir(tmp_path / "h"), "Anna", players=2), lambda v, s: None, Console(True))
    router = FakeRouter()
    host.relay.router.sock = router  # type: ignore[assignment]
    admit(host, router, b"\0b", 1)
    c = host.relay.admission.connections
    called = len(router.to(b"\0b", "lobby"))
    assert host.lobby_step() and host.table is None  # full, but Boris has not answered the roll call yet
    # The roll call is a lobby frame to every member, sent once, when the lobby fills.
    assert len(router.to(b"\0b", "lobby")) == called + 1
    assert host.lobby_step() and len(router.to(b"\0b", "lobby")) == called + 1
    c.heard[b"\0b"] = time.monotonic() - LOBBY_SILENT_S - 1  # and never will: his process died
    assert host.lobby_step() and host.table is None and host.lobby.names == ["Anna"]
    admit(host, router, b"\0c", 1)  # he comes back on a new connection: a new roll call
    assert host.lobby_step() and host.table is None
    host.relay.handle([b"\0c", frames.encode_frame(frames.Ping(0))])
    assert not host.lobby_step() and host.table is not None and host.names == ("Anna", "Boris")


def test_a_lobby_member_answers_the_roll_call_at_once(tmp_path: Path) -> None:
    """A member answers every lobby frame with a ping, so the host's roll call
    ends one round trip after the lobby fills, not at the next heartbeat."""
    node = Node(NodeOptions(DataDir(tmp_path), "127.0.0.1", 1, "Boris"), lambda v, s: None, Console(True))
    dealer = FakeDealer()
    node.uplink.sock = dealer  # type: ignore[assignment]
    node.handle(frames.encode_frame(frames.LobbyNews(("Anna", "Boris"), 2, False)))
    assert dealer.sent == [("ping", [0])]


def test_the_sequencer_orders_what_the_table_takes_and_returns_the_rest(tmp_path: Path) -> None:
    """An accepted envelope gets the next index, our receipt on disk and a
    queued entry for each seat; a refused one goes back to its author only."""
    node, router, _ = seat(tmp_path, 0, 12)
    admit(node, router, b"\0b", 1)
    table = node.table
    assert table is not None and node.store is not None
    raw = game().log[12]
    assert node.relay.sequencer.sequence(raw, b"\0b")
    assert table.log[12] == raw and node.store.receipts()[12][0] == entry_hash(raw)
    ((rid, frame),) = node.relay.router.queued
    assert rid == b"\0b" and frames.decode(frame, frames.TO_PEER)[1][0] == 12
    assert not node.relay.sequencer.sequence(raw, b"\0b")  # a replay
    assert router.to(b"\0b", "rejected")[0][1] == "replay" and len(table.log) == 13


def test_envelopes_held_back_are_bounded_and_sequenced_in_order(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    node, router, _ = seat(tmp_path, 0, 12)
    monkeypatch.setattr(sequencer, "MAX_HELD_BACK", 2)
    seq = node.relay.sequencer
    for raw in game().log[12:15]:
        seq.hold_back(b"\0b", raw)
    assert [raw for _, raw in seq.held_back] == game().log[12:14]  # the third is dropped
    seq.release()
    assert node.table is not None and node.table.log[12:14] == game().log[12:14] and seq.held_back == []


def test_catch_up_sends_each_entry_under_its_relays_receipt(tmp_path: Path) -> None:
    node, router, _ = seat(tmp_path, 1, 20)  # seat 1 holds seat 0's receipts
    admit(node, router, b"\0a", 0)
    node.relay.catchup.catch_up(b"\0a", 15, lambda: None)
    sent = router.to(b"\0a", "entry")
    assert [e[0] for e in sent] == list(range(15, 20)) and all(e[2] == receipt(e[0]) for e in sent)


def test_a_new_catch_up_goes_back_at_once_then_coalesces_asks_that_go_back(tmp_path: Path) -> None:
    """A follower whose first entries show it a fork asks for the whole log
    at once (follower.check_for_fork): a catch-up just begun goes back for
    it; asks that go back again within REWIND_S are the ask under way."""
    node, router, _ = seat(tmp_path, 1, 20)
    admit(node, router, b"\0a", 0)
    catchup = node.relay.catchup
    catchup.catch_up(b"\0a", 18, lambda: None)
    catchup.catch_up(b"\0a", 0, lambda: None)  # at once: served
    assert [e[0] for e in router.to(b"\0a", "entry")] == [18, 19, *range(20)]
    catchup.catch_up(b"\0a", 5, lambda: None)  # right after: coalesced
    assert len(router.to(b"\0a", "entry")) == 22


def test_a_follower_fetches_and_adopts_nothing_behind_its_loops_back(tmp_path: Path) -> None:
    """Only a gated relay, or the successor from a seat that turned to it, takes entries outside the log."""
    node, router, _ = seat(tmp_path, 1, 20)
    admit(node, router, b"\0a", 0)
    catchup = node.relay.catchup
    assert not catchup.may_fetch_from(0)
    catchup.adopt(b"\0a", 20, game().log[20], receipt(20))
    assert node.table is not None and len(node.table.log) == 20


def test_a_standby_ignores_follow_requests_while_it_is_not_the_successor(tmp_path: Path) -> None:
    """In a 2-player game seat 1 is the successor of seat 0, but seat 0 has
    no one to ask; a request from the relay itself is not one."""
    node, router, _ = seat(tmp_path, 1, 20)
    admit(node, router, b"\0a", 0)
    table = node.table
    assert table is not None and table.game_id is not None
    request = sign_follow(game().peers[0].identity, 0, table.game_id, 0, 0, 1, 20, table.head)
    node.relay.standby.follow(b"\0a", request.length, request.head, request.signature)
    assert node.relay.requests == {} and not node.relay.standby.all_requested()


def test_the_relay_says_who_is_silent_in_every_game_and_passes_on_who_gave_up(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without escrow too, each heartbeat is followed by `silent` (how a
    follower tells a player thinking from one gone); a seat's `give_up` is
    said on the relay's screen and passed on to every other connection, and
    our own giving up goes to every connection."""
    node, router, _ = seat(tmp_path, 0, 20)
    admit(node, router, b"\0b", 1)
    assert node.table is not None and not node.table.escrow
    node.relay.since = time.monotonic() - 30 * node.relay.silence_s  # we relayed long before
    node.relay.beat()
    assert router.to(b"\0b", "silent") == [[[]]]  # admitted just now: heard
    node.relay.admission.connections.heard[b"\0b"] = time.monotonic() - 300.5
    node.relay.beat()
    # The word says for how long: a follower that hears it only now shows all of it.
    assert router.to(b"\0b", "silent")[-1] == [[[1, 300]]] and int(node.presence.silent_for(1) or 0) == 300
    # A seat not heard at all since we began relaying counts from then (all we know of it).
    del node.relay.admission.connections.heard[b"\0b"]
    node.relay.beat()
    assert router.to(b"\0b", "silent")[-1] == [[[1, int(30 * node.relay.silence_s)]]]
    boris = sign_gave_up(game().peers[1].identity, node.table.game_id, SeatGaveUp(1, Why.WITHHELD, (0,), 30))
    node.relay.handle([b"\0c", frames.encode_frame(frames.GiveUp(Why.WITHHELD, (0,), 30, boris))])  # not admitted
    assert router.to(b"\0c", "challenge") and 1 not in node.presence.gave_up
    node.relay.handle([b"\0b", frames.encode_frame(frames.GiveUp(Why.WITHHELD, (0,), 30, boris))])
    assert node.presence.gave_up[1] == SeatGaveUp(1, Why.WITHHELD, (0,), 30)
    assert "Boris gave up on the game and left: you stayed connected but withheld for 30 seconds" \
        in capsys.readouterr().err
    assert router.to(b"\0b", "gave_up") == []  # not echoed to the seat that left
    with pytest.raises(PeerExit, match="giving up"):
        node.give_up(GiveUpVerdict(Why.SILENT, (1,), 40, GaveUpStalled(40.0, (1,), Why.SILENT, (1,), 40, "game.log")))
    [[*ours, signature]] = router.to(b"\0b", "gave_up")
    assert ours == [0, "silent", [1], 40]
    assert gave_up_signed(node.identity.public, signature, node.table.game_id, SeatGaveUp(0, Why.SILENT, (1,), 40))


def test_a_follower_hears_who_is_silent_and_who_gave_up(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    node, _, dealer = seat(tmp_path, 1, 20)
    node.follower.handle(frames.encode_frame(frames.Silent(((0, 45),))))
    assert int(node.presence.silent_for(0) or 0) == 45 and node.duties.silent[0] == (0,)
    assert node.table is not None
    news = SeatGaveUp(0, Why.SILENT, (1,), 121)
    anna = sign_gave_up(game().peers[0].identity, node.table.game_id, news)
    node.follower.handle(frames.encode_frame(frames.GaveUp(0, Why.SILENT, (1,), 121, anna)))
    assert node.presence.gave_up[0] == news
    assert "Anna gave up on the game and left: no heartbeat came from you for 121 seconds" in capsys.readouterr().err
    node.follower.handle(frames.encode("gave_up", 3, "silent", [1], 5, anna))  # no such seat: said nowhere
    assert 3 not in node.presence.gave_up
    with pytest.raises(PeerExit):
        node.give_up(GiveUpVerdict(Why.WITHHELD, (0,), 30, GaveUpHeldBack(30.0, 0)))
    kind, [*ours, signature] = dealer.sent[-1]
    assert (kind, ours) == ("give_up", ["withheld", [0], 30])
    assert gave_up_signed(node.identity.public, signature, node.table.game_id, SeatGaveUp(1, Why.WITHHELD, (0,), 30))


def test_a_follower_says_when_the_peer_it_follows_sends_nothing(tmp_path: Path) -> None:
    """What the status line is told of the peer we follow: nothing while it
    talks (heartbeats count), while we relay, or while frames wait that our
    busy loop has not read; once it had sent nothing for HOST_SILENT_S when
    we last read, who it is (the host, by seat) and for how long."""
    node, _, _ = seat(tmp_path, 1, 20)
    up = node.uplink
    up.heard = up.drained = time.monotonic()
    assert node.follower.relay_silence() is None
    up.heard = up.drained = time.monotonic() - 60.0  # our loop was busy for a minute: its frames wait unread
    assert node.follower.relay_silence() is None
    up.drained = up.heard + HOST_SILENT_S + 7.5  # read everything: nothing had come for that long
    node.uplink.seat = 0
    assert node.follower.relay_silence() == RelaySilence(Dialled.HOST, 0, int(HOST_SILENT_S + 7.5))
    node.uplink.seat = None  # the address we were given: the host, seat 0
    assert node.follower.relay_silence() == RelaySilence(Dialled.HOST, 0, int(HOST_SILENT_S + 7.5))
    node.uplink.seat = 1  # a seat that is not the relay: after a hand-over, the seat that relays next
    assert node.follower.relay_silence() == RelaySilence(Dialled.NEXT_RELAY, 1, int(HOST_SILENT_S + 7.5))
    relay, _, _ = seat(tmp_path, 0, 20)
    relay.uplink.heard, relay.uplink.drained = time.monotonic() - 60.0, time.monotonic()
    assert relay.relaying and relay.follower.relay_silence() is None  # we relay: we follow nobody


# ------------------------------------------------------------------ our side


def test_the_uplink_never_blocks_and_forgets_what_the_last_peer_said(tmp_path: Path) -> None:
    node, _, _ = seat(tmp_path, 1, 5)
    up = node.uplink
    up.sock = None
    up.send(frames.Ping(5))  # no connection: dropped, never raised
    up.public, up.challenge, up.welcomed, up.length = b"k" * 32, b"c" * 32, True, 99
    node.uplink.context = __import__("zmq").Context()
    try:
        up.connect("127.0.0.1", 9, 0, watch_reach=False, our_length=5)
        assert (up.public, up.challenge, up.welcomed, up.length, up.seat) == (None, None, False, 5, 0)
    finally:
        up.disconnect()
        node.uplink.context.destroy(linger=0)


def test_the_follower_takes_an_entry_only_at_the_next_index_under_its_relays_receipt(tmp_path: Path) -> None:
    node, _, dealer = seat(tmp_path, 1, 20)
    node.uplink.public = game().peers[0].identity.public
    follower, table = node.follower, node.table
    assert table is not None
    follower.entry(21, game().log[21], receipt(21))  # a gap: ask for what is missing
    assert len(table.log) == 20 and dealer.sent[-1] == ("sync", [20])
    follower.entry(20, game().log[20], b"\0" * 64)  # not the relay's receipt: dropped
    assert len(table.log) == 20
    follower.entry(20, game().log[20], receipt(20))
    assert len(table.log) == 21 and node.store is not None and node.store.receipts()[20][1] == receipt(20)


def test_the_follower_turns_two_signed_entries_at_one_index_into_a_proof(tmp_path: Path) -> None:
    node, _, _ = seat(tmp_path, 1, 20)
    table = node.table
    assert table is not None and table.game_id is not None
    other = game().log[18]  # signed by the relay at index 19, after the same head: equivocation
    sig = sign_entry(game().peers[0].identity, table.game_id, 19, table.prev_head(19), other)
    with pytest.raises(PeerExit, match="equivocated"):
        node.follower.conflict(19, other, sig)
    assert list((node.store.path if node.store else tmp_path).glob("equivocation-19.bin"))


def test_our_seat_sends_only_to_the_relay_once_caught_up_and_counts_refusals(tmp_path: Path) -> None:
    node, _, _ = seat(tmp_path, 1, 20)
    duties, up = node.duties, node.uplink
    assert not duties.ready_to_send()  # not welcomed yet
    up.welcomed, up.length, up.seat = True, 25, None
    assert not duties.ready_to_send()  # the relay holds more than we do
    up.length = 20
    assert duties.ready_to_send()
    up.seat = 1  # a seat that is not the relay
    assert not duties.ready_to_send()
    for k in range(4):
        duties.pending[bytes([k]) * 32] = game().log[k]  # any signed envelope that is not a carry-on request
        duties.refused(bytes([k]) * 32, "replay", "seen")
    duties.pending[b"\4" * 32] = game().log[4]
    with pytest.raises(PeerExit, match="keeps refusing"):
        duties.refused(b"\4" * 32, "replay", "seen")


def test_silence_moves_the_relay_only_in_an_escrow_game(tmp_path: Path) -> None:
    node, _, _ = seat(tmp_path, 1, 20)
    node.uplink.heard = time.monotonic() - 10 * node.succession.relay_timeout
    assert node.table is not None and not node.table.escrow
    assert not node.succession.relay_gone(time.monotonic())  # its shares open every card: we wait for it


def test_the_players_move_reaches_the_table_once_and_end_pauses(tmp_path: Path) -> None:
    node, _, _ = seat(tmp_path, 1, 5)
    given: list[object] = [PlayerMove(DrawBlind(1)), None, InputClosed()]

    class Channel:
        def take(self) -> object:
            return given.pop(0)

        def turned(self) -> None:
            pass

    channel = Channel()
    assert node.input.take(channel) and node.duties.recheck_outbox  # type: ignore[arg-type]
    assert node.input.choose(None, 1) == DrawBlind(1) and node.input.choose(None, 1) is None  # type: ignore[arg-type]
    assert node.input.take(channel)  # type: ignore[arg-type]
    assert not node.input.take(channel)  # type: ignore[arg-type]
    given.append(Leave())
    with pytest.raises(Quit):
        node.input.take(channel)  # type: ignore[arg-type]


def test_drops_are_said_once_per_kind_then_counted() -> None:
    from p2p_ttr.client.doorfacts import Door, DoorDetail, DoorKind
    from p2p_ttr.client.networds import word_notice
    from p2p_ttr.net.droplog import DropLog

    said: list[str] = []
    clock = [0.0]
    drops = DropLog(lambda notice: said.append(word_notice(notice, ("Ann",))), every=10.0, clock=lambda: clock[0])
    for _ in range(1000):
        drops.drop(DoorKind(Door.BAD_FRAME), DoorDetail("not msgpack"))
    drops.drop(DoorKind(Door.MESSAGE_REFUSED, 0, "replay"), DoorDetail("seat 1 already sent message 4"))
    assert len(said) == 2 and said[0].startswith("dropped a bad frame: not msgpack")
    assert said[1] == ("refused a message from Ann (replay): seat 1 already sent message 4 (more like it are "
                       "counted, and said every 10 s)")
    clock[0] = 10.5
    drops.tick()
    assert said[-1] == "dropped a bad frame: 999 more in the last 10 s" and len(said) == 3
    drops.tick()
    assert len(said) == 3  # nothing new: nothing said
    drops.drop(DoorKind(Door.BAD_FRAME), DoorDetail("not msgpack"))
    drops.flush_all()  # we stop before the next summary is due: it is said now
    assert said[-1] == "dropped a bad frame: 1 more in the last 0 s" and len(said) == 4


def test_an_author_gives_a_new_relay_its_full_time_for_what_the_old_one_held_back() -> None:
    """The author of a message the old relay held back (shown to the others
    at 1.5 H, counted as held back 1.5 H later) sends it again to the new relay after the
    hand-over: the new relay's time starts then. Counted from the first
    send, the author turned away from the new relay the moment it took over
    (to a seat that could not be reached) and the game stalled."""
    from types import SimpleNamespace

    from p2p_ttr.net.seatduties import SeatDuties
    from p2p_ttr.net.witness import OurHeldBack

    held_s, digest, raw = 4.0, b"d" * 32, b"envelope"
    duties: Any = SimpleNamespace(replica=SimpleNamespace(relaying=False), pending={digest: raw},
                                  sent_at={digest: 0.0})
    duties.overdue = functools.partial(SeatDuties.overdue, duties)
    duties.restart_clocks = functools.partial(SeatDuties.restart_clocks, duties)
    witnesses = OurHeldBack(None, duties, None, "J2", None, held_s, None,  # type: ignore[arg-type]
                          relay_alive=lambda now: True, resend=lambda raw: None)
    witnesses._told.add(digest)  # shown to the others at 1.5 H
    witnesses._first_shown[digest] = 1.5 * held_s
    assert witnesses.relay_holds_back(3 * held_s)
    witnesses.new_relay(3 * held_s)  # the relay moved
    assert not witnesses.relay_holds_back(3 * held_s + 0.1)
    assert not witnesses.relay_holds_back(5 * held_s + 0.1)  # not shown to anyone for the new relay yet
    assert duties.overdue(3 * held_s + 0.5, held_s) == []
    assert duties.overdue(4 * held_s + 0.5, held_s) == [(digest, raw, held_s + 0.5)]


def test_an_author_lets_the_seats_it_showed_its_message_name_the_relay_first() -> None:
    """The seats an author shows a held-back message wait ``H`` for the
    relay to sequence it before they name the relay. The author turns away
    from the relay only ``1.5 H`` after it first showed it, so that they
    have said so first (turning at ``2 H`` after sending, half an ``H``
    after showing, the author moved the relay of a 3-seat game before the
    other seat had named it); a message it could show no seat, at ``3 H``."""
    from types import SimpleNamespace

    from p2p_ttr.net.seatduties import SeatDuties
    from p2p_ttr.net.witness import OurHeldBack

    held_s, digest, raw = 4.0, b"d" * 32, b"envelope"
    duties: Any = SimpleNamespace(replica=SimpleNamespace(relaying=False), pending={digest: raw},
                                  sent_at={digest: 0.0})
    duties.overdue = functools.partial(SeatDuties.overdue, duties)
    witnesses = OurHeldBack(None, duties, None, "J2", None, held_s, None,  # type: ignore[arg-type]
                          relay_alive=lambda now: True, resend=lambda raw: None)
    witnesses._told.add(digest)
    assert not witnesses.relay_holds_back(2.9 * held_s)  # shown to no seat yet
    assert witnesses.relay_holds_back(3 * held_s)
    witnesses._first_shown[digest] = 2 * held_s  # a seat's connection took a while to be admitted
    assert not witnesses.relay_holds_back(3 * held_s)  # that seat waits until 3 H before it names the relay
    assert not witnesses.relay_holds_back(3.4 * held_s)
    assert witnesses.relay_holds_back(3.5 * held_s)
    quiet = OurHeldBack(None, duties, None, "J2", None, held_s, None,  # type: ignore[arg-type]
                      relay_alive=lambda now: False, resend=lambda raw: None)
    quiet._told.add(digest)
    quiet._first_shown[digest] = 1.5 * held_s
    assert not quiet.relay_holds_back(5 * held_s)  # a silent relay is silence, not holding back
