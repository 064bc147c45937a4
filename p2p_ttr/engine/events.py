"""Everything that can happen to a game: player actions and chance events.

Player actions carry the acting ``player``; chance events are supplied by
whoever plays the role of chance (the local dealer in tests and self-play, the
mental-poker deck in a networked game). The engine never samples.

Every event is a small frozen dataclass with ``to_wire()`` (plain lists, ints and
strings, ready for msgpack) and the module function ``event_from_wire`` that
rebuilds it, rejecting anything malformed with ``MalformedEvent``: within the
bounds of the game played when it is given (``EventBounds.of``), else within
the bounds of every game we have (a message read before its seating is).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar, TypeAlias

from .board import Route
from .boards import every_game
from .cards import MAX_EPOCH, CardRef, Deck
from .errors import MalformedEvent
from .game import Game


# --------------------------------------------------------------------------
# Player actions


@dataclass(frozen=True, slots=True)
class DrawBlind:
    """Take the top card of the train deck."""

    player: int
    TAG: ClassVar[str] = "draw_blind"


@dataclass(frozen=True, slots=True)
class DrawFaceUp:
    """Take the face-up card in ``slot`` (0..4)."""

    player: int
    slot: int
    TAG: ClassVar[str] = "draw_face_up"


@dataclass(frozen=True, slots=True)
class ClaimRoute:
    """Claim ``route`` paying ``cards`` from the hand (for a tunnel: the first
    payment, before the three cards are turned)."""

    player: int
    route: int
    cards: tuple[CardRef, ...]
    TAG: ClassVar[str] = "claim"


@dataclass(frozen=True, slots=True)
class PayTunnel:
    """Pay the extra cards a tunnel asks for and take it."""

    player: int
    cards: tuple[CardRef, ...]
    TAG: ClassVar[str] = "pay_tunnel"


@dataclass(frozen=True, slots=True)
class AbandonTunnel:
    """Give up the tunnel: take the cards back; the turn ends."""

    player: int
    TAG: ClassVar[str] = "abandon_tunnel"


@dataclass(frozen=True, slots=True)
class DrawTickets:
    """Draw three destination tickets (fewer if fewer remain)."""

    player: int
    TAG: ClassVar[str] = "draw_tickets"


@dataclass(frozen=True, slots=True)
class KeepTickets:
    """Keep ``keep`` of the offered tickets; ``bottom`` are the rest, in the
    order they go under the ticket deck (at setup they leave the game)."""

    player: int
    keep: tuple[CardRef, ...]
    bottom: tuple[CardRef, ...]
    TAG: ClassVar[str] = "keep_tickets"


@dataclass(frozen=True, slots=True)
class BuildStation:
    """Build a station in ``city`` paying ``cards``."""

    player: int
    city: str
    cards: tuple[CardRef, ...]
    TAG: ClassVar[str] = "station"


@dataclass(frozen=True, slots=True)
class Pass:
    """Do nothing: allowed only to a player who has no other legal action."""

    player: int
    TAG: ClassVar[str] = "pass"


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
)

# --------------------------------------------------------------------------
# Chance events


@dataclass(frozen=True, slots=True)
class Shuffled:
    """The deck asked for by ``NeedShuffle`` is shuffled and ready as ``epoch``."""

    deck: Deck
    epoch: int
    TAG: ClassVar[str] = "shuffled"


@dataclass(frozen=True, slots=True)
class Remasked:
    """The tickets asked for by ``NeedRemask`` are under the deck as ``epoch``."""

    deck: Deck
    epoch: int
    TAG: ClassVar[str] = "remasked"


@dataclass(frozen=True, slots=True)
class Reveal:
    """These cards are shown to everyone."""

    cards: tuple[tuple[CardRef, int], ...]
    TAG: ClassVar[str] = "reveal"


@dataclass(frozen=True, slots=True)
class Peek:
    """``player`` (alone) learns these cards of their own hand or tickets."""

    player: int
    cards: tuple[tuple[CardRef, int], ...]
    TAG: ClassVar[str] = "peek"


Chance: TypeAlias = Shuffled | Remasked | Reveal | Peek
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
)
CHANCE_TYPES: tuple[type[Chance], ...] = (Shuffled, Remasked, Reveal, Peek)


def is_action(event: Event) -> bool:
    return isinstance(event, ACTION_TYPES)


# --------------------------------------------------------------------------
# Wire form: [tag, field, field, ...]; a CardRef is [deck, epoch, pos].


def _ref_to_wire(ref: CardRef) -> list[int]:
    return [int(ref.deck), ref.epoch, ref.pos]


def _refs_to_wire(refs: tuple[CardRef, ...]) -> list[list[int]]:
    return [_ref_to_wire(r) for r in refs]


def _faces_to_wire(cards: tuple[tuple[CardRef, int], ...]) -> list[list[Any]]:
    return [[_ref_to_wire(r), c] for r, c in cards]


def to_wire(event: Event) -> list[Any]:
    """The event as plain data: ``[tag, *fields]``."""
    match event:
        case DrawBlind(p) | AbandonTunnel(p) | DrawTickets(p) | Pass(p):
            return [event.TAG, p]
        case DrawFaceUp(p, slot):
            return [event.TAG, p, slot]
        case ClaimRoute(p, route, cards):
            return [event.TAG, p, route, _refs_to_wire(cards)]
        case PayTunnel(p, cards):
            return [event.TAG, p, _refs_to_wire(cards)]
        case KeepTickets(p, keep, bottom):
            return [event.TAG, p, _refs_to_wire(keep), _refs_to_wire(bottom)]
        case BuildStation(p, city, cards):
            return [event.TAG, p, city, _refs_to_wire(cards)]
        case Shuffled(deck, epoch) | Remasked(deck, epoch):
            return [event.TAG, int(deck), epoch]
        case Reveal(cards):
            return [event.TAG, _faces_to_wire(cards)]
        case Peek(p, cards):
            return [event.TAG, p, _faces_to_wire(cards)]
    raise TypeError(f"not an event: {event!r}")


@dataclass(frozen=True, slots=True)
class EventBounds:
    """How large an event of a game may be: seats, decks, routes, cities, and
    the most cards one move names. Derived from the game, never written down."""

    players: int
    deck_sizes: Mapping[Deck, int]
    first_ids: Mapping[Deck, int]
    routes: int
    cities: frozenset[str]
    most_paid: int  # cards in a claim: the longest route, stand-ins counted in full
    most_offered: int  # tickets in one offer (kept plus returned)
    most_extra: int  # a tunnel's extra cards: the cards it turns
    most_station: int  # cards for the last station
    most_cards: int  # cards in a reveal or peek: the largest deck

    @staticmethod
    def of(game: Game) -> EventBounds:
        rules, board = game.rules, game.board
        return EventBounds(
            players=rules.max_players,
            deck_sizes={deck: game.deck_size(deck) for deck in Deck},
            first_ids={deck: game.card_ids(deck).start for deck in Deck},
            routes=len(board.routes),
            cities=frozenset(board.cities),
            most_paid=max(most_cards_paid(game, r) for r in board.routes),
            most_offered=max(rules.setup_tickets.size, rules.draw_tickets.size),
            most_extra=rules.tunnel_cards,
            most_station=rules.stations,
            most_cards=max(game.deck_size(deck) for deck in Deck),
        )


def most_cards_paid(game: Game, route: Route) -> int:
    """The most cards a claim of ``route`` may hold: its length, and where cards
    stand in for others (standins.py) each stand-in's group in full."""
    if route.stand_in:
        return route.length * route.stand_in
    if route.ferry_locomotives and game.rules.ferry_stand_in:
        return route.length + (game.rules.ferry_stand_in - 1) * route.ferry_locomotives
    return route.length


