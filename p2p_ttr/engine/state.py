"""The game state: plain immutable data. ``rules.apply`` is the only way it changes.

Knowledge of card faces is split in two maps:

* ``public``: faces every player has seen (face-up row, discards, cards played,
  tunnel cards, tickets shown at the end). Identical on every peer.
* ``private``: faces someone saw alone (a hand card drawn blind, a ticket). A
  peer's replica holds only its own; the local dealer's omniscient state holds
  everyone's; ``view.view_for`` cuts it down to one player's.

Everything except ``private`` is the *public state*: the same on every peer that
folded the same events, which is what ``public_digest`` hashes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import TypeAlias

from .cards import CardRef, Deck
from .citymarkers import CityMarkers
from .depotstate import Depots
from .game import Game
from .stockmarket import StockHoldings
from .techstate import TechnologyHoldings
from .laidpieces import TrackBeds
from .monsters import Monsters

FACE_UP_SLOTS = 5


class Phase(Enum):
    """Where a game is: setting up, a turn, a ticket choice, a tunnel, scoring, over."""

    SETUP = "setup"  # chance is setting the table up
    SETUP_TICKETS = "setup_tickets"  # every player keeps some of their first tickets (Rules.setup_tickets)
    TURN = "turn"  # ``current`` picks an action (or their second card)
    TUNNEL = "tunnel"  # ``current`` pays the tunnel's extra cards or gives up
    TICKETS = "tickets"  # ``current`` keeps 1+ of the tickets just drawn
    SCORING = "scoring"  # the game is over; held tickets are being revealed
    START_CITY = "start_city"  # ``current`` places their starting city marker (citymarkers.py)
    MARKER = "marker"  # ``current`` may place a city marker on an end of the route just claimed
    ALVIN = "alvin"  # ``current`` captured Alvin the Alien and puts him down in a city they control (alvin.py)
    OVER = "over"
    SHARES = "shares"  # ``current`` chooses the stock shares of the route just claimed (sharemoves.py)
    LAY_TRACK = "lay_track"  # ``current`` lays a track piece after drawing train cards (trackbeds.py)
    MONSTERS = "monsters"  # ``current`` places Alvin or Dexter before the first turn (monsters.py)
    DEPOT_SETUP = "depot_setup"  # ``current`` places their first depot, before the first turn (depots.py)
    WAREHOUSES = "warehouses"  # ``current`` may empty the warehouses their claims this turn reach (depots.py)


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One player's holdings: hand and tickets (as card references), routes, stations, and the trains and
    stations still in their supply (``new_game`` fills it from the game's rules)."""

    hand: tuple[CardRef, ...] = ()
    tickets: tuple[CardRef, ...] = ()  # kept destination tickets
    offered: tuple[CardRef, ...] = ()  # tickets drawn and not yet chosen
    routes: tuple[int, ...] = ()
    stations: tuple[str, ...] = ()
    trains: int = 0
    stations_left: int = 0


@dataclass(frozen=True, slots=True)
class Tunnel:
    """A tunnel claim waiting on its three turned cards and then on the player."""

    route: int
    cards: tuple[CardRef, ...]  # the first payment, shown, still in the hand
    color: str | None  # the colour played; None when paid with locomotives only
    revealed: tuple[CardRef, ...] = ()
    extra: int = 0  # how many more cards the turned cards ask for


# --- what the engine waits for from chance --------------------------------


@dataclass(frozen=True, slots=True)
class NeedShuffle:
    """Shuffle ``cards`` (card ids, canonical order) into ``deck`` epoch ``epoch``."""

    deck: Deck
    epoch: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class NeedReveal:
    """Show everyone the faces of ``refs``."""

    refs: tuple[CardRef, ...]


@dataclass(frozen=True, slots=True)
class NeedRemask:
    """Put ``refs`` (tickets a player returned) under the deck as ``deck`` epoch
    ``epoch``, positions 0.. in this order, each card re-encrypted so that no
    earlier decryption share opens it again."""

    deck: Deck
    epoch: int
    refs: tuple[CardRef, ...]


