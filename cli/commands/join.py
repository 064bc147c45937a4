"""`ttr join HOST[:PORT]`: join (or resume) a LAN game."""

from __future__ import annotations

import argparse
import sys
import getpass
from pathlib import Path

from cli.commands.host import add_common, audit_so_far, decider, finish
from cli.registry import Command, UsageError
from p2p_ttr.net.console import Console, LineReader, Quit
from p2p_ttr.net.lobby import valid_name
from p2p_ttr.net.node import Node, NodeOptions
from p2p_ttr.net.store import DataDir, StoreError, default_data_dir
from p2p_ttr.net.transport import TransportError, parse_address


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("address", metavar="HOST[:PORT]", help="the host's address, as `ttr host` printed it")
    add_common(parser)


def default_name() -> str:
    try:
        name = getpass.getuser()[:24]
    except Exception:
        return "player"
    return name if valid_name(name) else "player"


def run(args: argparse.Namespace) -> int:
    try:
        host, port = parse_address(args.address)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    name = args.name or default_name()
    if not valid_name(name):
        raise UsageError("a name is 1-24 printable characters")
    console = Console(quiet_stdout=args.json)
    try:
        data = DataDir(args.data_dir or default_data_dir())
        decide, human = decider(args, name, console)
        node = Node(NodeOptions(data, host, port, name, args.timeout, scripted=args.as_bot, trace=args.trace), decide, console)
    except StoreError as exc:
        console.say(f"ttr join: {exc}")
        return 1
    reader = LineReader() if human is not None else None

    def tick() -> None:
        if human is not None:
            human.attach(node.table, node.player.seat if node.player else None)
            human.tick()

    try:
        code = node.run(human.command if human else None, reader.get if reader else None, tick)
        finish(args, node.table, node.store.log_path if node.store else Path("-"), console)
        return code
    except (StoreError, TransportError) as exc:
        console.say(f"ttr join: {exc}")
        return 1
    except Quit as exc:
        console.say(str(exc))
        audit_so_far(node.store.log_path if node.store else None, console)
        return 1


COMMAND = Command(
    name="join",
    help="join a LAN game (or resume your seat in one)",
    description="Connect to a `ttr host` on the LAN and play. Running the same command again after "
    "a crash resumes your seat.",
    add_arguments=add_arguments,
    run=run,
)


def standalone(argv: list[str] | None = None) -> int:
    """Run this command without the `ttr` registry (``python -m cli.commands.join``)."""
    parser = argparse.ArgumentParser(prog="ttr join")
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except UsageError as exc:
        print(f"ttr join: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(standalone())
