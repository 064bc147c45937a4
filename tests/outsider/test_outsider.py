"""protocol.md alone is enough (issue #26): a checker written from protocol.md
(outsider_math.py, outsider_log.py), importing nothing of p2p_ttr, recomputes
every value of the test vectors from scratch, and audits a real game log
agreeing with `ttr verify` on every count and on the first deviation of a
doctored one. Only the tests below use our code, to make the logs and to run
`ttr verify`."""

from __future__ import annotations

import ast
import functools
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import outsider_math as om
from outsider_log import LogAudit, audit_log, read_log

HERE = Path(__file__).parent
# The doctored logs of tests/table (made with our code, as a forger would).
sys.path.append(str(HERE.parent / "table"))
VECTORS = json.loads((HERE.parent / "deck" / "vectors" / "deck_v1.json").read_text())
GAME_ID = bytes.fromhex(VECTORS["game_id"])


def raw(hexed: str) -> bytes:
    return bytes.fromhex(hexed)


def num(hexed: str) -> int:
    return int(hexed, 16)


def elem(hexed: str) -> int:
    return om.element(raw(hexed))


def unhex(value: Any) -> Any:
    """A wire list from the vectors, its bytes back from hex (ints stay; deck names stay)."""
    if isinstance(value, list):
        return [unhex(v) for v in value]
    if isinstance(value, str) and value not in ("train", "tickets", "long") and len(value) % 2 == 0:
        return raw(value)
    return value


def pairs(rows: list[list[str]]) -> list[om.Pair]:
    return [(om.element(raw(a)), om.element(raw(b))) for a, b in rows]


def inputs_of(rows: list[list[str]]) -> list[om.Pair]:
    """A step's input as the vectors write it: a canonical ciphertext's a is the identity, 1."""
    return [(num(a), num(b)) for a, b in rows]


