"""Moves that play hidden cards, and the blame the audit now gives.

An act carries no secret: its author's shares of the cards it plays follow
once the log holds it (protocol.md §6), so a relay that refuses or drops it
learns nothing; cards that cannot pay void the act. ``ttr verify`` names a
seat that withholds its final reveal, and one that halts the game for
nothing. A seat that forfeits between its step and its proof is judged by
its revealed seed."""

from __future__ import annotations

import functools

import pytest

from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.deck import CardCodec, ShuffleStep, make_share
from p2p_ttr.deck.elgamal import decrypt_with_exponent
from p2p_ttr.engine.board import europe
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.engine.events import ClaimRoute, DrawBlind
from p2p_ttr.engine.rules import actors, claim_problem
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.local.crypto_game import CryptoGame, play_crypto_game
from p2p_ttr.table.envelope import open_envelope, seal
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.messages import Act, Audit, ProveRemask, ProveShuffle, Remask, Shares, Shuffle, message_from_wire
from p2p_ttr.table.obligations import Owed
from p2p_ttr.table.peer import Peer
from p2p_ttr.table.cards import deck_ref
from p2p_ttr.table.table import Table
from p2p_ttr.table.verify import verify_entries

NAMES = ("Anna", "Boris", "Chiara")


@functools.cache
def finished() -> CryptoGame:
    return play_crypto_game(31, [RandomBot(310 + p) for p in range(2)], NAMES[:2])


def signed(g: CryptoGame, table: Table, seat: int, body: list[object]) -> bytes:
    """A message from ``seat`` written at ``table``'s head, as its peer would sign it."""
    assert table.game_id is not None
    return seal(g.peers[seat].identity, table.game_id, seat, table.last_seq.get(seat, 0) + 1, table.head, body).raw


def outsider(log: list[bytes], upto: int) -> Table:
    table = Table()
    for raw in log[:upto]:
        table.receive(raw)
    return table


def first_hidden_claim(g: CryptoGame) -> tuple[int, ClaimRoute]:
    """The log index of the first act that claims a route that is not a tunnel
    (whose claim waits for the tunnel's cards too) with cards nobody else has seen."""
    table = Table()
    routes = europe().routes
    for i, raw in enumerate(g.log):
        message = message_from_wire(open_envelope(raw).body)
        if (isinstance(message, Act) and isinstance(message.action, ClaimRoute) and table.engine is not None
                and not routes[message.action.route].tunnel):
            if any(r not in table.engine.public for r in message.action.cards):
                return i, message.action
        table.receive(raw)
    raise AssertionError("no claim with hidden cards in this game")


def test_an_act_carries_no_share_and_its_cards_open_once_the_log_holds_it() -> None:
    g = finished()
    index, claim = first_hidden_claim(g)
    author = claim.player
    assert open_envelope(g.log[index]).body == Act(claim).to_wire()  # the action, nothing else
    table = outsider(g.log, index)
    hidden = {r for r in claim.cards if table.engine is not None and r not in table.engine.public}
    before = table.engine
    table.receive(g.log[index])
    assert table.pending_act is not None and table.pending_act.seat == author
    assert table.engine is before  # nothing applied yet
    assert table.owed_shares()[author] == hidden
    assert all(author not in table.shares.get(r, {}) for r in hidden)  # its cards cannot be opened yet
    assert any(o.seat == author and o.what is Owed.SHARES and "its move plays" in o.detail for o in table.obligations())
    # The author's shares come next, and with them the move.
    following = message_from_wire(open_envelope(g.log[index + 1]).body)
    assert isinstance(following, Shares) and {s.seat for s in following.shares} == {author}
    table.receive(g.log[index + 1])
    assert table.pending_act is None and table.engine is not None
    assert table.engine.route_owner[claim.route] == author
    assert all(r in table.engine.public for r in claim.cards)


def test_a_relay_that_refuses_an_act_learns_nothing_and_the_player_moves_otherwise() -> None:
    g = finished()
    index, claim = first_hidden_claim(g)
    author = claim.player
    table = outsider(g.log, index)
    assert table.engine is not None
    hidden = [r for r in claim.cards if r not in table.engine.public]
    # Everything the relay has seen: the log so far and the refused act. No
    # share of the author's for those cards is anywhere in it.
    assert all(author not in table.shares.get(r, {}) for r in hidden)
    assert all(table.engine.face(r) is None for r in hidden)
    # The player thinks again and draws instead: accepted, the game goes on.
    table.receive(signed(g, table, author, Act(DrawBlind(author)).to_wire()))
    assert table.pending_act is None and table.engine.cards_drawn == 1
    assert table.engine.route_owner[claim.route] is None


def decision_with_hidden_cards(g: CryptoGame) -> tuple[Table, int, list[CardRef]]:
    """An outsider folded to a turn's start where the actor holds hidden
    cards, with the actor and its hand as its own replica knows it."""
    table = Table()
    for raw in g.log:
        table.receive(raw)
        e = table.engine
        if e is None or table.pending_act or e.phase is not Phase.TURN or e.cards_drawn or e.awaiting:
            continue
        movers = actors(e)
        if len(movers) == 1 and table.owed_shares() == {} and len(e.players[movers[0]].hand) >= 4:
            return table, movers[0], list(e.players[movers[0]].hand)
    raise AssertionError("no decision point with a hand of 4")


