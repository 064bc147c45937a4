"""Proven shuffles and re-maskings: a seat that cheats in its step of a deck
epoch is caught by the step's proof before any card of that epoch is dealt.

A malicious seat, at every position of the chain (all of them with 2 and 3
players; the first, the middle and the last with 5), at set-up (the train
deck, epoch 0), at a re-masking (two returned tickets, on the first turn),
and at a reshuffle of the discards (train epoch 1, 2 players):

(a) ``stack``: publishes fresh encryptions of the epoch's cards in an order
    it picked, with randomness it knows, and the proof of its honest step;
    ``stack_own_witness``: the same deck, "proven" from what it really did;
(b) ``alias``: puts a re-randomised copy of another ciphertext (a rival's
    card when there is one) at position 0, proven as if honest;
(c) ``replay``: brings a valid proof from another game (the same deck,
    epoch, seat and size: only the statement differs); the ``replayed``
    tests also take valid proofs of another step, epoch and deck of this game;
(d) ``misprove``: proves another permutation than the one it applied;
(e) ``never_prove``: publishes its step and never its proof.

(a)-(d) halt every honest replica, and an outsider's with no secrets, at
that proof's entry, naming the seat (``table.culprit``), and `ttr verify`
names it; (e) stalls: every replica says the game waits for that seat's
proof, and `ttr verify` says the log ends waiting for it. In every case the
epoch is never finished (the engine never gets Shuffled / Remasked for it)
and no share of any of its cards is ever sent: the cheater learns nothing.
The one exception is (a) with its own witness by the FIRST seat of a
shuffle: its input is the public card list, so that deck is a true shuffle
and its proof holds; the seats after it shuffle it again (and the audit
finds its order is not its seed's: tests/table/test_verify.py).

The honest seats follow the honest peer: a step as soon as it is due, its
proof at its next turn to speak; the chain's proofs are checked together
when the last one is in (protocol.md §5), so every case runs to that point.
Refused proofs change nothing, and the honest game then reaches the same
state as without them. (The proof system alone: tests/deck/test_chain_proofs.py.
Acts that carry no shares: test_acts.py.)
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from games import Run, honest_game, snapshot
from malicious import (
    CHEATS,
    ChainCheater,
    ChainForger,
    ChainForgery,
    ChainProof,
    ChainTurn,
    Malicious,
    alias,
    cheat_in_chain,
    misprove,
    never_prove,
    replay,
    stack,
    stack_with_its_own_witness,
)
from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.deck import (
    DeckCreation,
    JointKey,
    Seed,
    ShuffleProof,
    prove_remask,
    prove_shuffle,
    remask_step,
    shuffle_step,
    verify_remask,
    verify_shuffles,
)
from p2p_ttr.deck.fixedbase import g_pow
from p2p_ttr.engine.cards import Deck
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.engine.events import Action, DrawTickets, KeepTickets
from p2p_ttr.engine.state import GameState, NeedRemask, NeedShuffle, Phase
from p2p_ttr.net.liveness import waiting_for
from p2p_ttr.table.envelope import open_envelope
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.messages import ProveRemask, ProveShuffle, Shares, message_from_wire
from p2p_ttr.table.peer import Peer
from p2p_ttr.table.cards import DECK_NAMES
from p2p_ttr.table.obligations import Obligation, Owed
from p2p_ttr.table.table import Table
from p2p_ttr.table.verify import Verdict, verify_entries

Epoch = tuple[Deck, int]

POSITIONS = [(2, 0), (2, 1), (3, 0), (3, 1), (3, 2), (5, 0), (5, 2), (5, 4)]
HALTING = ["stack", "stack_own_witness", "alias", "replay", "misprove"]
PROOF_KINDS = (ProveShuffle.KIND, ProveRemask.KIND)


# ------------------------------------------------------------- the games


def ticket_returner(view: GameState, seat: int) -> Action:
    """Keeps every starting ticket; on its first turn draws tickets and sends
    two back (so the first re-masking comes right after the set-up)."""
    ps = view.players[seat]
    if view.phase is Phase.TURN:
        return DrawTickets(seat)
    if view.phase is Phase.TICKETS:
        return KeepTickets(seat, ps.offered[:1], ps.offered[1:])
    return KeepTickets(seat, ps.offered, ())


def step_due(run: Run, kind: type[NeedShuffle] | type[NeedRemask], seat: int) -> bool:
    """The chain being built is of ``kind`` (the train deck, for a shuffle) and ``seat``'s step is due."""
    need = run.outsider.chain_due()
    if not isinstance(need, kind) or (isinstance(need, NeedShuffle) and need.deck is not Deck.TRAIN):
        return False
    built = run.outsider.chains.get((need.deck, need.epoch))
    return (len(built.steps) if built else 0) == seat


