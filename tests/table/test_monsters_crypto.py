"""Alvin & Dexter over the crypto deck: a monster moved with hidden
locomotives waits in the log for its cards like a claim, the replicas
agree, and the audit replays the game to the same score."""

from __future__ import annotations

from p2p_ttr.bots.levels import make_bot
from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.outcome import final_score
from p2p_ttr.engine.state import public_digest
from p2p_ttr.local.crypto_game import play_crypto_game
from p2p_ttr.table.verify import verify_entries


def test_a_game_with_the_monsters_over_the_crypto_deck_verifies() -> None:
    monsters = load_game("usa", "monsters")
    game = play_crypto_game(3, [make_bot("hard", 1), RandomBot(2)], ["Ann", "Bob"], game=monsters)
    engines = [peer.table.engine for peer in game.peers]
    assert all(engine is not None and engine.over for engine in engines)
    assert len({public_digest(engine) for engine in engines if engine is not None}) == 1
    table = game.peers[1].table
    assert table.engine is not None and table.engine.monsters is not None
    assert all(table.engine.monsters.cities) and sum(map(sum, table.engine.monsters.cards)) > 0
    verdict = verify_entries(game.log)
    assert verdict.fair and verdict.score == final_score(table.engine)
    assert verdict.table.game is monsters
