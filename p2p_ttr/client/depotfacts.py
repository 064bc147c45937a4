"""What Europe 1912's warehouses and depots did between two views, as typed
facts (``happened`` lists them with the others): a depot placed, a card put
on a warehouse, a warehouse emptied."""

from __future__ import annotations

from dataclasses import dataclass

from p2p_ttr.engine.cards import CardRef
from p2p_ttr.engine.state import GameState


@dataclass(frozen=True)
class DepotPlaced:
    seat: int
    city: str


@dataclass(frozen=True)
class Stocked:
    """``seat`` put the deck's top card, unseen, on ``owner``'s warehouse (``count`` cards: several turns between views)."""

    seat: int
    owner: int
    count: int = 1


@dataclass(frozen=True)
class Emptied:
    """``seat`` took the ``count`` cards of ``owner``'s warehouse, giving a depot back."""

    seat: int
    owner: int
    count: int


DepotFact = DepotPlaced | Stocked | Emptied


def depot_facts(before: GameState, after: GameState, seat: int) -> list[DepotFact]:
    """``seat``'s depots placed, cards stocked (told of the player whose turn it was) and warehouses emptied."""
    old, new = before.depots, after.depots
    if old is None or new is None:
        return []
    found: list[DepotFact] = [DepotPlaced(seat, city) for city, s in new.placed[len(old.placed):] if s == seat]
    if seat == before.current:
        emptied = {owner for _, owner, _ in new.taken[len(old.taken):]}
        found += [Stocked(seat, owner, len(b) - len(a) if owner not in emptied else 1)
                  for owner, (a, b) in enumerate(zip(old.warehouses, new.warehouses)) if len(b) > len(a)]
    found += [Emptied(seat, owner, len(refs)) for collector, owner, refs in new.taken[len(old.taken):]
              if collector == seat]
    return found


def from_warehouses(before: GameState, after: GameState) -> frozenset[CardRef]:
    """The cards that left a warehouse for a hand between the two views (not drawn from the deck)."""
    old, new = before.depots, after.depots
    if old is None or new is None:
        return frozenset()
    return frozenset(ref for _, _, refs in new.taken[len(old.taken):] for ref in refs)