@functools.cache
def setup_and_remask(n: int) -> dict[tuple[str, int], Run]:
    """One honest n-seat game, copied where each seat's step of the train
    deck (epoch 0) is due, then each seat's step of the first re-masking."""
    run = Run.start([ticket_returner] * n, seed=40 + n)
    out = {}
    for context, kind in (("setup", NeedShuffle), ("remask", NeedRemask)):
        for seat in range(n):
            assert run.play(lambda r: step_due(r, kind, seat)), (context, seat)
            out[(context, seat)] = run.copy()
    return out


@functools.cache
def reshuffle() -> dict[tuple[str, int], Run]:
    """The honest 2-player game (games.honest_game) where each seat's step of
    the reshuffle of the discards (train epoch 1) is due: its log folded by
    new peers with the same identities and secrets."""
    game = honest_game()
    start = next(i for i, raw in enumerate(game.log)
                 if open_envelope(raw).kind == "shuffle" and open_envelope(raw).body[1][:2] == ["train", 1])
    run = Run([Peer(p.seat, p.identity, RandomBot(p.seat).choose) for p in game.peers])
    for peer, old in zip(run.peers, game.peers):
        peer.table = Table(old.table.me)
    for raw in game.log[:start]:
        assert run.sequence(raw) is None
    for peer in run.peers:
        peer.seq = peer.table.last_seq[peer.seat]
    out = {}
    for seat in range(2):
        assert run.play(lambda r: step_due(r, NeedShuffle, seat))
        out[("reshuffle", seat)] = run.copy()
    need = run.outsider.chain_due()
    assert isinstance(need, NeedShuffle) and (need.deck, need.epoch) == (Deck.TRAIN, 1)
    return out


def base(context: str, n: int, seat: int) -> Run:
    return (reshuffle() if context == "reshuffle" else setup_and_remask(n))[(context, seat)]


# ------------------------------------------------------------- the cheats


@functools.cache
def foreign_proof(shuffle: bool, deck: str, epoch: int, seat: int, cards: tuple[int, ...]) -> ChainProof:
    """A valid proof from another game: seat's step of ``deck`` epoch
    ``epoch`` (a shuffle, or a re-masking) over as many cards (checked valid there)."""
    joint = JointKey(b"\xee" * 16, (g_pow(0x5EED),))
    seed = Seed(b"\x07" * 32)
    if shuffle:
        inputs = DeckCreation(deck, epoch, cards).ciphertexts()
        shuffled = shuffle_step(joint, seed, seat, deck, epoch, inputs)
        shuffle_proof = prove_shuffle(joint, seed, shuffled, inputs)
        verify_shuffles(joint, [(shuffled, inputs, shuffle_proof)])
        return shuffle_proof
    inputs = DeckCreation(deck, 0, cards).ciphertexts()
    masked = remask_step(joint, seed, seat, deck, epoch, inputs)
    remask_proof = prove_remask(joint, seed, masked, inputs)
    verify_remask(joint, masked, inputs, remask_proof)
    return remask_proof


