"""The expert: a search that sees only its seat, reproduces from its seed,
keeps the prior's move unless another is clearly better, and finds one that is."""

from __future__ import annotations

import random

from positions import decision_points
from p2p_ttr.bots.expert import ExpertBot, spread
from p2p_ttr.bots.levels import LEVELS, make_bot
from p2p_ttr.bots.worlds import determinize
from p2p_ttr.engine.boards import europe_game
from p2p_ttr.engine.events import ClaimRoute, DrawBlind
from p2p_ttr.engine.moves import claim_actions, legal_actions
from p2p_ttr.engine.rules import actors
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.view import view_for


BOARD = europe_game().board


def _game(n_players: int, seed: int) -> list[GameState]:
    """Every omniscient position of a seeded medium game where someone must decide."""
    return [state for state, _ in decision_points(n_players, seed)]


def _swap_hidden(state: GameState, seat: int) -> GameState | None:
    """The same position with two hidden cards of the other seats, of
    different kinds, swapping faces (None if there are no such two)."""
    private = dict(state.private)
    hidden = [r for q, ps in enumerate(state.players) if q != seat for r in ps.hand if r not in state.public]
    for a in hidden:
        for b in hidden:
            if BOARD.card_kind(private[a]) != BOARD.card_kind(private[b]):
                private[a], private[b] = private[b], private[a]
                return state.evolve(private=private)
    return None


def test_expert_is_the_strongest_level() -> None:
    assert LEVELS[-1] == "expert"
    assert make_bot("expert", 1, "Ed").name == "Ed"


def test_hidden_cards_it_cannot_know_change_nothing() -> None:
    """Two games that differ only in cards hidden from the seat give the
    expert the same view, the same worlds and the same move; and the move
    came out of a search (several candidates, every one played)."""
    searched = 0
    positions = _game(2, seed=3)
    weighty = [s for s in positions if s.phase is not Phase.TURN or s.final_turns_left is not None]
    for state in weighty[:8] + positions[::25]:
        seat = actors(state)[0]
        other = _swap_hidden(state, seat)
        if other is None:
            continue
        assert other != state and view_for(other, seat) == view_for(state, seat)
        first, second = ExpertBot(7, "a"), ExpertBot(7, "b")
        assert first.choose(view_for(state, seat), seat) == second.choose(view_for(other, seat), seat)
        assert determinize(state, seat, random.Random(1)) == determinize(other, seat, random.Random(1))
        if first.last is not None:
            assert first.last.worlds >= 1 and len(first.last.candidates) > 1
            assert second.last is not None and first.last.means == second.last.means
            searched += 1
    assert searched >= 3


def test_the_same_view_and_seed_give_the_same_search() -> None:
    positions = _game(2, seed=5)[::20]
    for state in positions:
        seat = actors(state)[0]
        view = view_for(state, seat)
        a, b = ExpertBot(3, "x"), ExpertBot(3, "y")
        assert a.view_seed(view, seat) == b.view_seed(view, seat)
        assert a.view_seed(view, seat) != ExpertBot(4, "z").view_seed(view, seat)
        assert a.choose(view, seat) == b.choose(view, seat)


def test_every_choice_is_legal_in_every_phase() -> None:
    phases: set[str] = set()
    for state in _game(3, seed=8)[::7]:
        seat = actors(state)[0]
        view = view_for(state, seat)
        action = ExpertBot(1, "e").choose(view, seat)
        assert action in legal_actions(view, seat)
        phases.add(view.phase.value + ("/second" if view.cards_drawn else ""))
    assert {"setup_tickets", "turn", "turn/second"} <= phases


def _last_turn_with_a_claim() -> tuple[GameState, int, ClaimRoute]:
    """A position of the final round where the player to move can claim a route of 2 or more (no tunnel)."""
    for state in _game(2, seed=11):
        if state.final_turns_left is None or state.phase is not Phase.TURN or state.cards_drawn:
            continue
        seat = actors(state)[0]
        claims = [a for a in claim_actions(view_for(state, seat), seat)
                  if isinstance(a, ClaimRoute) and BOARD.routes[a.route].length >= 2
                  and not BOARD.routes[a.route].tunnel]
        if claims:
            return state, seat, claims[0]
    raise AssertionError("no final-round claim in this game")


def test_the_search_finds_a_clearly_better_move() -> None:
    """On a last turn, drawing scores nothing and a claim scores its route in
    every world: the search plays the claim and says by how much."""
    state, seat, claim = _last_turn_with_a_claim()
    bot = ExpertBot(2, "e", budget=0, min_worlds=6, horizon=None)
    chosen = bot.search(view_for(state, seat), seat, [DrawBlind(seat), claim])
    assert chosen == claim
    assert bot.last is not None and bot.last.worlds == 6
    gain = bot.last.means[1] - bot.last.means[0]
    assert gain >= BOARD.route_points[BOARD.routes[claim.route].length]


def test_the_prior_stays_unless_the_gain_is_clear() -> None:
    bot = ExpertBot(1, "e")
    prior = [10.0, -10.0, 10.0, -10.0]
    assert bot.pick([prior, [12.0, -8.0, 12.0, -8.0]], [True, True]) == 1  # +2 every time
    assert bot.pick([prior, [30.0, -30.0, 30.0, 10.0]], [True, True]) == 0  # +5 on average, all noise
    assert bot.pick([prior, [40.0, 0.0, 40.0, 0.0]], [True, False]) == 0  # dropped
    assert spread([1.0]) == float("inf") and spread([1.0, 1.0, 1.0]) == 0.0


def test_the_budget_is_counted_in_rollout_decisions_not_seconds() -> None:
    state, seat, claim = _last_turn_with_a_claim()
    view = view_for(state, seat)
    small = ExpertBot(2, "e", budget=0, min_worlds=2, horizon=None)
    small.search(view, seat, [DrawBlind(seat), claim])
    large = ExpertBot(2, "e", budget=200, min_worlds=2, horizon=None)
    large.search(view, seat, [DrawBlind(seat), claim])
    assert small.last is not None and large.last is not None
    assert small.last.worlds == 2 and large.last.worlds > 2
