"""Escrow (protocol.md §6, Escrow): in a game seated with escrow every seat
deals its key and seed to the others; when one vanishes, the others carry it
on (every seat in play asks, then hands over its shares) and the fold plays
it as a forfeited seat. Real peers, real cryptography, one process."""

from __future__ import annotations

import functools
from dataclasses import replace

import pytest
from test_forfeit import forfeiting_at

from p2p_ttr.bots.levels import make_bot
from p2p_ttr.deck import (
    BadEscrow,
    EscrowDeal,
    SecretKey,
    check_escrow_share,
    deal_exponent,
    escrow_complaint,
    escrow_image,
    open_escrow_share,
)
from p2p_ttr.local.crypto_game import CryptoGame, GameStuck, play_crypto_game
from p2p_ttr.table.envelope import open_envelope, seal
from p2p_ttr.table.errors import BadProof, Cheating, Malformed, NotExpected
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.messages import (
    CarryOn,
    Escrow,
    EscrowComplaint,
    EscrowReveal,
    Message,
    Seat,
    message_from_wire,
)
from p2p_ttr.table.obligations import Owed
from p2p_ttr.table.peer import Peer
from p2p_ttr.table.table import Table
from p2p_ttr.table.verify import verify_entries

NAMES = ("Anna", "Boris", "Chiara", "Dmitri", "Elena")


def vanishing(plan: dict[int, int]) -> type[Peer]:
    """Peers that fall silent at a turn (``plan``: seat -> turn) and, while
    in play, ask to carry on any seat gone silent when they have nothing else
    to send: the network layer does that after its timeout."""

    class Player(Peer):
        def outbox(self) -> list[bytes]:
            t = self.table
            turn = t.engine.turn if t.engine is not None else -1
            if self.seat in plan and turn >= plan[self.seat]:
                return []
            out = super().outbox()
            if out:
                return out
            for target, when in sorted(plan.items()):
                if turn >= when and t.can_carry_on(target, self.seat):
                    out.append(self.carry_on(target))
            return out

    return Player


@functools.cache
def game(n: int, plan: tuple[tuple[int, int], ...], seed: int = 5) -> CryptoGame:
    bots = [make_bot("medium", seed + p) for p in range(n)]
    return play_crypto_game(seed, bots, NAMES[:n], [vanishing(dict(plan))] * n, escrow=True)


def kinds(log: list[bytes]) -> list[tuple[int, Message]]:
    return [(open_envelope(raw).seat, message_from_wire(open_envelope(raw).body)) for raw in log]


def folded(log: list[bytes], upto: int) -> Table:
    table = Table()
    for raw in log[:upto]:
        table.receive(raw)
    return table


def forged(g: CryptoGame, at: int, seat: int, message: Message) -> bytes:
    """``message`` signed by ``seat`` as its next message, written at the head of entry ``at``."""
    env = open_envelope(g.log[at - 1])
    seq = max(open_envelope(raw).seq for raw in g.log[:at] if open_envelope(raw).seat == seat) + 1
    return seal(g.peers[seat].identity, env.game_id, seat, seq, folded(g.log, at).head, message.to_wire()).raw


ONE = ((2, 5),)  # seat 2 vanishes at turn 5 (holding cards)
TWO = ((2, 5), (1, 14))  # then seat 1 too: seat 0 is left alone


def test_a_vanished_seat_is_carried_on_and_the_game_ends_normally() -> None:
    g = game(3, ONE)
    tables = [p.table for p in g.peers]
    assert all(t.complete and t.rejected == [] for t in tables)
    assert len({t.digest() for t in tables}) == 1
    outsider = folded(g.log, len(g.log))
    assert outsider.digest() == tables[0].digest() and outsider.escrow
    assert outsider.engine is not None and outsider.engine.over and not outsider.conceded
    index = outsider.carried_on[2]
    assert isinstance(kinds(g.log)[index][1], EscrowReveal)
    assert outsider.in_play == (0, 1) and 2 in outsider.forfeited
    # It held cards when it went, and everything it held was opened to all.
    before = folded(g.log, index)
    assert before.engine is not None and before.engine.players[2].hand
    now = outsider.engine.players[2]
    assert all(r in outsider.engine.public for r in now.hand + now.tickets)
    # Nothing signed by it after it vanished; both others asked, then handed over.
    messages = kinds(g.log)
    asks = [i for i, (_, m) in enumerate(messages) if isinstance(m, CarryOn)]
    assert sorted(messages[i][0] for i in asks) == [0, 1]
    assert all(seat != 2 for seat, _ in messages[asks[0]:])
    assert sorted(s for s, m in messages if isinstance(m, EscrowReveal)) == [0, 1]
    # The fold played it on: it took turns after it was carried on.
    assert (before.engine.players[2].trains, before.engine.players[2].routes) != (now.trains, now.routes)


