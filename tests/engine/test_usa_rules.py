"""USA and its 1910 variants, scenario by scenario from the rules summary
(shared/rules/other_boards.txt, "Ticket to Ride (USA + 1910 expansion)")."""

from __future__ import annotations

import pytest
from engine_scenario import play, position, set_up

from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.errors import IllegalMove
from p2p_ttr.engine.events import BuildStation, ClaimRoute, KeepTickets
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.rules import apply
from p2p_ttr.engine.scoring import PlayerClaims, score_game
from p2p_ttr.engine.state import NeedRemask, Phase

USA = load_game("usa")


def route_id(game: Game, a: str, b: str, color: str | None = None) -> int:
    found = [r for r in game.board.routes_between(a, b) if color is None or r.color == color]
    assert found, f"no route {a}-{b}"
    return found[0].id


def ticket_id(game: Game, a: str, b: str) -> int:
    return next(t.id for t in game.board.tickets if {t.a, t.b} == {a, b})


def joining(game: Game, a: str, b: str) -> tuple[int, ...]:
    """The routes of a fewest-routes way from ``a`` to ``b`` (breadth first)."""
    came: dict[str, tuple[str, int] | None] = {a: None}
    queue = [a]
    for city in queue:
        for r in game.board.routes_at[city]:
            nxt = game.board.routes[r].other_end(city)
            if nxt not in came:
                came[nxt] = (city, r)
                queue.append(nxt)
    path: list[int] = []
    at = b
    while (step := came[at]) is not None:
        at, r = step
        path.append(r)
    return tuple(path)


def test_setup_shuffles_no_long_deck_and_offers_three_regular_tickets() -> None:
    state, shuffled = set_up(USA, 3)
    assert [n.deck for n in shuffled] == [Deck.TRAIN, Deck.TICKETS]  # "Shuffle the Destination Tickets"
    assert shuffled[1].cards == tuple(range(30))  # the 30 base tickets
    for ps in state.players:
        assert len(ps.hand) == 4 and len(ps.offered) == 3 and ps.trains == 45 and ps.stations_left == 0
        assert all(ref.deck is Deck.TICKETS for ref in ps.offered)


def test_unkept_starting_tickets_go_to_the_bottom_of_the_deck() -> None:
    state, _ = set_up(USA, 2)
    offered = state.players[0].offered
    with pytest.raises(IllegalMove, match="at least 2 tickets"):
        apply(state, KeepTickets(0, offered[:1], offered[1:]))
    pile = len(state.ticket_pile)
    asked = apply(state, KeepTickets(0, offered[:2], offered[2:]))
    # "Cards not kept go on bottom of the deck": re-masked under the pile, unlike Europe's box.
    assert isinstance(asked.awaiting, NeedRemask) and asked.awaiting.refs == offered[2:]
    after = play(state, KeepTickets(0, offered[:2], offered[2:]))
    assert len(after.ticket_pile) == pile + 1 and after.ticket_pile[-1] == CardRef(Deck.TICKETS, 1, 0)
    assert after.phase is Phase.SETUP_TICKETS  # the other player still chooses
    last = after.players[1].offered
    done = play(after, KeepTickets(1, last, ()))
    assert done.phase is Phase.TURN and done.current == 0 and len(done.ticket_pile) == pile + 1


def test_there_are_no_stations_on_the_usa_board() -> None:
    state, _ = position(game=USA, hands={0: ["red", "red", "red"]})
    assert not [a for a in legal_actions(state, 0) if isinstance(a, BuildStation)]
    with pytest.raises(IllegalMove, match="USA has no stations"):
        apply(state, BuildStation(0, "Denver", state.players[0].hand[:1]))


def test_a_five_car_route_scores_ten_and_six_cars_fifteen() -> None:
    five = next(r for r in USA.board.routes if r.length == 5)
    six = next(r for r in USA.board.routes if r.length == 6)
    score = score_game(USA, [PlayerClaims((five.id,), (), ()), PlayerClaims((six.id,), (), ())])
    assert [p.routes for p in score.players] == [10, 15]
    assert [p.stations for p in score.players] == [0, 0]  # no stations, no points for unbuilt ones


