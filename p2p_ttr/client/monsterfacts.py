"""What Alvin & Dexter did between two views, as typed facts (``happened``
lists them with the others): a monster placed at set-up, a monster moved
for its card. Both are public: the table saw every card taken."""

from __future__ import annotations

from dataclasses import dataclass

from p2p_ttr.engine.monstermoves import placing_seat
from p2p_ttr.engine.monsters import MONSTER_TITLES, MONSTERS
from p2p_ttr.engine.state import GameState


@dataclass(frozen=True)
class MonsterMoved:
    """``seat`` put ``monster`` (its title) on ``city``: at set-up
    (``placed``), or for a card of his deck before the turn's action."""

    seat: int
    monster: str
    city: str
    placed: bool = False


def monster_facts(before: GameState, after: GameState, seat: int) -> list[MonsterMoved]:
    """``seat``'s monsters placed and moved between the two views."""
    if before.monsters is None or after.monsters is None:
        return []
    found: list[MonsterMoved] = []
    for m, name in enumerate(MONSTERS):
        city = after.monsters.cities[m]
        if not before.monsters.cities[m] and city and placing_seat(after.n_players, m) == seat:
            found.append(MonsterMoved(seat, MONSTER_TITLES[name], city, placed=True))
        if after.monsters.cards[seat][m] > before.monsters.cards[seat][m]:
            found.append(MonsterMoved(seat, MONSTER_TITLES[name], city))
    return found
