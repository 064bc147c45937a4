"""The replicated table: whole games among peers that share only bytes."""

from __future__ import annotations

import functools

import pytest

from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.engine.view import own_cards
from p2p_ttr.local.crypto_game import CryptoGame, play_crypto_game
from p2p_ttr.table.table import Table
from p2p_ttr.table.obligations import Owed

NAMES = ("Anna", "Boris", "Chiara", "Dmitri", "Elena")


@functools.cache
def game(n: int, seed: int = 3) -> CryptoGame:
    return play_crypto_game(seed, [RandomBot(seed + p) for p in range(n)], NAMES[:n])


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_every_peer_reaches_the_same_final_state(n: int) -> None:
    g = game(n)
    digests = {peer.table.digest() for peer in g.peers}
    assert len(digests) == 1
    assert all(peer.table.complete for peer in g.peers)
    assert all(peer.table.rejected == [] for peer in g.peers)
    # and an outsider folding the log from scratch agrees
    outsider = Table()
    for raw in g.log:
        outsider.receive(raw)
    assert outsider.digest() in digests


def test_no_peer_ever_knows_another_players_hidden_cards() -> None:
    g = game(3)
    peers = [Table(p.table.me) for p in g.peers]
    for raw in g.log:
        for table in peers:
            table.receive(raw)
            engine = table.engine
            if engine is None or engine.over:
                continue
            me = table.me
            assert me is not None
            assert set(engine.private) <= own_cards(engine, me.seat)
            for p, ps in enumerate(engine.players):
                if p == me.seat:
                    continue
                for ref in ps.hand + ps.tickets + ps.offered:
                    # known only if everyone saw it (a face-up card taken, a card shown)
                    assert engine.face(ref) is None or ref in engine.public


def test_hands_open_only_to_their_owner() -> None:
    g = game(2)
    final = [p.table for p in g.peers]
    # at the end tickets are public, but hand cards never played stay private
    for table in final:
        assert table.me is not None and table.engine is not None
        other = 1 - table.me.seat
        hidden = [r for r in table.engine.players[other].hand if r not in table.engine.public]
        assert all(table.engine.face(r) is None for r in hidden)


def test_same_seed_same_game() -> None:
    a = game(2, seed=11)
    b = play_crypto_game(11, [RandomBot(11 + p) for p in range(2)], NAMES[:2])
    assert a.peers[0].table.engine == b.peers[0].table.engine


def test_obligations_say_who_owes_what_and_agree_everywhere() -> None:
    g = game(2)
    tables = [Table(), Table()]
    seen: set[Owed] = set()
    for raw in g.log:
        for t in tables:
            t.receive(raw)
        a, b = (t.obligations() for t in tables)
        assert a == b
        seen |= {o.what for o in a}
        if a:
            assert a[0].describe(("Anna", "Boris")).startswith(("Anna owes", "Boris owes"))
    assert {Owed.KEYS, Owed.SHUFFLE, Owed.SHARES, Owed.MOVE, Owed.AUDIT} <= seen
    assert tables[0].obligations() == []  # complete