def test_in_a_game_of_two_or_three_only_one_side_of_a_double_route_is_used() -> None:
    sides = USA.board.routes_between("Atlanta", "Raleigh")
    assert len(sides) == 2
    owners = {sides[0].id: 1}
    for n, open_ in ((2, False), (3, False), (4, True)):
        state, _ = position(n_players=n, game=USA, owners=owners, hands={0: ["locomotive"] * 2})
        claims = [a for a in legal_actions(state, 0) if isinstance(a, ClaimRoute) and a.route == sides[1].id]
        assert bool(claims) == open_, n


def test_the_longest_path_goes_to_every_longest_trail_in_the_base_game() -> None:
    a = route_id(USA, "Seattle", "Portland")
    b = route_id(USA, "Vancouver", "Seattle")
    score = score_game(USA, [PlayerClaims((a,), (), ()), PlayerClaims((b,), (), ())])
    assert [p.express for p in score.players] == [10, 10]  # "If ties, all tied players earn the full 10"
    assert [p.globetrotter for p in score.players] == [0, 0]


def two_tickets_on_separate_ways(game: Game) -> tuple[tuple[int, tuple[int, ...]], tuple[int, tuple[int, ...]]]:
    """Two tickets of ``game`` and a way for each, the ways sharing no city."""
    ways = [(t.id, joining(game, t.a, t.b)) for t in game.board.tickets]
    ways.sort(key=lambda w: len(w[1]))

    def cities(way: tuple[int, ...]) -> set[str]:
        return {c for r in way for c in game.board.routes[r].cities}

    for i, (t, way) in enumerate(ways):
        for u, other in ways[i + 1:]:
            if not cities(way) & cities(other):
                return (t, way), (u, other)
    raise AssertionError("no two tickets on separate ways")


def test_1910_plays_the_globetrotter_instead_of_the_longest_path() -> None:
    game = load_game("usa", "1910")
    (t, way), _ = two_tickets_on_separate_ways(game)
    score = score_game(game, [PlayerClaims(way, (), (t,)), PlayerClaims((), (), ())])
    assert [p.globetrotter for p in score.players] == [15, 0]  # "15 points for the player with the most completed"
    assert [p.express for p in score.players] == [0, 0]  # "Replace Longest Train with Globetrotter"
    assert score.players[0].total == score.players[0].routes + score.players[0].tickets + 15
    nobody = score_game(game, [PlayerClaims((), (), ()), PlayerClaims((), (), ())])
    assert [p.globetrotter for p in nobody.players] == [0, 0]  # no ticket completed: nobody has the most


def test_the_globetrotter_is_shared_by_a_tie_and_mega_plays_both_bonuses() -> None:
    game = load_game("usa", "mega")
    (t, way), (u, other) = two_tickets_on_separate_ways(game)
    score = score_game(game, [PlayerClaims(way, (), (t,)), PlayerClaims(other, (), (u,))])
    assert [p.completed_tickets for p in score.players] == [1, 1]
    assert [p.globetrotter for p in score.players] == [15, 15]  # "ties all score"
    longest = max(p.longest_path for p in score.players)
    assert [p.express for p in score.players] == [10 if p.longest_path == longest else 0 for p in score.players]


def test_mega_deals_five_keeps_three_and_draws_four_keeping_one() -> None:
    game = load_game("usa", "mega")
    state, _ = set_up(game, 2)
    offered = state.players[0].offered
    assert len(offered) == 5
    with pytest.raises(IllegalMove, match="at least 3 tickets"):
        apply(state, KeepTickets(0, offered[:2], offered[2:]))
    assert min(len(a.keep) for a in legal_actions(state, 0) if isinstance(a, KeepTickets)) == 3
    assert game.rules.draw_tickets.size == 4 and game.rules.draw_tickets.keep_min == 1


def test_big_cities_deals_four_keeps_two_and_plays_no_bonus() -> None:
    game = load_game("usa", "bigcities")
    state, _ = set_up(game, 2)
    assert len(state.players[0].offered) == 4
    assert all("Chicago" in (t.a, t.b) or any(c in (t.a, t.b) for c in
               ("Dallas", "Houston", "Los Angeles", "Miami", "New York", "Seattle")) for t in game.board.tickets)
    a = route_id(game, "Seattle", "Portland")
    score = score_game(game, [PlayerClaims((a,), (), ()), PlayerClaims((), (), ())])
    assert [p.express for p in score.players] == [0, 0] and [p.globetrotter for p in score.players] == [0, 0]
