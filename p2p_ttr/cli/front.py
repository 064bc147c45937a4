"""Who plays a networked seat, and where they see it: a bot, the plain line
prompt, or the full-screen client (cli/tui).

A front gives the loop (``Node.run``) its console (and a bot's Decider),
and runs the loop with its ``PlayerChannel``: the player's typed inputs. The full screen is
chosen when both stdin and stdout are terminals and neither ``--plain``,
``--as-bot`` nor ``--json`` says otherwise: scripts and tests keep the
line prompt.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from p2p_ttr.bots.levels import make_bot
from p2p_ttr.net.console import Console, LineReader
from p2p_ttr.net.playerinput import Ending, RunLoop, Seen
from p2p_ttr.table.peer import Decider

if TYPE_CHECKING:
    from .plain import Human


class Front(Protocol):
    """Who plays a networked seat and where they see it: the Decider and console the loop uses, and how it runs."""

    console: Console
    decide: Decider | None  # a bot's; None: the player's moves come through the loop's PlayerChannel
    tells_ending: bool  # it shows the end itself (the full screen prints its last page)

    def play(self, run: RunLoop, seen: Callable[[], Seen], ending: Ending) -> int: ...

    def show_address(self, text: str) -> None:
        """Where friends join (the console has said it already)."""


class BotFront:
    """A bot plays the seat (`--as-bot`): no input, notes to the console."""

    def __init__(self, args: argparse.Namespace, name: str) -> None:
        self.console = Console(quiet_stdout=args.json)
        self.decide: Decider | None = make_bot(args.bot_level, secrets.randbelow(2**31), name).choose
        self.tells_ending = False

    def play(self, run: RunLoop, seen: Callable[[], Seen], ending: Ending) -> int:
        return run(None)

    def show_address(self, text: str) -> None:
        pass


class PlainFront:
    """A person at the plain line prompt (`--plain`, or when stdin or stdout is not a terminal)."""

    def __init__(self, args: argparse.Namespace, hosting: bool) -> None:
        from .plain import Human  # the line prompt's words and pages only where a person plays

        self.console = Console(quiet_stdout=args.json)
        self.human: Human = Human(self.console.say, hosting)
        self.decide: Decider | None = None
        self.tells_ending = False

    def play(self, run: RunLoop, seen: Callable[[], Seen], ending: Ending) -> int:
        from .plain import PlainChannel

        return run(PlainChannel(self.human, LineReader(), seen))

    def show_address(self, text: str) -> None:
        pass


def full_screen(args: argparse.Namespace) -> bool:
    return not (args.plain or args.as_bot or args.json) and sys.stdin.isatty() and sys.stdout.isatty()


def make_front(args: argparse.Namespace, name: str, role: str) -> Front:
    """``role`` is "host" or "join"; the host's `end` pauses everyone."""
    if args.as_bot:
        return BotFront(args, name)
    if full_screen(args):
        from p2p_ttr.cli.tui.front import (
            TuiFront,  # prompt_toolkit only when a screen is wanted
        )

        return TuiFront(role, hosting=role == "host")
    return PlainFront(args, hosting=role == "host")
