"""The table's parts on their own: the log chain, the deck chains, the share
book and the obligations, each against the contract its docstring states
(the fold that joins them is tested through ``Table`` everywhere else)."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field

import pytest

from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.state import GameState, NeedRemask, NeedShuffle
from p2p_ttr.local.crypto_game import CryptoGame, play_crypto_game
from p2p_ttr.table.acts import PendingAct
from p2p_ttr.deck import JointKey, ShuffleProof
from p2p_ttr.deck.shuffleproof import ShuffleClaim
from p2p_ttr.table import chains
from p2p_ttr.table.chains import ChainBook, ChainDone, FalseStep
from p2p_ttr.table.envelope import open_envelope, seal
from p2p_ttr.table.errors import Malformed, NotExpected, Replay, UnknownHead, WrongGame
from p2p_ttr.table.logchain import EMPTY_HEAD, LogChain, chain, genesis
from p2p_ttr.table.messages import ProveShuffle, Seating, Shuffle, message_from_wire
from p2p_ttr.table.obligations import Obligation, Owed, obligations
from p2p_ttr.table.table import Table


@functools.cache
def game() -> CryptoGame:
    return play_crypto_game(12, [RandomBot(120 + p) for p in range(2)], ("Anna", "Boris"))


def test_the_log_chain_takes_entries_in_order_and_nothing_else() -> None:
    g = game()
    log = LogChain()
    first = open_envelope(g.log[0])
    seating = message_from_wire(first.body)
    assert isinstance(seating, Seating) and log.head == EMPTY_HEAD
    log.open(first, seating.seats)
    assert log.heads == [genesis(first.game_id)]
    log.append(g.log[0], first)
    for raw in g.log[1:40]:
        envelope = open_envelope(raw)
        log.check(envelope)
        log.append(raw, envelope)
    assert log.head == functools.reduce(chain, g.log[:40], genesis(first.game_id))
    assert len(log.entries) == 40 and len(log.heads) == 41
    again = open_envelope(g.log[39])
    with pytest.raises(Replay):
        log.check(again)
    peer = g.peers[again.seat]
    ahead = seal(peer.identity, first.game_id, again.seat, again.seq + 100, b"\1" * 32, again.body)
    with pytest.raises(UnknownHead):
        log.check(ahead)
    with pytest.raises(WrongGame):
        log.check(seal(peer.identity, b"\2" * 16, again.seat, again.seq + 100, log.head, again.body))
    with pytest.raises(NotExpected):
        LogChain().open(again, seating.seats)  # a game opens with seat 0's first message


def _at_first_shuffle() -> tuple[Table, NeedShuffle | NeedRemask, list[bytes]]:
    """A replica folded until the first chain is due, and the chain's entries."""
    g = game()
    table = Table()
    for i, raw in enumerate(g.log):
        table.receive(raw)
        need = table.chain_due()
        if need is not None:
            rest = [r for r in g.log[i + 1:] if open_envelope(r).kind in ("shuffle", "shuffle_proof")]
            return table, need, rest
    raise AssertionError("no chain")


def test_the_deck_chains_take_each_seats_step_in_turn_then_its_proof() -> None:
    table, need, entries = _at_first_shuffle()
    book = ChainBook()
    assert table.joint is not None
    book.start(table.n, table.joint)
    steps = [message_from_wire(open_envelope(r).body) for r in entries if open_envelope(r).kind == "shuffle"]
    proofs = [message_from_wire(open_envelope(r).body) for r in entries if open_envelope(r).kind == "shuffle_proof"]
    first, second = steps[0], steps[1]
    assert isinstance(first, Shuffle) and isinstance(second, Shuffle)
    with pytest.raises(NotExpected, match="seat 0's step"):
        book.add_step(need, 1, 1, second.step.ciphertexts)
    with pytest.raises(Malformed, match="cards"):
        book.add_step(need, 0, 0, first.step.ciphertexts[:-1])
    assert book.add_step(need, 0, 0, first.step.ciphertexts) is None
    assert book.turn(need) == 1 and book.unproven(need) == [0]
    proof0, proof1 = (p.proof for p in proofs[:2])  # type: ignore[attr-defined]
    with pytest.raises(NotExpected, match="owes no proof"):
        book.add_proof(need, 1, proof1, 7)  # its step is not in yet
    assert book.add_proof(need, 0, proof0, 5) is None  # held, checked with the others
    assert book.add_step(need, 1, 1, second.step.ciphertexts) is None
    assert book.add_proof(need, 1, proof1, 9) == ChainDone()
    assert book[(need.deck, need.epoch)].proven == {0, 1}
    assert book.ciphertext(CardRef(need.deck, need.epoch, 0)) == second.step.ciphertexts[0]


