"""Everything that can happen to a game: player actions and chance events.

Player actions carry the acting ``player``; chance events are supplied by
whoever plays the role of chance (the local dealer in tests and self-play, the
mental-poker deck in a networked game). The engine never samples.

Every event is a small frozen dataclass with ``to_wire()`` (plain lists, ints and
strings, ready for msgpack) and the module function ``event_from_wire`` that
rebuilds it, rejecting anything malformed with ``MalformedEvent``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from .board import europe
from .cards import MAX_EPOCH, CardRef, Deck
from .errors import MalformedEvent

MAX_PLAYERS = 5
MAX_CARDS_IN_EVENT = 110  # a reveal or peek never names more cards than exist


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


def _int(value: object, lo: int, hi: int, what: str) -> int:
    # bool is an int subclass; a wire "true" is not a number
    if type(value) is not int or not lo <= value <= hi:
        raise MalformedEvent(f"{what} must be an integer in {lo}..{hi}, got {value!r}")
    return value


def _list(value: object, max_len: int, what: str) -> list[Any]:
    if not isinstance(value, (list, tuple)) or len(value) > max_len:
        raise MalformedEvent(f"{what} must be a list of at most {max_len} items")
    return list(value)


def _player(value: object) -> int:
    return _int(value, 0, MAX_PLAYERS - 1, "player")


_DECK_SIZES = {Deck.TRAIN: 110, Deck.TICKETS: 40, Deck.LONG: 6}
_FIRST_ID = {Deck.TRAIN: 0, Deck.TICKETS: 0, Deck.LONG: 40}


def _ref(value: object) -> CardRef:
    parts = _list(value, 3, "card reference")
    if len(parts) != 3:
        raise MalformedEvent("card reference must be [deck, epoch, position]")
    deck = Deck(_int(parts[0], 0, len(Deck) - 1, "deck"))
    epoch = _int(parts[1], 0, MAX_EPOCH, "epoch")
    pos = _int(parts[2], 0, _DECK_SIZES[deck] - 1, "position")
    return CardRef(deck, epoch, pos)


def _refs(value: object, max_len: int = MAX_CARDS_IN_EVENT) -> tuple[CardRef, ...]:
    refs = tuple(_ref(v) for v in _list(value, max_len, "cards"))
    if len(set(refs)) != len(refs):
        raise MalformedEvent("the same card is named twice")
    return refs


def card_id_range(deck: Deck) -> range:
    """The ids a card of ``deck`` may have."""
    return range(_FIRST_ID[deck], _FIRST_ID[deck] + _DECK_SIZES[deck])


def _faces(value: object) -> tuple[tuple[CardRef, int], ...]:
    out: list[tuple[CardRef, int]] = []
    for item in _list(value, MAX_CARDS_IN_EVENT, "revealed cards"):
        pair = _list(item, 2, "revealed card")
        if len(pair) != 2:
            raise MalformedEvent("revealed card must be [reference, id]")
        ref = _ref(pair[0])
        ids = card_id_range(ref.deck)
        out.append((ref, _int(pair[1], ids.start, ids.stop - 1, "card id")))
    if len({r for r, _ in out}) != len(out):
        raise MalformedEvent("the same card is revealed twice")
    return tuple(out)


def _city(value: object) -> str:
    if not isinstance(value, str) or value not in europe().routes_at:
        raise MalformedEvent(f"unknown city {value!r}")
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


def event_from_wire(data: object) -> Event:
    """Rebuild an event from ``to_wire`` output; raise MalformedEvent otherwise."""
    if not isinstance(data, (list, tuple)) or not data or not isinstance(data[0], str):
        raise MalformedEvent("an event must be a list starting with its tag")
    tag = data[0]
    if tag not in _ARITY:
        raise MalformedEvent(f"unknown event {tag[:32]!r}")
    if len(data) != _ARITY[tag]:
        raise MalformedEvent(f"{tag} takes {_ARITY[tag] - 1} fields, got {len(data) - 1}")
    f = data[1:]
    n_routes = len(europe().routes)
    if tag == DrawBlind.TAG:
        return DrawBlind(_player(f[0]))
    if tag == AbandonTunnel.TAG:
        return AbandonTunnel(_player(f[0]))
    if tag == DrawTickets.TAG:
        return DrawTickets(_player(f[0]))
    if tag == Pass.TAG:
        return Pass(_player(f[0]))
    if tag == DrawFaceUp.TAG:
        return DrawFaceUp(_player(f[0]), _int(f[1], 0, 4, "slot"))
    if tag == ClaimRoute.TAG:
        return ClaimRoute(_player(f[0]), _int(f[1], 0, n_routes - 1, "route"), _refs(f[2], 8))
    if tag == PayTunnel.TAG:
        return PayTunnel(_player(f[0]), _refs(f[1], 3))
    if tag == KeepTickets.TAG:
        keep, bottom = _refs(f[1], 4), _refs(f[2], 4)
        if set(keep) & set(bottom):
            raise MalformedEvent("a ticket cannot be both kept and returned")
        return KeepTickets(_player(f[0]), keep, bottom)
    if tag == BuildStation.TAG:
        return BuildStation(_player(f[0]), _city(f[1]), _refs(f[2], 3))
    if tag == Shuffled.TAG:
        return Shuffled(Deck(_int(f[0], 0, len(Deck) - 1, "deck")), _int(f[1], 0, MAX_EPOCH, "epoch"))
    if tag == Remasked.TAG:
        return Remasked(Deck(_int(f[0], 0, len(Deck) - 1, "deck")), _int(f[1], 0, MAX_EPOCH, "epoch"))
    if tag == Reveal.TAG:
        return Reveal(_faces(f[0]))
    assert tag == Peek.TAG
    return Peek(_player(f[0]), _faces(f[1]))
