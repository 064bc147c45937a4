"""Two real full-screen clients in tmux, one at 80x24 (the classic terminal,
no room for the map) and one at 160x45: the host and a bot, and a human who
joins, then forfeits. The host pays for a station with a question of four
or more choices, every one on screen, and sees the hand of the seat that
left."""

from __future__ import annotations

import re
import socket
import sys
from pathlib import Path

import pytest

from test_client_e2e import ROOT, Terminal, pytestmark, terminal  # noqa: F401 (the fixture, the skip)
from p2p_ttr.cli.names import login_name

KINDS = ("purple", "blue", "orange", "white", "green", "yellow", "black", "red")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def hand_of(screen: str) -> dict[str, int]:
    """The counts of YOUR HAND, read off the screen (the left column at 80x24)."""
    rows = [row.split("│")[-1 if len(row) > 100 else 0] for row in screen.splitlines()]  # the panel's column
    start = next(i for i, row in enumerate(rows) if "YOUR HAND" in row)
    end = next(i for i in range(start, len(rows)) if "FACE-UP" in rows[i])
    return {k: int(n) for row in rows[start + 1:end] for k, n in re.findall(r"([a-z]+) +(\d+)", row)}


def ttr(args: str, tmp: Path, name: str) -> str:
    return (f"cd {ROOT} && NO_COLOR=1 {sys.executable} -m p2p_ttr.cli.main {args} --data-dir {tmp / name} --timeout 60 "
            f"2>{tmp / (name + '.err')}; sleep 60")


SMALL, LARGE = (80, 24), (160, 45)
WAIT = 180  # seconds: generous, for a machine busy with other tests (no test asserts a time)


@pytest.mark.parametrize("host_size", [SMALL, LARGE], ids=["host-80x24", "host-160x45"])
def test_a_station_question_and_a_forfeited_hand(terminal: Terminal, tmp_path: Path,
                                                 host_size: tuple[int, int]) -> None:
    port = free_port()
    host = terminal.other("host")
    host.start(ttr(f"host --players 3 --bots 1 --bot-level easy --bind 127.0.0.1 --port {port}", tmp_path, "host"),
               host_size)
    host.wait_for(r"lobby: \w+, Bot", timeout=WAIT)  # the host's default name: the login name
    joiner = terminal.other("join")
    joiner.start(ttr(f"join 127.0.0.1:{port} --name Ann", tmp_path, "ann"), LARGE if host_size == SMALL else SMALL)

    screen = host.wait_for(r"OFFERED  keep 2 or more", timeout=WAIT)
    # At 80x24 the panel's name column yields to the longest trail: the tag says which seat is ours.
    ours = "1 red    you" if host_size == SMALL else f"1 red    {login_name()} (you)"
    for seen in ("PLAYERS", ours, "Ann", "YOUR HAND  4 cards", "FACE-UP", "─ log ─"):
        assert seen in screen, seen
    assert "The terminal is" not in screen
    joined = joiner.wait_for(r"OFFERED  keep 2 or more", timeout=WAIT)
    # One numbering: the log's seat is the panel's (Bot1 came first, as its name says).
    ann = "3 green  Ann (you)" if host_size == SMALL else "3 green  you"  # the joiner at 160x45, or 80x24
    assert "you are seat 3 (green)" in joined and ann in joined, joined
    assert "2 blue   Bot1" in joined
    if host_size == SMALL:  # the joiner's log has room for the lobby: said once, not once per message
        assert joined.count(f"in the lobby: {login_name()}, Bot1, Ann") == 1, joined  # the host's default name
    small, large = (screen, joined) if host_size == SMALL else (joined, screen)
    assert "●" not in small and large.count("●") >= 40  # the map at 160x45 only
    joiner.type("keep 1 2")
    host.type("keep 1 2")

    # Ann leaves for good: the table plays her seat from now on and opens her cards.
    joiner.wait_for(r"You kept", timeout=WAIT)
    joiner.type("forfeit")
    joiner.wait_for(r"Forfeit for good\?", timeout=WAIT)
    joiner.type("forfeit")

    # Draw until the hand holds four colours: then a station (one card) can be paid four ways.
    # Read whose turn it is off the header (the first line) and each draw off the hand's count:
    # the log may still hold an old "your move".
    for _ in range(8):
        screen = host.wait_for(r"\A[^\n]*your turn", timeout=WAIT)
        if sum(1 for k in KINDS if hand_of(screen).get(k)) >= 4:
            break
        cards = sum(hand_of(screen).values())
        host.type("draw")
        host.wait_for(rf"YOUR HAND  {cards + 1} cards[^\n]*\n(.*\n)*.*your move: take your second card", timeout=WAIT)
        host.type("draw")
        host.wait_for(rf"YOUR HAND  {cards + 2} cards", timeout=WAIT)  # the turn has passed (the bots may be done already)
    held = [k for k in KINDS if hand_of(screen).get(k)]
    assert len(held) >= 4, screen
    host.type("station Wien")
    screen = host.wait_for(r"How do you pay for the station in Wien\?", timeout=WAIT)
    for i, kind in enumerate(held, 1):
        assert f"{i}) 1 {kind}" in screen, screen  # every choice on screen, none cut at the edge
    assert "cancel) never mind" in screen
    fourth, before = held[3], hand_of(screen)
    host.type("4")
    # Built: two stations left in the host's row (the log line may scroll out of a small log at once).
    screen = host.wait_for(rf"1 red    ({re.escape(login_name())} \(you\)|you) +\d+ +\d+ +\d+ +\d+ +2 +\d+ *(│|\n)",
                           timeout=WAIT)
    assert "built a station in Wien" in screen  # our last turn, beside the players or the log (the answer has gone)
    assert hand_of(screen)[fourth] == before[fourth] - 1  # paid with the fourth choice

    # The host's panel shows Ann's cards, opened by the table.
    screen = host.wait_for(r"ANN LEFT: hand (\d|a locomotive|no cards)", timeout=WAIT)
    assert "Ann (left)" in screen or " left " in screen
    assert re.search(r"tickets: \w+–\w+ \(\d+\)", screen), screen

    host.type("end")
    host.wait_for(r"resume with: ttr host --resume", timeout=WAIT)
    for name in ("host", "ann"):
        assert "Traceback" not in (tmp_path / f"{name}.err").read_text()
