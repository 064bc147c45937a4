"""`ttr verify` with its proof checks spread over worker processes reaches
the same verdict as one process: the same findings, in the same order,
blaming the same seats at the same entries, and the same deck audit, on
honest logs and on logs doctored every way a check in the pool can catch
(a false proof of shuffle, a chain whose last proof never came, a share
whose value is right and whose proof is not, a step not made from its
seed, a deck with a card twice, a log that stops before the reveals)."""

from __future__ import annotations

import functools

import pytest

from doctored_logs import bodies, resigned
from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.local.crypto_game import play_crypto_game
from p2p_ttr.table.peer import Peer
from p2p_ttr.table.verify import Verdict, verify_entries
from test_verify import NAMES, DuplicatingShuffler, UncommittedShuffler
from test_verify_blame import entry_of, false_proof, three_seats


@functools.cache
def cheats_log(cheat: type[Peer]) -> list[bytes]:
    return list(play_crypto_game(22, [RandomBot(22 + p) for p in range(3)], NAMES, peer_types=[Peer, cheat]).log)


def false_share_proof(log: list[bytes]) -> list[bytes]:
    """The first entry of shares with one share's proof response off by one (its value still right)."""
    entry = next(i for i, body in enumerate(bodies(log)) if body[0] == "shares")
    body = bodies(log)[entry]
    share = list(body[1][0])
    response = int.from_bytes(share[7], "big")
    share[7] = ((response + 1) % 2 ** (8 * len(share[7]))).to_bytes(len(share[7]), "big")
    return resigned(log, {entry: [body[0], [share, *body[1][1:]]]})


def honest() -> list[bytes]:
    return list(three_seats().log)


def halted_past_a_false_proof() -> list[bytes]:
    log = honest()
    proof = entry_of(log, "shuffle_proof", 1)
    return resigned(log, {proof: false_proof(log, proof)})


def a_chain_left_unproven() -> list[bytes]:
    log = honest()
    proof = entry_of(log, "shuffle_proof", 1)
    return resigned(log, {proof: false_proof(log, proof), entry_of(log, "shuffle_proof", 2): None})


def stopped_before_the_reveals() -> list[bytes]:
    log = honest()
    return log[: len(log) * 2 // 3]


LOGS = {
    "honest": honest,
    "a false proof of shuffle": halted_past_a_false_proof,
    "a chain whose last proof never came": a_chain_left_unproven,
    "a share whose proof is false": lambda: false_share_proof(honest()),
    "a step not from its committed seed": lambda: cheats_log(UncommittedShuffler),
    "a card twice in a deck": lambda: cheats_log(DuplicatingShuffler),
    "stopped before the reveals": stopped_before_the_reveals,
}


def what_it_found(verdict: Verdict) -> tuple[object, ...]:
    deck = verdict.deck
    return (verdict.fair, verdict.findings, verdict.names, verdict.record_entries, verdict.score,
            None if deck is None else (deck.deviations, deck.shuffles, deck.decks, deck.shares, deck.openings))


@pytest.mark.parametrize("name", LOGS)
def test_several_processes_find_what_one_finds(name: str) -> None:
    log = LOGS[name]()
    alone = verify_entries(log, workers=1)
    pooled = verify_entries(log, workers=3)
    assert what_it_found(pooled) == what_it_found(alone)
    # The cases are what they say: only the controls verify.
    assert alone.fair == (name == "honest")
