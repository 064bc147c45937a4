"""Liveness is not progress (design.md §4), on the real full screen in tmux:
`ttr host --bots 3` left alone, the player thinking over their first
tickets for several times the bots' --timeout. Every bot is still there
when the player comes back, nothing on the screen or in a bot's output says
anyone gave up, and the bots answer the player's moves at once. And the
other side: a bot whose program stopped is named on the host's status line
as sending no heartbeat, long before the --timeout question; and a host
whose program stopped is named first on a joiner's status line, even on
the joiner's own move (which waits for it)."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from test_client_e2e import ROOT, Terminal, pytestmark, terminal  # noqa: F401 (the fixture, the skip)

TIMEOUT_S = 10  # the bots' --timeout, as the host gives them its own
AWAY_S = 3 * TIMEOUT_S + 5  # the player steps away for well beyond it (the 150 s, scaled down)


def bot_processes(data: Path) -> dict[str, int]:
    """The running `ttr join --as-bot` processes of this host's bots: name -> pid (Linux /proc)."""
    found = {}
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            words = cmdline.read_bytes().decode(errors="replace").split("\0")
        except OSError:
            continue
        if "--as-bot" in words and "--data-dir" in words and words[words.index("--data-dir") + 1].startswith(
                str(data / "bots")):
            found[words[words.index("--name") + 1]] = int(cmdline.parent.name)
    return found


def host_with_bots(terminal: Terminal, tmp_path: Path, timeout_s: int) -> tuple[Path, dict[str, int]]:
    """`ttr host --bots 3` on the screen, up to the moment every bot has kept
    its tickets and the table waits for the player alone: its data folder
    and its bots' processes."""
    data = tmp_path / "data"
    terminal.start(f"cd {ROOT} && NO_COLOR=1 {sys.executable} -m p2p_ttr.cli.main host --bots 3 --bind 127.0.0.1 --port 0 "
                   f"--data-dir {data} --timeout {timeout_s} 2>{tmp_path / 'stderr'}; sleep 60")
    terminal.wait_for(r"OFFERED  keep 2 or more", timeout=180)
    # Every bot has kept its tickets, in whatever order their keeps reached the log (a bot still to
    # keep when the next test stops its program would hold the game up before the player's move).
    terminal.wait_for(r"(?s)" + "".join(rf"(?=.*Bot{n} kept \d tickets)" for n in (1, 2, 3)), timeout=180)
    bots = bot_processes(data)
    assert sorted(bots) == ["Bot1", "Bot2", "Bot3"], bots
    return data, bots


def test_bots_never_give_up_on_a_player_who_steps_away(terminal: Terminal, tmp_path: Path) -> None:
    data, before = host_with_bots(terminal, tmp_path, TIMEOUT_S)

    time.sleep(AWAY_S)  # the player thinks (that is what is tested: nothing happens meanwhile)

    assert bot_processes(data) == before  # the very same processes, all still running
    screen = terminal.screen()
    for words in ("gave up", "no progress", "`wait`", "no heartbeat"):
        assert words not in screen, screen
    for bot in before:
        said = (data / "bots" / bot / "bot.out").read_text()
        assert "gave up" not in said and "giving up" not in said and "no progress" not in said, said
    # Back at the keyboard: the bots answer at once.
    terminal.type("keep 1 2")
    terminal.wait_for(r"your move: draw, claim", timeout=180)
    terminal.type("draw")
    terminal.wait_for(r"your move: take your second card", timeout=180)
    terminal.type("draw")
    terminal.wait_for(r"Bot3 (drew|took|claimed|kept|built|went)", timeout=180)
    terminal.wait_for(r"your turn", timeout=180)
    assert bot_processes(data) == before
    assert "Traceback" not in (tmp_path / "stderr").read_text()


def test_the_status_line_names_a_bot_that_sends_no_heartbeat(terminal: Terminal, tmp_path: Path) -> None:
    """The bots' programs are stopped (SIGSTOP: alive to the kernel, silent to
    the table); the player draws a card, which needs every bot's share. The
    status line says which of them send no heartbeat once the relay calls
    them silent (its relay timeout), and the --timeout question has not come."""
    _, bots = host_with_bots(terminal, tmp_path, 900)
    try:
        for pid in bots.values():
            os.kill(pid, signal.SIGSTOP)
        terminal.type("keep 1 2")
        terminal.wait_for(r"your move: draw, claim", timeout=180)
        terminal.type("draw")
        screen = terminal.wait_for(r"no heartbeat from Bot\d \(\d+ s\)", timeout=180)
        assert re.search(r"no heartbeat from Bot\d \(\d+ s\).*; waiting for Bot", screen), screen
        assert "no progress" not in screen and "`wait`" not in screen, screen  # no timeout yet: only the news
    finally:
        for pid in bots.values():
            with contextlib.suppress(ProcessLookupError):  # each one, whatever became of the others
                os.kill(pid, signal.SIGKILL)  # a stopped process takes no other signal
    assert "Traceback" not in (tmp_path / "stderr").read_text()


def test_a_joiner_s_status_line_says_the_host_sends_nothing(terminal: Terminal, tmp_path: Path) -> None:
    """A bot hosts (`ttr host --as-bot`), the player joins on the full
    screen; once both kept their tickets the host's program is stopped
    (SIGSTOP). The player's move cannot be sequenced: the status line says
    first that nothing comes from the host, and for how long, though it is
    the player's move; no --timeout question comes meanwhile."""
    said = tmp_path / "host.err"
    with said.open("w") as err:
        host = subprocess.Popen([sys.executable, "-m", "p2p_ttr.cli.main", "host", "--as-bot", "--players", "2",
                                 "--name", "Hostbot", "--bind", "127.0.0.1", "--port", "0", "--beacon", "off",
                                 "--data-dir", str(tmp_path / "host"), "--timeout", "900"],
                                cwd=ROOT, stdout=err, stderr=subprocess.STDOUT)
    try:
        end = time.monotonic() + 120
        while (found := re.search(r"hosting on port (\d+)", said.read_text())) is None:
            assert host.poll() is None and time.monotonic() < end, said.read_text()
            time.sleep(0.2)
        terminal.start(f"cd {ROOT} && NO_COLOR=1 {sys.executable} -m p2p_ttr.cli.main join 127.0.0.1:{found.group(1)} "
                       f"--name Jo --data-dir {tmp_path / 'jo'} --timeout 900 2>{tmp_path / 'stderr'}; sleep 60")
        terminal.wait_for(r"OFFERED  keep 2 or more", timeout=180)
        terminal.wait_for(r"Hostbot kept \d tickets", timeout=180)
        os.kill(host.pid, signal.SIGSTOP)
        terminal.type("keep 1 2")
        screen = terminal.wait_for(r"no word from the host, Hostbot \(\d+ s\)", timeout=180)
        assert "no progress" not in screen and "`wait`" not in screen, screen  # no timeout yet: only the news
    finally:
        host.kill()  # a stopped process takes SIGKILL
        host.wait()
    assert "Traceback" not in (tmp_path / "stderr").read_text()
