"""The boards we play and their ways to play: ``load_game("usa", "1910")``.

Each board is one entry of :data:`BOARDS`: its data file in ``p2p_ttr/data``,
its standard rules, and its variants as changes to those rules plus the
ticket set each variant deals from. The rule numbers come from the rules
summary (``shared/rules/other_boards.txt``) and, where it is silent, the
board's printed rules; ``tests/engine/test_boards_data.py`` checks them
against the transcriptions in ``shared/maps``.

A loaded game is cached: every replica of a process shares one value per
(board, variant), so comparing games by identity is cheap and exact.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cache
from typing import Any

from .board import load_board, places_in, read_board_data
from .cards import Deck
from .countrytickets import with_country_tickets
from .game import Game, LocomotiveUse, Rules, TicketChoice, TicketDeal, Unkept
from .techstate import EVERY_TECHNOLOGY, REGULAR_TECHNOLOGIES

MAX_NAME = 32  # a board or variant name on the wire (a variant with its expansions: "bigcities+depots+monsters")


class UnknownGame(ValueError):
    """A board or variant we do not have; the message names what there is."""


@dataclass(frozen=True, slots=True)
class MissingBoard:
    """A board of the rules summary that does not play here, and why."""

    title: str
    why: str


_NO_DATA = "we have no transcription of its board and cards checked against the printed ones"

# The boards of the rules summary (shared/rules/other_boards.txt) we cannot
# play: a board plays only from data checked against the printed board.
NOT_AVAILABLE: Mapping[str, MissingBoard] = {
    "marklin": MissingBoard("Märklin", _NO_DATA + "; it also needs its passengers and merchandise tokens"),
    "teamasia": MissingBoard("Team Asia", _NO_DATA + "; it also needs teams sharing a hand, which the "
                             "deck protocol does not deal (a hand is one seat's secret)"),
    "africa": MissingBoard("Heart of Africa", _NO_DATA + "; it also needs its terrain cards"),
    "nederland": MissingBoard("Nederland", _NO_DATA + "; it also needs its bridge toll tokens"),
}


@dataclass(frozen=True, slots=True)
class Variant:
    """A way to play a board: the ticket set it deals from and how its rules differ."""

    title: str
    # The ``sets`` entry of the data's tickets; None: the data's own lists
    # (``tickets_regular`` and ``tickets_long``, or every entry of ``tickets``).
    ticket_set: str | None
    changes: Mapping[str, Any] = field(default_factory=dict)  # Rules fields that differ from the board's
    # The data file the tickets are read from where they are not the board's own (Europe 1912's).
    ticket_file: str = ""


@dataclass(frozen=True, slots=True)
class Expansion:
    """An expansion played with any board that allows it: a change of rules,
    like a variant's, named after the variant with a ``+`` (``mega+depots``,
    or ``depots`` with the board's standard game). Its mechanics read the
    rule fields it sets, as a board's do."""

    title: str
    changes: Mapping[str, Any]
    not_on: Mapping[str, str] = field(default_factory=dict)  # board -> why it does not play there


# The expansions, in the order a game's name lists them (the one spelling a
# seating may carry: a digest covers the variant's name).
EXPANSIONS: Mapping[str, Expansion] = {
    # Europe 1912's "Warehouses and Depots (this can be played with ANY Ticket to Ride map!)":
    # 5 depots and a warehouse each; the most depots left unused earn 10.
    "depots": Expansion("Warehouses and Depots", {"depots": 5, "depot_points": 10}),
    # "Alvin & Dexter Mini-Expansion: Can be used with any Ticket to Ride map (except Old West)":
    # 20 cards of each monster; the most of a monster's cards earn 15.
    "monsters": Expansion("Alvin & Dexter", {"monster_cards": 20, "monster_points": 15},
                          {"oldwest": "Old West is not played with Alvin & Dexter (it has its own Alvin)"}),
}


@dataclass(frozen=True, slots=True)
class BoardEntry:
    """One board we can play: where its data is, its standard rules and its variants ('' is the standard game)."""

    name: str
    title: str
    data_file: str
    rules: Rules
    variants: Mapping[str, Variant]


def _choice(deals: tuple[tuple[Deck, int] | TicketDeal, ...], keep_min: int, unkept: Unkept) -> TicketChoice:
    return TicketChoice(tuple(d if isinstance(d, TicketDeal) else TicketDeal(*d) for d in deals), keep_min, unkept)


