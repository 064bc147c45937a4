"""The panel's sections and `show`'s page: what the player can do with the
hand they hold, and the cards of a seat that left."""

from __future__ import annotations

from dataclasses import replace

from client_states import NAMES
from engine_scenario import position

from p2p_ttr.client.claimable import claimable
from p2p_ttr.client.verbs import complete
from p2p_ttr.client.outcomes import Context
from p2p_ttr.client.overview import overview
from p2p_ttr.client.panel import claim_lines, forfeited_lines, players_lines, ticket_lines
from p2p_ttr.client.verbs import interpret
from p2p_ttr.client.styled import plain, text_of
from p2p_ttr.engine.view import view_for


def test_the_routes_the_hand_pays_for_come_with_the_tickets_they_serve() -> None:
    # Ticket 1 is Budapest–Sofia, by way of Budapest–Sarajevo (purple 3). Listed on Bob's turn too.
    state, _ = position(3, hands={0: ["purple"] * 3}, tickets={0: [1]}, current=1)
    view = view_for(state, 0)
    found = claimable(view, 0)
    names = {(c.route.a, c.route.b): c for c in found}
    assert ("Budapest", "Sarajevo") in names and names[("Budapest", "Sarajevo")].tickets == (1,)
    assert found[0].tickets  # the ones that serve a ticket first
    assert all(c.route.color in ("purple", "gray") and c.route.length <= 3 for c in found)
    text = plain(claim_lines(view, 0, 40, 30))
    assert "YOUR HAND PAYS FOR" in text and "Budapest–Sarajevo purple 3 → #1" in text
    few = claim_lines(view, 0, 45, 4)
    assert len(few) == 4 and plain(few).startswith(f"YOUR HAND PAYS FOR 3 of {len(found)}: show lists all") and "Budapest–Sarajevo" in plain(few)
    narrow = claim_lines(view, 0, 35, 3)  # 100x30's: the title says how many more, the rows go to routes
    assert len(narrow) == 3 and plain(narrow).splitlines()[0] == f"YOUR HAND PAYS FOR 2 of {len(found)}: show"
    page = "\n".join(overview(view, 0, NAMES, ()))
    assert "Budapest–Sofia (5): " in page and "Budapest–Sarajevo (purple 3, 4 points)  → ticket 1" in page


def test_a_lost_ticket_is_marked() -> None:
    state, _ = position(3, tickets={0: [0, 1]}, trains={0: 1})
    text = plain(ticket_lines(view_for(state, 0), 0, 40, 10))
    assert "✗ Athina–Angora (5)" in text and "✗ Budapest–Sofia (5)" in text


def test_a_forfeited_seat_shows_its_hand_and_tickets() -> None:
    state, _ = position(3, hands={0: ["red"], 2: ["blue", "blue", "locomotive"]}, tickets={2: [2]})
    # The table opened Cid's cards for everyone when Cid forfeited.
    ps = state.players[2]
    opened = replace(state, public={**state.public, **{r: state.private[r] for r in ps.hand + ps.tickets}})
    view = view_for(opened, 0)
    text = plain(forfeited_lines(view, 0, NAMES, (2,), 60))
    assert "CID LEFT: hand 2 blue and a locomotive" in text and "tickets: Frankfurt–Kobenhavn (5)" in text
    assert "CID LEFT" in "\n".join(overview(view, 0, NAMES, (2,)))


def test_tab_offers_the_answers_to_the_question_asked() -> None:
    state, _ = position(3, hands={0: ["orange"] * 3 + ["white"] * 3})
    view = view_for(state, 0)
    asked = interpret("claim Paris Frankfurt", Context(view, 0, NAMES))
    context = Context(view, 0, NAMES, asked=asked)  # type: ignore[arg-type]
    offered = {s.text: s.meta for s in complete("", context)}
    assert offered["1"] == "orange side, 3 orange" and offered["2"] == "white side, 3 white"
    assert offered["cancel"] == "never mind" and "claim" in offered
    assert [s.text for s in complete("ca", context)] == ["cancel"]


def test_a_seat_that_left_keeps_its_name_where_the_row_is_narrow() -> None:
    """'2 blue left' said which seat left but not who, and 'C left' hardly
    more: the name stays whole, 'left' takes the colour's place."""
    from p2p_ttr.client.panel import _who

    state, _ = position(3)
    names = ("Ann", "Chiara", "Cid")
    wide = [text_of(line) for line in players_lines(view_for(state, 0), 0, names, 60, (1,))]
    assert wide[2].startswith(" 2 blue   Chiara (left)")
    narrow = [text_of(line) for line in players_lines(view_for(state, 0), 0, names, 35, (1,))]
    assert narrow[2].startswith(" 2 left   Chiara ") and narrow[3].startswith(" 3 green  Cid ")
    assert _who("Chiara", "you", 8) == "you"
    assert _who("Chiara", "", 4) == "Chia"
