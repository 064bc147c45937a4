"""The line-based prompt maps commands to legal engine actions."""

from __future__ import annotations

from dataclasses import dataclass

from p2p_ttr.engine.boards import europe_game
from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.engine.board import europe
from p2p_ttr.engine.events import ClaimRoute, DrawBlind, DrawFaceUp, KeepTickets
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.rules import actors, apply
from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.view import view_for
from p2p_ttr.local.game import play_local_game
from p2p_ttr.cli.plain import Human
from p2p_ttr.net.playerinput import PlayerMove

EUROPE = europe_game()


@dataclass
class FakeTable:
    engine: GameState
    log: tuple[()] = ()
    finished: bool = False
    seats: tuple[()] = ()
    forfeited: tuple[()] = ()


def states() -> list[GameState]:
    game = play_local_game(EUROPE, 2, 11, [RandomBot(1), RandomBot(2)])
    from p2p_ttr.engine.rules import new_game

    state, out = new_game(EUROPE, 2), []
    for event in game.events:
        state = apply(state, event)
        out.append(state)
    return out


def readable(s: GameState) -> bool:
    ps = s.players[0]
    return all(s.face(r) is not None for r in ps.hand + ps.offered)


def test_prompt_commands_map_to_legal_actions() -> None:
    said: list[str] = []
    human = Human(said.append)
    all_states = states()
    setup = next(s for s in all_states if 0 in actors(s) and readable(s) and legal_actions(view_for(s, 0), 0, KeepTickets))
    human.attach(FakeTable(setup), 0)  # type: ignore[arg-type]
    human.tick()
    assert "your move" in said[-1] and "offered" in said[-1]
    kept = human.command("keep 1 2")
    assert isinstance(kept, PlayerMove) and isinstance(kept.action, KeepTickets) and len(kept.action.keep) == 2
    assert human.command("draw") is None and "draw" in said[-1]  # not legal during ticket choice

    board = europe()
    main = next(s for s in all_states if 0 in actors(s) and readable(s) and legal_actions(view_for(s, 0), 0, ClaimRoute)
                and legal_actions(view_for(s, 0), 0, DrawBlind))
    human.attach(FakeTable(main), 0)  # type: ignore[arg-type]
    drawn = human.command("draw")
    assert isinstance(drawn, PlayerMove) and isinstance(drawn.action, DrawBlind)
    drawn = human.command("draw 1")
    assert (isinstance(drawn, PlayerMove) and isinstance(drawn.action, DrawFaceUp)) or "not a legal move" in said[-1]
    claim = legal_actions(view_for(main, 0), 0, ClaimRoute)[0]
    assert isinstance(claim, ClaimRoute)
    route = board.routes[claim.route]
    claimed = human.command(f"claim {route.b} {route.a.lower()}")
    if route.tunnel and claimed is None:  # a tunnel asks first when the hand may not pay what it turns up
        assert "is a tunnel" in said[-1] and "Claim it?" in said[-1]
        claimed = human.command("claim")
    assert isinstance(claimed, PlayerMove) and isinstance(claimed.action, ClaimRoute)
    assert claimed.action.route in (claim.route, route.twin)
    human.command("claim Lisboa Moskva")
    assert "no route" in said[-1]
    human.command("claim Nowhere Paris")
    assert "no single city" in said[-1]
    human.command("frobnicate")
    assert "unknown command" in said[-1]
