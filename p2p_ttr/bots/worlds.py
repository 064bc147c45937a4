"""Possible worlds: full-information games consistent with one seat's view.

A seat sees its own hand and tickets, the public cards (the face-up row,
the discards, every card played, the tunnel cards) and the public record
(who drew from where, how many cards and tickets each player holds). What it
does not see -- the other hands' blind-drawn cards, the other players'
tickets, the order of the draw piles -- a search must guess. ``determinize``
deals one guess: every unknown card reference gets a face drawn from the
cards the seat has not seen anywhere, so the world agrees with everything the
view shows, and the seat's own cards are exactly its own.

Nothing here looks further than the view it is given (even a state that knows
more, such as the dealer's, is read only through what ``seat`` may see), so
two games that differ only in what the seat cannot know give the same worlds.

``settle`` then plays chance inside such a world, as the dealer does in a
real game: it shuffles (from the caller's generator), reveals, re-masks and
mixes, until a player must decide.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.events import (Action, ClaimRoute, DrawBlind, DrawFaceUp, KeepTickets, Mixed, Remasked, Reveal,
                                   Shuffled)
from p2p_ttr.engine.depots import warehouse_cards
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.rules import apply
from p2p_ttr.engine.state import GameState, NeedMix, NeedRemask, NeedReveal, NeedShuffle
from p2p_ttr.engine.view import own_cards

# How a sampled ticket is weighed for an opponent: 1 plus this much times the
# chance ``opponents.read_opponents`` gives it (from the share of its path the
# opponent has already built). Players build
# towards their tickets, so tickets their network serves are the likely ones.
TICKET_EVIDENCE = 12.0

TicketWeights = Mapping[int, Mapping[int, float]]  # opponent -> ticket id -> weight


def known_faces(view: GameState, seat: int) -> dict[CardRef, int]:
    """The faces ``seat`` knows: the public ones and its own cards'."""
    mine = own_cards(view, seat)
    known = dict(view.public)
    for ref, card in view.private.items():
        if ref in mine:
            known[ref] = card
    return known


def train_refs(view: GameState) -> list[CardRef]:
    """Every train card reference in play: hands, the row, the discards, the pile, a tunnel's turned cards,
    the warehouses' (depots.py)."""
    refs: list[CardRef] = []
    for ps in view.players:
        refs += ps.hand
    refs += [r for r in view.face_up if r is not None]
    refs += view.discard
    refs += view.draw_pile
    if view.tunnel is not None:
        refs += view.tunnel.revealed
    refs += warehouse_cards(view)
    return refs


def determinize(
    view: GameState,
    seat: int,
    rng: random.Random,
    ticket_weights: TicketWeights | None = None,
    gone_tickets: Iterable[int] = (),
) -> GameState:
    """One full-information world consistent with what ``seat`` sees in ``view``.

    Unknown train cards are the game's train cards minus every face the seat
    knows, dealt at random to the unknown references (other hands, the draw pile). Unknown
    tickets are the tickets the seat has not seen, minus ``gone_tickets``
    (ones the seat saw leave the game); other players' tickets are drawn with
    ``ticket_weights`` (opponent -> ticket -> weight, default even), the
    ticket piles at random from the rest.
    """
    known = known_faces(view, seat)
    faces: dict[CardRef, int] = {}
    game = view.game

    # Train cards.
    refs = train_refs(view)
    unknown_refs = [r for r in refs if r not in known]
    seen_ids = {known[r] for r in refs if r in known}
    pool = [c for c in game.card_ids(Deck.TRAIN) if c not in seen_ids]
    rng.shuffle(pool)
    for ref, card in zip(unknown_refs, pool):
        faces[ref] = card

    # Tickets: the seat's own are known; others' come first (weighted), then the piles.
    gone = set(gone_tickets)
    seen_tickets = {c for r, c in known.items() if r.deck in (Deck.TICKETS, Deck.LONG)}
    every_ticket = list(game.card_ids(Deck.TICKETS)) + list(game.card_ids(Deck.LONG))
    free = {c for c in every_ticket if c not in seen_tickets and c not in gone}
    for q, ps in enumerate(view.players):
        if q == seat:
            continue
        weights = ticket_weights.get(q, {}) if ticket_weights is not None else {}
        for ref in ps.tickets + ps.offered:
            if ref in known:
                continue
            pick = _weighted_pick(rng, [c for c in free if _deck_of(game, c) is ref.deck], weights)
            if pick is not None:
                faces[ref] = pick
                free.discard(pick)
    # The set-up's returns waiting to be mixed (state.returned) are as unknown as the piles.
    for pile in (view.ticket_pile + view.returned, view.long_pile):
        hidden = [r for r in pile if r not in known]
        for deck in (Deck.TICKETS, Deck.LONG):
            of_deck = [r for r in hidden if r.deck is deck]
            cards = sorted(c for c in free if _deck_of(game, c) is deck)
            rng.shuffle(cards)
            for ref, card in zip(of_deck, cards):
                faces[ref] = card
                free.discard(card)

    # Pennsylvania's two-player dummy: its order deck is closed until the end; any order will do.
    order = view.shares.dummy_order if view.shares is not None else ()
    opened = {known[r] for r in order if r in known}
    closed = [c for c in game.card_ids(Deck.DUMMY_SHARES) if c not in opened]
    rng.shuffle(closed)
    faces.update(zip([r for r in order if r not in known], closed))

    private = dict(view.private)
    # Only the seat's own private faces survive: a fuller state is read as the seat's view.
    mine = own_cards(view, seat)
    for ref in list(private):
        if ref not in mine:
            del private[ref]
    private.update(faces)
    return view.evolve(private=private)


