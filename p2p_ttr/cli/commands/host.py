"""`ttr host`: open a LAN game (you are seat 1, the first, and its sequencer), or resume one."""

from __future__ import annotations

import argparse
import subprocess
import sys

from p2p_ttr.cli.botseats import ANY_INTERFACE, BOT_NAMES, WithChores, bot_host, spawn_bot, with_beacon
from p2p_ttr.cli.front import make_front
from p2p_ttr.cli.hostedgames import LATEST, chosen_game, misfits, resume_command, unfinished_game
from p2p_ttr.cli.gamechoice import add_game_arguments, game_from_arguments
from p2p_ttr.cli.names import login_name
from p2p_ttr.cli.registry import Command, UsageError
from p2p_ttr.cli.resumeflags import defaults_of
from p2p_ttr.cli.seatflags import add_common, port_number
from p2p_ttr.cli.seat import play_seat
from p2p_ttr.bots.levels import LEVELS
from p2p_ttr.net.console import Console
from p2p_ttr.net.discovery import BEACON_PORT, Announcement, Beacon
from p2p_ttr.net.host import Host, HostOptions
from p2p_ttr.net.liveness import silent_seats
from p2p_ttr.net.playerinput import PlayerChannel, Seen
from p2p_ttr.table.messages import valid_name
from p2p_ttr.net.store import DataDir, StoreError, default_data_dir
from p2p_ttr.net.transport import (
    DEFAULT_PORT,
    local_addresses,
    parse_address,
)

BROADCAST = f"255.255.255.255:{BEACON_PORT}"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=port_number, default=DEFAULT_PORT,
                        help=f"TCP port to listen on, 1-65535, or 0 for any free one (default {DEFAULT_PORT})")
    parser.add_argument("--bind", default="0.0.0.0", help="interface to listen on (default all)")
    add_game_arguments(parser)
    parser.add_argument("--players", type=int, default=0,
                        help="start as soon as this many players (you and the bots included) are in; left out, "
                        "with --bots the table is you and the bots (it starts at once), without, you press "
                        "Enter to start")
    parser.add_argument("--bots", type=int, default=0,
                        help="add this many bot players (each a separate peer process); to leave seats for "
                        "friends too, give --players (--players 4 --bots 1: you, a bot and two who join)")
    parser.add_argument("--resume", metavar="GAME", nargs="?", const=LATEST,
                        help="resume a game hosted before (its id, or a unique prefix; left out, the latest "
                        "unfinished one); without --resume, an unfinished game hosted from this data directory "
                        "is resumed (with several, you are asked which)")
    parser.add_argument("--new", action="store_true",
                        help="start a new game even though one hosted from this data directory is unfinished")
    parser.add_argument("--beacon", metavar="ADDR[:PORT]|off",
                        help="where to announce the game for `ttr join` with no address (UDP; default "
                        f"{BROADCAST}, the LAN broadcast, unless --bind is a loopback address; off: do not announce)")
    parser.add_argument("--escrow", action="store_true",
                        help="3 to 5 players: every seat deals its key in shares to the others at the start, so "
                        "that a seat whose machine vanishes can be carried on (the game goes on); the price: all "
                        "the other players together could read that player's hand. Off by default: then a seat "
                        "that vanishes can only end the game")
    add_common(parser, hosting=True)


def beacon_of(args: argparse.Namespace) -> Beacon | None:
    beacon = args.beacon
    if beacon is None:
        # A host listening on loopback only cannot be joined from the LAN: say nothing there.
        beacon = "off" if args.bind.startswith("127.") or args.bind == "localhost" else BROADCAST
    if beacon == "off":
        return None
    try:
        address = parse_address(beacon, BEACON_PORT)
    except ValueError as exc:
        raise UsageError(f"--beacon: {exc}") from None
    return Beacon(address)


