"""The command language: typed lines become legal engine actions, questions,
or refusals that say why in a player's words."""

from __future__ import annotations

from dataclasses import replace

import re

import pytest
from client_states import NAMES, first
from engine_scenario import BOARD, play, position, route

from p2p_ttr.client.commands import ParseError, tokens
from p2p_ttr.client.outcomes import (
    Ask,
    Context,
    Leave,
    Note,
    Play,
    Redraw,
    Refuse,
    Show,
    ShowWay,
)
from p2p_ttr.client.pagetext import lay_out
from p2p_ttr.client.paying import pay_spec
from p2p_ttr.client.verbs import answer, find_verb, interpret, parse
from p2p_ttr.engine.events import (
    AbandonTunnel,
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
)
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.view import view_for


def ctx(state: GameState, seat: int = 0, hosting: bool = False) -> Context:
    return Context(view_for(state, seat), seat, NAMES[: state.n_players], hosting)


def refused(outcome: object) -> str:
    assert isinstance(outcome, Refuse), outcome
    return outcome.reason


def played(outcome: object) -> Play:
    assert isinstance(outcome, Play), outcome
    return outcome


def kinds_paid(state: GameState, action: ClaimRoute | BuildStation | PayTunnel) -> list[str]:
    return sorted(BOARD.card_kind(state.face(r)) for r in action.cards)  # type: ignore[arg-type]


# ------------------------------------------------------------------ syntax


def test_parse_finds_verbs_by_name_alias_and_unique_beginning() -> None:
    assert find_verb("claim") is find_verb("cl") is find_verb("c")
    assert find_verb("t") is find_verb("tickets")
    assert find_verb("pa") is None  # pay or path
    assert parse("") is None
    command = parse("claim Paris-Frankfurt with 2orange 1 loco")
    assert command is not None and command.verb.name == "claim"
    assert command.words == ("Paris", "Frankfurt", "with", "2", "orange", "1", "loco")
    with pytest.raises(ParseError, match="unknown command 'frobnicate'"):
        parse("frobnicate now")
    assert tokens("red+loco, 2blue") == ["red", "loco", "2", "blue"]


def test_payment_words() -> None:
    spec = pay_spec(["with", "2", "blue", "1", "loco"])
    assert (spec.colour, spec.colored, spec.locos) == ("blue", 2, 1)
    assert pay_spec(["loco"]).some_locos
    for words, reason in ((["red", "blue"], "cannot be played together"), (["3"], "3 of what"),
                          (["gray"], "route colour"), (["bl"], "could be blue or black"), (["xyz"], "not a card")):
        with pytest.raises(Exception, match=reason):
            pay_spec(words)


# ------------------------------------------------------------------ claims


def test_claim_plays_the_only_payment_with_fewest_locomotives() -> None:
    state, _ = position(3, hands={0: ["orange"] * 3 + ["locomotive"]})
    play_ = played(interpret("claim Paris Frankfurt", ctx(state)))
    assert isinstance(play_.action, ClaimRoute) and play_.action.route == route("Paris", "Frankfurt", "orange")
    assert kinds_paid(state, play_.action) == ["orange"] * 3
    assert play_.said == "claiming Frankfurt–Paris (orange, 3) with 3 orange"
    with_loco = played(interpret("cl par fra with 2 orange 1 loco", ctx(state)))
    assert kinds_paid(state, with_loco.action) == ["locomotive", "orange", "orange"]  # type: ignore[arg-type]


def test_claim_asks_when_the_payment_is_ambiguous_and_the_answer_plays_it() -> None:
    state, _ = position(3, hands={0: ["orange"] * 3 + ["white"] * 3})
    asked = interpret("claim Paris Frankfurt", ctx(state))
    assert isinstance(asked, Ask) and "How do you pay for Paris–Frankfurt" in asked.question
    labels = [c.label for c in asked.choices]
    assert labels == ["orange side, 3 orange", "white side, 3 white", "never mind"]  # the question names the route
    second = played(interpret("2", ctx(state), asked))
    assert isinstance(second.action, ClaimRoute) and second.action.route == route("Paris", "Frankfurt", "white")
    assert isinstance(answer(asked, "cancel"), Note)
    # Naming the side settles it; a line that answers nothing is a new command.
    side = played(interpret("claim par fra white", ctx(state)))
    assert side.action == second.action
    assert isinstance(interpret("draw", ctx(state), asked), Play)


