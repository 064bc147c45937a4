"""Europe 1912's warehouses and depots for every bot level (engine/depots.py).

Every level plays the expansion with this one modest policy, wrapped around
its own play (``levels.make_bot``), so that no level gains or loses against
another by it:

- a depot goes, at set-up, on a city of the bot's own tickets (fewest
  routes first, so others rarely claim into it): the bot's claims reach it,
  and with it the cards on its own warehouse; no other depot is placed, so
  the rest count for the most-unused bonus;
- before a draw, the top card goes on the bot's own warehouse where one of
  its depots stands, else on the warehouse with fewest cards (spreading
  what others could take);
- as a turn with a claim ends, a warehouse is emptied when it holds
  ``WORTH_A_DEPOT`` cards or more, most cards first, while depots last.

The level itself chooses the turn's action from a view without the
warehouses, where its draw is open as in any game; a draw it chooses is
then played as the warehouse move first and the draw next.
"""

from __future__ import annotations

from p2p_ttr.engine import depots
from p2p_ttr.engine.events import Action, BuildStation, EmptyWarehouses, PlaceDepot, StockWarehouse
from p2p_ttr.engine.moves import depot_actions, draw_actions, legal_actions
from p2p_ttr.engine.state import GameState, Phase

from .base import Bot

WORTH_A_DEPOT = 3  # cards on a warehouse that pay for the depot (and the bonus it may cost)


class DepotPlay:
    """``inner``'s play, with the warehouses and depots played as the module docstring says."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self._draw: Action | None = None  # the draw ``inner`` chose, played once its card went on a warehouse

    def choose(self, view: GameState, player: int) -> Action:
        if view.depots is None:
            return self.inner.choose(view, player)
        if view.phase is Phase.DEPOT_SETUP:
            return first_depot(view, player)
        if view.phase is Phase.WAREHOUSES:
            return warehouses_to_empty(view, player)
        if view.phase is not Phase.TURN:
            return self.inner.choose(view, player)
        if view.depots.stocked:
            draw, self._draw = self._draw, None
            draws = draw_actions(view, player)
            return draw if draw in draws else (draws or legal_actions(view, player))[0]
        chosen = self.inner.choose(view.evolve(depots=None), player)
        if depots.stock_due(view) and isinstance(chosen, depots.DRAWS):
            self._draw = chosen
            return StockWarehouse(player, warehouse_for(view, player))
        if isinstance(chosen, BuildStation) and depots.station_problem(view, chosen.city) is not None:
            return legal_actions(view, player)[0]
        return chosen


def first_depot(view: GameState, player: int) -> Action:
    """A city of the player's tickets with fewest routes, else the quietest free city."""
    board = view.game.board
    mine = {city for ref in view.players[player].tickets if (face := view.face(ref)) is not None
            for city in (board.tickets[face].a, board.tickets[face].b)}
    places = [a for a in depot_actions(view, player) if isinstance(a, PlaceDepot)]
    return min(places, key=lambda a: (a.city not in mine, len(board.routes_at[a.city]), a.city))


def warehouse_for(view: GameState, player: int) -> int:
    """The bot's own warehouse where a depot of its stands, else the emptiest one."""
    held = view.depots
    assert held is not None
    if held.cities_of(player):
        return player
    return min(range(view.n_players), key=lambda seat: (len(held.warehouses[seat]), seat))


def warehouses_to_empty(view: GameState, player: int) -> Action:
    held = view.depots
    assert held is not None
    worth = sorted((s for s in depots.reachable(view, player) if len(held.warehouses[s]) >= WORTH_A_DEPOT),
                   key=lambda s: -len(held.warehouses[s]))
    return EmptyWarehouses(player, tuple(sorted(worth[: held.supply[player]])))