def _chain_messages(entries: list[bytes], n: int) -> tuple[list[Shuffle], list[ShuffleProof]]:
    """The first chain's steps and proofs (the next chain starts once it is done)."""
    messages = [message_from_wire(open_envelope(r).body) for r in entries]
    steps = [m for m in messages if isinstance(m, Shuffle)]
    return steps[:n], [m.proof for m in messages if isinstance(m, ProveShuffle)][:n]


def _fold_chain(book: ChainBook, need: NeedShuffle | NeedRemask, steps: list[Shuffle],
                proofs: list[ShuffleProof], vouched: ShuffleProof) -> object:
    """The chain's steps, then ``vouched`` vouched for by its seat's replica, then the proofs."""
    for step in steps:
        book.add_step(need, step.step.seat, step.step.seat, step.step.ciphertexts)
    me = game().peers[vouched.seat].table.me
    assert me is not None
    book.vouch(need, vouched, me.seed)
    return [book.add_proof(need, p.seat, p, 10 + p.seat) for p in proofs][-1]


def test_a_replica_checks_every_proof_of_a_chain_but_the_one_its_own_seat_made(
        monkeypatch: pytest.MonkeyPatch) -> None:
    table, need, entries = _at_first_shuffle()
    steps, proofs = _chain_messages(entries, table.n)
    assert table.joint is not None and len(proofs) == table.n == 2
    checked: list[int] = []
    check = chains.verify_shuffles

    def counted(joint: JointKey, claims: list[ShuffleClaim]) -> None:
        checked.extend(proof.seat for _, _, proof in claims)
        check(joint, claims)

    monkeypatch.setattr(chains, "verify_shuffles", counted)
    book = ChainBook()
    book.start(table.n, table.joint)
    assert _fold_chain(book, need, steps, proofs, proofs[1]) == ChainDone()  # seat 1's replica made it
    assert checked == [0] and book[(need.deck, need.epoch)].proven == {0, 1}


def test_a_false_proof_is_blamed_on_its_seat_beside_a_vouched_one_and_a_vouched_proof_altered_is_checked() -> None:
    table, need, entries = _at_first_shuffle()
    steps, proofs = _chain_messages(entries, table.n)
    assert table.joint is not None
    s1, s2, s3, s4 = proofs[0].s
    forged = dataclasses.replace(proofs[0], s=(s1 + 1, s2, s3, s4))
    for vouched, sent in ((proofs[1], [forged, proofs[1]]), (proofs[0], [forged, proofs[1]])):
        book = ChainBook()
        book.start(table.n, table.joint)
        verdict = _fold_chain(book, need, steps, sent, vouched)
        assert isinstance(verdict, FalseStep) and (verdict.seat, verdict.entry) == (0, 10)
        assert "seat 0 sent a false proof" in verdict.reason


def test_the_share_book_stores_only_owed_shares_once() -> None:
    g = game()
    table = Table(g.peers[0].table.me)
    for raw in g.log:
        table.receive(raw)
        if table.owed_shares().get(1):
            break
    owed = table.owed_shares()[1]
    ref = sorted(owed)[0]
    assert table.joint is not None
    from p2p_ttr.deck import make_share
    from p2p_ttr.table.cards import deck_ref

    key = g.peers[1].table.me.key  # type: ignore[union-attr]
    share = make_share(key, deck_ref(ref), table.ciphertext(ref))
    with pytest.raises(NotExpected, match="owes no share"):
        table.shares.store(table.joint, 1, [(share, ref)], set(), set())
    with pytest.raises(Malformed, match="twice"):
        table.shares.store(table.joint, 1, [(share, ref), (share, ref)], owed, set())
    with pytest.raises(Malformed, match="its author's seat"):
        table.shares.store(table.joint, 0, [(share, ref)], {ref}, set())
    table.shares.store(table.joint, 1, [(share, ref)], owed, set())
    assert table.shares[ref][1] == share and 1 in table.shares.unchecked[ref]  # checked when first used
    assert table.shares.sharers(ref, {0: None}) >= {0, 1}


