"""The host's sequencer and a peer's checks, driven without sockets."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from p2p_ttr.client.livenessfacts import Awaited, WaitingFor
from p2p_ttr.client.networds import word_notice
from p2p_ttr.net import frames
from p2p_ttr.net.console import Console
from p2p_ttr.net.frames import NET_VERSION, encode
from p2p_ttr.net.host import Host, HostOptions
from p2p_ttr.net.lobby import sign_hello
from p2p_ttr.net.node import Node, NodeExit, NodeOptions
from p2p_ttr.net.pause import sign_pause
from p2p_ttr.net.seqsig import EMPTY_HEAD, entry_hash, entry_signed, prev_head, sign_entry
from p2p_ttr.net.store import DataDir
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.messages import Seat
from p2p_ttr.table.peer import Peer

HERE = ("127.0.0.1", 7311)  # the address a hello says it dialled (a fake router listens there)

GID = bytes(range(16))


class FakeSocket:
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


def test_host_lobby_sequencing_and_refusals(tmp_path: Path) -> None:
    host = Host(HostOptions(DataDir(tmp_path / "host"), "H", players=2), lambda v, s: None, Console(True))
    sock = FakeSocket()
    host.relay.router.sock = sock  # type: ignore[assignment]
    joiner = Identity.generate()
    rid, other_conn = b"\x00conn1", b"\x00conn2"
    host.relay.handle([rid, encode("ping", 0)])  # unknown connection: challenged
    (challenge,) = sock.to(rid, "challenge")
    nonce = challenge[2]
    assert challenge[1] == host.identity.public and len(nonce) == 32
    hello = encode("hello", NET_VERSION, "J", joiner.public, nonce, *HERE, sign_hello(joiner, "J", host.identity.public, nonce, HERE))
    host.relay.handle([other_conn, hello])  # the same hello on another connection admits nobody
    assert not sock.to(other_conn, "welcome") and other_conn not in host.relay.admission.connections.known
    (other_challenge,) = sock.to(other_conn, "challenge")  # that connection is given its own
    assert other_challenge[2] != nonce
    host.relay.handle([rid, encode("hi", NET_VERSION)])  # asked again before answering: the same challenge
    assert [c[2] for c in sock.to(rid, "challenge")] == [nonce, nonce]
    host.relay.handle([rid, hello])
    assert sock.to(rid, "welcome")[0][0] == -1 and host.lobby.names == ["H", "J"]
    host.relay.handle([rid, hello])  # a challenge is used once
    assert len(sock.to(rid, "welcome")) == 1
    host.start()
    assert host.table is not None and host.table.game_id is not None
    host.act()  # the host's keys
    entries = sock.to(rid, "entry")
    assert [e[0] for e in entries] == [0, 1]
    prev = EMPTY_HEAD
    for index, raw, sig in entries:
        assert entry_signed(host.identity.public, host.table.game_id, index, prev, raw, sig)
        prev = prev_head(host.table, index + 1)
    host.relay.handle([rid, encode("env", b"junk")])
    (rejected,) = sock.to(rid, "rejected")
    assert rejected[1] == "malformed" and host.table.rejected
    assert len(sock.to(rid, "entry")) == 2  # nothing relayed
    other, late = Identity.generate(), b"\x00conn3"
    host.relay.handle([late, encode("hi", NET_VERSION)])
    (late_challenge,) = sock.to(late, "challenge")
    host.relay.handle([late, encode("hello", NET_VERSION, "K", other.public, late_challenge[2], *HERE,
                              sign_hello(other, "K", host.identity.public, late_challenge[2], HERE))])
    assert "started" in sock.to(late, "refused")[0][1]
    host.relay.handle([rid, encode("sync", 0)])  # catch-up resends from the log with the same signatures
    assert sock.to(rid, "entry")[2:] == entries
    # A resumed host (gated) takes an entry back only at its log's end and under its own signature.
    host.relay.catchup.gated = True
    assert host.relay.admission.connections.known[rid] == 1  # a seat: what it sends back is looked at
    length, relayed = len(host.table.log), len(sock.sent)
    host.relay.handle([rid, encode("have", length, b"junk", sign_entry(joiner, host.table.game_id, length,
                                                                 host.table.head, b"junk"))])  # the joiner's
    host.relay.handle([rid, encode("have", length, entries[0][1], entries[0][2])])  # signed, but as entry 0
    host.relay.handle([rid, encode("have", length + 1, entries[1][1], entries[1][2])])  # not at our log's end
    assert len(host.table.log) == length and len(sock.sent) == relayed


def test_peer_halts_when_the_host_signs_an_entry_the_table_refuses(tmp_path: Path) -> None:
    host, data = Identity.generate(), DataDir(tmp_path)
    node = Node(NodeOptions(data, "127.0.0.1", 1, "P"), lambda v, s: None, Console(True))
    node.uplink.public = host.public
    seats = (Seat("H", host.public), Seat("P", data.identity().public))
    seating = Peer(0, host, lambda v, s: None).open_game(seats, GID)
    node.follower.entry(0, seating, sign_entry(host, GID, 0, EMPTY_HEAD, seating))
    assert node.table is not None
    again = Peer(0, host, lambda v, s: None).open_game(seats, GID)  # a second seating is never valid
    with pytest.raises(NodeExit, match="host misbehaved"):
        node.follower.entry(1, again, sign_entry(host, GID, 1, node.table.head, again))


def test_a_joiner_stops_only_for_a_pause_its_host_signed_on_this_connection(tmp_path: Path) -> None:
    """A pause makes a joiner stop and exit: only the host's own, signed over
    the challenge of this connection, counts (another key's, or one replayed
    from another connection, is dropped and changes nothing)."""
    host, stranger, challenge = Identity.generate(), Identity.generate(), b"c" * 32
    node = Node(NodeOptions(DataDir(tmp_path), "127.0.0.1", 1, "P"), lambda v, s: None, Console(True))
    node.uplink.public, node.uplink.challenge = host.public, challenge
    node.handle(encode("pause", 0, sign_pause(stranger, challenge, None, 0)))
    node.handle(encode("pause", 0, sign_pause(host, b"d" * 32, None, 0)))
    assert node.paused is None
    with pytest.raises(NodeExit, match="closed its lobby"):
        node.handle(encode("pause", 0, sign_pause(host, challenge, None, 0)))


def seat_node(tmp_path: Path, me: Identity, name: str, table: Any) -> tuple[Node, FakeSocket, Any]:
    """``me``'s Node on ``table`` (its game folder opened), its ROUTER a FakeSocket."""
    from p2p_ttr.net.store import GameStore

    data = DataDir(tmp_path / name)
    (data.path / "identity.key").write_bytes(me.to_bytes())
    node = Node(NodeOptions(data, "127.0.0.1", 1, name), lambda v, s: None, Console(True))
    sock = FakeSocket()
    node.relay.router.sock = sock  # type: ignore[assignment]
    assert table.game_id is not None
    store = GameStore(data.path / "games" / table.game_id.hex(), table.game_id)
    store.open()
    return node, sock, store


