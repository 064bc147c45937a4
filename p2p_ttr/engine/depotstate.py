"""Europe 1912's warehouses and depots, the state's slice (``GameState.depots``;
the rules are in ``depots.py``).

A warehouse holds train cards nobody has seen: each is a card reference
still encrypted under every seat's key (protocol.md §6, Warehouses), kept
here in the order it was put down. The count on each warehouse is public;
its faces are known to no replica until a player empties it into their hand.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .cards import CardRef


@dataclass(frozen=True, slots=True)
class Depots:
    """The depots on the board and in each supply, and each seat's warehouse."""

    supply: tuple[int, ...]  # per seat: depots not placed nor given back to the box
    warehouses: tuple[tuple[CardRef, ...], ...]  # per seat: the cards on its warehouse, first put down first
    placed: tuple[tuple[str, int], ...] = ()  # (city, seat), in the order placed
    stocked: bool = False  # this turn's draw put its card on a warehouse: the turn is a draw of train cards
    claimed: tuple[int, ...] = ()  # routes claimed this turn: warehouses they reach may be emptied as it ends
    # Every warehouse emptied: (collector, seat, its cards), in order; public
    # (references only), so that `ttr verify` and the screens can say which cards lay where.
    taken: tuple[tuple[int, int, tuple[CardRef, ...]], ...] = ()

    @staticmethod
    def at_start(n_players: int, depots: int) -> Depots:
        return Depots(supply=(depots,) * n_players, warehouses=((),) * n_players)

    def owner(self, city: str) -> int | None:
        """The seat whose depot stands in ``city``, if any."""
        return next((seat for c, seat in self.placed if c == city), None)

    def cities_of(self, seat: int) -> tuple[str, ...]:
        return tuple(c for c, s in self.placed if s == seat)

    def cards(self) -> tuple[CardRef, ...]:
        """Every card on a warehouse, seat by seat."""
        return tuple(ref for pile in self.warehouses for ref in pile)

    def place(self, city: str, seat: int) -> Depots:
        supply = list(self.supply)
        supply[seat] -= 1
        return replace(self, placed=self.placed + ((city, seat),), supply=tuple(supply))

    def stock(self, seat: int, ref: CardRef) -> Depots:
        piles = list(self.warehouses)
        piles[seat] = piles[seat] + (ref,)
        return replace(self, warehouses=tuple(piles), stocked=True)

    def emptied(self, collector: int, seats: tuple[int, ...]) -> Depots:
        """``collector`` gives one depot back to the box per warehouse of ``seats`` and takes their cards."""
        piles = list(self.warehouses)
        taken = self.taken + tuple((collector, seat, piles[seat]) for seat in seats)
        for seat in seats:
            piles[seat] = ()
        supply = list(self.supply)
        supply[collector] -= len(seats)
        return replace(self, warehouses=tuple(piles), supply=tuple(supply), claimed=(), taken=taken)
