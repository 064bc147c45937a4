"""The client's words for Mega Europe's first offer: two long tickets and five
regular ones, of which at least three are kept and at most one long ticket
(shared/rules/other_boards.txt, "Mega Europe"); the panel, the status line,
a refusal and the rules page say so."""

from __future__ import annotations

from p2p_ttr.client.helptext import rules_page
from p2p_ttr.client.outcomes import Context, Play, Refuse
from p2p_ttr.client.pagetext import lay_out
from p2p_ttr.client.panel import offered_lines
from p2p_ttr.client.phrases import what_now
from p2p_ttr.client.styled import text_of
from p2p_ttr.client.verbs import interpret
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.cards import Deck
from p2p_ttr.engine.rules import apply, new_game
from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.view import view_for
from p2p_ttr.local.dealer import LocalDealer

MEGA = load_game("europe", "mega")


def first_offer() -> GameState:
    """A 2-player Mega Europe game at its first ticket choice, each player's cards shown to them."""
    state, dealer = new_game(MEGA, 2), LocalDealer(4)
    while (chance := dealer.answer(state)) is not None:
        state = apply(state, chance)
    for peek in dealer.peeks(state):
        state = apply(state, peek)
    return state


def test_the_first_offer_says_at_most_one_long_ticket_may_be_kept() -> None:
    view = view_for(first_offer(), 0)
    assert [r.deck for r in view.players[0].offered[:2]] == [Deck.LONG, Deck.LONG]  # offered 1 and 2
    assert text_of(offered_lines(view, 0, 80)[0]) == "OFFERED  keep 3 or more, at most one long: keep N N..."
    assert what_now(view, 0) == "keep at least 3 of your first tickets, at most one long (keep N N ...)"
    ctx = Context(view, 0, ("Ann", "Bob"))
    refused = interpret("keep 1 2 3", ctx)
    assert isinstance(refused, Refuse)
    assert refused.reason == "keep at least 3 tickets at the start of the game, at most one long"
    assert isinstance(interpret("keep 1 3 4", ctx), Play)
    assert isinstance(interpret("keep 3 4 5", ctx), Play)


def test_the_rules_page_says_how_many_long_tickets_may_be_kept() -> None:
    said = " ".join(" ".join(lay_out(rules_page(MEGA), 100)).split())
    assert ("draw three destination tickets and keep at least one (at the start: keep at least three of the seven "
            "dealt, at most one of the two long);") in said
