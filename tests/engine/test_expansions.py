"""Expansions: played with any board that allows them, named after the variant with a ``+``."""

from __future__ import annotations

import pytest

from p2p_ttr.cli.main import main
from p2p_ttr.engine.boards import (
    BOARDS,
    EXPANSIONS,
    MAX_NAME,
    UnknownGame,
    every_expanded_game,
    every_game,
    join_variant,
    load_game,
    parse_game_name,
    playable_game,
    split_variant,
)


def test_a_variant_and_its_expansions_have_one_spelling_in_any_order_asked() -> None:
    game = load_game("europe", "monsters+mega+depots")
    assert game.variant == "mega+depots+monsters"
    assert game is load_game("europe", "mega+depots+monsters")
    assert load_game("usa", "+monsters").variant == "monsters"
    assert split_variant("europe", "mega+monsters") == ("mega", ("monsters",))
    assert split_variant("usa", "monsters+depots") == ("", ("depots", "monsters"))
    assert join_variant("", ("depots",)) == "depots"
    assert parse_game_name(game.name) == ("europe", "mega+depots+monsters")
    assert game.title == "Mega Europe with Warehouses and Depots and Alvin & Dexter"


def test_an_expansion_sets_its_rules_and_leaves_the_boards_own() -> None:
    plain, expanded = load_game("usa", "1910"), load_game("usa", "1910+depots")
    assert expanded.rules.depots == 5 and expanded.rules.depot_points == 10
    assert expanded.rules.monster_cards == 0
    assert load_game("india", "monsters").rules.monster_cards == 20
    for field in ("setup_tickets", "draw_tickets", "globetrotter_points", "longest_path_points", "trains"):
        assert getattr(expanded.rules, field) == getattr(plain.rules, field)
    assert expanded.board is not plain.board or expanded.board == plain.board


def test_the_seating_takes_only_the_one_spelling_and_its_digest() -> None:
    game = load_game("europe", "bigcities+depots+monsters")
    assert len(game.variant) <= MAX_NAME
    assert playable_game("europe", game.variant, game.digest) is game
    with pytest.raises(UnknownGame, match="spelt"):
        playable_game("europe", "bigcities+monsters+depots", game.digest)
    with pytest.raises(UnknownGame, match="differs"):
        playable_game("europe", game.variant, load_game("europe", "bigcities").digest)


@pytest.mark.parametrize(("variant", "why"), [
    ("depots+depots", "twice"),
    ("mega+mega", "one variant"),
    ("mega+dragons", "no variant 'dragons'.*expansions depots, monsters"),
    ("dragons", "no variant 'dragons'"),
])
def test_a_wrong_expansion_is_refused_naming_what_there_is(variant: str, why: str) -> None:
    with pytest.raises(UnknownGame, match=why):
        load_game("europe", variant)


def test_an_expansion_is_refused_where_the_rules_say_it_does_not_play() -> None:
    with pytest.raises(UnknownGame, match="Alvin & Dexter does not play on Old West"):
        load_game("oldwest", "alvin+monsters")
    assert load_game("oldwest", "alvin+depots").rules.depots == 5


def test_every_expanded_game_has_its_own_digest_and_leaves_the_plain_ones_theirs() -> None:
    expanded = every_expanded_game()
    plain = every_game()
    assert len({g.digest for g in expanded + plain}) == len(expanded) + len(plain)
    boards_with_monsters = {g.board_name for g in expanded if g.rules.monster_cards}
    assert boards_with_monsters == set(BOARDS) - {"oldwest"}
    assert all(g.rules.depots for g in expanded if "depots" in g.variant)
    assert set(EXPANSIONS) == {"depots", "monsters"}
    assert not set(EXPANSIONS) & {v for entry in BOARDS.values() for v in entry.variants}


def test_the_command_line_adds_expansions_with_with(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["boards"]) == 0
    listed = capsys.readouterr().out
    assert "--with depots" in listed and "--with monsters" in listed and "not on Old West" in listed
    assert main(["selfplay", "--board", "oldwest", "--with", "monsters"]) == 2
    assert "Alvin & Dexter does not play on Old West" in capsys.readouterr().err
