"""The client on the United Kingdom: the technologies every seat holds on
the panel, the buy command (by any beginnings of a technology's words, the
hand's ways to pay asked), a claim paid with any 4 cards for a locomotive,
a refusal that names the missing technology, and the rules page."""

from __future__ import annotations

from dataclasses import replace

from client_states import states_of

from p2p_ttr.client.outcomes import Ask, Context, Play, Refuse, Show
from p2p_ttr.client.pagetext import lay_out
from p2p_ttr.client.screen import ScreenModel, render
from p2p_ttr.client.snapshot import Snapshot
from p2p_ttr.client.styled import text_of
from p2p_ttr.client.verbs import complete, interpret
from p2p_ttr.client.watchscreen import WatchModel, screen_text
from p2p_ttr.engine.board import LOCOMOTIVE
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.events import BuyTechnology, ClaimRoute, DrawThreeBlind, FinishTurn
from p2p_ttr.engine.rules import apply
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.technologies import holdings_at_start
from p2p_ttr.engine.techstate import BOOSTER, MECHANICAL_STOKER, SCOTLAND, WALES, WATER_TENDERS

UK = load_game("uk")
ADVANCED = load_game("uk", "advanced")
NAMES = ("Ann", "Bob")


def uk_view(hand: list[str], held: tuple[tuple[str, ...], ...] = ((), ()), game: Game = UK) -> GameState:
    """Seat 0 to play the first turn of a real game (the first 2 seats of 3 named), holding ``hand``
    (cards of a later epoch, their faces its own) and the technologies ``held``."""
    start = next(s for s in states_of(game, 4) if s.phase is Phase.TURN and not s.steps and s.awaiting is None)
    board = UK.board
    free = {kind: [c for c in range(board.n_cards) if board.card_kind(c) == kind] for kind in set(hand)}
    refs = tuple(CardRef(Deck.TRAIN, 9, i) for i in range(len(hand)))
    faces = {ref: free[kind].pop() for ref, kind in zip(refs, hand)}
    players = (replace(start.players[0], hand=refs), *start.players[1:])
    tech = holdings_at_start(game, 3)
    assert tech is not None
    return start.evolve(players=players, private=faces, current=0, cards_drawn=0, route_owner=(None,) * len(
        board.routes), technologies=replace(tech, held=held + ((),), earned=(3, 0, 0)))


def said(view: GameState, line: str) -> object:
    return interpret(line, Context(view, 0, NAMES))


def test_the_panel_shows_every_seat_s_technologies() -> None:
    view = uk_view(["red"], ((WALES, MECHANICAL_STOKER), (BOOSTER,)))
    text = "\n".join(text_of(line) for line in render(ScreenModel(Snapshot(seat=0, names=NAMES, view=view)), 160, 48))
    assert "TECHNOLOGIES" in text
    assert "1 Ann: Wales Concession, Mechanical Stoker (+3)" in text
    assert "2 Bob: Booster" in text
    watched = screen_text(WatchModel(Snapshot(names=NAMES, view=view), keys="q leaves"), 160, 48)
    assert "1 Ann: Wales Concession, Mechanical Stoker (+3)" in watched  # public: a watcher sees them too


def test_buy_finds_a_technology_by_the_beginnings_of_its_words() -> None:
    view = uk_view([LOCOMOTIVE, "red"])
    bought = said(view, "buy wales")
    assert isinstance(bought, Play) and bought.action == BuyTechnology(0, WALES, view.players[0].hand[:1])
    assert bought.said == "buying Wales Concession with a locomotive"
    assert isinstance(said(view, "buy scot conc"), Play)
    both = said(view, "buy boiler")
    assert isinstance(both, Refuse) and "Superheated Steam Boiler or Boiler Lagging: say which" in both.reason
    unknown = said(view, "buy telegraph")
    assert isinstance(unknown, Refuse) and "there is no technology 'telegraph' on this table" in unknown.reason


def test_buy_asks_how_to_pay_when_the_hand_pays_two_ways_and_says_why_it_cannot() -> None:
    view = uk_view([LOCOMOTIVE, "red", "red", "blue", "green"])
    asked = said(view, "buy scotland")
    assert isinstance(asked, Ask) and asked.question == "How do you pay for Scotland Concession (1 locomotive)?"
    assert [c.label for c in asked.choices[:2]] == ["a locomotive", "1 blue, 1 green and 2 red"]
    poor = uk_view(["red", "red"])
    refused = said(poor, "buy propellers")
    assert isinstance(refused, Refuse) and "Propellers costs 2 locomotives (each one, or 4 cards of any kind)" in (
        refused.reason)
    held = uk_view([LOCOMOTIVE], ((SCOTLAND,), ()))
    again = said(held, "buy scotland")
    assert isinstance(again, Refuse) and "you hold Scotland Concession already" in again.reason


def test_tab_after_buy_offers_the_technologies_with_their_price() -> None:
    view = uk_view([LOCOMOTIVE])
    offered = {s.text: s.meta for s in complete("buy ", Context(view, 0, NAMES))}
    assert offered["Superheated Steam Boiler"] == "2 locomotives, 4 left"
    assert offered["Right of Way"] == "4 locomotives, 1 left"


def test_a_claim_paid_with_four_cards_for_a_locomotive() -> None:
    view = uk_view(["blue", "green", "white", "black"])
    claimed = said(view, "claim barrow carlisle")
    assert isinstance(claimed, Play) and isinstance(claimed.action, ClaimRoute)
    assert claimed.said == "claiming Barrow–Carlisle (red, 1) with 1 black 1 blue 1 green 1 white standing in"


def test_a_claim_without_its_technology_says_which_is_missing() -> None:
    view = uk_view(["white"])
    refused = said(view, "claim aberdeen dundee")
    assert isinstance(refused, Refuse) and refused.reason == (
        "Aberdeen–Dundee (white, 1) needs Scotland Concession: buy it before your turn's action (buy)")


def test_the_rules_page_says_the_technologies_and_the_four_cards() -> None:
    shown = said(uk_view(["red"]), "rules")
    assert isinstance(shown, Show)
    text = " ".join(" ".join(lay_out(shown.lines, 100)).split())
    assert "any four cards may be paid as one locomotive" in text
    assert "before your turn's action you may buy one technology (buy)" in text


def test_draw3_and_done_are_the_advanced_technologies_commands() -> None:
    tenders = uk_view(["red"], ((WATER_TENDERS,), ()), game=ADVANCED)
    drawn = said(tenders, "draw3")
    assert isinstance(drawn, Play) and drawn.action == DrawThreeBlind(0)
    refused = said(uk_view(["red"], game=ADVANCED), "draw3")
    assert isinstance(refused, Refuse) and "only a holder of Water Tenders draws three blind" in refused.reason
    assert isinstance(said(uk_view(["red"]), "draw3"), Refuse)  # not a command of the regular game
    thermo = uk_view([LOCOMOTIVE, "red", "green", "green"], game=ADVANCED)
    bought = play_on(thermo, said(thermo, "buy thermo"))
    once = play_on(bought, said(bought, "claim barrow carlisle"))
    done = said(once, "done")
    assert isinstance(done, Play) and done.action == FinishTurn(0)
    assert isinstance(said(thermo, "done"), Refuse)


def play_on(view: GameState, outcome: object) -> GameState:
    """The omniscient state after the move ``outcome`` plays (its cards' faces are this state's own)."""
    assert isinstance(outcome, Play), outcome
    return apply(view, outcome.action)
