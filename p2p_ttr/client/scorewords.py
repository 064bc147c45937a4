"""The words for every part of a score beside routes and tickets.

``scoring.score_parts`` lists the parts a game plays (its bonuses, and the
parts of a board's own pieces that ``engine/endparts.py`` adds); every table
that shows a score (the end page, ``ttr score``) words each part here, by its
``key``: a short column title and a line saying what earned the points. A
board's mechanic adds its own entry to :data:`PART_WORDS`; a part with none
is shown by its title, so a new part is never left out of a table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from p2p_ttr.engine.game import Rules
from p2p_ttr.engine.scoring import PlayerScore, ScorePart

from .words import plural


@dataclass(frozen=True, slots=True)
class PartWords:
    """How a table shows one part: its column's title and width, and the line that says what earned it."""

    column: Callable[[Rules], str]
    width: int
    earned: Callable[[ScorePart, PlayerScore, Rules], str]  # what earned the points, without them


def bonus_word(rules: Rules) -> str:
    """The longest-path bonus in a word, for a column: 'express' (the European Express), 'path' (the Longest Path)."""
    return rules.longest_path_bonus.split()[-1].lower()


def _won_or_not(part: ScorePart) -> str:
    return f"the {part.title}" if part.points else f"no {part.title}"


PART_WORDS: dict[str, PartWords] = {
    "stations": PartWords(
        lambda rules: "stations", 10,
        lambda part, sc, rules: f"{plural(part.count, 'station')} not built x {rules.station_points}"),
    "express": PartWords(
        bonus_word, 9,
        lambda part, sc, rules: f"longest trail {plural(part.count, 'car')}: {_won_or_not(part)}"),
    "globetrotter": PartWords(
        lambda rules: "globe", 8,
        lambda part, sc, rules: f"{plural(part.count, 'ticket')} done: {_won_or_not(part)}"),
    "grand_tour": PartWords(
        lambda rules: "tour", 6,
        lambda part, sc, rules: "the Grand Tour" if part.points else "no ticket joined by two separate paths"),
    "mountains": PartWords(
        lambda rules: "mount", 7,
        lambda part, sc, rules: f"{plural(part.count, 'car')} to the Mountain Crossing "
        f"({plural(sc.mountain_routes, 'mountain route')})"),
    "most_cities": PartWords(
        lambda rules: "explor", 7,
        lambda part, sc, rules: f"largest network {plural(part.count, 'city', 'cities')}: {_won_or_not(part)}"),
    "shares": PartWords(  # Pennsylvania (engine/sharemoves.py)
        lambda rules: "shares", 8,
        lambda part, sc, rules: f"{plural(part.count, 'share')} held: the companies' majorities"),
    # The United Kingdom's technologies (engine/technologies.py).
    "laid": PartWords(
        lambda rules: "laid", 6,
        lambda part, sc, rules: "Boiler Lagging and Steam Turbines, as routes were laid"),
    "double_heading": PartWords(
        lambda rules: "double", 8,
        lambda part, sc, rules: (f"Double Heading: {plural(part.count, 'ticket')} done x 2" if part.points
                                 else "no Double Heading")),
    "risky": PartWords(
        lambda rules: "risky", 7,
        lambda part, sc, rules: (f"Risky Contracts, {plural(part.count, 'ticket')} done: "
                                 + ("the most" if part.points > 0 else "not the most" if part.points else "not held"))),
    "beam": PartWords(
        lambda rules: "beam", 6,
        lambda part, sc, rules: (f"Equalising Beam, longest trail {plural(part.count, 'car')}: "
                                 + ("the longest" if part.points > 0 else "not the longest" if part.points
                                    else "not held"))),
    # Old West (engine/markerpoints.py): the route points markers moved, to or from the player.
    "city_markers": PartWords(
        lambda rules: "cities", 8,
        lambda part, sc, rules: "route points the city markers moved"
        + (f" ({plural(part.count, 'marker')} placed)" if part.count else "")),
    # Old West's Alvin the Alien (engine/alvin.py): his captures, and holding him at the end.
    "alvin": PartWords(
        lambda rules: "alvin", 7,
        lambda part, sc, rules: f"Alvin captured {plural(part.count, 'time')}"
        + (", held at the end" if part.points > part.count * rules.alvin_capture_points else "")),
    # Alvin & Dexter (engine/monsterpoints.py): the most cards of each monster.
    "monster_alvin": PartWords(lambda rules: "alvin", 7, lambda part, sc, rules: _monster_cards(part)),
    "monster_dexter": PartWords(lambda rules: "dexter", 8, lambda part, sc, rules: _monster_cards(part)),
}


def _monster_cards(part: ScorePart) -> str:
    return f"{plural(part.count, part.title + ' card')}: " + (
        "the most" if part.points else "not the most" if part.count else "none taken")


def part_words(part: ScorePart) -> PartWords:
    """The words for ``part``: its own entry, or its title where it has none."""
    return PART_WORDS.get(part.key) or PartWords(lambda rules: part.key[:7], max(len(part.key[:7]) + 2, 6),
                                                 lambda p, sc, rules: p.title)


def part_heading(part: ScorePart, rules: Rules) -> str:
    """The part's column title, right-aligned in its width."""
    words = part_words(part)
    return f"{words.column(rules):>{words.width}}"


def part_cell(part: ScorePart, rules: Rules) -> str:
    """The part's points under its column title."""
    return f"{part.points:>{part_words(part).width}}"


def part_line(part: ScorePart, sc: PlayerScore, rules: Rules) -> str:
    """A player's line for ``part`` on the end page: the column word, the points and what earned them."""
    words = part_words(part)
    label = words.column(rules)
    points = f"{label:<7} {part.points:>3}" if len(label) <= 7 else f"{label} {part.points:>{max(1, 10 - len(label))}}"
    return f"  {points}   {words.earned(part, sc, rules)}"
