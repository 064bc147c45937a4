"""A seat that turned alone to the successor (protocol.md §9, Hand-over, "A
seat that turned alone"), in process, rule by rule: a seat shown another
seat's signed request for this term turns too; the successor counts each
request it holds as that seat's signed word (never carried on while it
follows us). test_net_partition.py forces the whole story with real
processes behind a switchboard."""

from __future__ import annotations

import functools
import time
from pathlib import Path

import pytest

from test_net_parts import HERE, FakeRouter

from p2p_ttr.net.console import Console
from p2p_ttr.net.frames import NET_VERSION, encode
from p2p_ttr.net.lobby import sign_hello
from p2p_ttr.net.node import Node, NodeOptions
from p2p_ttr.net.store import DataDir
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.messages import Seat
from p2p_ttr.table.peer import Peer
from p2p_ttr.table.relaying import sign_follow
from p2p_ttr.table.table import Table

NAMES = ("Ann", "Bob", "Cy", "Di")
IDS = [Identity.from_bytes(bytes([p + 40]) * 32) for p in range(4)]


@functools.cache
def seating(escrow: bool) -> bytes:
    """Entry 0 of a 4-seat game: seat 0 relays, seat 1 is its successor."""
    return Peer(0, IDS[0], lambda view, state: None).open_game(
        tuple(Seat(NAMES[p], IDS[p].public) for p in range(4)), bytes(16), escrow=escrow)


def seated(tmp_path: Path, s: int, escrow: bool = True) -> tuple[Node, FakeRouter]:
    """Seat ``s`` as a Node whose log holds the seating, its ROUTER a fake (no DEALER: nobody reached yet)."""
    data = DataDir(tmp_path / f"seat{s}")
    (data.path / "identity.key").write_bytes(IDS[s].to_bytes())
    node = Node(NodeOptions(data, "127.0.0.1", 1, NAMES[s]), lambda view, state: None, Console(True))
    router = FakeRouter()
    node.relay.router.sock = router  # type: ignore[assignment]
    table = Table()
    table.receive(seating(escrow))
    store = data.game(bytes(16))
    store.open()
    store.append(seating(escrow))
    node.use_table(table, store)
    return node, router


def shown(node: Node, router: FakeRouter, by: int, term: int = 0, old: int = 0, new: int = 1,
          signer: int | None = None) -> None:
    """Seat ``by`` reaches ``node``'s ROUTER and sends it a follow request
    (signed by ``signer``, default ``by``, for relay ``term``, ``old`` -> ``new``)."""
    rid = bytes([0, by])
    node.relay.handle([rid, encode("hi", NET_VERSION)])
    (challenge,) = router.to(rid, "challenge")
    node.relay.handle([rid, encode("hello", NET_VERSION, NAMES[by], IDS[by].public, challenge[2], *HERE,
                                   sign_hello(IDS[by], NAMES[by], node.identity.public, challenge[2], HERE))])
    table = node.table
    assert table is not None and table.game_id is not None
    request = sign_follow(IDS[by if signer is None else signer], by, table.game_id, term, old, new, len(table.log),
                          table.head)
    node.relay.handle([rid, encode("follow", request.length, request.head, request.signature)])


def test_a_seat_shown_a_request_for_this_term_turns_to_the_successor_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Cy (seat 2) lost the relay and turned to Bob; Di (seat 3) still hears
    Ann, but Cy's promise means the term can only end in a hand-over or with
    Cy carried on: Di turns too (so the relay moves, nobody is carried on),
    and Cy counts as heard on Di's own clock."""
    node, router = seated(tmp_path, 3)
    before = time.monotonic()
    shown(node, router, 2)
    assert node.succession.turned and node.uplink.seat == 1
    assert node.duties.signed_at[2] >= before
    captured = capsys.readouterr()
    said = captured.out + captured.err
    assert "the relay (Ann) is out of Cy's reach (Cy turned to Bob and showed us its signed request): " \
           "turning to Bob, who relays next" in said


@pytest.mark.parametrize(("case", "me", "by", "kwargs"), [
    ("another term", 3, 2, {"term": 1}),
    ("to another seat", 3, 2, {"new": 2}),
    ("from another relay", 3, 2, {"old": 1}),
    ("signed by another seat", 3, 2, {"signer": 1}),
    ("from the relay itself", 3, 0, {}),
    ("we relay", 0, 2, {}),
])
def test_a_request_that_is_no_promise_to_leave_this_relay_moves_nobody(
        tmp_path: Path, case: str, me: int, by: int, kwargs: dict[str, int]) -> None:
    node, router = seated(tmp_path, me)
    shown(node, router, by, **kwargs)
    assert not node.succession.turned and node.uplink.seat is None, case


def test_without_escrow_a_shown_request_moves_nobody(tmp_path: Path) -> None:
    """Without escrow the relay moves only once its seat left (its shares open every card)."""
    node, router = seated(tmp_path, 3, escrow=False)
    shown(node, router, 2)
    assert not node.succession.turned


def test_the_successor_counts_each_request_it_holds_as_the_seats_signed_word(tmp_path: Path) -> None:
    """Bob, the successor, still follows Ann (Di has not turned); Cy follows
    Bob. Cy's request, every heartbeat, is its signed word on Bob's own
    clock, so Bob never asks to carry Cy on: a carry-on takes every other
    seat in play, Bob included, so Cy cannot be carried on while it reaches
    Bob. Bob does not turn (that takes every other seat's request)."""
    node, router = seated(tmp_path, 1)
    clock = [1000.0]
    node.duties.clock = lambda: clock[0]
    node.duties.watching_since = 0.0
    shown(node, router, 2)
    assert set(node.relay.requests) == {2} and not node.relay.standby.all_requested()
    assert node.duties.signed_at[2] == 1000.0
    assert not node.succession.turned


def test_a_seat_that_turned_signs_its_request_at_once_to_show_the_others(tmp_path: Path) -> None:
    """Cy turns (Ann silent): its request for its log is made at once, before
    Bob answers (Bob may be out of reach while Di is not), and it is the one
    the others check: for this term, from Ann to Bob."""
    node, _ = seated(tmp_path, 2)
    player = node.player
    assert player is not None and player.ready()
    node.uplink.heard = time.monotonic() - 10 * node.succession.relay_timeout
    assert node.succession.relay_gone(time.monotonic())
    node.succession.turn()
    request = node.our_held_back.turned_request()
    table = node.table
    assert request is not None and table is not None and table.game_id is not None
    expected = sign_follow(IDS[2], 2, table.game_id, 0, 0, 1, len(table.log), table.head)
    assert (request.length, request.head, request.signature) == (expected.length, expected.head, expected.signature)


def test_the_successor_goes_on_with_the_relay_only_on_a_frame_heard_after_it_turned(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Bob (seat 1, the successor) turns when Ann has been silent past a relay
    timeout shorter than the host-silence threshold: nothing heard since is
    no answer (it said "answers again" at once and flipped back and forth);
    a frame from Ann after the turn is."""
    node, _ = seated(tmp_path, 1)
    node.uplink.heard = time.monotonic() - 2.5  # silent past a 2 s relay timeout, under HOST_SILENT_S
    node.succession.turn()
    assert node.succession.turned
    node.succession.take_over(time.monotonic())
    assert node.succession.turned
    captured = capsys.readouterr()
    assert "answers again" not in captured.out + captured.err
    node.uplink.heard_now()  # Ann's next frame
    node.succession.take_over(time.monotonic())
    assert not node.succession.turned
    captured = capsys.readouterr()
    assert "the relay (Ann) answers again: we go on with it" in captured.out + captured.err
