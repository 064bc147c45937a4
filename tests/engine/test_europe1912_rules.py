"""Europe's 1912 ways to play, scenario by scenario from the rules summary
(shared/rules/other_boards.txt, "Europe 1912 Expansion"): Europe Expanded,
Mega Europe and Big Cities of Europe. The board, the stations, tunnels,
ferries and 45 trains are Europe's (tests/engine/test_*.py test those on
Europe's standard game); what the variants change is the tickets and how
they are dealt and kept, and the bonus."""

from __future__ import annotations

from collections import Counter

import pytest
from engine_scenario import play, position, route, set_up

from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.errors import IllegalMove
from p2p_ttr.engine.events import DrawTickets, KeepTickets
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.rules import apply
from p2p_ttr.engine.scoring import PlayerClaims, score_game
from p2p_ttr.engine.state import GameState, NeedRemask, Phase

EXPANDED = load_game("europe", "expanded")
MEGA = load_game("europe", "mega")
BIG_CITIES = load_game("europe", "bigcities")
BIG = {"Angora", "Athina", "Berlin", "London", "Madrid", "Moskva", "Paris", "Roma", "Wien"}  # the Big Cities logo


def keep(state: GameState, player: int, kept: tuple[CardRef, ...]) -> KeepTickets:
    """Keep ``kept`` of ``player``'s offer, the rest returned."""
    offered = state.players[player].offered
    return KeepTickets(player, kept, tuple(r for r in offered if r not in kept))


def split(offered: tuple[CardRef, ...]) -> tuple[tuple[CardRef, ...], tuple[CardRef, ...]]:
    return tuple(r for r in offered if r.deck is Deck.LONG), tuple(r for r in offered if r.deck is Deck.TICKETS)


# --- Europe Expanded ------------------------------------------------------------


def test_expanded_adds_the_new_tickets_and_deals_one_long_and_three_regular() -> None:
    """"Add the new Destination tickets and the Long tickets in with the Europe cards" (59 regular, 6 long);
    set-up as Europe's: "Give 1 [long] to each player ... deal each player 3 regular"."""
    state, shuffled = set_up(EXPANDED, 3)
    assert [(n.deck, n.cards) for n in shuffled] == [
        (Deck.TRAIN, tuple(range(110))), (Deck.TICKETS, tuple(range(59))), (Deck.LONG, tuple(range(59, 65)))]
    europe = load_game("europe").board.tickets
    assert {frozenset((t.a, t.b)) for t in europe} <= {frozenset((t.a, t.b)) for t in EXPANDED.board.tickets}
    for ps in state.players:
        assert Counter(r.deck for r in ps.offered) == {Deck.LONG: 1, Deck.TICKETS: 3}
        assert len(ps.hand) == 4 and ps.trains == 45 and ps.stations_left == 3


def test_expanded_keeps_two_of_four_and_the_rest_go_to_the_box() -> None:
    """"From these 4 tickets, must keep 2+. Discards go in the box." """
    state, _ = set_up(EXPANDED, 2)
    offered = state.players[0].offered
    with pytest.raises(IllegalMove, match="at least 2 tickets must be kept"):
        apply(state, keep(state, 0, offered[:1]))
    pile = state.ticket_pile
    after = apply(state, keep(state, 0, offered[:2]))  # the long one and a regular one
    assert after.awaiting is None and after.ticket_pile == pile  # nothing re-masked under the pile
    assert after.players[0].tickets == offered[:2]


def test_expanded_draws_three_in_game_and_returns_the_rest_under_the_pile() -> None:
    """"In game, draw 3 tickets, must keep 1+ (like base game). Discards go on bottom of the deck." """
    state, _ = position(game=EXPANDED, ticket_pile=[50, 51, 52, 53])
    state = play(state, DrawTickets(0))
    offered = state.players[0].offered
    assert len(offered) == 3 and all(r.deck is Deck.TICKETS for r in offered)  # tickets past Europe's 40
    with pytest.raises(IllegalMove, match="at least 1 ticket"):
        apply(state, keep(state, 0, ()))
    asked = apply(state, keep(state, 0, offered[:1]))
    assert isinstance(asked.awaiting, NeedRemask) and asked.awaiting.refs == offered[1:]


# --- Mega Europe -----------------------------------------------------------------


def test_mega_deals_two_long_and_five_regular_from_every_ticket() -> None:
    """"deal each player 2 Long tickets ... Mix all the regular tickets together, give each player 5" (all 101:
    89 regular, 12 long)."""
    state, shuffled = set_up(MEGA, 5)
    assert [(n.deck, len(n.cards)) for n in shuffled] == [(Deck.TRAIN, 110), (Deck.TICKETS, 89), (Deck.LONG, 12)]
    for ps in state.players:
        assert Counter(r.deck for r in ps.offered) == {Deck.LONG: 2, Deck.TICKETS: 5}
    assert MEGA.rules.longest_path_bonus == "European Express" and MEGA.rules.longest_path_points == 10


