"""Invalid input is harmless: refused with a specific code, recorded, and
nothing else changes."""

from __future__ import annotations

import functools
from dataclasses import replace

import pytest

from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.deck import DecryptionShare, make_share
from p2p_ttr.engine.cards import CardRef
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.engine.events import DrawBlind, DrawTickets, Pass
from p2p_ttr.engine.rules import actors
from p2p_ttr.local.crypto_game import CryptoGame, play_crypto_game
from p2p_ttr.table.envelope import open_envelope, pack, seal
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.messages import Act, Shares, message_from_wire
from p2p_ttr.table.cards import deck_ref
from p2p_ttr.table.table import Table
from p2p_ttr.table.verify import joint_secret, verify_entries


@functools.cache
def finished() -> CryptoGame:
    return play_crypto_game(5, [RandomBot(50 + p) for p in range(2)], ("Anna", "Boris"))


def midgame() -> tuple[Table, CryptoGame, int]:
    """A fresh replica of seat 0, folded to the middle of the game, at a point
    where a player is to act (no move waiting for its cards); and the index
    reached."""
    g = finished()
    table = Table(g.peers[0].table.me)
    for i, raw in enumerate(g.log):
        table.receive(raw)
        if i > len(g.log) // 2 and table.engine is not None and actors(table.engine) and table.pending_act is None:
            return table, g, i
    raise AssertionError("no decision point found")


def refused(table: Table, raw: bytes, code: str) -> None:
    before = (table.digest(), len(table.log), dict(table.last_seq))
    with pytest.raises((TableError, EngineError)) as caught:
        table.receive(raw)
    assert caught.value.code == code, caught.value
    assert (table.digest(), len(table.log), dict(table.last_seq)) == before
    assert table.rejected[-1].code == code


def as_seat(g: CryptoGame, table: Table, seat: int, body: list[object], seq: int | None = None) -> bytes:
    peer = g.peers[seat]
    assert table.game_id is not None
    return seal(peer.identity, table.game_id, seat, seq or table.last_seq.get(seat, 0) + 1, table.head, body).raw


def test_out_of_turn_action() -> None:
    table, g, _ = midgame()
    assert table.engine is not None
    idle = 1 - actors(table.engine)[0]
    refused(table, as_seat(g, table, idle, Act(DrawBlind(idle)).to_wire()), "out_of_turn")


def test_acting_for_someone_else() -> None:
    table, g, _ = midgame()
    assert table.engine is not None
    actor = actors(table.engine)[0]
    refused(table, as_seat(g, table, 1 - actor, Act(DrawBlind(actor)).to_wire()), "not_expected")


def test_illegal_move() -> None:
    table, g, _ = midgame()
    assert table.engine is not None
    actor = actors(table.engine)[0]
    move = Pass(actor) if table.engine.draw_pile else DrawTickets(actor)
    refused(table, as_seat(g, table, actor, Act(move).to_wire()), "illegal_move")


def test_bad_signature() -> None:
    table, g, _ = midgame()
    assert table.engine is not None
    actor = actors(table.engine)[0]
    raw = as_seat(g, table, actor, Act(DrawBlind(actor)).to_wire())
    env = open_envelope(raw)
    forged = pack([env.signed, bytes(64)])
    refused(table, forged, "bad_signature")
    impostor = Identity.generate()
    assert table.game_id is not None
    refused(table, seal(impostor, table.game_id, actor, env.seq, table.head, env.body).raw, "bad_signature")


def test_replayed_and_foreign_messages() -> None:
    table, g, i = midgame()
    refused(table, g.log[i], "replay")  # the last entry again
    other = play_crypto_game(6, [RandomBot(p) for p in range(2)], ("Anna", "Boris"))
    refused(table, other.log[5], "wrong_game")