def replay_from_another_game(turn: ChainTurn) -> ChainForgery:
    """(c) The stacked deck, with a valid proof of the same deck, epoch and seat from another game."""
    need = turn.need
    shuffle = isinstance(need, NeedShuffle)
    cards = need.cards if isinstance(need, NeedShuffle) else tuple(range(len(need.refs)))
    return replay(foreign_proof(shuffle, DECK_NAMES[need.deck], need.epoch, turn.seat, cards))(turn)


FORGERS: dict[str, ChainForger] = {
    "stack": stack,
    "stack_own_witness": stack_with_its_own_witness,
    "alias": alias,
    "replay": replay_from_another_game,
    "misprove": misprove,
    "never_prove": never_prove,
}


def reveals(context: str, n: int) -> bool:
    """Whether a caught cheater reveals its secrets: at the set-up of a
    2-player game it does (then the deck audit runs too); elsewhere it
    keeps them (then it is also named for withholding them)."""
    return (context, n) == ("setup", 2)


@dataclass
class Outcome:
    run: Run
    cheater: int
    epoch: Epoch

    @property
    def proof_entry(self) -> int | None:
        """The cheater's proof of its step of the epoch in the log, if any."""
        for i, raw in enumerate(self.run.log):
            env = open_envelope(raw)
            if env.seat == self.cheater and env.kind in PROOF_KINDS \
                    and tuple(env.body[1][:2]) == (DECK_NAMES[self.epoch[0]], self.epoch[1]):
                return i
        return None

    @functools.cached_property
    def verdict(self) -> Verdict:
        return verify_entries(self.run.log)


def play_cheat(run: Run, seat: int, forger: ChainForger, reveals: bool = False) -> Outcome:
    """Seat a cheater at ``seat`` (whose step is due) and play until the game
    halts and the seats have revealed what they will, or stalls, or the epoch
    is done (then stop: the rest of the game is no business of this test)."""
    need = run.outsider.chain_due()
    assert need is not None
    epoch = (need.deck, need.epoch)
    cheat_in_chain(run.recast(seat, ChainCheater), forger, epoch, reveals=reveals)
    run.play(lambda r: r.outsider.halted is None and finished(r.outsider, epoch))
    return Outcome(run, seat, epoch)


@functools.cache
def outcome(context: str, n: int, seat: int, cheat: str) -> Outcome:
    return play_cheat(base(context, n, seat).copy(), seat, FORGERS[cheat], reveals(context, n))


# ------------------------------------------------------------ what nobody learnt


def finished(t: Table, epoch: Epoch) -> bool:
    """The engine was told the epoch (due, or once due) is done: Shuffled / Remasked."""
    e = t.engine
    assert e is not None
    need = e.awaiting
    return not (isinstance(need, (NeedShuffle, NeedRemask)) and (need.deck, need.epoch) == epoch)


def cards_of(t: Table, epoch: Epoch) -> set[object]:
    """Every place a card of ``epoch`` appears in a replica."""
    e = t.engine
    assert e is not None
    places = [e.draw_pile, e.discard, e.face_up, e.ticket_pile, e.long_pile, tuple(e.public), tuple(e.private),
              tuple(t.shares)]
    for ps in e.players:
        places += [ps.hand, ps.tickets, ps.offered]
    return {r for refs in places for r in refs if r is not None and (r.deck, r.epoch) == epoch}


def shares_sent(run: Run, epoch: Epoch) -> list[int]:
    """Entries of the log that carry a share of a card of ``epoch``."""
    name = (DECK_NAMES[epoch[0]], epoch[1])
    out = []
    for i, raw in enumerate(run.log):
        env = open_envelope(raw)
        message = message_from_wire(env.body) if env.kind == Shares.KIND else None
        if isinstance(message, Shares) and any((s.ref.deck, s.ref.epoch) == name for s in message.shares):
            out.append(i)
    return out


def assert_nobody_learnt_a_card(o: Outcome) -> None:
    for t in o.run.tables() + [o.run.peers[o.cheater].table]:
        assert not finished(t, o.epoch)
        assert not cards_of(t, o.epoch), cards_of(t, o.epoch)
    assert shares_sent(o.run, o.epoch) == []