@dataclass(frozen=True, slots=True)
class NeedMix:
    """Shuffle the hidden cards ``refs`` together as ``deck`` epoch ``epoch``:
    each permuted and re-encrypted, so that nobody knows where any of them
    lies and no earlier decryption share opens one. The set-up's returned
    tickets (``Unkept.BOTTOM_SHUFFLED``, ``Unkept.SHUFFLED_IN``, with the
    deck's remaining cards); the new epoch takes their place under what is
    left of the deck."""

    deck: Deck
    epoch: int
    refs: tuple[CardRef, ...]


ChanceRequest: TypeAlias = NeedShuffle | NeedReveal | NeedRemask | NeedMix


# --- the engine's internal to-do list ------------------------------------
# An action may need chance half-way (a reshuffle while refilling the row, the
# tunnel cards); steps let the engine stop there and resume where it left off.


@dataclass(frozen=True, slots=True)
class StepShuffle:
    """Queued work: ask for a deck epoch to be shuffled."""

    deck: Deck
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class StepDeal:
    """Queued work: deal train cards to a player from the top of the draw pile."""

    player: int
    count: int


@dataclass(frozen=True, slots=True)
class StepDealTickets:
    """Queued work: offer tickets to a player from the top of a ticket deck."""

    player: int
    deck: Deck
    count: int


@dataclass(frozen=True, slots=True)
class StepFillRow:
    """Deal a card into every empty face-up slot, then check the row."""


@dataclass(frozen=True, slots=True)
class StepCheckRow:
    """Three face-up locomotives: discard the row and deal a new one, unless
    no new row can do better (see ``drawpile.colored_in_reach``)."""


@dataclass(frozen=True, slots=True)
class StepTunnelReveal:
    """Queued work: turn the top cards of the draw pile over for a tunnel."""

    remaining: int


@dataclass(frozen=True, slots=True)
class StepTunnelResolve:
    """Queued work: count what the turned cards ask for: the route is taken, or its claimer pays more."""


@dataclass(frozen=True, slots=True)
class StepAfterDraw:
    """Queued work: end the turn, or let the player take a second card."""


@dataclass(frozen=True, slots=True)
class StepBeginTicketChoice:
    """Queued work: let the player choose among the tickets offered."""


@dataclass(frozen=True, slots=True)
class StepGameOver:
    """Queued work: score the game once every ticket is turned over."""


@dataclass(frozen=True, slots=True)
class StepRemask:
    """Queued work: ask for the returned tickets to be re-masked under their deck."""

    deck: Deck
    refs: tuple[CardRef, ...]


@dataclass(frozen=True, slots=True)
class StepMix:
    """Queued work: ask for ``refs`` to be shuffled together into a new epoch of their deck."""

    deck: Deck
    refs: tuple[CardRef, ...]


@dataclass(frozen=True, slots=True)
class StepEndTurn:
    """Queued work: end the turn (after a tunnel or a ticket choice)."""


Step: TypeAlias = (
    StepShuffle
    | StepDeal
    | StepDealTickets
    | StepFillRow
    | StepCheckRow
    | StepTunnelReveal
    | StepTunnelResolve
    | StepAfterDraw
    | StepBeginTicketChoice
    | StepGameOver
    | StepRemask
    | StepMix
    | StepEndTurn
)


