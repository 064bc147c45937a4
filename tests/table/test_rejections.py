"""Invalid input is harmless: refused with a specific code, recorded, and
nothing else changes."""

from __future__ import annotations

import functools

import pytest

from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.deck import make_share
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.engine.events import DrawBlind, DrawTickets, Pass
from p2p_ttr.engine.rules import actors
from p2p_ttr.local.crypto_game import CryptoGame, play_crypto_game
from p2p_ttr.table.envelope import open_envelope, pack, seal
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.messages import Act, Shares
from p2p_ttr.table.table import Table, deck_ref


@functools.cache
def finished() -> CryptoGame:
    return play_crypto_game(5, [RandomBot(50 + p) for p in range(2)], ("Anna", "Boris"))


def midgame() -> tuple[Table, CryptoGame, int]:
    """A fresh replica of seat 0, folded to the middle of the game, at a point
    where a player is to act; and the index reached."""
    g = finished()
    table = Table(g.peers[0].table.me)
    for i, raw in enumerate(g.log):
        table.receive(raw)
        if i > len(g.log) // 2 and table.engine is not None and actors(table.engine):
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
    refused(table, as_seat(g, table, idle, Act(DrawBlind(idle), ()).to_wire()), "out_of_turn")


def test_acting_for_someone_else() -> None:
    table, g, _ = midgame()
    assert table.engine is not None
    actor = actors(table.engine)[0]
    refused(table, as_seat(g, table, 1 - actor, Act(DrawBlind(actor), ()).to_wire()), "not_expected")


def test_illegal_move() -> None:
    table, g, _ = midgame()
    assert table.engine is not None
    actor = actors(table.engine)[0]
    move = Pass(actor) if table.engine.draw_pile else DrawTickets(actor)
    refused(table, as_seat(g, table, actor, Act(move, ()).to_wire()), "illegal_move")


def test_bad_signature() -> None:
    table, g, _ = midgame()
    assert table.engine is not None
    actor = actors(table.engine)[0]
    raw = as_seat(g, table, actor, Act(DrawBlind(actor), ()).to_wire())
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
               Act(DrawBlind(actor), ()).to_wire()).raw
    refused(table, raw, "unknown_head")


def test_wrong_share_and_unowed_share() -> None:
    g = finished()
    table = Table()
    # fold until some seat owes a share
    for raw in g.log:
        table.receive(raw)
        owed = table.owed_shares()
        if owed:
            break
    seat, refs = next(iter(owed.items()))
    ref = sorted(refs)[0]
    secret = g.peers[seat].table.me
    assert secret is not None
    share = make_share(secret.key, deck_ref(ref), table.ciphertext(ref))
    # a share computed on another ciphertext, labelled as this card: its proof fails
    a, b = table.ciphertext(ref)
    bad = make_share(secret.key, deck_ref(ref), (b, a))
    refused(table, as_seat(g, table, seat, Shares((bad,)).to_wire()), "bad_proof")
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