def test_unknown_head() -> None:
    table, g, _ = midgame()
    assert table.engine is not None and table.game_id is not None
    actor = actors(table.engine)[0]
    raw = seal(g.peers[actor].identity, table.game_id, actor, table.last_seq[actor] + 1, b"\x07" * 32,
               Act(DrawBlind(actor)).to_wire()).raw
    refused(table, raw, "unknown_head")


def owed_now(g: CryptoGame, table: Table) -> tuple[int, CardRef, dict[int, set[CardRef]]]:
    """Fold ``table`` until some seat owes a share; that seat, one such card, and all owed."""
    for raw in g.log:
        table.receive(raw)
        owed = table.owed_shares()
        if owed:
            seat, refs = next(iter(sorted(owed.items())))
            return seat, sorted(refs)[0], owed
    raise AssertionError("nobody ever owed a share")


def false_share(g: CryptoGame, table: Table, seat: int, ref: CardRef) -> DecryptionShare:
    """A share computed on another ciphertext, labelled as this card: its proof fails."""
    secret = g.peers[seat].table.me
    assert secret is not None
    a, b = table.ciphertext(ref)
    return make_share(secret.key, deck_ref(ref), (b, a))


def test_wrong_share_and_unowed_share() -> None:
    g = finished()
    table = Table(eager_proofs=True)  # checks every proof on arrival, as `ttr verify` does
    seat, ref, owed = owed_now(g, table)
    secret = g.peers[seat].table.me
    assert secret is not None
    share = make_share(secret.key, deck_ref(ref), table.ciphertext(ref))
    refused(table, as_seat(g, table, seat, Shares((false_share(g, table, seat, ref),)).to_wire()), "bad_proof")
    # a share nobody asked for
    not_owed = [s for s in range(table.n) if s != seat and ref not in owed.get(s, set())]
    if not_owed:
        stranger = not_owed[0]
        s_secret = g.peers[stranger].table.me
        assert s_secret is not None
        unasked = make_share(s_secret.key, deck_ref(ref), table.ciphertext(ref))
        refused(table, as_seat(g, table, stranger, Shares((unasked,)).to_wire()), "not_expected")
    # the right share is then accepted
    table.receive(as_seat(g, table, seat, Shares((share,)).to_wire()))


def test_a_false_share_for_a_private_draw_is_caught_by_the_drawer() -> None:
    """Players check the proofs of a private draw's shares when they use them:
    the drawer before reading the card. Its replica then suspects the seat,
    and its peer reveals its secrets, which halts everyone (see test_verify)."""
    g = finished()
    outsider = Table()
    seat, ref, _ = owed_now(g, outsider)
    drawer = 1 - seat
    mine = Table(g.peers[drawer].table.me)
    for raw in outsider.log:
        mine.receive(raw)
    bad = as_seat(g, outsider, seat, Shares((false_share(g, outsider, seat, ref),)).to_wire())
    outsider.receive(bad)  # accepted on form: only the drawer can use it yet
    mine.receive(bad)
    assert outsider.digest() == mine.digest() and outsider.halted is None
    assert mine.halting.suspicion is not None and f"seat {seat}" in mine.halting.suspicion
    assert mine.engine is not None and mine.engine.face(ref) is None  # the false share opened nothing
    peer = g.peers[drawer]
    peer.table, peer.seq = mine, mine.last_seq[drawer]
    (reveal,) = peer.outbox()
    outsider.receive(reveal)
    assert outsider.halted is not None


@pytest.mark.parametrize(
    "garbage",
    [b"", b"\xc1", b"\x92\x01", pack([b"x", b"y"]), pack(["not", "an", "envelope"]), b"\xff" * 300],
)
def test_garbage_is_malformed(garbage: bytes) -> None:
    table, _, _ = midgame()
    refused(table, garbage, "malformed")


def test_oversized_message_is_refused_before_decoding() -> None:
    table, _, _ = midgame()
    refused(table, b"\x00" * (200 * 1024), "malformed")



