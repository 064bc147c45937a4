"""Why a move is refused, in the words of the game.

The engine's own refusals name players by number and speak to a peer; these
speak to the person at the screen, name the others, and say what would work
instead. The facts come from the engine's rule predicates, so the client
never invents a rule of its own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from p2p_ttr.engine.board import GRAY, LOCOMOTIVE, Board, Route
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.engine.events import Action
from p2p_ttr.engine.rules import (
    actors,
    apply,
    claim_problem,
    draw_blind_problem,
    draw_tickets_problem,
    hand_counts,
    offer_rule,
)
from p2p_ttr.engine.state import FACE_UP_SLOTS, GameState, Phase
from p2p_ttr.engine.view import view_for

from .examples import number
from .stocks import share_prompt
from .techwords import missing_technologies_words
from .words import DASH, card_kinds, plural, route_details, route_name, who, whose

ORDINALS = ("first", "second", "third")


def hand_words(board: Board, counts: Counter[str]) -> str:
    """'2 orange, 1 blue and 1 locomotive' (or 'no cards'), in ``board``'s order of kinds."""
    parts = [plural(counts[k], k) if k == LOCOMOTIVE else f"{counts[k]} {k}" for k in card_kinds(board)
             if counts.get(k)]
    if not parts:
        return "no cards"
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]


def turn_problem(view: GameState, seat: int, names: tuple[str, ...]) -> str | None:
    """Why ``seat`` cannot act at all now (None if it can)."""
    if view.phase in (Phase.SCORING, Phase.OVER):
        return "the game is over"
    if seat in actors(view):
        return None
    if view.phase is Phase.SETUP:
        return "wait: the table is still shuffling and dealing"
    if view.awaiting is not None or view.steps:
        return "wait a moment: the table is turning cards over (every player adds a share)"
    if view.phase is Phase.SETUP_TICKETS:
        return "wait: the others are still choosing their first tickets"
    return f"it is {names[view.current] if view.current < len(names) else 'another player'}'s turn"


def stale_move_problem(view: GameState, seat: int, action: Action) -> str | None:
    """Why a move chosen on an earlier screen is no longer legal in ``view``
    (the table moved on meanwhile), in the engine's words; None if it is."""
    try:
        apply(view_for(view, seat), action)
    except EngineError as exc:
        return str(exc)
    return None


# What a phase of a board's own pieces waits for, in the words of its command (one entry per phase).
FIRST_DO = {
    Phase.TUNNEL: "pay for the tunnel or give it up (pay / abandon)",
    Phase.LAY_TRACK: "lay a track piece (lay COLOUR CITY CITY)",
    Phase.START_CITY: "place your starting city (home CITY)",
    Phase.MARKER: "place a city marker or not (marker CITY / marker none)",
    Phase.ALVIN: "take Alvin the Alien to one of your cities (alvin CITY)",
    Phase.MONSTERS: "place the monster (alvin CITY / dexter CITY)",
    Phase.DEPOT_SETUP: "put your first depot on a city (depot CITY)",
    Phase.WAREHOUSES: "take a warehouse or not (empty SEAT / empty none)",
}


def phase_problem(view: GameState, seat: int, doing: str) -> str:
    """Why ``doing`` (e.g. 'claim a route') is not possible in the current phase
    of ``seat``'s turn: what the turn is waiting for instead."""
    if view.phase in (Phase.SETUP_TICKETS, Phase.TICKETS):
        return (f"you cannot {doing} now: first keep at least {keep_least(view, seat)} of the tickets offered"
                f"{long_most(view, seat)} (keep N ...)")
    if view.phase is Phase.SHARES:
        return f"you cannot {doing} now: first {share_prompt(view, seat)}"
    if view.phase in FIRST_DO:
        return f"you cannot {doing} now: first {FIRST_DO[view.phase]}"
    if view.cards_drawn:
        return f"you cannot {doing} now: you drew a card, so take your second one (draw, or draw N)"
    if view.depots is not None and view.depots.stocked:
        return f"you cannot {doing} now: a card went on a warehouse, so this turn draws (draw, or draw N)"
    return f"you cannot {doing} now"


def keep_least(view: GameState, seat: int) -> int:
    """The fewest tickets ``seat`` may answer the offer now on the table with
    (the keep minimum, while its offer is not dealt or already answered)."""
    offered = view.players[seat].offered
    return offer_rule(view).keep_least(offered) if offered else offer_rule(view).keep_min


def long_most(view: GameState, seat: int) -> str:
    """', at most one long' where ``seat`` was offered more long tickets than it
    may keep (Mega Europe's first offer); '' otherwise."""
    offered = view.players[seat].offered
    most = offer_rule(view).keep_most(Deck.LONG)
    if most is None or sum(r.deck is Deck.LONG for r in offered) <= most:
        return ""
    return f", at most {number(most)} long"


