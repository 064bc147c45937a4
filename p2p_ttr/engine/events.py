"""Everything that can happen to a game: player actions and chance events.

Player actions carry the acting ``player``; chance events are supplied by
whoever plays the role of chance (the local dealer in tests and self-play, the
mental-poker deck in a networked game). The engine never samples.

Every event is a small frozen dataclass declared once with the wire codec
(``p2p_ttr.codec``): each field's annotation carries its bounds, and
``EVENTS``, their registry by tag, writes an event as ``[tag, field...]``
(``to_wire``) and reads it back (``event_from_wire``), refusing anything off
its declaration with ``MalformedEvent``: within the limits of the game played
when it is given (``GameLimits.of``), else within those every game we have
fits (a message read before its seating is). protocol.md §2's grammar is
these declarations written out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, TypeAlias

from p2p_ttr.codec import Bound, Checked, EnumValue, Family, Int, List, Mapped, Refusal, Str, Tuple, same

from .cards import MAX_EPOCH, CardRef, Deck
from .errors import MalformedEvent
from .game import Game
from .limits import GameLimits, any_game_limits
from .monsters import MONSTERS, MOST_LOCOMOTIVES
from .techstate import EVERY_TECHNOLOGY, LONGEST_TECHNOLOGY_NAME

# --------------------------------------------------------------------------
# Fields: what depends on the game is read from its GameLimits when decoding.


def _last_seat(limits: GameLimits) -> int:
    return limits.max_players - 1


def _last_route(limits: GameLimits) -> int:
    return limits.routes - 1


def _last_position(limits: GameLimits) -> int:
    return limits.largest_deck - 1


def _technologies(limits: GameLimits) -> tuple[str, ...]:
    return EVERY_TECHNOLOGY  # a game without one refuses them all (technologies.buy_problem)


def _deck_in_game(deck: Deck, limits: GameLimits) -> None:
    if not limits.deck_sizes[deck]:
        raise Refusal(f"{deck.value}: this game has no {deck.name.lower()} deck", "deck")


def _on_its_deck(ref: CardRef, limits: GameLimits) -> None:
    size = limits.deck_sizes[ref.deck]
    if ref.pos >= size:
        raise Refusal(f"{ref.pos} is past the {ref.deck.name.lower()} deck's {size} cards", "pos")


def _of_its_deck(face: tuple[CardRef, int], limits: GameLimits) -> None:
    ref, card = face
    first = limits.first_ids[ref.deck]
    last = first + limits.deck_sizes[ref.deck] - 1
    if not first <= card <= last:
        raise Refusal(f"is {card}, outside [{first}, {last}]: not of the {ref.deck.name.lower()} deck", "card")


def _face_ref(face: tuple[CardRef, int]) -> CardRef:
    return face[0]


Player = Annotated[int, Int(0, _last_seat)]
DECK = Checked(EnumValue(Deck), _deck_in_game)  # a deck the game uses
EPOCH = Int(0, MAX_EPOCH)
# A card reference, [deck, epoch, pos] (protocol.md's "ref"): its position below its own deck's size.
REF_FIELDS = Tuple((("deck", DECK), ("epoch", EPOCH), ("pos", Int(0, _last_position))))
REF = Checked(Mapped(REF_FIELDS, CardRef._make, tuple, "ref"), _on_its_deck)
# A card shown: [ref, card id], the id one of its deck's.
FACE = Checked(Tuple((("ref", REF), ("card", Int(0, lambda g: g.highest_card_id)))), _of_its_deck)


def refs(most: Bound) -> List:
    """Card references, at most ``most`` (a number or a function of the limits), none twice."""
    return List(REF, most, unique=same, name="ref")


FACES = List(FACE, lambda g: g.largest_deck, unique=_face_ref, name="face")  # no card shown twice


# --------------------------------------------------------------------------
# Player actions


@dataclass(frozen=True, slots=True)
class DrawBlind:
    """Take the top card of the train deck."""

    player: Player
    TAG: ClassVar[str] = "draw_blind"


@dataclass(frozen=True, slots=True)
class DrawFaceUp:
    """Take the face-up card in ``slot`` (0..4)."""

    player: Player
    slot: Annotated[int, Int(0, 4)]
    TAG: ClassVar[str] = "draw_face_up"


@dataclass(frozen=True, slots=True)
class ClaimRoute:
    """Claim ``route`` paying ``cards`` from the hand (for a tunnel: the first
    payment, before the three cards are turned)."""

    player: Player
    route: Annotated[int, Int(0, _last_route)]
    cards: Annotated[tuple[CardRef, ...], refs(lambda g: g.most_paid)]
    TAG: ClassVar[str] = "claim"


@dataclass(frozen=True, slots=True)
class PayTunnel:
    """Pay the extra cards a tunnel asks for and take it."""

    player: Player
    cards: Annotated[tuple[CardRef, ...], refs(lambda g: g.most_extra)]
    TAG: ClassVar[str] = "pay_tunnel"


@dataclass(frozen=True, slots=True)
class AbandonTunnel:
    """Give up the tunnel: take the cards back; the turn ends."""

    player: Player
    TAG: ClassVar[str] = "abandon_tunnel"


@dataclass(frozen=True, slots=True)
class DrawTickets:
    """Draw three destination tickets (fewer if fewer remain)."""

    player: Player
    TAG: ClassVar[str] = "draw_tickets"


@dataclass(frozen=True, slots=True)
class KeepTickets:
    """Keep ``keep`` of the offered tickets; ``bottom`` are the rest, in the
    order they go under the ticket deck (at setup they leave the game)."""

    player: Player
    keep: Annotated[tuple[CardRef, ...], refs(lambda g: g.most_offered)]
    bottom: Annotated[tuple[CardRef, ...], refs(lambda g: g.most_offered)]
    TAG: ClassVar[str] = "keep_tickets"

    def validate(self, limits: GameLimits) -> None:
        if set(self.keep) & set(self.bottom):
            raise MalformedEvent("a ticket cannot be both kept and returned")


@dataclass(frozen=True, slots=True)
class BuildStation:
    """Build a station in ``city`` paying ``cards``."""

    player: Player
    city: Annotated[str, Str(1, lambda g: g.longest_city, among=lambda g: g.cities)]
    cards: Annotated[tuple[CardRef, ...], refs(lambda g: g.most_station)]
    TAG: ClassVar[str] = "station"


@dataclass(frozen=True, slots=True)
class Pass:
    """Do nothing: allowed only to a player who has no other legal action."""

    player: Player
    TAG: ClassVar[str] = "pass"


def _company_codes(limits: GameLimits) -> frozenset[str]:
    return limits.companies | {""}


def _longest_company(limits: GameLimits) -> int:
    return max((len(code) for code in limits.companies), default=0)


CompanyCode = Annotated[str, Str(0, _longest_company, among=_company_codes)]


@dataclass(frozen=True, slots=True)
class TakeShares:
    """Pennsylvania, after a claim: take the next share of ``company`` (one of
    those beside the route; "" for none) and, with two players, pick the one
    the dummy takes (``dummy``; "" where it takes none). See sharemoves.py."""

    player: Player
    company: CompanyCode
    dummy: CompanyCode
    TAG: ClassVar[str] = "take_shares"

    def validate(self, limits: GameLimits) -> None:
        if self.dummy and not self.company:
            raise MalformedEvent("the dummy takes a share only beside one its player takes")


@dataclass(frozen=True, slots=True)
class BuyTechnology:
    """Buy ``technology`` before the turn's action, paying its price in
    locomotives with ``cards`` (the United Kingdom: technologies.py)."""

    player: Player
    technology: Annotated[str, Str(1, LONGEST_TECHNOLOGY_NAME, among=_technologies)]
    cards: Annotated[tuple[CardRef, ...], refs(lambda g: g.most_paid)]
    TAG: ClassVar[str] = "buy_technology"


@dataclass(frozen=True, slots=True)
class DrawThreeBlind:
    """Take the top three cards of the train deck as the turn's draw (the
    United Kingdom's Water Tenders)."""

    player: Player
    TAG: ClassVar[str] = "draw_three_blind"