def admit(node: Node, sock: FakeSocket, rid: bytes, who: Identity, name: str) -> None:
    """``who`` says hello on connection ``rid`` of ``node``'s ROUTER."""
    node.relay.handle([rid, encode("hi", NET_VERSION)])
    (challenge,) = sock.to(rid, "challenge")
    node.relay.handle([rid, encode("hello", NET_VERSION, name, who.public, challenge[2], *HERE,
                                   sign_hello(who, name, node.identity.public, challenge[2], HERE))])


def test_the_successor_takes_over_only_with_every_request_and_the_longest_log(tmp_path: Path) -> None:
    """Seat 0 (the relay) forfeits in a 3-seat game. Seat 1, its successor,
    admits seat 2, drops a follow request that is not seat 2's signature,
    asks seat 2 for the entries it holds beyond its own log, and takes over
    once it holds them and the request: its relay entry is sequenced under
    its own receipt and relayed to seat 2."""
    sys.path.insert(0, str(Path(__file__).parent.parent / "table"))  # its cached games
    from test_forfeit import folded, forfeit_index, game

    from p2p_ttr.table.relaying import sign_follow

    g = game(3, 0, 20)
    f = forfeit_index(g.log)
    table = folded(g.log, f)  # seat 1 lacks the forfeit entry, which seat 2 holds
    assert table.game_id is not None and g.peers[1].table.me is not None
    node, sock, store = seat_node(tmp_path, g.peers[1].identity, "Boris", table)
    relay0 = g.peers[0].identity
    for i, raw in enumerate(g.log[:f]):
        store.append(raw)
        store.add_receipt(i, entry_hash(raw), sign_entry(relay0, table.game_id, i, prev_head(table, i), raw))
    table.me = g.peers[1].table.me
    node.use_table(table, store)
    try:
        rid, seat2 = b"\x00seat2", g.peers[2].identity
        admit(node, sock, rid, seat2, "Chiara")
        assert sock.to(rid, "welcome")[0][0] == 2 and not node.relaying
        longer = folded(g.log, f + 1)
        assert longer.relay_gone and longer.successor == 1
        request = sign_follow(seat2, 2, table.game_id, 0, 0, 1, f + 1, longer.head)
        node.relay.handle([rid, encode("follow", request.length, request.head, b"\0" * 64)])
        assert node.relay.requests == {}  # not seat 2's signature
        node.relay.handle([rid, encode("follow", request.length, request.head, request.signature)])
        assert node.relay.requests == {2: request} and sock.to(rid, "fetch") == [[f]]
        assert not node.relay.standby.ready_to_take_over(lambda seats, awaited: None)  # seat 2 holds the forfeit
        node.relay.handle([rid, encode("have", f, g.log[f], sign_entry(relay0, table.game_id, f, table.head,
                                                                        g.log[f]))])
        assert len(table.log) == f + 1 and table.relay_gone
        node.succession.turned, node.uplink.seat = True, 1
        node.succession.take_over(0.0)
        assert node.relaying and table.relay == 1 and [(h.old, h.new) for h in table.handovers] == [(0, 1)]
        (entry,) = sock.to(rid, "entry")
        assert entry[0] == f + 1 and entry_signed(g.peers[1].identity.public, table.game_id, f + 1,
                                                  prev_head(table, f + 1), entry[1], entry[2])
    finally:
        store.close()


