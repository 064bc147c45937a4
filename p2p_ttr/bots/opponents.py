"""Reading the opponents from what the table shows: which tickets they
probably hold, and so which open routes they will probably want.

Opponents' tickets are secret, but their routes are public, and a player
builds towards their tickets: a ticket whose cheapest path an opponent's
network already covers a large share of is likely one of theirs. Only public
facts and the reader's own tickets are used (a bot sees no other hand).
"""

from __future__ import annotations

from dataclasses import dataclass

from p2p_ttr.engine.game import Game
from p2p_ttr.engine.state import GameState

from .planning import components, efforts, find, route_costs, shortest_path, ticket_ids

# Guesses covering less than this share of their path are noise.
LEAST_SHARE = 0.15
# Of the tickets an opponent holds, about this share is still open mid-game.
OPEN_SHARE = 0.6


@dataclass(frozen=True)
class Guess:
    """A ticket an opponent probably holds, and what is left of its path."""

    opponent: int
    ticket: int
    chance: float  # about how likely the opponent holds it, still open
    routes: tuple[int, ...]  # the open routes of the opponent's cheapest path for it


@dataclass(frozen=True)
class Reading:
    """What a bot infers about one opponent from the public record: where it builds and what it is likely to want."""

    guesses: tuple[Guess, ...]
    threat: tuple[float, ...]  # per route: about how likely an opponent wants it soon

    @classmethod
    def empty(cls, game: Game) -> Reading:
        return cls((), (0.0,) * len(game.board.routes))


def read_opponents(view: GameState, player: int) -> Reading:
    """Guess every opponent's open tickets from the routes they have built.

    Each ticket ``player`` has not seen is weighed by the share of its cheapest
    path the opponent has built (squared, to trust strong evidence more), and
    the weights are scaled to the number of tickets the opponent holds. The
    remaining path of each guess adds its chance to the threat on its routes.
    """
    game = view.game
    threat = [0.0] * len(game.board.routes)
    guesses: list[Guess] = []
    mine = set(ticket_ids(view, view.players[player].tickets + view.players[player].offered))
    for q, ps in enumerate(view.players):
        if q == player or not ps.routes:
            continue
        costs = route_costs(view, q)
        as_if_unbuilt = list(costs)
        for r in ps.routes:
            as_if_unbuilt[r] = efforts(game)[r]
        parent = components(game, ps.routes)
        weighted: list[tuple[float, int, tuple[int, ...]]] = []
        for ticket in game.board.tickets:
            if ticket.id in mine or find(parent, ticket.a) == find(parent, ticket.b):
                continue
            built = shortest_path(game, costs, ticket.a, ticket.b)
            whole = shortest_path(game, as_if_unbuilt, ticket.a, ticket.b)
            if built is None or whole is None or whole.cost <= 0:
                continue
            share = 1.0 - built.cost / whole.cost
            if share > LEAST_SHARE:
                rest = tuple(r for r in built.routes if costs[r] != 0.0)
                weighted.append((share * share, ticket.id, rest))
        total = sum(w for w, _, _ in weighted)
        if total <= 0:
            continue
        open_tickets = max(1.0, OPEN_SHARE * len(ps.tickets))
        for w, t, routes in weighted:
            chance = min(1.0, open_tickets * w / total)
            guesses.append(Guess(q, t, chance, routes))
            for r in routes:
                threat[r] = min(1.0, threat[r] + chance)
    return Reading(tuple(guesses), tuple(threat))