_EUROPE_RULES = Rules(
    min_players=2,
    max_players=5,
    trains=45,
    stations=3,
    station_points=4,
    cards_dealt=4,
    # One long ticket and three regular ones; at least two kept; the rest to the box.
    setup_tickets=_choice(((Deck.LONG, 1), (Deck.TICKETS, 3)), 2, Unkept.BOX),
    draw_tickets=_choice(((Deck.TICKETS, 3),), 1, Unkept.BOTTOM),
    face_up_locomotive_ends_draw=True,
    three_locomotives_reset_row=True,
    both_sides_min_players=4,
    last_round_trains=2,
    tunnel_cards=3,
    longest_path_bonus="European Express",
    longest_path_points=10,
    globetrotter_points=0,
)

_USA_RULES = replace(
    _EUROPE_RULES,
    stations=0,
    station_points=0,
    setup_tickets=_choice(((Deck.TICKETS, 3),), 2, Unkept.BOTTOM),
    longest_path_bonus="Longest Path",
)

_INDIA_RULES = replace(
    _USA_RULES,
    max_players=4,
    setup_tickets=_choice(((Deck.TICKETS, 4),), 2, Unkept.BOTTOM),
    longest_path_bonus="Indian Express",
    # The Grand Tour: 5/10/20/30/40 for 1/2/3/4/5+ tickets joined by two separate paths.
    grand_tour_points=(0, 5, 10, 20, 30, 40),
)

_NORDIC_RULES = replace(
    _USA_RULES,
    max_players=3,
    trains=40,
    setup_tickets=_choice(((Deck.TICKETS, 5),), 2, Unkept.BOX),  # "Any not kept are removed from the game"
    draw_tickets=_choice(((Deck.TICKETS, 3),), 1, Unkept.BOX),
    face_up_locomotive_ends_draw=False,  # "You can take 2 face-up locomotives on this map!"
    three_locomotives_reset_row=False,
    both_sides_min_players=3,  # "The 3 player game uses all Double-Route pathways"
    longest_path_bonus="",
    longest_path_points=0,
    globetrotter_points=10,
    locomotive_use=LocomotiveUse.TUNNELS_AND_FERRIES,
    ferry_stand_in=3,  # "any 3 train cards can be used as 1 Locomotive for Ferry use"
)

_SWITZERLAND_RULES = replace(
    _NORDIC_RULES,
    three_locomotives_reset_row=True,  # the summary frees the draw only: the row is still redealt
    longest_path_bonus="Longest Path",
    longest_path_points=10,
    globetrotter_points=0,
    locomotive_use=LocomotiveUse.TUNNELS,  # "Can only play them when claiming Tunnels"
    ferry_stand_in=0,
)

_LEGENDARY_ASIA_RULES = replace(
    _USA_RULES,
    # As Europe: one long ticket (of six) and three regular ones, keep two; the rest to the box.
    setup_tickets=_EUROPE_RULES.setup_tickets,
    longest_path_bonus="",
    longest_path_points=0,
    mountain_car_points=2,  # "Score 2 points for each train car placed in this Mountain Crossing Area"
    most_cities_bonus="Asian Explorer",
    most_cities_points=10,
)

_PENNSYLVANIA_RULES = replace(
    _USA_RULES,
    setup_tickets=_choice(((Deck.TICKETS, 5),), 3, Unkept.BOTTOM),
    draw_tickets=_choice(((Deck.TICKETS, 4),), 1, Unkept.BOTTOM),
    longest_path_bonus="",
    longest_path_points=0,
    globetrotter_points=15,  # "for the most completed tickets. Ties earn the full 15 points"
)

_UK_RULES = replace(
    _USA_RULES,
    max_players=4,
    trains=35,
    # "Each player is dealt 5 Destination tickets, keeping 3+. Discard go on the bottom of the deck.
    # In game, draw 3 tickets, keep 1+."
    setup_tickets=_choice(((Deck.TICKETS, 5),), 3, Unkept.BOTTOM),
    three_locomotives_reset_row=False,  # "When 3 Locomotives are face-up in the selection row, don't reset the row!"
    both_sides_min_players=3,  # "In the 3-4 player game, both pathways of the Double-Routes can be used"
    longest_path_bonus="",  # "No standard end game bonuses on this map"
    longest_path_points=0,
    locomotives_dealt=1,  # "All players will start with 1 Locomotive and the 4 standard dealt Train cards"
    cards_per_locomotive=4,  # "Any 4 card can be substituted for a Locomotive on this map"
    technologies=REGULAR_TECHNOLOGIES,  # "Lay out all 11 regular technologies"
)

