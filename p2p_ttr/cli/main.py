"""Entry point of the `ttr` command."""

from __future__ import annotations

import argparse
import importlib
import sys
from importlib import metadata
from collections.abc import Sequence

from p2p_ttr.cli.registry import Command, UsageError

# Every subcommand, in the order `ttr --help` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "p2p_ttr.cli.commands.selfplay",
    "p2p_ttr.cli.commands.score",
    "p2p_ttr.cli.commands.verify",
    "p2p_ttr.cli.commands.tournament",
    "p2p_ttr.cli.commands.host",
    "p2p_ttr.cli.commands.join",
    "p2p_ttr.cli.commands.watch",
    "p2p_ttr.cli.commands.replay",
    "p2p_ttr.cli.commands.boards",
)


def child_command(name: str) -> list[str]:
    """How to run `ttr NAME` in a child process with this interpreter
    (bots, tests, benches; it works from a checkout that is not installed)."""
    return [sys.executable, "-m", "p2p_ttr.cli.main", name]


def installed_version() -> str:
    """The version pip installed (pyproject.toml's), or what a bare checkout is."""
    try:
        return metadata.version("p2p_ttr")
    except metadata.PackageNotFoundError:
        return "(not installed)"


def load_commands() -> list[Command]:
    commands: list[Command] = []
    for name in COMMAND_MODULES:
        module = importlib.import_module(name)
        commands.append(module.COMMAND)
    return commands


def build_parser(commands: Sequence[Command]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ttr",
        description="Ticket to Ride for 2-5 players on a LAN (6 on Old West), with no trusted server (`ttr boards` lists the boards).",
    )
    parser.add_argument("--version", action="version", version=f"ttr {installed_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in commands:
        p = sub.add_parser(
            command.name,
            help=command.help,
            description=command.description or command.help,
        )
        command.add_arguments(p)
        p.set_defaults(_run=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser(load_commands())
    args = parser.parse_args(argv)
    run = getattr(args, "_run", None)
    if run is None:
        parser.print_help()
        return 2
    try:
        code: int = run(args)
    except UsageError as exc:
        print(f"ttr {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
