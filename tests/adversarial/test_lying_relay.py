"""A relay that lies about silence (issue 42, item 2): in an escrow game the
followers sent `carry_on` as soon as the relay's `silent` word named a seat
they waited for, so a relay changed only in what it says had a live
player's hand and key opened 2 s into the game. Now a follower asks to
carry a seat on only once it has itself seen nothing signed by that seat
for the relay timeout, on its own clock. The interleaving is forced on a
clock of the test's own: no sleeps."""

from __future__ import annotations

import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
for folder in (HERE.parent / "net", HERE.parent / "table"):
    sys.path.insert(0, str(folder))

from test_carry_on import game as escrow_game  # noqa: E402

from p2p_ttr.net.console import Console  # noqa: E402
from p2p_ttr.net.liveness import waiting_for  # noqa: E402
from p2p_ttr.net.node import Node, NodeOptions  # noqa: E402
from p2p_ttr.net.seqsig import EMPTY_HEAD, entry_hash, sign_entry  # noqa: E402
from p2p_ttr.net.store import DataDir  # noqa: E402
from p2p_ttr.table.envelope import open_envelope  # noqa: E402
from p2p_ttr.table.messages import message_from_wire  # noqa: E402
from p2p_ttr.table.table import Table  # noqa: E402

NAMES = ("Ann", "Bob", "Cy")


class Clock:
    """Moved by the test; it starts at the process's monotonic time, so that
    a reader of the real clock sees the relay's word as fresh too."""

    def __init__(self) -> None:
        self.now = time.monotonic()

    def __call__(self) -> float:
        return self.now


class Dealer:
    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def send(self, raw: bytes, flags: int = 0) -> None:
        self.sent.append(raw)


def follower_of_an_escrow_game(tmp_path: Path, clock: Clock) -> tuple[Node, int, Dealer]:
    """Seat 1 of a 3-seat escrow game, following seat 0, at the first entry
    after which it waits for seat 2 (each entry folded as the follower folds
    it, at our clock's time); and seat 2."""
    g = escrow_game(3, ())
    data = DataDir(tmp_path / "seat1")
    (data.path / "identity.key").write_bytes(g.peers[1].identity.to_bytes())
    node = Node(NodeOptions(data, "127.0.0.1", 1, "Bob", relay_timeout=20.0), lambda v, st: None, Console(True))
    dealer = Dealer()
    node.uplink.sock = dealer  # type: ignore[assignment]
    node.duties.clock = clock
    node.duties.watching_since = clock()
    table = Table(me=g.peers[1].table.me)
    table.receive(g.log[0])
    gid = table.game_id
    assert gid is not None
    table = Table(me=g.peers[1].table.me)
    store = data.game(gid)
    store.open()
    node.use_table(table, store)
    for i, raw in enumerate(g.log):
        sig = sign_entry(g.peers[0].identity, gid, i, table.prev_head(i) if i else EMPTY_HEAD, raw)
        table.receive(raw)
        store.append(raw)
        store.add_receipt(i, entry_hash(raw), sig)
        node.duties.sequenced(raw)
        clock.now += 0.1
        if table.escrow and table.seated and 2 in waiting_for(table, 1) and 2 in table.in_play and i > 10:
            player = node.replica.player
            assert player is not None and player.ready()  # our seat, from our secrets
            return node, 2, dealer
    raise AssertionError("the game never waited for seat 2")


def carry_on_requests(dealer: Dealer) -> list[int]:
    from p2p_ttr.net import frames

    out = []
    for raw in dealer.sent:
        frame = frames.decode_to_host(raw)
        if isinstance(frame, frames.Env):
            body = open_envelope(frame.envelope).body
            if body[:1] == ["carry_on"]:
                out.append(message_from_wire(body).seat)  # type: ignore[attr-defined]
    return out


def test_a_relays_word_that_a_seat_is_silent_carries_nothing_on_before_our_own_clock_agrees(tmp_path: Path) -> None:
    clock = Clock()
    node, cy, dealer = follower_of_an_escrow_game(tmp_path, clock)
    duties = node.duties
    # Cy signed an entry we folded a moment ago; the relay at once says Cy has been silent for a long time.
    for _ in range(19):  # every second for 19 s, a fresh lie: "silent for 300 s"
        clock.now += 1.0
        duties.silent = ((cy,), clock())
        duties.ask_to_carry_on()
    assert carry_on_requests(dealer) == []  # the relay's word alone moved nothing
    # Then Cy really says nothing for the relay timeout on our own clock, and the relay says so too:
    clock.now += 1.5
    duties.silent = ((cy,), clock())
    duties.ask_to_carry_on()
    assert carry_on_requests(dealer) == [cy]


def test_a_signed_word_of_the_seat_restarts_our_clock(tmp_path: Path) -> None:
    clock = Clock()
    node, cy, dealer = follower_of_an_escrow_game(tmp_path, clock)
    duties = node.duties
    clock.now += 15.0
    duties.signed_at[cy] = clock()  # as when an entry Cy signed is folded
    clock.now += 10.0  # 25 s since the game waited, 10 s since Cy's last signed word
    duties.silent = ((cy,), clock())
    duties.ask_to_carry_on()
    assert carry_on_requests(dealer) == []
    clock.now += 10.0
    duties.silent = ((cy,), clock())
    duties.ask_to_carry_on()
    assert carry_on_requests(dealer) == [cy]
