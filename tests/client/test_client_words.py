"""Words on the screen (#23 items 5 and 6): `map SEAT`, the longest trail
in the panel, the ticket pile, plurals, a header cut in whole parts, one ▶,
a conceded game's end, help and rules at 80 columns, `path` without a map,
and what a tunnel may still ask for before it is claimed."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from client_states import NAMES, FakeTable, first
from engine_scenario import BOARD, play, position, route
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from p2p_ttr.cli.tui.app import Client
from p2p_ttr.cli.tui.bridge import Bridge
from p2p_ttr.client.endgame import breakdown
from p2p_ttr.client.network import trail
from p2p_ttr.client.outcomes import Ask, Context, Play, Refuse, Show, ShowNetwork
from p2p_ttr.client.pagetext import Para, lay_out
from p2p_ttr.client.screen import ScreenModel, header_lines, screen_text
from p2p_ttr.client.snapshot import Publisher, Snapshot
from p2p_ttr.client.styled import text_of
from p2p_ttr.client.verbs import complete, interpret
from p2p_ttr.engine.events import ClaimRoute
from p2p_ttr.engine.rules import concede
from p2p_ttr.engine.scoring import longest_trail
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.view import view_for
from p2p_ttr.net.playerinput import Seen


def ctx(state: GameState, seat: int = 0) -> Context:
    return Context(view_for(state, seat), seat, NAMES[: state.n_players])


def snap(state: GameState, seat: int = 0, **more: object) -> Snapshot:
    fields: dict[str, object] = dict(seat=seat, names=NAMES[: state.n_players], view=view_for(state, seat),
                                     game="3fa2c1d0")
    return Snapshot(**(fields | more))  # type: ignore[arg-type]


def claimed(state: GameState, seat: int, *routes: tuple[str, str, str]) -> GameState:
    owners = list(state.route_owner)
    players = list(state.players)
    for a, b, colour in routes:
        r = route(a, b, colour)
        owners[r] = seat
        players[seat] = replace(players[seat], routes=players[seat].routes + (r,),
                                trains=players[seat].trains - BOARD.routes[r].length)
    return replace(state, route_owner=tuple(owners), players=tuple(players))


# ------------------------------------------------------------------ map SEAT, the trail


def test_map_seat_names_a_network_in_words() -> None:
    state, _ = position(3)
    state = claimed(state, 1, ("Paris", "Frankfurt", "orange"), ("Frankfurt", "Essen", "green"))
    shown = interpret("map 2", ctx(state))
    assert isinstance(shown, ShowNetwork) and shown.seat == 1
    assert shown.lines[0] == ("Bob (2 blue): 2 routes, 5 cars, longest trail 5 cars; no station built")
    assert shown.lines[1] == "routes: Frankfurt–Paris, Essen–Frankfurt"
    assert interpret("map bob", ctx(state)) == shown == interpret("map Blue", ctx(state))
    assert interpret("map me", ctx(state)).seat == 0  # type: ignore[union-attr]
    assert interpret("map all", ctx(state)) == ShowNetwork(None, ()) == interpret("map", ctx(state))
    refused = interpret("map Zed", ctx(state))
    assert isinstance(refused, Refuse) and "there is no seat 'Zed'" in refused.reason and "2 Bob" in refused.reason
    refused = interpret("map  Bob9 ", ctx(state))  # quoted as typed, not as the words it splits into
    assert isinstance(refused, Refuse) and "there is no seat 'Bob9'" in refused.reason
    assert interpret("map bob,", ctx(state)) == shown == interpret("map 2;", ctx(state))  # matched on the words
    offered = {s.text: s.meta for s in complete("map ", ctx(state))}
    assert offered == {"1": "Ann (red), you", "2": "Bob (blue)", "3": "Cid (green)", "all": "every player's routes"}
    assert [s.text for s in complete("ma", ctx(state))] == ["map"]
    help_page = interpret("help map", ctx(state))
    assert isinstance(help_page, Show) and "map [SEAT | all]" in lay_out(help_page.lines, 80)[0]


def test_the_panel_shows_each_longest_trail() -> None:
    state, _ = position(3)
    state = claimed(state, 2, ("Paris", "Frankfurt", "orange"), ("Frankfurt", "Essen", "green"),
                    ("Paris", "Marseille", "gray"))
    assert trail(tuple(sorted(state.players[2].routes))) == longest_trail(BOARD, state.players[2].routes) == 9
    for width, height in ((80, 23), (120, 39)):
        rows = screen_text(ScreenModel(snap(state)), width, height).splitlines()
        title = next(row for row in rows if "PLAYERS" in row)
        assert title.rstrip().endswith("st trl") or "st trl│" in title
        cid = next(row for row in rows if "3 green" in row)
        assert cid.split("│")[0 if width == 80 else 1].rstrip().endswith("3   9"), cid
    # The 100-column panel has no room for it (map SEAT says it there).
    assert "trl" not in screen_text(ScreenModel(snap(state)), 100, 29)


# ------------------------------------------------------------------ words


def test_the_ticket_pile_and_plurals() -> None:
    state, _ = position(3, hands={0: ["purple"]}, tickets={0: [0]})
    text = screen_text(ScreenModel(snap(state)), 80, 23)
    assert "TICKETS 0/1 done · 10 in pile" in text  # the pile's count, said as the pile's
    assert "YOUR HAND  1 card " in text and "YOUR HAND PAYS FOR 1 route (" in text  # one purple 1-car route
    assert "1 cards" not in text and "1 routes" not in text
    refused = interpret("claim Wien Budapest white", ctx(state))
    assert isinstance(refused, Refuse) and "needs 1 white card (" in refused.reason


def test_the_header_breaks_between_whole_parts() -> None:
    state, _ = position(3, current=1)
    final = replace(state, final_turns_left=1)
    names = ("Ann", "Bartholomew-the-Greatest", "Cid")
    rows = [text_of(line) for line in header_lines(snap(final, names=names), 80)]
    assert len(rows) == 2 and "FINAL ROUND: 1 turn left" in rows[1]
    assert all("FINAL ROUND" not in row or "turn left" in row for row in rows)
    # One line where it fits without the game's title.
    rows = [text_of(line) for line in header_lines(snap(replace(state, final_turns_left=2)), 80)]
    assert rows == [" game 3fa2c1d0 · turn 1 · Bob's turn FINAL ROUND: 2 turns left "]  # one space between parts
    setup = first(lambda s: s.phase is Phase.SETUP_TICKETS)
    rows = [text_of(line) for line in header_lines(snap(setup), 55)]
    assert any(row.strip() == "setting up: everyone keeps tickets" for row in rows), rows


def test_one_turn_marker_while_everyone_chooses_first_tickets() -> None:
    setup = first(lambda s: s.phase is Phase.SETUP_TICKETS)
    text = screen_text(ScreenModel(snap(setup)), 80, 23)
    assert "▶" not in text and text.count("…") == sum(1 for ps in setup.players if ps.offered)


def test_a_conceded_game_says_why_the_last_seat_in_play_is_first() -> None:
    state, _ = position(3, tickets={0: [0, 1], 1: [2], 2: [3]})
    over = play(concede(state, 2))  # every held ticket turned over, as at a normal end
    lines = breakdown(over, NAMES, 0)
    assert lines[0] == "FINAL SCORE: the game was conceded"
    why = lay_out(lines, 79)
    assert any("conceded to Cid" in row for row in why) and all(len(row) <= 79 for row in why)
    assert "The last seat in play is ranked first whatever the points" in " ".join(" ".join(why).split())
    first_row = next(line for line in lines if line.startswith(" 1. "))
    assert first_row.startswith(" 1. Cid") and first_row.endswith("◀ conceded") and len(first_row) <= 79


@pytest.mark.parametrize("what", ["help", "rules"])
def test_help_and_rules_wrap_cleanly_at_80_columns(what: str) -> None:
    state, _ = position(3)
    page = interpret(what, ctx(state))
    assert isinstance(page, Show)
    rows = lay_out(page.lines, 79)
    assert all(len(row) <= 79 for row in rows)
    if what == "help":
        # Each command on a row of its own, its help under it: no usage split across rows.
        for usage in ("claim CITY CITY [COLOUR] [with CARDS]", "keep N [N...] | keep all", "map [SEAT | all]"):
            assert usage in rows
        assert "    e.g. claim Paris Frankfurt   claim par fra white" in rows
        wide = lay_out(page.lines, 120)
        assert any(row.startswith("draw [1-5 | COLOUR]") and "take a train card" in row for row in wide)
    else:
        # Each paragraph wrapped at the width: a row continued on the next is full, not a
        # fragment of a line broken for another width; later rows indented under the first.
        for para in page.lines:
            if not isinstance(para, Para):
                continue
            rows = lay_out([para], 79)
            for row, after in zip(rows, rows[1:]):
                assert len(row) + 1 + len(after.split()[0]) > 79, (row, after)
                assert len(after) - len(after.lstrip()) > len(rows[0]) - len(rows[0].lstrip())


# ------------------------------------------------------------------ a tunnel


def test_a_tunnel_says_what_it_may_still_ask_before_it_is_claimed() -> None:
    exact, _ = position(3, hands={0: ["red", "red"]})
    asked = interpret("claim Sarajevo Sofia", ctx(exact))
    assert isinstance(asked, Ask)
    assert asked.question == ("Sarajevo–Sofia (gray, 2, tunnel) is a tunnel: it turns 3 cards and may ask for up to "
                              "3 more red cards or locomotives; beyond the 2 red you pay, you hold none. Claim it?")
    assert [c.key for c in asked.choices] == ["claim", "cancel"]
    yes = interpret("claim", ctx(exact), asked)
    assert isinstance(yes, Play) and isinstance(yes.action, ClaimRoute)
    some, _ = position(3, hands={0: ["red"] * 3 + ["locomotive", "blue"]})
    asked = interpret("claim Sarajevo Sofia red", ctx(some))
    assert isinstance(asked, Ask) and "you hold 1 red and 1 locomotive. Claim it?" in asked.question
    plenty, _ = position(3, hands={0: ["red"] * 5 + ["locomotive"]})
    played = interpret("claim Sarajevo Sofia", ctx(plenty))
    assert isinstance(played, Play) and "may ask for up to 3 more red cards or locomotives" in played.said
    assert "you hold 3 red and 1 locomotive" in played.said
    paris, _ = position(3, hands={0: ["orange"] * 3})
    assert isinstance(interpret("claim Paris Frankfurt", ctx(paris)), Play)  # no tunnel, no question


# ------------------------------------------------------------------ the full screen, no map


@pytest.fixture
def session() -> Iterator[None]:
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        yield


def test_without_a_map_path_and_map_say_what_is_true(session: None) -> None:
    state, _ = position(3, tickets={0: [0]})
    state = claimed(state, 1, ("Paris", "Frankfurt", "orange"))
    bridge = Bridge(Publisher("join"), lambda: Seen(FakeTable(state), 0, NAMES))  # type: ignore[arg-type]
    client = Client(bridge, hosting=False)
    bridge.publish()
    client.draw(80, 23)  # the classic terminal: no map
    client.run_line("path 1")
    assert "map" not in client.echo.text and client.echo.text.startswith("Athina–Angora (5)")
    client.run_line("map 2")
    assert client.focus == 1 and client.echo.text.startswith("Bob (2 blue): 1 route, 3 cars")
    assert "routes: Frankfurt–Paris" in client.echo.text
    client.draw(120, 39)  # room for the map
    client.run_line("path 1")
    assert client.echo.text == "the way is lit up on the map and told in the log"
    client.run_line("map bob")
    assert client.echo.text.startswith("alone on the map: Bob (2 blue)") and "(map all shows everyone's)" in client.echo.text
    client.run_line("map all")
    assert client.focus is None and client.echo.text == "the map shows every player's routes again"
