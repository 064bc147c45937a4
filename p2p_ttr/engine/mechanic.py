"""A board mechanic's hooks into the turn, declared once in the mechanic's own module.

The core of the rules (``rules.py``) keeps the turn's skeleton: draw, claim,
tickets, the step queue, the end of a turn and of the game. Each mechanic a
board may play (stations, tunnels, track beds, depots, city markers,
technologies, shares, monsters) adds to it through one :class:`Mechanic`
value in its module: its moves' handlers, and what it does at the few
moments the skeleton asks (after a claim, after a draw, before a turn ends,
as the set-up ends). ``mechanics.py`` lists them in the order the rules fix
and says which a game plays; the skeleton walks only those.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, Generic, TypeVar

from .board import Route
from .cards import CardRef
from .events import Action, Event
from .game import Game
from .state import GameState, Phase

ActionT = TypeVar("ActionT", bound=Action)


class Then(Enum):
    """What the turn does once a mechanic has had its say about a claim."""

    NEXT = "next"  # the next mechanic has its say; after the last, the turn ends
    WAIT = "wait"  # the turn waits for its player's decision (a phase of the mechanic's): nobody else is asked
    END_TURN = "end turn"  # the turn ends now: nobody else is asked


@dataclass(frozen=True, slots=True)
class ClaimTaken:
    """A route just laid: by whom, and whether beside another player's trains (Right of Way)."""

    player: int
    route: Route
    beside: bool


@dataclass(frozen=True, slots=True)
class AfterClaim:
    """A mechanic's answer to a claim: the state it leaves, and what the turn does next."""

    state: GameState
    then: Then = Then.NEXT


@dataclass(frozen=True, slots=True)
class TurnFlow:
    """What a handler hands back to the turn's skeleton (rules.py gives these,
    so that no mechanic imports the skeleton that imports it)."""

    end_turn: Callable[[GameState], GameState]
    begin_play: Callable[[GameState], GameState]  # set-up's pieces placed in turn; then the first turn
    take_route: Callable[[GameState, int, Route, tuple[CardRef, ...]], GameState]  # a claim paid in full

    def after(self, answer: AfterClaim) -> GameState:
        """The state a claim's answer leaves, its turn ended where the answer says so."""
        return self.end_turn(answer.state) if answer.then is Then.END_TURN else answer.state


@dataclass(frozen=True, slots=True)
class Handles(Generic[ActionT]):
    """The handler of one kind of action: checks it completely, then plays it."""

    kind: type[ActionT]
    handle: Callable[[GameState, ActionT, TurnFlow], GameState]

    def __call__(self, state: GameState, action: Event, flow: TurnFlow) -> GameState:
        assert isinstance(action, self.kind)
        return self.handle(state, action, flow)


@dataclass(frozen=True, slots=True)
class Mechanic:
    """One mechanic's hooks; None where it has nothing to say at that moment.

    A hook is asked only in a game that plays the mechanic (``plays``); its
    moves' handlers are asked in every game, and refuse the move where the
    mechanic is not played, with the same words as ever."""

    name: str
    plays: Callable[[Game], bool]
    handlers: tuple[Handles[Any], ...] = ()
    # Before any action is checked: why it may not come now because of this mechanic.
    refuses: Callable[[GameState, Event], str | None] | None = None
    after_claim: Callable[[GameState, ClaimTaken], AfterClaim] | None = None
    # After a turn's draw is complete: the phase the turn goes on in, instead of ending.
    after_draw: Callable[[GameState], Phase | None] | None = None
    # As the turn is about to end: the phase of a decision due first.
    before_turn_ends: Callable[[GameState], Phase | None] | None = None
    # As the turn ends: what this mechanic forgets of it.
    turn_over: Callable[[GameState], GameState] | None = None
    # A new table: the state with this mechanic's slice at the start (new_game).
    at_start: Callable[[GameState], GameState] | None = None
    # As the set-up ends: the state waiting for this mechanic's next piece to be placed, None when none is due.
    set_up: Callable[[GameState], GameState | None] | None = None
