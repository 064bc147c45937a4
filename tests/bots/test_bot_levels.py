"""Every bot level plays only legal moves, in every phase, at every table size."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from positions import settle

from p2p_ttr.bots.base import Bot
from p2p_ttr.bots.levels import LEVELS, make_bot
from p2p_ttr.engine.events import Action, DrawTickets, KeepTickets, Pass
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.outcome import final_score
from p2p_ttr.engine.boards import europe_game
from p2p_ttr.engine.rules import actors, apply, new_game
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.view import view_for
from p2p_ttr.local.dealer import LocalDealer
from p2p_ttr.local.game import play_local_game

PLANNING_LEVELS = ("easy", "medium", "hard")


class Checked:
    """Wraps a bot: every action it picks must be one of legal_actions(view)."""

    def __init__(self, bot: Bot, seen: Counter[str]) -> None:
        self.bot = bot
        self.name = bot.name
        self.seen = seen

    def choose(self, view: GameState, player: int) -> Action:
        action = self.bot.choose(view, player)
        assert action in legal_actions(view, player), f"{self.name} chose {action} in {view.phase}"
        if view.phase is Phase.TURN and view.cards_drawn:
            self.seen["second draw"] += 1
        else:
            self.seen[view.phase.value] += 1
        if isinstance(action, KeepTickets):
            least = 2 if view.phase is Phase.SETUP_TICKETS else 1
            assert len(action.keep) >= least
        return action


def test_levels_are_named_weakest_first() -> None:
    assert LEVELS == ("random", "easy", "medium", "hard", "expert")
    for level in LEVELS:
        assert make_bot(level, 1, f"{level} bot").name == f"{level} bot"
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("grandmaster", 1, "x")


@pytest.mark.parametrize("level", PLANNING_LEVELS)
def test_every_choice_is_a_legal_action_in_every_phase(level: str) -> None:
    seen: Counter[str] = Counter()
    for n_players, seed in ((2, 11), (3, 12)):
        bots = [Checked(make_bot(level, seed * 10 + p, f"{level}{p}"), seen) for p in range(n_players)]
        game = play_local_game(europe_game(), n_players, seed, bots, record=False)
        assert game.final.over and not game.final.stalled
    for phase in ("setup_tickets", "turn", "second draw"):
        assert seen[phase] > 0, f"{level} never met the {phase} phase"


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_mixed_tables_finish_at_every_size(n_players: int) -> None:
    """The engine refuses illegal moves, so a finished game is the check."""
    for seed in (n_players, 20 + n_players):
        levels = [LEVELS[(seed + p) % len(LEVELS)] for p in range(n_players)]
        bots = [make_bot(level, seed * 10 + p, level) for p, level in enumerate(levels)]
        game = play_local_game(europe_game(), n_players, seed, bots, record=False)
        assert game.final.over and not game.final.stalled
        assert len(final_score(game.final).players) == n_players


@pytest.mark.parametrize("level", PLANNING_LEVELS)
@pytest.mark.parametrize("n_players", [4, 5])
def test_full_tables_of_one_level_finish(level: str, n_players: int) -> None:
    game = play_local_game(europe_game(), n_players, 3, [make_bot(level, 30 + p, level) for p in range(n_players)], record=False)
    assert game.final.over and not game.final.stalled


def test_tunnels_come_up_and_stay_legal() -> None:
    seen: Counter[str] = Counter()
    for seed in range(3):
        bots = [Checked(make_bot(level, seed * 7 + p, level), seen) for p, level in enumerate(PLANNING_LEVELS)]
        play_local_game(europe_game(), 3, 100 + seed, bots, record=False)
    assert seen["tunnel"] > 0


@pytest.mark.parametrize("level", LEVELS)
def test_a_mid_game_ticket_choice_keeps_at_least_one(level: str) -> None:
    state, dealer = _mid_game_state()
    p = state.current
    state = settle(apply(state, DrawTickets(p)), dealer)
    assert state.phase is Phase.TICKETS and actors(state) == (p,)
    view = view_for(state, p)
    action = make_bot(level, 5, level).choose(view, p)
    assert isinstance(action, KeepTickets) and len(action.keep) >= 1
    assert action in legal_actions(view, p)


@pytest.mark.parametrize("level", LEVELS)
def test_a_player_with_nothing_to_draw_acts_if_it_can_and_passes_only_if_not(level: str) -> None:
    """No train cards and no tickets left: a hand that can play must be
    played ("You must perform an action"); an empty hand can only pass."""
    state, _ = _mid_game_state()
    p = state.current
    empty = state.evolve(draw_pile=(), discard=(), face_up=(None,) * 5, ticket_pile=())
    view = view_for(empty, p)
    legal = legal_actions(view, p)
    assert legal and Pass(p) not in legal
    action = make_bot(level, 5, level).choose(view, p)
    assert action in legal
    ps = empty.players[p]
    handless = empty.evolve(players=tuple(replace(q, hand=()) if i == p else q
                                          for i, q in enumerate(empty.players)))
    assert ps.hand and legal_actions(view_for(handless, p), p) == [Pass(p)]
    assert make_bot(level, 5, level).choose(view_for(handless, p), p) == Pass(p)


def _mid_game_state() -> tuple[GameState, LocalDealer]:
    """A position 20 turns into a seeded game, at the start of someone's turn."""
    dealer = LocalDealer(9)
    bots = [make_bot("medium", p, "m") for p in range(3)]
    state = settle(new_game(europe_game(), 3), dealer)
    while state.turn < 20 or state.phase is not Phase.TURN or state.cards_drawn:
        p = actors(state)[0]
        state = settle(apply(state, bots[p].choose(view_for(state, p), p)), dealer)
    return state, dealer
