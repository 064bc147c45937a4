"""`ttr join [HOST[:PORT]]`: join (or resume) a LAN game; with no address,
find the games announced on the LAN and pick one."""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Callable

from p2p_ttr.cli.seatflags import add_common, port_number, seconds
from p2p_ttr.cli.front import make_front
from p2p_ttr.cli.names import login_name
from p2p_ttr.cli.registry import Command, UsageError
from p2p_ttr.cli.resumeflags import carried_flags, defaults_of
from p2p_ttr.cli.seat import play_seat
from p2p_ttr.net.console import Console
from p2p_ttr.cli.botseats import with_beacon
from p2p_ttr.engine.boards import UnknownGame, load_game
from p2p_ttr.net.discovery import BEACON_PORT, Announcement, Beacon, Heard, listen
from p2p_ttr.net.vouch import Confirmed, Found, confirm
from p2p_ttr.table.messages import valid_name
from p2p_ttr.net.liveness import silent_seats
from p2p_ttr.net.playerinput import Seen
from p2p_ttr.net.node import Node, NodeOptions
from p2p_ttr.net.store import DataDir, StoreError, default_data_dir
from p2p_ttr.net.transport import parse_address

LISTEN_S = 2.0  # beacons come once a second: two chances to hear each host


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("address", metavar="HOST[:PORT]", nargs="?",
                        help="the host's address, as `ttr host` printed it; left out, games announced on the LAN "
                        "are listed to pick from")
    parser.add_argument("--beacon", metavar="[ADDR:]PORT", default=str(BEACON_PORT),
                        help=f"where to listen for game announcements (UDP, default all addresses, port {BEACON_PORT}); "
                        "should the relay move to this seat, it announces the game there (with no ADDR, to the LAN "
                        "broadcast)")
    parser.add_argument("--listen", type=seconds, default=LISTEN_S, metavar="SECONDS",
                        help=f"how long to listen for announcements (default {LISTEN_S:g})")
    parser.add_argument("--new", action="store_true",
                        help="join the host's new game even though a game with it is unfinished here "
                        "(without it, a joiner never leaves a game under way on its own)")
    # Set by `ttr host` for the bots it starts (while that process runs, the
    # bot gives up on no seat: the host's player decides); not for people.
    parser.add_argument("--host-pid", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--relay-port", type=port_number, default=0, metavar="PORT",
                        help="where this seat accepts the others should it become the relay (TCP, all "
                        "interfaces; default any free port: the log tells the others which)")
    add_common(parser)


def beacon_socket(text: str) -> tuple[str, int]:
    if ":" not in text:
        text = f"0.0.0.0:{text}"
    try:
        return parse_address(text)
    except ValueError as exc:
        raise UsageError(f"--beacon: {exc}") from None


def game_words(a: Announcement) -> str:
    """The game a host described, as a joiner reads it: its title, or the
    names of a game this version does not have (escaped: a stranger's words)."""
    try:
        return load_game(a.board, a.variant).title
    except UnknownGame:
        shown = f"{a.board} {a.variant}".strip().encode("ascii", "backslashreplace").decode()
        return f"{shown!r}, a board this version of p2p_ttr does not have"


def game_line(found: Found) -> str:
    """One confirmed game, as the listing shows it (its words signed by its host's key)."""
    a = found.announcement
    state = (f"{a.seats_free} seat{'s' if a.seats_free != 1 else ''} free" if a.seats_free
             else "started (only its players can rejoin; anyone may watch it)" if a.game_id else "full")
    return f"{a.name}'s game of {game_words(a)} at {found.join_address}: {a.players} in, {state}"


def unconfirmed_words(count: int) -> str:
    return (f"{count} more beacon{'s' if count != 1 else ''} heard did not confirm "
            f"(no answer signed by the key {'they' if count != 1 else 'it'} named): not listed")


def pick(found: list[Found], ask: Callable[[str], str] | None, say: Callable[[str], None]) -> Found | None:
    """The game to join: the only one confirmed, or the one the player picks
    (``ask`` is None when nobody can answer)."""
    if len(found) == 1:
        say(f"found {game_line(found[0])}")
        return found[0]
    say(f"found {len(found)} games on the LAN:")
    for i, f in enumerate(found, 1):
        say(f"  {i}) {game_line(f)}")
    if ask is None:
        say("name one: ttr join ADDRESS")
        return None
    while True:
        try:
            answer = ask(f"which game (1-{len(found)}, Enter for none)? ").strip()
        except EOFError:
            return None
        if not answer:
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(found):
            return found[int(answer) - 1]
        say(f"type a number from 1 to {len(found)}")


def where_to_dial(args: argparse.Namespace, say: Callable[[str], None]) -> tuple[str, int, bytes | None] | None:
    """The host and port to dial (``args.address``, or the game the player
    picks among those whose host key confirmed them) and the key that must
    answer there (None for a typed address); None: no game was picked.
    Shared by `ttr join` and `ttr watch`; a malformed address is a usage error."""
    address, host_key = args.address, None
    if address is None:
        chosen = find_confirmed(args, say)
        if chosen is None:
            return None
        address, host_key = chosen.join_address, chosen.announcement.host_key  # the key that must answer there
    try:
        host, port = parse_address(address)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return host, port, host_key


