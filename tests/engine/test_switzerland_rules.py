"""Switzerland, scenario by scenario from the rules summary
(shared/rules/other_boards.txt, "Switzerland"): 2-3 players, 5 tickets keep
2 (the rest removed), city-country and country-country tickets, countries
as dead ends, locomotives only on tunnels and drawn freely."""

from __future__ import annotations

from dataclasses import replace

import pytest
from engine_scenario import ScenarioDealer, hand_kinds, play, position

from p2p_ttr.engine.board import LOCOMOTIVE, Route, Ticket
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.errors import IllegalMove
from p2p_ttr.engine.events import ClaimRoute, DrawFaceUp, KeepTickets
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.rules import apply, new_game
from p2p_ttr.engine.scoring import PlayerClaims, score_game, ticket_outcomes
from p2p_ttr.engine.state import Phase

SWISS = load_game("switzerland")
BOARD = SWISS.board


def between(a: str, b: str, color: str | None = None) -> Route:
    found = [r for r in BOARD.routes_between(a, b) if color is None or r.color == color]
    assert found, f"no route {a}-{b}"
    return found[0]


def country_ticket(title_start: str) -> Ticket:
    return next(t for t in BOARD.tickets if t.title.startswith(title_start))


def ticket_points(routes: tuple[int, ...], ticket: Ticket) -> int:
    score = score_game(SWISS, [PlayerClaims(routes, (), (ticket.id,)), PlayerClaims((), (), ())])
    return score.players[0].tickets


def test_the_deck_holds_the_city_tickets_and_every_copy_of_the_country_tickets() -> None:
    city = [t for t in BOARD.tickets if not t.goals]
    country = [t for t in BOARD.tickets if t.goals]
    assert len(city) == 34 and len(country) == 12  # 8 designs, the 4 country-to-country ones twice
    assert sum(1 for t in country if t.title.startswith("France-")) == 2
    assert sum(1 for t in country if t.title.startswith("Bern-")) == 1


def test_two_or_three_players_five_tickets_keep_two_the_rest_removed() -> None:
    with pytest.raises(ValueError, match="Switzerland is for 2 to 3 players, not 4"):
        new_game(SWISS, 4)
    state = play(new_game(SWISS, 2), dealer=ScenarioDealer())
    assert state.phase is Phase.SETUP_TICKETS and [len(p.offered) for p in state.players] == [5, 5]
    assert all(p.trains == 40 and p.stations_left == 0 for p in state.players)
    offered = state.players[0].offered
    after = apply(state, KeepTickets(0, offered[:2], offered[2:]))
    assert after.awaiting is None  # "Discards are removed from the game"


def way(*places: str) -> tuple[int, ...]:
    """The routes along ``places``, one between each two in turn."""
    return tuple(between(a, b).id for a, b in zip(places, places[1:]))


def test_a_city_to_country_ticket_scores_its_highest_destination_reached() -> None:
    bern = country_ticket("Bern-")
    values = {g.name: g.points for g in bern.destinations}
    to_france = way("Bern", "Fribourg", "Lausanne", "Geneve", "France (Geneve)")
    assert ticket_points(to_france, bern) == values["France"]
    to_both = to_france + way("Bern", "Solothurn", "Delemont", "Basel", "Deutschland (Basel)")
    assert ticket_points(to_both, bern) == max(values["France"], values["Deutschland"])  # only the highest scores
    assert ticket_points((), bern) == -min(values.values())  # none reached: the lowest is lost


def test_a_country_to_country_ticket_starts_at_any_endpoint() -> None:
    ticket = country_ticket("France-")
    deutschland = {g.name: g.points for g in ticket.destinations}["Deutschland"]
    assert ticket_points(way("France (Delemont)", "Delemont", "Basel", "Deutschland (Basel)"), ticket) == deutschland


def test_a_country_is_a_dead_end() -> None:
    # Geneve and Martigny each reach France, at two of its flags: France does not join them.
    routes = way("Geneve", "France (Geneve)") + way("Martigny", "France (Martigny)")
    geneve_martigny = Ticket(len(BOARD.tickets), "Geneve", "Martigny", 6, False)
    board = replace(BOARD, tickets=BOARD.tickets + (geneve_martigny,))
    (result,) = ticket_outcomes(board, PlayerClaims(routes, (), (geneve_martigny.id,)))
    assert not result.completed and result.points == -6
    (joined,) = ticket_outcomes(board, PlayerClaims(routes + way("Geneve", "Lausanne", "Martigny"), (),
                                                    (geneve_martigny.id,)))
    assert joined.completed


def test_locomotives_pay_only_for_tunnels_and_are_drawn_freely() -> None:
    plain = next(r for r in BOARD.routes if not r.tunnel and r.color != "gray" and r.length == 2)
    state, _ = position(game=SWISS, hands={0: [plain.color, LOCOMOTIVE]})
    with pytest.raises(IllegalMove, match="locomotives pay only for tunnels"):
        apply(state, ClaimRoute(0, plain.id, state.players[0].hand))
    tunnel = next(r for r in BOARD.routes if r.tunnel and r.length == 2 and r.color != "gray")
    state, _ = position(game=SWISS, hands={0: [tunnel.color, LOCOMOTIVE]})
    assert [a for a in legal_actions(state, 0) if isinstance(a, ClaimRoute) and a.route == tunnel.id]
    state, _ = position(game=SWISS, face_up=["locomotive", "locomotive", "blue", "green", "black"],
                        draw_pile=["white"] * 4)
    state = play(state, DrawFaceUp(0, 0), DrawFaceUp(0, 1))
    assert hand_kinds(state, 0) == [LOCOMOTIVE, LOCOMOTIVE] and state.current == 1


def test_the_longest_path_scores_ten() -> None:
    a = between("Geneve", "Yverdon")
    score = score_game(SWISS, [PlayerClaims((a.id,), (), ()), PlayerClaims((), (), ())])
    assert score.players[0].express == 10 and SWISS.rules.longest_path_bonus == "Longest Path"