def test_every_seat_dealt_its_escrow_before_any_shuffle() -> None:
    messages = kinds(game(3, ONE).log)
    first_shuffle = next(i for i, (_, m) in enumerate(messages) if m.KIND == "shuffle")
    deals = [i for i, (_, m) in enumerate(messages) if isinstance(m, Escrow)]
    assert len(deals) == 3 and max(deals) < first_shuffle


def test_verify_passes_a_carried_on_game_and_reports_the_carry_on() -> None:
    g = game(3, ONE)
    verdict = verify_entries(g.log)
    assert verdict.fair, [f.line() for f in verdict.findings]
    assert verdict.carried_on == ((verdict.table.carried_on[2], 2),)
    assert verdict.table.deck.derived_steps  # its later shuffle steps came from its rebuilt seed, audited
    assert verdict.score is not None


def test_a_carried_on_seat_may_sign_nothing_more() -> None:
    g = game(3, ONE)
    index = g.peers[0].table.carried_on[2]
    table = folded(g.log, index + 1)
    with pytest.raises(NotExpected, match="carried on by the others"):
        table.receive(forged(g, index + 1, 2, CarryOn(0)))
    assert table.rejected[-1].seat == 2


def test_a_false_reveal_is_refused_and_names_its_seat() -> None:
    g = game(3, ONE)
    messages = kinds(g.log)
    first = next(i for i, (_, m) in enumerate(messages) if isinstance(m, EscrowReveal))
    seat, real = messages[first]
    assert isinstance(real, EscrowReveal)
    table = folded(g.log, first)
    for bad in (replace(real, key_share=real.key_share + 1), replace(real, seed_share=real.seed_share + 1)):
        with pytest.raises(Cheating, match=f"seat {seat} handed over a false share"):
            table.receive(forged(g, first, seat, bad))
        assert table.rejected[-1].seat == seat and table.rejected[-1].code == "cheating"
    assert 2 not in table.carried_on and table.halted is None
    table.receive(g.log[first])  # the true one still goes in


def test_once_a_seat_has_left_no_other_can_be_carried_on_and_the_table_says_why() -> None:
    """Seat 2 is carried on; then seat 1 falls silent too. Its share of seat
    1's escrow left with seat 2 (sealed to seat 2's seal key, which nobody
    else holds): the game cannot carry seat 1 on, and says exactly why."""
    g = game(3, ONE)
    index = g.peers[0].table.carried_on[2]
    table = folded(g.log, index + 1)
    problem = table.carry_on_problem(1, 0)
    assert problem is not None and f"seat 2 left the game at entry {index}" in problem
    assert "no seat can be carried on any more" in problem
    with pytest.raises(GameStuck):
        game(3, TWO)  # seat 1 vanishes after seat 2 was carried on: nobody can play it on


