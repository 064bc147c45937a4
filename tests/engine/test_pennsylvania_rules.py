"""Pennsylvania, scenario by scenario from the rules summary
(shared/rules/other_boards.txt, "Pennsylvania"): 2-5 players and 45 trains;
5 tickets dealt keep 3+, 4 drawn keep 1+, the rest under the deck; the
Globetrotter for the most completed tickets (ties score in full); ferries;
Ontario's two separate dead ends; on a claim the next share of one company
beside the route; majorities scored with the printed values, ties to the
lowest share; the two-player dummy, half of whose shares count, drawn by a
deck shuffled at set-up and opened at the end."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from engine_scenario import ScenarioDealer, play, position
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_ttr.engine.board import LOCOMOTIVE, Route
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.caretaker import caretaker_move
from p2p_ttr.engine.errors import IllegalMove, OutOfTurn
from p2p_ttr.engine.events import Action, ClaimRoute, DrawTickets, KeepTickets, Reveal, TakeShares
from p2p_ttr.engine.game import Unkept
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.outcome import final_score
from p2p_ttr.engine.rules import apply, concede, new_game
from p2p_ttr.engine.scoring import PlayerClaims, ScorePart, score_game, ticket_outcomes
from p2p_ttr.engine.sharemoves import final_share_points, opening_holdings, share_choices, sheet_share_parts
from p2p_ttr.engine.state import GameState, NeedRemask, NeedReveal, NeedShuffle, Phase
from p2p_ttr.engine.stockmarket import DUMMY, StockHoldings, StockMarket, counted_dummy_shares, share_points
from p2p_ttr.engine.tablegame import ScoreSheetError, parse_game
from p2p_ttr.local.game import play_local_game

PENN = load_game("pennsylvania")
BOARD = PENN.board
_MARKET = BOARD.stock_market
assert _MARKET is not None
MARKET: StockMarket = _MARKET
SHARED = Path(__file__).resolve().parents[3] / "shared" / "maps" / "pennsylvania.json"


def between(a: str, b: str) -> Route:
    found = BOARD.routes_between(a, b)
    assert found, f"no route {a}-{b}"
    return found[0]


def table(n_players: int = 3, **layout: object) -> GameState:
    """A hand-built position on Pennsylvania with every share still to take."""
    state, _ = position(n_players=n_players, game=PENN, **layout)  # type: ignore[arg-type]
    return state.evolve(shares=opening_holdings(PENN))


def claim(state: GameState, route: Route, player: int = 0) -> GameState:
    return play(state, ClaimRoute(player, route.id, state.players[player].hand))


@pytest.mark.skipif(not SHARED.exists(), reason="shared/maps is not beside this checkout")
def test_the_board_is_the_checked_transcription_with_its_shares() -> None:
    shared = json.loads(SHARED.read_text())
    assert list(BOARD.cities) == shared["cities"] + shared["zones"]["Ontario"]["endpoints"]
    assert [(r.a, r.b, r.length, r.color, r.tunnel, r.ferry_locomotives) for r in BOARD.routes] == [
        (r["a"], r["b"], r["length"], r["color"], r["tunnel"], r["ferry_locomotives"]) for r in shared["routes"]]
    assert MARKET.route_companies == tuple(tuple(r["stock_shares"]) for r in shared["routes"])
    assert [(c.code, c.name, c.shares, list(c.points_by_rank)) for c in MARKET.companies] == [
        (c["code"], c["name"], c["shares"], c["points_by_rank"]) for c in shared["companies"]]
    assert sum(c.shares for c in MARKET.companies) == shared["stock_shares_total"] == 60
    assert [t.label for t in BOARD.tickets] == [f"{t['a']}-{t['b']} ({t['points']})" for t in shared["tickets"]]
    rules = PENN.rules
    assert (rules.min_players, rules.max_players, rules.trains, rules.stations, rules.cards_dealt) == (
        shared["players"]["min"], shared["players"]["max"], shared["trains_per_player"], 0,
        shared["setup"]["train_cards_dealt"])
    assert (rules.setup_tickets.size, rules.setup_tickets.keep_min, rules.setup_tickets.unkept) == (
        shared["setup"]["tickets_dealt"], shared["setup"]["tickets_keep_min"], Unkept.BOTTOM)
    assert (rules.draw_tickets.size, rules.draw_tickets.keep_min, rules.draw_tickets.unkept) == (
        shared["ticket_draw"]["draw"], shared["ticket_draw"]["keep_min"], Unkept.BOTTOM)
    assert rules.both_sides_min_players == shared["double_routes"]["both_tracks_min_players"]
    (globetrotter,) = shared["bonuses"]
    assert (globetrotter["name"], rules.globetrotter_points) == ("Globetrotter", globetrotter["points"])
    assert not rules.longest_path_points and not any(r.tunnel for r in BOARD.routes)


def test_five_tickets_dealt_keep_three_the_rest_under_the_deck() -> None:
    state = play(new_game(PENN, 3))
    assert state.phase is Phase.SETUP_TICKETS and all(len(p.offered) == 5 for p in state.players)
    offered = state.players[0].offered
    with pytest.raises(IllegalMove, match="at least 3 tickets"):
        apply(state, KeepTickets(0, offered[:2], offered[2:]))
    after = apply(state, KeepTickets(0, offered[:3], offered[3:]))
    assert after.awaiting == NeedRemask(Deck.TICKETS, 1, offered[3:])


def test_in_game_draw_four_keep_one_the_rest_under_the_deck() -> None:
    state = table(ticket_pile=tuple(range(10, 20)))
    state = play(state, DrawTickets(0))
    offered = state.players[0].offered
    assert len(offered) == 4
    after = apply(state, KeepTickets(0, offered[:1], offered[1:]))
    assert after.awaiting == NeedRemask(Deck.TICKETS, 1, offered[1:])


def test_the_globetrotter_scores_fifteen_for_the_most_completed_tickets_ties_in_full() -> None:
    def done(label: str) -> PlayerClaims:
        ticket = next(t for t in BOARD.tickets if t.label == label)
        return PlayerClaims((between(ticket.a, ticket.b).id,), (), (ticket.id,))

    one, other = done("Philadelphia-Atlantic City (2)"), done("Rochester-Elmira (3)")
    score = score_game(PENN, [one, other, PlayerClaims((), (), ())])
    assert [p.globetrotter for p in score.players] == [15, 15, 0]
    both = done("Baltimore-Philadelphia (4)")
    score = score_game(PENN, [PlayerClaims(one.routes + both.routes, (), one.tickets + both.tickets), other])
    assert [p.globetrotter for p in score.players] == [15, 0]


def test_a_ferry_needs_a_locomotive_for_each_icon() -> None:
    ferry = between("Erie", "Ontario (Erie)")  # gray 3, two locomotive icons
    assert (ferry.length, ferry.ferry_locomotives) == (3, 2)
    state = table(hands={0: ["red", "red", LOCOMOTIVE]})
    assert not [a for a in legal_actions(state, 0) if isinstance(a, ClaimRoute) and a.route == ferry.id]
    state = table(hands={0: ["red", LOCOMOTIVE, LOCOMOTIVE]})
    assert [a for a in legal_actions(state, 0) if isinstance(a, ClaimRoute) and a.route == ferry.id]


def test_ontario_is_reached_at_either_endpoint_and_its_two_ends_are_not_joined() -> None:
    ticket = next(t for t in BOARD.tickets if t.label == "Ontario-Syracuse (10)")
    by_buffalo = (between("Ontario (Buffalo)", "Buffalo").id, between("Buffalo", "Rochester").id,
                  between("Rochester", "Syracuse").id)
    (result,) = ticket_outcomes(BOARD, PlayerClaims(by_buffalo, (), (ticket.id,)))
    assert result.completed and result.points == 10
    # Erie's Ontario and Buffalo's Ontario are two places: a network touching
    # both does not join Erie to Buffalo through the lake.
    both_ends = (between("Erie", "Ontario (Erie)").id, between("Buffalo", "Ontario (Buffalo)").id)
    assert not BOARD.routes_between("Ontario (Erie)", "Ontario (Buffalo)")
    erie_buffalo = next((t for t in BOARD.tickets if {t.a, t.b} == {"Erie", "Buffalo"}), None)
    if erie_buffalo is not None:
        (joined,) = ticket_outcomes(BOARD, PlayerClaims(both_ends, (), (erie_buffalo.id,)))
        assert not joined.completed
    assert all(len(BOARD.routes_at[end]) == 2 and {BOARD.routes[r].other_end(end) for r in BOARD.routes_at[end]}
               == {near} for end, near in (("Ontario (Erie)", "Erie"), ("Ontario (Buffalo)", "Buffalo")))


def test_an_ontario_ticket_is_planned_from_its_nearer_endpoint() -> None:
    # Both endpoints complete it; plans and the client's ways aim at the one fewer cars away.
    by_label = {t.label: t for t in BOARD.tickets}
    assert by_label["Ontario-Pittsburg (10)"].a == "Ontario (Erie)"
    assert by_label["Ontario-Syracuse (10)"].a == "Ontario (Buffalo)"
    assert all(set(t.origin) == {"Ontario (Buffalo)", "Ontario (Erie)"} for t in BOARD.tickets if "Ontario" in t.label)


def test_a_claim_beside_companies_takes_the_next_share_of_one_of_them() -> None:
    route = between("Albany", "New York")  # blue 6: NYC, B&O, PRR
    state = claim(table(hands={0: ["blue"] * 6}), route)
    assert state.phase is Phase.SHARES and state.current == 0 and state.route_owner[route.id] == 0
    with pytest.raises(OutOfTurn):
        apply(state, TakeShares(1, "PRR", ""))
    after = apply(state, TakeShares(0, "PRR", ""))
    assert after.shares is not None and after.shares.held(0) == ((MARKET.index("PRR"), 1),)
    assert after.phase is Phase.TURN and after.current == 1
    # The next claim beside PRR offers its share 2: the lowest-numbered left.
    johnstown = between("Altoona", "Johnstown")  # blue 1: PRR alone
    assert MARKET.route_companies[johnstown.id] == ("PRR",)
    hand = table(hands={1: ["blue"]})
    second = claim(hand.evolve(current=1, shares=after.shares), johnstown, player=1)
    assert apply(second, TakeShares(1, "PRR", "")).shares.held(1) == ((MARKET.index("PRR"), 2),)  # type: ignore[union-attr]


def test_a_player_may_take_no_share() -> None:
    route = between("Albany", "New York")
    state = claim(table(hands={0: ["blue"] * 6}), route)
    after = apply(state, TakeShares(0, "", ""))
    assert after.shares == opening_holdings(PENN) and after.phase is Phase.TURN


def test_only_a_company_beside_the_route_with_a_share_left_may_be_taken() -> None:
    route = between("Albany", "Syracuse")  # NYC alone
    state = claim(table(hands={0: ["red"] * 6}), route)
    with pytest.raises(IllegalMove, match="PRR is not a company beside this route"):
        apply(state, TakeShares(0, "PRR", ""))
    assert [a.company for a in legal_actions(state, 0) if isinstance(a, TakeShares)] == ["NYC", ""]
    # Every NYC share gone: the claim takes nothing and the turn simply ends.
    holdings = opening_holdings(PENN)
    assert holdings is not None
    for seat in (1, 2, 1, 2, 1):
        holdings = holdings.take(MARKET, "NYC", seat)
    assert holdings.left(MARKET, "NYC") == 0
    done = claim(table(hands={0: ["red"] * 6}).evolve(shares=holdings), route)
    assert done.phase is Phase.TURN and done.current == 1


def test_a_route_with_no_logo_gives_no_share() -> None:
    route = between("Albany", "Binghamton")  # purple 6, no company
    state = claim(table(hands={0: ["purple"] * 6}), route)
    assert state.phase is Phase.TURN and state.current == 1 and state.shares == opening_holdings(PENN)


def test_the_biggest_holders_score_the_printed_values_ties_to_the_lowest_share() -> None:
    holdings = opening_holdings(PENN)
    assert holdings is not None
    # PRR: seat 1 takes shares 1 and 3, seat 0 shares 2 and 4: tied at two, seat 1 holds share 1.
    for seat in (1, 0, 1, 0, 2):
        holdings = holdings.take(MARKET, "PRR", seat)
    assert share_points(MARKET, holdings, 3) == (21, 30, 14)
    # BR&P pays only two ranks: a third holder would score nothing (it has two shares: one holder each).
    holdings = holdings.take(MARKET, "BR&P", 2).take(MARKET, "BR&P", 0)
    assert share_points(MARKET, holdings, 3) == (21 + 4, 30, 14 + 7)


def test_a_player_needs_a_share_to_score_in_a_company() -> None:
    holdings = opening_holdings(PENN)
    assert holdings is not None
    holdings = holdings.take(MARKET, "B&O", 0)
    assert share_points(MARKET, holdings, 3) == (20, 0, 0)  # 2nd..5th places are nobody's


def test_two_players_pick_a_share_for_the_dummy_among_the_route_s_companies() -> None:
    route = between("Albany", "New York")  # NYC, B&O, PRR
    state = claim(table(n_players=2, hands={0: ["blue"] * 6}), route)
    with pytest.raises(IllegalMove, match="the dummy must take a share too"):
        apply(state, TakeShares(0, "PRR", ""))
    with pytest.raises(IllegalMove, match="WM is not a company beside this route"):
        apply(state, TakeShares(0, "PRR", "WM"))
    after = apply(state, TakeShares(0, "PRR", "PRR"))  # the same company: shares 1 and 2
    assert after.shares is not None
    assert after.shares.holders[MARKET.index("PRR")] == (0, DUMMY)
    assert after.shares.dummy_taken == ((MARKET.index("PRR"), 2),)
    # No share for the player, none for the dummy.
    assert apply(state, TakeShares(0, "", "")).shares == opening_holdings(PENN)


def test_with_three_players_there_is_no_dummy() -> None:
    route = between("Albany", "New York")
    state = claim(table(n_players=3, hands={0: ["blue"] * 6}), route)
    with pytest.raises(IllegalMove, match="only the dummy of a two-player game"):
        apply(state, TakeShares(0, "PRR", "NYC"))
    assert all(not a.dummy for a in legal_actions(state, 0) if isinstance(a, TakeShares))


def test_the_dummy_order_is_shuffled_at_set_up_and_opened_at_the_end() -> None:
    dealer = ScenarioDealer()
    state = play(new_game(PENN, 2), dealer=dealer)
    assert NeedShuffle(Deck.DUMMY_SHARES, 0, tuple(range(30))) in dealer.shuffled
    assert state.shares is not None and len(state.shares.dummy_order) == 30
    assert not any(r in state.public or r in state.private for r in state.shares.dummy_order)
    three = play(new_game(PENN, 3), dealer=(d3 := ScenarioDealer()))
    assert all(need.deck is not Deck.DUMMY_SHARES for need in d3.shuffled)
    assert three.shares is not None and not three.shares.dummy_order


def test_half_the_dummy_s_shares_rounded_up_count_as_its_order_deck_draws_them() -> None:
    # Five dummy shares: three count, the first three faces below 5 in deck order.
    assert counted_dummy_shares(5, [7, 4, 29, 0, 3, 1, 2]) == {4, 0, 3}
    assert counted_dummy_shares(1, list(range(30))) == {0}
    assert counted_dummy_shares(0, list(range(30))) == frozenset()


def test_only_the_drawn_dummy_shares_count_and_the_dummy_scores_nothing() -> None:
    holdings = opening_holdings(PENN)
    assert holdings is not None
    # Seat 0 holds PRR shares 1 and 2; the dummy holds 3, 4, 5 (taken in that order); seat 1 holds 6.
    for seat in (0, 0, DUMMY, DUMMY, DUMMY, 1):
        holdings = holdings.take(MARKET, "PRR", seat)
    order = tuple(CardRef(Deck.DUMMY_SHARES, 0, i) for i in range(30))
    holdings = StockHoldings(holdings.holders, holdings.dummy_taken, None, order)
    state = table(n_players=2).evolve(shares=holdings)
    # All three counted while the order is closed: the dummy is first, seat 0 second, seat 1 third.
    assert final_share_points(state) == (21, 14)
    # Opened with card 2 first, then 0: shares 5 and 3 count (two of three); the dummy ties seat 0
    # at two and holds share 3 against seat 0's share 1: seat 0 is first.
    faces = [2, 0] + [i for i in range(30) if i not in (0, 2)]
    opened = state.evolve(public={**state.public, **dict(zip(order, faces))})
    assert final_share_points(opened) == (30, 14)


def test_the_end_of_a_two_player_game_reveals_the_dummy_order_with_the_tickets() -> None:
    state = play(new_game(PENN, 2))
    for p in (0, 1):
        offered = state.players[p].offered
        state = play(state, KeepTickets(p, offered[:3], offered[3:]))
    ended = concede(state, None)
    assert isinstance(ended.awaiting, NeedReveal)
    assert ended.shares is not None and set(ended.shares.dummy_order) <= set(ended.awaiting.refs)
    over = apply(ended, Reveal(tuple((r, ScenarioDealer().face(ended, r)) for r in ended.awaiting.refs)))
    assert over.phase is Phase.OVER


def test_the_caretaker_takes_the_first_company_with_a_share_and_the_dummy_s_first() -> None:
    route = between("Albany", "New York")  # NYC, B&O, PRR
    state = claim(table(n_players=2, hands={0: ["blue"] * 6}), route)
    assert caretaker_move(state, 0) == TakeShares(0, "NYC", "NYC")
    state = claim(table(n_players=3, hands={0: ["blue"] * 6}), route)
    assert caretaker_move(state, 0) == TakeShares(0, "NYC", "")


def test_the_majorities_count_in_the_final_score_and_its_ranking() -> None:
    holdings = opening_holdings(PENN)
    assert holdings is not None
    for seat in (1, 1, 0):  # PRR: seat 1 first (30), seat 0 second (21)
        holdings = holdings.take(MARKET, "PRR", seat)
    ended = table(n_players=3).evolve(shares=holdings, phase=Phase.OVER)
    score = final_score(ended)
    assert [p.extra for p in score.players] == [(ScorePart("shares", "Stock shares", 21, 1),),
                                                (ScorePart("shares", "Stock shares", 30, 2),),
                                                (ScorePart("shares", "Stock shares", 0, 0),)]
    assert [p.total for p in score.players] == [21, 30, 0] and score.ranking == (1, 0, 2)


def test_a_game_written_down_scores_its_shares_and_the_revealed_dummy_shares() -> None:
    sheet = {"players": [{"name": "Ann", "shares": {"PRR": [1, 4], "b&o": [1]}},
                         {"name": "Bob", "shares": {"PRR": [2, 5]}}],
             "dummy": {"PRR": [3]}}
    written = parse_game(PENN, sheet)
    parts = sheet_share_parts(PENN, written.shares)
    assert parts is not None
    score = score_game(PENN, written.claims, parts)
    # PRR: Ann and Bob two each, Ann holds share 1: 30 and 21; the dummy's one share is third. B&O: Ann alone.
    assert [p.extra for p in score.players] == [(ScorePart("shares", "Stock shares", 30 + 20, 3),),
                                                (ScorePart("shares", "Stock shares", 21, 2),)]


@pytest.mark.parametrize(("sheet", "refusal"), [
    ({"players": [{"name": "A", "shares": {"XYZ": [1]}}, {"name": "B"}]}, "there is no company 'XYZ'"),
    ({"players": [{"name": "A", "shares": {"BR&P": [3]}}, {"name": "B"}]}, "BR&P shares are numbered 1 to 2"),
    ({"players": [{"name": "A", "shares": {"NYC": [1]}}, {"name": "B", "shares": {"nyc": [1]}}]},
     "NYC share 1 is listed twice"),
    ({"players": [{"name": "A"}, {"name": "B"}, {"name": "C"}], "dummy": {"NYC": [1]}},
     '"dummy" shares are for a two-player game only'),
    ({"players": [{"name": "A", "shares": ["PRR", 1]}, {"name": "B"}]}, "shares must be an object"),
])
def test_shares_written_down_wrong_are_refused_saying_why(sheet: dict[str, object], refusal: str) -> None:
    with pytest.raises(ScoreSheetError, match=re.escape(refusal)):
        parse_game(PENN, sheet)
    with pytest.raises(ScoreSheetError, match="this board has no stock shares"):
        parse_game(load_game("usa"), {"players": [{"name": "A", "shares": {"PRR": [1]}}, {"name": "B"}]})


SHARE_LISTS = st.dictionaries(st.sampled_from(["PRR", "nyc", "BR&P", "XYZ", ""]) | st.text(max_size=6),
                              st.lists(st.integers(-2, 16) | st.text(max_size=2), max_size=4)
                              | st.text(max_size=3), max_size=4)


@settings(max_examples=80, deadline=None)
@given(players=st.lists(st.fixed_dictionaries({"name": st.sampled_from(["A", "B", "C"])},
                                               optional={"shares": SHARE_LISTS | st.integers()}),
                        min_size=2, max_size=3, unique_by=lambda p: str(p["name"])),
       dummy=st.none() | SHARE_LISTS)
def test_any_shares_written_down_score_or_are_refused_each_share_once(
        players: list[dict[str, object]], dummy: dict[str, object] | None) -> None:
    sheet: dict[str, object] = {"players": players} | ({"dummy": dummy} if dummy is not None else {})
    try:
        written = parse_game(PENN, sheet)
    except ScoreSheetError as refused:
        assert str(refused) and "\n" not in str(refused)
        return
    shares = [(c, n) for _, c, n in written.shares]
    assert len(shares) == len(set(shares))
    assert all(1 <= n <= MARKET.companies[c].shares for c, n in shares)
    parts = sheet_share_parts(PENN, written.shares)
    assert parts is not None
    score = score_game(PENN, written.claims, parts)
    assert sum(p.extra[0].count for p in score.players) == sum(1 for h, _, _ in written.shares if h != DUMMY)


class ShareCaretaker:
    """The caretaker in every seat, checking its share answers on the way."""

    def __init__(self) -> None:
        self.shares = 0

    def choose(self, view: GameState, player: int) -> Action:
        move = caretaker_move(view, player)
        assert move is not None
        if isinstance(move, TakeShares):
            assert move == share_choices(view, player)[0] and move.company
            self.shares += 1
        return move


def test_caretakers_play_a_two_player_game_to_the_end_taking_shares() -> None:
    seats = [ShareCaretaker(), ShareCaretaker()]
    final = play_local_game(PENN, 2, 4, seats, record=False).final  # type: ignore[arg-type]
    assert final.over and all(seat.shares for seat in seats)
    # A dummy share beside each of theirs, but where the player took the route's last one.
    assert final.shares is not None and 0 < len(final.shares.dummy_taken) <= sum(seat.shares for seat in seats)
