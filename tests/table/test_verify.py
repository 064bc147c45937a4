"""`ttr verify`: honest logs pass; altered logs never do; cheaters are named."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_ttr.cli.main import main
from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.deck import Seed, ShuffleStep, shuffle_step
from p2p_ttr.deck.shuffleproof import prove_shuffle
from p2p_ttr.engine.cards import Deck
from p2p_ttr.engine.state import GameState
from p2p_ttr.local.crypto_game import CryptoGame, play_crypto_game
from p2p_ttr.table.logfile import write_log
from p2p_ttr.table.messages import ProveRemask, ProveShuffle, Remask, Shuffle
from p2p_ttr.table.peer import Peer
from p2p_ttr.table.verify import verify_entries

NAMES = ("Anna", "Boris", "Chiara")


@functools.cache
def honest() -> CryptoGame:
    return play_crypto_game(21, [RandomBot(21 + p) for p in range(2)], NAMES[:2])


def log_file(tmp_path: Path, game: CryptoGame, entries: list[bytes] | None = None) -> Path:
    path = tmp_path / "game.log"
    game_id = game.peers[0].table.game_id
    assert game_id is not None
    write_log(path, game_id, game.log if entries is None else entries)
    return path


def verify_json(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, object]]:
    code = main(["verify", str(path), "--json"])
    return code, json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_an_honest_log_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from p2p_ttr.table.envelope import open_envelope

    assert any(open_envelope(raw).kind == "remask" for raw in honest().log)  # returned tickets too
    code, report = verify_json(log_file(tmp_path, honest()), capsys)
    assert code == 0 and report["fair"] is True and report["findings"] == []
    checked = report["checked"]
    assert isinstance(checked, dict) and checked["shuffles"] >= 6 and checked["shares"] > 100
    final = honest().peers[0].table.engine
    assert final is not None
    assert report["winner"] == _winner(final)


def _winner(state: GameState) -> int:
    from p2p_ttr.engine.outcome import final_score

    return final_score(state).ranking[0]


def test_verbose_report_has_a_line_per_shuffle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(log_file(tmp_path, honest())), "--verbose"]) == 0
    out = capsys.readouterr().out
    assert out.count("shuffle") >= 6 and "VERIFIED" in out


@pytest.mark.parametrize("kind", ["shuffle", "shares", "act"])
def test_a_changed_entry_never_verifies(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    entries = list(honest().log)
    index = next(i for i, raw in enumerate(entries) if kind.encode() in raw[:80])
    raw = bytearray(entries[index])
    raw[len(raw) // 2] ^= 0x40
    entries[index] = bytes(raw)
    code, report = verify_json(log_file(tmp_path, honest(), entries), capsys)
    assert code == 1 and report["fair"] is False
    assert report["blame"] == {"entry": index, "seat": None}  # nobody signed those bytes


def test_a_truncated_log_does_not_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entries = list(honest().log)
    code, report = verify_json(log_file(tmp_path, honest(), entries[: len(entries) // 2]), capsys)
    # Its own exit code (3): no seat deviated, the log only stops short.
    assert code == 3 and report["findings"][0]["code"] == "incomplete"  # type: ignore[index]
    # In words: the part played checks out; the rest needs the end of the game.
    assert main(["verify", str(log_file(tmp_path, honest(), entries[: len(entries) // 2]))]) == 3
    said = capsys.readouterr().out
    assert f"every one of the {len(entries) // 2} entries checks out" in said and "NOT VERIFIED" in said
    path = log_file(tmp_path, honest())
    path.write_bytes(path.read_bytes()[:-10])
    assert main(["verify", str(path)]) == 2
    assert "truncated" in capsys.readouterr().out


def test_verify_help_gives_every_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["verify", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    for code in ("0 if the game was fair", "1 for a deviation", "2 if the file cannot be read",
                 "3 if the log stops short of a complete game"):
        assert code in said, said


def test_an_unreadable_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(tmp_path / "missing.log")]) == 2
    (tmp_path / "junk.log").write_bytes(b"hello")
    assert main(["verify", str(tmp_path / "junk.log")]) == 2
    assert "log header" in capsys.readouterr().out


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_no_single_byte_change_verifies(data: st.DataObject) -> None:
    entries = list(honest().log)
    index = data.draw(st.integers(0, len(entries) - 1))
    raw = bytearray(entries[index])
    pos = data.draw(st.integers(0, len(raw) - 1))
    raw[pos] ^= data.draw(st.integers(1, 255))
    entries[index] = bytes(raw)
    assert not verify_entries(entries).fair


OTHER_SEED = Seed(b"\x42" * 32)


class UncommittedShuffler(Peer):
    """Seat 1 shuffles the train deck, and proves it, with a seed other than the
    one it committed to. The step is a true shuffle with a true proof, so play
    accepts it (and one honest seat's permutation keeps the order unknown to
    it); only the audit, which re-runs every step from the committed seed,
    can tell."""

    def _chain_step(self, engine: GameState) -> Shuffle | Remask | None:
        step = super()._chain_step(engine)
        if isinstance(step, Shuffle) and step.step.deck == "train" and step.step.epoch == 0:
            s = step.step
            assert self.table.joint is not None
            inputs = self.table.chains[(Deck.TRAIN, 0)].step_input(self.seat)
            return Shuffle(shuffle_step(self.table.joint, OTHER_SEED, s.seat, s.deck, s.epoch, inputs), step.cards)
        return step

    def _chain_proof(self, engine: GameState) -> ProveShuffle | ProveRemask | None:
        proof = super()._chain_proof(engine)
        if isinstance(proof, ProveShuffle) and proof.proof.deck == "train" and proof.proof.epoch == 0:
            assert self.table.joint is not None
            built = self.table.chains[(Deck.TRAIN, 0)]
            step = ShuffleStep("train", 0, self.seat, built.steps[self.seat])
            return ProveShuffle(prove_shuffle(self.table.joint, OTHER_SEED, step, built.step_input(self.seat)))
        return proof


class DuplicatingShuffler(Peer):
    """Seat 1 copies one card over another in its train-deck shuffle."""

    def _chain_step(self, engine: GameState) -> Shuffle | Remask | None:
        step = super()._chain_step(engine)
        if isinstance(step, Shuffle) and step.step.deck == "train" and step.step.epoch == 0:
            cts = list(step.step.ciphertexts)
            cts[60:110] = cts[0:50]  # half the deck twice: it shows before long
            s = step.step
            return Shuffle(ShuffleStep(s.deck, s.epoch, s.seat, tuple(cts)), step.cards)
        return step


def _train_shuffle_entry(game: CryptoGame, seat: int, kind: str = "shuffle") -> int:
    from p2p_ttr.table.envelope import open_envelope

    return next(
        i for i, raw in enumerate(game.log)
        if open_envelope(raw).kind == kind and open_envelope(raw).seat == seat
    )


def test_a_shuffle_not_from_the_committed_seed_is_caught_and_blamed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = play_crypto_game(22, [RandomBot(22 + p) for p in range(3)], NAMES, peer_types=[Peer, UncommittedShuffler])
    assert all(p.table.complete and p.table.halted is None for p in game.peers)  # unnoticed in play
    code, report = verify_json(log_file(tmp_path, game), capsys)
    assert code == 1 and report["fair"] is False
    assert report["blame"] == {"entry": _train_shuffle_entry(game, 1), "seat": 1}
    findings = report["findings"]
    assert isinstance(findings, list) and {f["seat"] for f in findings} == {1}


def test_the_report_numbers_seats_as_its_findings_do(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The report numbers seats as every screen does (from 1: the panel's
    '2 blue'); the player list uses the same numbers, so 'seat 2' in a
    finding is the player listed as seat 2. The JSON keeps the log's ids."""
    game = play_crypto_game(22, [RandomBot(22 + p) for p in range(3)], NAMES, peer_types=[Peer, UncommittedShuffler])
    assert main(["verify", str(log_file(tmp_path, game))]) == 1
    said = capsys.readouterr().out
    assert f"players: seat 1 {NAMES[0]}, seat 2 {NAMES[1]}, seat 3 {NAMES[2]}" in said
    blamed = next(line for line in said.splitlines() if line.startswith("NOT VERIFIED"))
    assert f": seat 2 {NAMES[1]}:" in blamed
    assert main(["verify", "--json", str(log_file(tmp_path, game))]) == 1
    assert json.loads(capsys.readouterr().out)["blame"]["seat"] == 1


