"""The registry of `ttr` subcommands: one place that drives dispatch and help.

Each command module defines ``COMMAND = Command(name, help, add_arguments, run)``
and is listed in ``p2p_ttr.cli.main.COMMAND_MODULES``. ``run`` returns the process exit
code; it raises ``UsageError`` for a bad invocation (exit 2 with the message).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass


class UsageError(Exception):
    """A command was given input it cannot use; the message is shown as is."""


@dataclass(frozen=True)
class Command:
    """A `ttr` subcommand: its name, help and arguments, and what runs it."""

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    description: str = ""
