"""Where the player's input comes in: what a peer's loop (``Node.run``)
takes from the player's front, and what it offers it. Typed values, so that
no layer reads back the words of another.

The front is one channel (``PlayerChannel``), called on the loop's own
thread, where reading the table is safe: ``take`` hands the loop the next
thing the player did (start the game, a move, leave), ``turned`` lets the
front show what changed after each turn of the loop. The front looks at the
game through ``Seen``. ``SeatInput`` keeps a person's move until the table
asks our seat for one (it is that seat's ``Decider``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from p2p_ttr.client.livenessfacts import RelaySilence
from p2p_ttr.client.outcomes import EndMeans, Leave, Start
from p2p_ttr.client.words import ENDED
from p2p_ttr.engine.events import Action
from p2p_ttr.engine.state import GameState
from p2p_ttr.table.table import Table

from .console import Quit


@dataclass(frozen=True)
class Seen:
    """What the loop's owner shows of itself: the replica (None before the
    seating), our seat, the players' names, the lobby before the game, and,
    once the loop stopped early, why (its last words, as it said them); and
    the seats the relay calls silent, with their seconds without a heartbeat;
    and the peer we follow, when it has sent us nothing for a while."""

    table: Table | None = None
    seat: int | None = None
    names: tuple[str, ...] = ()
    lobby: tuple[str, ...] = ()
    stopped: str = ""
    ends: EndMeans | None = None  # what the player's `end` does now (None: as the role says)
    silent: tuple[tuple[int, int], ...] = ()  # (seat, whole seconds silent), other seats only
    relay_silent: RelaySilence | None = None  # the peer we follow, when it has sent nothing for a while


@dataclass(frozen=True)
class PlayerMove:
    """The player's move, for the table when it asks our seat (checked against
    the table as it stood when the front chose it)."""

    action: Action


@dataclass(frozen=True)
class InputClosed:
    """The player's input is gone (stdin closed): play on without it."""


Input = Start | PlayerMove | Leave | InputClosed


class PlayerChannel(Protocol):
    """The player's side of the loop."""

    def take(self) -> Input | None:
        """The next thing the player did, or None if nothing (never blocks)."""

    def turned(self) -> None:
        """The loop turned once: show what changed."""


RunLoop = Callable[[PlayerChannel | None], int]
# At the end of the loop (given its exit code): a page title and its lines.
Ending = Callable[[int], tuple[str, list[str]]]


class SeatInput:
    """A person's input, taken from their channel on the loop's thread."""

    def __init__(self, start: Callable[[], None], forfeit: Callable[[], None], moved: Callable[[], None]) -> None:
        """``start``: the player asks to start the game (only a host can);
        ``forfeit``: the player leaves for good; ``moved``: the player chose a
        move (our seat's duties ask the table for our message again)."""
        self.start = start
        self.forfeit = forfeit
        self.moved = moved
        self.chosen: Action | None = None  # the player's move, until the table asks our seat for one

    def choose(self, view: GameState, seat: int) -> Action | None:
        """The Decider when a person plays: the move they chose, once."""
        action, self.chosen = self.chosen, None
        return action

    def take(self, player: PlayerChannel) -> bool:
        """Act on what the player did, if anything; False once their input is
        closed. Pausing (`end`) raises ``Quit``: the loop stops for now."""
        match player.take():
            case None:
                pass
            case InputClosed():
                return False
            case Start():
                self.start()
            case PlayerMove(action):
                self.chosen = action
                self.moved()
            case Leave(forfeit=True):
                self.forfeit()
            case Leave():
                raise Quit(ENDED)
        return True
