"""Acts carry no shares (protocol.md §6): a move that plays hidden cards goes
into the log first, and only then does its author show them, with its
shares of those cards, owed from then on. So an author that withholds them
stalls the game with nothing of its move shown, and a host that refuses to
sequence an act learns no card from it: the author moves again."""

from __future__ import annotations

import functools
from dataclasses import replace

import pytest

from games import Run, honest_game, snapshot
from malicious import Malicious, claim_with_our_cards
from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.deck import own_share
from p2p_ttr.deck.group import element_to_bytes
from p2p_ttr.engine.errors import IllegalMove
from p2p_ttr.engine.events import BuildStation, ClaimRoute, DrawBlind, Pass, PayTunnel
from p2p_ttr.net.liveness import waiting_for
from p2p_ttr.table.envelope import open_envelope
from p2p_ttr.table.errors import NotExpected, TableError
from p2p_ttr.table.messages import Act, Shares, message_from_wire
from p2p_ttr.table.acts import PendingAct
from p2p_ttr.table.obligations import Owed
from p2p_ttr.table.table import Table
from p2p_ttr.table.verify import verify_entries


@functools.cache
def act_in_the_log() -> tuple[list[Table], int, bytes, list[bytes]]:
    """Seat replicas (0, 1) and an outsider's, folded along the honest 2-player
    game up to the first point where a seat can claim a route with cards it
    holds, then that claim: in the log, its shares not sent. Also the log."""
    game = honest_game()
    tables = [Table(game.peers[0].table.me), Table(game.peers[1].table.me), Table()]
    log: list[bytes] = []
    for raw in game.log:
        for seat in (0, 1):
            act = claim_with_our_cards(Malicious(seat, game.peers[seat].identity, tables[seat]))
            if act is not None:
                for t in tables:
                    t.receive(act)
                return tables, seat, act, log + [act]
        for t in tables:
            t.receive(raw)
        log.append(raw)
    raise AssertionError("no seat ever could claim a route with its own cards")


def test_an_act_whose_shares_are_withheld_waits_for_them_and_shows_no_card() -> None:
    tables, seat, raw, log = act_in_the_log()
    act = message_from_wire(open_envelope(raw).body)
    assert isinstance(act, Act) and isinstance(act.action, ClaimRoute)
    other = 1 - seat
    for t in tables:
        engine = t.engine
        assert engine is not None and t.pending_act is not None
        cards = t.pending_act.cards
        assert t.pending_act == PendingAct(seat, act.action, cards) and cards
        assert t.owed_shares() == {seat: set(cards)}  # its own shares of them, and nothing else
        assert [(o.seat, o.what) for o in t.obligations()] == [(seat, Owed.SHARES)]
        assert waiting_for(t, other) == [seat]
        assert not set(cards) & set(engine.public)  # no card of the act is public
        if t.me is None or t.me.seat != seat:
            assert all(engine.face(r) is None for r in cards)  # and nobody else can read one
        assert act.action.route not in engine.players[seat].routes  # the move waits too
    # Nobody moves meanwhile, the author included.
    game = honest_game()
    for mover in (seat, other):
        m = Malicious(mover, game.peers[mover].identity, tables[mover])
        for t in tables:
            before = snapshot(t)
            with pytest.raises(NotExpected):
                t.receive(m.send(Act(DrawBlind(mover))))
            assert snapshot(t) == before
    verdict = verify_entries(log)  # a log that ends here names the seat it waits for
    assert [(f.entry, f.seat, f.code) for f in verdict.findings] == [(None, None, "incomplete")]
    assert f"seat {seat} owes shares" in verdict.findings[0].reason


def test_once_its_author_shows_the_cards_the_act_is_played_or_voided() -> None:
    tables, seat, _, _ = act_in_the_log()
    game = honest_game()
    copies = [Table(t.me) for t in tables]
    for t in copies:
        for raw in tables[2].log:
            t.receive(raw)
    pending = copies[2].pending_act
    assert pending is not None
    m = Malicious(seat, game.peers[seat].identity, copies[seat])
    shares = m.send(Shares(tuple(m.share(r) for r in pending.cards)))
    for t in copies:
        t.receive(shares)
        engine = t.engine
        assert engine is not None and t.pending_act is None
        assert set(pending.cards) <= set(engine.public)  # shown to all now
        played = isinstance(pending.action, ClaimRoute) and pending.action.route in engine.players[seat].routes
        assert played != bool(t.voided), (played, t.voided)  # applied, or voided (its author moves again)
    assert len({t.digest() for t in copies}) == 1


@functools.cache
def game_with_a_refused_act() -> tuple[Run, dict[str, object]]:
    """A 2-player game whose host (seat 0) refuses to sequence seat 1's first
    act that plays hidden cards; everything else goes on as usual."""
    run = Run.start([RandomBot(70).choose, RandomBot(71).choose], seed=70)
    seen: dict[str, object] = {}

    def refuse(r: Run, raw: bytes) -> bool:
        env = open_envelope(raw)
        message = message_from_wire(env.body)
        engine = r.peers[0].table.engine
        if seen or env.seat != 1 or engine is None or not isinstance(message, Act) \
                or not isinstance(message.action, (ClaimRoute, BuildStation, PayTunnel)):
            return False
        hidden = [c for c in message.action.cards if c not in engine.public]
        if not hidden:
            return False
        author = r.peers[1].table
        assert author.me is not None
        seen.update(raw=raw, action=message.action, hidden=hidden, at=len(r.log),
                    host_faces=[engine.face(c) for c in hidden],
                    shares=[element_to_bytes(own_share(author.me.key, author.ciphertext(c))) for c in hidden])
        return True

    run.drop = refuse
    assert not run.play()
    return run, seen