@pytest.mark.parametrize("how", ["carried_on", "forfeit"])
def test_nobody_reads_another_seat_because_a_third_left(how: str) -> None:
    """With 3 seats, once seat 2 leaves (carried on: its key rebuilt in the
    open; or forfeited: its key published), seat 0 holds its own share of
    seat 1's secrets and every public value, and still cannot open seat 2's
    share of them: it was sealed to seat 2's seal key, never revealed."""
    if how == "carried_on":
        g = game(3, ONE)
        gone = g.peers[0].table.forfeited[2].key
    else:
        bots = [make_bot("medium", 5 + p) for p in range(3)]
        g = play_crypto_game(5, bots, NAMES[:3], [Peer, Peer, forfeiting_at(6)], escrow=True)
        gone = g.peers[0].table.forfeited[2].key
    book = g.peers[0].table.escrowbook
    me = g.peers[0].table.me
    assert me is not None and me.seal is not None
    for deal in (book.deals[1].key, book.deals[1].seed):
        mine = open_escrow_share(deal, me.seal)  # seat 0's own share opens
        assert check_escrow_share(deal, 0, mine)
        with pytest.raises(BadEscrow):
            open_escrow_share(deal, gone)  # seat 2's does not, with all it made public
        seal_as_key = SecretKey(gone.game_id, 2, me.seal.x)  # nor with any key but seat 2's seal key
        with pytest.raises(BadEscrow):
            open_escrow_share(deal, seal_as_key)


def test_five_seats_carry_one_on() -> None:
    g = game(5, ((3, 8),))
    tables = [p.table for p in g.peers]
    assert all(t.complete and t.rejected == [] for t in tables)
    assert len({t.digest() for t in tables}) == 1
    assert set(tables[0].carried_on) == {3} and tables[0].in_play == (0, 1, 2, 4)
    assert verify_entries(g.log).fair


# ------------------------------------------------------------------ set-up


def setup(n: int, escrow: bool, upto: int = 1) -> list[Peer]:
    """Peers of a fresh game, run until the engine reaches turn ``upto`` (cards in hands)."""
    bots = [make_bot("medium", 7 + p) for p in range(n)]
    peers = [Peer(p, Identity.from_bytes(bytes([p + 1]) * 32), bots[p].choose, None) for p in range(n)]
    seats = tuple(Seat(NAMES[p], peers[p].identity.public) for p in range(n))
    deliver(peers, peers[0].open_game(seats, escrow=escrow))
    for _ in range(5000):
        engine = peers[0].table.engine
        if engine is not None and engine.turn >= upto:
            return peers
        sent = False
        for peer in peers:
            for raw in peer.outbox():
                deliver(peers, raw)
                sent = True
        assert sent, "the set-up stalled"
    raise AssertionError("the set-up did not reach its turn")


def deliver(peers: list[Peer], raw: bytes) -> None:
    for peer in peers:
        peer.table.receive(raw)


@functools.cache
def escrowed_three() -> list[Peer]:
    return setup(3, True)


def test_a_request_in_a_game_without_escrow_is_refused() -> None:
    peers = setup(3, False, upto=0)
    table = peers[0].table
    assert not table.escrow and not table.can_carry_on(2, 0)
    with pytest.raises(ValueError, match="without escrow"):
        peers[0].carry_on(2)
    raw = peers[0]._seal(CarryOn(2))
    with pytest.raises(NotExpected, match="without escrow"):
        table.receive(raw)


def test_a_seat_that_comes_back_before_the_last_request_cancels_them() -> None:
    peers = [copy_peer(p) for p in escrowed_three()]
    deliver(peers, peers[0].carry_on(2))
    assert peers[1].table.carry_on_requests == {2: frozenset({0})}
    deliver(peers, peers[2].carry_on(1))  # any message seat 2 signs: it is back
    assert peers[1].table.carry_on_requests == {1: frozenset({2})}
    deliver(peers, peers[1].carry_on(2))
    table = peers[1].table
    assert table.carry_on_requests[2] == frozenset({1}) and not table.escrowbook.carrying
    assert all(o.what is not Owed.ESCROW_SHARE for o in table.obligations())


def test_a_request_twice_for_itself_or_for_a_seat_not_in_play_is_refused() -> None:
    peers = [copy_peer(p) for p in escrowed_three()]
    deliver(peers, peers[0].carry_on(2))
    for target, reason in ((2, "already asked"), (0, "itself"), (4, "no seat 4")):
        assert peers[0].table.carry_on_problem(target, 0) is not None
        with pytest.raises(NotExpected, match=reason):
            peers[1].table.receive(peers[0]._seal(CarryOn(target)))