class OldRelay:
    """Seat 0, the old relay, holding entry ``i`` that nobody else got, and
    the hand-over at ``i`` its successor (seat 1) took with seat 2's request
    (``extra`` entries from ``i`` on that nobody else got: seat 0 signed them)."""

    def __init__(self, tmp_path: Path, i: int = 120, extra: int = 1) -> None:
        sys.path.insert(0, str(Path(__file__).parent.parent / "table"))
        from test_carry_on import game
        from test_forfeit import folded

        from p2p_ttr.table.relaying import sign_follow

        g = game(3, ())  # an escrow game: a relay in play may be replaced, with every other seat's request
        i = self.i = i
        table = folded(g.log, i + extra)  # ``extra`` entries past the new relay's prefix
        assert table.game_id is not None and g.peers[0].table.me is not None
        self.g, self.table = g, table
        self.node, _, self.store = seat_node(tmp_path, g.peers[0].identity, "Anna", table)
        self.store.save_secrets(g.peers[0].table.me)
        for raw in g.log[: i + extra]:
            self.store.append(raw)
        table.me = g.peers[0].table.me
        self.node.use_table(table, self.store)
        prefix = folded(g.log, i)
        receipt = sign_entry(g.peers[0].identity, table.game_id, i - 1, prefix.prev_head(i - 1), g.log[i - 1])
        successor = Peer(1, g.peers[1].identity, lambda v, s: None)
        successor.table, successor.seq = prefix, prefix.last_seq[1]
        request = sign_follow(g.peers[2].identity, 2, table.game_id, 0, 0, 1, i, prefix.head)
        self.relay_raw = successor.take_relay(receipt, (request,))
        self.sig = sign_entry(g.peers[1].identity, table.game_id, i, prefix.head, self.relay_raw)
        self.node.uplink.public = g.peers[1].identity.public

    def cut_back(self) -> None:
        """Seat 0's log was cut back to the hand-over, on disk too, and it follows seat 1."""
        node, i = self.node, self.i
        assert node.table is not self.table and len(node.table.log) == i + 1 and node.table.relay == 1
        assert node.table.log[i] == self.relay_raw and not node.relaying
        assert self.store.stored_entries() == self.g.log[:i] + [self.relay_raw]


