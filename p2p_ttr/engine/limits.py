"""How large anything said about a game may be: one value derived from the
:class:`~p2p_ttr.engine.game.Game`, never written down.

Every decoder whose bounds depend on the game played reads them here: the
engine's events (seats, routes, cities, each deck's positions and card ids,
the most cards one move names) and the table's messages (the seats a seating
holds, the cards a shuffle names, the tickets a re-masking carries). A
message read before its game is known (a seating, a relay's first look at an
entry) is held to :func:`any_game_limits`, the bounds every game we have
fits, so a value one game allows is never refused before its game is known.
Those are written down here (but the places, read from the data files), so
that a process builds only the board it plays; tests check them against
every game built from its data.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

from .board import Route
from .boards import every_game, every_place
from .cards import Deck
from .game import Game, Unkept


@dataclass(frozen=True, slots=True)
class GameLimits:
    """The bounds of a game's wire values (see the module docstring)."""

    min_players: int
    max_players: int
    deck_sizes: tuple[int, ...]  # by Deck; 0: a deck the game does not use
    first_ids: tuple[int, ...]  # by Deck: the id of its first card (long tickets follow the regular ones)
    routes: int
    cities: frozenset[str]
    most_paid: int  # cards in a claim: the longest route, stand-ins counted in full
    most_offered: int  # tickets in one offer (kept plus returned)
    most_returned: int  # tickets returned under their pile at once (one re-masking)
    most_extra: int  # a tunnel's extra cards: the cards it turns
    most_station: int  # cards for the last station
    companies: frozenset[str] = frozenset()  # the codes of the stock companies (Pennsylvania)
    colors: frozenset[str] = frozenset()  # the train cards' colours (a track piece's, France)
    most_marker: int = 0  # cards that place a city marker (Old West)

    @property
    def largest_deck(self) -> int:
        """The most cards one deck holds: a shuffle's, a reveal's or a peek's most."""
        return max(self.deck_sizes)

    @property
    def highest_card_id(self) -> int:
        return max(first + size for first, size in zip(self.first_ids, self.deck_sizes)) - 1

    @property
    def longest_city(self) -> int:
        return max(len(city) for city in self.cities)

    @property
    def longest_color(self) -> int:
        return max((len(color) for color in self.colors), default=1)

    @staticmethod
    @cache  # a game is one value per board and variant (compared by identity): its limits are read once
    def of(game: Game) -> GameLimits:
        rules, board = game.rules, game.board
        offers = (rules.setup_tickets, rules.draw_tickets)
        return GameLimits(
            min_players=rules.min_players,
            max_players=rules.max_players,
            deck_sizes=tuple(game.deck_size(deck) for deck in Deck),
            first_ids=tuple(game.card_ids(deck).start for deck in Deck),
            routes=len(board.routes),
            cities=frozenset(board.cities),
            most_paid=max(most_cards_paid(game, r) for r in board.routes),
            most_offered=max(offer.size for offer in offers),
            most_returned=max((o.size - o.keep_min for o in offers if o.unkept is Unkept.BOTTOM), default=0),
            most_extra=rules.tunnel_cards,
            most_station=rules.stations,
            companies=frozenset(c.code for c in board.stock_market.companies) if board.stock_market else frozenset(),
            colors=frozenset(board.colors),
            most_marker=rules.marker_cards,
        )


def most_cards_paid(game: Game, route: Route) -> int:
    """The most cards a claim of ``route`` may hold: its length, and where cards
    stand in for others (standins.py) each stand-in's group in full (where any
    cards may be paid as a locomotive, every space paid so)."""
    if game.rules.cards_per_locomotive:
        return route.length * game.rules.cards_per_locomotive
    if route.stand_in:
        return route.length * route.stand_in
    if route.ferry_locomotives and game.rules.ferry_stand_in:
        return route.length + (game.rules.ferry_stand_in - 1) * route.ferry_locomotives
    return route.length


# What every game we have fits, but its places (those come from the data files,
# every_place). Written down: computed, they cost each process ~0.05 s of its
# start building all thirteen games to read a dozen numbers.
# tests/codec/test_game_limits.py checks them against every_game_limits, and
# names the value a new board that widens one needs here.
_ANY_GAME = GameLimits(
    min_players=2,
    max_players=6,  # Old West
    deck_sizes=(116, 89, 101, 30),  # by Deck: the farthest card id + 1 of each kind in any game
    first_ids=(0, 0, 0, 0),
    routes=157,  # France
    cities=frozenset(),  # every_place()
    most_paid=40,  # the United Kingdom's claims
    most_offered=7,  # Mega Europe: 2 long and 5 regular tickets
    most_returned=3,
    most_extra=3,
    most_station=3,
    companies=frozenset({"B&O", "BR&P", "ERIE", "JCL", "LV", "NYC", "PRR", "RDG", "WM"}),  # Pennsylvania
    colors=frozenset({"black", "blue", "green", "orange", "purple", "red", "white", "yellow"}),
    most_marker=2,  # Old West
)


@cache
def any_game_limits() -> GameLimits:
    """Bounds every game we have fits: what a value is held to before its game
    is known (see :func:`every_game_limits`, which they equal)."""
    return replace(_ANY_GAME, cities=every_place())


def every_game_limits() -> GameLimits:
    """Bounds every game we have fits, computed from every game (each board
    built from its data): what :func:`any_game_limits` writes down. Each
    deck's positions and card ids start from 0 and reach as far as the
    farthest card id of that kind in any game (a long ticket's id follows the
    regular tickets of its game, so it is bounded by the largest such id, and
    so is its position)."""
    every = [GameLimits.of(game) for game in every_game()]
    return GameLimits(
        min_players=min(b.min_players for b in every),
        max_players=max(b.max_players for b in every),
        deck_sizes=tuple(max(b.deck_sizes[deck] + b.first_ids[deck] for b in every) for deck in Deck),
        first_ids=tuple(0 for _ in Deck),
        routes=max(b.routes for b in every),
        cities=frozenset().union(*(b.cities for b in every)),
        most_paid=max(b.most_paid for b in every),
        most_offered=max(b.most_offered for b in every),
        most_returned=max(b.most_returned for b in every),
        most_extra=max(b.most_extra for b in every),
        most_station=max(b.most_station for b in every),
        companies=frozenset().union(*(b.companies for b in every)),
        colors=frozenset().union(*(b.colors for b in every)),
        most_marker=max(b.most_marker for b in every),
    )
