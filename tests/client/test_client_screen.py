"""The whole screen rendered to a fixed size as text: what a player sees."""

from __future__ import annotations

from dataclasses import replace

import pytest
from client_states import NAMES, first
from engine_scenario import position

from p2p_ttr.client.screen import Echo, Page, ScreenModel, render, screen_text
from p2p_ttr.client.snapshot import Snapshot
from p2p_ttr.client.styled import text_of
from p2p_ttr.client.words import plural
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.view import view_for


def snap(state: GameState | None, seat: int = 0, **more: object) -> Snapshot:
    fields: dict[str, object] = dict(role="join", seat=seat, names=NAMES, game="3fa2c1d0aa",
                                     view=view_for(state, seat) if state is not None else None,
                                     log=(("class:log.move", "Bob claimed Paris–Frankfurt (orange, 3) for 4 points"),),
                                     status="waiting for Bob's share")
    fields.update(more)
    return Snapshot(**fields)  # type: ignore[arg-type]


def test_a_100x30_terminal_shows_map_hand_row_players_tickets_log_and_status() -> None:
    state, _ = position(3, hands={0: ["red", "red", "locomotive"]}, tickets={0: [0, 1]},
                        face_up=("red", "blue", "green", "locomotive", "black"))
    lines = render(ScreenModel(snap(state), Echo("claiming Paris–Frankfurt (orange, 3) with 3 orange")), 100, 29)
    assert len(lines) == 29 and all(len(text_of(line)) == 100 for line in lines)
    text = screen_text(ScreenModel(snap(state)), 100, 29)
    rows = text.splitlines()
    assert rows[0].startswith(" Ticket to Ride: Europe ") and "your turn" in rows[0]
    for city in ("LON", "PAR", "BER", "MOS", "LIS", "ATH"):
        assert city in text
    assert "PLAYERS" in text and "1 red    you" in text and "2 blue   Bob" in text and "3 green  Cid" in text
    assert "red     2" in text and "loco    1" in text and "blue    0" in text
    assert "FACE-UP" in text and "1 red" in text and "4 loco" in text
    assert "TICKETS 0/2 done · 10 in pile" in text and "Athina–Angora (5)" in text  # the pile, not points
    assert "Bob claimed Paris–Frankfurt (orange, 3) for 4 points" in text
    assert rows[-2].strip() == "waiting for Bob's share"


def test_more_room_is_used() -> None:
    state, _ = position(3)
    small = screen_text(ScreenModel(snap(state)), 100, 29)
    big = screen_text(ScreenModel(snap(state)), 180, 50)
    assert "PARIS" in big and "PARIS" not in small
    assert len(big.splitlines()) == 50


def test_too_small_says_so_plainly_and_still_answers() -> None:
    text = screen_text(ScreenModel(snap(None, status="waiting for Bob"), Echo("no route joins them")), 36, 10)
    assert "The terminal is 36x11; the game needs at least 40x12." in " ".join(text.split())
    assert len(text.splitlines()) == 10
    assert text.splitlines()[-1].startswith("no route joins them") and "waiting for Bob" in text


def test_80x24_shows_the_table_without_the_map() -> None:
    """The classic terminal: players, hand, face-up row, tickets, the routes
    the hand pays for, the log, the status and the answer; no map."""
    state, _ = position(3, hands={0: ["red", "red", "locomotive", "blue", "blue"]}, tickets={0: [0, 1]},
                        face_up=("red", "blue", "green", "locomotive", "black"))
    lines = render(ScreenModel(snap(state), Echo("taking blue from slot 2")), 80, 23)
    assert len(lines) == 23 and all(len(text_of(line)) == 80 for line in lines)
    text = "\n".join(text_of(line) for line in lines)
    for seen in ("your turn", "1 red    you", "2 blue   Bob", "st trl", "YOUR HAND  5 cards", "red     2",
                 "FACE-UP", "4 loco", "TICKETS 0/2 done", "Athina–Angora (5)", "YOUR HAND PAYS FOR",
                 "Bob claimed Paris–Frankfurt", "waiting for Bob's share", "taking blue from slot 2"):
        assert seen in text, seen
    assert "●" not in text and "LON" not in text  # no map
    assert "Berlin–Wien blue 3" not in text and "Frankfurt–Paris" not in text  # it pays for routes of two
    one_column = screen_text(ScreenModel(snap(state)), 60, 23)
    assert "YOUR HAND  5 cards" in one_column and "PLAYERS" in one_column