def test_an_old_relay_drops_what_only_it_held_for_a_valid_hand_over(tmp_path: Path) -> None:
    """The old relay (seat 0) holds an entry at index i that nobody else got;
    the new relay's hand-over is at i. A forged one changes nothing; the real
    one (signed by the successor, with seat 0's receipt of entry i-1) cuts
    seat 0's log back to i, on disk too, and seat 0 follows the new relay."""
    old = OldRelay(tmp_path)
    node, i = old.node, old.i
    try:
        node.follower.entry(i, old.relay_raw, b"\0" * 64)  # not the successor's signature: dropped
        assert len(node.table.log) == i + 1 and node.table.relay == 0
        node.follower.entry(i, old.relay_raw, old.sig)
        old.cut_back()
    finally:
        old.store.close()


class SentUp:
    """A DEALER that keeps what is sent on it."""

    def __init__(self) -> None:
        self.frames: list[tuple[str, list[Any]]] = []

    def send(self, data: bytes, flags: int = 0) -> None:
        self.frames.append(frames.decode(data, frames.TO_HOST))

    def close(self, linger: int = 0) -> None:
        pass


def test_an_old_relay_welcomed_into_a_log_no_longer_than_its_own_finds_the_hand_over(tmp_path: Path) -> None:
    """Found by the suite (it stalled once): the old relay, resumed, probes
    its successor, whose log (the hand-over, then a game that stalled
    without the old relay) is no longer than its own. Asked from the old
    relay's length, the successor had nothing to send, and each waited for
    the other. Welcomed, the old relay asks for the whole log: the entry
    where the two differ is the hand-over, which cuts its log back."""
    old = OldRelay(tmp_path)
    node, i, table = old.node, old.i, old.table
    assert node.relaying and table.game_id is not None
    try:
        node.uplink.sock = up = SentUp()  # type: ignore[assignment]
        node.follower.handle(encode("welcome", 0, table.game_id, i + 1, []))
        assert ("sync", [0]) in up.frames
        theirs = old.g.log[:i] + [old.relay_raw]
        for index, raw in enumerate(theirs):  # what the successor sends for that sync, as catch_up does
            sig = old.sig if index == i else sign_entry(old.g.peers[0].identity, table.game_id, index,
                                                         table.prev_head(index), raw)
            node.follower.handle(encode("entry", index, raw, sig))
        old.cut_back()
    finally:
        old.store.close()


def test_a_sync_past_our_end_is_answered_with_our_length(tmp_path: Path) -> None:
    """Item 11 of issue 42: an old relay restarted asked its successor for
    the entries from its own length, past the successor's end; the ask was
    dropped in silence and each waited for the other. Now the answer is
    our length (a ping), at once; an ask within our log is served."""
    old = OldRelay(tmp_path)
    node, sock = old.node, node_router(old.node)
    try:
        rid = b"\x00seat2"
        admit(node, sock, rid, old.g.peers[2].identity, "Chiara")
        node.relay.handle([rid, encode("sync", old.i + 9)])
        assert sock.to(rid, "ping") == [[old.i + 1]] and sock.to(rid, "entry") == []
        node.relay.handle([rid, encode("sync", old.i)])
        assert [e[0] for e in sock.to(rid, "entry")] == [old.i]
    finally:
        old.store.close()