def test_verify_names_the_seat_of_a_false_private_share_not_the_drawer() -> None:
    g = finished()
    outsider = Table()
    seat, ref, _ = owed_now(g, outsider)
    drawer = 1 - seat
    log = list(outsider.log)
    log.append(as_seat(g, outsider, seat, Shares((false_share(g, outsider, seat, ref),)).to_wire()))
    tables = [Table(p.table.me) for p in g.peers]
    for raw in log:
        for t in tables:
            t.receive(raw)
    # the drawer reveals (its replica suspects), which halts the other, who reveals too
    for p in (drawer, seat):
        peer = g.peers[p]
        peer.table, peer.seq = tables[p], tables[p].last_seq[p]
        for raw in peer.outbox():
            log.append(raw)
            for t in tables:
                t.receive(raw)
    assert all(t.halted for t in tables) and all(t.complete for t in tables)
    # Halted once, at the drawer's reveal; the later reveal moves nothing.
    assert {t.halted_at for t in tables} == {len(outsider.log) + 1}
    verdict = verify_entries(log)
    assert not verdict.fair
    first = verdict.findings[0]
    assert (first.entry, first.seat) == (len(outsider.log), seat), [f.line() for f in verdict.findings]


def test_verify_refuses_a_share_whose_value_is_right_and_proof_is_not() -> None:
    """`ttr verify` opens a finished game's cards with the revealed secrets
    and checks shares' values against them; a share with the right value and
    another share's proof would pass that, though every replica refuses it
    (bad_proof). The forged log -- one share's proof swapped for another's of
    the same seat, every later entry signed again on the new chain -- must be
    refused at that entry, blamed on its seat, as the replicas refuse it."""
    g = finished()
    secret = joint_secret(g.log)
    assert secret is not None
    table = Table(audit_secret=secret)  # checks no proof: the forged entry folds, as in the fast path
    forged: list[bytes] = []
    at: tuple[int, int] | None = None
    for raw in g.log:
        env = open_envelope(raw)
        body = env.body
        message = message_from_wire(body)
        if at is None and isinstance(message, Shares) and len(message.shares) >= 2:
            first, other = message.shares[0], message.shares[1]
            junk = replace(first, t1=other.t1, t2=other.t2, response=other.response)
            body = Shares((junk,) + message.shares[1:]).to_wire()
            at = (len(forged), env.seat)
        if at is not None:
            assert table.game_id is not None
            raw = seal(g.peers[env.seat].identity, table.game_id, env.seat, env.seq, table.head, body).raw
        table.receive(raw)
        forged.append(raw)
    assert at is not None and table.complete
    assert verify_entries(g.log).fair
    verdict = verify_entries(forged)
    assert not verdict.fair
    first_finding = verdict.findings[0]
    assert (first_finding.entry, first_finding.seat, first_finding.code) == (*at, "bad_proof"), \
        [f.line() for f in verdict.findings]


@pytest.mark.parametrize("body", [["shares", "not a list of shares"], ["no such kind"], []])
def test_verify_blames_the_seat_that_signed_a_malformed_message_and_nobody_for_altered_bytes(
        body: list[object]) -> None:
    """A body that does not parse, validly signed by its seat for this game,
    is that seat's own statement: `ttr verify` names it. The same entry with
    its signature damaged (bytes altered on the way) names nobody."""
    g = finished()
    table, _, index = midgame()
    seat = 1
    log = list(g.log[: index + 1])
    signed = as_seat(g, table, seat, body)
    refused(table, signed, "malformed")
    finding = next(f for f in verify_entries(log + [signed]).findings if f.entry == len(log))
    assert (finding.seat, finding.code) == (seat, "malformed"), finding.line()
    altered = signed[:-1] + bytes([signed[-1] ^ 1])  # the signature's last byte
    finding = next(f for f in verify_entries(log + [altered]).findings if f.entry == len(log))
    assert finding.seat is None, finding.line()