def find_confirmed(args: argparse.Namespace, say: Callable[[str], None]) -> Found | None:
    """A game to join, from the beacons heard on the LAN, each confirmed by
    the key it names before it is listed (net/vouch.py)."""
    bind, port = beacon_socket(args.beacon)
    say(f"looking for games on the LAN (UDP port {port}, {args.listen:g} s)...")
    try:
        heard = listen(args.listen, port, "" if bind == "0.0.0.0" else bind)
    except OSError as exc:
        say(f"cannot listen for games on UDP port {port}: {exc}")
        return None
    interactive = sys.stdin.isatty() and not args.as_bot
    return listed(heard, input if interactive else None, say)


def listed(heard: list[Heard], ask: Callable[[str], str] | None, say: Callable[[str], None]) -> Found | None:
    """The games ``heard`` whose host's key confirmed them, listed in the words
    it signed (with how many did not confirm), and the one picked."""
    confirmed: Confirmed = confirm(heard) if heard else Confirmed([], 0)
    if confirmed.unconfirmed:
        say(unconfirmed_words(confirmed.unconfirmed))
    if not confirmed.games:
        say("no game is announced on this LAN: ask the host for its address and run ttr join ADDRESS")
        return None
    return pick(confirmed.games, ask, say)


def run(args: argparse.Namespace) -> int:
    name = args.name if args.name is not None else login_name()
    if not valid_name(name):
        raise UsageError("a name is 1-24 printable characters")
    try:
        data = DataDir(args.data_dir or default_data_dir())
        data.claim()  # before listening for games: a directory another ttr plays from is refused first
    except StoreError as exc:
        Console(quiet_stdout=args.json).say(f"ttr join: {exc}")
        return 1
    dialled = where_to_dial(args, Console(quiet_stdout=args.json).say)
    if dialled is None:
        return 1
    host, port, host_key = dialled
    beacon = relay_beacon(args)
    front = make_front(args, name, "join")
    try:
        node = Node(NodeOptions(data, host, port, name, args.timeout, scripted=args.as_bot, trace=args.trace,
                                new_game=args.new, listen=args.relay_port, relay_timeout=args.relay_timeout,
                                advertise=args.advertise, host_pid=args.host_pid, name_chosen=args.name is not None,
                                host_key=host_key),
                    front.decide, front.console)
    except StoreError as exc:
        Console(quiet_stdout=args.json).say(f"ttr join: {exc}")
        if beacon is not None:
            beacon.close()
        return 1

    def seen() -> Seen:
        lobby = node.lobby_names if node.table is None or not node.table.seats else ()
        seat = node.player.seat if node.player else None
        return Seen(node.table, seat, node.names, lobby, node.last_words, node.end_means(),
                    silent_seats(node.presence, node.table, seat), node.follower.relay_silence())

    def resume(_: object) -> str:
        table = node.table
        relays = table is not None and table.seated and not table.complete and node.relaying
        return resume_command(node.resume_address(), args, node.port if relays else None)

    def announce() -> Announcement | None:
        """The relay of the moment announces the game (it may have moved to us)."""
        table = node.table
        seat = node.seat
        if table is None or not table.seated or table.finished or not node.relaying or seat is None:
            return None
        assert table.game is not None
        return Announcement(table.seats[seat].name, node.port, table.n, 0, node.identity.public, table.game_id,
                            table.game.board_name, table.game.variant)

    if beacon is not None:
        node.describe_with(announce)

    return play_seat("join", args, front, with_beacon(node.run, beacon, announce), seen,
                     lambda: node.store.log_path if node.store else None, (lambda: node.paused, resume))


def relay_beacon(args: argparse.Namespace) -> Beacon | None:
    """Where we announce the game should our seat relay: the address of
    --beacon if it names one, else the LAN broadcast, on its port."""
    bind, port = beacon_socket(args.beacon)
    try:
        return Beacon(("255.255.255.255" if bind == "0.0.0.0" else bind, port))
    except OSError:
        return None  # no UDP here: the others can still give our address


def resume_command(where: str, args: argparse.Namespace, relay_port: int | None = None) -> str:
    """The command that resumes our seat: the relay's address as the log names
    it now, our data directory; while we relay, the port the others come
    back to (our `reach` in the log), and where we announce the game."""
    words = ["ttr", "join", shlex.quote(where)]
    if relay_port is not None:
        words += ["--relay-port", str(relay_port)]
    if args.data_dir:
        words += ["--data-dir", shlex.quote(str(args.data_dir))]
    return " ".join(words + carried_flags(args, defaults_of(add_arguments)))  # --beacon among them


COMMAND = Command(
    name="join",
    help="join a LAN game (or resume your seat in one)",
    description="Connect to a `ttr host` on the LAN and play; with no address, pick one of the games "
    "announced on the LAN. Running the same command again after a crash resumes your seat.",
    add_arguments=add_arguments,
    run=run,
)
