"""A bot decides from its own view only: hidden cards elsewhere change nothing."""

from __future__ import annotations

import pytest

from positions import decision_points
from p2p_ttr.bots.levels import LEVELS, make_bot
from p2p_ttr.bots.planning import hand_of
from p2p_ttr.engine.board import europe
from p2p_ttr.engine.cards import CardRef
from p2p_ttr.engine.rules import actors
from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.view import view_for
from p2p_ttr.local.dealer import LocalDealer

BOARD = europe()


def _positions(n_players: int, seed: int, every: int) -> list[tuple[GameState, LocalDealer]]:
    """Omniscient positions where someone must decide, with the dealer (every ``every`` decisions)."""
    return decision_points(n_players, seed, every)


def _other_hidden_card(state: GameState, player: int) -> tuple[int, CardRef] | None:
    """Another player's hand card whose face ``player`` cannot see."""
    for q, ps in enumerate(state.players):
        if q == player:
            continue
        for ref in ps.hand:
            if ref in state.private and ref not in state.public:
                return q, ref
    return None


def _rewrite_hidden(state: GameState, player: int, dealer: LocalDealer) -> GameState | None:
    """The same position with other players' hidden cards changed: two of an
    opponent's secret cards of different kinds swap faces, and one secret card
    swaps faces with the top card of the draw pile (which nobody has seen)."""
    private = dict(state.private)
    found = _other_hidden_card(state, player)
    if found is None:
        return None
    q, ref = found
    secret = [r for r in state.players[q].hand if r in private and r not in state.public]
    kinds = {r: BOARD.card_kind(private[r]) for r in secret}
    other = next((r for r in secret if kinds[r] != kinds[ref]), None)
    if other is not None:
        private[ref], private[other] = private[other], private[ref]
    if state.draw_pile:
        top = state.draw_pile[0]
        unseen = dealer.face(top)
        # The card now in q's hand is what the pile held; the pile's card is
        # what q held (the dealer's record is not part of the state).
        private[ref] = unseen
    changed = state.evolve(private=private)
    return changed if changed.private != state.private else None


@pytest.mark.parametrize("level", LEVELS)
def test_decisions_ignore_hidden_cards_of_others(level: str) -> None:
    checked = 0
    for state, dealer in _positions(3, seed=4, every=9):
        player = actors(state)[0]
        changed = _rewrite_hidden(state, player, dealer)
        if changed is None:
            continue
        assert view_for(changed, player) == view_for(state, player)
        a = make_bot(level, 77, level).choose(view_for(state, player), player)
        b = make_bot(level, 77, level).choose(view_for(changed, player), player)
        assert a == b
        checked += 1
    assert checked >= 5


def test_a_view_knows_its_own_hand_and_nothing_of_the_others() -> None:
    for state, _ in _positions(4, seed=6, every=25):
        player = actors(state)[0]
        view = view_for(state, player)
        assert sum(hand_of(view, player).values()) == len(state.players[player].hand)
        for q in range(state.n_players):
            if q != player:
                secret = [r for r in state.players[q].hand if r not in state.public]
                assert all(view.face(r) is None for r in secret)


def test_same_seed_same_choices() -> None:
    """All of a bot's randomness is its own seeded generator."""
    positions = _positions(2, seed=8, every=15)
    for level in LEVELS:
        first = [make_bot(level, 3, level) for _ in range(2)]
        for state, _ in positions:
            p = actors(state)[0]
            assert first[0].choose(view_for(state, p), p) == first[1].choose(view_for(state, p), p)
