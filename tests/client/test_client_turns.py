"""What happened since your turn (#23 item 4): each player's last turn kept
as the game goes, on screen at 80x24 whatever the log has room for; and the
log and pages scroll by what they show, every row seen, stopping at the top."""

from __future__ import annotations

import re

import pytest
from client_states import NAMES, FakeTable, game_states
from engine_scenario import BOARD, play, position, route

from p2p_ttr.client.lastturn import LastTurns
from p2p_ttr.client.panel import turn_lines
from p2p_ttr.client.screen import Page, ScreenModel, frame, log_rows, log_width, page_rows, scrolled, screen_text
from p2p_ttr.client.snapshot import Publisher, Snapshot
from p2p_ttr.client.styled import text_of
from p2p_ttr.engine.events import AbandonTunnel, ClaimRoute, DrawBlind, DrawFaceUp
from p2p_ttr.engine.state import Phase
from p2p_ttr.engine.view import view_for


def published(upto: int, seat: int = 0) -> Snapshot:
    """The snapshot a player at ``seat`` has after the first ``upto`` states of the bot game."""
    publisher = Publisher("join")
    table = FakeTable()
    for i, state in enumerate(game_states()[:upto]):
        table.engine, table.log = state, [b""] * i
        publisher.update(table, seat, NAMES)  # type: ignore[arg-type]
    return publisher.snapshot


def test_a_turn_in_a_few_words() -> None:
    state, _ = position(3, hands={0: ["orange"] * 3}, face_up=("red", "blue", "green", "yellow", "black"))
    took = play(state, DrawFaceUp(0, 1))
    drew = play(took, DrawBlind(0))
    turns = LastTurns()
    for before, after in ((state, took), (took, drew)):
        turns = turns.after(view_for(before, 1), view_for(after, 1), 1)
    ann = turns.of(0)
    assert ann is not None and ann.words() == "took blue, drew 1 card"  # "drew": from the deck
    bob, _ = position(3, hands={1: ["orange"] * 3}, current=1)
    after = play(bob, ClaimRoute(1, route("Paris", "Frankfurt", "orange"), bob.players[1].hand))
    turns = turns.after(view_for(bob, 0), view_for(after, 0), 0)
    told = turns.of(1)
    assert told is not None and told.words() == "claimed Frankfurt–Paris"


@pytest.mark.parametrize("upto", [60, 150, 300, 420])
def test_80x24_shows_every_other_players_last_turn(upto: int) -> None:
    """Whatever the log has room for, the panel has a row per seat, level
    with the players' table, saying what each did last; those played since
    our own last turn are marked •."""
    states = game_states()
    # Our turn, as the screen shows it when the bell rings: everything since our last turn is to be seen.
    upto = next(i for i in range(upto, len(states)) if states[i - 1].phase is Phase.TURN
                and states[i - 1].current == 0 and not states[i - 1].cards_drawn)
    snap = published(upto)
    text = screen_text(ScreenModel(snap), 80, 23)
    rows = text.splitlines()
    title = next(i for i, row in enumerate(rows) if "PLAYERS" in row)
    assert "LAST TURN (• since yours)" in rows[title]
    for seat in (1, 2):
        turn = snap.turns.of(seat)
        assert turn is not None and turn.words()
        row = rows[title + 1 + seat]
        assert row.startswith(f" {seat + 1} ") and NAMES[seat] in row  # level with the seat's own row
        beside = row.split("│", 1)[1]
        assert beside.startswith(" • ") and beside[3:].rstrip().rstrip("…") in turn.words()


def test_the_others_turns_are_what_the_log_said() -> None:
    """The summary tells the same moves as the log: each word of a claim or a
    draw in it is in the log lines of that turn."""
    snap = published(300)
    log = [text for _, text in snap.log]
    for seat in (1, 2):
        turn = snap.turns.of(seat)
        assert turn is not None
        for r in turn.claimed:
            a, b = BOARD.routes[r].a, BOARD.routes[r].b
            assert any(line.startswith(f"{NAMES[seat]} claimed {a}–{b}") for line in log)
        if "drew" in turn.words():
            assert any(re.match(rf"{NAMES[seat]} drew \d cards? from the deck", line) for line in log[-12:])


# ------------------------------------------------------------------ scrolling

SIZES = [(80, 23), (100, 29), (120, 39)]


def numbered_log(n: int) -> Snapshot:
    state, _ = position(3)
    log = tuple(("class:log.move", f"line {i:03d} " + "word " * (i % 23)) for i in range(n))
    return Snapshot(seat=0, names=NAMES, view=view_for(state, 0), game="3fa2c1d0", log=log)


def log_pane(model: ScreenModel, width: int, height: int) -> list[str]:
    """The log's rows on screen (left of the last turns, where there is a map)."""
    parts = frame(model, width, height)
    assert parts is not None
    rows = screen_text(model, width, height).splitlines()
    start = len(parts.top) + parts.body + 1
    return [row[: log_width(model, parts, width)] for row in rows[start: start + parts.log]]


