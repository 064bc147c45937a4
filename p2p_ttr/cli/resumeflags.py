"""The flags a resume command keeps: every one the player gave that still
applies to the game they come back to (`--beacon off`, `--timeout 60`,
`--plain`...), so that the game resumes as it was played. Flags about the
new game's shape (`--players`, `--bots`, `--escrow`, `--name`) are the log's
business by then and are left out."""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Callable
from typing import Any

# The flags that carry over, by their argparse destination, with their
# defaults (a flag at its default is left out: the command stays short).
CARRIED: tuple[tuple[str, str], ...] = (
    ("as_bot", "--as-bot"), ("bot_level", "--bot-level"), ("plain", "--plain"), ("json", "--json"),
    ("timeout", "--timeout"), ("relay_timeout", "--relay-timeout"), ("beacon", "--beacon"),
    ("advertise", "--advertise"),
)


def carried_flags(args: argparse.Namespace, defaults: dict[str, Any]) -> list[str]:
    """The words that give again each carried flag ``args`` holds away from its default."""
    words: list[str] = []
    for dest, flag in CARRIED:
        value = getattr(args, dest, None)
        if dest not in defaults or value == defaults[dest] or value is None:
            continue
        if value is True:
            words.append(flag)
        elif isinstance(value, tuple):  # --advertise IP:PORT
            host, port = value
            words += [flag, shlex.quote(f"[{host}]:{port}" if ":" in host else f"{host}:{port}")]
        elif isinstance(value, float):
            words += [flag, f"{value:g}"]
        else:
            words += [flag, shlex.quote(str(value))]
    return words


def defaults_of(add_arguments: Callable[[argparse.ArgumentParser], None]) -> dict[str, Any]:
    """Every flag's default, as a command's own parser gives it."""
    parser = argparse.ArgumentParser(add_help=False)
    add_arguments(parser)
    return vars(parser.parse_args([]))