def test_a_question_stays_asked_after_an_empty_line_or_a_number_that_is_no_choice() -> None:
    """Enter on an empty line keeps the question (it used to drop it, so the
    next `1` was an unknown command); a number beyond the choices asks again,
    saying which numbers there are; the answer then plays."""
    state, _ = position(3, hands={0: ["orange"] * 3 + ["white"] * 3})
    asked = interpret("claim Paris Frankfurt", ctx(state))
    assert isinstance(asked, Ask)
    again = interpret("", ctx(state), asked)
    assert again == asked and isinstance(again, Ask) and again.shown == asked.question
    wrong = interpret("5", ctx(state), asked)
    assert isinstance(wrong, Ask) and wrong.choices == asked.choices
    assert wrong.shown == f"5 is not one of the choices (1-3, or cancel): {asked.question}"
    assert interpret("7", ctx(state), wrong) == replace(wrong, retry="7 is not one of the choices (1-3, or cancel):")
    assert interpret("", ctx(state), wrong) == asked  # asked again plainly
    second = played(interpret("2", ctx(state), wrong))
    assert isinstance(second.action, ClaimRoute) and second.action.route == route("Paris", "Frankfurt", "white")
    assert interpret("", ctx(state)) is None  # with no question, an empty line is nothing


def test_gray_route_asks_for_the_colour_unless_named() -> None:
    state, _ = position(3, hands={0: ["red"] * 4 + ["blue"] * 4})
    asked = interpret("claim Marseille Paris", ctx(state))
    assert isinstance(asked, Ask) and len(asked.choices) == 3
    red = played(interpret("claim Marseille Paris red", ctx(state)))
    assert kinds_paid(state, red.action) == ["red"] * 4  # type: ignore[arg-type]


def test_claim_refusals_name_the_reason() -> None:
    orange = route("Paris", "Frankfurt", "orange")
    state, _ = position(3, hands={0: ["white"] * 3}, owners={orange: 1})
    reason = refused(interpret("claim Paris Frankfurt", ctx(state)))
    assert "already belongs to Bob" in reason and "only one side of a double route is used" in reason
    state, _ = position(3, hands={0: ["red"]})
    assert refused(interpret("claim Paris Frankfurt", ctx(state))) == (
        "Frankfurt–Paris (orange or white, 3) needs 3 orange cards or 3 white cards (locomotives stand in for any "
        "colour); you hold 1 red")  # both sides are open: both are named
    assert refused(interpret("claim Paris Frankfurt orange", ctx(state))) == (
        "Frankfurt–Paris (orange, 3) needs 3 orange cards (locomotives stand in for any colour); you hold 1 red")
    assert refused(interpret("claim par fra red", ctx(state))) == "Paris–Frankfurt is orange or white, not red"
    assert "no route between Lisboa and Moskva" in refused(interpret("claim Lisboa Moskva", ctx(state)))
    assert "could be Bucuresti, Budapest" in refused(interpret("claim bu wien", ctx(state)))
    assert "no single city matches 'Nowhere'" in refused(interpret("claim Nowhere Paris", ctx(state)))
    state, _ = position(3, hands={0: ["orange"] * 3}, trains={0: 2})
    assert "needs 3 trains and you have 2" in refused(interpret("claim Paris Frankfurt", ctx(state)))
    state, _ = position(3, hands={0: ["orange"] * 3}, current=1)
    assert refused(interpret("claim Paris Frankfurt", ctx(state))) == "it is Bob's turn"


# ------------------------------------------------------------------ draws, tickets, stations


def test_draws_by_slot_and_colour_and_the_second_card_rules() -> None:
    state, _ = position(3, face_up=("red", "blue", "green", "locomotive", "black"))
    assert played(interpret("draw", ctx(state))).action == DrawBlind(0)
    taken = played(interpret("draw 2", ctx(state)))
    assert taken.action == DrawFaceUp(0, 1) and taken.said == "taking blue from slot 2"
    assert played(interpret("draw green", ctx(state))).action == DrawFaceUp(0, 2)
    assert refused(interpret("draw 9", ctx(state))).startswith("there are 5 face-up slots")
    assert refused(interpret("draw purple", ctx(state))) == "no purple card is face up"
    after = play(state, DrawBlind(0))
    assert "cannot be your second card" in refused(interpret("draw loco", ctx(after)))
    assert "take your second one" in refused(interpret("claim Paris Frankfurt", ctx(after)))
    assert "take your second one" in refused(interpret("tickets", ctx(after)))