@dataclass(frozen=True, slots=True)
class FinishTurn:
    """End the turn after its first claim, without the second that the
    Thermocompressor allows (the United Kingdom)."""

    player: Player
    TAG: ClassVar[str] = "finish_turn"


@dataclass(frozen=True, slots=True)
class LayTrack:
    """Lay a ``color`` track piece on the track bed ``route`` (France, after
    drawing train cards: trackbeds.py)."""

    player: Player
    route: Annotated[int, Int(0, _last_route)]
    color: Annotated[str, Str(1, lambda g: g.longest_color, among=lambda g: g.colors)]
    TAG: ClassVar[str] = "lay_track"


@dataclass(frozen=True, slots=True)
class PlaceStartCity:
    """Put a city marker on ``city`` as the starting city (Old West, before the first turn: citymarkers.py)."""

    player: Player
    city: Annotated[str, Str(1, lambda g: g.longest_city, among=lambda g: g.cities)]
    TAG: ClassVar[str] = "start_city"


@dataclass(frozen=True, slots=True)
class PlaceMarker:
    """Put a city marker on ``city``, an end of the route just claimed, paying ``cards`` (citymarkers.py)."""

    player: Player
    city: Annotated[str, Str(1, lambda g: g.longest_city, among=lambda g: g.cities)]
    cards: Annotated[tuple[CardRef, ...], refs(lambda g: g.most_marker)]
    TAG: ClassVar[str] = "marker"