@dataclass
class FakeState:
    """Just what obligations are computed from."""

    n: int = 3
    seated: bool = True
    keys: set[int] = field(default_factory=set)
    audits: set[int] = field(default_factory=set)
    finished: bool = False
    engine: GameState | None = None
    chains: ChainBook = field(default_factory=ChainBook)
    pending_act: PendingAct | None = None
    forfeited: set[int] = field(default_factory=set)
    shares: dict[CardRef, set[int]] = field(default_factory=dict)

    def chain_due(self) -> NeedShuffle | NeedRemask | None:
        return None


def test_obligations_are_values_the_client_words() -> None:
    assert obligations(FakeState(seated=False)) == []
    assert obligations(FakeState(keys={1})) == [Obligation(0, Owed.KEYS), Obligation(2, Owed.KEYS)]
    assert obligations(FakeState(keys={0, 1, 2}, finished=True, audits={2})) == [
        Obligation(0, Owed.AUDIT), Obligation(1, Owed.AUDIT)]
    proof = Obligation(1, Owed.SHUFFLE_PROOF, (Deck.TRAIN, 2))
    assert proof.describe(("Ann", "Bob")) == "Bob owes shuffle proof (train epoch 2)"
    shares = Obligation(0, Owed.SHARES, to_all=3, drawn=2, drawn_by=(1, 2))
    assert shares.describe() == "seat 0 owes shares (3 to reveal to all; 2 drawn by seats 1, 2)"


def test_a_waiting_move_plays_the_hidden_cards_it_pays_with_and_a_pass_the_whole_hand() -> None:
    from p2p_ttr.engine.events import BuildStation, DrawBlind, Pass
    from p2p_ttr.table.acts import hidden_cards

    g = game()
    table = Table()
    for raw in g.log[: len(g.log) // 2]:
        table.receive(raw)
    engine = table.engine
    assert engine is not None
    seat = engine.current
    hand = engine.players[seat].hand
    hidden = tuple(r for r in hand if r not in engine.public)
    assert hidden
    assert hidden_cards(engine, seat, Pass(seat)) == hidden
    assert hidden_cards(engine, seat, BuildStation(seat, "Wien", hand)) == hidden  # the cards it pays with
    assert hidden_cards(engine, seat, DrawBlind(seat)) == ()


def test_the_fold_owes_a_forfeited_seat_its_chain_steps_then_its_cards_then_its_moves() -> None:
    """``forfeits.next_duty`` on a real game where the last seat forfeits:
    right after the forfeit every replica has the same next duty, and once
    the fold has done them all, none is left until the log moves on."""
    import sys

    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
    from test_forfeit import folded, forfeit_index
    from test_forfeit import game as forfeit_game

    from p2p_ttr.table.forfeits import next_duty

    g = forfeit_game(3, 2, 8)
    i = forfeit_index(g.log)
    before = folded(g.log, i)  # just before the forfeit: the seat is live, it owes its own duties
    assert before.engine is not None
    assert next_duty(before.engine, before.chain_due(), before.chains, {}, lambda r: set(), before.n) is None
    after = folded(g.log, i + 1)  # the fold has carried out every duty the forfeit set off
    assert after.engine is not None and 2 in after.forfeited
    seeds = {s: f.seed for s, f in after.forfeited.items()}
    duty = next_duty(after.engine, after.chain_due(), after.chains, seeds, after.play.sharers, after.n)
    assert duty is None  # the fold does every duty as soon as it is due
    # A duty appears as soon as the forfeited seat is the one the game waits for.
    for raw in g.log[i + 1:]:
        after.receive(raw)
        assert after.engine is not None
        if 2 in after.forfeited and (need := after.chain_due()) is not None and after.chains.turn(need) == 2:
            raise AssertionError("the fold left a forfeited seat's chain step undone")


def test_a_chain_takes_only_proofs_of_its_own_kind() -> None:
    """The checker is the chain's, by construction: a proof of shuffle offered
    for a re-masking (which must keep the order) is refused by the chain
    book itself, not only by the fold's order of checks."""
    from p2p_ttr.deck import ShuffleProof
    from p2p_ttr.engine.cards import Deck
    from p2p_ttr.engine.state import NeedRemask
    from p2p_ttr.table.messages import ProveShuffle

    g = game()
    proof = next(m.proof for m in (message_from_wire(open_envelope(r).body) for r in g.log)
                 if isinstance(m, ProveShuffle))
    assert isinstance(proof, ShuffleProof)
    remask = NeedRemask(Deck.TICKETS, 1, (CardRef(Deck.TICKETS, 0, 0),))
    with pytest.raises(Malformed, match="re-masking"):
        ChainBook().add_proof(remask, proof.seat, proof, 99)


def test_the_fold_plays_the_caretaker_of_the_seatings_rules_revision() -> None:
    """A seating of ``ttr/7`` plays the caretaker that goes for a tunnel only when it pays the worst case; a
    seating of ``ttr/6`` (or ``ttr-europe/5``, read as 6) keeps the one it was played with, which went for
    any tunnel: its logs replay as written (a ttr/6 log whose forfeited seat went for such a tunnel is
    refused at that entry if folded with the new caretaker)."""
    import sys
    from dataclasses import replace
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[1] / "engine"))
    from test_caretaker import ANGORA_CONSTANTINOPLE, stuck_on_a_tunnel

    from p2p_ttr.deck import Seed
    from p2p_ttr.engine.events import ClaimRoute, DrawBlind
    from p2p_ttr.table.forfeits import CaretakerMove, next_duty
    from p2p_ttr.table.gameplay import safe_tunnels
    from p2p_ttr.table.identity import Identity
    from p2p_ttr.table.messages import EUROPE_RULES_5, RULES, RULES_6, Seat

    ids = [Identity.from_bytes(bytes([i + 1]) * 32) for i in range(3)]
    seats = tuple(Seat(f"P{i}", ids[i].public) for i in range(3))
    safe = {}
    for rules in (RULES, RULES_6, EUROPE_RULES_5):
        body = (Seating(seats, rules=rules).to_wire() if rules != EUROPE_RULES_5
                else ["seating", rules, [[s.name, s.identity] for s in seats]])
        table = Table()
        table.receive(seal(ids[0], b"g" * 16, 0, 1, EMPTY_HEAD, body).raw)
        assert table.seating is not None
        safe[rules] = safe_tunnels(table.seating)
    assert safe == {RULES: True, RULES_6: False, EUROPE_RULES_5: False}
    engine = stuck_on_a_tunnel()  # seat 0 forfeited: its hand is open to all
    engine = replace(engine, public={**engine.public, **{r: engine.private[r] for r in engine.players[0].hand}})
    duties = {flag: next_duty(engine, None, ChainBook(), {0: Seed.generate()}, lambda r: set(), 3, flag)
              for flag in (True, False)}
    assert duties[True] == CaretakerMove(DrawBlind(0))
    assert isinstance(move := duties[False], CaretakerMove) and isinstance(move.action, ClaimRoute)
    assert move.action.route == ANGORA_CONSTANTINOPLE


