"""The mix (protocol.md §3, §5, §6): the set-up's returned tickets shuffled
together (France) or into the whole remaining deck (Old West) by a chain of
shuffle steps over their ciphertexts, each seat's with its proof of shuffle.
Self-played with the crypto deck its logs verify; a false mix step or proof
halts the game naming its seat; a step or proof of another kind, or naming
other cards, is refused; a seat that leaves mid-mix has its step derived
from its revealed seed."""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path
from typing import Any

import pytest

from doctored_logs import bodies, resigned
from p2p_ttr.cli.main import main
from p2p_ttr.deck import ShuffleProof, ShuffleStep
from p2p_ttr.engine.cards import Deck
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.engine.state import NeedMix
from p2p_ttr.errorcodes import ErrorCode
from p2p_ttr.table.envelope import open_envelope
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.logfile import read_log
from p2p_ttr.table.messages import Forfeit, ProveMix
from p2p_ttr.table.table import Table
from p2p_ttr.table.verify import verify_entries


@functools.cache
def selfplayed(board: str, players: int) -> list[bytes]:
    """A crypto self-play of ``board`` (seed 1, random bots), its log verified by `ttr verify`."""
    path = Path(f"/tmp/p2p_ttr-mix-{board}-{players}-{id(selfplayed)}.log")
    try:
        assert main(["selfplay", "--crypto", "--board", board, "--players", str(players), "--seed", "1",
                     "--bot-level", "random", "--log", str(path)]) == 0
        assert main(["verify", str(path)]) == 0
        return read_log(path)[1]
    finally:
        path.unlink(missing_ok=True)


def kinds(log: list[bytes]) -> list[tuple[str, int]]:
    return [(open_envelope(raw).kind, open_envelope(raw).seat) for raw in log]


def entry_of(log: list[bytes], kind: str, seat: int) -> int:
    return next(i for i, (k, s) in enumerate(kinds(log)) if (k, s) == (kind, seat))


def folded(log: list[bytes]) -> Table:
    table = Table()
    for raw in log:
        table.receive(raw)
    return table


@pytest.mark.parametrize(("board", "players"), [("oldwest", 3), ("france", 2)])
def test_a_crypto_self_play_mixes_the_returns_with_every_seat_and_verifies(board: str, players: int,
                                                                            capsys: pytest.CaptureFixture[str]) -> None:
    log = selfplayed(board, players)
    capsys.readouterr()
    mixes = [i for i, (k, _) in enumerate(kinds(log)) if k == "mix"]
    assert [kinds(log)[i][1] for i in mixes] == list(range(players))  # one chain, each seat in turn
    assert [s for k, s in kinds(log) if k == "mix_proof"] == list(range(players))
    # Each step names the engine's cards: Old West's the undealt tickets then the returns, France's the returns.
    sources = bodies(log)[mixes[0]][2]
    returned = 5 * players - sum(len(ps.tickets) for ps in folded(log[:mixes[0]]).engine.players)  # type: ignore[union-attr]
    undealt = 51 - 5 * players if board == "oldwest" else 0
    assert len(sources) == undealt + returned and all(ref[:2] == ["tickets", 0] for ref in sources)
    assert verify_entries(log).fair


def france() -> tuple[list[bytes], int, int]:
    log = selfplayed("france", 2)
    return log, entry_of(log, "mix", 1), entry_of(log, "mix_proof", 1)


def test_a_false_mix_step_halts_the_game_naming_its_seat() -> None:
    """Seat 1's step with two cards swapped: its proof, honest for the true step, no longer holds."""
    log, step, proof = france()
    body = bodies(log)[step]
    swapped = [body[1][3][1], body[1][3][0], *body[1][3][2:]]
    verdict = verify_entries(resigned(log, {step: [body[0], [*body[1][:3], swapped], body[2]]}))
    first = verdict.findings[0]
    assert (first.seat, first.code) == (1, ErrorCode.HALTED) and first.entry in (step, proof)
    assert "seat 1 sent a false proof of its step of tickets epoch 1" in first.reason


def test_a_false_mix_proof_halts_the_game_naming_its_seat_at_its_entry() -> None:
    log, _, proof = france()
    true = ShuffleProof.from_wire(bodies(log)[proof][1])
    s1, s2, s3, s4 = true.s
    false = ProveMix(dataclasses.replace(true, s=(s1 + 1, s2, s3, s4))).to_wire()
    first = verify_entries(resigned(log, {proof: false})).findings[0]
    assert (first.entry, first.seat, first.code) == (proof, 1, ErrorCode.HALTED)


@pytest.mark.parametrize(("change", "code", "words"), [
    # A shuffle step or proof for the mix: the step and the proof say which chain they build.
    (lambda b: ["shuffle", b[1], list(range(len(b[2])))], "not_expected", "no shuffle of tickets epoch 1 is due"),
    (lambda b: ["mix", b[1], b[2][::-1]], "not_expected", "names other cards"),
    (lambda b: ["mix", b[1], b[2][:-1]], "malformed", "one card per ciphertext"),
    (lambda b: ["mix", b[1], [b[2][0], *b[2][:-1]]], "malformed", "each card once"),
])
def test_a_mix_step_of_another_kind_or_naming_other_cards_is_refused(change: Any, code: str, words: str) -> None:
    log, _, _ = france()
    step = entry_of(log, "mix", 0)
    doctored = resigned(log, {step: change(bodies(log)[step])})
    refused = verify_entries(doctored).findings[0]
    assert (refused.entry, refused.seat, refused.code) == (step, 0, code) and words in refused.reason


def test_a_proof_of_shuffle_sent_as_a_shuffle_proof_for_the_mix_is_refused() -> None:
    log, _, proof = france()
    body = bodies(log)[proof]
    refused = verify_entries(resigned(log, {proof: ["shuffle_proof", body[1]]})).findings[0]
    assert (refused.entry, refused.seat, refused.code) == (proof, 1, "not_expected")
    assert "no shuffle_proof of tickets epoch 1 is due" in refused.reason


def test_a_seat_that_forfeits_mid_mix_has_its_step_derived_from_its_seed_and_the_mix_completes() -> None:
    """Seat 1 leaves in place of its mix step, revealing the secrets its audit
    revealed: the fold makes its step from its seed (the very step it made),
    the chain completes with seat 0's proof, and only then is the game, one
    seat left in play, conceded (a chain begun is finished first)."""
    log, step, proof = france()
    audit = next(b for b, (k, s) in zip(bodies(log), kinds(log)) if (k, s) == ("audit", 1))
    table = Table()
    for raw in resigned(log, {step: [Forfeit.KIND, *audit[1:]], proof: None}):
        try:
            table.receive(raw)
        except (TableError, EngineError):
            break  # what comes after: seat 1 left, the game was conceded
    assert [(type(need), derived.seat) for need, derived in table.deck.derived_steps] == [(NeedMix, 1)]
    assert table.deck.derived_steps[0][1].ciphertexts == ShuffleStep.from_wire(bodies(log)[step][1]).ciphertexts
    engine = table.engine
    assert engine is not None and engine.ticket_epoch == 1 and engine.ticket_pile[-1].deck is Deck.TICKETS
    assert engine.ticket_pile[-1].epoch == 1 and engine.conceded and table.chain_due() is None
