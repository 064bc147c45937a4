"""The relay moves: when the relay's seat leaves, its successor (the lowest
seat still in play) takes over with a ``relay`` entry that carries the old
relay's receipt of the last entry and every other seat's follow request.
Every replica checks all of it in the fold; anything less is refused."""

from __future__ import annotations

import pytest

from p2p_ttr.cli.commands.verify import report_lines
from p2p_ttr.local.crypto_game import CryptoGame
from p2p_ttr.table.envelope import open_envelope, seal
from p2p_ttr.table.errors import BadSignature, Malformed, NotExpected, TableError
from p2p_ttr.table.messages import Reach, TakeOver, message_from_wire
from p2p_ttr.table.peer import Peer
from p2p_ttr.table.relaying import FollowRequest, receipt_valid, sign_follow, sign_receipt
from p2p_ttr.table.relayterms import MAX_REACH
from p2p_ttr.table.table import Table
from p2p_ttr.table.verify import verify_entries

from test_forfeit import folded, forfeit_index, game


def handover_index(log: list[bytes]) -> int:
    return next(i for i, raw in enumerate(log) if isinstance(message_from_wire(open_envelope(raw).body), TakeOver))


def relay_game() -> CryptoGame:
    return game(3, 0, 20)  # seat 0, the relay, forfeits at turn 20


def test_the_relay_forfeits_and_its_successor_relays_to_the_end() -> None:
    g = relay_game()
    f, h = forfeit_index(g.log), handover_index(g.log)
    assert h == f + 1  # nothing but the hand-over may follow the relay's leaving
    table = g.peers[1].table
    assert table.complete and table.relay == 1
    assert [(x.index, x.old, x.new) for x in table.handovers] == [(h, 0, 1)]
    assert table.relay_at(h - 1) == 0 and table.relay_at(h) == 1 and table.relay_at(len(g.log)) == 1
    relay = message_from_wire(open_envelope(g.log[h]).body)
    assert isinstance(relay, TakeOver) and relay.old == 0 and [r.seat for r in relay.requests] == [2]
    assert table.game_id is not None
    assert receipt_valid(table.seats[0].identity, table.game_id, h - 1, table.prev_head(h - 1), g.log[h - 1],
                         relay.receipt)
    verdict = verify_entries(g.log)
    assert verdict.fair, [x.line() for x in verdict.findings]
    assert [(x.index, x.old, x.new) for x in verdict.table.handovers] == [(h, 0, 1)]
    # The report numbers the seats as every screen does (from 1), as its player list does.
    said = report_lines(verdict, False)
    names = verdict.names
    assert said[0].endswith(f"players: seat 1 {names[0]}, seat 2 {names[1]}, seat 3 {names[2]}")
    assert f"the relay moved from {names[0]} (seat 1) to {names[1]} (seat 2) at entry {h}" in "\n".join(said)


def test_after_the_relay_leaves_only_the_hand_over_may_follow() -> None:
    g = relay_game()
    h = handover_index(g.log)
    table = folded(g.log, h)
    assert table.relay_gone and table.successor == 1
    peer = g.peers[2]
    env = open_envelope(g.log[h])
    move = seal(peer.identity, env.game_id, 2, 10_000, table.head, ["reach", "127.0.0.1", 7000]).raw
    with pytest.raises(NotExpected, match="relay"):
        table.receive(move)
    assert table.sequencer_of(g.log[h]) == 1 and table.sequencer_of(move) == 0


def _fresh(g: CryptoGame, seat: int, table: Table) -> Peer:
    """Seat ``seat``'s peer on ``table`` (the cached game's peers stay untouched)."""
    peer = Peer(seat, g.peers[seat].identity, g.peers[seat].decide)
    peer.table, peer.seq = table, table.last_seq[seat]
    return peer


def _forge(g: CryptoGame, h: int, author: int, body: TakeOver) -> tuple[Table, bytes]:
    table = folded(g.log, h)
    env = open_envelope(g.log[h])
    return table, seal(g.peers[author].identity, env.game_id, author, env.seq, env.head, body.to_wire()).raw


def test_a_hand_over_without_every_request_a_false_receipt_or_a_wrong_author_is_refused() -> None:
    g = relay_game()
    h = handover_index(g.log)
    real = message_from_wire(open_envelope(g.log[h]).body)
    assert isinstance(real, TakeOver)
    game_id = open_envelope(g.log[h]).game_id
    cases: list[tuple[int, TakeOver, type[TableError]]] = [
        (1, TakeOver(0, real.receipt, ()), NotExpected),  # seat 2's request is missing
        (1, TakeOver(0, b"\1" * 64, real.requests), BadSignature),  # not the old relay's receipt
        (2, real, NotExpected),  # seat 2 is not the successor
        (1, TakeOver(2, real.receipt, real.requests), NotExpected),  # seat 2 is not the relay
    ]
    # A request signed by another key, or over a head this log never had.
    r = real.requests[0]
    cases.append((1, TakeOver(0, real.receipt, (FollowRequest(2, r.length, r.head, b"\2" * 64),)), BadSignature))
    other = sign_follow(g.peers[2].identity, 2, game_id, 0, 0, 1, r.length, b"\3" * 32)
    cases.append((1, TakeOver(0, real.receipt, (other,)), NotExpected))
    longer = sign_follow(g.peers[2].identity, 2, game_id, 0, 0, 1, h + 5, r.head)
    cases.append((1, TakeOver(0, real.receipt, (longer,)), NotExpected))
    for author, body, error in cases:
        table, raw = _forge(g, h, author, body)
        with pytest.raises(error):
            table.receive(raw)
        assert table.relay == 0 and table.handovers == []


