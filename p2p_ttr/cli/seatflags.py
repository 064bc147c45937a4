"""The flags every seat's command shares (`ttr host`, `ttr join`, `ttr watch`'s
timing), apart from either command's module so that one does not load the
other's (a joiner needs nothing of the host's)."""

from __future__ import annotations

import argparse
import ipaddress
from pathlib import Path

from p2p_ttr.bots.levels import LEVELS
from p2p_ttr.net.node import RELAY_TIMEOUT_S
from p2p_ttr.net.store import default_data_dir
from p2p_ttr.net.transport import parse_address


def add_common(parser: argparse.ArgumentParser, hosting: bool = False) -> None:
    parser.add_argument("--name", help="your name at the table (default: your login name, capitalised; a "
                        "joiner's default that is taken at the table becomes Name2)")
    parser.add_argument("--as-bot", action="store_true", help="play this seat with a bot (no human needed)")
    bots = "the level of the bots: this seat's with --as-bot, the others' with --bots" if hosting \
        else "the level of this seat's bot with --as-bot"
    parser.add_argument("--bot-level", choices=LEVELS, default="medium", help=f"{bots} (default medium)")
    parser.add_argument("--json", action="store_true", help="end with one JSON object describing the game")
    parser.add_argument("--data-dir", type=Path, help=f"where keys, logs and secrets live (default {default_data_dir()})")
    parser.add_argument("--timeout", type=seconds, default=120.0,
                        help="seconds before a bot gives up on a seat that sends no heartbeat, or stays connected "
                        "but withholds what its software sends at once (never on a player thinking over a move), "
                        "and before a person is asked whether to wait (default 120)")
    parser.add_argument("--plain", action="store_true",
                        help="a plain line prompt instead of the full screen (the default when not on a terminal)")
    parser.add_argument("--relay-timeout", type=seconds, default=RELAY_TIMEOUT_S, metavar="SECONDS",
                        help="seconds of silence after which the relay counts as gone and the next seat takes "
                        f"over (default {RELAY_TIMEOUT_S:g})")
    parser.add_argument("--advertise", metavar="IP:PORT", type=advertised_address,
                        help="where the other players dial this seat should it relay, when that is not where it "
                        "listens (a port forwarded to this machine, a proxy); default: this machine's address "
                        "on the route to the relay, and the port it listens on")
    parser.add_argument("--trace", type=Path, help=argparse.SUPPRESS)  # timings for bench/lan.py


def advertised_address(text: str) -> tuple[str, int]:
    """``IP:PORT`` (the log says where a seat is by address, not by name)."""
    try:
        host, port = parse_address(text, 0)
        ipaddress.ip_address(host)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not IP:PORT (an IPv6 address in brackets)") from None
    if not 0 < port < 65536:
        raise argparse.ArgumentTypeError(f"{text!r}: give the port (1-65535)")
    return host, port


def port_number(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0-65535)")
    return int(text)


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value <= 24 * 3600:
        raise argparse.ArgumentTypeError(f"{text!r}: give a time between 0 and 24 hours")
    return value
