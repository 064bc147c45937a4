"""`ttr host`: open a LAN game (you are seat 0 and its sequencer), or resume one."""

from __future__ import annotations

import argparse
import json
import os
import secrets
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

from cli.registry import Command, UsageError
from p2p_ttr.bots.levels import LEVELS, make_bot
from p2p_ttr.local.summary import game_summary
from p2p_ttr.net.console import Console, LineReader, Quit
from p2p_ttr.net.host import Host, HostOptions
from p2p_ttr.net.human import Human
from p2p_ttr.net.lobby import valid_name
from p2p_ttr.net.store import DataDir, StoreError, default_data_dir
from p2p_ttr.net.transport import DEFAULT_PORT, TransportError, local_addresses
from p2p_ttr.table.envelope import MAX_SEATS
from p2p_ttr.table.peer import Decider

BOT_NAMES = ("Bot1", "Bot2", "Bot3", "Bot4")


def add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--name", help="your name at the table")
    parser.add_argument("--as-bot", action="store_true", help="play this seat with a bot (no human needed)")
    parser.add_argument("--bot-level", choices=LEVELS, default="random", help="the bot's level (default random)")
    parser.add_argument("--json", action="store_true", help="end with one JSON object describing the game")
    parser.add_argument("--data-dir", type=Path, help=f"where keys, logs and secrets live (default {default_data_dir()})")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds without progress before giving up (default 120)")
    parser.add_argument("--trace", type=Path, help=argparse.SUPPRESS)  # timings for bench/lan.py


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"TCP port to listen on (default {DEFAULT_PORT})")
    parser.add_argument("--bind", default="0.0.0.0", help="interface to listen on (default all)")
    parser.add_argument("--players", type=int, default=0, help="start as soon as this many players (you included) are in")
    parser.add_argument("--bots", type=int, default=0, help="add this many bot players (each a separate peer process)")
    parser.add_argument("--resume", metavar="GAME", help="resume a game hosted before (its id, or a unique prefix)")
    add_common(parser)


def decider(args: argparse.Namespace, name: str, console: Console) -> tuple[Decider, Human | None]:
    if args.as_bot:
        bot = make_bot(args.bot_level, secrets.randbelow(2**31), name)
        return bot.choose, None
    human = Human(console.say)
    return human.choose, human


def summary_of(table: Any, log: Path) -> dict[str, Any]:
    names = [s.name for s in table.seats]
    summary = game_summary(table.engine, names)
    summary["game_id"] = table.game_id.hex()
    summary["digest"] = table.digest()
    summary["log"] = str(log)
    return summary


def finish(args: argparse.Namespace, table: Any, log: Path, console: Console) -> None:
    if table is None or table.engine is None or not table.complete:
        return
    summary = summary_of(table, log)
    if args.json:
        print(json.dumps(summary), flush=True)
    else:
        from cli.commands.selfplay import render_summary

        lines = render_summary(summary).splitlines()
        lines[0] = f"Ticket to Ride: Europe - {len(summary['players'])} players, game {summary['game_id']}"
        console.say("\n".join(lines))
        console.say(f"the signed log is {log} (`ttr verify {log}` audits it)")


def audit_so_far(log: Path | None, console: Console) -> None:
    """When a game is ended early: what the log so far shows, as `ttr verify` would."""
    if log is None or not log.exists():
        return
    from cli.commands.verify import report_lines
    from p2p_ttr.table.logfile import LogFileError, read_log
    from p2p_ttr.table.verify import verify_entries

    try:
        _, entries = read_log(log)
    except LogFileError as exc:
        console.say(f"the log cannot be read: {exc}")
        return
    console.say(f"audit of the {len(entries)} entries played (log: {log}):")
    for line in report_lines(verify_entries(entries), False):
        console.say("  " + line)


