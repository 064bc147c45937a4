"""Every bot level plays every board and variant legally to the end.

A seeded loop over ``every_game()``: tables of two and of the game's most
players, the levels mixed so that every level sits at every game at both
sizes: twice, in other seats, at a board's standard game, and once at a
variant (the same map and mechanics, other tickets and bonuses). The engine refuses an illegal move (``play_local_game`` applies each
choice), so a finished game is the legality check; on top of that, at every
decision the train cards are all there: hands, draw pile, discards, the
face-up row and a tunnel's turned cards hold every card of the game once.
(The expert searches on the tiny budget of ``conftest.py``.)
"""

from __future__ import annotations

from collections import Counter

import pytest

from p2p_ttr.bots.base import Bot
from p2p_ttr.bots.levels import LEVELS, make_bot
from p2p_ttr.engine.boards import every_game, load_game
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.depots import warehouse_cards
from p2p_ttr.engine.events import Action, BuildStation, EmptyWarehouses, PlaceDepot, PlaceMarker, PlaceStartCity, StockWarehouse
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.outcome import final_score
from p2p_ttr.engine.state import GameState
from p2p_ttr.local.game import play_local_game

GAMES = every_game()


def train_cards(state: GameState) -> list[CardRef]:
    """Every train card reference where a card can be: hands, pile, discards, the row, a tunnel's turned
    cards, the warehouses (Europe 1912's depots)."""
    refs = [r for ps in state.players for r in ps.hand]
    refs += list(state.draw_pile) + list(state.discard) + [r for r in state.face_up if r is not None]
    if state.tunnel is not None:
        refs += state.tunnel.revealed
    return refs + list(warehouse_cards(state))


def assert_cards_conserved(state: GameState) -> None:
    """Each card of the game is in exactly one place, and the faces known there are each card once."""
    game = state.game
    refs = train_cards(state)
    assert all(r.deck is Deck.TRAIN for r in refs)
    assert len(refs) == len(set(refs)) == game.deck_size(Deck.TRAIN)
    faces = [f for r in refs if (f := state.face(r)) is not None]
    assert len(faces) == len(set(faces)) and set(faces) <= set(game.card_ids(Deck.TRAIN))


class Conserving:
    """A bot that checks the cards in every view it is given, then lets ``inner`` choose."""

    def __init__(self, inner: Bot, seen: Counter[str]) -> None:
        self.inner = inner
        self.name = inner.name
        self.seen = seen

    def choose(self, view: GameState, player: int) -> Action:
        assert_cards_conserved(view)
        action = self.inner.choose(view, player)
        self.seen[type(action).__name__] += 1
        return action


def sittings(game: Game) -> int:
    """At how many tables of each size every level sits."""
    return 1 if game.variant else 2


def tables(game: Game) -> list[tuple[int, int, tuple[str, ...]]]:
    """(players, seed, a level per seat): every level at two players and at the game's most."""
    out = []
    for n in sorted({2, game.rules.max_players}):
        # Enough tables for every level to sit at two of them, in other seats (a variant: at one).
        for seed in range(sittings(game) * -(-len(LEVELS) // n)):
            out.append((n, seed, tuple(LEVELS[(seed * n + p) % len(LEVELS)] for p in range(n))))
    return out


def test_the_tables_seat_every_level_at_both_sizes() -> None:
    for game in GAMES:
        for n in {2, game.rules.max_players}:
            seated = Counter(level for size, _, levels in tables(game) if size == n for level in levels)
            assert set(seated) == set(LEVELS) and min(seated.values()) >= sittings(game), (game.name, n)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_every_level_plays_the_game_legally_to_the_end(game: Game) -> None:
    seen: Counter[str] = Counter()
    for n, seed, levels in tables(game):
        bots = [Conserving(make_bot(level, 1000 * seed + p, level), seen) for p, level in enumerate(levels)]
        final = play_local_game(game, n, 7 + seed, bots, record=False).final
        assert final.over and not final.stalled, (game.name, n, seed)
        assert_cards_conserved(final)
        score = final_score(final)
        assert len(score.players) == n
        assert all(0 <= ps.trains <= game.rules.trains for ps in final.players)
    assert seen["ClaimRoute"] > 0 and seen["KeepTickets"] > 0
    if not game.rules.stations:
        assert seen[BuildStation.__name__] == 0  # a board without stations: never offered, never built
    if game.rules.city_markers:  # Old West: every seat started somewhere, and markers went down after claims
        assert seen[PlaceStartCity.__name__] > 0 and seen[PlaceMarker.__name__] > 0


@pytest.mark.parametrize("board", ["europe", "oldwest"])
def test_every_level_plays_warehouses_and_depots_legally_to_the_end(board: str) -> None:
    """With ``--with depots`` (any board): every level at a table of two and of three, the cards all there
    (the warehouses' too) at every decision; depots placed, warehouses stocked and emptied."""
    game = load_game(board, "depots")
    seen: Counter[str] = Counter()
    for n, seed, levels in [(2, 0, LEVELS[:2]), (2, 1, LEVELS[2:4]), (3, 2, LEVELS[2:]), (3, 3, LEVELS[:3])]:
        bots = [Conserving(make_bot(level, 1000 * seed + p, level), seen) for p, level in enumerate(levels)]
        final = play_local_game(game, n, 7 + seed, bots, record=False).final
        assert final.over and not final.stalled, (game.name, n, seed)
        assert_cards_conserved(final)
    assert seen[PlaceDepot.__name__] >= 10 and seen[StockWarehouse.__name__] > 0
    assert seen[EmptyWarehouses.__name__] > 0