@cache
def any_game_bounds() -> EventBounds:
    """Bounds every game we have fits: what a message is held to before its
    game is known. A card id must fit the largest deck of its kind."""
    every = [EventBounds.of(game) for game in every_game()]
    return EventBounds(
        players=max(b.players for b in every),
        deck_sizes={deck: max(b.deck_sizes[deck] + b.first_ids[deck] for b in every) for deck in Deck},
        first_ids={deck: 0 for deck in Deck},
        routes=max(b.routes for b in every),
        cities=frozenset().union(*(b.cities for b in every)),
        most_paid=max(b.most_paid for b in every),
        most_offered=max(b.most_offered for b in every),
        most_extra=max(b.most_extra for b in every),
        most_station=max(b.most_station for b in every),
        most_cards=max(b.most_cards for b in every),
    )


def _int(value: object, lo: int, hi: int, what: str) -> int:
    # bool is an int subclass; a wire "true" is not a number
    if type(value) is not int or not lo <= value <= hi:
        raise MalformedEvent(f"{what} must be an integer in {lo}..{hi}, got {value!r}")
    return value


def _list(value: object, max_len: int, what: str) -> list[Any]:
    if not isinstance(value, (list, tuple)) or len(value) > max_len:
        raise MalformedEvent(f"{what} must be a list of at most {max_len} items")
    return list(value)