@dataclass(frozen=True)
class GameState:
    """The whole game as immutable data: the game played (board and rules), decks, face-up row,
    players, route owners, turn and phase, the queue of work (``steps``) and the chance it waits
    for (``awaiting``). ``public`` holds the faces everyone knows, ``private`` those only this
    view's player knows. Change it only with ``rules.apply``."""

    game: Game
    n_players: int
    players: tuple[PlayerState, ...]
    phase: Phase = Phase.SETUP
    current: int = 0
    turn: int = 0  # turns completed
    cards_drawn: int = 0  # train cards taken so far this turn (a face-up locomotive counts 2)
    draw_pile: tuple[CardRef, ...] = ()  # top first
    discard: tuple[CardRef, ...] = ()
    face_up: tuple[CardRef | None, ...] = (None,) * FACE_UP_SLOTS
    epoch: int = -1  # epoch of the current train draw pile
    # Non-locomotive cards among those shuffled into train epoch ``epoch``:
    # public, as the shuffle's list of card ids is (see drawpile.colored_in_reach).
    epoch_colored: int = 0
    ticket_epoch: int = 0  # latest epoch of the ticket deck (returned tickets start a new one)
    ticket_pile: tuple[CardRef, ...] = ()  # top first
    long_pile: tuple[CardRef, ...] = ()
    # Tickets returned at the set-up, gathered until every player has chosen and then mixed (NeedMix).
    returned: tuple[CardRef, ...] = ()
    route_owner: tuple[int | None, ...] = ()
    tunnel: Tunnel | None = None
    final_turns_left: int | None = None  # set when someone ends a turn with <= 2 trains
    passes: int = 0  # consecutive turns in which nobody could act
    stalled: bool = False
    # Ended early because fewer than two seats were still played by their own
    # players (rules.concede); ``conceded_to`` is the one left, ranked first.
    conceded: bool = False
    conceded_to: int | None = None
    steps: tuple[Step, ...] = ()
    awaiting: ChanceRequest | None = None
    # Pennsylvania's stock shares (stockmarket.py); None on boards without them.
    shares: StockHoldings | None = None
    markers: CityMarkers | None = None  # Old West's city markers (citymarkers.py); None where not played
    public: Mapping[CardRef, int] = field(default_factory=dict)
    private: Mapping[CardRef, int] = field(default_factory=dict)
    # The United Kingdom's technologies (technologies.py); None where the game has none.
    technologies: TechnologyHoldings | None = None
    # A board's own slice of the state, None where the board has no such pieces.
    track_beds: TrackBeds | None = None  # France's pieces laid and routes cut (trackbeds.py)
    monsters: Monsters | None = None  # Alvin & Dexter, where played (monsters.py)
    depots: Depots | None = None  # Europe 1912's warehouses and depots, on any board (depots.py)

    def evolve(self, **changes: object) -> GameState:
        """A copy with ``changes``: ``dataclasses.replace`` without its cost.

        The engine makes several states per event; replace() re-runs __init__
        over every field each time and was the largest cost of a whole game.
        Copying the instance dict is safe because every field is immutable.
        """
        assert _STATE_FIELDS.issuperset(changes), f"not GameState fields: {set(changes) - _STATE_FIELDS}"
        new = object.__new__(GameState)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    def face(self, ref: CardRef) -> int | None:
        """The card id behind ``ref`` if this state knows it."""
        known = self.public.get(ref)
        return known if known is not None else self.private.get(ref)

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER


_STATE_FIELDS = frozenset(f.name for f in fields(GameState))
# Fields added after the first digests (a board's slice of the state, the
# set-up's gathered returns), hashed only while they differ from their
# default (None, or nothing gathered): the public digest of every other game
# (which seeds the expert bot) stays what it was before the field existed.
_HASHED_WHEN_PLAYED = frozenset({"shares", "technologies", "track_beds", "markers", "monsters", "depots",
                                 "returned"})


def public_digest(state: GameState) -> str:
    """SHA-256 over the public state: equal on every peer that folded the same log."""
    h = hashlib.sha256()
    for f in fields(state):
        value = getattr(state, f.name)
        if f.name == "private" or (f.name in _HASHED_WHEN_PLAYED and value == f.default):
            continue
        if f.name == "public":
            value = sorted(value.items())
        h.update(f.name.encode())
        h.update(repr(value).encode())
    return h.hexdigest()