def run(args: argparse.Namespace) -> int:
    if args.players and not 2 <= args.players <= MAX_SEATS:
        raise UsageError(f"--players must be 2 to {MAX_SEATS}")
    if not 0 <= args.bots < MAX_SEATS:
        raise UsageError(f"--bots must be 0 to {MAX_SEATS - 1}")
    if args.bots and args.players and args.players < args.bots + 1:
        raise UsageError("--players must count you and the bots")
    if args.as_bot and not (args.players or args.bots or args.resume):
        raise UsageError("--as-bot needs --players N or --bots K: nobody will press Enter to start")
    name = args.name or ("host" if not args.as_bot else "Bot0")
    if not valid_name(name):
        raise UsageError("a name is 1-24 printable characters")
    console = Console(quiet_stdout=args.json)
    try:
        data = DataDir(args.data_dir or default_data_dir())
    except StoreError as exc:
        console.say(f"ttr host: {exc}")
        return 1
    players = args.players or (args.bots + 1 if args.bots else 0)
    decide, human = decider(args, name, console)
    bots: list[subprocess.Popen[bytes]] = []

    def on_port(port: int) -> None:
        if not args.resume:
            addrs = [a for a in local_addresses()]
            console.say(f"hosting on port {port}; friends join with: "
                        + " or ".join(f"ttr join {a}:{port}" for a in addrs))
        if args.resume:
            if args.bots:
                console.say("the bots of a resumed game reconnect by themselves while they run; to restart one: "
                            f"ttr join 127.0.0.1:{port} --as-bot --name NAME --data-dir {data.path / 'bots' / 'NAME'}")
            return
        for i in range(args.bots):
            bots.append(spawn_bot(BOT_NAMES[i], port, data.path / "bots" / BOT_NAMES[i], args))

    try:
        host = Host(HostOptions(data, name, args.bind, args.port, players, args.timeout, args.resume,
                                scripted=args.as_bot, trace=args.trace), decide, console, on_port)
    except StoreError as exc:
        console.say(f"ttr host: {exc}")
        return 1
    reader = LineReader() if human is not None else None

    def tick() -> None:
        if human is not None:
            human.attach(host.table, 0)
            human.tick()

    try:
        code = host.run(human.command if human else None, reader.get if reader else None, tick)
        finish(args, host.table, host.store.log_path if host.store else Path("-"), console)
        return code
    except (StoreError, TransportError) as exc:
        console.say(f"ttr host: {exc}")
        return 1
    except Quit as exc:
        console.say(str(exc))
        audit_so_far(host.store.log_path if host.store else None, console)
        return 1
    finally:
        for proc in bots:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def join_module() -> list[str]:
    """How to run `ttr join` in a child process."""
    from cli.main import COMMAND_MODULES

    return ["cli.main", "join"] if "cli.commands.join" in COMMAND_MODULES else ["cli.commands.join"]


def spawn_bot(name: str, port: int, data_dir: Path, args: argparse.Namespace) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", *join_module(), f"127.0.0.1:{port}", "--as-bot", "--name", name,
           "--data-dir", str(data_dir), "--bot-level", args.bot_level, "--timeout", str(args.timeout)]
    out: IO[bytes] | int = subprocess.DEVNULL
    data_dir.mkdir(parents=True, exist_ok=True)
    out = open(data_dir / "bot.out", "ab")
    return subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})


COMMAND = Command(
    name="host",
    help="host a LAN game (you play seat 0 and relay the others' messages)",
    description="Open a game on the LAN: friends join with `ttr join ADDRESS`; press Enter to start "
    "(or --players N to start when N are in, --bots K to fill seats with bots). "
    "`--resume GAME` continues a game after a crash.",
    add_arguments=add_arguments,
    run=run,
)


def standalone(argv: list[str] | None = None) -> int:
    """Run this command without the `ttr` registry (``python -m cli.commands.host``)."""
    parser = argparse.ArgumentParser(prog="ttr host")
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except UsageError as exc:
        print(f"ttr host: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(standalone())
