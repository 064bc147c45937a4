"""Alvin & Dexter in the client (engine/monsters.py has the rules): the
commands a player types (``alvin CITY`` and ``dexter CITY``, or ``monster
alvin CITY``: at set-up to place the monster due, in a turn, before its
action, to move one for the fewest locomotives that reach), what Tab
offers after them, what the turn waits for, the panel's line on where the
monsters stand and whose their cards are, and the rules page's words."""

from __future__ import annotations

from p2p_ttr.engine.board import LOCOMOTIVE
from p2p_ttr.engine.events import MoveMonster, PlaceMonster
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.monstermoves import move_problem, next_to_place, place_problem, reach, too_far
from p2p_ttr.engine.monsters import MONSTER_TITLES, MONSTERS, MOST_LOCOMOTIVES, locomotives_for
from p2p_ttr.engine.state import GameState, Phase

from .outcomes import Context, Outcome, Play, Refused
from .words import fold, plural, take_city, who


def has_monsters(game: Game) -> bool:
    return game.rules.monster_cards > 0


def monster_rules(game: Game) -> str:
    """The rules page's words on Alvin & Dexter."""
    rules = game.rules
    return ("Alvin & Dexter: after the first tickets, the last player puts Alvin on any city and the player "
            "before them Dexter on any other (alvin CITY, dexter CITY). A city with a monster is a City in "
            "Chaos: no route into or out of it may be claimed, no station built in it. Before your turn's "
            "action, once a turn, you may discard 1 locomotive to move a monster up to 3 cities away, or 2 "
            "for up to 6 (alvin CITY, dexter CITY), taking one of its cards: it lies face up in front of you "
            "until the end of your next turn, and meanwhile nobody else may move that monster. At the end "
            "a ticket naming a City in Chaos scores half (rounded down), or loses half; the most cards of "
            f"each monster ({rules.monster_cards} in its deck) score {rules.monster_points}, every tied "
            "player in full.")


def _monster(word: str) -> int:
    key = fold(word)
    found = [m for m, name in enumerate(MONSTERS) if name.startswith(key)] if key else []
    if len(found) != 1:
        raise Refused(f"name a monster: {' or '.join(MONSTERS)} (monster alvin CITY)")
    return found[0]


def monster_move(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    """``monster alvin|dexter CITY``: place the monster due at set-up, or move one before the turn's action."""
    if not words:
        raise Refused(f"name a monster and a city: monster {MONSTERS[0]} CITY")
    return named_move(_monster(words[0]), words[1:], view, seat)


def alvin_move(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    """``alvin CITY`` where Alvin & Dexter is played."""
    return named_move(0, words, view, seat)


def dexter_move(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    """``dexter CITY``."""
    return named_move(1, words, view, seat)


def named_move(monster: int, words: list[str], view: GameState, seat: int) -> Outcome:
    monsters = view.monsters
    name = MONSTERS[monster]
    title = MONSTER_TITLES[name]
    if monsters is None:
        raise Refused(f"{view.game.title} is played without Alvin & Dexter")
    taken = take_city(view.game.board, words) if words else None
    if taken is None:
        raise Refused(f"name one city of the map: {name} CITY (e.g. {name} {view.game.board.cities[0]})")
    city = taken[0]
    if view.phase is Phase.MONSTERS:
        problem = place_problem(view, monster, city)
        if problem is not None:
            raise Refused(problem)
        return Play(PlaceMonster(seat, name, city), f"{title} on {city}: a City in Chaos")
    if view.phase is not Phase.TURN:
        raise Refused("a monster moves before your turn's action, not now")
    problem = move_problem(view, seat, monster)
    if problem is not None:
        raise Refused(problem)
    locomotives = [r for r in view.players[seat].hand
                   if (face := view.face(r)) is not None and view.game.board.card_kind(face) == LOCOMOTIVE]
    if not locomotives:
        raise Refused(f"moving {title} costs a locomotive card (two to go up to 6 cities): you hold none")
    steps = reach(view, monster, min(len(locomotives), MOST_LOCOMOTIVES)).get(city)
    if steps is None:
        raise Refused(too_far(view, monster, city, min(len(locomotives), MOST_LOCOMOTIVES)))
    paid = locomotives_for(steps)
    return Play(MoveMonster(seat, name, city, tuple(locomotives[:paid])),
                f"{title} to {city} ({plural(steps, 'city', 'cities')} away) for {plural(paid, 'locomotive')}")


def monster_args(args: list[str], ctx: Context) -> list[tuple[str, str]]:
    """Tab after ``monster``: the monsters, then the cities the one named may go to."""
    if not args:
        return [(name, f"{MONSTER_TITLES[name]}: place or move him") for name in MONSTERS]
    try:
        monster = _monster(args[0])
    except Refused:
        return []
    return _cities(monster, args[1:], ctx)


def alvin_args(args: list[str], ctx: Context) -> list[tuple[str, str]]:
    return _cities(0, args, ctx)


def dexter_args(args: list[str], ctx: Context) -> list[tuple[str, str]]:
    return _cities(1, args, ctx)


def _cities(monster: int, args: list[str], ctx: Context) -> list[tuple[str, str]]:
    """The cities ``monster`` may be placed on or moved to now, each with what it costs."""
    view, seat = ctx.view, ctx.seat
    if args or view is None or seat is None or view.monsters is None:
        return []
    if view.phase is Phase.MONSTERS:
        return [(city, "place him here") for city in view.game.board.cities
                if place_problem(view, monster, city) is None]
    if view.phase is not Phase.TURN or move_problem(view, seat, monster) is not None:
        return []
    near = reach(view, monster, MOST_LOCOMOTIVES)
    return [(city, f"{plural(steps, 'city', 'cities')} away: {plural(locomotives_for(steps), 'locomotive')}")
            for city, steps in sorted(near.items(), key=lambda item: (item[1], item[0]))]


def monster_now(view: GameState, seat: int) -> str | None:
    """What the turn waits for from ``seat`` at the monsters' set-up (None in any other phase)."""
    if view.phase is not Phase.MONSTERS or view.monsters is None:
        return None
    due = next_to_place(view.monsters)
    if due is None:
        return None
    name = MONSTERS[due]
    other = [c for c in view.monsters.cities if c]
    return (f"place {MONSTER_TITLES[name]} on any city{' but ' + other[0] if other else ''}: {name} CITY "
            "(routes into it cannot be claimed while he stands there)")


def monster_waiting(view: GameState, people: str) -> str | None:
    """Whom the table waits for at the monsters' set-up, in words (None in any other phase)."""
    if view.phase is not Phase.MONSTERS or view.monsters is None:
        return None
    due = next_to_place(view.monsters)
    return f"{people} to place {MONSTER_TITLES[MONSTERS[due]]}" if due is not None else None


def monsters_line(view: GameState, me: int | None, names: tuple[str, ...]) -> str | None:
    """The panel's line: where each monster stands, whose card of it lies face up, and everyone's cards."""
    monsters = view.monsters
    if monsters is None:
        return None
    where = []
    for m, name in enumerate(MONSTERS):
        holder = monsters.face_up_with(m, view.turn, view.n_players)
        up = f" (card up: {who(holder, me, names)})" if holder is not None else ""
        where.append(f"{MONSTER_TITLES[name]} {monsters.cities[m] or '?'}{up}")
    counts = [f"{who(p, me, names)} {'/'.join(str(n) for n in mine)}"
              for p, mine in enumerate(monsters.cards) if any(mine)]
    return "; ".join(where) + (f"; cards A/D: {', '.join(counts)}" if counts else "")
