"""A seat's process loads what it runs: `ttr join --as-bot` (five of them start
at once in a benched game) imports neither the other commands' modules nor
the full screen, the line prompt, the expert's planner, the verifier's
process pool; each costs every process start CPU."""

from __future__ import annotations

import subprocess
import sys

NOT_FOR_A_BOT_JOINER = (
    "p2p_ttr.cli.commands.host",  # the host's command (and through it net.host)
    "p2p_ttr.cli.commands.selfplay",
    "p2p_ttr.net.host",
    "p2p_ttr.local.crypto_game",  # the self-play runner
    "p2p_ttr.cli.plain",  # the line prompt
    "prompt_toolkit",  # the full screen
    "p2p_ttr.bots.expert",  # a medium bot's seat
    "multiprocessing",  # ttr verify's pool
    "asyncio",  # pyzmq's monitor helpers import it (net/reach.py reads the monitor's frames itself)
)  # (importlib.metadata is not listed: gmpy2 imports it itself)

# What a bot joiner's process has imported once it is ready to play: its
# parsed command line and its bot, as `ttr join --as-bot` makes them.
PROGRAM = """
import sys
from p2p_ttr.cli.front import make_front
from p2p_ttr.cli.main import build_parser, load_commands
args = build_parser(load_commands(["join"])).parse_args(["join", "127.0.0.1:1", "--as-bot", "--json"])
make_front(args, "Bot1", "join")
print(" ".join(sorted(sys.modules)))
"""


def test_a_bot_joiner_imports_only_what_it_runs() -> None:
    loaded = set(subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True,
                                check=True).stdout.split())
    assert "p2p_ttr.cli.commands.join" in loaded and "p2p_ttr.bots.medium" in loaded
    assert not loaded & set(NOT_FOR_A_BOT_JOINER), loaded & set(NOT_FOR_A_BOT_JOINER)


def test_every_command_still_loads_for_the_overall_help() -> None:
    from p2p_ttr.cli.main import COMMAND_MODULES, load_commands

    assert [c.name for c in load_commands()] == list(COMMAND_MODULES)