# ---------------------------------------------------------------- the tests


# Where each false step is tried. A re-masking's proof is small: there every
# cheat is tried at every position. A train-deck proof (110 cards, 91 for the
# reshuffle here) is not: there each number of players meets every cheat
# once, the last seat (the one that could stack the deck it deals from) the
# most, and the first seat once with a stacked deck it proves from its own
# witness (the case where that proof holds).
TRAIN_DECK_CHEATS: dict[tuple[str, int, int], tuple[str, ...]] = {
    ("setup", 2, 0): ("stack", "stack_own_witness"),
    ("setup", 2, 1): ("alias", "replay", "misprove"),
    ("setup", 3, 0): ("replay",),
    ("setup", 3, 1): ("alias", "misprove"),
    ("setup", 3, 2): ("stack", "stack_own_witness"),
    ("setup", 5, 0): ("alias",),
    ("setup", 5, 2): ("replay", "stack_own_witness"),
    ("setup", 5, 4): ("stack", "misprove"),
    ("reshuffle", 2, 0): ("alias", "misprove"),
    ("reshuffle", 2, 1): ("stack", "stack_own_witness", "replay"),
}
CASES = [(c, n, k) for c in ("setup", "remask") for n, k in POSITIONS] + [("reshuffle", 2, 0), ("reshuffle", 2, 1)]
FALSE_STEPS = [(case, cheat) for case in CASES for cheat in TRAIN_DECK_CHEATS.get(case, HALTING)]


def case_id(case: tuple[str, int, int]) -> str:
    return f"{case[0]}-{case[1]}p-seat{case[2]}"


@pytest.mark.parametrize("case, cheat", FALSE_STEPS, ids=[f"{case_id(c)}-{cheat}" for c, cheat in FALSE_STEPS])
def test_a_false_step_is_halted_at_its_proof_before_any_card_of_the_epoch(case: tuple[str, int, int],
                                                                         cheat: str) -> None:
    context, n, seat = case
    o = outcome(context, n, seat, cheat)
    entry = o.proof_entry
    assert entry is not None
    if cheat == "stack_own_witness" and context != "remask" and seat == 0:
        # The first seat's input is the public card list: its stacked deck is a
        # true shuffle of it, proven; the seats after it shuffle it again.
        for t in o.run.tables():
            assert t.halted is None and finished(t, o.epoch) and seat in t.chains[o.epoch].proven
        return
    revealed = list(range(n)) if reveals(context, n) else [s for s in range(n) if s != seat]
    for t in o.run.tables(but=seat):  # every honest replica, and the outsider's
        assert (t.halted_at, t.culprit) == (entry, seat), (t.halted_at, t.culprit, t.halted)
        assert sorted(t.audits) == revealed  # the honest seats revealed their secrets at once
    assert_nobody_learnt_a_card(o)
    assert len(o.run.log) > entry  # the proof went into the log: signed evidence
    verdict = o.verdict
    assert not verdict.fair
    assert verdict.findings[0].seat == seat, [f.line() for f in verdict.findings]
    assert any(f.entry == entry and f.seat == seat and f.code == "halted" for f in verdict.findings)
    assert {f.seat for f in verdict.findings} <= {seat, None}, [f.line() for f in verdict.findings]
    assert (verdict.table.halted_at, verdict.table.culprit) == (entry, seat)
    if not reveals(context, n):
        assert any(f.seat == seat and f.code == "withheld_audit" for f in verdict.findings)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_a_step_never_proven_stalls_the_epoch_and_every_replica_names_the_seat(case: tuple[str, int, int]) -> None:
    context, n, seat = case
    o = outcome(context, n, seat, "never_prove")
    assert o.proof_entry is None
    deck, epoch = o.epoch
    what = Owed.SHUFFLE_PROOF if context != "remask" else Owed.REMASK_PROOF
    owed = [Obligation(seat, what, (deck, epoch))]
    for t in o.run.tables():
        assert t.halted is None and t.chains[o.epoch].steps and len(t.chains[o.epoch].steps) == n
        assert t.obligations() == owed  # every other step and proof is in
    for peer in o.run.peers:
        if peer.seat != seat:
            assert waiting_for(peer.table, peer.seat) == [seat]
    assert_nobody_learnt_a_card(o)
    verdict = o.verdict
    assert not verdict.fair
    assert [(f.entry, f.seat, f.code) for f in verdict.findings] == [(None, None, "incomplete")]
    assert f"seat {seat} owes {what.value} ({DECK_NAMES[deck]} epoch {epoch})" in verdict.findings[0].reason