_FRANCE_RULES = replace(
    _USA_RULES,
    trains=40,
    cards_dealt=8,
    # 5 dealt keep 3+, "shuffle all discards together and put on bottom of the deck";
    # draw 4 keep 1+ (the rest to the bottom).
    setup_tickets=_choice(((Deck.TICKETS, 5),), 3, Unkept.BOTTOM_SHUFFLED),
    draw_tickets=_choice(((Deck.TICKETS, 4),), 1, Unkept.BOTTOM),
    longest_path_bonus="Longest Route",
    globetrotter_points=15,
)  # its track beds are the data's (trackbeds.py): beds, the crossings they cut, the pieces

_OLD_WEST_RULES = replace(
    _USA_RULES,
    max_players=6,
    trains=40,
    # 5 dealt keep 3+; "Shuffle ALL discards into the deck before the game starts".
    setup_tickets=_choice(((Deck.TICKETS, 5),), 3, Unkept.SHUFFLED_IN),
    draw_tickets=_choice(((Deck.TICKETS, 4),), 1, Unkept.BOTTOM),
    longest_path_bonus="",
    longest_path_points=0,
    globetrotter_points=15,
    city_markers=3,  # "Each player takes 3 City Markers"
    marker_cards=2,  # "spend 2 more matching cards (locomotives ok)"
    no_start_cities=("Roswell",),  # "any city (except Roswell)"
)

BOARDS: Mapping[str, BoardEntry] = {
    "europe": BoardEntry("europe", "Europe", "europe.json", _EUROPE_RULES, {
        "": Variant("Europe", None),
        # Europe 1912: the original tickets and the 19 new regular ones, dealt as Europe's.
        "expanded": Variant("Europe Expanded", "europe_expanded", ticket_file="europe1912.json"),
        # Every 1912 ticket: 2 long dealt, 0 or 1 kept (the other to the box), 5 regular;
        # 3 kept in all ("with a long ticket kept, 2+ regular, otherwise 3+").
        "mega": Variant("Mega Europe", "mega_europe", {
            "setup_tickets": _choice((TicketDeal(Deck.LONG, 2, keep_max=1), (Deck.TICKETS, 5)), 3, Unkept.BOX),
        }, ticket_file="europe1912.json"),
        # The Big Cities tickets alone (no long ones): 5 dealt keep 2, draw 4 keep 1, no bonus.
        "bigcities": Variant("Big Cities of Europe", "big_cities_of_europe", {
            "setup_tickets": _choice(((Deck.TICKETS, 5),), 2, Unkept.BOX),
            "draw_tickets": _choice(((Deck.TICKETS, 4),), 1, Unkept.BOTTOM),
            "longest_path_bonus": "", "longest_path_points": 0,
        }, ticket_file="europe1912.json"),
    }),
    "usa": BoardEntry("usa", "USA", "usa.json", _USA_RULES, {
        "": Variant("USA", "base"),
        # The 1910 tickets alone, and the Globetrotter in place of the Longest Path.
        "1910": Variant("USA 1910", "1910", {"longest_path_bonus": "", "longest_path_points": 0,
                                             "globetrotter_points": 15}),
        # Every ticket of the 1910 box: 5 dealt keep 3, draw 4 keep 1, both bonuses.
        "mega": Variant("USA Mega Game", "mega", {
            "setup_tickets": _choice(((Deck.TICKETS, 5),), 3, Unkept.BOTTOM),
            "draw_tickets": _choice(((Deck.TICKETS, 4),), 1, Unkept.BOTTOM),
            "globetrotter_points": 15}),
        # The Big Cities tickets: 4 dealt keep 2, draw 4 keep 1, no bonus.
        "bigcities": Variant("USA Big Cities", "big_cities", {
            "setup_tickets": _choice(((Deck.TICKETS, 4),), 2, Unkept.BOTTOM),
            "draw_tickets": _choice(((Deck.TICKETS, 4),), 1, Unkept.BOTTOM),
            "longest_path_bonus": "", "longest_path_points": 0}),
    }),
    "india": BoardEntry("india", "India", "india.json", _INDIA_RULES, {
        "": Variant("India", None),
    }),
    "nordic": BoardEntry("nordic", "Nordic Countries", "nordic.json", _NORDIC_RULES, {
        "": Variant("Nordic Countries", None),
    }),
    "switzerland": BoardEntry("switzerland", "Switzerland", "switzerland.json", _SWITZERLAND_RULES, {
        "": Variant("Switzerland", None),
    }),
    "asia": BoardEntry("asia", "Legendary Asia", "legendary_asia.json", _LEGENDARY_ASIA_RULES, {
        "": Variant("Legendary Asia", None),
    }),
    # Stock shares and the two-player dummy: stockmarket.py, sharemoves.py.
    "pennsylvania": BoardEntry("pennsylvania", "Pennsylvania", "pennsylvania.json", _PENNSYLVANIA_RULES, {
        "": Variant("Pennsylvania", None),
    }),
    "uk": BoardEntry("uk", "United Kingdom", "uk.json", _UK_RULES, {
        "": Variant("United Kingdom", None),
        # "if you wish, add in the 5 advanced technologies"
        "advanced": Variant("United Kingdom Advanced", None, {"technologies": EVERY_TECHNOLOGY}),
    }),
    "france": BoardEntry("france", "France", "france.json", _FRANCE_RULES, {
        "": Variant("France", None),
    }),
    "oldwest": BoardEntry("oldwest", "Old West", "old_west.json", _OLD_WEST_RULES, {
        "": Variant("Old West", None),
        # Alvin the Alien: he starts in Roswell, where no marker may ever go; capturing him scores 10, holding him
        # at the end 10 more.
        "alvin": Variant("Old West Alvin", None, {
            "alvin_city": "Roswell", "alvin_capture_points": 10, "alvin_end_points": 10,
            "no_marker_cities": ("Roswell",)}),
    }),
}