def _deck_of(game: Game, ticket: int) -> Deck:
    return Deck.LONG if game.board.tickets[ticket].long else Deck.TICKETS


def _weighted_pick(rng: random.Random, cards: Sequence[int], weights: Mapping[int, float]) -> int | None:
    if not cards:
        return None
    cards = sorted(cards)
    w = [weights.get(c, 1.0) for c in cards]
    return rng.choices(cards, w)[0]


class Streams:
    """The cards each seat will draw blind, fixed in advance, so that two
    candidates played in one world meet the same luck.

    The order of a world's draw pile is a guess anyway: any order is as
    likely as another. Without streams, a card drawn by one seat in one
    candidate's line is drawn by another seat in the other's, and the two
    lines differ by that luck as much as by the move. With streams, before
    a seat draws blind the card it gets is made the next of its own stream
    still in the pile (by swapping two faces of the pile); the cards turned
    face up and for tunnels come from streams of their own.
    """

    ROW = -1
    TUNNEL = -2

    def __init__(self, rng: random.Random, game: Game, n_players: int) -> None:
        self.orders: dict[int, list[int]] = {}
        self.next: dict[int, int] = {}
        self.game = game
        for key in list(range(n_players)) + [self.ROW, self.TUNNEL]:
            order = list(game.card_ids(Deck.TRAIN))
            rng.shuffle(order)
            self.orders[key] = order
            self.next[key] = 0
        # Where each card of the pile is, for the pile's epoch (refs never move; the pile loses its top).
        self._epoch = -1
        self._where: dict[int, CardRef] = {}

    def before(self, world: GameState, action: Action) -> GameState:
        """``world`` with the top of its pile set for ``action``."""
        if isinstance(action, DrawBlind):
            return self._top(world, action.player, 1)
        if isinstance(action, DrawFaceUp):
            return self._top(world, self.ROW, 1)
        if isinstance(action, ClaimRoute) and self.game.board.routes[action.route].tunnel:
            return self._top(world, self.TUNNEL, self.game.rules.tunnel_cards)
        return world

    def _top(self, world: GameState, key: int, count: int) -> GameState:
        pile = world.draw_pile
        if not pile:
            return world
        first = pile[0]
        if first.epoch != self._epoch:
            self._epoch = first.epoch
            self._where = {_face(world, r): r for r in pile}
        where = self._where
        order, at = self.orders[key], self.next[key]
        private = dict(world.private)
        for slot in range(min(count, len(pile))):
            here = pile[slot]
            for _ in range(len(order)):
                card = order[at % len(order)]
                at += 1
                ref = where.get(card)
                if ref is not None and ref.epoch == first.epoch and ref.pos >= here.pos:
                    top = private[here]
                    private[here], private[ref] = card, top
                    where[card], where[top] = here, ref
                    break
        self.next[key] = at
        return world.evolve(private=private)


def act(world: GameState, action: Action, rng: random.Random, streams: Streams | None = None) -> GameState:
    """``action`` applied to a full-information world, then chance played
    (``settle``); with ``streams``, blind draws come from them."""
    if streams is not None:
        world = streams.before(world, action)
    # Returned tickets are forgotten as they go under the pile: keep their faces for the re-masking.
    memo = {r: _face(world, r) for r in action.bottom} if isinstance(action, KeepTickets) else {}
    return settle(apply(world, action), rng, memo)


def settle(world: GameState, rng: random.Random, memo: Mapping[CardRef, int] | None = None) -> GameState:
    """Play chance in a full-information world until a player must decide
    (or the game is over): shuffles from ``rng``, reveals of known faces;
    ``memo``: faces of cards the world has forgotten (tickets being returned)."""
    while world.awaiting is not None:
        need = world.awaiting
        if isinstance(need, NeedReveal):
            world = apply(world, Reveal(tuple((r, _face(world, r)) for r in need.refs)))
        elif isinstance(need, NeedShuffle):
            cards = list(need.cards)
            rng.shuffle(cards)
            world = apply(world, Shuffled(need.deck, need.epoch))
            world = _learn(world, {CardRef(need.deck, need.epoch, i): c for i, c in enumerate(cards)})
        else:
            assert isinstance(need, (NeedRemask, NeedMix))
            old = [memo[r] if memo and r in memo else _face(world, r) for r in need.refs]
            if isinstance(need, NeedMix):
                rng.shuffle(old)
                world = apply(world, Mixed(need.deck, need.epoch))
            else:
                world = apply(world, Remasked(need.deck, need.epoch))
            world = _learn(world, {CardRef(need.deck, need.epoch, i): c for i, c in enumerate(old)})
    return world


def _face(world: GameState, ref: CardRef) -> int:
    card = world.face(ref)
    if card is None:
        raise ValueError(f"a world must know every face; {ref} is unknown")
    return card


def _learn(world: GameState, faces: Mapping[CardRef, int]) -> GameState:
    private = dict(world.private)
    private.update(faces)
    return world.evolve(private=private)