def withhold_an_honest_proof(turn: ChainTurn) -> ChainForgery:
    """Our honest step, and never its proof."""
    return ChainForgery(turn.honest, None)


@pytest.mark.parametrize("point", [("setup", 3, 2, 0), ("remask", 3, 0, 2), ("remask", 5, 2, 4)],
                         ids=lambda p: f"{p[0]}-{p[1]}p-false{p[2]}-withholds{p[3]}")
def test_a_false_proof_held_while_an_accomplice_withholds_its_own_stalls_and_verify_names_it(
        point: tuple[str, int, int, int]) -> None:
    """Proofs are checked together when the epoch's last one is in: if an
    accomplice never sends its proof, a false one waits unchecked. Nothing of
    the epoch exists meanwhile; every replica says whom the game waits for,
    and `ttr verify` on the stalled log names the false proof's seat too."""
    context, n, liar, withholder = point
    run = base(context, n, min(liar, withholder)).copy()
    need = run.outsider.chain_due()
    assert need is not None
    epoch = (need.deck, need.epoch)
    cheat_in_chain(run.recast(liar, ChainCheater), stack, epoch)
    cheat_in_chain(run.recast(withholder, ChainCheater), withhold_an_honest_proof, epoch)
    assert not run.play()  # stalled
    o = Outcome(run, liar, epoch)
    entry = o.proof_entry
    assert entry is not None
    what = Owed.SHUFFLE_PROOF if context == "setup" else Owed.REMASK_PROOF
    for t in run.tables():
        assert t.halted is None and t.obligations() == [Obligation(withholder, what, epoch)]
    assert_nobody_learnt_a_card(o)
    findings = [(f.entry, f.seat, f.code) for f in o.verdict.findings]
    assert findings == [(entry, liar, "bad_proof"), (None, None, "incomplete")], findings


# ------------------------------------------------------------------ replays


def proofs_of(run: Run, seat: int) -> list[ChainProof]:
    """``seat``'s chain proofs in the log, oldest first."""
    out = []
    for raw in run.log:
        env = open_envelope(raw)
        message = message_from_wire(env.body) if env.seat == seat and env.kind in PROOF_KINDS else None
        if isinstance(message, (ProveShuffle, ProveRemask)):
            out.append(message.proof)
    return out


def has_proof(seat: int, epoch: Epoch) -> Callable[[Run], bool]:
    name = (DECK_NAMES[epoch[0]], epoch[1])
    return lambda run: any((p.deck, p.epoch) == name for p in proofs_of(run, seat))


def with_source(context: str, n: int, seat: int) -> tuple[Run, Epoch]:
    """The game where ``seat``'s step is due, once the seat before it has
    proven its own step of that epoch (a valid proof to replay)."""
    run = base(context, n, seat).copy()
    need = run.outsider.chain_due()
    assert need is not None
    epoch = (need.deck, need.epoch)
    assert run.play(has_proof(seat - 1, epoch)) and step_due(run, type(need), seat)
    return run, epoch


def relabelled(proof: ChainProof, epoch: Epoch, seat: int) -> ChainProof:
    return dataclasses.replace(proof, deck=DECK_NAMES[epoch[0]], epoch=epoch[1], seat=seat)