def node_router(node: Node) -> FakeSocket:
    sock = node.relay.router.sock
    assert isinstance(sock, FakeSocket)
    return sock


def test_an_old_relay_told_its_successor_holds_less_asks_for_the_whole_log_again(tmp_path: Path) -> None:
    """The old relay holds two entries past the hand-over, so its successor
    holds less. Its whole-log ask on the welcome may be coalesced or lost
    (the successor serves one rewind per 2 s); then nothing would ever
    come: the successor says only its length, shorter than ours, every
    second. Told a shorter length, the old relay asks for the whole log
    again, finds the hand-over, and follows."""
    old = OldRelay(tmp_path, i=100, extra=2)
    node, i, table = old.node, old.i, old.table
    assert node.relaying and table.game_id is not None
    try:
        node.uplink.sock = up = SentUp()  # type: ignore[assignment]
        node.uplink.seat = 1
        node.follower.handle(encode("welcome", 0, table.game_id, i + 1, []))
        assert up.frames.count(("sync", [0])) == 1
        up.frames.clear()  # that ask was lost: the successor's heartbeat says its length
        node.follower.handle(encode("ping", i + 1))
        assert up.frames == [("sync", [0])]
        node.follower.handle(encode("ping", i + 1))  # the same news again: the ask under way answers it
        assert up.frames == [("sync", [0])]
        for index, raw in enumerate(old.g.log[:i] + [old.relay_raw]):
            sig = old.sig if index == i else sign_entry(old.g.peers[0].identity, table.game_id, index,
                                                         table.prev_head(index), raw)
            node.follower.handle(encode("entry", index, raw, sig))
        old.cut_back()
    finally:
        old.store.close()


def test_a_gated_old_relay_opens_only_for_logs_that_are_prefixes_of_its_own(tmp_path: Path) -> None:
    """The open question of issue 42's item 11: a gated old relay (restarted,
    its log naming it the relay) opens its gate once every seat in play has
    reported its length on its ROUTER. Seats that follow the new relay do not
    normally report there (a witness link sends no ping), and the new relay
    never does; but lengths alone could not tell, and with both reporting a
    log no longer than its own the old relay opened and wrote its old term
    past the hand-over. A ping now carries the seat's head at its length:
    a log that is not a prefix of ours keeps the gate shut, and says why;
    prefixes open it as before."""
    old = OldRelay(tmp_path)  # puts the table tests' folder on the path
    from test_forfeit import folded

    node, i, table, g = old.node, old.i, old.table, old.g
    sock = node_router(node)
    theirs = folded(g.log, i)
    theirs.receive(old.relay_raw)  # the log of every seat that followed the new relay
    assert theirs.relay == 1 and len(theirs.log) == len(table.log) == i + 1
    node.relay.catchup.gated = True  # as a resumed relay is until every seat in play reported
    notes: list[tuple[tuple[int, ...], Awaited]] = []

    def note(seats: tuple[int, ...], awaited: Awaited) -> None:
        notes.append((seats, awaited))

    try:
        for rid, seat, name in ((b"\x00seat1", 1, "Boris"), (b"\x00seat2", 2, "Chiara")):
            admit(node, sock, rid, g.peers[seat].identity, name)
            node.relay.handle([rid, frames.encode_frame(frames.reporting(len(theirs.log), theirs.head))])
        assert not node.relay.open_gate(note) and node.relay.catchup.gated
        assert notes[-1] == ((1, 2), Awaited.HOLD_OUR_LOG)
        assert word_notice(WaitingFor(*notes[-1], 4), node.names) == (
            "waiting for Boris, Chiara to hold our log: their logs differ from ours (the relay may have moved on) (4 s)")
        node.relay.handle([b"\x00seat2", frames.encode_frame(frames.Ping(i + 1))])  # a length without its head
        assert not node.relay.open_gate(note)
        for rid in (b"\x00seat1", b"\x00seat2"):  # logs one entry short of ours, a prefix of it: they follow us
            node.relay.handle([rid, frames.encode_frame(frames.reporting(i, table.prev_head(i)))])
        assert node.relay.open_gate(note) and not node.relay.catchup.gated
    finally:
        old.store.close()


