"""The rules of Ticket to Ride: Europe: pure, deterministic, no I/O, no clock,
no randomness. The whole public surface is re-exported here.

State is data (``GameState``); ``apply(state, event)`` is the only way it
changes, and raises an ``EngineError`` (state untouched) for anything the
rules refuse. Events are player actions (``DrawBlind``, ``ClaimRoute``, ...)
and chance events (``Shuffled``, ``Remasked``, ``Reveal``, ``Peek``): the
engine never shuffles; when it needs chance it says so in ``state.awaiting``
(``NeedShuffle``, ``NeedRemask``, ``NeedReveal``) and waits.

Cards are named by references ``CardRef(deck, epoch, pos)`` whose faces a
state may or may not know: ``state.public`` (seen by all) and
``state.private`` (seen by one player). ``view_for(state, p)`` is the one
secret filter; every function below works on a view, so the client and the
bots see exactly what a player at that seat would.

    state = new_game(3)                 # waits for the decks to be shuffled
    state = apply(state, Shuffled(...)) # chance, from a dealer or the deck protocol
    actors(state)                       # who must decide now
    legal_actions(view_for(state, p), p)
    final_score(state)                  # once state.over
"""

from .board import Board, Route, Ticket, europe
from .cards import CardRef, Deck
from .errors import BadChance, EngineError, IllegalMove, MalformedEvent, OutOfTurn, UnknownCard
from .events import (
    AbandonTunnel,
    Action,
    BuildStation,
    Chance,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    Event,
    KeepTickets,
    Pass,
    PayTunnel,
    Peek,
    Remasked,
    Reveal,
    Shuffled,
    event_from_wire,
    to_wire,
)
from .moves import legal_actions, legal_kinds
from .outcome import final_score
from .payments import Payment
from .rules import actors, apply, new_game
from .scoring import GameScore, PlayerClaims, PlayerScore, score_game
from .state import GameState, NeedRemask, NeedReveal, NeedShuffle, Phase, PlayerState, public_digest
from .view import view_for

__all__ = [
    "AbandonTunnel",
    "Action",
    "BadChance",
    "Board",
    "BuildStation",
    "CardRef",
    "Chance",
    "ClaimRoute",
    "Deck",
    "DrawBlind",
    "DrawFaceUp",
    "DrawTickets",
    "EngineError",
    "Event",
    "GameScore",
    "GameState",
    "IllegalMove",
    "KeepTickets",
    "MalformedEvent",
    "NeedRemask",
    "NeedReveal",
    "NeedShuffle",
    "OutOfTurn",
    "Pass",
    "PayTunnel",
    "Payment",
    "Peek",
    "Phase",
    "PlayerClaims",
    "PlayerScore",
    "PlayerState",
    "Remasked",
    "Reveal",
    "Route",
    "Shuffled",
    "Ticket",
    "UnknownCard",
    "actors",
    "apply",
    "europe",
    "event_from_wire",
    "final_score",
    "legal_actions",
    "legal_kinds",
    "new_game",
    "public_digest",
    "score_game",
    "to_wire",
    "view_for",
]
