"""Every forged message of a cheating seat is refused by every honest replica
with its error code, and changes nothing: after the whole campaign the
replicas fold the honest log to exactly the honest end.

One honest 2-player game is folded once into each seat's replica (with that
seat's secrets). Before each entry, every cheat of ``malicious.CHEATS`` that
applies at that point is forged by the seat it suits and fed to every
replica; each cheat is tried at its first chance, again past the middle of
the game, and once more after the game is over where it still applies.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import pytest

from games import NAMES, honest_game, snapshot
from malicious import CHEATS, Malicious
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.table import Table


@dataclass(frozen=True)
class Attempt:
    entry: int  # the cheat was fed before this log entry (len(log): after the last)
    seat: int  # the cheating seat
    codes: tuple[str, ...]  # what each replica answered ("accepted" if it did not refuse)
    unchanged: bool  # every replica's state is exactly as before


def feed(replicas: list[Table], raw: bytes) -> tuple[tuple[str, ...], bool]:
    codes, unchanged = [], True
    for t in replicas:
        before, rejected = snapshot(t), len(t.rejected)
        try:
            t.receive(raw)
            codes.append("accepted")
        except (TableError, EngineError) as exc:
            codes.append(exc.code)
            unchanged &= len(t.rejected) == rejected + 1 and t.rejected[-1].code == exc.code
        unchanged &= snapshot(t) == before
    return tuple(codes), unchanged


@functools.cache
def campaign() -> tuple[dict[str, list[Attempt]], list[Table]]:
    game = honest_game()
    replicas = [Table(peer.table.me) for peer in game.peers]
    tried: dict[str, list[Attempt]] = {name: [] for name in CHEATS}
    half = len(game.log) // 2

    def due(name: str, index: int) -> bool:
        attempts = tried[name]
        if not attempts:
            return True
        if len(attempts) == 1:
            return index >= half and attempts[0].entry < half
        return index == len(game.log) and attempts[-1].entry < len(game.log)

    for index in range(len(game.log) + 1):
        for name, cheat in CHEATS.items():
            if not due(name, index):
                continue
            for seat in (1, 0):
                raw = cheat.forge(Malicious(seat, game.peers[seat].identity, replicas[seat]))
                if raw is not None:
                    tried[name].append(Attempt(index, seat, *feed(replicas, raw)))
                    break
        if index < len(game.log):
            for t in replicas:
                t.receive(game.log[index])
    return tried, replicas


@pytest.mark.parametrize("name", sorted(CHEATS))
def test_cheat_is_refused_everywhere_with_its_code_and_changes_nothing(name: str) -> None:
    attempts = campaign()[0][name]
    assert attempts, f"{name} never found a point of the game to try"
    expected = (CHEATS[name].code,) * len(NAMES)
    for attempt in attempts:
        assert attempt.codes == expected, f"{name} at entry {attempt.entry}: {attempt.codes}"
        assert attempt.unchanged, f"{name} at entry {attempt.entry} changed a replica"


def test_most_cheats_are_tried_in_the_middle_of_the_game_too() -> None:
    tried = campaign()[0]
    late = [n for n, attempts in tried.items() if any(a.entry >= len(honest_game().log) // 2 for a in attempts)]
    assert len(late) >= len(tried) - 6, sorted(set(tried) - set(late))


def test_after_every_cheat_the_replicas_reach_the_honest_end() -> None:
    replicas = campaign()[1]
    honest = honest_game().peers
    assert [t.digest() for t in replicas] == [p.table.digest() for p in honest]
    assert all(t.complete and t.halted is None for t in replicas)
    assert len({t.digest() for t in replicas}) == 1