@pytest.mark.parametrize("size", SIZES)
def test_page_up_shows_every_row_of_the_log_and_stops_at_the_top(size: tuple[int, int]) -> None:
    width, height = size
    model = ScreenModel(numbered_log(60))
    parts = frame(model, width, height)
    assert parts is not None
    every = [text_of(row).rstrip() for row in log_rows(model.snap.log, log_width(model, parts, width))]

    def where(pane: list[str]) -> int:
        """The index in the log of the pane's first row (the pane is a run of the log's rows)."""
        shown = [row.rstrip() for row in pane]
        found = [k for k in range(len(every)) if every[k: k + len(shown)] == shown]
        assert found, shown
        return found[0]

    pane = log_pane(model, width, height)
    tops = [where(pane)]
    assert tops[0] == len(every) - len(pane)  # the end, at first
    for _ in range(60):
        model = scrolled(model, width, height, -1)
        pane = log_pane(model, width, height)
        tops.append(where(pane))
    h = len(pane)
    moved = [a - b for a, b in zip(tops, tops[1:]) if a != b]
    assert moved and all(m == h for m in moved[:-1]) and 0 < moved[-1] <= h  # a whole pane a press
    seen = {i for top in tops for i in range(top, top + h)}
    assert seen == set(range(len(every)))  # every row was on screen
    # Past the top it stays at the top: never a blank pane.
    assert tops[-1] == 0 and pane[0].startswith(" line 000") and all(row.strip() for row in pane)
    assert "newer rows below (PageDown)" in screen_text(model, width, height)  # how far back, on the rule
    # PageDown comes back to the end, which then follows new lines.
    for _ in range(60):
        model = scrolled(model, width, height, 1)
    assert model.log_top is None


@pytest.mark.parametrize("size", SIZES)
def test_a_page_scrolls_by_what_it_shows(size: tuple[int, int]) -> None:
    width, height = size
    snap = numbered_log(3)
    page = Page("Numbers", tuple(f"row {i:03d}" for i in range(70)))
    model = ScreenModel(snap, page=page)
    every = page_rows(page, width)
    seen: set[str] = set()
    for _ in range(30):
        seen |= {row.rstrip() for row in screen_text(model, width, height).splitlines() if row.startswith(" row ")}
        model = scrolled(model, width, height, 1)
    assert seen == {row.rstrip() for row in every}
    text = screen_text(model, width, height)
    assert " row 069" in text and "more line" not in text  # the end: no blank page past it
    for _ in range(30):
        model = scrolled(model, width, height, -1)
    assert model.page is not None and model.page.offset == 0


@pytest.mark.parametrize("size", [(100, 29), (120, 39)])
def test_beside_the_map_every_last_turn_is_whole_beside_the_log_and_the_hand_pays_for_is_shown(
        size: tuple[int, int]) -> None:
    """100x30 had no room for LAST TURN or YOUR HAND PAYS FOR in the panel,
    cut 'took blue, drew 1 from the d…', and our own move scrolled away
    behind three bot turns: the last turns sit beside the log, ours too,
    every one whole, and the panel keeps rows for the routes to claim."""
    for upto in (120, 200, 300):
        snap = published(upto)
        rows = screen_text(ScreenModel(snap), *size).splitlines()
        title = next(i for i, row in enumerate(rows) if "LAST TURN (• since yours)" in row)
        assert rows[title - 1].startswith("─ log ─")  # the first row beside the log
        for seat in range(3):
            turn = snap.turns.of(seat)
            assert turn is not None
            beside = rows[title + 1 + seat].split("│")[-1]
            assert beside.startswith(f" {seat + 1} ") and turn.words() in beside, (beside, turn.words())
        assert any("YOUR HAND PAYS FOR" in row for row in rows), upto


def test_a_long_last_turn_wraps_beside_the_log_where_rows_allow_and_is_cut_where_not() -> None:
    state, _ = position(3, hands={1: ["locomotive"] * 5}, current=1)
    r = route("Kobenhavn", "Stockholm", "yellow")
    after = play(state, ClaimRoute(1, r, state.players[1].hand[:3]))
    turns = LastTurns().after(view_for(state, 0), view_for(after, 0), 0)
    words = "claimed Kobenhavn–Stockholm"
    assert turns.of(1) is not None and turns.of(1).words() == words  # type: ignore[union-attr]
    snap = Snapshot(seat=0, names=NAMES, view=view_for(after, 0), game="3fa2c1d0", turns=turns)
    narrow = turn_lines(turns, view_for(after, 0), 0, 30, beside=False, wrapped=True)
    assert " ".join(text_of(row).strip() for row in narrow[2:4]).startswith("2 • claimed Kobenhavn–Stockholm")
    text = screen_text(ScreenModel(snap), 100, 29)
    assert words in text  # 35 columns: whole on one row
    cut = turn_lines(turns, view_for(after, 0), 0, 30, beside=False)
    assert len(cut) == 4 and text_of(cut[2]).rstrip().endswith("…")


def test_the_longest_turns_fit_beside_the_players_at_80x24() -> None:
    """A tunnel still to pay, then given up, on the longest tunnel of the
    map: whole in the 37 columns beside the players' rows."""
    state, _ = position(3, hands={1: ["locomotive"] * 5}, current=1,
                        draw_pile=("locomotive",) * 3 + ("purple", "orange", "black") * 3)
    went = play(state, ClaimRoute(1, route("Angora", "Constantinople"), state.players[1].hand[:2]))
    assert went.phase is Phase.TUNNEL
    left = play(went, AbandonTunnel(1))
    turns = LastTurns()
    for before, after in ((state, went), (went, left)):
        turns = turns.after(view_for(before, 0), view_for(after, 0), 0)
        turn = turns.of(1)
        assert turn is not None and len(turn.words()) <= 37, turn.words()
        assert turn.words() == ("tunnel Angora–Constantinople: 3 more" if after is went
                                else "gave up tunnel Angora–Constantinople")
