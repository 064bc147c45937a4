"""The United Kingdom's technologies no route needs, as the bots weigh them
(bots/techvalue.py) and play them (Water Tenders' draw, the
Thermocompressor's second claim): decisions in constructed positions."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from positions import decision_points
from p2p_ttr.bots.hard import HardBot
from p2p_ttr.bots.medium import MediumBot
from p2p_ttr.bots.planning import plan_tickets, route_costs
from p2p_ttr.bots.rightofway import right_of_way_buy, taken_back_gain
from p2p_ttr.bots.techvalue import Outlook, booster_savings, diesel_savings, outlook, worth_buying
from p2p_ttr.engine.board import LOCOMOTIVE
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.events import BuyTechnology, ClaimRoute, DrawBlind, DrawThreeBlind, FinishTurn
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.rules import actors, apply
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.techstate import BOILER_LAGGING, DIESEL_POWER, RIGHT_OF_WAY, RISKY_CONTRACTS, WATER_TENDERS
from p2p_ttr.engine.technologies import route_needs
from p2p_ttr.engine.view import view_for

UK = load_game("uk")
ADVANCED = load_game("uk", "advanced")
BOARD = ADVANCED.board
EVERY_VALUED = HardBot.VALUED_TECHNOLOGIES


def refs(kinds: Sequence[str], epoch: int) -> tuple[tuple[CardRef, ...], dict[CardRef, int]]:
    """Train cards of these kinds (distinct card ids; an epoch of their own keeps them apart from the game's)."""
    used: Counter[str] = Counter()
    out: list[CardRef] = []
    faces: dict[CardRef, int] = {}
    for kind in kinds:
        ids = [c for c in range(BOARD.n_cards) if BOARD.card_kind(c) == kind]
        ref = CardRef(Deck.TRAIN, epoch, ids[used[kind]])
        used[kind] += 1
        out.append(ref)
        faces[ref] = ids[used[kind] - 1]
    return tuple(out), faces


def early_turn(hand: Sequence[str], row: Sequence[str] | None = None, held: tuple[str, ...] = (),
               game: Game = ADVANCED) -> GameState:
    """Seat 0's first turn of a seeded two-player game (of the advanced variant),
    with this hand (and this face-up row, and these technologies) instead."""
    state = next(s for s, _ in decision_points(2, seed=1, game=game)
                 if s.phase is Phase.TURN and actors(s)[0] == 0 and not s.cards_drawn)
    cards, faces = refs(hand, epoch=90)
    players = list(state.players)
    players[0] = replace(players[0], hand=cards)
    state = state.evolve(players=tuple(players), private={**state.private, **faces})
    if row is not None:
        shown, public = refs(row, epoch=91)
        state = state.evolve(face_up=shown, public={**state.public, **public})
    assert state.technologies is not None
    mine = (held,) + state.technologies.held[1:]
    return state.evolve(technologies=replace(state.technologies, held=mine))


def test_boiler_lagging_is_bought_while_many_claims_are_left_and_not_at_the_end() -> None:
    """Two locomotives buy Boiler Lagging: worth a point a claim, some 13
    claims early on, against two locomotives' worth of cards; three turns
    from the end the same price buys too few claims."""
    view = view_for(early_turn([LOCOMOTIVE, LOCOMOTIVE, "red"]), 0)
    hand = Counter({LOCOMOTIVE: 2, "red": 1})
    early = outlook(view, 0, (), 3, 30.0, ())
    buy = worth_buying(view, 0, early, hand, EVERY_VALUED)
    assert isinstance(buy, BuyTechnology) and buy.technology == BOILER_LAGGING
    late = outlook(view, 0, (), 3, 3.0, ())
    assert worth_buying(view, 0, late, hand, EVERY_VALUED) is None


def test_risky_contracts_follow_the_chance_of_the_most_completed_tickets() -> None:
    """Far ahead in tickets expected to complete, Risky Contracts' 20 points
    are all but sure and worth their price; behind, they are a loss."""
    view = view_for(early_turn([LOCOMOTIVE, LOCOMOTIVE, "red"]), 0)
    hand = Counter({LOCOMOTIVE: 2, "red": 1})
    rival = len(view.players[1].tickets)
    ahead = Outlook((), 0.0, rival + 4, 0.0, ())  # no claims left: nothing else is worth buying
    buy = worth_buying(view, 0, ahead, hand, EVERY_VALUED)
    assert isinstance(buy, BuyTechnology) and buy.technology == RISKY_CONTRACTS
    behind = Outlook((), 0.0, 0, 0.0, ())
    assert worth_buying(view, 0, behind, hand, EVERY_VALUED) is None


def test_diesel_power_saves_a_card_on_every_claim_it_may_shorten() -> None:
    """A 1-space route cannot be paid with no card, a 2-space ferry asking
    for two locomotives not with fewer; a 3-space route can; spare claims count half."""
    one = next(r.id for r in BOARD.routes if r.length == 1 and not r.ferry_locomotives)
    three = next(r.id for r in BOARD.routes if r.length == 3 and not r.ferry_locomotives)
    ferry = next((r.id for r in BOARD.routes if r.length == r.ferry_locomotives), None)
    routes = (one, three) + ((ferry,) if ferry is not None else ())
    assert diesel_savings(ADVANCED, Outlook(routes, len(routes) + 4.0, 0, 0.0, ())) == 1 + 0.5 * 4
    assert DIESEL_POWER in EVERY_VALUED


def test_with_water_tenders_three_blind_cards_beat_a_row_of_nothing_the_plan_needs() -> None:
    """A row of colours no target asks for: the holder of Water Tenders draws
    three blind, a bot without them draws blind as usual."""
    hand = ["red"]  # a red route of the targets needs one more red at least
    for held, expected in (((WATER_TENDERS,), DrawThreeBlind), ((), DrawBlind)):
        state = early_turn(hand, row=["purple", "purple", "blue", "blue", "orange"], held=held)
        bot = MediumBot(1)
        s = bot.situation(view_for(state, 0), 0)
        red = next(r.id for r in BOARD.routes if r.color == "red" and r.length >= 2 and state.route_owner[r.id] is None)
        s = replace(s, targets=(red,))
        assert isinstance(bot.draw_card(s, second=False), expected)


def test_the_thermocompressor_s_second_claim_or_the_turn_ends() -> None:
    """After the first of the Thermocompressor's claims the bot claims a
    target its hand pays for, and with nothing to pay ends the turn."""
    for hand in ([], [LOCOMOTIVE] * 6):
        state = early_turn(hand)
        assert state.technologies is not None
        state = state.evolve(technologies=replace(state.technologies, bought_turn=state.turn,
                                                  thermocompressor=True, second_claim=True))
        bot = HardBot(1)
        action = bot.choose(view_for(state, 0), 0)
        if hand:
            assert isinstance(action, ClaimRoute)
            apply(state, action)  # legal
        else:
            assert action == FinishTurn(0)


def ticket_between(a: str, b: str) -> int:
    return next(t.id for t in BOARD.regular_tickets if {t.a, t.b} == {a, b})


def dover_taken(hand: Sequence[str], tickets: Sequence[int]) -> GameState:
    """Seat 1 holds Dover-France (Dover), the one way into France, and
    Aberdeen-Dundee, far off; seat 0 holds every technology a route may
    need (and Boiler Lagging), and these tickets and cards."""
    dover = BOARD.routes_between("Dover", "France (Dover)")[0].id
    aberdeen = BOARD.routes_between("Aberdeen", "Dundee")[0].id
    every_need = tuple(dict.fromkeys(name for needs in route_needs(UK) for name in needs)) + (BOILER_LAGGING,)
    state = early_turn(hand, held=every_need, game=UK)
    owner = list(state.route_owner)
    owner[dover] = owner[aberdeen] = 1
    players = list(state.players)
    players[1] = replace(players[1], routes=players[1].routes + (dover, aberdeen), trains=players[1].trains - 3)
    refs = tuple(CardRef(Deck.TICKETS, 0, t - UK.card_ids(Deck.TICKETS).start) for t in tickets)
    players[0] = replace(players[0], tickets=refs)
    faces = {ref: t for ref, t in zip(refs, tickets)}
    return state.evolve(route_owner=tuple(owner), players=tuple(players), private={**state.private, **faces})


def test_right_of_way_takes_back_the_one_way_to_a_ticket_worth_its_price() -> None:
    """Glasgow-France (19 points) fails without Dover-France: taking that
    route back saves 38 points less the way to Dover, worth four
    locomotives; London-France (7) is not; nor is a route no ticket uses."""
    dover = BOARD.routes_between("Dover", "France (Dover)")[0].id
    glasgow, london = ticket_between("Glasgow", "France (Dover)"), ticket_between("London", "France (Dover)")
    hand = [LOCOMOTIVE] * 5 + ["red"]
    view = view_for(dover_taken(hand, (glasgow,)), 0)
    costs = route_costs(view, 0)
    ahead = outlook(view, 0, (), 0, 30.0, ())
    found = right_of_way_buy(view, 0, costs, (glasgow,), ahead, Counter(hand))
    assert found is not None and found[0].technology == RIGHT_OF_WAY and found[1] == dover
    assert right_of_way_buy(view, 0, costs, (london,), ahead, Counter(hand)) is None
    me = view.players[0]
    before = plan_tickets(UK, costs, (glasgow,), me.routes, me.trains)
    aberdeen = BOARD.routes_between("Aberdeen", "Dundee")[0].id
    assert taken_back_gain(view, 0, costs, (glasgow,), before, aberdeen) == 0.0


def test_the_hard_bot_buys_right_of_way_and_claims_the_route_that_turn() -> None:
    """The whole turn: the purchase, then the claim beside seat 1's trains."""
    glasgow = ticket_between("Glasgow", "France (Dover)")
    dover = BOARD.routes_between("Dover", "France (Dover)")[0].id
    state = dover_taken([LOCOMOTIVE] * 5 + ["red"], (glasgow,))
    bot = HardBot(1)
    buy = bot.choose(view_for(state, 0), 0)
    assert isinstance(buy, BuyTechnology) and buy.technology == RIGHT_OF_WAY
    state = apply(state, buy)
    claim = bot.choose(view_for(state, 0), 0)
    assert isinstance(claim, ClaimRoute) and claim.route == dover
    apply(state, claim)  # legal


def test_the_booster_saves_a_card_a_locomotive_still_paid_with_other_cards() -> None:
    """A ferry needing Propellers (two locomotives) and its own locomotive,
    a route needing the Superheated Steam Boiler (two): five locomotives,
    each beyond the one held a card saved; with both held, the ferry's alone."""
    needs = route_needs(ADVANCED)
    ferry = next(r for r in BOARD.routes if r.ferry_locomotives == 1 and needs[r.id] == ("Propellers",))
    long = next(r for r in BOARD.routes if needs[r.id] == ("Superheated Steam Boiler",))
    ahead = Outlook((ferry.id, long.id), 2.0, 0, 0.0, ())
    one = Counter({LOCOMOTIVE: 1})
    assert booster_savings(view_for(early_turn([LOCOMOTIVE, "red"]), 0), 0, ahead, one) == 4
    bought = early_turn([LOCOMOTIVE, "red"], held=("Propellers", "Superheated Steam Boiler"))
    assert booster_savings(view_for(bought, 0), 0, ahead, one) == 0
    assert booster_savings(view_for(bought, 0), 0, ahead, Counter()) == 1
