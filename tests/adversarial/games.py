"""Games and snapshots shared by the adversarial tests (built once per session)."""

from __future__ import annotations

import functools
from typing import Any

from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.local.crypto_game import CryptoGame, play_crypto_game
from p2p_ttr.table.table import Table

NAMES = ("Ann", "Bob")


@functools.cache
def honest_game() -> CryptoGame:
    """A whole honest 2-player game: the log and every seat's replica."""
    return play_crypto_game(31, [RandomBot(310 + p) for p in range(2)], NAMES)


def snapshot(t: Table) -> Any:
    """Everything a refused message could have touched in a replica."""
    return (
        t.digest(), len(t.log), id(t.engine), dict(t.last_seq), sorted(t.keys), sorted(t.audits), t.halted,
        t.suspicion, {k: len(c.steps) for k, c in t.chains.items()}, {r: sorted(d) for r, d in t.shares.items()},
    )


def replica(seat: int | None, entries: int) -> Table:
    """A fresh replica (seat's, with its secrets; or an auditor's) folded up to ``entries``."""
    game = honest_game()
    table = Table(game.peers[seat].table.me if seat is not None else None)
    for raw in game.log[:entries]:
        table.receive(raw)
    return table


class FakeSocket:
    """Stands in for a ZeroMQ socket: keeps what is sent."""

    def __init__(self) -> None:
        self.sent: list[list[bytes]] = []

    def send_multipart(self, parts: list[bytes]) -> None:
        self.sent.append(parts)

    def send(self, raw: bytes) -> None:
        self.sent.append([raw])