def split_variant(board: str, variant: str) -> tuple[str, tuple[str, ...]]:
    """``monsters+mega+depots`` -> ("mega", ("depots", "monsters")): the
    board's variant and the expansions played with it, in their one order
    (asked for in any).

    Raises:
        UnknownGame: a part names neither a variant of the board nor an
            expansion, an expansion is named twice, or does not play on the board.
    """
    entry = BOARDS[board]
    parts = [p for p in variant.split("+") if p]
    bases = [p for p in parts if p in entry.variants]
    if len(bases) > 1:
        raise UnknownGame(f"a game has one variant: {variant[:MAX_NAME]!r} names {' and '.join(bases)}")
    named = [p for p in parts if p not in entry.variants]
    for name in named:
        expansion = EXPANSIONS.get(name)
        if expansion is None:
            variants = ", ".join(v for v in entry.variants if v) or "none"
            raise UnknownGame(f"{entry.title} has no variant {name[:MAX_NAME]!r}; its variants are {variants}, "
                              f"and the expansions {', '.join(EXPANSIONS)}")
        if board in expansion.not_on:
            raise UnknownGame(f"{expansion.title} does not play on {entry.title}: {expansion.not_on[board]}")
    if len(set(named)) != len(named):
        raise UnknownGame(f"an expansion is named twice in {variant[:MAX_NAME]!r}")
    base = bases[0] if bases else ""
    return base, tuple(e for e in EXPANSIONS if e in named)


def join_variant(base: str, expansions: tuple[str, ...]) -> str:
    """The variant's one spelling: the board's variant, then each expansion after a ``+``."""
    return "+".join(([base] if base else []) + list(expansions))


def parse_game_name(text: str) -> tuple[str, str]:
    """``usa`` -> ("usa", ""); ``usa(variant=1910)`` -> ("usa", "1910"): the
    names ``Game.name`` writes, read back (as OpenSpiel's ``load_game`` does)."""
    text = text.strip()
    if text.endswith(")") and "(" in text:
        board, _, params = text[:-1].partition("(")
        key, _, value = params.partition("=")
        if key.strip() != "variant" or not value.strip():
            raise UnknownGame(f"a game is named board or board(variant=NAME), not {text[:64]!r}")
        return board.strip(), value.strip()
    return text, ""


def load_game(board: str, variant: str = "") -> Game:
    """The game of ``board`` played as ``variant`` ('' for its standard game).

    Raises:
        UnknownGame: no such board or variant; the message lists what there is.
    """
    entry = BOARDS.get(board)
    if board in NOT_AVAILABLE:
        missing = NOT_AVAILABLE[board]
        raise UnknownGame(f"{missing.title} is not available: {missing.why}")
    if entry is None:
        raise UnknownGame(f"there is no board {board[:MAX_NAME]!r}; the boards are {', '.join(BOARDS)}")
    base, expansions = split_variant(board, variant)
    game = _load(board, join_variant(base, expansions))
    if len(game.variant) > MAX_NAME:
        raise UnknownGame(f"a variant and its expansions are named in at most {MAX_NAME} characters")
    return game