def test_mega_keeps_at_most_one_of_the_two_long_tickets() -> None:
    """"keep 0-1 of them (putting the extra in the box)"."""
    state, _ = set_up(MEGA, 2)
    longs, regular = split(state.players[0].offered)
    for kept in (longs + regular[:1], longs + regular):
        with pytest.raises(IllegalMove, match="at most 1 long ticket of this offer may be kept, not 2"):
            apply(state, keep(state, 0, kept))
    choices = [a for a in legal_actions(state, 0) if isinstance(a, KeepTickets)]
    assert choices and all(sum(r.deck is Deck.LONG for r in a.keep) <= 1 for a in choices)
    assert max(len(a.keep) for a in choices) == 6  # everything but one long ticket


def test_mega_keeps_two_regular_with_a_long_ticket_and_three_without() -> None:
    """"If they kept a Long ticket, they keep 2+, but if they didn't, they keep 3+." """
    state, _ = set_up(MEGA, 2)
    longs, regular = split(state.players[0].offered)
    for kept in (longs[:1] + regular[:1], regular[:2], ()):
        with pytest.raises(IllegalMove, match="at least 3 tickets must be kept"):
            apply(state, keep(state, 0, kept))
    for kept in (longs[:1] + regular[:2], regular[:3], longs[1:] + regular[2:4]):
        apply(state, keep(state, 0, kept))  # accepted
    smallest = {(sum(r.deck is Deck.LONG for r in a.keep), len(a.keep)) for a in legal_actions(state, 0)
                if isinstance(a, KeepTickets) and len(a.keep) == 3}
    assert smallest == {(1, 3), (0, 3)}


def test_mega_returns_every_unkept_first_ticket_to_the_box() -> None:
    """The long tickets not kept go to the box; the regular ones too, as at Europe's set-up ("Discards go in
    the box"); nothing goes under the pile, and the game begins once both have chosen."""
    state, _ = set_up(MEGA, 2)
    pile = state.ticket_pile
    longs, regular = split(state.players[0].offered)
    state = play(state, keep(state, 0, longs[:1] + regular[:2]))
    other_longs, other_regular = split(state.players[1].offered)
    state = play(state, keep(state, 1, other_regular[:3]))
    assert state.phase is Phase.TURN and state.ticket_pile == pile and state.ticket_epoch == 0
    assert [len(ps.tickets) for ps in state.players] == [3, 3]
    assert all(r not in state.private for r in longs[1:] + other_longs)  # out of the game, forgotten


def test_mega_draws_three_in_game_and_keeps_one() -> None:
    state, _ = position(game=MEGA, ticket_pile=[70, 71, 72, 73])
    state = play(state, DrawTickets(0))
    offered = state.players[0].offered
    assert len(offered) == 3 and all(r.deck is Deck.TICKETS for r in offered)  # never a long ticket
    assert [a.keep for a in legal_actions(state, 0) if isinstance(a, KeepTickets)][-1] == offered[2:]
    play(state, keep(state, 0, offered[2:]))


# --- Big Cities of Europe -----------------------------------------------------------


def test_big_cities_deals_five_big_city_tickets_and_no_long_ones() -> None:
    """"Long routes aren't used. Find all the Big City labeled tickets ... Give each player 5 tickets"."""
    state, shuffled = set_up(BIG_CITIES, 4)
    assert [(n.deck, len(n.cards)) for n in shuffled] == [(Deck.TRAIN, 110), (Deck.TICKETS, 45)]
    assert not BIG_CITIES.board.long_tickets
    assert all({t.a, t.b} & BIG for t in BIG_CITIES.board.tickets)
    for ps in state.players:
        assert len(ps.offered) == 5 and all(r.deck is Deck.TICKETS for r in ps.offered)


def test_big_cities_keeps_two_at_set_up_and_draws_four_keeping_one() -> None:
    """"keeping 2+. During the game, when getting new tickets, take 4, keeping 1+"."""
    state, _ = set_up(BIG_CITIES, 2)
    offered = state.players[0].offered
    with pytest.raises(IllegalMove, match="at least 2 tickets"):
        apply(state, keep(state, 0, offered[:1]))
    apply(state, keep(state, 0, offered[:2]))
    drawing, _ = position(game=BIG_CITIES, ticket_pile=[1, 2, 3, 4, 5])
    drawing = play(drawing, DrawTickets(0))
    drawn = drawing.players[0].offered
    assert len(drawn) == 4
    with pytest.raises(IllegalMove, match="at least 1 ticket"):
        apply(drawing, keep(drawing, 0, ()))
    assert isinstance(apply(drawing, keep(drawing, 0, drawn[:1])).awaiting, NeedRemask)  # the rest under the pile


def test_big_cities_plays_no_bonus_but_keeps_europes_stations() -> None:
    """"No bonus used" (the data's note); the stations are Europe's: +4 for each one left."""
    longest = route("Kyiv", "Smolensk")
    score = score_game(BIG_CITIES, [PlayerClaims((longest,), (), ()), PlayerClaims((), ("Wien",), ())])
    assert [p.express for p in score.players] == [0, 0] and score.players[0].longest_path > 0
    assert [p.stations for p in score.players] == [12, 8]
    express = score_game(EXPANDED, [PlayerClaims((longest,), (), ()), PlayerClaims((), (), ())])
    assert [p.express for p in express.players] == [10, 0]  # the other 1912 ways keep the European Express
