"""Every board mechanic declares its hooks once (mechanic.py, mechanics.py),
every action has one handler, and a game asks only the mechanics it plays."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import get_args

import pytest

from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.engine import depots, markerrules, monstermoves, sharemoves, stations, technologies, trackbeds, tunnels
from p2p_ttr.engine import mechanics
from p2p_ttr.engine.board import read_board_data
from p2p_ttr.engine.boards import BOARDS, every_expanded_game, every_game, load_game
from p2p_ttr.engine.events import Action, DrawBlind
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.mechanic import Mechanic
from p2p_ttr.engine.rules import ACTION_HANDLERS, new_game
from p2p_ttr.local.game import play_local_game

MODULES = (depots, markerrules, monstermoves, sharemoves, stations, technologies, trackbeds, tunnels)


def named_by_rules_and_data(game: Game) -> set[str]:
    """The mechanics the game's rule settings and board data name, read from them directly."""
    rules, board = game.rules, game.board
    named = {"stations": rules.stations > 0, "tunnels": any(route.tunnel for route in board.routes),
             "track beds": "track_pieces" in read_board_data(BOARDS[game.board_name].data_file),
             "depots": rules.depots > 0, "city markers": rules.city_markers > 0,
             "technologies": bool(rules.technologies), "shares": board.stock_market is not None,
             "monsters": rules.monster_cards > 0}
    return {name for name, plays in named.items() if plays}


def slices_at_start(game: Game) -> set[str]:
    """The mechanics whose slice of the state a new table of ``game`` holds."""
    state = new_game(game, game.rules.min_players)
    slices = {"track beds": state.track_beds, "depots": state.depots, "city markers": state.markers,
              "technologies": state.technologies, "shares": state.shares, "monsters": state.monsters}
    return {name for name, part in slices.items() if part is not None}


def test_every_mechanic_module_declares_its_hooks_once_and_the_list_names_each() -> None:
    declared = [module.MECHANIC for module in MODULES]
    assert sorted(m.name for m in mechanics.MECHANICS) == sorted(m.name for m in declared)
    assert set(mechanics.SET_UP_ORDER) == {m for m in mechanics.MECHANICS if m.set_up is not None}


def test_the_walks_keep_the_order_the_rules_fix() -> None:
    # A claim: the depots hear of it before Old West may end the turn, the technologies before the shares.
    assert [m.name for m in mechanics.MECHANICS if m.after_claim is not None] == [
        "track beds", "depots", "city markers", "technologies", "shares"]
    # The set-up: Old West's starting cities, then Alvin & Dexter, then the depots.
    assert [m.name for m in mechanics.SET_UP_ORDER] == ["city markers", "monsters", "depots"]


def test_every_action_has_exactly_one_handler() -> None:
    assert set(ACTION_HANDLERS) == set(get_args(Action))
    with pytest.raises(AssertionError, match="DrawBlind has two handlers"):
        mechanics.handlers((ACTION_HANDLERS[DrawBlind], ACTION_HANDLERS[DrawBlind]))


@pytest.mark.parametrize("game", every_game() + every_expanded_game(), ids=lambda g: g.name)
def test_a_game_plays_the_mechanics_its_rules_and_data_name(game: Game) -> None:
    played = {m.name for m in mechanics.played(game)}
    assert played == named_by_rules_and_data(game)
    assert slices_at_start(game) == played - {"stations", "tunnels"}


def _never(name: str) -> object:
    def called(*args: object) -> object:
        raise AssertionError(f"a game that does not play {name} asked its hooks")
    return called


def _spied(mechanic: Mechanic) -> Mechanic:
    hooks = ("refuses", "after_claim", "after_draw", "before_turn_ends", "turn_over", "at_start", "set_up")
    return replace(mechanic, **{hook: _never(mechanic.name) for hook in hooks if getattr(mechanic, hook) is not None})


@pytest.fixture
def unplayed_hooks_raise(monkeypatch: pytest.MonkeyPatch) -> Iterator[Game]:
    """Europe, with every mechanic it does not play made to fail if the skeleton asks it."""
    game = load_game("europe")
    spied = tuple(m if m.plays(game) else _spied(m) for m in mechanics.MECHANICS)
    monkeypatch.setattr(mechanics, "MECHANICS", spied)
    monkeypatch.setattr(mechanics, "SET_UP_ORDER", tuple(_spied(m) for m in mechanics.SET_UP_ORDER))
    mechanics.played.cache_clear()
    mechanics.setting_up.cache_clear()
    yield game
    mechanics.played.cache_clear()
    mechanics.setting_up.cache_clear()


def test_a_game_never_asks_a_mechanic_it_does_not_play(unplayed_hooks_raise: Game) -> None:
    game = unplayed_hooks_raise
    played = play_local_game(game, 3, seed=5, bots=[RandomBot(p) for p in range(3)], record=False)
    assert played.final.over and any(ps.routes for ps in played.final.players)
    assert played.final.depots is None and played.final.track_beds is None


def test_the_spies_would_see_a_game_that_plays_the_mechanic(unplayed_hooks_raise: Game) -> None:
    with pytest.raises(AssertionError, match="does not play depots"):
        play_local_game(load_game("europe", "depots"), 3, seed=5, bots=[RandomBot(p) for p in range(3)])