def test_tickets_and_keep() -> None:
    state, _ = position(3)
    assert played(interpret("tickets", ctx(state))).action == DrawTickets(0)
    setup = first(lambda s: s.phase is Phase.SETUP_TICKETS)
    kept = played(interpret("keep 1 2", ctx(setup)))
    assert isinstance(kept.action, KeepTickets) and len(kept.action.keep) == 2
    assert kept.said.startswith("keeping ") and "–" in kept.said
    assert isinstance(played(interpret("keep all", ctx(setup))).action, KeepTickets)
    assert refused(interpret("keep 1", ctx(setup))) == "keep at least 2 tickets at the start of the game"
    assert refused(interpret("keep 9", ctx(setup))).endswith("keep takes numbers from 1 to 4")
    assert "first keep at least 2 of the tickets offered" in refused(interpret("draw", ctx(setup)))
    assert "no tickets to choose from" in refused(interpret("keep 1", ctx(state)))


def test_stations() -> None:
    state, _ = position(3, hands={0: ["red", "blue"]}, stations={1: ["Wien"]})
    asked = interpret("station Roma", ctx(state))
    assert isinstance(asked, Ask)  # red or blue
    built = played(interpret("station Roma with blue", ctx(state)))
    assert isinstance(built.action, BuildStation) and built.action.city == "Roma"
    assert refused(interpret("station Wien", ctx(state))) == "Wien already has Bob's station"
    assert "your first station costs 1 card" in refused(interpret("station Roma with loco", ctx(state)))


def test_tunnels_pay_or_abandon() -> None:
    tunnel = first(lambda s: s.phase is Phase.TUNNEL)
    pays = legal_actions(view_for(tunnel, 0), 0, PayTunnel)
    outcome = interpret("pay", ctx(tunnel))
    if pays:
        assert isinstance(outcome, (Play, Ask))
    else:
        assert "the tunnel asks for" in refused(outcome)
    assert played(interpret("abandon", ctx(tunnel))).action == AbandonTunnel(0)
    assert "first pay for the tunnel or give it up" in refused(interpret("draw", ctx(tunnel)))
    state, _ = position(3)
    assert refused(interpret("pay", ctx(state))) == "there is no tunnel to pay for"


# ------------------------------------------------------------------ the rest


