"""The commands of the United Kingdom's technologies. ``buy`` finds a
technology by any beginnings of its words, plays the purchase or asks which
of the hand's ways to pay for it, says why it cannot be bought, and offers
the technologies on the table after it with their price; ``draw3`` is Water
Tenders' draw and ``done`` ends a turn without the Thermocompressor's
second claim."""

from __future__ import annotations

from p2p_ttr.engine.events import BuyTechnology, DrawThreeBlind, FinishTurn
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.rules import kinds_of
from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.technologies import buy_problem, copies_left, draw_three_problem, finish_problem, held, technology_cards
from p2p_ttr.engine.techstate import THERMOCOMPRESSOR, WATER_TENDERS

from .outcomes import CANCEL, Ask, Choice, Context, Outcome, Play, Refused
from .phrases import cards_words
from .words import fold, plural


def has_technologies(game: Game) -> bool:
    """Whether ``game`` lays technologies out (the buy command and the panel's rows)."""
    return bool(game.rules.technologies)


def _matching(game: Game, words: list[str]) -> list[str]:
    """The technologies of ``game`` each of whose typed words begins a word of ('boiler lag': Boiler Lagging)."""
    typed = [fold(w) for w in words]
    found = []
    for name in technology_cards(game):
        own = [fold(w) for w in name.replace("/", " ").split()]
        if all(any(w.startswith(t) for w in own) for t in typed):
            found.append(name)
    return found


def buy_move(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    """``buy TECHNOLOGY``: the purchase, or the question of how to pay for it."""
    if not words:
        raise Refused("name the technology: buy Wales, buy stoker, buy right of way")
    found = _matching(view.game, words)
    if not found:
        raise Refused(f"there is no technology {' '.join(words)!r} on this table; "
                      f"they are {', '.join(technology_cards(view.game))}")
    if len(found) > 1:
        raise Refused(f"{' '.join(words)!r} is {' or '.join(found)}: say which")
    name = found[0]
    offers = [a for a in legal_actions(view, seat, only=BuyTechnology) if isinstance(a, BuyTechnology)
              and a.technology == name]
    if not offers:
        raise Refused(_why_not(view, seat, name))
    price = plural(technology_cards(view.game)[name].cost, "locomotive")
    paid = [cards_words(kinds_of(view, a.cards)) for a in offers]
    options = [(words_paid, Play(a, f"buying {name} with {words_paid}")) for a, words_paid in zip(offers, paid)]
    if len(options) == 1:
        return options[0][1]
    choices = tuple(Choice(str(i + 1), label, play) for i, (label, play) in enumerate(options))
    return Ask(f"How do you pay for {name} ({price})?", choices + (CANCEL,))


def _why_not(view: GameState, seat: int, name: str) -> str:
    """Why ``seat`` cannot buy ``name``: the engine's reason, or what the hand lacks."""
    if name in held(view, seat):
        return f"you hold {name} already"
    problem = buy_problem(view, seat, name)
    if problem is not None:
        return problem
    cost = technology_cards(view.game)[name].cost
    per = view.game.rules.cards_per_locomotive
    return (f"{name} costs {plural(cost, 'locomotive')} (each one, or {per} cards of any kind): "
            "your hand does not make that")


def buy_args(args: list[str], ctx: Context) -> list[tuple[str, str]]:
    """The technologies on the table, with their price and the copies left."""
    view = ctx.view
    if view is None or args or not has_technologies(view.game):
        return []
    mine = held(view, ctx.seat) if ctx.seat is not None else ()
    return [(name, f"{plural(card.cost, 'locomotive')}, {copies_left(view, name)} left"
             + (" (yours)" if name in mine else ""))
            for name, card in technology_cards(view.game).items()]


def has_water_tenders(game: Game) -> bool:
    return WATER_TENDERS in game.rules.technologies


def has_thermocompressor(game: Game) -> bool:
    return THERMOCOMPRESSOR in game.rules.technologies


def draw_three_move(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    """``draw3``: Water Tenders' draw of three cards from the deck."""
    problem = draw_three_problem(view, seat)
    if problem is not None:
        raise Refused(problem)
    return Play(DrawThreeBlind(seat), "drawing three cards from the deck")


def finish_move(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    """``done``: the turn ends without the Thermocompressor's second claim."""
    problem = finish_problem(view)
    if problem is not None:
        raise Refused(problem)
    return Play(FinishTurn(seat), "ending the turn after one claim")
