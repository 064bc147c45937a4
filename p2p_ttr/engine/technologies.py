"""The United Kingdom's technologies (rules summary, "United Kingdom"):

- "At the beginning of the game, players can only claim 1 and 2 space
  routes, they can't claim ferries and they can only claim routes in
  England. However, through technologies, abilities can be improved.
  Technologies can be combined! Exception: Southampton - New York is always
  available!" The technologies each route needs are the data's
  ``technologies_required`` (its ends' regions, its length, a ferry), read
  here; ``missing_technology_problem`` is their check, which ``rules.claim_problem``
  asks.
- "Before a player takes their turn, they may discard Locomotives required
  (upper right corner) to buy 1 technology": one a turn, before the turn's
  action (no card drawn yet), paid in locomotives, each of which any 4
  cards may stand for (3 with the Booster: ``cards_paid_per_locomotive``,
  ``payments.locomotives_payment_problem``). A player holds each
  technology once; the table has the data's ``copies`` of each.
- Boiler Lagging and Steam Turbines score as the routes are laid
  (``after_claim``); Double Heading scores at the end (``technology_end_parts``).
- Right of Way serves one claim, that very turn, of a route another player
  holds: the route is paid and scored as usual, the trains go beside the
  other's, and the card goes back to the table (``after_claim``).

The advanced technologies (the ``advanced`` variant):

- Thermocompressor: "Claim 2 routes this turn, then return this card to
  the table": its turn's first claim leaves the turn open for a second
  claim or ``finish_turn`` and nothing else (``second_claim_problem``).
- Water Tenders: "When Drawing Train Cards, draw 3 blindly instead of the
  regular 2": the ``draw_three_blind`` action (``draw_three_problem``).
- Risky Contracts and Equalising Beam: +20/-20 for having the most
  completed tickets or not, +15/-15 for the longest trail or not (a tie
  counts as having it), at the end.
- Diesel Power: "When claiming a route, may play 1 less card (max 1), can't
  ignore Locomotives on Ferries": a claim may pay for the route one space
  shorter, never fewer cards than its ferry's locomotives, nor none
  (``payable_as``).

The slice of the state is ``state.technologies`` (``techstate.py``): every
technology a player holds is public.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache

from .board import LOCOMOTIVE, Route, read_board_data
from .boards import BOARDS
from .cards import CardRef
from .events import Action, BuyTechnology, ClaimRoute, DrawThreeBlind, Event, FinishTurn
from .game import Game
from .mechanic import AfterClaim, ClaimTaken, Handles, Mechanic, Then, TurnFlow
from .payments import locomotives_payment_problem
from .scoring import PlayerScore, ScorePart
from .state import GameState, Phase, StepDeal, StepEndTurn
from .turnkit import discarded_from_hand, expect, expect_in_hand, kinds_of, push, refuse
from .techstate import (
    BOILER_LAGGING,
    BOOSTER,
    DIESEL_POWER,
    DOUBLE_HEADING,
    EQUALISING_BEAM,
    RIGHT_OF_WAY,
    RISKY_CONTRACTS,
    STEAM_TURBINES,
    THERMOCOMPRESSOR,
    WATER_TENDERS,
    TechnologyHoldings,
)

BOOSTED_CARDS_PER_LOCOMOTIVE = 3  # "Boosters - Can use any 3 cards as a Locomotive instead of the usual 4"
LAGGING_POINTS = 1  # "Earn 1 extra point for every route claimed"
TURBINE_POINTS = 2  # "Earn 2 extra points for every Ferry you claim"
DOUBLE_HEADING_POINTS = 2  # "Earn 2 extra points for every ticket you complete at the end of the game"
RISKY_POINTS = 20  # "Score 20 points (or lose 20 points) if you have the most completed tickets (or not)"
BEAM_POINTS = 15  # "Score 15 points (or lose 15 points) if you have the Longest Train at the end (or not)"
THREE_BLIND = 3  # Water Tenders: "draw 3 blindly instead of the regular 2"
# "Can only buy this card BEFORE the first shuffle of the Train Card deck. After that, this technology is removed."
BEFORE_THE_RESHUFFLE = (RISKY_CONTRACTS, EQUALISING_BEAM)


@dataclass(frozen=True, slots=True)
class TechnologyCard:
    """One technology as the data gives it."""

    name: str
    copies: int  # on the table at the start
    cost: int  # in locomotives
    advanced: bool
    effect: str  # how the data words it


@cache
def technology_cards(game: Game) -> dict[str, TechnologyCard]:
    """The technologies laid out in ``game`` (``Rules.technologies``), by name, in that order."""
    if not game.rules.technologies:
        return {}
    listed = {t["name"]: t for t in read_board_data(BOARDS[game.board_name].data_file)["technologies"]}
    return {name: TechnologyCard(name, int(listed[name]["copies"]), int(listed[name]["cost_locomotives"]),
                                 bool(listed[name]["advanced"]), str(listed[name]["effect"]))
            for name in game.rules.technologies}


@cache
def route_needs(game: Game) -> tuple[tuple[str, ...], ...]:
    """The technologies each route needs, by route id (the data's ``technologies_required``)."""
    if not game.rules.technologies:
        return ()
    routes = read_board_data(BOARDS[game.board_name].data_file)["routes"]
    return tuple(tuple(r["technologies_required"]) for r in routes)


def holdings_at_start(game: Game, n_players: int) -> TechnologyHoldings | None:
    """Nobody holds a technology yet; None where the game has none."""
    if not game.rules.technologies:
        return None
    return TechnologyHoldings(held=((),) * n_players, earned=(0,) * n_players)


def held(state: GameState, player: int) -> tuple[str, ...]:
    """The technologies ``player`` holds, in the order bought."""
    return state.technologies.held[player] if state.technologies is not None else ()


def cards_paid_per_locomotive(state: GameState, player: int) -> int:
    """How many cards of any kind ``player`` may pay as one locomotive (0: never)."""
    usual = state.game.rules.cards_per_locomotive
    return BOOSTED_CARDS_PER_LOCOMOTIVE if usual and BOOSTER in held(state, player) else usual


def right_of_way_now(state: GameState) -> bool:
    """Whether the player to move bought Right of Way this turn and has not used it yet."""
    tech = state.technologies
    return tech is not None and tech.right_of_way and tech.bought_turn == state.turn


def thermocompressor_now(state: GameState) -> bool:
    """Whether the player to move bought the Thermocompressor this turn."""
    tech = state.technologies
    return tech is not None and tech.thermocompressor and tech.bought_turn == state.turn


def second_claim_pending(state: GameState) -> bool:
    """Whether the turn waits for the Thermocompressor's second claim (or ``finish_turn``).
    Only in the turn's own phase: once the second claim is given up, a choice
    the first claim left (Warehouses and Depots: which warehouses to empty)
    still ends the turn, and the pending claim must not refuse it."""
    tech = state.technologies
    return state.phase is Phase.TURN and thermocompressor_now(state) and tech is not None and tech.second_claim


def second_claim_problem(state: GameState, action: Event) -> str | None:
    """Why ``action`` cannot come now that the turn waits for its second claim (None: it may)."""
    if not second_claim_pending(state) or isinstance(action, (ClaimRoute, FinishTurn)):
        return None
    return "with the Thermocompressor, the turn goes on only with a second claim, or finish_turn"


def finish_problem(state: GameState) -> str | None:
    """Why the turn cannot be finished without its second claim (None: it can)."""
    return None if second_claim_pending(state) else "there is no second claim to give up"


def draw_three_problem(state: GameState, player: int) -> str | None:
    """Why ``player`` may not draw three blind now (None: they may)."""
    if WATER_TENDERS not in held(state, player):
        return f"only a holder of {WATER_TENDERS} draws three blind"
    if state.cards_drawn:
        return "three blind cards are the whole draw: none may be taken before them"
    if not state.draw_pile and not state.discard:
        return "there are no train cards left to draw"
    return None


def payable_as(state: GameState, player: int, route: Route) -> tuple[Route, ...]:
    """The lengths a claim of ``route`` by ``player`` may pay for: its own, and
    with Diesel Power one space shorter (never below its ferry's locomotives, nor 0)."""
    shorter = route.length - 1
    if DIESEL_POWER in held(state, player) and shorter >= max(1, route.ferry_locomotives):
        return (route, replace(route, length=shorter))
    return (route,)


def copies_left(state: GameState, name: str) -> int:
    """How many of ``name`` are still on the table to be bought."""
    card = technology_cards(state.game).get(name)
    tech = state.technologies
    if card is None or tech is None:
        return 0
    in_use = sum(name in mine for mine in tech.held) + (name == RIGHT_OF_WAY and right_of_way_now(state)) + (
        name == THERMOCOMPRESSOR and thermocompressor_now(state))
    return card.copies - in_use


def removed(state: GameState, name: str) -> bool:
    """Whether ``name`` left the table with the train deck's first reshuffle."""
    return name in BEFORE_THE_RESHUFFLE and state.epoch > 0


def buy_problem(state: GameState, player: int, name: str) -> str | None:
    """Why ``player`` may not buy ``name`` now, whatever they pay (None: they may)."""
    cards = technology_cards(state.game)
    if not cards:
        return f"{state.game.title} has no technologies"
    if name not in cards:
        return f"there is no {name} on this table"
    if state.cards_drawn:
        return "a technology is bought before the turn's action, not after drawing a card"
    tech = state.technologies
    assert tech is not None
    if tech.bought_turn == state.turn:
        return "only one technology may be bought a turn"
    if name in held(state, player):
        return f"player {player} holds {name} already"
    if removed(state, name):
        return f"{name} is gone: it could be bought only before the train deck's first reshuffle"
    if copies_left(state, name) <= 0:
        return f"no {name} is left on the table"
    return None


def price_problem(state: GameState, player: int, name: str, kinds: Iterable[str]) -> str | None:
    """Why cards of these kinds do not pay for ``name`` (None: they do)."""
    card = technology_cards(state.game)[name]
    problem = locomotives_payment_problem(kinds, card.cost, cards_paid_per_locomotive(state, player))
    return f"{name}: {problem}" if problem is not None else None


def with_purchase(state: GameState, player: int, name: str) -> GameState:
    """The technologies slice once ``player`` bought ``name`` (cards are the caller's)."""
    tech = state.technologies
    assert tech is not None
    if name == RIGHT_OF_WAY:  # for this turn's claim only: it is never held
        return state.evolve(technologies=replace(tech, bought_turn=state.turn, right_of_way=True))
    if name == THERMOCOMPRESSOR:  # for this turn's two claims only
        return state.evolve(technologies=replace(tech, bought_turn=state.turn, thermocompressor=True,
                                                 second_claim=False))
    mine = list(tech.held)
    mine[player] = mine[player] + (name,)
    return state.evolve(technologies=replace(tech, held=tuple(mine), bought_turn=state.turn, right_of_way=False))


def missing_technology_problem(state: GameState, player: int, route: Route) -> str | None:
    """Why ``player``'s technologies do not let them claim ``route`` (None: they do)."""
    needs = route_needs(state.game)
    if not needs:
        return None
    have = held(state, player)
    missing = [name for name in needs[route.id] if name not in have]
    if not missing:
        return None
    names = missing[0] if len(missing) == 1 else f"{', '.join(missing[:-1])} and {missing[-1]}"
    return f"{route.label} needs {names}, which player {player} does not hold"


def may_claim_held_route(state: GameState, player: int, owner: int) -> bool:
    """Whether ``player`` may claim a route ``owner`` holds: with Right of Way, bought this turn."""
    return owner != player and right_of_way_now(state)


def after_claim(state: GameState, claim: ClaimTaken) -> AfterClaim:
    """The slice once the claimer laid the route (``beside``: on a route another
    player holds, by Right of Way, which goes back to the table): the points
    it earns at once. The Thermocompressor's first claim leaves the turn open
    for its second: nobody after the technologies is asked then."""
    tech = state.technologies
    if tech is None:
        return AfterClaim(state)
    player, route = claim.player, claim.route
    mine = held(state, player)
    points = (LAGGING_POINTS if BOILER_LAGGING in mine else 0) + (
        TURBINE_POINTS if STEAM_TURBINES in mine and route.ferry_locomotives else 0)
    earned = list(tech.earned)
    earned[player] += points
    # The Thermocompressor's first claim opens the second; its second (second_claim set) closes the turn.
    second = thermocompressor_now(state) and not tech.second_claim
    state = state.evolve(technologies=replace(tech, earned=tuple(earned), second_claim=second,
                                              right_of_way=tech.right_of_way and not claim.beside))
    return AfterClaim(state, Then.WAIT if second_claim_pending(state) else Then.NEXT)


def technology_end_parts(state: GameState, scores: tuple[PlayerScore, ...]) -> tuple[tuple[ScorePart, ...], ...]:
    """Every player's technology parts at the end (``endparts.END_SCORERS``):
    the points Boiler Lagging and Steam Turbines earned as routes were laid,
    and Double Heading's for each completed ticket; () where the game has no
    technologies."""
    tech = state.technologies
    if tech is None:
        return ()
    laid_out = state.game.rules.technologies
    most_tickets = max(score.completed_tickets for score in scores)
    longest = max(score.longest_path for score in scores)
    parts = []
    for p, score in enumerate(scores):
        heading = DOUBLE_HEADING in tech.held[p]
        done = score.completed_tickets if heading else 0
        mine = [ScorePart("laid", "Boiler Lagging and Steam Turbines", tech.earned[p], tech.earned[p]),
                ScorePart("double_heading", DOUBLE_HEADING, DOUBLE_HEADING_POINTS * done, done)]
        if RISKY_CONTRACTS in laid_out:
            won = RISKY_POINTS if score.completed_tickets == most_tickets else -RISKY_POINTS
            mine.append(ScorePart("risky", RISKY_CONTRACTS, won if RISKY_CONTRACTS in tech.held[p] else 0,
                                  score.completed_tickets))
        if EQUALISING_BEAM in laid_out:
            won = BEAM_POINTS if score.longest_path == longest else -BEAM_POINTS
            mine.append(ScorePart("beam", EQUALISING_BEAM, won if EQUALISING_BEAM in tech.held[p] else 0,
                                  score.longest_path))
        parts.append(tuple(mine))
    return tuple(parts)


def buy_actions(state: GameState, player: int) -> list[Action]:
    """Every technology ``player`` may buy now with the hand this state knows,
    each paid once for every number of real locomotives it could use (most
    first); the cards that stand in for the rest are taken from the kinds
    the hand holds fewest of (keeping its long sets whole)."""
    board = state.game.board
    by_kind: dict[str, list[CardRef]] = {}
    for ref in state.players[player].hand:
        card = state.face(ref)
        if card is not None:
            by_kind.setdefault(board.card_kind(card), []).append(ref)
    locos = by_kind.get(LOCOMOTIVE, [])
    others = [ref for kind in sorted((k for k in by_kind if k != LOCOMOTIVE), key=lambda k: (len(by_kind[k]), k))
              for ref in by_kind[kind]]
    group = cards_paid_per_locomotive(state, player)
    actions: list[Action] = []
    for name, tech in technology_cards(state.game).items():
        if buy_problem(state, player, name) is not None:
            continue
        for real in range(min(len(locos), tech.cost), -1, -1):
            standing = (tech.cost - real) * group if real < tech.cost else 0
            if real < tech.cost and (not group or standing > len(others)):
                continue
            actions.append(BuyTechnology(player, name, tuple(locos[:real]) + tuple(others[:standing])))
    return actions



# ---------------------------------------------------------------------------
# The moves, and the hooks into the turn (mechanic.py)


def buy_technology(state: GameState, action: BuyTechnology, flow: TurnFlow) -> GameState:
    """A technology bought before the turn's action: its cards discarded, the turn goes on."""
    p, name, cards = action.player, action.technology, action.cards
    expect(state, p, Phase.TURN)
    refuse(buy_problem(state, p, name))
    expect_in_hand(state, p, cards)
    refuse(price_problem(state, p, name, kinds_of(state, cards)))
    return with_purchase(discarded_from_hand(state, p, cards), p, name)


def draw_three_blind(state: GameState, action: DrawThreeBlind, flow: TurnFlow) -> GameState:
    """Water Tenders: three cards drawn blind, the whole turn."""
    expect(state, action.player, Phase.TURN)
    refuse(draw_three_problem(state, action.player))
    state = state.evolve(cards_drawn=THREE_BLIND, passes=0)
    return push(state, StepDeal(action.player, THREE_BLIND), StepEndTurn())


def finish_turn(state: GameState, action: FinishTurn, flow: TurnFlow) -> GameState:
    """The Thermocompressor's second claim given up: the turn ends."""
    expect(state, action.player, Phase.TURN)
    refuse(finish_problem(state))
    return flow.end_turn(state)


MECHANIC = Mechanic(
    "technologies",
    plays=lambda game: bool(game.rules.technologies),
    handlers=(Handles(BuyTechnology, buy_technology), Handles(DrawThreeBlind, draw_three_blind),
              Handles(FinishTurn, finish_turn)),
    refuses=second_claim_problem,
    after_claim=after_claim,
    at_start=lambda state: state.evolve(technologies=holdings_at_start(state.game, state.n_players)),
)