def test_cards_that_cannot_pay_void_the_act_and_the_player_moves_again() -> None:
    g = finished()
    table, author, hand = decision_with_hidden_cards(g)
    assert table.engine is not None
    board = europe()
    # The author knows its faces; the test reads them with every seat's secret.
    joint_secret = sum(p.table.me.key.x for p in g.peers if p.table.me is not None)
    codec = CardCodec("train", range(board.n_cards))
    kind = {r: board.card_kind(codec.card(decrypt_with_exponent([table.ciphertext(r)], joint_secret)[0]))
            for r in hand}
    # A coloured route none of whose colour (nor a locomotive) is among the cards laid.
    for route in board.routes:
        cards = [r for r in hand if kind.get(r) not in (route.color, "locomotive")][: route.length]
        if (route.color != "gray" and not route.tunnel and not route.ferry_locomotives and len(cards) == route.length
                and claim_problem(table.engine, author, route) is None):
            break
    else:
        pytest.skip("no such route in this hand")
    claim = ClaimRoute(author, route.id, tuple(cards))
    table.receive(signed(g, table, author, Act(claim).to_wire()))
    assert table.pending_act is not None
    secret = g.peers[author].table.me
    assert secret is not None
    shares = tuple(make_share(secret.key, deck_ref(r), table.ciphertext(r)) for r in cards)
    table.receive(signed(g, table, author, Shares(shares).to_wire()))
    assert table.pending_act is None and table.engine is not None
    assert table.voided and table.voided[-1].seat == author
    assert table.engine.route_owner[route.id] is None
    assert all(r in table.engine.public for r in cards)  # shown, as the author chose
    assert actors(table.engine) == (author,)  # and it moves again


def test_an_act_no_faces_could_pay_for_is_refused_at_once() -> None:
    g = finished()
    table, author, hand = decision_with_hidden_cards(g)
    assert table.engine is not None
    route = next(r for r in europe().routes if r.length >= 2 and claim_problem(table.engine, author, r) is None)
    before = table.digest()
    with pytest.raises((TableError, EngineError)) as caught:
        table.receive(signed(g, table, author, Act(ClaimRoute(author, route.id, tuple(hand[: route.length - 1]))).to_wire()))
    assert caught.value.code == "illegal_move"
    assert table.pending_act is None and table.digest() == before


def test_verify_names_a_seat_that_withholds_its_final_reveal() -> None:
    g = finished()
    last = max(i for i, raw in enumerate(g.log) if open_envelope(raw).seat == 1
               and isinstance(message_from_wire(open_envelope(raw).body), Audit))
    # The entries after it, as their authors would have written them without it.
    log = g.log[:last]
    for raw in g.log[last + 1:]:
        envelope = open_envelope(raw)
        log.append(signed(g, outsider(log, len(log)), envelope.seat, envelope.body))
    verdict = verify_entries(log)
    assert [(f.seat, f.code) for f in verdict.findings] == [(1, "withheld_audit")]


def test_verify_names_a_seat_that_halts_the_game_for_nothing() -> None:
    g = finished()
    cut = len(g.log) // 2
    table = outsider(g.log, cut)
    log = list(g.log[:cut])
    for seat in (0, 1):  # seat 0 stops the game; seat 1 then reveals too, as honest peers do
        me = g.peers[seat].table.me
        assert me is not None
        raw = signed(g, table, seat, Audit(me.seed, me.key).to_wire())
        table.receive(raw)
        log.append(raw)
    assert table.halted is not None and table.halting.stopper == 0 and table.complete
    verdict = verify_entries(log)
    assert [(f.entry, f.seat, f.code) for f in verdict.findings] == [(cut, 0, "halted_without_cause")]
    # The log goes on with a move after the halt: refused, and reported after
    # the halt, which stays the first deviation (the stopper's).
    later = open_envelope(g.log[cut])
    log.append(signed(g, table, later.seat, later.body))
    verdict = verify_entries(log)
    assert [(f.entry, f.seat, f.code) for f in verdict.findings] == [
        (cut, 0, "halted_without_cause"), (cut + 2, later.seat, "not_expected")]


def leaving_between_step_and_proof(tamper: bool) -> type[Peer]:
    """Seat 1 sends its train-deck step (swapped about, if ``tamper``), then
    forfeits instead of proving it."""

    class Leaver(Peer):
        def _chain_step(self, engine: GameState) -> Shuffle | Remask | None:
            step = super()._chain_step(engine)
            if tamper and isinstance(step, Shuffle) and step.step.deck == "train" and step.step.epoch == 0:
                s, cts = step.step, list(step.step.ciphertexts)
                cts[0], cts[1] = cts[1], cts[0]
                return Shuffle(ShuffleStep(s.deck, s.epoch, s.seat, tuple(cts)), step.cards)
            return step

        def _chain_proof(self, engine: GameState) -> ProveShuffle | ProveRemask | None:
            return None

        def outbox(self) -> list[bytes]:
            built = self.table.chains.get((Deck.TRAIN, 0))
            if self.seat in self.table.forfeited or self.seat in self.table.audits:
                return []
            if built is not None and len(built.steps) > self.seat and not self.table.finished:
                return [self.forfeit()]
            return super().outbox()

    return Leaver


@pytest.mark.parametrize("tamper", [False, True])
def test_a_seat_that_forfeits_before_proving_its_step_is_judged_by_its_seed(tamper: bool) -> None:
    g = play_crypto_game(33, [RandomBot(330 + p) for p in range(3)], NAMES,
                         peer_types=[Peer, leaving_between_step_and_proof(tamper)])
    tables = [g.peers[0].table, g.peers[2].table, outsider(g.log, len(g.log))]
    if tamper:
        assert {(t.culprit, t.halted is not None) for t in tables} == {(1, True)}
        assert all(not any(ps.hand for ps in t.engine.players) for t in tables if t.engine)  # nothing dealt
        assert any(f.seat == 1 for f in verify_entries(g.log).findings)
    else:
        assert all(t.complete and t.halted is None for t in tables)
        assert verify_entries(g.log).fair