def test_paths_help_rules_and_leaving() -> None:
    state, _ = position(3, tickets={0: [0]})
    way = interpret("path 1", ctx(state))
    assert isinstance(way, ShowWay) and way.routes and "to go" in way.lines[0]
    ticket = BOARD.tickets[0]
    assert way.lines[0].startswith(f"{ticket.a}–{ticket.b} ({ticket.points})")
    assert interpret("path off", ctx(state)) == ShowWay(frozenset(), ("the path is no longer shown",))
    assert "ticket number from 1 to 1" in refused(interpret("path 7", ctx(state)))
    helped = interpret("help", ctx(state))
    assert isinstance(helped, Show)
    assert "claim Essen Berlin with 2 blue 2 loco" in "\n".join(lay_out(helped.lines, 200))
    assert isinstance(interpret("help claim", ctx(state)), Show)
    rules = interpret("rules", ctx(state))
    assert isinstance(rules, Show) and "European Express" in "\n".join(lay_out(rules.lines, 100))
    assert isinstance(interpret("show", ctx(state)), Redraw)

    leave = interpret("quit", ctx(state))
    assert isinstance(leave, Ask) and [c.key for c in leave.choices] == ["end", "forfeit", "cancel"]
    assert answer(leave, "forfeit") == Leave(True) and answer(leave, "end") == Leave(False)
    host_leave = interpret("quit", ctx(state, hosting=True))  # the host forfeits like anyone: the relay moves
    assert isinstance(host_leave, Ask) and [c.key for c in host_leave.choices] == ["end", "forfeit", "cancel"]
    assert "stop for everyone" in host_leave.prompt() and "stop for everyone" not in leave.prompt()
    assert len(leave.prompt()) <= 100 and len(host_leave.prompt()) <= 100  # one line of the smallest screen
    assert isinstance(interpret("forfeit", ctx(state, hosting=True)), Ask)
    # A typed forfeit cannot be taken back: it asks, and only `forfeit` again (or 1) leaves.
    sure = interpret("forfeit", ctx(state))
    assert isinstance(sure, Ask) and sure.question.startswith("Forfeit for good?")
    # In a 2-player game the question says the game ends (nobody plays the seat on).
    assert ("game ends" in sure.question) == (state.n_players == 2) and len(sure.prompt()) <= 100
    two, _ = position()  # a 2-player game
    ends = interpret("forfeit", ctx(two))
    assert isinstance(ends, Ask) and "The game ends, conceded to the other" in ends.question
    assert len(ends.prompt()) <= 100
    assert [c.key for c in sure.choices] == ["forfeit", "cancel"] and len(sure.prompt()) <= 100
    assert interpret("forfeit", ctx(state), sure) == Leave(True) and answer(sure, "1") == Leave(True)
    assert interpret("no", ctx(state), sure) == Note("cancelled")
    assert interpret("draw", ctx(state), sure) == interpret("draw", ctx(state))  # another command: not left
    assert interpret("end", ctx(state)) == Leave(False)  # end stays at once: it can be resumed
    lobby = Context(None, None, ())
    assert refused(interpret("draw", lobby)) == "the game has not started yet"
    assert interpret("end", lobby) == Leave(False)


def test_pass_is_offered_only_when_nothing_else_can_be_done() -> None:
    nothing = {"face_up": [None] * 5, "draw_pile": [], "discard": [], "ticket_pile": []}
    state, _ = position(hands={0: ["red", "red"]}, **nothing)
    assert "can still be claimed" in refused(interpret("pass", ctx(state)))
    assert "can still be drawn" in refused(interpret("pass", ctx(position()[0])))
    stuck, _ = position(hands={0: ["red"]}, trains={0: 0}, stations={0: ["Paris", "Wien", "Roma"]}, **nothing)
    assert played(interpret("pass", ctx(stuck))).action == Pass(0)
    assert find_verb("pass") is not None and find_verb("pas") == find_verb("pass")


def test_path_borrows_through_stations_and_counts_the_trains_left() -> None:
    """A station lends one rival route into its city (as the score counts it);
    a ticket whose shortest way needs more trains than are left is lost."""
    angora = [r.id for r in BOARD.routes if "Angora" in r.cities]
    taken = {r: 1 for r in angora}
    state, _ = position(3, tickets={0: [0]}, owners=taken)  # Athina–Angora, every route into Angora Bob's
    lost = interpret("path 1", ctx(state))
    assert isinstance(lost, ShowWay) and "can no longer be finished" in lost.lines[0]
    with_station, _ = position(3, tickets={0: [0]}, owners=taken, stations={0: ["Angora"]})
    way = interpret("path 1", ctx(with_station))
    assert isinstance(way, ShowWay) and "your station in Angora borrows" in way.lines[0]
    assert len(way.routes & set(angora)) == 1  # one loan per station
    short, _ = position(3, tickets={0: [0]}, trains={0: 1})
    line = interpret("path 1", ctx(short))
    assert isinstance(line, ShowWay)
    assert re.search(r"can no longer be finished: the shortest way needs \d+ trains and you have 1 left", line.lines[0])


def test_a_misspelt_city_gets_the_map_s_spelling_suggested() -> None:
    """As `ttr score` does (the same function: Board.city_spelt_like)."""
    state, _ = position(3)
    assert "no single city matches 'Muenchen': the map spells it Munchen?" in refused(
        interpret("claim Muenchen Wien", ctx(state)))
    assert "the map spells it Wien?" in refused(interpret("station Wein", ctx(state)))
    assert "the map spells it Budapest?" in refused(interpret("path Budapst Wien", ctx(state)))
    assert "there is no such city on the map" in refused(interpret("claim Nowhere Paris", ctx(state)))