def test_a_host_that_refuses_an_act_learns_no_card_and_the_author_moves_again() -> None:
    run, seen = game_with_a_refused_act()
    assert seen, "seat 1 never played a hidden card"
    raw = seen["raw"]
    assert isinstance(raw, bytes) and run.dropped == [raw] and raw not in run.log
    assert open_envelope(raw).body[0] == "act" and len(open_envelope(raw).body) == 2  # a move, nothing else
    assert all(share not in raw for share in seen["shares"])  # type: ignore[attr-defined]
    assert seen["host_faces"] == [None] * len(seen["hidden"])  # type: ignore[arg-type]
    # The author never shows the cards of a move the log does not hold: its
    # next message is another move (the table still waits for one from it).
    at = seen["at"]
    assert isinstance(at, int)
    following = [(open_envelope(r).seat, message_from_wire(open_envelope(r).body)) for r in run.log[at:]]
    author_next = next(m for s, m in following if s == 1)
    assert isinstance(author_next, Act), author_next
    # ...and the game goes on to its end, every replica alike, and verifies.
    assert all(p.table.complete and p.table.halted is None for p in run.peers)
    assert len({t.digest() for t in run.tables()}) == 1
    assert verify_entries(run.log).fair
    assert {code for _, code in run.refused} == set()


def test_the_act_the_host_refused_was_a_valid_move() -> None:
    """The refused act was well-formed: had the host sequenced it, every table would have taken it."""
    run, seen = game_with_a_refused_act()
    raw = seen["raw"]
    assert isinstance(raw, bytes)
    at = seen["at"]
    assert isinstance(at, int)
    table = Table()
    for entry in run.log[:at]:
        table.receive(entry)
    try:
        table.receive(raw)
    except TableError as exc:  # pragma: no cover - a failure message
        raise AssertionError(f"the refused act was not valid: {exc}") from None
    assert table.pending_act is not None and table.pending_act.seat == 1


def _turn_with_nothing_to_draw(stuck: bool) -> tuple[list[Table], int, Malicious]:
    """Replicas (the two seats', an outsider's) at the first turn where the
    mover's hand holds cards only it can read, with the draw pile, discards,
    face-up row and ticket pile emptied alike on every replica (as they are
    late in a long game). ``stuck``: the mover also has no train or station
    left, so nothing in its hand can be played."""
    game = honest_game()
    tables = [Table(game.peers[0].table.me), Table(game.peers[1].table.me), Table()]
    for raw in game.log:
        for t in tables:
            t.receive(raw)
        e = tables[2].engine
        if e is None or tables[2].pending_act is not None or e.awaiting is not None or e.steps:
            continue
        seat = e.current
        m = Malicious(seat, game.peers[seat].identity, tables[seat])
        if m.my_turn() is None or not any(r not in e.public for r in e.players[seat].hand):
            continue
        for t in tables:
            assert t.play is not None and t.engine is not None
            ps = t.engine.players[seat]
            if stuck:
                ps = replace(ps, trains=0, stations=("Paris", "Wien", "Roma"))
            t.play.engine = t.engine.evolve(draw_pile=(), discard=(), face_up=(None,) * 5, ticket_pile=(),
                                       players=tuple(ps if i == seat else q for i, q in enumerate(t.engine.players)))
        return tables, seat, m
    raise AssertionError("no turn with a hidden hand")


@pytest.mark.parametrize("stuck", [True, False])
def test_a_pass_shows_the_hand_and_stands_only_if_nothing_in_it_can_be_played(stuck: bool) -> None:
    """Passing is for a player with no other action (rules version 3); only
    the hand's faces can tell, so the pass waits in the log for the author's
    shares of its hand, which open it to all; then it stands, or is voided
    and its author moves again."""
    tables, seat, m = _turn_with_nothing_to_draw(stuck)
    hidden = {r for r in tables[2].engine.players[seat].hand if r not in tables[2].engine.public}  # type: ignore[union-attr]
    act = m.send(Act(Pass(seat)))
    for t in tables:
        t.receive(act)
        assert t.pending_act is not None and set(t.pending_act.cards) == hidden
        assert t.owed_shares() == {seat: hidden}  # the hand, and nothing else
        assert not hidden & set(t.engine.public)  # type: ignore[union-attr]
    shares = m.send(Shares(tuple(m.share(r) for r in sorted(hidden))))
    for t in tables:
        t.receive(shares)
        engine = t.engine
        assert engine is not None and t.pending_act is None
        assert hidden <= set(engine.public)  # the hand is shown to all
        if stuck:
            assert not t.voided and engine.passes == 1 and engine.current == 1 - seat
        else:
            assert [(v.seat, "can still be claimed" in v.reason) for v in t.voided] == [(seat, True)]
            assert engine.passes == 0 and engine.current == seat  # it moves again
    assert len({t.digest() for t in tables}) == 1


def test_a_pass_while_cards_can_be_drawn_is_refused_and_shows_nothing() -> None:
    tables, seat, _, log = act_in_the_log()
    game = honest_game()
    copies = [Table(t.me) for t in tables]
    for t in copies:
        for raw in log[:-1]:  # just before that claim: the seat's turn
            t.receive(raw)
    m = Malicious(seat, game.peers[seat].identity, copies[seat])
    act = m.send(Act(Pass(seat)))
    for t in copies:
        before = snapshot(t)
        with pytest.raises(IllegalMove, match="can still be drawn"):
            t.receive(act)
        assert snapshot(t) == before and t.pending_act is None
