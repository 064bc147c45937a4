"""Forfeit: a seat leaves for good mid-game; the fold plays it on from its
published secrets, identically on every replica, and the log still verifies."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from p2p_ttr.bots.levels import make_bot
from p2p_ttr.engine.events import ClaimRoute
from p2p_ttr.local.crypto_game import CryptoGame, play_crypto_game
from p2p_ttr.table.envelope import open_envelope, seal
from p2p_ttr.table.errors import Cheating, NotExpected, TableError
from p2p_ttr.table.logfile import write_log
from p2p_ttr.table.messages import Act, Forfeit, message_from_wire
from p2p_ttr.table.peer import Peer
from p2p_ttr.table.table import Table
from p2p_ttr.table.verify import verify_entries

NAMES = ("Anna", "Boris", "Chiara", "Dmitri", "Elena")


def forfeiting_at(turn: int) -> type[Peer]:
    """A peer that forfeits once the game reaches ``turn`` (0: right after the keys)."""

    class Leaver(Peer):
        def outbox(self) -> list[bytes]:
            t = self.table
            if self.seat in t.forfeited:
                return []
            if self.seat in t.keys and not t.finished and (turn == 0 or (t.engine and t.engine.turn >= turn)):
                return [self.forfeit()]
            return super().outbox()

    return Leaver


@functools.cache
def game(n: int, leaver: int, turn: int, seed: int = 5) -> CryptoGame:
    bots = [make_bot("medium", seed + p) for p in range(n)]
    types = [Peer] * leaver + [forfeiting_at(turn)]
    return play_crypto_game(seed, bots, NAMES[:n], types)


def forfeit_index(log: list[bytes]) -> int:
    return next(i for i, raw in enumerate(log) if isinstance(message_from_wire(open_envelope(raw).body), Forfeit))


def folded(log: list[bytes], upto: int) -> Table:
    """An outsider's table after the entries before index ``upto``."""
    table = Table()
    for raw in log[:upto]:
        table.receive(raw)
    return table


def signed_by(log: list[bytes], start: int, seat: int) -> list[bytes]:
    return [raw for raw in log[start:] if open_envelope(raw).seat == seat]


@pytest.mark.parametrize(("n", "leaver", "turn"), [(3, 2, 8), (2, 1, 0), (3, 0, 20)])
def test_the_game_goes_on_and_every_replica_agrees(n: int, leaver: int, turn: int) -> None:
    g = game(n, leaver, turn)
    assert all(p.table.complete for p in g.peers)
    assert all(p.table.rejected == [] for p in g.peers)
    assert len({p.table.digest() for p in g.peers}) == 1
    outsider = Table()
    for raw in g.log:
        outsider.receive(raw)
    assert outsider.digest() == g.peers[0].table.digest()
    assert outsider.engine is not None and outsider.engine.over
    # Nothing is signed by the leaver after its forfeit: the fold played for it.
    assert signed_by(g.log, forfeit_index(g.log) + 1, leaver) == []
    assert leaver in outsider.forfeited


def test_the_caretaker_played_the_leavers_turns() -> None:
    g = game(3, 2, 8)
    table = g.peers[0].table
    assert table.engine is not None
    # The leaver took turns after it left (its trains or hand changed), and every
    # card it holds was opened to all.
    before = Table()
    for raw in g.log[: forfeit_index(g.log) + 1]:
        before.receive(raw)
    assert before.engine is not None
    then, now = before.engine.players[2], table.engine.players[2]
    assert (then.trains, then.hand) != (now.trains, now.hand)
    assert all(r in table.engine.public for r in now.hand + now.tickets)


def test_a_forfeit_reveals_only_the_leavers_cards() -> None:
    g = game(3, 2, 8)
    tables = [Table(p.table.me) for p in g.peers]
    for raw in g.log:
        for table in tables:
            table.receive(raw)
            engine, me = table.engine, table.me
            if engine is None or engine.over or me is None:
                continue
            for p, ps in enumerate(engine.players):
                if p in (me.seat, 2):
                    continue
                for ref in ps.hand + ps.tickets + ps.offered:
                    assert engine.face(ref) is None or ref in engine.public


@pytest.mark.parametrize(("n", "leaver", "turn"), [(3, 2, 8), (2, 1, 0)])
def test_verify_accepts_a_game_with_a_forfeit(n: int, leaver: int, turn: int) -> None:
    g = game(n, leaver, turn)
    verdict = verify_entries(g.log)
    assert verdict.fair, [f.line() for f in verdict.findings]
    assert verdict.table.deck.derived_steps  # the leaver's shuffle steps were derived and audited
    assert verdict.table.forfeit_entries == {leaver: forfeit_index(g.log)}
    assert verdict.score is not None


