"""The client on Pennsylvania: after a claim beside railroad logos the player
takes a share (``take PRR``, ``take PRR NYC`` with the two-player dummy,
``take none``), is told so wherever the turn waits, sees every holder's
shares, and reads the share rules."""

from __future__ import annotations

from client_states import NAMES
from hypothesis import given, settings
from hypothesis import strategies as st
from engine_scenario import play, position

from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.client.endgame import breakdown
from p2p_ttr.client.happened import TookShares as Took
from p2p_ttr.client.happened import facts
from p2p_ttr.client.outcomes import Context, Play, Refuse, Show
from p2p_ttr.client.overview import overview
from p2p_ttr.client.pagetext import lay_out
from p2p_ttr.client.phrases import sentence, what_now
from p2p_ttr.client.snapshot import Snapshot
from p2p_ttr.client.stocks import dummy_draw_words, stock_lines
from p2p_ttr.client.styled import text_of
from p2p_ttr.client.verbs import complete, interpret
from p2p_ttr.client.watchscreen import panel_lines
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.events import ClaimRoute, TakeShares
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.outcome import final_score
from p2p_ttr.engine.rules import apply
from p2p_ttr.engine.sharemoves import opening_holdings
from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.view import public_view, view_for
from p2p_ttr.local.game import play_local_game

PENN = load_game("pennsylvania")
ALBANY_NEW_YORK = next(r for r in PENN.board.routes_between("Albany", "New York") if r.color == "blue")  # NYC B&O PRR


def claimed(n_players: int) -> GameState:
    """Seat 0 has just claimed Albany-New York and is to choose its share."""
    state, _ = position(n_players=n_players, game=PENN, hands={0: ["blue"] * 6})
    state = state.evolve(shares=opening_holdings(PENN))
    return play(state, ClaimRoute(0, ALBANY_NEW_YORK.id, state.players[0].hand))


def typed(line: str, state: GameState, seat: int = 0) -> object:
    return interpret(line, Context(view_for(state, seat), seat, NAMES[:state.n_players]))


def test_take_names_a_company_by_its_code_in_any_case() -> None:
    state = claimed(3)
    assert typed("take PRR", state) == Play(TakeShares(0, "PRR", ""), "taking PRR share #1")
    assert typed("take bo", state) == Play(TakeShares(0, "B&O", ""), "taking B&O share #1")
    assert typed("take none", state) == Play(TakeShares(0, "", ""), "taking no share")


def test_a_company_not_beside_the_route_is_refused_naming_those_that_are() -> None:
    state = claimed(3)
    refused = typed("take WM", state)
    assert isinstance(refused, Refuse) and "WM is not a company beside this route" in refused.reason
    refused = typed("take XYZ", state)
    assert isinstance(refused, Refuse) and "beside this route: NYC, B&O and PRR" in refused.reason


def test_two_players_take_one_for_the_dummy_too() -> None:
    state = claimed(2)
    refused = typed("take PRR", state)
    assert isinstance(refused, Refuse) and "the dummy must take a share too" in refused.reason
    assert typed("take PRR dummy NYC", state) == Play(TakeShares(0, "PRR", "NYC"),
                                                      "taking PRR share #1, and one of NYC for the dummy")


def test_the_turn_waits_for_the_share_and_says_how() -> None:
    state = claimed(2)
    said = what_now(view_for(state, 0), 0)
    assert said == "take a share of NYC, B&O or PRR and one for the dummy (take CODE CODE), or none (take none)"
    refused = typed("draw", state)
    assert isinstance(refused, Refuse) and f"first {said}" in refused.reason
    refused = typed("take PRR", apply(state, TakeShares(0, "PRR", "PRR")), seat=1)
    assert isinstance(refused, Refuse) and "there is no share to take now" in refused.reason


def test_tab_offers_the_companies_open_now_then_the_dummy_s() -> None:
    state = claimed(2)
    ctx = Context(view_for(state, 0), 0, NAMES[:2])
    assert [s.text for s in complete("take ", ctx)] == ["NYC", "B&O", "PRR", "none"]
    assert [s.text for s in complete("take PRR ", ctx)] == ["NYC", "B&O", "PRR"]


def test_every_holder_s_shares_are_on_the_panel() -> None:
    state = apply(claimed(2), TakeShares(0, "PRR", "PRR"))
    rows = [text_of(line) for line in stock_lines(view_for(state, 1), NAMES[:2], 60)]
    assert rows[0].startswith("SHARES")
    assert rows[1].split() == ["PRR", "Ann", "1,", "dummy", "1", "·", "13"]
    assert stock_lines(view_for(claimed(3), 0), NAMES, 60) == []  # none taken yet


