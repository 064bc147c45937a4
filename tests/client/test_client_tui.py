"""The full-screen client without a terminal: lines typed go through the
bridge to the network loop as typed inputs (a move, start, leave)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

import pytest
from client_states import NAMES, FakeTable
from engine_scenario import position
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from p2p_ttr.cli.tui.app import Client
from p2p_ttr.cli.tui.bridge import Bridge, TuiConsole
from p2p_ttr.client.livenessfacts import Awaited, Dialled, WaitingFor, WaitingForFollowed
from p2p_ttr.client.netnotices import GameReloaded
from p2p_ttr.client.snapshot import Publisher
from p2p_ttr.engine.events import DrawBlind, DrawFaceUp
from p2p_ttr.client.outcomes import Leave, Start
from p2p_ttr.net.playerinput import PlayerMove, Seen


@pytest.fixture
def session() -> Iterator[None]:
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        yield


def bridge_for(table: FakeTable, role: str = "join") -> Bridge:
    return Bridge(Publisher(role), lambda: Seen(table, 0, NAMES))  # type: ignore[arg-type]


def test_a_typed_move_reaches_the_loop_as_a_move(session: None) -> None:
    state, _ = position(3)
    table = FakeTable(state)
    bridge = bridge_for(table)
    client = Client(bridge, hosting=False)
    bridge.publish()
    client.run_line("draw 2")
    assert client.echo.text.startswith("taking blue from slot 2")
    assert bridge.take() == PlayerMove(DrawFaceUp(0, 1))  # checked on the loop's thread, handed over typed
    assert bridge.take() is None


def test_a_stale_move_is_not_sent(session: None) -> None:
    state, _ = position(3, current=1)
    table = FakeTable(state)
    bridge = bridge_for(table)
    bridge.send(PlayerMove(DrawBlind(0)))
    assert bridge.take() is None  # not our turn any more: not handed to the loop
    bridge.publish()
    assert "your move was not sent" in bridge.publisher.snapshot.log[-1][1]


@pytest.mark.parametrize(("typed", "asked"), [("quit", "Leave the game?"), ("forfeit", "Forfeit for good?")])
def test_quit_and_forfeit_ask_then_leave(session: None, typed: str, asked: str) -> None:
    """Forfeiting cannot be undone: typed alone, or picked from quit's menu,
    it is asked about first. `end` can be resumed, so it acts at once."""
    state, _ = position(3)
    bridge = bridge_for(FakeTable(state))
    client = Client(bridge, hosting=False)
    bridge.publish()
    client.run_line(typed)
    assert client.echo.style == "class:ask" and client.echo.text.startswith(asked)
    assert "forfeit" in [key for key, _ in client.echo.choices]
    client.run_line("cancel")
    assert client.echo.text == "cancelled" and bridge.inputs.empty()
    client.run_line(typed)
    client.run_line("forfeit")
    assert client.echo.text == "forfeiting your seat..."
    assert bridge.take() == Leave(forfeit=True)
    client.run_line("end")
    assert bridge.take() == Leave(forfeit=False)


def test_in_the_lobby_enter_starts_and_quit_leaves(session: None) -> None:
    table = FakeTable(None)
    bridge = bridge_for(table, role="host")
    client = Client(bridge, hosting=True)
    bridge.publish()
    client.run_line("")
    assert bridge.take() == Start()
    client.run_line("claim paris frankfurt")
    assert client.echo.text == "the game has not started yet"
    client.run_line("end")
    assert bridge.take() == Leave()


def test_pages_paths_and_the_end(session: None) -> None:
    state, _ = position(3, tickets={0: [0]})
    bridge = bridge_for(FakeTable(state))
    client = Client(bridge, hosting=False)
    bridge.publish()
    client.run_line("help")
    assert client.page is not None and client.page.title == "Commands"
    client.run_line("path 1")
    assert client.page is None and client.highlight
    bridge.publish()
    assert bridge.publisher.snapshot.log[-1][0] == "class:log.path"
    lines = client.draw(100, 29)
    assert len(lines) == 29
    client.finish("The end", ["FINAL SCORE"])
    assert client.ending is not None and "FINAL SCORE" in "".join(t for line in client.draw(100, 29) for _, t in line)


def test_the_console_keeps_the_status_line_for_waiting() -> None:
    publisher = Publisher("join")
    console = TuiConsole(publisher)
    names = ("Ann", "Bob")
    console.waiting(WaitingFor((1,), Awaited.PLAY, 5), names)  # the status line says it
    console.waiting(WaitingForFollowed(Dialled.HOST, None, "10.0.0.1:7311", 4), names)  # 'no word from the host (4 s)'
    console.report(GameReloaded(bytes.fromhex("3fa2c1d0") + bytes(12), 29), names)
    console.say("two\nlines")
    publisher.update(None, None, ())
    assert [t for _, t in publisher.snapshot.log] == ["reloaded game 3fa2c1d0 at turn 29", "two", "lines"]


def test_start_in_the_lobby_then_the_lobby_words_go(session: None) -> None:
    """`start` starts the game as Enter does; what was said in the lobby is
    cleared once the game has started; `st` is still a station."""
    table = FakeTable(None)
    bridge = bridge_for(table, role="host")
    client = Client(bridge, hosting=True)
    bridge.publish()
    client.run_line("draw")
    assert client.echo.text == "the game has not started yet"
    client.run_line("start")
    assert client.echo.text == "starting the game" and bridge.take() == Start()
    table.engine, _ = position(3)
    bridge.publish()
    text = "".join(t for line in client.draw(80, 23) for _, t in line)
    assert "has not started" not in text and "the game has started" in text
    client.run_line("start")
    assert client.echo.text == "the game has started already"
    client.run_line("st Wien")
    assert not client.echo.text.startswith("unknown command")


def test_q_leaves_the_last_page(session: None) -> None:
    state, _ = position(3)
    bridge = bridge_for(FakeTable(state))
    client = Client(bridge, hosting=False)
    bridge.publish()
    client.finish("The end", ["FINAL SCORE"])
    with create_pipe_input() as pipe:
        pipe.send_text("q")
        client.app.input = pipe
        assert client.app.run() == 0


def screen_of(client: Client, width: int = 100, height: int = 29) -> str:
    return "\n".join("".join(t for _, t in line) for line in client.draw(width, height))


def test_an_answer_goes_once_the_game_moves_on_and_a_page_s_with_its_page(session: None) -> None:
    """'claiming Paris–Frankfurt ...' holds until the move is in the log, not
    4 minutes on; 'Commands: Esc closes' goes with the help it spoke of (the
    Tab menu pops up over the row it held)."""
    state, _ = position(3)
    table = FakeTable(state)
    bridge = bridge_for(table)
    client = Client(bridge, hosting=False)
    bridge.publish()
    screen_of(client)
    client.run_line("draw")
    assert "drawing from the deck" in screen_of(client)
    table.engine = replace(state, turn=state.turn + 1, current=1)  # our move is in: the next turn
    bridge.publish()
    assert "drawing from the deck" not in screen_of(client)
    client.run_line("help")
    assert "Commands: Esc closes" in screen_of(client)
    client.close_page()
    assert "Esc closes" not in screen_of(client)
    client.run_line("claim paris frankfurt")
    assert client.echo.style == "class:refuse" and client.echo.text in screen_of(client)  # not our turn: said now
    refusal = client.echo.text
    table.engine = replace(state, turn=state.turn + 2, current=2)  # the others play on: the reason stays to be read
    bridge.publish()
    assert refusal in screen_of(client)


def test_a_resumed_screen_shows_each_seat_s_last_turn_not_dashes() -> None:
    """On resuming, the screen starts from the latest state: LAST TURN was
    all '-' until each seat played again. The log so far (History) says
    each seat's last turn as well as its lines."""
    from client_states import game_states

    from p2p_ttr.client.lastturn import LastTurns
    from p2p_ttr.client.screen import ScreenModel, screen_text
    from p2p_ttr.engine.view import view_for
    from p2p_ttr.net.history import History

    history, played = History(0), LastTurns()
    states = game_states()[:200]
    for i, state in enumerate(states):
        history.step(FakeTable(state, seats=tuple(Seat(n) for n in NAMES)))  # type: ignore[arg-type]
        if i:
            played = played.after(view_for(states[i - 1], 0), view_for(state, 0), 0)
    assert history.turns == played and all(played.of(p) is not None for p in range(3))
    publisher = Publisher("join")
    TuiConsole(publisher).resumed(history)
    publisher.update(FakeTable(states[-1]), 0, NAMES)  # type: ignore[arg-type]
    text = screen_text(ScreenModel(publisher.snapshot), 100, 29)
    for p in range(3):
        turn = played.of(p)
        assert turn is not None and turn.words() in text
    assert any(line.startswith("the game so far") for _, line in publisher.snapshot.log)


@dataclass(frozen=True)
class Seat:
    name: str
