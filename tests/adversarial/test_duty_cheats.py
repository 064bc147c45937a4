"""Cheats in a seat's own duties, over whole games: a false shuffle or
re-masking (which its author cannot prove: it brings the proof of its honest
step) halts the game on every replica at that proof, before any card of the
epoch is dealt, and the table and the audit name the seat; a false share
for a card another seat draws halts the game on every replica at the same
entry and the audit names the seat; a seat that withholds what it owes is
named by every replica as the one the game waits for. (Every position of
the chain, every kind of false step: test_proven_shuffles.py. Stacking and
duplicating cards: tests/table/test_verify.py.)"""

from __future__ import annotations

import pytest

from malicious import DUTY_CHEATS
from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.engine.cards import Deck
from p2p_ttr.engine.state import NeedShuffle
from p2p_ttr.local.crypto_game import CryptoGame, GameStuck, play_crypto_game
from p2p_ttr.net.liveness import waiting_for
from p2p_ttr.table.envelope import open_envelope
from p2p_ttr.table.peer import Peer
from p2p_ttr.table.verify import verify_entries

NAMES = ("Ann", "Bob")


def game_with(cheat: str, seed: int) -> CryptoGame:
    return play_crypto_game(seed, [RandomBot(seed + p) for p in range(2)], NAMES, peer_types=[Peer, DUTY_CHEATS[cheat]])


def first_entry(game: CryptoGame, kind: str, seat: int, deck: str | None = None) -> int:
    for i, raw in enumerate(game.log):
        env = open_envelope(raw)
        if env.kind == kind and env.seat == seat and (deck is None or env.body[1][0] == deck):
            return i
    raise AssertionError(f"no {kind} by seat {seat}")


@pytest.mark.parametrize("cheat, kind", [("substitute_cards", "shuffle"), ("garbage_cards", "shuffle"),
                                         ("false_private_share", "shares")])
def test_a_false_shuffle_or_share_halts_every_replica_and_the_audit_names_the_seat(cheat: str, kind: str) -> None:
    game = game_with(cheat, 41)
    halted = {(p.table.halted_at, p.table.digest()) for p in game.peers}
    assert len(halted) == 1 and None not in next(iter(halted)), halted  # same entry, same state everywhere
    assert all(p.table.complete for p in game.peers)  # each honest seat revealed its secrets at once
    verdict = verify_entries(game.log)
    assert not verdict.fair
    first = verdict.findings[0]
    assert first.seat == 1 and first.entry is not None, first.line()
    if kind == "shuffle":
        # Halted in play at the false step's proof, the table naming the seat,
        # before any card of the deck was dealt or any share sent.
        proof = first_entry(game, "shuffle_proof", 1, "train")
        assert all(p.table.halted_at == proof and p.table.culprit == 1 for p in game.peers)
        for p in game.peers:
            engine = p.table.engine
            assert engine is not None and engine.awaiting == NeedShuffle(Deck.TRAIN, 0, tuple(range(110)))
            assert not p.table.shares and not engine.draw_pile
        assert not any(open_envelope(raw).kind == "shares" for raw in game.log)
        assert first.entry == first_entry(game, "shuffle", 1, "train"), first.line()  # the audit: not its seed's
        assert any(f.entry == proof and f.seat == 1 and f.code == "halted" for f in verdict.findings)
    else:
        assert open_envelope(game.log[first.entry]).kind == "shares" and first.code == "bad_proof", first.line()
    assert {f.seat for f in verdict.findings} <= {1, None}


def test_a_false_remasking_is_halted_at_its_proof_and_named_by_verify() -> None:
    game = game_with("swap_remask", 54)  # seat 1 re-masks two returned tickets in the wrong order (early)
    proof = max(i for i, raw in enumerate(game.log) if open_envelope(raw).kind == "remask_proof")  # the last one
    assert open_envelope(game.log[proof]).seat == 1
    assert all(p.table.complete and p.table.halted_at == proof and p.table.culprit == 1 for p in game.peers)
    deck, epoch = open_envelope(game.log[proof]).body[1][:2]
    for p in game.peers:  # never re-masked: no ticket of that epoch is under the pile, nor shared
        engine = p.table.engine
        assert engine is not None and engine.ticket_epoch < epoch and deck == "tickets"
        assert not any(r.epoch == epoch for r in engine.ticket_pile) and not any(r.epoch == epoch for r in p.table.shares
                                                                                 if r.deck is Deck.TICKETS)
    verdict = verify_entries(game.log)
    assert not verdict.fair
    first = verdict.findings[0]
    assert first.seat == 1 and open_envelope(game.log[first.entry or 0]).kind == "remask", first.line()
    assert any(f.entry == proof and f.seat == 1 and f.code == "halted" for f in verdict.findings)
    assert {f.seat for f in verdict.findings} <= {1, None}


class Watched(Peer):
    seen: list[Peer] = []

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        Watched.seen.append(self)


def test_a_seat_that_withholds_is_the_one_every_replica_waits_for() -> None:
    Watched.seen = []
    with pytest.raises(GameStuck):
        play_crypto_game(45, [RandomBot(45), RandomBot(46)], NAMES, peer_types=[Watched, DUTY_CHEATS["withhold"]])
    (honest,) = Watched.seen
    table = honest.table
    assert table.engine is not None and not table.finished
    assert waiting_for(table, 0) == [1]
    owed = table.obligations()
    assert owed and all(o.describe(NAMES).startswith("Bob owes ") for o in owed), owed