def test_a_follower_takes_entries_only_from_its_relay(tmp_path: Path) -> None:
    """Found by the suite: a resumed host looks for its successor, whose
    standby relay heard the host's longer log (ping), fetched it and took
    entries into its table behind its own loop's back, so that its messages
    in flight were never seen sequenced and it fell silent. A seat that is
    not taking over fetches nothing and adopts nothing."""
    sys.path.insert(0, str(Path(__file__).parent.parent / "table"))
    from test_forfeit import folded, game

    g = game(3, 2, 8)
    i = 40
    table = folded(g.log, i)
    assert table.game_id is not None and table.successor == 1
    node, sock, store = seat_node(tmp_path, g.peers[1].identity, "Boris", table)
    node.use_table(table, store)
    try:
        rid, host = b"\x00host", g.peers[0].identity
        admit(node, sock, rid, host, "Anna")
        node.relay.handle([rid, encode("ping", i + 5)])
        assert sock.to(rid, "fetch") == []
        node.relay.handle([rid, encode("have", i, g.log[i], sign_entry(host, table.game_id, i, table.head,
                                                                        g.log[i]))])
        assert len(table.log) == i
    finally:
        store.close()


def test_a_successor_drops_a_false_word_and_does_not_stop(tmp_path: Path) -> None:
    """Found in review: a seat that turned to the successor could stop it with
    a `have` of a relay entry it signed itself (the fold refuses it), or have
    a follow request kept whose log is not a prefix of the successor's. Both
    are dropped; the successor plays on."""
    sys.path.insert(0, str(Path(__file__).parent.parent / "table"))
    from test_carry_on import game
    from test_forfeit import folded

    from p2p_ttr.table.relaying import sign_follow

    g = game(3, ())  # escrow: seat 1 is the successor of seat 0, which is in play
    i = 120
    table = folded(g.log, i)
    assert table.game_id is not None and table.successor == 1 and table.escrow
    node, sock, store = seat_node(tmp_path, g.peers[1].identity, "Boris", table)
    node.use_table(table, store)
    try:
        rid, seat2 = b"\x00seat2", g.peers[2].identity
        admit(node, sock, rid, seat2, "Chiara")
        wrong = sign_follow(seat2, 2, table.game_id, 0, 0, 1, i - 3, b"\7" * 32)
        node.relay.handle([rid, encode("follow", wrong.length, wrong.head, wrong.signature)])
        assert node.relay.requests == {}
        longer = folded(g.log, i + 2)
        request = sign_follow(seat2, 2, table.game_id, 0, 0, 1, i + 2, longer.head)
        node.relay.handle([rid, encode("follow", request.length, request.head, request.signature)])
        assert node.relay.requests == {2: request}
        # Seat 2's own "relay" entry at our log's end, signed by itself: refused by the fold, dropped.
        liar = Peer(2, seat2, lambda v, s: None)
        liar.table, liar.seq = folded(g.log, i), table.last_seq[2]
        own = liar.take_relay(b"\0" * 64, ())
        node.relay.handle([rid, encode("have", i, own, sign_entry(seat2, table.game_id, i, table.head, own))])
        assert len(table.log) == i and not node.relaying
    finally:
        store.close()