def test_once_everyone_asked_the_target_cannot_come_back() -> None:
    peers = [copy_peer(p) for p in escrowed_three()]
    deliver(peers, peers[0].carry_on(2))
    deliver(peers, peers[1].carry_on(2))
    table = peers[0].table
    assert table.escrowbook.carrying == {2}
    owed = [(o.seat, o.target) for o in table.obligations() if o.what is Owed.ESCROW_SHARE]
    assert owed == [(0, 2), (1, 2)]
    with pytest.raises(NotExpected, match="carried on by the others"):
        table.receive(peers[2]._seal(CarryOn(1)))
    assert peers[2].outbox() == []  # its peer knows
    for peer in peers[:2]:
        for raw in peer.outbox():
            deliver(peers, raw)
    assert 2 in table.carried_on and table.forfeited[2].key == peers[2].table.me.key  # type: ignore[union-attr]


def copy_peer(peer: Peer) -> Peer:
    """A peer with its own replica of ``peer``'s game so far (the set-up is shared by tests)."""
    twin = Peer(peer.seat, peer.identity, peer.decide, None)
    twin.table = Table(peer.table.me)
    for raw in peer.table.log:
        twin.table.receive(raw)
    twin.seq = peer.seq
    return twin


# -------------------------------------------------------------- complaints


class SealsFalse(Peer):
    """Seals seat 1 a false share of its key: the deal still checks in public."""

    def _escrow_duties(self) -> list[Message]:
        out = super()._escrow_duties()
        return [replace(m, key=_garbled(m.key, 1)) if isinstance(m, Escrow) else m for m in out]


def _garbled(deal: EscrowDeal, recipient: int) -> EscrowDeal:
    shares = tuple(replace(s, sealed=bytes(len(s.sealed))) if s.recipient == recipient else s for s in deal.shares)
    return replace(deal, shares=shares)


@functools.cache
def cheated() -> CryptoGame:
    bots = [make_bot("medium", 5 + p) for p in range(3)]
    return play_crypto_game(5, bots, NAMES[:3], [Peer, Peer, SealsFalse], escrow=True)


def test_a_false_escrow_share_draws_a_complaint_that_halts_the_game_blaming_the_dealer() -> None:
    g = cheated()
    complaints = [(i, s, m) for i, (s, m) in enumerate(kinds(g.log)) if isinstance(m, EscrowComplaint)]
    assert len(complaints) == 1
    index, seat, complaint = complaints[0]
    assert seat == 1 and complaint.complaint.dealer == 2 and complaint.secret == "key"
    for peer in g.peers:
        assert peer.table.halted is not None and peer.table.culprit == 2 and peer.table.halted_at == index
    verdict = verify_entries(g.log)
    assert not verdict.fair and verdict.findings[0].seat == 2 and verdict.findings[0].entry == index


def test_a_false_complaint_is_refused_and_names_the_complainer() -> None:
    peers = [copy_peer(p) for p in escrowed_three()]
    table = peers[0].table
    deal = table.escrowbook.deals[2].seed
    me = peers[1].table.me
    assert me is not None and me.seal is not None
    raw = peers[1]._seal(EscrowComplaint("seed", escrow_complaint(deal, me.seal)))
    with pytest.raises(BadProof, match="complaint is false"):
        table.receive(raw)
    assert table.rejected[-1].seat == 1 and table.halted is None
    # Complaining of another recipient's share, or of a deal that does not exist, is refused too.
    other = peers[0].table.me
    assert other is not None and other.seal is not None
    raw = peers[1]._seal(EscrowComplaint("key", escrow_complaint(table.escrowbook.deals[2].key, other.seal)))
    with pytest.raises(NotExpected, match="its own share"):
        table.receive(raw)


class DealsAnotherSeed(Peer):
    """Deals a seed other than the one it committed to (its image matches the
    deal, so the deal checks in public): found only when it is carried on."""

    def _escrow_duties(self) -> list[Message]:
        out = super()._escrow_duties()
        table = self.table
        assert table.game_id is not None
        seals = dict(table.keyring.seal_keys)
        return [replace(m, seed=deal_exponent(table.game_id, self.seat, 12345, seals), seed_image=escrow_image(12345))
                if isinstance(m, Escrow) else m for m in out]