@dataclass(frozen=True, slots=True)
class SkipMarker:
    """Place no city marker after this claim: the turn ends."""

    player: Player
    TAG: ClassVar[str] = "no_marker"


@dataclass(frozen=True, slots=True)
class MoveAlvin:
    """Put Alvin the Alien, just captured, down in ``city``, one of the player's markers (alvin.py)."""

    player: Player
    city: Annotated[str, Str(1, lambda g: g.longest_city, among=lambda g: g.cities)]
    TAG: ClassVar[str] = "alvin"


MonsterName = Annotated[str, Str(1, max(len(name) for name in MONSTERS), among=lambda g: MONSTERS)]


@dataclass(frozen=True, slots=True)
class PlaceMonster:
    """Put ``monster`` (alvin, dexter) on ``city`` before the first turn (Alvin & Dexter: monsters.py)."""

    player: Player
    monster: MonsterName
    city: Annotated[str, Str(1, lambda g: g.longest_city, among=lambda g: g.cities)]
    TAG: ClassVar[str] = "place_monster"


@dataclass(frozen=True, slots=True)
class MoveMonster:
    """Before the turn's action, discard ``cards`` (one or two locomotives) to
    take a card of ``monster``'s deck and move it to ``city``, up to three
    cities away per locomotive (Alvin & Dexter: monsters.py)."""

    player: Player
    monster: MonsterName
    city: Annotated[str, Str(1, lambda g: g.longest_city, among=lambda g: g.cities)]
    cards: Annotated[tuple[CardRef, ...], refs(MOST_LOCOMOTIVES)]
    TAG: ClassVar[str] = "monster"

    def validate(self, limits: GameLimits) -> None:
        if not self.cards:
            raise MalformedEvent("a monster moves for one or two locomotives, not for none")


@dataclass(frozen=True, slots=True)
class PlaceDepot:
    """Put a depot on ``city``, a city with neither a depot nor a station: at
    set-up (from the last seat down), or as a free action before the turn's
    action (Europe 1912's warehouses and depots: depots.py)."""

    player: Player
    city: Annotated[str, Str(1, lambda g: g.longest_city, among=lambda g: g.cities)]
    TAG: ClassVar[str] = "depot"


@dataclass(frozen=True, slots=True)
class StockWarehouse:
    """Before a draw of train cards: put the top card of the deck, unseen, on
    ``seat``'s warehouse (depots.py)."""

    player: Player
    seat: Player
    TAG: ClassVar[str] = "warehouse"


def _seats(limits: GameLimits) -> int:
    return limits.max_players


