"""Moves that play hidden cards: they wait in the log for their cards.

A move whose cards the others cannot read yet (a claim, a station, a
tunnel payment, a technology bought or a monster moved with hidden cards;
a pass, which shows the whole hand) goes into the log first; its author's shares of those cards are owed from then
on, and the fold opens them and applies the move, or voids it when the
faces do not make it legal (protocol.md §6, ``act``).
"""

from __future__ import annotations

from dataclasses import dataclass

from p2p_ttr.engine.cards import CardRef
from p2p_ttr.engine.events import BuildStation, BuyTechnology, ClaimRoute, MoveMonster, Pass, PayTunnel, PlaceMarker
from p2p_ttr.engine.rules import apply, check_for_some_faces
from p2p_ttr.engine.state import GameState

from .errors import NotExpected

CardMove = ClaimRoute | BuildStation | PayTunnel | PlaceMarker | Pass | BuyTechnology | MoveMonster


@dataclass(frozen=True)
class PendingAct:
    """An act in the log that plays hidden cards (a pass: the whole hand): it
    waits for its author's shares of them, then opens them and is applied
    (or voided)."""

    seat: int
    action: CardMove
    cards: tuple[CardRef, ...]


@dataclass(frozen=True)
class VoidedAct:
    """An act whose cards, once open, did not make it legal (they did not pay,
    or a pass's hand could still play): it changed nothing but showing them,
    and its author moves again."""

    entry: int
    seat: int
    reason: str


def hidden_cards(engine: GameState, seat: int, action: object) -> tuple[CardRef, ...]:
    """The cards ``action`` plays whose faces are not public: the cards it
    pays with, or for a pass the whole hand (that nothing in it can be played
    is what makes a pass legal, and every replica must be able to tell)."""
    if isinstance(action, (ClaimRoute, BuildStation, PayTunnel, BuyTechnology, PlaceMarker, MoveMonster)):
        return tuple(r for r in action.cards if r not in engine.public)
    if isinstance(action, Pass):
        return tuple(r for r in engine.players[seat].hand if r not in engine.public)
    return ()


def take_act(engine: GameState, seat: int, action: object, pending: PendingAct | None) -> GameState | PendingAct:
    """``seat``'s move: the state it leads to now, or, when it plays hidden
    cards, the act that waits in the log for its author's shares of them.

    Raises:
        NotExpected: another seat's move, or one while the last still waits, or cards not in the hand.
        EngineError: the move is illegal (for any faces of the cards it plays).
    """
    if getattr(action, "player", None) != seat:
        raise NotExpected(f"seat {seat} can only act for itself")
    if pending is not None:
        raise NotExpected(f"seat {pending.seat}'s last move waits for its cards")
    played = hidden_cards(engine, seat, action)
    if not played:
        return apply(engine, action)  # type: ignore[arg-type]
    if not set(played) <= set(engine.players[seat].hand):
        raise NotExpected(f"seat {seat} plays cards that are not in its hand")
    move: CardMove = action  # type: ignore[assignment]  # only these play cards (hidden_cards)
    check_for_some_faces(engine, move)  # refused now if no faces could make it legal
    return PendingAct(seat, move, played)
