"""What a United Kingdom technology that no planned route needs is worth to a
bot, in points, against the cards it costs (engine/technologies.py has the rules).

A bot buys the technologies its plan's routes need first (``techbuying.py``);
the others pay in points or in cards, and this module prices them from an
``Outlook`` of the bot's game left: Boiler Lagging a point a route still to
claim, Steam Turbines two a ferry of the plan, Double Heading two a ticket
it expects to complete, Diesel Power a card saved a claim, Water Tenders
part of a card a drawing turn, the Thermocompressor a turn saved when two
of its targets are payable at once, Risky Contracts and the Equalising Beam
their 20 or 15 points won or lost by the bot's chance of the most tickets
or the longest trail. Against that, the cards the price takes: a card is
worth about what it scores, a real locomotive two (face up it takes a whole
draw), and a card the plan still needs a little more (its route waits).
Right of Way has a module of its own (``rightofway.py``: a route taken
back is worth what the plan gains with it). The Booster ("any 3 cards as a
Locomotive instead of the usual 4") saves a card each locomotive the bot
still pays with other cards: the technologies its plan still needs and its
planned ferries' locomotives, less the locomotives it holds and expects to
draw (``booster_savings``). It pays only before the purchases it makes
cheaper, so the hard bot weighs it before buying what its plan needs
(hard.py); once those are bought it saves next to nothing.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from p2p_ttr.engine.board import LOCOMOTIVE
from p2p_ttr.engine.events import BuyTechnology
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.scoring import longest_trail
from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.technologies import (
    BEAM_POINTS,
    DOUBLE_HEADING_POINTS,
    LAGGING_POINTS,
    RISKY_POINTS,
    TURBINE_POINTS,
    missing_technology_problem,
    technology_cards,
)
from p2p_ttr.engine.techstate import (
    BOILER_LAGGING,
    BOOSTER,
    DIESEL_POWER,
    DOUBLE_HEADING,
    EQUALISING_BEAM,
    RISKY_CONTRACTS,
    STEAM_TURBINES,
    THERMOCOMPRESSOR,
    WATER_TENDERS,
)

from .planning import CARDS_PER_DRAW_TURN, missing_cards
from .techbuying import missing_technologies

# A train card is worth about what it scores: a two-player game of 35 trains
# scores some 90 points over some 35 turns, half of them drawing two cards.
CARD_POINTS = 1.3
# A real locomotive counts as two cards: taken face up it is the whole draw.
LOCOMOTIVE_CARDS = 2.0
# A card paid that the plan still needs costs this much more (its route waits for another).
PLAN_CARD_EXTRA = 0.5
# What a purchase must promise above its price, for the error in these estimates.
BUY_MARGIN = 2.0
# Cars of the average route claimed with spare trains (the UK's routes are short).
SPARE_ROUTE_CARS = 2.5
# Of the turns left, about this share draw cards (the others claim).
DRAW_SHARE = 0.5
# Water Tenders: three blind cards instead of two chosen from the row gain
# about this much of a card a drawing turn (a blind card serves the plan less).
WATER_CARD_GAIN = 0.5
# Risky Contracts and the Equalising Beam: a rival completes this share of
# the tickets it holds; its longest trail ends near this share of its trains;
# the spread of the margins in tickets and in cars (a logistic's scale).
RIVAL_COMPLETION = 0.75
RIVAL_TRAIL_SHARE = 0.45
TICKET_SPREAD = 1.0
TRAIL_SPREAD = 3.0

# What the bots weigh: those scoring as the game is played (the medium bot's), and every one priced here (hard's).
SCORING_TECHNOLOGIES = frozenset({BOILER_LAGGING, STEAM_TURBINES, DOUBLE_HEADING})
PRICED_TECHNOLOGIES = SCORING_TECHNOLOGIES | {DIESEL_POWER, WATER_TENDERS, THERMOCOMPRESSOR, RISKY_CONTRACTS,
                                              EQUALISING_BEAM, BOOSTER}


@dataclass(frozen=True, slots=True)
class Outlook:
    """The bot's game left, as a technology's worth reads it."""

    routes: tuple[int, ...]  # the plan's routes still to claim
    claims_left: float  # claims it expects to make, spare routes included
    tickets_done: int  # tickets it expects to complete (done and planned)
    draw_turns: float  # turns it expects to spend drawing cards
    targets: tuple[int, ...]  # the routes it works towards, most urgent first


def outlook(view: GameState, player: int, routes: Sequence[int], tickets_done: int, turns: float,
            targets: Sequence[int]) -> Outlook:
    """``player``'s outlook with ``routes`` still to claim for ``tickets_done``
    tickets and about ``turns`` turns left: the plan's claims, then spare
    trains spent on short routes, as many as half the turns allow."""
    me = view.players[player]
    board = view.game.board
    planned = sum(board.routes[r].cars for r in routes)
    spare = max(0, me.trains - planned - view.game.rules.last_round_trains) / SPARE_ROUTE_CARS
    claims = min(len(routes) + spare, max(float(len(routes)), (1.0 - DRAW_SHARE) * turns))
    return Outlook(tuple(routes), claims, tickets_done, max(0.0, turns - claims), tuple(targets))


def diesel_savings(game: Game, o: Outlook) -> float:
    """Cards Diesel Power saves: one a planned claim it may shorten (not below
    1 card nor its ferry's locomotives), and half one a spare claim."""
    routes = game.board.routes
    planned = sum(routes[r].length - 1 >= max(1, routes[r].ferry_locomotives) for r in o.routes)
    return planned + 0.5 * max(0.0, o.claims_left - len(o.routes))


def booster_savings(view: GameState, player: int, o: Outlook, hand_after: Mapping[str, int]) -> float:
    """Cards the Booster saves: one a locomotive the bot will pay with other
    cards, for the technologies its plan still needs and its planned
    ferries, beyond the locomotives it holds (after the price) and expects
    to draw (the deck's share of them, a drawing turn's cards)."""
    game = view.game
    costs = technology_cards(game)
    needed = sum(costs[name].cost for name in missing_technologies(view, player, o.routes) if name in costs)
    ferries = sum(game.board.routes[r].ferry_locomotives for r in o.routes)
    kinds = game.board.card_kinds
    drawn = kinds.count(LOCOMOTIVE) / max(1, len(kinds)) * CARDS_PER_DRAW_TURN * o.draw_turns
    return max(0.0, needed + ferries - hand_after.get(LOCOMOTIVE, 0) - drawn)


def two_claims_after(view: GameState, player: int, o: Outlook, hand: Mapping[str, int]) -> bool:
    """Whether ``hand`` (after paying a price) claims two of the bot's first targets in one turn."""
    game = view.game
    ready = [r for r in o.targets[:4] if view.route_owner[r] is None
             and missing_technology_problem(view, player, game.board.routes[r]) is None]
    return any(missing_cards(game, pair, hand) == 0 for pair in combinations(ready, 2))


def chance_ahead(margin: float, spread: float) -> float:
    """The chance of being ahead (a tie counting as ahead) by an expected ``margin``."""
    return 1.0 / (1.0 + math.exp(-(margin + 0.5) / spread))


def risky_chance(view: GameState, player: int, o: Outlook) -> float:
    """The chance of completing the most tickets: the bot's expected against
    each rival's share of the tickets it holds (a public count)."""
    rival = max(RIVAL_COMPLETION * len(ps.tickets) for q, ps in enumerate(view.players) if q != player)
    return chance_ahead(o.tickets_done - rival, TICKET_SPREAD)


def beam_chance(view: GameState, player: int, o: Outlook) -> float:
    """The chance of the longest trail: the bot's over its routes and plan,
    against each rival's now or the share of its trains such a trail reaches."""
    board = view.game.board
    trains = view.game.rules.trains
    mine = longest_trail(board, view.players[player].routes + o.routes)
    rival = max(max(longest_trail(board, ps.routes), RIVAL_TRAIL_SHARE * trains)
                for q, ps in enumerate(view.players) if q != player)
    return chance_ahead(mine - rival, TRAIL_SPREAD)


def technology_worth(view: GameState, player: int, name: str, o: Outlook, hand_after: Mapping[str, int]) -> float:
    """What holding ``name`` adds to ``player``'s score by the end, in points
    (0 for what the plan's needs buy and Right of Way)."""
    if name == BOILER_LAGGING:
        return LAGGING_POINTS * o.claims_left
    if name == STEAM_TURBINES:
        return float(TURBINE_POINTS * sum(view.game.board.routes[r].ferry_locomotives > 0 for r in o.routes))
    if name == DOUBLE_HEADING:
        return float(DOUBLE_HEADING_POINTS * o.tickets_done)
    if name == DIESEL_POWER:
        return CARD_POINTS * diesel_savings(view.game, o)
    if name == WATER_TENDERS:
        return CARD_POINTS * WATER_CARD_GAIN * o.draw_turns
    if name == BOOSTER:
        return CARD_POINTS * booster_savings(view, player, o, hand_after)
    if name == THERMOCOMPRESSOR:
        return 2 * CARD_POINTS if two_claims_after(view, player, o, hand_after) else 0.0
    if name == RISKY_CONTRACTS:
        return RISKY_POINTS * (2 * risky_chance(view, player, o) - 1)
    if name == EQUALISING_BEAM:
        return BEAM_POINTS * (2 * beam_chance(view, player, o) - 1)
    return 0.0


def paid_from(view: GameState, hand: Mapping[str, int], buy: BuyTechnology) -> Counter[str]:
    """``hand`` once ``buy``'s cards are paid."""
    left = Counter(hand)
    kinds = view.game.board.card_kinds
    for ref in buy.cards:
        face = view.face(ref)
        if face is not None:
            left[kinds[face]] -= 1
    return left


def price(view: GameState, o: Outlook, hand: Mapping[str, int], buy: BuyTechnology) -> float:
    """What ``buy``'s cards are worth, in points: each card, a real locomotive
    as two, and a little more for each card the plan then lacks."""
    left = paid_from(view, hand, buy)
    cards = sum(LOCOMOTIVE_CARDS if kind == LOCOMOTIVE else 1.0 for kind, n in (Counter(hand) - left).items()
                for _ in range(n))
    game = view.game
    delay = missing_cards(game, o.routes, left) - missing_cards(game, o.routes, hand)
    return CARD_POINTS * (cards + PLAN_CARD_EXTRA * delay)


def worth_buying(view: GameState, player: int, o: Outlook, hand: Mapping[str, int],
                 among: frozenset[str]) -> BuyTechnology | None:
    """The purchase of one of ``among`` that adds most over its price, if
    any adds ``BUY_MARGIN`` (ties: the fewer cards, then the table's order)."""
    best: tuple[float, int] | None = None
    chosen: BuyTechnology | None = None
    for buy in legal_actions(view, player, only=BuyTechnology):
        if not isinstance(buy, BuyTechnology) or buy.technology not in among:
            continue
        gain = technology_worth(view, player, buy.technology, o, paid_from(view, hand, buy)) - price(
            view, o, hand, buy)
        if gain >= BUY_MARGIN and (best is None or (gain, -len(buy.cards)) > best):
            best, chosen = (gain, -len(buy.cards)), buy
    return chosen