def test_a_seed_deal_that_is_not_the_committed_seed_halts_the_carry_on_blaming_the_seat() -> None:
    bots = [make_bot("medium", 5 + p) for p in range(3)]
    vanisher = vanishing({2: 3})

    class Cheat(DealsAnotherSeed, vanisher):  # type: ignore[valid-type,misc]
        def outbox(self) -> list[bytes]:
            # Silent until the halt; then it reveals, so that the log is complete.
            return Peer.outbox(self) if self.table.halted is not None else super().outbox()

    g = play_crypto_game(5, bots, NAMES[:3], [vanisher, vanisher, Cheat], escrow=True)
    table = g.peers[0].table
    assert table.halted is not None and table.culprit == 2 and "escrow is false" in table.halted
    assert 2 not in table.carried_on
    last = max(i for i, (_, m) in enumerate(kinds(g.log)) if isinstance(m, EscrowReveal))
    assert table.halted_at == last
    verdict = verify_entries(g.log)
    assert not verdict.fair and verdict.findings[0].seat == 2


def test_an_escrow_game_needs_each_seats_seal_key_with_a_proof_of_its_own() -> None:
    """Keys in an escrow game carry the seat's seal key; without one, with
    another seat's, or proven as a deck key (whose proof must not stand for
    it), they are refused. A game without escrow takes none."""
    from p2p_ttr.deck import announce_key, announce_seal_key, commit_seed
    from p2p_ttr.table.messages import Keys

    def newcomer(peers: list[Peer]) -> tuple[Table, Peer]:
        """A table holding only the seating, and seat 1 writing on it."""
        table = Table()
        table.receive(peers[0].table.log[0])
        writer = Peer(1, peers[1].identity, peers[1].decide, None)
        writer.table = table
        return table, writer

    fresh, writer = newcomer(setup(3, True, upto=0))
    gid = fresh.game_id
    assert gid is not None and fresh.escrow
    me = escrowed_three()[1].table.me
    assert me is not None and me.seal is not None
    me_here = SecretKey(gid, 1, me.key.x)
    seal_here = SecretKey(gid, 1, me.seal.x)
    key, commitment = announce_key(me_here), commit_seed(gid, 1, me.seed)
    for seal, error, reason in ((None, Malformed, "seal key in an escrow game"),
                                (announce_key(seal_here), BadProof, "proof"),
                                (announce_seal_key(SecretKey(gid, 2, me.seal.x)), Malformed, "own seat")):
        with pytest.raises(error, match=reason):
            fresh.receive(writer._seal(Keys(key, commitment, seal)))
    fresh.receive(writer._seal(Keys(key, commitment, announce_seal_key(seal_here))))
    assert fresh.keyring.seal_keys[1] == seal_here.public_key
    other, plain_writer = newcomer(setup(3, False, upto=0))
    ogid = other.game_id
    assert ogid is not None and not other.escrow
    with pytest.raises(Malformed, match="only there"):
        other.receive(plain_writer._seal(Keys(announce_key(SecretKey(ogid, 1, me.key.x)),
                                              commit_seed(ogid, 1, me.seed),
                                              announce_seal_key(SecretKey(ogid, 1, me.seal.x)))))


def test_a_request_written_before_the_target_spoke_again_counts_for_nothing() -> None:
    """Seat 0 asks to carry seat 2 on; before that request is sequenced, seat
    2's own message is (it is back). The request, written before it, is
    refused wherever it lands: an old signature decides nothing."""
    peers = [copy_peer(p) for p in escrowed_three()]
    stale = peers[0].carry_on(2)  # written now, sequenced later
    deliver(peers, peers[2].carry_on(1))  # seat 2 speaks: it is back
    with pytest.raises(NotExpected, match="it was back by then"):
        peers[1].table.receive(stale)
    deliver(peers, peers[0].carry_on(2))  # asked again, after: it counts
    assert peers[1].table.carry_on_requests[2] == frozenset({0})