def test_the_game_starts_from_the_keyed_seating_as_a_value() -> None:
    """The engine is made from the seating with every key in, a value: no
    state before the last key, and then exactly ``opening_state`` of it."""
    from p2p_ttr.table.keyring import opening_state
    from p2p_ttr.table.messages import Keys

    g = game()
    last_key = max(i for i, raw in enumerate(g.log) if isinstance(message_from_wire(open_envelope(raw).body), Keys))
    table = Table()
    for raw in g.log[:last_key]:
        table.receive(raw)
    assert table.seating is not None and table.play is None and table.engine is None and table.joint is None
    table.receive(g.log[last_key])
    assert table.play is not None
    seated = table.play.seated
    assert seated.seating is table.seating and seated.n == 2
    assert seated.keys == tuple(table.keys[s] for s in range(2))
    assert table.joint is seated.joint and seated.joint.game_id == table.game_id
    assert seated.joint.public_keys == tuple(k.public_key for k in seated.keys)
    assert table.engine == opening_state(seated) == opening_state(dataclasses.replace(seated))


def test_the_halt_keeps_its_reason_entry_and_blame() -> None:
    from p2p_ttr.table.halting import Halting

    halting = Halting()
    halting.suspect(None)
    halting.suspect("a card in two places")
    halting.suspect("a later doubt")
    assert halting.suspicion == "a card in two places" and halting.reason is None
    halting.stopped_by(1, 40)
    assert (halting.reason, halting.at, halting.culprit, halting.stopper) == (
        "seat 1 stopped the game and revealed its secrets", 40, None, 1)