def test_verify_blames_a_forfeit_whose_seed_was_not_committed() -> None:
    g = game(3, 2, 8)
    i = forfeit_index(g.log)
    env = open_envelope(g.log[i])
    real = message_from_wire(env.body)
    assert isinstance(real, Forfeit)
    other = g.peers[1].table.me
    assert other is not None
    fake = Forfeit(other.seed, real.secret).to_wire()
    forged = seal(g.peers[2].identity, env.game_id, env.seat, env.seq, env.head, fake).raw
    table = folded(g.log, i)
    with pytest.raises(Cheating):
        table.receive(forged)
    assert table.forfeited == {} and table.rejected[-1].code == "cheating"
    verdict = verify_entries(g.log[:i] + [forged])
    assert not verdict.fair and verdict.findings[0].seat == 2 and verdict.findings[0].entry == i


def test_a_forfeit_after_the_game_or_twice_is_refused() -> None:
    g = game(3, 2, 8)
    table = Table()
    for raw in g.log:
        table.receive(raw)
    leaver = g.peers[2]
    with pytest.raises(ValueError):
        leaver.forfeit()  # the peer knows better
    peer = g.peers[1]
    env = open_envelope(g.log[-1])
    me = peer.table.me
    assert me is not None
    late = seal(peer.identity, env.game_id, 1, 10_000, table.head, Forfeit(me.seed, me.key).to_wire()).raw
    with pytest.raises(NotExpected):
        table.receive(late)
    again = seal(leaver.identity, env.game_id, 2, 10_000, table.head,
                 Forfeit(leaver.table.forfeited[2].seed, leaver.table.forfeited[2].key).to_wire()).raw
    with pytest.raises(TableError):
        table.receive(again)


def test_a_forfeited_seat_cannot_sign_anything_more() -> None:
    g = game(3, 2, 8)
    i = forfeit_index(g.log)
    table = folded(g.log, i + 1)
    env = open_envelope(g.log[i])
    bogus = seal(g.peers[2].identity, env.game_id, 2, env.seq + 1, table.head,
                 Act(ClaimRoute(2, 0, ())).to_wire()).raw
    before = table.digest()
    with pytest.raises(NotExpected, match="forfeited"):
        table.receive(bogus)
    assert table.digest() == before


def test_ttr_verify_reports_the_forfeit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from p2p_ttr.cli.main import main

    g = game(3, 2, 8)
    log = tmp_path / "game.log"
    write_log(log, open_envelope(g.log[0]).game_id, g.log)
    assert main(["verify", str(log)]) == 0
    out = capsys.readouterr().out
    assert f"Chiara forfeited at entry {forfeit_index(g.log)}" in out and "VERIFIED" in out
    assert main(["verify", "--json", str(log)]) == 0
    assert json.loads(capsys.readouterr().out)["forfeits"] == [{"seat": 2, "entry": forfeit_index(g.log)}]


def test_a_forfeit_with_another_seats_secret_or_a_second_one_is_refused() -> None:
    g = game(3, 2, 8)
    i = forfeit_index(g.log)
    env = open_envelope(g.log[i])
    table = folded(g.log, i)
    other = g.peers[1].table.me
    assert other is not None
    stolen = seal(g.peers[2].identity, env.game_id, 2, env.seq, env.head, Forfeit(other.seed, other.key).to_wire()).raw
    with pytest.raises(TableError):
        table.receive(stolen)  # seat 1's secret, signed by seat 2
    assert table.forfeited == {} and table.rejected[-1].code in ("malformed", "cheating")
    table.receive(g.log[i])
    twice = seal(g.peers[2].identity, env.game_id, 2, env.seq + 1, table.head, message_from_wire(env.body).to_wire()).raw
    with pytest.raises(NotExpected):
        table.receive(twice)


def test_a_forfeited_seats_shares_are_computed_never_taken_from_what_it_published() -> None:
    g = game(3, 2, 8)
    i = forfeit_index(g.log)
    table = folded(g.log, i + 1)
    # Whatever seat 2 published before is no longer waiting for a proof check:
    # its share of any card is a^x from its revealed secret now.
    assert all(2 not in seats for seats in table.shares.unchecked.values())