def test_the_checker_imports_nothing_of_ours() -> None:
    allowed = {"__future__", "hashlib", "hmac", "collections", "collections.abc", "dataclasses", "typing",
               "msgpack", "gmpy2", "outsider_math", "cryptography.exceptions",
               "cryptography.hazmat.primitives.ciphers.aead", "cryptography.hazmat.primitives.asymmetric.ed25519"}
    for name in ("outsider_math.py", "outsider_log.py"):
        tree = ast.parse((HERE / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert {a.name for a in node.names} <= allowed, name
            elif isinstance(node, ast.ImportFrom):
                assert node.module in allowed, (name, node.module)


# ------------------------------------------------------------- the vectors


def test_group_hashing_and_the_head_chain() -> None:
    group = VECTORS["group"]
    assert (num(group["p"]), num(group["q"]), group["g"]) == (om.P, om.Q, om.G)
    assert om.F(b"p2p_ttr", "train", 0, 300).hex() == VECTORS["field_encoding"]["encoded"]
    assert om.F(om.TAG + b"card", "train", 50, 0).hex() == VECTORS["card_hash_input"]
    assert om.genesis(GAME_ID).hex() == VECTORS["log_genesis_head"]
    for deck, cards in VECTORS["card_elements"].items():
        for card_id, value in cards.items():
            assert om.card(deck, int(card_id)) == elem(value)
    assert [om.generator(i) for i in range(4)] == [elem(h) for h in VECTORS["generators"]]


def test_keys_commitments_and_the_joint_key() -> None:
    keys = []
    for row in VECTORS["seats"]:
        seat, x = row["seat"], num(row["x"])
        key_seat, y_hex, t_hex, s_hex = row["key_announcement"]
        y, t, s = elem(y_hex), elem(t_hex), num(s_hex)
        assert key_seat == seat and om.enc(om.power(om.G, x)) == y
        assert om.ch("key-proof", GAME_ID, seat, om.E(om.G), om.E(y), om.E(t)) == num(row["key_proof_c"])
        assert om.key_proof_holds(GAME_ID, seat, y, t, s)
        assert not om.key_proof_holds(GAME_ID, seat, y, t, s + 1)
        assert not om.key_proof_holds(GAME_ID, (seat + 1) % 3, y, t, s)  # bound to its seat
        assert [seat, om.seed_commitment(GAME_ID, seat, raw(row["seed"])).hex()] == row["seed_commitment"]
        keys.append(y)
    assert om.enc(om.product(keys)) == elem(VECTORS["joint_key"])
    assert sum(num(row["x"]) for row in VECTORS["seats"]) == num(VECTORS["secret_sum"])


def chain_input(chain: dict[str, Any], finals: dict[tuple[str, int], list[om.Pair]]) -> list[om.Pair]:
    if chain["kind"] == "shuffle":
        return [(1, om.card(chain["deck"], c)) for c in chain["cards"]]
    return [finals[(deck, epoch)][pos] for deck, epoch, pos in chain["sources"]]


@functools.cache
def checked_chains() -> dict[tuple[str, int], list[om.Pair]]:
    """Every chain of the vectors recomputed: inputs, each step from its seed,
    each proof's statement, challenges and equations, the final cards."""
    joint, seeds = elem(VECTORS["joint_key"]), {row["seat"]: raw(row["seed"]) for row in VECTORS["seats"]}
    finals: dict[tuple[str, int], list[om.Pair]] = {}
    cards: dict[tuple[str, int], list[int]] = {}
    for chain in VECTORS["chains"]:
        deck, epoch, kind = chain["deck"], chain["epoch"], chain["kind"]
        current = chain_input(chain, finals)
        for step in chain["steps"]:
            seat, inputs = step["seat"], inputs_of(step["input"])
            assert inputs == current
            drbg = om.StepDrbg(seeds[seat], kind, GAME_ID, seat, deck, epoch, inputs)
            assert drbg.key.hex() == step["derivation"]["drbg_key"]
            label = "rerandomise" if kind == "shuffle" else "remask"
            assert [hex(drbg.r(label, i)) for i in range(len(inputs))] == step["derivation"]["r"]
            make = om.shuffle_step if kind == "shuffle" else om.remask_step
            if kind == "shuffle":
                blocks = [drbg.block("permutation", k).hex() for k in range(len(step["derivation"]["permutation_blocks"]))]
                assert blocks == step["derivation"]["permutation_blocks"]
                assert drbg.permutation(len(inputs)) == step["derivation"]["permutation"]
            outputs = make(seeds[seat], GAME_ID, seat, deck, epoch, joint, inputs)
            assert outputs == pairs(step["output"])
            assert unhex(step["wire"]) == [deck, epoch, seat, [[om.E(a), om.E(b)] for a, b in outputs]]
            proof, wire = step["proof"], unhex(step["proof"]["wire"])
            statement = om.statement(kind, joint, GAME_ID, seat, deck, epoch, inputs, outputs)
            assert statement.hex() == proof["statement"]
            if kind == "shuffle":
                u = om.sixteens(om.shake("shuffle-proof", 16 * len(inputs), "u", statement, b"".join(wire[3])))
                c = om.ch("shuffle-proof", "c", statement, *(b"".join(part) for part in wire[3:7]))
                holds = om.shuffle_proof_holds
            else:
                u = om.sixteens(om.shake("remask-proof", 16 * len(inputs), "u", statement))
                c = om.ch("remask-proof", "c", statement, wire[3], wire[4])
                holds = om.remask_proof_holds
            assert [hex(v) for v in u] == proof["u"] and hex(c) == proof["c"]
            assert holds(joint, GAME_ID, seat, deck, epoch, inputs, outputs, wire)
            # Bound to its step: another seat's, epoch's or input's proof fails.
            assert not holds(joint, GAME_ID, seat, deck, epoch + 1, inputs, outputs, [deck, epoch + 1, *wire[2:]])
            assert not holds(joint, GAME_ID, seat, deck, epoch, inputs[::-1], outputs, wire)
            current = outputs
        finals[(deck, epoch)] = current
        secret_sum = num(VECTORS["secret_sum"])
        wanted = chain["cards"] if kind == "shuffle" else [cards[(d, e)][pos] for d, e, pos in chain["sources"]]
        table = {om.card(deck, c): c for c in wanted}
        cards[(deck, epoch)] = [table[om.decrypt(pair, secret_sum)] for pair in current]
        assert cards[(deck, epoch)] == chain["final_cards"]
        assert Counter(cards[(deck, epoch)]) == Counter(wanted)
    return finals


def test_every_chain_step_and_proof() -> None:
    assert set(checked_chains()) == {("train", 0), ("tickets", 0), ("tickets", 1)}


def test_a_false_proof_fails_the_checker() -> None:
    joint = elem(VECTORS["joint_key"])
    chain = VECTORS["chains"][0]
    step = chain["steps"][1]
    inputs, outputs, wire = inputs_of(step["input"]), pairs(step["output"]), unhex(step["proof"]["wire"])
    s1, *rest = wire[7]
    forged = [*wire[:7], [(om.uint(s1, 66) + 1).to_bytes(66, "big"), *rest], *wire[8:]]
    assert om.shuffle_proof_holds(joint, GAME_ID, 1, "train", 0, inputs, outputs, wire)
    assert not om.shuffle_proof_holds(joint, GAME_ID, 1, "train", 0, inputs, outputs, forged)
    swapped = [outputs[1], outputs[0], *outputs[2:]]  # the step is not what the proof is for
    assert not om.shuffle_proof_holds(joint, GAME_ID, 1, "train", 0, inputs, swapped, wire)


def test_shares_open_the_card() -> None:
    finals = checked_chains()
    shares = VECTORS["shares"]
    deck, epoch, pos = shares["ref"]
    a, b = finals[(deck, epoch)][pos]
    assert [a, b] == [elem(v) for v in shares["ciphertext"]]
    published = []
    for row in shares["shares"]:
        r_deck, r_epoch, r_pos, seat, d_hex, t1_hex, t2_hex, s_hex = row["wire"]
        assert [r_deck, r_epoch, r_pos] == [deck, epoch, pos]
        d, t1, t2, s = elem(d_hex), elem(t1_hex), elem(t2_hex), num(s_hex)
        y = elem(VECTORS["seats"][seat]["key_announcement"][1])
        assert om.share_challenge(GAME_ID, seat, deck, epoch, pos, y, a, d, t1, t2) == num(row["c"])
        assert om.share_proof_holds(GAME_ID, seat, deck, epoch, pos, y, a, d, t1, t2, s)
        assert not om.share_proof_holds(GAME_ID, seat, deck, epoch, pos + 1, y, a, d, t1, t2, s)
        assert om.same(om.power(a, num(VECTORS["seats"][seat]["x"])), d)  # by value
        published.append(d)
    table = {om.card(deck, c): c for c in (0, 50, 100)}
    assert table[om.enc(b * om.inverse(om.product(published)))] == shares["opened_card"]


def test_escrow_deal_and_complaint() -> None:
    escrow = VECTORS["escrow"]
    keys = {row["seat"]: (num(row["x"]), elem(row["key_announcement"][1])) for row in VECTORS["seats"]}
    game_id, dealer, sealed_shares = unhex(escrow["deal"])
    assert (game_id, dealer) == (GAME_ID, escrow["dealer"])
    total, commitments = 0, []
    for recipient, c_raw, r_raw, sealed in sealed_shares:
        commitment, ephemeral = om.element(c_raw), om.element(r_raw)
        x_recipient = keys[recipient][0]
        share = om.escrow_open(GAME_ID, dealer, recipient, commitment, ephemeral, sealed,
                               om.enc(om.power(ephemeral, x_recipient)))
        assert share is not None
        assert om.escrow_open(GAME_ID, dealer, recipient, commitment, ephemeral, sealed, om.G) is None
        total, commitments = (total + share) % om.Q, [*commitments, commitment]
    assert total == num(escrow["exponent"]) and om.enc(om.product(commitments)) == keys[dealer][1]
    assert om.enc(om.power(om.G, num(escrow["seed_as_exponent"]))) == elem(escrow["seed_image"])
    c_dealer, c_recipient, k_raw, c_raw, z_raw = unhex(escrow["complaint_by_seat_1"])
    key_element, c, z = om.element(k_raw), int.from_bytes(c_raw, "big"), int.from_bytes(z_raw, "big")
    ephemeral = om.element(sealed_shares[[s[0] for s in sealed_shares].index(c_recipient)][2])
    y = keys[c_recipient][1]
    assert om.complaint_proof_holds(GAME_ID, c_dealer, c_recipient, y, ephemeral, key_element, c, z)
    assert not om.complaint_proof_holds(GAME_ID, c_dealer, c_recipient, y, ephemeral, key_element, c, z + 1)
    # The proof holds and the share opens with K: the complaint is false.
    commitment, sealed = sealed_shares[[s[0] for s in sealed_shares].index(c_recipient)][1:4:2]
    assert om.escrow_open(GAME_ID, c_dealer, c_recipient, om.element(commitment), ephemeral, sealed,
                          key_element) is not None


# ---------------------------------------------------------- a real game log


def verify_json(data: bytes, tmp: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    from p2p_ttr.cli.main import main

    path = tmp / "checked.log"
    path.write_bytes(data)
    main(["verify", str(path), "--json"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    return report


@pytest.fixture(scope="module")
def game_log(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """`ttr selfplay --crypto --log FILE --players 3 --seed 1 --bot-level random`, in-process:
    817 entries, two reshuffles of the train discards and six re-masked returns."""
    from p2p_ttr.cli.main import main

    path = tmp_path_factory.mktemp("outsider") / "game.log"
    assert main(["selfplay", "--crypto", "--log", str(path), "--players", "3", "--seed", "1",
                 "--bot-level", "random"]) == 0
    return path.read_bytes()


def test_a_real_game_log_checks_out_with_the_same_counts_as_ttr_verify(
    game_log: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    verdict = verify_json(game_log, tmp_path, capsys)
    audit = LogAudit(*read_log(game_log))
    report = audit.run()
    assert verdict["fair"] is True and report.findings == []
    checked = verdict["checked"]
    assert report.entries == verdict["entries"]
    assert report.keys == checked["keys"] == 3
    assert report.steps + report.derived == checked["shuffles"]
    assert report.reproduced == report.steps  # every logged step is its seed's
    assert report.proofs + report.derived == checked["proofs"]
    assert report.epochs == checked["decks"]
    assert report.shares == checked["shares"]
    # The game has it all: reshuffles of the discards and re-masked returned tickets.
    assert report.kinds["remask"] > 0 and report.kinds["act"] > 0
    assert any(deck == "train" and epoch > 0 for deck, epoch in audit.chains)


def test_an_old_west_log_whose_returns_are_mixed_checks_out_with_the_same_counts_as_ttr_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A mix (§3: the set-up's returns shuffled into the deck) read from protocol.md alone."""
    from p2p_ttr.cli.main import main

    path = tmp_path / "oldwest.log"
    assert main(["selfplay", "--crypto", "--board", "oldwest", "--log", str(path), "--players", "3", "--seed", "1",
                 "--bot-level", "random"]) == 0
    data = path.read_bytes()
    capsys.readouterr()
    verdict = verify_json(data, tmp_path, capsys)
    audit = LogAudit(*read_log(data))
    report = audit.run()
    assert verdict["fair"] is True and report.findings == []
    checked = verdict["checked"]
    assert (report.kinds["mix"], report.kinds["mix_proof"]) == (3, 3)
    assert report.steps + report.derived == checked["shuffles"] and report.reproduced == report.steps
    assert (report.proofs + report.derived, report.epochs, report.shares) == (
        checked["proofs"], checked["decks"], checked["shares"])
    assert any(chain.kind == "mix" for chain in audit.chains.values())


def test_a_doctored_log_is_blamed_where_ttr_verify_blames_it(
    game_log: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seat 1's proof of its train shuffle made false, the log signed again
    by fresh identities and going on: the checker's first finding is
    `ttr verify`'s blame."""
    import dataclasses

    import msgpack
    from doctored_logs import bodies, resigned
    from p2p_ttr.deck.shuffleproof import ShuffleProof
    from p2p_ttr.table.logfile import header
    from p2p_ttr.table.messages import ProveShuffle

    game_id, entries = read_log(game_log)
    index = next(i for i, body in enumerate(bodies(entries))
                 if body[0] == "shuffle_proof" and body[1][:3] == ["train", 0, 1])
    proof = ShuffleProof.from_wire(bodies(entries)[index][1])
    s1, s2, s3, s4 = proof.s
    false = ProveShuffle(dataclasses.replace(proof, s=(s1 + 1, s2, s3, s4))).to_wire()
    doctored = resigned(entries[:40], {index: false})
    data = header(game_id) + b"".join(msgpack.packb(entry, use_bin_type=True) for entry in doctored)
    capsys.readouterr()
    blame = verify_json(data, tmp_path, capsys)["blame"]
    first = audit_log(data).first
    assert first is not None and blame == {"entry": first.entry, "seat": first.seat} == {"entry": index, "seat": 1}


def test_a_log_with_a_forfeit_checks_out_with_the_fold_steps_derived_from_the_revealed_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seat 0 forfeits right after its keys: every chain's first step is the
    fold's own, in no entry (protocol.md §3, Steps the log does not hold);
    the checker derives them from the revealed seed and finds what
    `ttr verify` finds."""
    from p2p_ttr.bots.random_bot import RandomBot
    from p2p_ttr.local.crypto_game import play_crypto_game
    from p2p_ttr.table.logfile import write_log
    from p2p_ttr.table.peer import Peer

    class Leaver(Peer):
        def outbox(self) -> list[bytes]:
            if self.seat in self.table.forfeited:
                return []
            if self.seat in self.table.keys:
                return [self.forfeit()]
            return super().outbox()

    game = play_crypto_game(3, [RandomBot(30 + p) for p in range(3)], ("Anna", "Boris", "Chiara"), [Leaver])
    path = tmp_path / "forfeit.log"
    game_id = game.peers[1].table.game_id
    assert game_id is not None
    write_log(path, game_id, game.log)
    capsys.readouterr()
    verdict = verify_json(path.read_bytes(), tmp_path, capsys)
    report = audit_log(path.read_bytes())
    assert verdict["fair"] is True and report.findings == []
    assert report.kinds["forfeit"] == 1 and report.derived > 0
    assert report.derived == report.epochs  # seat 0's step of every epoch
    checked = verdict["checked"]
    assert (report.steps + report.derived, report.proofs + report.derived, report.epochs, report.shares) == (
        checked["shuffles"], checked["proofs"], checked["decks"], checked["shares"])