def run(args: argparse.Namespace) -> int:
    game = game_from_arguments(args, args.players or None)
    most = game.rules.max_players
    if not 0 <= args.bots < most:
        raise UsageError(f"--bots must be 0 to {most - 1} for {game.title}")
    if args.bots and args.players and args.players < args.bots + 1:
        raise UsageError("--players must count you and the bots")
    if args.escrow and (args.players or (args.bots + 1 if args.bots else 0)) in (1, 2):
        raise UsageError("--escrow needs 3 to 5 players: with two, the other player alone would hold your key")
    if args.as_bot and not (args.players or args.bots or args.resume):
        raise UsageError("--as-bot needs --players N or --bots K: nobody will press Enter to start")
    name = args.name if args.name is not None else login_name()  # the bots have their own names: Bot1...
    if not valid_name(name):
        raise UsageError("a name is 1-24 printable characters")
    if name in BOT_NAMES[: args.bots]:
        raise UsageError(f"{name!r} is the name of one of the bots: choose another --name")
    if args.new and args.resume:
        raise UsageError("--new or --resume, not both")
    beacon = beacon_of(args)
    try:
        data = DataDir(args.data_dir or default_data_dir())
        data.claim()  # before any question: a directory another ttr plays from is refused first
        say = Console(quiet_stdout=args.json).say
        if args.resume:
            args.resume = chosen_game(data, args.resume)
            wrong = misfits(data, data.find_game(args.resume), args)
            if wrong:
                say(f"resuming game {args.resume[:8]} as it is: {', '.join(wrong)} do not apply to it")
        elif not args.new:
            args.resume = unfinished_game(data, say, input if interactive(args) else None, args)
    except StoreError as exc:
        Console(quiet_stdout=args.json).say(f"ttr host: {exc}")
        if beacon is not None:
            beacon.close()
        return 1
    players = args.players or (args.bots + 1 if args.bots else 0)
    front = make_front(args, name, "host")
    console = front.console
    bots: list[subprocess.Popen[bytes]] = []
    waiting: list[str] = []  # bots still to start, in seat order
    ports: list[int] = []

    def next_bot(port: int) -> None:
        """Start the next bot. Seats go in join order, so each bot starts once
        the one before it is in: Bot1 sits before Bot2, as their names say."""
        ports[:] = [port]
        if waiting:
            name = waiting.pop(0)
            bots.append(spawn_bot(name, bot_host(args.bind), port, data.path / "bots" / name, args.bot_level, args,
                                  new_game=True))

    def on_port(port: int) -> None:
        addresses = join_addresses(args.bind)
        if not args.resume:
            where = " or ".join(f"ttr join {a}:{port}" for a in addresses)
            console.say(f"hosting on port {port}; friends join with: {where}"
                        + ("" if beacon is None else " (or plain `ttr join`: the game is announced on the LAN)"))
            front.show_address(f"ttr join {addresses[0]}:{port}")
            waiting.extend(BOT_NAMES[: args.bots])
            next_bot(port)
            return
        # A resumed game's bots: start each again. One still running keeps
        # playing (the new one finds its data directory in use and leaves).
        try:
            game = data.find_game(args.resume).game_id.hex()
        except StoreError:
            return  # Host.resume() says why
        for bot_dir in sorted((data.path / "bots").glob("*/games/" + game)):
            home = bot_dir.parent.parent
            level = (home / "level").read_text().strip() if (home / "level").exists() else args.bot_level
            bots.append(spawn_bot(home.name, bot_host(args.bind), port, home,
                                  level if level in LEVELS else args.bot_level, args))

    try:
        host = Host(HostOptions(data, name, args.bind, args.port, players, args.timeout, args.resume,
                                scripted=args.as_bot, trace=args.trace, relay_timeout=args.relay_timeout,
                                escrow=args.escrow, advertise=args.advertise, game=game),
                    front.decide, console, on_port)
    except StoreError as exc:
        Console(quiet_stdout=args.json).say(f"ttr host: {exc}")
        if beacon is not None:
            beacon.close()
        return 1

    def announce() -> Announcement | None:
        table = host.table
        if table is None:
            seated = len(host.lobby.names)
            return Announcement(name, host.port, seated, max(0, (players or game.rules.max_players) - seated),
                                host.identity.public, board=game.board_name, variant=game.variant)
        if table.finished or not host.relaying:  # the relay of the moment announces the game, not us
            return None
        assert table.game is not None
        return Announcement(name, host.port, table.n, 0, host.identity.public, table.game_id, table.game.board_name,
                            table.game.variant)

    if beacon is not None:
        host.describe_with(announce)

    def seen() -> Seen:
        return Seen(host.table, 0, host.names, tuple(host.lobby.names) if host.table is None else (),
                    host.last_words, host.end_means(), silent_seats(host.presence, host.table, 0),
                    host.follower.relay_silence())  # once the relay moved on, we follow it

    def seat_bots() -> None:
        """Start the next bot once the last is in (a chore of every turn of the loop)."""
        started = BOT_NAMES[: args.bots - len(waiting)]
        if waiting and ports and host.table is None and started[-1] in host.lobby.names:
            next_bot(ports[0])

    def run_loop(player: PlayerChannel | None) -> int:
        return host.run(WithChores(player, seat_bots))

    def resume(paused: object) -> str:
        return resume_command(host.table.game_id.hex() if host.table and host.table.game_id else "?",
                              host.port, args, defaults_of(add_arguments))

    try:
        return play_seat("host", args, front, with_beacon(run_loop, beacon, announce), seen,
                         lambda: host.store.log_path if host.store else None, (lambda: host.paused, resume))
    finally:
        # The game ended early: the bots would only wait for a host that is gone
        # (paused, it told them: they stop by themselves, keeping their data).
        stopped = host.paused is None and (host.table is None or not host.table.complete)
        for proc in bots:
            if stopped:
                proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def interactive(args: argparse.Namespace) -> bool:
    """Whether a person at a terminal can answer a question."""
    return sys.stdin.isatty() and sys.stdout.isatty() and not (args.as_bot or args.json)


def join_addresses(bind: str) -> list[str]:
    """The addresses friends can give `ttr join`: the bound one, or this machine's."""
    return local_addresses() if bind in ANY_INTERFACE else [bind]


COMMAND = Command(
    name="host",
    help="host a LAN game (you play seat 1 and relay the others' messages)",
    description="Open a game on the LAN: friends join with `ttr join ADDRESS`; press Enter to start "
    "(or --players N to start when N are in, --bots K to fill seats with bots). "
    "`--resume GAME` continues a game after a crash.",
    add_arguments=add_arguments,
    run=run,
)
