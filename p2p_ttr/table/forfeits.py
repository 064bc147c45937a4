"""What the fold does for seats that forfeited (protocol.md §6, steps 1-3),
or were carried on from escrow (the table holds them as forfeited).

A forfeited seat revealed its secrets, so every replica can compute what it
owes: its chain steps (from its seed), its shares (from its key), and its
moves (the caretaker, from its now public hand). This module decides the next
such duty from the table's state; the table carries it out. Every replica
decides the same, in the same order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from p2p_ttr.deck import RemaskStep, Seed, ShuffleStep
from p2p_ttr.engine.caretaker import caretaker_move
from p2p_ttr.engine.cards import CardRef
from p2p_ttr.engine.events import Action
from p2p_ttr.engine.rules import actors
from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.view import view_for

from .chains import ChainBook, Need


@dataclass(frozen=True)
class DeriveStep:
    """The forfeited ``seat``'s step of the chain being built, computed from its seed."""

    need: Need
    seat: int
    step: ShuffleStep | RemaskStep


@dataclass(frozen=True)
class OpenCards:
    """A forfeited seat's hidden cards whose other shares are all in: open them to all."""

    refs: tuple[CardRef, ...]


@dataclass(frozen=True)
class CaretakerMove:
    """The move the caretaker makes for a forfeited seat."""

    action: Action


Duty = DeriveStep | OpenCards | CaretakerMove


def next_duty(engine: GameState, need: Need | None, chains: ChainBook,
              seeds: Mapping[int, Seed], sharers: Callable[[CardRef], set[int]], n: int,
              safe_tunnels: bool = True) -> Duty | None:
    """The first duty of a forfeited seat due now, or None.

    1. The chain being built waits for a forfeited seat's step: derive it. (If
       it waits for a live seat, nothing else can happen first.)
    2. The lowest forfeited seat with hidden cards whose shares are all in:
       open them.
    3. The lowest forfeited seat the engine waits for, its hand and offer all
       public: the caretaker's move (``safe_tunnels``: the caretaker of
       rules ttr/7 on; False for a game seated under ttr/6 or before).
    """
    if need is not None:
        turn = chains.turn(need)
        if turn not in seeds:
            return None
        return DeriveStep(need, turn, chains.derive_step(need, turn, seeds[turn]))
    for seat in sorted(seeds):
        ps = engine.players[seat]
        openable = tuple(r for r in ps.hand + ps.tickets + ps.offered
                         if r not in engine.public and len(sharers(r)) == n)
        if openable:
            return OpenCards(openable)
    for seat in sorted(seeds):
        ps = engine.players[seat]
        if seat not in actors(engine) or any(r not in engine.public for r in ps.hand + ps.offered):
            continue
        action = caretaker_move(view_for(engine, seat), seat, safe_tunnels)
        if action is not None:
            return CaretakerMove(action)
    return None