def draw_problem(view: GameState, slot: int | None) -> str | None:
    """Why a card cannot be drawn blind (slot None) or from face-up ``slot`` (0-based)."""
    if slot is None:
        problem = draw_blind_problem(view)
        return None if problem is None else "the deck and the discard pile are both empty"
    if not 0 <= slot < FACE_UP_SLOTS:
        return f"there are {FACE_UP_SLOTS} face-up slots: draw 1 to draw {FACE_UP_SLOTS}"
    ref = view.face_up[slot]
    if ref is None:
        return f"face-up slot {slot + 1} is empty"
    if view.cards_drawn and view.game.board.card_kind(view.public[ref]) == LOCOMOTIVE:
        return "a face-up locomotive cannot be your second card (draw from the deck or another slot)"
    return None


def tickets_problem(view: GameState) -> str | None:
    return None if draw_tickets_problem(view) is None else "the destination ticket deck is empty"


def route_problem(view: GameState, seat: int, route: Route, names: tuple[str, ...]) -> str | None:
    """Why ``seat`` may not claim ``route`` whatever it pays (None if it may).
    The engine decides (``claim_problem``); this only finds words that name
    people, and falls back to the engine's own."""
    # Whether a claim fits this moment of the turn is the caller's to say;
    # here it is whether the route is open to the seat at all.
    problem = claim_problem(view.evolve(cards_drawn=0), seat, route)
    if problem is None:
        return None
    owner = view.route_owner[route.id]
    if owner is not None:
        return f"{route_name(route)} already belongs to {who(owner, seat, names)}"
    if route.twin is not None:
        twin = view.route_owner[route.twin]
        if twin == seat:
            return f"you already hold the other side of the double route {route.a}–{route.b}"
        if twin is not None and not view.game.rules.both_sides_open(view.n_players):
            return (f"with {view.n_players} players only one side of a double route is used, "
                    f"and {who(twin, seat, names)} took {route.a}–{route.b}")
    trains = view.players[seat].trains
    if trains < route.cars:
        crossing = f" ({route.mountain_x} of them for its mountain crossings)" if route.mountain_x else ""
        return f"{route_name(route)} needs {plural(route.cars, 'train')}{crossing} and you have {trains}"
    return missing_technologies_words(view, seat, route) or problem


def payment_problem(view: GameState, seat: int, route: Route, *twins: Route) -> str:
    """Why the hand cannot pay for ``route``, nor for the other side of its
    double route if it is open too (``twins``); each is open to ``seat``."""
    hand = hand_words(view.game.board, hand_counts(view, seat))
    sides = (route, *twins)
    needs = []
    for side in sides:
        need = plural(side.length, f"{side.color} card") if side.color != GRAY else \
            f"{plural(side.length, 'card')} of one colour"
        if side.ferry_locomotives:
            need += f", {plural(side.ferry_locomotives, 'locomotive')} among them"
        needs.append(need)
    colours = " or ".join(side.color for side in sides)
    name = route_name(route) if not twins else \
        f"{route.a}{DASH}{route.b} ({colours}, {route_details(route).partition(', ')[2]})"
    return f"{name} needs {' or '.join(dict.fromkeys(needs))} (locomotives stand in for any colour); you hold {hand}"


def station_problem(view: GameState, seat: int, city: str, names: tuple[str, ...]) -> str | None:
    """Why ``seat`` may not build a station in ``city`` (None if it may, cards aside)."""
    ps = view.players[seat]
    if not view.game.rules.stations:
        return no_stations(view)
    if ps.stations_left <= 0:
        return f"you have built all {view.game.rules.stations} of your stations"
    for p, other in enumerate(view.players):
        if city in other.stations:
            return f"{city} already has {whose(p, seat, names)} station"
    return None


def no_stations(view: GameState) -> str:
    """Why no station can be built in this game at all."""
    return f"{view.game.title} has no stations: on your turn draw cards, claim a route or draw tickets"


def station_payment_problem(view: GameState, seat: int) -> str:
    n = len(view.players[seat].stations) + 1
    hand = hand_words(view.game.board, hand_counts(view, seat))
    return (f"your {ORDINALS[n - 1]} station costs {plural(n, 'card')} of one colour "
            f"(locomotives stand in for any); you hold {hand}")


def tunnel_payment_problem(view: GameState, seat: int) -> str:
    tunnel = view.tunnel
    if tunnel is None:
        return "there is no tunnel to pay for"
    colour = f"{tunnel.color} or locomotives" if tunnel.color else "locomotives"
    hand = hand_words(view.game.board, hand_counts(view, seat) - Counter(kinds(view, tunnel.cards)))
    return (f"the tunnel asks for {tunnel.extra} more {colour}; besides the cards already played "
            f"you hold {hand}: abandon gives it up")


def kinds(view: GameState, refs: Iterable[CardRef]) -> list[str]:
    """The kinds of the cards among ``refs`` whose faces ``view`` knows."""
    return [view.game.board.card_kind(card) for ref in refs if (card := view.face(ref)) is not None]
