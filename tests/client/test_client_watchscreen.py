"""The table on a shared screen (p2p_ttr/client/watchscreen.py): pure
functions of a snapshot with no seat, drawn without a terminal."""

from __future__ import annotations

import pytest
from client_states import NAMES, FakeTable, game_states

from p2p_ttr.client.explain import kinds
from p2p_ttr.client.lastturn import LastTurns
from p2p_ttr.client.phrases import cards_words, told
from p2p_ttr.client.screen import Page
from p2p_ttr.client.snapshot import Publisher, Snapshot
from p2p_ttr.client.styled import text_of
from p2p_ttr.client.watchscreen import WatchModel, render, screen_text, scrolled, side_width
from p2p_ttr.engine.state import Phase
from p2p_ttr.engine.view import public_view


def watched(upto: int, public: bool = True) -> Snapshot:
    """What a watcher's snapshot holds after the game's first ``upto`` states
    (``public``: as a watcher sees it; else with every face, as an opened replay)."""
    states = game_states()[:upto]
    turns, log, before = LastTurns(), [], None
    for state in states:
        view = public_view(state) if public else state
        if before is not None:
            turns = turns.after(before, view, None)
            log += [("class:log.move", line.text) for line in told(before, view, None, NAMES)]
        before = view
    return Snapshot(role="watch", names=NAMES, view=before, log=tuple(log), status="waiting for Bob's move",
                    turns=turns, game="ab" * 8)


def mid_game() -> int:
    return next(i for i, s in enumerate(game_states()) if s.turn == 40 and s.phase is Phase.TURN)


@pytest.mark.parametrize("size", [(80, 24), (100, 26), (120, 40), (200, 60), (60, 20), (30, 8)])
def test_every_size_is_filled_exactly(size: tuple[int, int]) -> None:
    lines = render(WatchModel(watched(mid_game()), keys="q leaves"), *size)
    assert len(lines) == size[1]
    assert all(len(text_of(line)) == size[0] for line in lines)


def test_80x24_shows_the_public_table_and_no_hand() -> None:
    snap = watched(mid_game())
    text = screen_text(WatchModel(snap, keys="q leaves · PageUp/PageDown scroll the log"), 80, 24)
    for seen in ("Ticket to Ride: Europe", "watching", "PLAYERS", "pts trn crd tkt", "1 red    Ann",
                 "3 green  Cid", "FACE-UP  deck", "LAST TURN", "─ log ─", "waiting for Bob's move", "q leaves"):
        assert seen in text, seen
    for hidden in ("YOUR HAND", "HANDS AND TICKETS", "TICKETS ", "PAYS FOR"):
        assert hidden not in text, hidden
    assert snap.log[-1][1] in text  # the latest move in words


def test_the_counts_are_everyone_s_and_the_latest_turn_is_marked() -> None:
    snap = watched(mid_game())
    view = snap.view
    assert view is not None
    text = screen_text(WatchModel(snap), 80, 24)
    for p, ps in enumerate(view.players):
        row = next(line for line in text.splitlines() if f"{p + 1} {('red', 'blue', 'green')[p]}" in line)
        assert f"{ps.trains:>3} {len(ps.hand):>3} {len(ps.tickets):>3}" in row
    assert text.count("•") == 2  # the title says what it marks, and it marks one turn: the latest


def test_a_big_screen_gives_the_map_the_room() -> None:
    model = WatchModel(watched(mid_game()))
    small, big = screen_text(model, 100, 26), screen_text(model, 200, 60)
    assert "PLAYERS" in big and "LAST TURN" in big and "─ log ─" in big
    map_cells = [line[: 200 - side_width(200) - 1] for line in big.splitlines()]
    assert sum(line.count("●") + line.count("□") for line in map_cells) >= 40  # every city has room
    assert "STOCKHOLM" in big and "STO" in small  # whole names where they fit
    assert side_width(200) < 200 // 3  # the map first
    # The log sits in the side column: the map keeps every row between the header and the status.
    rows = big.splitlines()
    assert sum("│" in row for row in rows) == 60 - 1 - 2


