"""Whole games with Alvin & Dexter: random legal play (the random bot moves
the monsters as often as anything else) conserves every train card and
keeps every invariant after every event, on boards with stations and
tunnels (Europe), country tickets (Switzerland) and neither (USA); no claim
ever goes into a City in Chaos; and the bots of every level finish."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_playouts import play_checked

from p2p_ttr.bots.base import Bot
from p2p_ttr.bots.levels import make_bot
from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.events import BuildStation, ClaimRoute, Event, MoveMonster
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.monstermoves import chaos
from p2p_ttr.engine.outcome import final_score
from p2p_ttr.engine.state import GameState, Phase

GAMES = {name: load_game(name, "monsters") for name in ("europe", "usa", "switzerland")}


def check_monsters(before: GameState, event: Event, after: GameState) -> None:
    """The monsters' own invariants, over one event."""
    monsters, deck = after.monsters, after.game.rules.monster_cards
    assert monsters is not None
    assert all(0 <= monsters.left(m, deck) <= deck for m in range(2))
    if after.phase not in (Phase.SETUP, Phase.SETUP_TICKETS, Phase.MONSTERS):
        assert all(monsters.cities) and monsters.cities[0] != "" and monsters.cities[1] != ""
    if isinstance(event, ClaimRoute):
        assert not set(before.game.board.routes[event.route].cities) & chaos(before)
    if isinstance(event, BuildStation):
        assert event.city not in chaos(before)
    if isinstance(event, MoveMonster):
        assert sum(map(sum, monsters.cards)) == sum(map(sum, before.monsters.cards)) + 1  # type: ignore[union-attr]


def play_with_monsters(game: Game, n_players: int, seed: int, bots: list[Bot] | None = None) -> tuple[GameState, int]:
    """A whole game, every invariant checked after every event; and how many times a monster moved."""
    moved = []

    def check(before: GameState, event: Event, after: GameState) -> None:
        check_monsters(before, event, after)
        moved.extend([event] if isinstance(event, MoveMonster) else [])

    return play_checked(n_players, seed, game, check, bots), len(moved)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(GAMES)), data=st.data())
def test_random_play_with_the_monsters_conserves_every_card(name: str, data: st.DataObject) -> None:
    game = GAMES[name]
    n_players = data.draw(st.integers(game.rules.min_players, min(game.rules.max_players, 4)), label="players")
    state, moved = play_with_monsters(game, n_players, data.draw(st.integers(0, 2**32), label="seed"))
    assert state.over and moved > 0


def test_the_monster_parts_and_halved_tickets_make_the_final_score() -> None:
    state, _ = play_with_monsters(GAMES["usa"], 3, seed=7)
    score = final_score(state)
    assert state.monsters is not None
    for m, key in enumerate(("monster_alvin", "monster_dexter")):
        most = max(mine[m] for mine in state.monsters.cards)
        parts = [next(part for part in sc.extra if part.key == key) for sc in score.players]
        assert [part.count for part in parts] == [mine[m] for mine in state.monsters.cards]
        assert [part.points for part in parts] == [15 if most and mine[m] == most else 0
                                                   for mine in state.monsters.cards]
    struck = chaos(state)
    for sc in score.players:
        for result in sc.ticket_results:
            ticket = state.game.board.tickets[result.ticket]
            assert result.halved == bool({ticket.a, ticket.b} & struck) or bool(ticket.goals)


@pytest.mark.parametrize("name", ["usa", "europe"])
@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard"])
def test_the_bots_of_every_level_place_and_play_to_the_end(name: str, level: str) -> None:
    state, _ = play_with_monsters(GAMES[name], 2, 5, [make_bot(level, 11 + p) for p in range(2)])
    assert state.over and not state.stalled
    assert state.monsters is not None and all(state.monsters.cities)