@dataclass(frozen=True, slots=True)
class EmptyWarehouses:
    """As a turn with a claim ends: take every card on the warehouses of
    ``seats`` (each with a depot on an end of a route claimed this turn),
    giving one depot back to the box for each; () takes none (depots.py)."""

    player: Player
    seats: Annotated[tuple[int, ...], List(Int(0, _last_seat), _seats, unique=same, name="seat")]
    TAG: ClassVar[str] = "empty_warehouses"


Action: TypeAlias = (
    DrawBlind
    | DrawFaceUp
    | ClaimRoute
    | PayTunnel
    | AbandonTunnel
    | DrawTickets
    | KeepTickets
    | BuildStation
    | Pass
    | TakeShares
    | BuyTechnology
    | DrawThreeBlind
    | FinishTurn
    | LayTrack
    | PlaceStartCity
    | PlaceMarker
    | SkipMarker
    | MoveAlvin
    | PlaceMonster
    | MoveMonster
    | PlaceDepot
    | StockWarehouse
    | EmptyWarehouses
)

# --------------------------------------------------------------------------
# Chance events


@dataclass(frozen=True, slots=True)
class Shuffled:
    """The deck asked for by ``NeedShuffle`` is shuffled and ready as ``epoch``."""

    deck: Annotated[Deck, DECK]
    epoch: Annotated[int, EPOCH]
    TAG: ClassVar[str] = "shuffled"


@dataclass(frozen=True, slots=True)
class Remasked:
    """The tickets asked for by ``NeedRemask`` are under the deck as ``epoch``."""

    deck: Annotated[Deck, DECK]
    epoch: Annotated[int, EPOCH]
    TAG: ClassVar[str] = "remasked"


@dataclass(frozen=True, slots=True)
class Mixed:
    """The cards asked for by ``NeedMix`` are shuffled together as ``epoch``."""

    deck: Annotated[Deck, DECK]
    epoch: Annotated[int, EPOCH]
    TAG: ClassVar[str] = "mixed"


@dataclass(frozen=True, slots=True)
class Reveal:
    """These cards are shown to everyone."""

    cards: Annotated[tuple[tuple[CardRef, int], ...], FACES]
    TAG: ClassVar[str] = "reveal"


@dataclass(frozen=True, slots=True)
class Peek:
    """``player`` (alone) learns these cards of their own hand or tickets."""

    player: Player
    cards: Annotated[tuple[tuple[CardRef, int], ...], FACES]
    TAG: ClassVar[str] = "peek"


Chance: TypeAlias = Shuffled | Remasked | Mixed | Reveal | Peek
Event: TypeAlias = Action | Chance

ACTION_TYPES: tuple[type[Action], ...] = (
    DrawBlind,
    DrawFaceUp,
    ClaimRoute,
    PayTunnel,
    AbandonTunnel,
    DrawTickets,
    KeepTickets,
    BuildStation,
    Pass,
    TakeShares,
    BuyTechnology,
    DrawThreeBlind,
    FinishTurn,
    LayTrack,
    PlaceStartCity,
    PlaceMarker,
    SkipMarker,
    MoveAlvin,
    PlaceMonster,
    MoveMonster,
    PlaceDepot,
    StockWarehouse,
    EmptyWarehouses,
)
CHANCE_TYPES: tuple[type[Chance], ...] = (Shuffled, Remasked, Mixed, Reveal, Peek)


def is_action(event: Event) -> bool:
    return isinstance(event, ACTION_TYPES)


# --------------------------------------------------------------------------
# Wire form: [tag, field, field, ...]; a CardRef is [deck, epoch, pos].

EVENTS: Family[Event] = Family((*ACTION_TYPES, *CHANCE_TYPES), MalformedEvent, tag="TAG",
                               unknown=lambda tag: f"unknown event {tag[:32]!r}")


def to_wire(event: Event) -> list[Any]:
    """The event as plain data: ``[tag, *fields]``."""
    return EVENTS.encode(event)


def event_from_wire(data: object, game: Game | None = None) -> Event:
    """Rebuild an event of ``game`` (None: of any game we have) from
    ``to_wire`` output; raise MalformedEvent otherwise."""
    return EVENTS.decode(data, any_game_limits() if game is None else GameLimits.of(game))
