"""What a typed line comes to: the outcomes the command language produces,
and the context it reads a line against. Plain data, shared by the full
screen and the line prompt."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TypeAlias

from p2p_ttr.engine.boards import europe_game
from p2p_ttr.engine.events import Action
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.state import GameState

from .pagetext import Block


class EndMeans(Enum):
    """What `end` does for this player now: the quit question offers only that."""

    PAUSE_ALL = "pause_all"  # we relay (the host, or the seat the relay moved to): every seat stops for now
    STEP_AWAY = "step_away"  # the game waits for us: the same command comes back
    CARRIED_ON = "carried_on"  # escrow: once we are silent, the others carry our seat on; back, we watch


def end_means(relaying: bool, escrow: bool) -> EndMeans:
    """``relaying``: our seat relays the game (or holds the lobby)."""
    if relaying:
        return EndMeans.PAUSE_ALL
    return EndMeans.CARRIED_ON if escrow else EndMeans.STEP_AWAY


@dataclass(frozen=True)
class Context:
    """What a command is read against: the player's view (None before the
    game starts), their seat and everyone's names."""

    view: GameState | None
    seat: int | None
    names: tuple[str, ...]
    hosting: bool = False  # the host's `end` pauses everyone (its joiners are told)
    asked: Ask | None = None  # the question the next line may answer (Tab offers its choices)
    ends: EndMeans | None = None  # what `end` does now (None: as ``hosting`` says)
    typed: str = ""  # the command's words as the player typed them (a refusal quotes them so)

    @property
    def game(self) -> Game:
        """The game the line is read against: the view's; before the seating,
        when no game is named yet, the default one (``europe_game``)."""
        return self.view.game if self.view is not None else europe_game()


@dataclass(frozen=True)
class Play:
    """Send this action; ``said`` tells the player what was sent."""

    action: Action
    said: str


@dataclass(frozen=True)
class Refuse:
    """The line cannot be played: the reason in the player's words."""

    reason: str


@dataclass(frozen=True)
class Note:
    """Something to tell the player; nothing is played."""

    text: str


@dataclass(frozen=True)
class Show:
    """A page of text: help, the rules (laid out at the width it is shown at)."""

    title: str
    lines: tuple[Block, ...]


@dataclass(frozen=True)
class ShowWay:
    """Highlight ``routes`` on the map and say ``lines`` (no routes: clear)."""

    routes: frozenset[int]
    lines: tuple[str, ...]


@dataclass(frozen=True)
class ShowNetwork:
    """Show ``seat``'s network alone on the map and say ``lines`` (None: everyone's, nothing to say)."""

    seat: int | None
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Leave:
    """Leave the game: for now (a pause; the same command resumes), or for
    good (``forfeit``). Also the loop's input (net/playerinput.py): one type
    from the command to the loop."""

    forfeit: bool = False


@dataclass(frozen=True)
class Start:
    """Start the game now: the host's, in its lobby (the screen knows the role). Also the loop's input."""


@dataclass(frozen=True)
class Redraw:
    """Show the table again (the plain prompt prints it; the screen closes any page)."""


@dataclass(frozen=True)
class Choice:
    """One answer to a question: the word that picks it, its label, and what it leads to."""

    key: str  # what the player types: a number or a word
    label: str
    outcome: Outcome


@dataclass(frozen=True)
class Ask:
    """A question; the next line answers it (or is a new command)."""

    question: str
    choices: tuple[Choice, ...] = field(default_factory=tuple)
    retry: str = ""  # why the question is asked again (a number that is no choice)
    default: str = ""  # the key of the choice an empty line (Enter) takes; "" asks again

    @property
    def shown(self) -> str:
        """The question as the screen shows it, with why it is asked again."""
        return f"{self.retry} {self.question}" if self.retry else self.question

    def prompt(self) -> str:
        return self.shown + "  " + "   ".join(f"{c.key}) {c.label}" for c in self.choices)


Outcome: TypeAlias = Play | Refuse | Note | Show | ShowWay | ShowNetwork | Leave | Redraw | Start | Ask

CANCEL = Choice("cancel", "never mind", Note("cancelled"))


class Refused(Exception):
    """Raised inside the resolvers; becomes a ``Refuse``."""