def test_the_rules_page_says_the_shares_and_the_dummy() -> None:
    shown = typed("rules", claimed(2))
    assert isinstance(shown, Show)
    said = " ".join(" ".join(lay_out(shown.lines, 100)).split())
    assert "take the next share (the lowest number left) of one of those companies" in said
    assert "PRR 30/21/14/9/6" in said and "a tie goes to whoever holds the lower-numbered share" in said
    assert "half of the dummy's shares, rounded up" in said
    help_text = typed("help take", claimed(2))
    assert isinstance(help_text, Show)
    assert any("take PRR NYC" in text for text in lay_out(help_text.lines, 100))


def test_the_log_and_the_last_turn_say_which_shares_were_taken() -> None:
    before = claimed(2)
    after = apply(before, TakeShares(0, "PRR", "NYC"))
    found = facts(view_for(before, 1), view_for(after, 1), 1)
    assert found == [Took(0, ("PRR #1",), ("NYC #1",))]
    assert sentence(found[0], 1, NAMES[:2], PENN) == "Ann took share PRR #1, and NYC #1 for the dummy"
    three = claimed(3)
    (took,) = facts(three, apply(three, TakeShares(0, "B&O", "")), 0)
    assert sentence(took, 0, NAMES, PENN) == "You took share B&O #1"


def test_the_watcher_sees_the_shares_too() -> None:
    state = apply(claimed(2), TakeShares(0, "PRR", "PRR"))
    snap = Snapshot(seat=None, names=NAMES[:2], view=public_view(state), game="3fa2c1d0aa", status="watching")
    table, _ = panel_lines(snap, 60, beside=False)
    assert any(text_of(line).split()[:3] == ["PRR", "Ann", "1,"] for line in table)


def test_the_end_page_shows_each_player_s_share_points() -> None:
    end = play_local_game(PENN, 2, 3, [RandomBot(1), RandomBot(2)], record=False).final
    score = final_score(end)
    page = breakdown(end, NAMES[:2])
    header = next(line for line in page if "player" in line and "total" in line)
    assert "shares" in header.split()
    for p, sc in enumerate(score.players):
        (part,) = sc.extra
        mine = page[page.index(f"{NAMES[p]}: {sc.total} points"):]
        assert any(line.split()[:3] == ["shares", str(part.points), str(part.count)] for line in mine)


@settings(max_examples=60, deadline=None)
@given(words=st.lists(st.text(max_size=8) | st.sampled_from(["PRR", "prr", "b&o", "none", "dummy", "NYC", "WM"]),
                      max_size=4))
def test_whatever_is_typed_after_take_is_a_legal_choice_or_a_refusal(words: list[str]) -> None:
    state = claimed(2)
    said = typed(" ".join(["take", *words]), state)
    if isinstance(said, Play):
        assert said.action in legal_actions(state, 0)
    else:
        assert isinstance(said, Refuse) and said.reason


def test_the_audit_says_which_dummy_shares_its_order_deck_drew() -> None:
    end = play_local_game(PENN, 2, 3, [RandomBot(1), RandomBot(2)], record=False).final
    assert end.shares is not None and end.shares.dummy_taken
    said = dummy_draw_words(end)
    assert said is not None
    n = len(end.shares.dummy_taken)
    assert said.endswith(f"({(n + 1) // 2} of {n})")
    assert dummy_draw_words(claimed(2)) is None  # closed until the end
    assert dummy_draw_words(claimed(3)) is None  # no dummy


def test_show_lists_the_companies_beside_each_route_and_every_holder_s_shares() -> None:
    state, _ = position(n_players=2, game=PENN, hands={0: ["blue"] * 6, 1: ["red"] * 6})
    state = state.evolve(shares=opening_holdings(PENN))
    state = apply(play(state, ClaimRoute(0, ALBANY_NEW_YORK.id, state.players[0].hand)), TakeShares(0, "PRR", "B&O"))
    page = overview(view_for(state, 1), 1, NAMES[:2], ())
    syracuse = next(line for line in page if "Albany–Syracuse" in line)
    assert syracuse.endswith("· shares NYC")
    assert page[page.index("SHARES held · left") + 1].split() == ["PRR", "Ann", "1", "·", "14"]