class _Reader:
    """Reads the fields of one event within ``bounds``."""

    def __init__(self, bounds: EventBounds) -> None:
        self.bounds = bounds

    def player(self, value: object) -> int:
        return _int(value, 0, self.bounds.players - 1, "player")

    def deck(self, value: object) -> Deck:
        deck = Deck(_int(value, 0, len(Deck) - 1, "deck"))
        if not self.bounds.deck_sizes[deck]:
            raise MalformedEvent(f"this game has no {deck.name.lower()} deck")
        return deck

    def ref(self, value: object) -> CardRef:
        parts = _list(value, 3, "card reference")
        if len(parts) != 3:
            raise MalformedEvent("card reference must be [deck, epoch, position]")
        deck = self.deck(parts[0])
        epoch = _int(parts[1], 0, MAX_EPOCH, "epoch")
        pos = _int(parts[2], 0, self.bounds.deck_sizes[deck] - 1, "position")
        return CardRef(deck, epoch, pos)

    def refs(self, value: object, max_len: int) -> tuple[CardRef, ...]:
        refs = tuple(self.ref(v) for v in _list(value, max_len, "cards"))
        if len(set(refs)) != len(refs):
            raise MalformedEvent("the same card is named twice")
        return refs

    def faces(self, value: object) -> tuple[tuple[CardRef, int], ...]:
        out: list[tuple[CardRef, int]] = []
        for item in _list(value, self.bounds.most_cards, "revealed cards"):
            pair = _list(item, 2, "revealed card")
            if len(pair) != 2:
                raise MalformedEvent("revealed card must be [reference, id]")
            ref = self.ref(pair[0])
            first = self.bounds.first_ids[ref.deck]
            out.append((ref, _int(pair[1], first, first + self.bounds.deck_sizes[ref.deck] - 1, "card id")))
        if len({r for r, _ in out}) != len(out):
            raise MalformedEvent("the same card is revealed twice")
        return tuple(out)

    def city(self, value: object) -> str:
        if not isinstance(value, str) or value not in self.bounds.cities:
            raise MalformedEvent(f"unknown city {str(value)[:40]!r}")
        return value


_ARITY = {
    DrawBlind.TAG: 2,
    AbandonTunnel.TAG: 2,
    DrawTickets.TAG: 2,
    Pass.TAG: 2,
    DrawFaceUp.TAG: 3,
    ClaimRoute.TAG: 4,
    PayTunnel.TAG: 3,
    KeepTickets.TAG: 4,
    BuildStation.TAG: 4,
    Shuffled.TAG: 3,
    Remasked.TAG: 3,
    Reveal.TAG: 2,
    Peek.TAG: 3,
}


def event_from_wire(data: object, game: Game | None = None) -> Event:
    """Rebuild an event of ``game`` (None: of any game we have) from
    ``to_wire`` output; raise MalformedEvent otherwise."""
    if not isinstance(data, (list, tuple)) or not data or not isinstance(data[0], str):
        raise MalformedEvent("an event must be a list starting with its tag")
    tag = data[0]
    if tag not in _ARITY:
        raise MalformedEvent(f"unknown event {tag[:32]!r}")
    if len(data) != _ARITY[tag]:
        raise MalformedEvent(f"{tag} takes {_ARITY[tag] - 1} fields, got {len(data) - 1}")
    f = data[1:]
    bounds = EventBounds.of(game) if game is not None else any_game_bounds()
    read = _Reader(bounds)
    if tag == DrawBlind.TAG:
        return DrawBlind(read.player(f[0]))
    if tag == AbandonTunnel.TAG:
        return AbandonTunnel(read.player(f[0]))
    if tag == DrawTickets.TAG:
        return DrawTickets(read.player(f[0]))
    if tag == Pass.TAG:
        return Pass(read.player(f[0]))
    if tag == DrawFaceUp.TAG:
        return DrawFaceUp(read.player(f[0]), _int(f[1], 0, 4, "slot"))
    if tag == ClaimRoute.TAG:
        return ClaimRoute(read.player(f[0]), _int(f[1], 0, bounds.routes - 1, "route"),
                          read.refs(f[2], bounds.most_paid))
    if tag == PayTunnel.TAG:
        return PayTunnel(read.player(f[0]), read.refs(f[1], bounds.most_extra))
    if tag == KeepTickets.TAG:
        keep, bottom = read.refs(f[1], bounds.most_offered), read.refs(f[2], bounds.most_offered)
        if set(keep) & set(bottom):
            raise MalformedEvent("a ticket cannot be both kept and returned")
        return KeepTickets(read.player(f[0]), keep, bottom)
    if tag == BuildStation.TAG:
        return BuildStation(read.player(f[0]), read.city(f[1]), read.refs(f[2], bounds.most_station))
    if tag == Shuffled.TAG:
        return Shuffled(read.deck(f[0]), _int(f[1], 0, MAX_EPOCH, "epoch"))
    if tag == Remasked.TAG:
        return Remasked(read.deck(f[0]), _int(f[1], 0, MAX_EPOCH, "epoch"))
    if tag == Reveal.TAG:
        return Reveal(read.faces(f[0]))
    assert tag == Peek.TAG
    return Peek(read.player(f[0]), read.faces(f[1]))
