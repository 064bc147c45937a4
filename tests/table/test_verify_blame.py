"""`ttr verify` blames the first deviation, however the log goes on after it,
and numbers what it reports as the log numbers its entries (protocol.md §8).

The forger here holds no seat's key: it changes the log, then signs all of it
again under fresh identities (doctored_logs.py), so every signature, head and
sequence number checks out and only what the entries say can betray it."""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from pathlib import Path

import pytest

from p2p_ttr.cli.main import main
from doctored_logs import bodies, resigned
from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.deck.shuffleproof import ShuffleProof
from p2p_ttr.errorcodes import ErrorCode
from p2p_ttr.local.crypto_game import CryptoGame, play_crypto_game
from p2p_ttr.table.envelope import open_envelope
from p2p_ttr.table.logfile import write_log
from p2p_ttr.table.messages import ProveShuffle
from p2p_ttr.table.verify import verify_entries

NAMES = ("Anna", "Boris", "Chiara")


@functools.cache
def three_seats() -> CryptoGame:
    return play_crypto_game(26, [RandomBot(26 + p) for p in range(3)], NAMES)


def entry_of(log: list[bytes], kind: str, seat: int, deck: str = "train", epoch: int = 0) -> int:
    return next(i for i, body in enumerate(bodies(log))
                if body[0] == kind and open_envelope(log[i]).seat == seat and body[1][:2] == [deck, epoch])


def false_proof(log: list[bytes], entry: int) -> list[object]:
    """The body of entry ``entry`` (a shuffle proof) with one response off by one."""
    proof = ShuffleProof.from_wire(bodies(log)[entry][1])
    s1, s2, s3, s4 = proof.s
    return ProveShuffle(dataclasses.replace(proof, s=(s1 + 1, s2, s3, s4))).to_wire()


def verify_json(tmp_path: Path, entries: list[bytes], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    path = tmp_path / "doctored.log"
    write_log(path, open_envelope(entries[0]).game_id, entries)
    assert main(["verify", str(path), "--json"]) == 1
    report: dict[str, object] = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    return report


def test_a_log_signed_again_by_fresh_identities_is_as_good_as_the_original() -> None:
    """The control: re-signing alone changes nothing a verifier can object to."""
    log = three_seats().log
    again = resigned(log)
    assert again != log and open_envelope(again[0]).body[3] != open_envelope(log[0]).body[3]
    assert verify_entries(again).fair


def test_a_false_proof_is_blamed_at_its_entry_although_the_log_goes_on_past_the_halt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's case: seat 1's proof of its train shuffle is false (entry 8);
    seat 2's proof completes the chain and the game halts, naming seat 1; the
    log goes on with seat 0's next shuffle, which a halted game refuses. The
    first deviation is the false proof, not the entry refused after it."""
    log = three_seats().log
    proof_entry = entry_of(log, "shuffle_proof", 1)
    assert proof_entry < entry_of(log, "shuffle_proof", 2) < entry_of(log, "shuffle", 0, "tickets")
    doctored = resigned(log, {proof_entry: false_proof(log, proof_entry)})
    verdict = verify_entries(doctored)
    first = verdict.findings[0]
    assert (first.entry, first.seat, first.code) == (proof_entry, 1, ErrorCode.HALTED)
    assert "seat 1 sent a false proof" in first.reason
    # The refusal after the halt is still reported, after it.
    refused = entry_of(log, "shuffle", 0, "tickets")
    assert [(f.entry, f.seat, f.code) for f in verdict.findings[1:]] == [(refused, 0, ErrorCode.NOT_EXPECTED)]
    assert verify_json(tmp_path, doctored, capsys)["blame"] == {"entry": proof_entry, "seat": 1}


def test_a_false_proof_whose_chain_never_completes_is_blamed_before_what_the_fold_refuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seat 2's proof is dropped, so the chain never completes and nothing
    halts; the next entry (seat 0's shuffle of another deck) is refused as
    not due. The false proof before it is still the first deviation."""
    log = three_seats().log
    proof_entry = entry_of(log, "shuffle_proof", 1)
    doctored = resigned(log, {proof_entry: false_proof(log, proof_entry), entry_of(log, "shuffle_proof", 2): None})
    verdict = verify_entries(doctored)
    assert [(f.entry, f.seat, f.code) for f in verdict.findings] == [
        (proof_entry, 1, ErrorCode.BAD_PROOF), (proof_entry + 1, 0, ErrorCode.NOT_EXPECTED)]
    assert verify_json(tmp_path, doctored, capsys)["blame"] == {"entry": proof_entry, "seat": 1}


def test_verbose_lines_number_entries_as_the_log_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = three_seats()
    path = tmp_path / "game.log"
    write_log(path, open_envelope(game.log[0]).game_id, game.log)
    assert main(["verify", str(path), "-v"]) == 0
    out = capsys.readouterr().out
    kinds = {"shuffle": "shuffle", "remask": "remask", "key": "keys", "reveal": "audit"}
    checked = 0
    for line in out.splitlines():
        found = re.match(r"ok   (shuffle|remask|key|reveal) +entry (\d+): (?:(\w+)/(\d+) )?seat (\d)", line)
        if not found:
            continue
        what, entry, deck, epoch, seat = found.groups()
        envelope = open_envelope(game.log[int(entry)])
        assert (envelope.kind, envelope.seat) == (kinds[what], int(seat)), line
        if deck is not None:
            assert envelope.body[1][:2] == [deck, int(epoch)], line
        checked += 1
    assert checked >= 3 * 3 + 3 + 3  # three decks' steps, three keys, three reveals
    shares = [int(n) for n in re.findall(r"ok   share +entry (\d+):", out)]
    assert shares and all(open_envelope(game.log[n]).kind == "shares" for n in shares)