def test_the_final_round_is_on_the_banner() -> None:
    final = next(i for i, s in enumerate(game_states()) if s.final_turns_left is not None)
    text = screen_text(WatchModel(watched(final + 1)), 100, 30)
    assert "FINAL ROUND" in text


def test_a_watcher_s_publisher_reads_no_private_card() -> None:
    """Even fed a table whose state knows every card, a publisher with no seat shows none of them."""
    state = game_states()[mid_game()]
    assert state.private  # the omniscient state knows the hands
    publisher = Publisher("watch")
    snap = publisher.update(FakeTable(engine=state, seats=()), None, NAMES)  # type: ignore[arg-type]
    assert snap is not None and snap.view is not None and not snap.view.private
    assert "HANDS AND TICKETS" not in screen_text(WatchModel(snap), 120, 40)


def test_an_opened_view_shows_every_hand_and_ticket() -> None:
    snap = watched(mid_game(), public=False)
    view = snap.view
    assert view is not None
    text = screen_text(WatchModel(snap, mode="replay · every hand shown"), 200, 60)
    assert "HANDS AND TICKETS" in text
    for p in range(3):
        hand = cards_words(kinds(view, view.players[p].hand))
        assert f"{p + 1} {NAMES[p]}: {hand[:20]}" in text.replace("\n", " "), hand


def test_a_page_takes_the_place_of_the_table_and_scrolls_within_it() -> None:
    page = Page("The end", tuple(f"line {i}" for i in range(100)))
    model = WatchModel(watched(mid_game()), page=page, keys="Enter or q leaves")
    text = screen_text(model, 80, 24)
    assert "The end" in text and "line 0" in text and "PLAYERS" not in text
    down = scrolled(model, 80, 24, 1)
    assert down.page is not None and down.page.offset > 0 and "line 0" not in screen_text(down, 80, 24)
    far = scrolled(model, 80, 24, 100)
    assert "line 99" in screen_text(far, 80, 24)
    assert scrolled(far, 80, 24, 1) == far  # the last row stops it


def test_the_log_scrolls_back_and_follows_its_end_again() -> None:
    model = WatchModel(watched(mid_game()))
    back = scrolled(model, 80, 24, -1)
    assert back.log_top is not None and "newer rows below" in screen_text(back, 80, 24)
    assert scrolled(back, 80, 24, 1).log_top is None  # at the end again: it follows new lines


def test_before_the_game_it_says_what_it_waits_for() -> None:
    snap = Snapshot(role="watch", log=(("class:note", "a watcher joined"),))
    text = screen_text(WatchModel(snap), 80, 24)
    assert "waiting for the game to start" in text and "a watcher joined" in text


def test_opened_hands_come_before_the_last_turns_and_what_does_not_fit_is_said() -> None:
    """`ttr replay --open` at 120x40 cut the last seat's tickets silently:
    where the side column is short, the hands come first (the log tells the
    turns too), and rows that still do not fit are said."""
    snap = watched(len(game_states()) - 40, public=False)
    view = snap.view
    assert view is not None
    last = [t for r in view.players[2].tickets if (t := view.face(r)) is not None][-1]
    city = view.game.board.tickets[last].b
    for height in range(26, 61):
        text = screen_text(WatchModel(snap, mode="replay · every hand shown"), 120, height)
        assert city in text or "rows more in a taller window" in text, height
    text = screen_text(WatchModel(snap, mode="replay · every hand shown"), 120, 40)
    assert "HANDS AND TICKETS" in text and city in text


def test_over_a_page_the_header_says_no_turn() -> None:
    """'Bob's turn' over 'The end' said a turn of the replay's moment over the game's end."""
    page = Page("The end", ("FINAL SCORE",))
    text = screen_text(WatchModel(watched(mid_game()), mode="replay · move 3 of 9", page=page), 120, 40)
    assert text.splitlines()[0].startswith(" Ticket to Ride: Europe  replay · move 3 of 9")
    assert "'s turn" not in text
    assert "'s turn" in screen_text(WatchModel(watched(mid_game()), mode="replay · move 3 of 9"), 120, 40)