# (context, players, seat): where the replays are tried, and which valid proofs each one takes.
REPLAY_POINTS = [("setup", 3, 1), ("remask", 3, 1), ("reshuffle", 2, 1)]


def replay_sources(run: Run, seat: int, epoch: Epoch) -> dict[str, ChainProof]:
    """Valid proofs in the log that a seat could replay at its step of ``epoch``."""
    name = (DECK_NAMES[epoch[0]], epoch[1])
    kind = type(proofs_of(run, seat - 1)[-1])
    sources = {"another seat's step": next(p for p in proofs_of(run, seat - 1) if (p.deck, p.epoch) == name)}
    for p in proofs_of(run, seat):  # ours, of another epoch of this deck, of another deck (of the same kind)
        if isinstance(p, kind) and (p.deck, p.epoch) != name:
            sources.setdefault("another epoch" if p.deck == name[0] else "another deck", p)
    return sources


@pytest.mark.parametrize("point", REPLAY_POINTS, ids=case_id)
def test_replayed_proofs_are_refused_as_signed_and_change_nothing(point: tuple[str, int, int]) -> None:
    """Sent as they were made (their deck, epoch and seat), valid proofs from
    another step or epoch, or our own proof before our step, are refused by
    every replica and change nothing: the honest game then reaches exactly
    the state it reaches without them."""
    context, n, seat = point
    run, epoch = with_source(context, n, seat)
    clean = run.copy()
    tables = run.tables(but=seat) + [run.peers[seat].table]
    m = Malicious(seat, run.peers[seat].identity, run.peers[seat].table)
    sources = replay_sources(run, seat, epoch)
    tried = {what: feed(tables, m.send(ProveShuffle(proof) if isinstance(proof, ShuffleProof) else ProveRemask(proof)))
             for what, proof in sources.items()}
    early = CHEATS["proof_before_its_step"].forge(m)
    assert early is not None
    tried["ours, before our step"] = feed(tables, early)
    # Another seat's proof names that seat; an epoch or deck not being built is not due.
    expected = {**{what: "not_expected" for what in tried}, "another seat's step": "malformed"}
    assert tried == expected
    for finished_run in (run, clean):
        assert finished_run.play(lambda r: finished(r.outsider, epoch))
    assert run.log == clean.log
    assert [t.digest() for t in run.tables()] == [t.digest() for t in clean.tables()]


def feed(tables: list[Table], raw: bytes) -> str:
    """Feed a message every replica must refuse; its code (the same everywhere), each replica unchanged."""
    codes = set()
    for t in tables:
        before = snapshot(t)
        try:
            t.receive(raw)
        except (TableError, EngineError) as exc:
            codes.add(exc.code)
        else:
            raise AssertionError("a replica took it")
        assert snapshot(t) == before
    (code,) = codes
    return code


@pytest.mark.parametrize("point", REPLAY_POINTS, ids=case_id)
def test_replayed_proofs_relabelled_for_the_step_due_halt_the_game(point: tuple[str, int, int]) -> None:
    """Relabelled as the proof of our step (a stacked deck), every valid
    proof from another step, epoch or deck is false there: every replica
    halts at it, naming us, before any card of the epoch exists."""
    context, n, seat = point
    source, epoch = with_source(context, n, seat)
    sources = replay_sources(source, seat, epoch)
    assert len(sources) >= (3 if context == "reshuffle" else 1), sorted(sources)
    for what, proof in sources.items():
        o = play_cheat(source.copy(), seat, replay(relabelled(proof, epoch, seat)))
        run = o.run
        assert o.proof_entry is not None
        for t in run.tables(but=seat):
            assert (t.halted_at, t.culprit) == (o.proof_entry, seat), what
        assert_nobody_learnt_a_card(o)
        assert any(f.entry == o.proof_entry and f.seat == seat and f.code == "halted" for f in o.verdict.findings), what
        assert {f.seat for f in o.verdict.findings} <= {seat, None}, what
