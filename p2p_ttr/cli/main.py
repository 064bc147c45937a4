"""Entry point of the `ttr` command."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from p2p_ttr.cli.registry import Command, UsageError

# Every subcommand by name, with the module that defines it, in the order
# `ttr --help` lists them.
COMMAND_MODULES: dict[str, str] = {
    "selfplay": "p2p_ttr.cli.commands.selfplay",
    "score": "p2p_ttr.cli.commands.score",
    "verify": "p2p_ttr.cli.commands.verify",
    "tournament": "p2p_ttr.cli.commands.tournament",
    "host": "p2p_ttr.cli.commands.host",
    "join": "p2p_ttr.cli.commands.join",
    "watch": "p2p_ttr.cli.commands.watch",
    "replay": "p2p_ttr.cli.commands.replay",
    "boards": "p2p_ttr.cli.commands.boards",
}


def child_command(name: str) -> list[str]:
    """How to run `ttr NAME` in a child process with this interpreter
    (bots, tests, benches; it works from a checkout that is not installed)."""
    return [sys.executable, "-m", "p2p_ttr.cli.main", name]


def installed_version() -> str:
    """The version pip installed (pyproject.toml's), or what a bare checkout is."""
    from importlib import metadata  # ~30 ms to import: only `ttr --version` asks

    try:
        return metadata.version("p2p_ttr")
    except metadata.PackageNotFoundError:
        return "(not installed)"


def load_commands(names: Sequence[str] | None = None) -> list[Command]:
    """The commands NAMES (default: every one, in help order)."""
    commands: list[Command] = []
    for name in COMMAND_MODULES if names is None else names:
        command: Command = importlib.import_module(COMMAND_MODULES[name]).COMMAND
        commands.append(command)
    return commands


class VersionAction(argparse.Action):
    """`--version`: the installed version, looked up only when asked for."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(f"ttr {installed_version()}")
        parser.exit()


def build_parser(commands: Sequence[Command]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ttr",
        description="Ticket to Ride for 2-5 players on a LAN (6 on Old West), with no trusted server (`ttr boards` lists the boards).",
    )
    parser.add_argument("--version", action=VersionAction, nargs=0, help="show the version and exit")
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
    argv = sys.argv[1:] if argv is None else argv
    # Only the command being run is imported: each command's modules cost a
    # process start tenths of a second, and a bot seat (`ttr join --as-bot`,
    # five of them per benched game) needs none of the others'. Anything
    # else (`ttr`, `ttr --help`, a misspelt command) gets every command.
    named = [argv[0]] if argv and argv[0] in COMMAND_MODULES else None
    parser = build_parser(load_commands(named))
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