@pytest.mark.parametrize("size", [(80, 23), (100, 29), (160, 44)])
def test_a_question_shows_every_choice_and_long_answers_wrap(size: tuple[int, int]) -> None:
    width, height = size
    state, _ = position(3)
    choices = tuple((str(i + 1), f"{i % 4 + 1} white + {plural(i // 4, 'locomotive')}") for i in range(9))
    ask = Echo("How do you pay for Sarajevo–Sofia (gray, 2, tunnel)?", "class:ask", choices + (("cancel", "never mind"),))
    text = screen_text(ScreenModel(snap(state), ask), width, height)
    assert len(text.splitlines()) == height
    assert "How do you pay for Sarajevo–Sofia (gray, 2, tunnel)?" in text
    for key, label in choices:
        assert f"{key}) {label}" in text
    assert "cancel) never mind" in text
    long = "x " * 130 + "the end"
    text = screen_text(ScreenModel(snap(state), Echo(long, "class:refuse")), width, height)
    assert "the end" in text


def test_offered_tickets_turn_marker_and_final_round() -> None:
    setup = first(lambda s: s.phase is Phase.SETUP_TICKETS)
    text = screen_text(ScreenModel(snap(setup)), 100, 29)
    assert "OFFERED  keep 2 or more" in text and " 1 " in text and "setting up" in text
    state, _ = position(3, current=1)
    final = replace(state, final_turns_left=2)
    text = screen_text(ScreenModel(snap(final)), 100, 29)
    assert "FINAL ROUND: 2 turns left" in text and "Bob's turn" in text
    assert "▶2 blue   Bob" in text


def test_players_are_named_with_their_colour_and_a_seat_that_left_is_marked() -> None:
    """Without colour (NO_COLOR) the panel still says whose trains are which
    colour, which seat is ours, and which seat the table plays since it left."""
    names = ("Ann", "Bob", "Cid", "Dee", "Eve")
    state, _ = position(5, current=2)
    rows = screen_text(ScreenModel(snap(state, names=names, forfeited=(2,))), 100, 29).splitlines()
    panel = [row.split("│")[1] for row in rows[2:7]]
    # Where 'Cid (left)' does not fit, the name stays whole and 'left' takes the colour's place.
    assert [p[:9] for p in panel] == [" 1 red   ", " 2 blue  ", "▶3 left  ", " 4 yellow", " 5 black "]
    assert [p[10:16].strip() for p in panel] == ["you", "Bob", "Cid", "Dee", "Eve"]
    assert all(p.endswith("0  45   0   0  3") for p in panel[1:])  # the counts keep their columns
    wide = screen_text(ScreenModel(snap(state, names=names, forfeited=(2,))), 160, 29)
    assert "1 red    Ann (you)" in wide and "3 green  Cid (left)" in wide and "5 black  Eve" in wide


def test_a_wide_panel_keeps_the_face_up_row_whole() -> None:
    state, _ = position(3, face_up=("red", "blue", "green", "locomotive", "black"))
    for width in (140, 163, 180):
        assert "5 black" in screen_text(ScreenModel(snap(state)), width, 29), width


def test_a_tunnel_says_what_it_asks() -> None:
    tunnel = first(lambda s: s.phase is Phase.TUNNEL)
    text = screen_text(ScreenModel(snap(tunnel)), 100, 29)
    assert "TUNNEL" in text and "more to pay: pay, or abandon" in text
    assert legal_actions(view_for(tunnel, 0), 0)


def test_pages_cover_the_map_and_the_log_wraps() -> None:
    state, _ = position(3)
    page = Page("Rules", tuple(f"line {i}" for i in range(40)), offset=3)
    text = screen_text(ScreenModel(snap(state), page=page), 100, 29)
    assert " Rules" in text and "line 3" in text and "line 2\n" not in text and "more lines" in text
    long = "x" * 150
    text = screen_text(ScreenModel(snap(state, log=(("", long),))), 80, 23)
    assert "x" * 79 in text and "    " + "x" * 71 in text
    # Beside the map, the log has the map's columns (the last turns are beside it).
    text = screen_text(ScreenModel(snap(state, log=(("", long),))), 100, 29)
    assert "x" * 63 in text and "    " + "x" * 59 in text and "    " + "x" * 28 + " " in text


def test_the_lobby() -> None:
    lobby = snap(None, role="host", lobby=("host", "Ann"), address="ttr join 192.168.1.5:7311")
    for width in (80, 120):
        text = screen_text(ScreenModel(lobby), width, 23)
        assert "lobby: host, Ann · Enter (or start) starts the game" in text
        assert "ttr join 192.168.1.5:7311" in text  # on a second line where the first is full


def test_a_map_filtered_to_one_network_says_so_for_as_long_as_it_is() -> None:
    state, _ = position(3)
    rule = [row for row in screen_text(ScreenModel(snap(state), focus=1), 100, 29).splitlines() if "─ log ─" in row]
    assert rule and "the map shows Bob's network alone (map all: everyone's)" in rule[0]
    mine = screen_text(ScreenModel(snap(state), focus=0), 120, 39)
    assert "the map shows your network alone" in mine
    assert "network alone" not in screen_text(ScreenModel(snap(state)), 100, 29)