def playable_game(board: str, variant: str, digest: bytes) -> Game:
    """The game a peer names (the seating, a challenge): ours of that board and
    variant, if it has the same data and rules (``digest``).

    Raises:
        UnknownGame: no such board or variant here, or ours differs; the message says which.
    """
    game = load_game(board, variant)
    if game.variant != variant:
        raise UnknownGame(f"{variant[:MAX_NAME]!r} is not how a variant is spelt: {game.variant!r}")
    if game.digest != digest:
        raise UnknownGame(f"{game.title} differs here: its board data or rules are not this peer's "
                          "(another version of p2p_ttr?)")
    return game


@cache
def _load(board: str, variant: str) -> Game:
    entry = BOARDS[board]
    base, expansions = split_variant(board, variant)
    chosen = entry.variants[base]
    data = read_board_data(entry.data_file)
    rules = replace(entry.rules, **chosen.changes)
    for name in expansions:
        rules = replace(rules, **EXPANSIONS[name].changes)
    built = load_board(entry.data_file, chosen.ticket_set, chosen.ticket_file)
    if data.get("country_tickets"):
        built = with_country_tickets(built, data)
    tickets = read_board_data(chosen.ticket_file) if chosen.ticket_file else None
    title = " with ".join([chosen.title, " and ".join(EXPANSIONS[e].title for e in expansions)] if expansions
                          else [chosen.title])
    return Game(board, variant, title, built, rules, game_digest(data, variant, rules, tickets))


def game_digest(data: Mapping[str, Any], variant: str, rules: Rules,
                tickets: Mapping[str, Any] | None = None) -> bytes:
    """SHA-256 of the canonical JSON (sorted keys, no spaces, ASCII) of
    ``{"board": data, "rules": rules_record(rules), "variant": variant}``,
    and ``"tickets": tickets`` for a variant whose tickets have their own
    file: the data as parsed (a re-indented file is the same board), so a
    peer in any language with the same data and rules computes the same
    digest (protocol.md §5, seating)."""
    record = {"board": data, "rules": rules_record(rules), "variant": variant}
    if tickets is not None:
        record["tickets"] = tickets
    return hashlib.sha256(json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()).digest()


# Settings added after the first digests (rules revision ttr/6), recorded
# only where a game plays them: the digests of the games that do not use them
# stay what they were, so their logs verify.
RECORDED_WHEN_PLAYED = ("mountain_car_points", "most_cities_bonus", "most_cities_points",
                        "locomotives_dealt", "cards_per_locomotive", "technologies",
                        "city_markers", "marker_cards", "no_start_cities",
                        "alvin_city", "alvin_capture_points", "alvin_end_points", "no_marker_cities",
                        "depots", "depot_points", "monster_cards", "monster_points")


def rules_record(rules: Rules) -> dict[str, Any]:
    """The rules as plain JSON values: each field by name; a ticket offer as
    ``{"deals": [[deck, count], ...], "keep_min": n, "unkept": "box"|"bottom"}``,
    decks by their wire numbers (train 0, tickets 1, long 2), a deal with a
    most that may be kept as ``[deck, count, keep_max]``."""
    record: dict[str, Any] = {}
    for name, declared in Rules.__dataclass_fields__.items():
        value = getattr(rules, name)
        if name in RECORDED_WHEN_PLAYED and value == declared.default:
            continue
        if isinstance(value, TicketChoice):
            deals = [[int(d.deck), d.count] + ([] if d.keep_max is None else [d.keep_max]) for d in value.deals]
            value = {"deals": deals, "keep_min": value.keep_min, "unkept": value.unkept.value}
        elif isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, Enum):
            value = value.value
        record[name] = value
    return record


def every_game() -> tuple[Game, ...]:
    """Every board in every variant, the standard game first (no expansion: see :func:`every_expanded_game`)."""
    return tuple(load_game(name, variant) for name, entry in BOARDS.items() for variant in entry.variants)


def every_expanded_game() -> tuple[Game, ...]:
    """Every board's standard game with each expansion it allows, one at a time and all together."""
    games = []
    for name in BOARDS:
        allowed = tuple(e for e, expansion in EXPANSIONS.items() if name not in expansion.not_on)
        for chosen in [(e,) for e in allowed] + ([allowed] if len(allowed) > 1 else []):
            games.append(load_game(name, join_variant("", chosen)))
    return tuple(games)


def every_place() -> frozenset[str]:
    """The places of every board, read from the data files alone (no board is
    built): what a city named before its game is known may be."""
    return frozenset(place for entry in BOARDS.values() for place in places_in(read_board_data(entry.data_file)))


def europe_game() -> Game:
    """Europe's standard game: what a seating that names no game plays (logs from before the boards)."""
    return load_game("europe")