def test_a_stopped_log_counts_turns_as_the_pause_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A log that stops mid-game: `ttr verify` says the turn the pause said
    (both from client/numbering.py: 1 for the first), and names the seat it
    waits for by name, not by a 0-based number."""
    from p2p_ttr.net.pause import paused_at

    entries = list(honest().log)
    cut = entries[: len(entries) // 2]
    table = verify_entries(cut).table
    assert table.engine is not None and table.engine.turn > 0
    paused = paused_at(table, ours=True)
    assert main(["verify", str(log_file(tmp_path, honest(), cut))]) == 3
    said = capsys.readouterr().out
    assert f"the log ends during the game (turn {paused.turn}; waiting for: " in said, said
    assert paused.turn == table.engine.turn + 1
    waiting = said.split("waiting for: ")[1]
    assert any(name in waiting for name in NAMES) and "seat 0" not in waiting


def test_a_duplicated_card_halts_the_game_and_the_audit_names_the_cheat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = play_crypto_game(23, [RandomBot(23 + p) for p in range(3)], NAMES, peer_types=[Peer, DuplicatingShuffler])
    halted = {(p.table.halted, p.table.halted_at, p.table.culprit) for p in game.peers}
    proof_entry = _train_shuffle_entry(game, 1, "shuffle_proof")
    # Every replica stopped, naming seat 1 at its proof, before the deal.
    assert halted == {(game.peers[0].table.halted, proof_entry, 1)}
    assert all(p.table.engine is not None and not any(ps.hand for ps in p.table.engine.players) for p in game.peers)
    assert all(p.table.complete for p in game.peers)  # every seat revealed its secrets
    code, report = verify_json(log_file(tmp_path, game), capsys)
    assert code == 1
    # The false step leads (the deck audit re-runs it from the seed), then the halt at its proof.
    assert report["blame"] == {"entry": _train_shuffle_entry(game, 1), "seat": 1}
    findings = report["findings"]
    assert isinstance(findings, list)
    assert {(f["entry"], f["seat"], f["code"]) for f in findings} >= {(proof_entry, 1, "halted")}


def test_a_log_played_under_other_rules_is_not_judged_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rules version 3 changed what is legal (protocol.md §5): a log whose
    seating names other rules is refused with that reason, blaming nobody.
    Only seat 0's signature makes it so: a forged seating is an alteration."""
    from p2p_ttr.table.envelope import open_envelope, seal
    from p2p_ttr.table.messages import RULES

    game = honest()
    seating = open_envelope(game.log[0])
    assert seating.body[1] == RULES
    body = [seating.body[0], "ttr-europe/2", seating.body[3]]  # the players, where revision 2 had them
    old = seal(game.peers[0].identity, seating.game_id, 0, 1, seating.head, body).raw
    code, report = verify_json(log_file(tmp_path, game, [old, *game.log[1:]]), capsys)
    assert code == 1 and report["fair"] is False
    assert [(f["entry"], f["seat"], f["code"]) for f in report["findings"]] == [(0, None, "other_rules")]  # type: ignore[index,union-attr]
    assert main(["verify", str(log_file(tmp_path, game, [old, *game.log[1:]]))]) == 1
    said = capsys.readouterr().out
    assert "'ttr-europe/2'" in said and f"verifies {RULES} (and ttr/6, ttr-europe/5) only" in said
    forged = seal(game.peers[1].identity, seating.game_id, 0, 1, seating.head, body).raw
    code, report = verify_json(log_file(tmp_path, game, [forged, *game.log[1:]]), capsys)
    assert code == 1 and report["findings"][0]["code"] != "other_rules"  # type: ignore[index]
