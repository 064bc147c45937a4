"""Europe 1912's warehouses and depots in the client: the commands a player
types (``depot CITY``, ``warehouse SEAT`` before a draw, or ``draw``'s
question of which warehouse, ``empty SEAT ...`` or ``empty none`` after a
claim into a depot), what Tab offers after them,
what the turn waits for and the rules page's words (engine/depots.py has
the rules)."""

from __future__ import annotations

from collections.abc import Callable

from p2p_ttr.engine import depots
from p2p_ttr.engine.events import EmptyWarehouses, PlaceDepot, StockWarehouse
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.rules import apply
from p2p_ttr.engine.state import GameState, Phase

from .network import seat_named
from .numbering import seat_words
from .outcomes import CANCEL, Ask, Choice, Context, Outcome, Play, Refused
from .words import plural, take_city, whose

NONE_WORDS = ("none", "no", "skip", "0")  # empty none: take no warehouse


def has_depots(game: Game) -> bool:
    return game.rules.depots > 0


def depot_rules(game: Game) -> str:
    """The rules page's words on warehouses and depots."""
    rules = game.rules
    return (f"Warehouses and depots: {rules.depots} depots and a warehouse each. Before the first turn, from the "
            "last player back to the first, each puts a depot on a city (depot CITY); later, before your turn's "
            "action, you may put down more. No depot where a station is, no station where a depot is. Every draw "
            "of train cards first puts the deck's top card, unseen by anyone, on a warehouse of your choice "
            "(warehouse SEAT, then draw). A claim into a city with a depot lets you take every card of the "
            "warehouse of that depot's colour, giving a depot back to the box for each warehouse (empty SEAT, or "
            "empty none). With the deck and the discards empty and a player out of depots, the warehouses become "
            f"the deck. The most depots left unused at the end earn {rules.depot_points}, ties included.")


def depot_move(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    """``depot CITY``: at set-up, or before the turn's action."""
    if view.depots is None:
        raise Refused(f"{view.game.title} is played without depots")
    taken = take_city(view.game.board, words) if words else None
    if taken is None:
        raise Refused("name one city of the map: depot CITY (e.g. depot Paris)")
    city = taken[0]
    if view.phase not in (Phase.DEPOT_SETUP, Phase.TURN) or (view.phase is Phase.TURN and view.current != seat):
        raise Refused("a depot goes down before the first turn, or on your turn before its action")
    problem = depots.place_problem(view, seat, city)
    if problem is not None:
        raise Refused(problem)
    left = view.depots.supply[seat] - 1
    return Play(PlaceDepot(seat, city), f"a depot on {city} ({plural(left, 'depot')} left)")


def warehouse_move(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    """``warehouse SEAT``: before a draw, the deck's top card on that seat's warehouse."""
    if not words:
        raise Refused("warehouse SEAT: whose warehouse the deck's top card goes on (a seat's number or name)")
    owner = seat_named(" ".join(words), names, seat)
    problem = depots.stock_problem(view, owner) if view.current == seat else "it is not your turn"
    if problem is not None:
        raise Refused(problem)
    return Play(StockWarehouse(seat, owner), f"the deck's top card on {whose(owner, seat, names)} warehouse; "
                                             "now draw")


def warehouse_question(view: GameState, seat: int, names: tuple[str, ...], draw: str,
                       then: Callable[[GameState], object]) -> Ask:
    """``draw`` typed while a card must first go on a warehouse: which one,
    the player's own the default (Enter), so that a new player is asked
    rather than stopped. ``then`` checks the draw against the turn once
    stocked: a draw it refuses is refused now, before any card moves."""
    stock = StockWarehouse(seat, seat)
    then(apply(view, stock))
    assert view.depots is not None
    piles = view.depots.warehouses
    choices = tuple(
        Choice(str(p + 1), f"{'yours' if p == seat else seat_words(p, names)} ({plural(len(pile), 'card')})",
               Play(StockWarehouse(seat, p), f"the deck's top card on {whose(p, seat, names)} warehouse; "
                                             f"now your draw: {draw}"))
        for p, pile in enumerate(piles))
    return Ask("First the deck's top card goes, unseen, on a warehouse: whose? (Enter: yours)",
               (*choices, CANCEL), default=str(seat + 1))


def empty_move(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    """``empty SEAT [SEAT...]`` or ``empty none``, as a turn with a claim into a depot ends."""
    if view.phase is not Phase.WAREHOUSES or view.current != seat:
        raise Refused("warehouses are emptied right after a claim into a city with a depot")
    if not words or words[0].lower() in NONE_WORDS:
        return Play(EmptyWarehouses(seat, ()), "no warehouse taken")
    owners = tuple(sorted({seat_named(word, names, seat) for word in words}))
    problem = depots.empty_problem(view, seat, owners)
    if problem is not None:
        raise Refused(problem)
    assert view.depots is not None
    count = sum(len(view.depots.warehouses[o]) for o in owners)
    return Play(EmptyWarehouses(seat, owners), f"taking {plural(count, 'card')} for {plural(len(owners), 'depot')}")


def depot_args(args: list[str], ctx: Context) -> list[tuple[str, str]]:
    """Tab after ``depot``: the cities a depot may go to now."""
    view, seat = ctx.view, ctx.seat
    if args or view is None or seat is None or view.depots is None:
        return []
    return [(city, "a depot here") for city in view.game.board.cities if depots.place_problem(view, seat, city) is None]


def warehouse_args(args: list[str], ctx: Context) -> list[tuple[str, str]]:
    """Tab after ``warehouse``: every seat, with the cards on its warehouse."""
    view = ctx.view
    if args or view is None or view.depots is None:
        return []
    return [(str(p + 1), f"{seat_words(p, ctx.names)}: {plural(len(pile), 'card')}")
            for p, pile in enumerate(view.depots.warehouses)]


def empty_args(args: list[str], ctx: Context) -> list[tuple[str, str]]:
    """Tab after ``empty``: the warehouses this claim reaches, and none."""
    view, seat = ctx.view, ctx.seat
    if view is None or seat is None or view.depots is None or view.phase is not Phase.WAREHOUSES:
        return []
    return [(str(p + 1), f"{plural(len(view.depots.warehouses[p]), 'card')} of {seat_words(p, ctx.names)}")
            for p in depots.reachable(view, seat)] + [("none", "take none")]


def depot_now(view: GameState, seat: int) -> str | None:
    """What the turn waits for from ``seat`` in a depot phase, or before a draw (None otherwise)."""
    if view.phase is Phase.DEPOT_SETUP:
        return "put your first depot on a city: depot CITY"
    if view.phase is Phase.WAREHOUSES and view.depots is not None:
        seats = ", ".join(f"{p + 1} ({plural(len(view.depots.warehouses[p]), 'card')})"
                          for p in depots.reachable(view, seat))
        return f"take a warehouse for a depot each: empty SEAT (of {seats}), or empty none"
    if depots.stock_due(view) and view.current == seat:
        return ("draw (it first asks which warehouse the deck's top card goes on; warehouse SEAT says it "
                "beforehand); or claim, tickets")
    return None


# What the table waits for in a depot phase, after the names of those it waits for.
DEPOT_WAITING = {Phase.DEPOT_SETUP: "to place their first depot", Phase.WAREHOUSES: "to take a warehouse or not"}
