"""A game is one value: a board, its rule settings and a variant.

Every rule that differs between the boards of the family (cards and tickets
dealt, keep minimums, where unkept tickets go, the face-up locomotive rule,
which sides of a double route are open, trains, stations, the end trigger,
the bonuses) is a field of :class:`Rules`, read by the one function that
applies it; nothing else in the project spells those numbers. A
:class:`Game` bundles the :class:`~p2p_ttr.engine.board.Board` (cities,
routes, the tickets of the variant's decks, train cards) with its rules, the
names it is loaded by and a digest of everything it was built from, which the
signed seating carries so that peers with different data refuse each other
before a card is dealt.

Games are made by :func:`p2p_ttr.engine.boards.load_game`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations

from .board import Board, Route
from .cards import CardRef, Deck


class LocomotiveUse(Enum):
    """Which routes locomotives may pay for."""

    ANY = "any"
    TUNNELS_AND_FERRIES = "tunnels and ferries"  # Nordic Countries
    TUNNELS = "tunnels"  # Switzerland


class Unkept(Enum):
    """Where tickets a player does not keep go."""

    BOX = "box"  # out of the game, unseen by anyone else
    BOTTOM = "bottom"  # under their deck, each player's in the order they chose (re-masked: see state.NeedRemask)
    # Every player's returns gathered, then mixed (state.NeedMix) once nobody is
    # still choosing: so nobody knows where their own returned tickets lie.
    BOTTOM_SHUFFLED = "bottom shuffled"  # shuffled together under the deck (France's set-up)
    SHUFFLED_IN = "shuffled in"  # shuffled into the whole remaining deck (Old West's set-up)


@dataclass(frozen=True, slots=True)
class TicketDeal:
    """``count`` tickets from ``deck``: one part of an offer, of which at most
    ``keep_max`` may be kept (None: all of them; Mega Europe: 1 of 2 long)."""

    deck: Deck
    count: int
    keep_max: int | None = None


@dataclass(frozen=True, slots=True)
class TicketChoice:
    """An offer of tickets and what the player must keep of it: at least
    ``keep_min`` in all (or every ticket that may be kept, when the decks ran
    short), and of each deal at most its ``keep_max``. This is the ticket
    choice's one home: the engine's check, the moves it offers, the bots and
    the client's words all ask these methods."""

    deals: tuple[TicketDeal, ...]
    keep_min: int
    unkept: Unkept

    @property
    def size(self) -> int:
        return sum(d.count for d in self.deals)

    def dealt(self, deck: Deck) -> int:
        """How many tickets of ``deck`` this offer deals."""
        return sum(d.count for d in self.deals if d.deck is deck)

    def keep_most(self, deck: Deck) -> int | None:
        """The most tickets of ``deck`` one may keep of this offer (None: no limit)."""
        limits = [d.keep_max for d in self.deals if d.deck is deck]
        return None if None in limits or not limits else sum(n for n in limits if n is not None)

    def keep_least(self, offered: Sequence[CardRef]) -> int:
        """The fewest of ``offered`` that must be kept: the keep minimum, or
        all that may be kept when fewer were dealt."""
        keepable = 0
        for deck, n in Counter(r.deck for r in offered).items():
            most = self.keep_most(deck)
            keepable += n if most is None else min(n, most)
        return min(self.keep_min, keepable)

    def keep_problem(self, keep: Sequence[CardRef], offered: Sequence[CardRef]) -> str | None:
        """Why keeping ``keep`` of ``offered`` breaks the rule (None: it does not)."""
        least = self.keep_least(offered)
        if len(keep) < least:
            return f"at least {least} ticket{'s' if least > 1 else ''} must be kept"
        for deck, n in Counter(r.deck for r in keep).items():
            most = self.keep_most(deck)
            if most is not None and n > most:
                kind = "long ticket" if deck is Deck.LONG else "ticket"
                return f"at most {most} {kind}{'s' if most != 1 else ''} of this offer may be kept, not {n}"
        return None

    def keeps(self, offered: Sequence[CardRef]) -> Iterator[tuple[CardRef, ...]]:
        """Every choice of ``offered`` to keep that the rule allows, the most tickets first, each in the order
        offered."""
        for size in range(len(offered), self.keep_least(offered) - 1, -1):
            for keep in combinations(offered, size):
                if self.keep_problem(keep, offered) is None:
                    yield keep


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule setting of one way to play a board (see the module docstring)."""

    min_players: int
    max_players: int
    trains: int  # each player's cars
    stations: int  # each player's stations (0: the board has none)
    station_points: int  # per station left unbuilt
    cards_dealt: int  # train cards in each starting hand
    setup_tickets: TicketChoice  # the first offer, to every player at once
    draw_tickets: TicketChoice  # the offer of the "draw tickets" action
    face_up_locomotive_ends_draw: bool  # a face-up locomotive is the whole draw (it counts as two cards)
    three_locomotives_reset_row: bool  # three face-up locomotives: the row is discarded and dealt again
    both_sides_min_players: int  # from this many players both sides of a double route may be claimed
    last_round_trains: int  # a turn ending with at most this many cars starts the last round
    tunnel_cards: int  # cards a tunnel turns over
    longest_path_bonus: str  # the name of the longest-trail bonus ("" when the board has none)
    longest_path_points: int
    globetrotter_points: int  # for the most completed tickets (0: not played)
    # India's Grand Tour, by the number of a player's tickets joined by two separate paths
    # (grandtour.py): entry n for n tours, the last for any more; () where not played.
    grand_tour_points: tuple[int, ...] = ()
    locomotive_use: LocomotiveUse = LocomotiveUse.ANY
    # Cards of any kind that stand in for one locomotive on a ferry (0: none; Nordic: 3).
    ferry_stand_in: int = 0
    # Points per car a mountain route's X sends to the Mountain Crossing (Legendary Asia: 2).
    mountain_car_points: int = 0
    # The bonus for the most cities in one network of a player's routes (Legendary Asia's
    # Asian Explorer), shared by every player tied for it; "" and 0 where not played.
    most_cities_bonus: str = ""
    most_cities_points: int = 0
    # Locomotives each player is given face up before the deal, taken out of the train deck
    # before its first shuffle (startinglocos.py; the United Kingdom: 1).
    locomotives_dealt: int = 0
    # Any this many cards may be paid as one locomotive (payments.py; the United Kingdom: 4; 0: never).
    cards_per_locomotive: int = 0
    # The technologies laid out on the table (technologies.py; the United Kingdom); () where not played.
    technologies: tuple[str, ...] = ()
    # Old West's city markers (citymarkers.py): each player's markers (0: not
    # played), the cards of one colour that place one after a claim, and the
    # cities where no starting marker may go.
    city_markers: int = 0
    marker_cards: int = 0
    no_start_cities: tuple[str, ...] = ()
    # Old West's Alvin the Alien (alvin.py): the city he starts in ("": not played),
    # the points for capturing him and for holding him at the end, and the
    # cities no marker may go to (his starting city: "no player can claim Roswell").
    alvin_city: str = ""
    alvin_capture_points: int = 0
    alvin_end_points: int = 0
    no_marker_cities: tuple[str, ...] = ()
    # Europe 1912's warehouses and depots, an expansion of any board (depots.py):
    # each player's depots (0: not played) and the bonus for the most left unused.
    depots: int = 0
    depot_points: int = 0
    # Alvin & Dexter, an expansion of any board but Old West (monsters.py): the
    # cards of each monster's deck (0: not played) and the bonus for the most of one monster's cards.
    monster_cards: int = 0
    monster_points: int = 0

    def players_allowed(self, n: int) -> bool:
        return self.min_players <= n <= self.max_players

    def locomotives_pay_for(self, route: Route) -> bool:
        """Whether locomotives may pay for ``route`` (a tunnel's extra cards included)."""
        use = self.locomotive_use
        return (use is LocomotiveUse.ANY or route.tunnel
                or (use is LocomotiveUse.TUNNELS_AND_FERRIES and route.ferry_locomotives > 0))

    def both_sides_open(self, n_players: int) -> bool:
        """Whether both sides of a double route may be claimed at this table."""
        return n_players >= self.both_sides_min_players


@dataclass(frozen=True, eq=False)  # compared by identity: one value per loaded game
class Game:
    """One board played one way: its data, its rules and the names it is loaded by."""

    board_name: str  # "europe", "usa", ...
    variant: str  # "" for the board's standard game; its expansions after a "+" (boards.split_variant)
    title: str  # how players name it: "USA 1910"
    board: Board
    rules: Rules
    digest: bytes  # SHA-256 of the board data, the variant and the rules (the seating carries it)

    @property
    def name(self) -> str:
        """The game as ``load_game`` takes it: ``usa`` or ``usa(variant=1910)``."""
        return self.board_name if not self.variant else f"{self.board_name}(variant={self.variant})"

    def deck_size(self, deck: Deck) -> int:
        """How many cards ``deck`` holds in this game (0: not used)."""
        if deck is Deck.TRAIN:
            return self.board.n_cards
        if deck is Deck.TICKETS:
            return len(self.board.regular_tickets)
        if deck is Deck.DUMMY_SHARES:
            market = self.board.stock_market
            return market.dummy_cards if market is not None else 0
        return len(self.board.long_tickets)

    def card_ids(self, deck: Deck) -> range:
        """The ids a card of ``deck`` may have: train cards from 0, regular
        tickets from 0, long tickets after the regular ones."""
        first = len(self.board.regular_tickets) if deck is Deck.LONG else 0
        return range(first, first + self.deck_size(deck))

    def __repr__(self) -> str:
        # The state's repr (and public_digest) shows the game by its name and digest, not its whole map.
        return f"Game({self.name!r}, {self.digest.hex()[:16]})"
