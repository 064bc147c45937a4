"""One value bounds what depends on the game, for the engine's events and the
table's messages alike (engine/limits.py): derived from the game's data and
rules, and, before the game is known, the bounds every game we have fits."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest

from p2p_ttr.engine.boards import every_game, load_game
from p2p_ttr.engine.limits import GameLimits, any_game_limits, every_game_limits
from p2p_ttr.table.errors import Malformed
from p2p_ttr.table.messages import Remask, Shuffle, message_from_wire

PINNED = json.loads((Path(__file__).parent / "pinned_wire.json").read_text())


def test_europe_s_limits_follow_from_its_data_and_rules() -> None:
    europe = GameLimits.of(load_game("europe"))
    assert (europe.min_players, europe.max_players, europe.deck_sizes, europe.first_ids) == (2, 5, (110, 40, 6, 0), (0, 0, 40, 0))
    assert (europe.routes, len(europe.cities), europe.largest_deck, europe.highest_card_id) == (101, 47, 110, 109)
    # A claim's 8 cards (the longest route), offers of 4 (a long ticket and 3) and 3, of which only those of a
    # draw go back under the pile: 2 at most; a tunnel turns 3 cards; 3 stations.
    assert (europe.most_paid, europe.most_offered, europe.most_returned, europe.most_extra, europe.most_station) == (
        8, 4, 2, 3, 3)


def test_each_game_has_its_own() -> None:
    mega, nordic, india = (GameLimits.of(load_game(*n)) for n in (("usa", "mega"), ("nordic",), ("india",)))
    assert (mega.deck_sizes, mega.most_offered, mega.most_returned, mega.most_station) == ((110, 69, 0, 0), 5, 3, 0)
    assert (nordic.max_players, nordic.most_paid, nordic.most_returned) == (3, 36, 0)  # Lieksa-Murmansk; unkept: box
    assert (india.max_players, india.routes) == (4, 108)
    # Pennsylvania: 50 tickets; the dummy's order deck holds half its 60 shares; its 9 companies.
    penn = GameLimits.of(load_game("pennsylvania"))
    assert (penn.deck_sizes, len(penn.companies), "BR&P" in penn.companies) == ((110, 50, 0, 30), 9, True)


def test_the_limits_before_the_game_is_known_fit_every_game() -> None:
    anyone = any_game_limits()
    for game in every_game():
        own = GameLimits.of(game)
        assert anyone.min_players <= own.min_players and own.max_players <= anyone.max_players
        assert own.cities <= anyone.cities and own.highest_card_id <= anyone.highest_card_id
        for deck, (first, size) in enumerate(zip(own.first_ids, own.deck_sizes)):
            assert first + size <= anyone.deck_sizes[deck]  # its positions and its card ids
        for name in ("routes", "most_paid", "most_offered", "most_returned", "most_extra", "most_station",
                     "most_marker"):
            assert getattr(own, name) <= getattr(anyone, name), (game.name, name)
    assert (anyone.max_players, anyone.routes, anyone.most_paid, anyone.most_offered, anyone.most_returned) == (
        6, 157, 40, 7, 3)  # (Old West seats 6, France has 157 routes, the UK's claims up to 40 cards; Mega Europe offers 2 long and 5 regular tickets)


def test_the_limits_written_down_for_any_game_are_those_every_game_s_data_gives() -> None:
    """any_game_limits writes its numbers down (so that a process builds only
    the board it plays); a board that widens one shows here, value by value."""
    written, computed = any_game_limits(), every_game_limits()
    for field in dataclasses.fields(GameLimits):
        assert getattr(written, field.name) == getattr(computed, field.name), field.name
    assert written == computed


def test_reading_the_limits_of_any_game_builds_no_board() -> None:
    """Only the board a game plays is built: the bounds of any game come from
    the numbers written down and the data files' places."""
    code = ("from p2p_ttr.engine.board import load_board\n"
            "from p2p_ttr.engine.limits import any_game_limits\n"
            "any_game_limits()\n"
            "assert load_board.cache_info().currsize == 0, load_board.cache_info()\n")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize(("kind", "index", "fewer"), [("remask", 1, {"most_returned": 1}),
                                                       ("shuffle", 1, {"deck_sizes": (39, 39, 39)})])
def test_the_messages_read_their_bounds_from_the_same_value(kind: str, index: int, fewer: dict[str, object]) -> None:
    body = msgpack.unpackb(bytes.fromhex(PINNED["messages"][kind][index]), raw=False)
    assert isinstance(message_from_wire(body), (Remask, Shuffle))  # within every game's limits
    with pytest.raises(Malformed):
        message_from_wire(body, dataclasses.replace(any_game_limits(), **fewer))  # type: ignore[arg-type]