def test_without_escrow_a_relay_in_play_is_never_replaced() -> None:
    """Even with every other seat's consent (here there is no other seat in
    play): the old relay's shares open every card, and a successor that could
    take over at will could read a card, then rewrite what followed it."""
    g = game(3, 2, 8)  # seat 2 forfeits; seat 0 stays the relay
    i = forfeit_index(g.log) + 3
    table = folded(g.log, i)
    assert table.in_play == (0, 1) and table.successor == 1 and not table.escrow
    assert table.game_id is not None
    receipt = sign_receipt(g.peers[0].identity, table.game_id, i - 1, table.prev_head(i - 1), g.log[i - 1])
    peer = _fresh(g, 1, table)
    with pytest.raises(NotExpected, match="in play"):
        table.receive(peer.take_relay(receipt, ()))
    assert table.relay == 0 and table.handovers == []


def test_reach_is_an_ip_and_a_port_and_bounded() -> None:
    g = game(3, 2, 8)
    table = folded(g.log, 30)
    peer = _fresh(g, 1, table)
    table.receive(peer.reach("192.168.1.7", 40001))
    assert table.reach[1] == ("192.168.1.7", 40001)
    for bad in (["reach", "host.lan", 1], ["reach", "10.0.0.1", 0], ["reach", "10.0.0.1", 70000],
                ["reach", "::1", "1"], ["reach", "1.2.3.4"]):
        with pytest.raises(Malformed):
            message_from_wire(bad)
    assert message_from_wire(["reach", "::1", 9]) == Reach("::1", 9)
    for _ in range(MAX_REACH - 1):
        table.receive(peer.reach("10.0.0.2", 7311))
    with pytest.raises(NotExpected):
        table.receive(peer.reach("10.0.0.3", 7311))


# ------------------------------------------------------------------ terms


def _escrow_game() -> CryptoGame:
    from test_carry_on import game as escrow_game

    return escrow_game(3, ())  # an escrow game: a relay in play may be replaced, with every other seat's request


def _hand_over_at(g: CryptoGame, i: int, request: FollowRequest) -> tuple[Table, bytes]:
    """Seat 1's hand-over (0 -> 1) as entry ``i`` of ``g``'s log, with ``request`` from seat 2."""
    table = folded(g.log, i)
    assert table.game_id is not None
    receipt = sign_receipt(g.peers[0].identity, table.game_id, i - 1, table.prev_head(i - 1), g.log[i - 1])
    return table, _fresh(g, 1, table).take_relay(receipt, (request,))


def test_a_follow_request_counts_only_at_its_exact_log_and_term() -> None:
    """The issue's case: a request signed at entry 40 used to take the relay
    at entry 95, away from a live relay. A request is a promise about one log
    end in one term: at another length, or for another term, it is refused."""
    g = _escrow_game()
    early, late = 40, 95
    at_early = folded(g.log, early)
    assert at_early.game_id is not None and at_early.escrow
    kept = sign_follow(g.peers[2].identity, 2, at_early.game_id, 0, 0, 1, early, at_early.head)
    table, raw = _hand_over_at(g, late, kept)
    with pytest.raises(NotExpected, match=f"log of {early} entries"):
        table.receive(raw)
    assert table.relay == 0
    now = folded(g.log, late)
    other_term = sign_follow(g.peers[2].identity, 2, at_early.game_id, 1, 0, 1, late, now.head)
    table, raw = _hand_over_at(g, late, other_term)
    with pytest.raises(BadSignature, match="relay term 0"):
        table.receive(raw)
    exact = sign_follow(g.peers[2].identity, 2, at_early.game_id, 0, 0, 1, late, now.head)
    table, raw = _hand_over_at(g, late, exact)
    table.receive(raw)
    assert table.relay == 1 and table.term == 1 and table.relays.term_start == late + 1


def test_a_carry_on_request_counts_only_in_the_term_it_was_written_in() -> None:
    """Seat 0 asks the relay (itself) to carry seat 2 on; then the relay moves.
    The tally of the old term is void, and the same request, signed before
    the hand-over and sequenced after it, is refused: an old signature in a
    new place decides nothing."""
    from p2p_ttr.table.messages import CarryOn

    g = _escrow_game()
    i = 95
    table = folded(g.log, i)
    assert table.game_id is not None
    asker = _fresh(g, 0, table)
    stale = asker._seal(CarryOn(2))  # written at entry i's head, in term 0
    table.receive(stale)
    assert table.carry_on_requests == {2: frozenset({0})}
    receipt = sign_receipt(g.peers[0].identity, table.game_id, i, table.prev_head(i), table.log[i])
    request = sign_follow(g.peers[2].identity, 2, table.game_id, 0, 0, 1, i + 1, table.head)
    table.receive(_fresh(g, 1, table).take_relay(receipt, (request,)))
    assert table.term == 1 and table.carry_on_requests == {}
    replayed = seal(g.peers[0].identity, table.game_id, 0, asker.seq + 1, open_envelope(stale).head,
                    CarryOn(2).to_wire()).raw
    with pytest.raises(NotExpected, match="before the relay moved"):
        table.receive(replayed)
    table.receive(_fresh(g, 0, table)._seal(CarryOn(2)))  # asked again in the new term: it counts
    assert table.carry_on_requests == {2: frozenset({0})}
