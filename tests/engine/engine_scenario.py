"""Build game positions by hand for rule tests.

A position is plain data, so a test names the cards it wants ("red", "locomotive")
and gets an omniscient GameState where every train card's reference is
(TRAIN, 0, card id), hands are known privately and table cards publicly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace

from p2p_ttr.engine.board import LOCOMOTIVE, Board, Route
from p2p_ttr.engine.boards import europe_game
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.events import Chance, KeepTickets, Mixed, Remasked, Reveal, Shuffled
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.rules import apply, new_game
from p2p_ttr.engine.state import GameState, NeedMix, NeedRemask, NeedReveal, NeedShuffle, Phase, PlayerState

EUROPE = europe_game()
BOARD = EUROPE.board


class Cards:
    """Hands out distinct train-card ids of the kinds asked for."""

    def __init__(self) -> None:
        self._next: dict[str, int] = {}

    def take(self, kind: str) -> int:
        if kind == LOCOMOTIVE:
            first, limit = 96, 14
        else:
            first, limit = BOARD.colors.index(kind) * 12, 12
        n = self._next.get(kind, 0)
        if n >= limit:
            raise ValueError(f"no {kind} card left")
        self._next[kind] = n + 1
        return first + n

    def refs(self, kinds: Iterable[str]) -> tuple[CardRef, ...]:
        return tuple(train(self.take(k)) for k in kinds)


def train(card: int) -> CardRef:
    return CardRef(Deck.TRAIN, 0, card)


def ticket_ref(ticket: int, game: Game = EUROPE) -> CardRef:
    """Ticket ``ticket`` of ``game`` where its first shuffle (in card order) put it."""
    deck = Deck.LONG if ticket in game.card_ids(Deck.LONG) else Deck.TICKETS
    return CardRef(deck, 0, ticket - game.card_ids(deck).start)


def route(a: str, b: str, color: str | None = None) -> int:
    """The id of the route between ``a`` and ``b`` (of ``color`` for a double)."""
    found = [r for r in BOARD.routes_between(a, b) if color is None or r.color == color]
    assert found, f"no route {a}-{b} {color or ''}"
    return found[0].id


def route_on(board: Board, a: str, b: str, color: str | None = None) -> Route:
    """The route of ``board`` between ``a`` and ``b`` (of ``color`` for a double or triple)."""
    found = [r for r in board.routes_between(a, b) if color is None or r.color == color]
    assert found, f"no route {a}-{b} {color or ''}"
    return found[0]


def kind(state: GameState, card_ref: CardRef | None) -> str:
    """The kind of a card whose face ``state`` knows."""
    assert card_ref is not None
    face = state.face(card_ref)
    assert face is not None, f"{card_ref} is not known"
    return BOARD.card_kind(face)


def position(
    n_players: int = 2,
    hands: Mapping[int, Sequence[str]] | None = None,
    face_up: Sequence[str | None] = ("red", "blue", "green", "yellow", "black"),
    draw_pile: Sequence[str] = ("purple", "orange", "black", "purple", "orange", "black", "purple", "orange"),
    discard: Sequence[str] = (),
    current: int = 0,
    trains: Mapping[int, int] | None = None,
    owners: Mapping[int, int] | None = None,
    stations: Mapping[int, Sequence[str]] | None = None,
    ticket_pile: Sequence[int] = tuple(range(10, 20)),
    tickets: Mapping[int, Sequence[int]] | None = None,
    cards: Cards | None = None,
    game: Game = EUROPE,
) -> tuple[GameState, Cards]:
    """A game in its TURN phase, ``current`` to play, laid out as described.

    Draw-pile cards are not known to the state (their faces come from
    ``ScenarioDealer``); hand faces are private, table faces public.
    """
    cards = cards or Cards()
    hands = hands or {}
    players = []
    private: dict[CardRef, int] = {}
    public: dict[CardRef, int] = {}
    route_owner: list[int | None] = [None] * len(game.board.routes)
    for route_id, p in (owners or {}).items():
        route_owner[route_id] = p
    for p in range(n_players):
        hand = cards.refs(hands.get(p, ()))
        private.update({r: r.pos for r in hand})
        held = tuple(ticket_ref(t, game) for t in (tickets or {}).get(p, ()))
        private.update({r: game.card_ids(r.deck).start + r.pos for r in held})
        owned = tuple(r for r, o in enumerate(route_owner) if o == p)
        used = sum(game.board.routes[r].length for r in owned)
        players.append(
            PlayerState(
                hand=hand,
                tickets=held,
                routes=owned,
                stations=tuple((stations or {}).get(p, ())),
                trains=(trains or {}).get(p, game.rules.trains - used),
                stations_left=game.rules.stations - len((stations or {}).get(p, ())),
            )
        )
    row: list[CardRef | None] = []
    for k in face_up:
        if k is None:
            row.append(None)
        else:
            (ref,) = cards.refs([k])
            row.append(ref)
            public[ref] = ref.pos
    thrown = cards.refs(discard)
    public.update({r: r.pos for r in thrown})
    pile = cards.refs(draw_pile)
    state = GameState(
        game=game,
        n_players=n_players,
        players=tuple(players),
        phase=Phase.TURN,
        current=current,
        draw_pile=pile,
        discard=thrown,
        face_up=tuple(row),
        epoch=0,
        epoch_colored=sum(1 for c in range(BOARD.n_cards) if BOARD.card_kind(c) != LOCOMOTIVE),
        ticket_pile=tuple(ticket_ref(t, game) for t in ticket_pile),
        route_owner=tuple(route_owner),
        public=public,
        private=private,
    )
    return state, cards


class ScenarioDealer:
    """Answers the engine's chance requests for a hand-built position: reveals
    from the card ids the references encode, reshuffles in a given order, and
    mixes cards by reversing them (a known order that is not theirs)."""

    def __init__(self, reshuffle_key: Callable[[int], int] | None = None) -> None:
        self.reshuffle_key = reshuffle_key  # orders a reshuffled deck (default: by card id)
        self.shuffled: list[NeedShuffle] = []
        self.mixed: list[NeedMix] = []
        self._remasked: dict[int, CardRef] = {}

    def answer(self, state: GameState) -> Chance | None:
        need = state.awaiting
        if isinstance(need, NeedReveal):
            return Reveal(tuple((r, self.face(state, r)) for r in need.refs))
        if isinstance(need, NeedRemask):
            self._remasked = dict(zip(range(len(need.refs)), need.refs))
            return Remasked(need.deck, need.epoch)
        if isinstance(need, NeedMix):
            self.mixed.append(need)
            self._remasked = dict(enumerate(reversed(need.refs)))
            return Mixed(need.deck, need.epoch)
        if isinstance(need, NeedShuffle):
            self.shuffled.append(need)
            self._epoch_cards = sorted(need.cards, key=self.reshuffle_key)
            self._epoch = need.epoch
            return Shuffled(need.deck, need.epoch)
        return None

    def face(self, state: GameState, ref: CardRef) -> int:
        if ref.deck is not Deck.TRAIN and ref.epoch > 0:
            return self.face(state, self._remasked[ref.pos])
        if ref.deck is Deck.TRAIN and ref.epoch > 0:
            return self._epoch_cards[ref.pos]
        return state.game.card_ids(ref.deck).start + ref.pos  # the first shuffle is in card order


def set_up(game: Game, n: int) -> tuple[GameState, list[NeedShuffle]]:
    """A new game with its decks shuffled in card order, at the ticket choice, and the shuffles asked for."""
    dealer = ScenarioDealer()
    state = play(new_game(game, n), dealer=dealer)
    assert state.phase is Phase.SETUP_TICKETS
    return state, dealer.shuffled


def first_tickets_kept(game: Game, n_players: int, kept: int) -> GameState:
    """A new game of ``game`` with every first ticket choice made: each player keeps the first ``kept`` offered."""
    dealer = ScenarioDealer()
    state = play(new_game(game, n_players), dealer=dealer)
    for p in range(n_players):
        offered = state.players[p].offered
        state = play(state, KeepTickets(p, offered[:kept], offered[kept:]), dealer=dealer)
    return state


def play(state: GameState, *events: object, dealer: ScenarioDealer | None = None) -> GameState:
    """Apply ``events`` in order, answering chance after each with ``dealer``."""
    dealer = dealer or ScenarioDealer()
    state = settle(state, dealer)
    for event in events:
        state = apply(state, event)  # type: ignore[arg-type]
        state = settle(state, dealer)
    return state


def settle(state: GameState, dealer: ScenarioDealer) -> GameState:
    while (chance := dealer.answer(state)) is not None:
        state = apply(state, chance)
    return state


def hand_kinds(state: GameState, player: int) -> list[str]:
    return sorted(BOARD.card_kind(state.face(r)) for r in state.players[player].hand)  # type: ignore[arg-type]


def with_players(state: GameState, **changes: object) -> GameState:
    return replace(state, **changes)  # type: ignore[arg-type]
