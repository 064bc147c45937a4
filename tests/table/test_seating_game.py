"""The signed seating names the game (board, variant, digest of its data):
every replica and `ttr verify` build the engine from it, a peer without that
game refuses it in words that name it, and seatings written before the boards
(rules `ttr-europe/5`) still open Europe's standard game."""

from __future__ import annotations

import pytest

from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.engine.boards import europe_game, load_game
from p2p_ttr.engine.outcome import final_score
from p2p_ttr.local.crypto_game import play_crypto_game
from p2p_ttr.table.errors import Malformed
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.messages import EUROPE_RULES_5, RULES, Seat, Seating, message_from_wire
from p2p_ttr.table.verify import verify_entries

SEATS = (Seat("Ann", Identity.from_bytes(b"a" * 32).public), Seat("Bob", Identity.from_bytes(b"b" * 32).public))


def test_a_seating_names_its_game_and_reads_back_as_the_same_value() -> None:
    usa = load_game("usa", "1910")
    wire = Seating(SEATS, game=usa).to_wire()
    assert wire[:3] == ["seating", RULES, ["usa", "1910", usa.digest]]
    seating = message_from_wire(wire)
    assert isinstance(seating, Seating) and seating.game is usa and seating.seats == SEATS


def test_a_seating_before_the_boards_is_europes_standard_game() -> None:
    old = ["seating", EUROPE_RULES_5, [[s.name, s.identity] for s in SEATS]]
    seating = message_from_wire(old)
    assert isinstance(seating, Seating) and seating.game is europe_game() and not seating.escrow
    with pytest.raises(Malformed, match="escrow needs 3 to 5 players"):  # the old checks hold as they were
        message_from_wire(old + [True])


def test_a_game_this_peer_does_not_have_is_refused_naming_it() -> None:
    rows = [[s.name, s.identity] for s in SEATS]
    with pytest.raises(Malformed, match="cannot play that game: there is no board 'mars'"):
        message_from_wire(["seating", RULES, ["mars", "", b"\0" * 32], rows])
    with pytest.raises(Malformed, match="USA has no variant 'x'"):
        message_from_wire(["seating", RULES, ["usa", "x", b"\0" * 32], rows])
    usa = load_game("usa")
    with pytest.raises(Malformed, match="USA differs here"):
        message_from_wire(["seating", RULES, ["usa", "", bytes(32)], rows])
    with pytest.raises(Malformed, match="unknown rules 'ttr-europe/4'"):
        message_from_wire(["seating", "ttr-europe/4", rows])
    with pytest.raises(Malformed, match="digest must be 32..32 bytes"):
        message_from_wire(["seating", RULES, ["usa", "", usa.digest[:31]], rows])


def test_the_seat_count_is_the_games() -> None:
    five = tuple(Seat(f"P{i}", Identity.from_bytes(bytes([i + 1]) * 32).public) for i in range(5))
    assert message_from_wire(Seating(five, game=load_game("usa")).to_wire()) == Seating(five, game=load_game("usa"))
    with pytest.raises(Malformed, match="India is for 2 to 4 players"):
        message_from_wire(Seating(five, game=load_game("india")).to_wire())
    with pytest.raises(Malformed, match="Nordic Countries is for 2 to 3 players"):
        message_from_wire(Seating(five[:4], game=load_game("nordic")).to_wire())
    with pytest.raises(Malformed, match="seats must be a list of 2..6"):  # no game seats one (Old West seats six)
        message_from_wire(Seating(SEATS[:1], game=load_game("usa")).to_wire())


def test_a_usa_game_over_the_crypto_deck_verifies_as_usa() -> None:
    # Mega: 5 tickets dealt, the unkept ones re-masked under the deck at set-up.
    usa = load_game("usa", "mega")
    game = play_crypto_game(7, [RandomBot(1), RandomBot(2)], ["Ann", "Bob"], game=usa)
    table = game.peers[1].table
    assert table.game is usa and table.engine is not None and table.engine.over
    verdict = verify_entries(game.log)
    assert verdict.fair and verdict.score is not None and verdict.table.game is usa
    assert verdict.score == final_score(table.engine)
