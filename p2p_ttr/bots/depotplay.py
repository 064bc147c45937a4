"""Europe 1912's warehouses and depots for every bot level (engine/depots.py).

Each level plays the expansion through a ``DepotPolicy`` wrapped around its
own play (``levels.make_bot``); the levels differ as they do elsewhere:

- every level puts a depot, at set-up, on a city of its own tickets (fewest
  routes first, so others rarely claim into it): its claims reach it, and
  with it the cards on its own warehouse; no other depot is placed, so the
  rest count for the most-unused bonus;
- easy (``EagerDepots``) puts each draw's card on its own warehouse and, a
  beginner's grab, empties every warehouse a claim reaches while depots last;
- medium (``PlainDepots``) puts the card on its own warehouse where one of
  its depots stands, else on the warehouse with fewest cards (spreading
  what others could take), and empties a warehouse holding
  ``WORTH_A_DEPOT`` cards or more, most cards first, while depots last;
- hard weighs both (``depotweigh.py``).

The level itself chooses the turn's action from a view without the
warehouses, where its draw is open as in any game; a draw it chooses is
then played as the warehouse move first and the draw next.
"""

from __future__ import annotations

from typing import Protocol

from p2p_ttr.engine import depots
from p2p_ttr.engine.events import Action, BuildStation, EmptyWarehouses, PlaceDepot, StockWarehouse
from p2p_ttr.engine.moves import depot_actions, draw_actions, legal_actions
from p2p_ttr.engine.state import GameState, Phase

from .base import Bot

WORTH_A_DEPOT = 3  # cards on a warehouse that pay for the depot (and the bonus it may cost): medium's rule


class DepotPolicy(Protocol):
    """A level's three choices of the expansion."""

    def warehouse_for(self, view: GameState, player: int) -> int:
        """The seat whose warehouse takes the deck's top card before ``player``'s draw."""
        ...

    def to_empty(self, view: GameState, player: int) -> tuple[int, ...]:
        """The seats whose warehouses ``player`` empties as its turn with a claim ends."""
        ...

    def raid(self, view: GameState, player: int) -> Action | None:
        """A claim into a depot whose warehouse is worth it, made instead of the draw the level chose (or None)."""
        ...


class DepotPlay:
    """``inner``'s play, with the warehouses and depots played by ``policy`` (see the module docstring)."""

    def __init__(self, inner: Bot, policy: DepotPolicy) -> None:
        self.inner = inner
        self.policy = policy
        self.name = inner.name
        self._draw: Action | None = None  # the draw ``inner`` chose, played once its card went on a warehouse

    def choose(self, view: GameState, player: int) -> Action:
        if view.depots is None:
            return self.inner.choose(view, player)
        if view.phase is Phase.DEPOT_SETUP:
            return first_depot(view, player)
        if view.phase is Phase.WAREHOUSES:
            return EmptyWarehouses(player, self.policy.to_empty(view, player))
        if view.phase is not Phase.TURN:
            return self.inner.choose(view, player)
        if view.depots.stocked:
            draw, self._draw = self._draw, None
            draws = draw_actions(view, player)
            return draw if draw in draws else (draws or legal_actions(view, player))[0]
        chosen = self.inner.choose(view.evolve(depots=None), player)
        if isinstance(chosen, depots.DRAWS) and not view.cards_drawn:
            raid = self.policy.raid(view, player)
            if raid is not None:
                return raid
        if depots.stock_due(view) and isinstance(chosen, depots.DRAWS):
            self._draw = chosen
            return StockWarehouse(player, self.policy.warehouse_for(view, player))
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


def most_cards_first(view: GameState, seats: tuple[int, ...]) -> list[int]:
    """``seats`` by the cards on their warehouses, most first."""
    held = view.depots
    assert held is not None
    return sorted(seats, key=lambda s: (-len(held.warehouses[s]), s))


class NoRaids:
    """The plainer levels claim for their tickets alone, never for a warehouse."""

    def raid(self, view: GameState, player: int) -> Action | None:
        return None


class EagerDepots(NoRaids):
    """Easy: its own warehouse fed, every warehouse in reach taken (see the module docstring)."""

    def warehouse_for(self, view: GameState, player: int) -> int:
        return player

    def to_empty(self, view: GameState, player: int) -> tuple[int, ...]:
        held = view.depots
        assert held is not None
        return tuple(sorted(most_cards_first(view, depots.reachable(view, player))[: held.supply[player]]))


class PlainDepots(NoRaids):
    """Medium: its own warehouse fed where a depot of its stands, one of ``WORTH_A_DEPOT`` cards taken."""

    def warehouse_for(self, view: GameState, player: int) -> int:
        """The bot's own warehouse where a depot of its stands, else the emptiest one."""
        held = view.depots
        assert held is not None
        if held.cities_of(player):
            return player
        return min(range(view.n_players), key=lambda seat: (len(held.warehouses[seat]), seat))

    def to_empty(self, view: GameState, player: int) -> tuple[int, ...]:
        held = view.depots
        assert held is not None
        worth = [s for s in most_cards_first(view, depots.reachable(view, player))
                 if len(held.warehouses[s]) >= WORTH_A_DEPOT]
        return tuple(sorted(worth[: held.supply[player]]))
