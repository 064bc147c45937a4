"""`ttr score`: scoring games played on the physical board, in-process and as
the real installed command."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from p2p_ttr.cli.main import main
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.tablegame import MAX_INPUT_BYTES

EXAMPLE = Path(__file__).parent / "data" / "score_example.json"
ROOT = Path(__file__).resolve().parents[1]


def player(name: str, routes: Any = (), stations: Any = (), tickets: Any = ()) -> dict[str, Any]:
    return {"name": name, "routes": list(routes), "stations": list(stations), "tickets": list(tickets)}


def game(*players: dict[str, Any]) -> dict[str, Any]:
    return {"players": list(players)}


TWO_EMPTY = game(player("Ann"), player("Bob"))


def run(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: bytes = b""
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    code = main(["score", *args])
    out, err = capsys.readouterr()
    return code, out, err


def run_json(
    text: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> list[dict[str, Any]]:
    code, out, err = run(["--json"], capsys, monkeypatch, text.encode())
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


# --------------------------------------------------------------------------
# Good input.


def test_table_shows_every_part_of_the_score(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run([str(EXAMPLE)], capsys, monkeypatch)
    assert code == 0 and err == ""
    for words in (
        "Ann", "Bob", "routes: 4 routes, 10 trains", "ticket Zurich-Budapest (6) not completed",
        "ticket Paris-Zagrab (7) completed", "station in Wien borrows Wien-Zagrab (gray, Bob's)",
        "station in Lisboa borrows nothing", "2 stations not built x 4",
        "longest trail 8 cars: the European Express", "no European Express", "total",
        "Final ranking", "decided by points", "Winner: Ann",
    ):
        assert words in out, words
    ann_total = next(line for line in out.splitlines() if line.strip().startswith("total"))
    assert ann_total.split()[-1] == "31"


def test_json_gives_one_line_with_the_promised_fields(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run([str(EXAMPLE), "--json"], capsys, monkeypatch)
    assert code == 0
    [line] = out.splitlines()
    result = json.loads(line)
    assert result["ranking"] == [0, 1] and result["places"] == [1, 2]
    ann, bob = result["players"]
    assert set(ann) >= {
        "name", "routes", "tickets", "stations", "express", "total", "longest_path",
        "completed_tickets", "ticket_results", "borrowed",
    }
    assert (ann["routes"], ann["tickets"], ann["stations"], ann["express"], ann["total"]) == (12, 1, 8, 10, 31)
    assert ann["longest_path"] == 8 and ann["completed_tickets"] == 1
    assert ann["ticket_results"] == [
        {"a": "Zurich", "b": "Budapest", "points": -6, "completed": False},
        {"a": "Paris", "b": "Zagrab", "points": 7, "completed": True},
    ]
    assert ann["borrowed"] == [{"station": "Wien", "route": ["Wien", "Zagrab", "gray"], "owner": "Bob"}]
    assert bob["borrowed"] == [{"station": "Lisboa", "route": None, "owner": None}]
    assert bob["total"] == 3 - 5 + 8


def test_standard_input_is_read_for_dash_and_by_default(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = EXAMPLE.read_bytes()
    for args in (["-", "--json"], ["--json"]):
        code, out, _ = run(args, capsys, monkeypatch, data)
        assert code == 0 and json.loads(out)["players"][0]["total"] == 31


def test_json_lines_with_two_games_give_two_results(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    second = game(player("Cy", [["Petrograd", "Stockholm", "gray"]]), player("Di"), player("Ed"))
    text = json.dumps(TWO_EMPTY) + "\r\n\r\n" + json.dumps(second) + "\r\n"  # blank line, CRLF
    first_result, second_result = run_json(text, capsys, monkeypatch)
    assert first_result["places"] == [1, 1]
    assert second_result["ranking"][0] == 0 and second_result["players"][0]["total"] == 21 + 12 + 10
    code, out, _ = run([], capsys, monkeypatch, text.encode())
    assert code == 0 and "Game 1" in out and "Game 2" in out
    assert "Winners, sharing first place: Ann, Bob" in out


def test_ties_explain_the_deciding_tiebreak(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ann 21+12+10 = 43 with the Express; Bob 15+15+1+12 = 43 without.
    ann = player("Ann", [["Petrograd", "Stockholm", "gray"]])
    bob = player("Bob", [["Budapest", "Kyiv", "gray"], ["Palermo", "Smyrna", "gray"], ["Amsterdam", "Bruxelles", "black"]])
    code, out, _ = run([], capsys, monkeypatch, json.dumps(game(bob, ann, player("Cy"), player("Di"))).encode())
    assert code == 0
    assert "decided by the European Express" in out
    assert "tied with Cy on every tie-break: shares place 3" in out


def test_gray_doubles_give_the_second_naming_the_other_side(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    dieppe_london = ["Dieppe", "London", "gray"]
    four = game(player("Ann", [dieppe_london]), player("Bob", [["london", "DIEPPE", "Gray"]]), player("Cy"), player("Di"))
    [result] = run_json(json.dumps(four), capsys, monkeypatch)
    assert [p["routes"] for p in result["players"]] == [2, 2, 0, 0]


def test_city_names_ignore_case_spaces_and_accents(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = player("Ann", [["München", " ZÜRICH ", "Yellow"]], ["København"])
    bob = player("Bob", [["kobenhavn", "Stockholm", "white"]], tickets=[["Frankfurt", "København"]])
    [result] = run_json(json.dumps(game(ann, bob)), capsys, monkeypatch)
    assert result["players"][0]["borrowed"] == [
        {"station": "Kobenhavn", "route": None, "owner": None}
    ]
    assert result["players"][1]["ticket_results"][0]["a"] == "Frankfurt"


# --------------------------------------------------------------------------
# Bad input: exit 2 with one line naming the problem (and the player).

ROUTES_OVER_45 = [
    ["Petrograd", "Stockholm", "gray"], ["Budapest", "Kyiv", "gray"], ["Palermo", "Smyrna", "gray"],
    ["Brest", "Pamplona", "purple"], ["Athina", "Brindisi", "gray"], ["Marseille", "Roma", "gray"],
    ["Edinburgh", "London", "orange"], ["Kharkov", "Moskva", "gray"], ["Riga", "Wilno", "green"],
    ["Warszawa", "Wien", "blue"],
]  # 48 trains

BAD_GAMES: list[tuple[str, Any, str]] = [
    ("not a game", [1, 2], "a game must be a JSON object"),
    ("players not a list", {"players": {}}, '"players" must be a list'),
    ("one player", game(player("Ann")), "2..5 players required, got 1"),
    ("six players", game(*(player(n) for n in "ABCDEF")), "2..5 players required, got 6"),
    ("player not an object", {"players": [player("Ann"), "Bob"]}, "player 2: a player must be a JSON object"),
    ("no name", {"players": [player("Ann"), {"routes": []}]}, 'player 2: "name" must be a non-empty string'),
    ("control character in a name", game(player("Ann"), player("B\u001bob")), "printable"),
    ("same name twice", game(player("Ann"), player("ann")), 'player "ann": two players have this name'),
    ("unknown key", game(player("Ann"), {"name": "Bob", "ticket": []}), 'unknown key "ticket" for player "Bob"'),
    ("unknown game key", {**TWO_EMPTY, "extra": 1}, 'unknown key "extra" in the game'),
    ("route not a triple", game(player("Ann", [["Paris"]]), player("Bob")), 'player "Ann": "routes" must be a list of [city, city[, colour]]'),
    ("no route, no colour", game(player("Ann", [["Paris", "Wien"]]), player("Bob")), 'player "Ann": unknown route Paris-Wien: no route joins Paris and Wien'),
    ("a double, no colour", game(player("Ann", [["Paris", "Frankfurt"]]), player("Bob")), 'unknown route Paris-Frankfurt: the map has Paris-Frankfurt in orange, white; name the colour'),
    ("a near miss", game(player("Ann", stations=["Munich"]), player("Bob")), 'player "Ann": unknown city "Munich" (the map spells it Munchen)'),
    ("route with a number", game(player("Ann", [["Paris", "Frankfurt", 3]]), player("Bob")), 'player "Ann": "routes"'),
    ("routes not a list", game(player("Ann"), {"name": "Bob", "routes": "Paris"}), 'player "Bob": "routes" must be a list'),
    ("stations not strings", game(player("Ann", stations=[["Wien"]]), player("Bob")), 'player "Ann": "stations" must be a list of city names'),
    ("ticket triple", game(player("Ann"), player("Bob", tickets=[["Paris", "Wien", 8]])), 'player "Bob": "tickets" must be a list of [city, city]'),
    ("unknown city", game(player("Ann"), player("Bob", [["Pariss", "Frankfurt", "orange"]])), 'player "Bob": unknown city "Pariss"'),
    ("unknown station city", game(player("Ann", stations=["Rome"]), player("Bob")), 'player "Ann": unknown city "Rome"'),
    ("unknown route", game(player("Ann", [["Paris", "Wien", "red"]]), player("Bob")), 'player "Ann": unknown route Paris-Wien ("red"): no route joins Paris and Wien'),
    ("wrong colour", game(player("Ann", [["Paris", "Frankfurt", "red"]]), player("Bob")), "the map has Paris-Frankfurt in orange, white"),
    ("route twice by one player", game(player("Ann", [["Paris", "Brest", "black"], ["Brest", "Paris", "black"]]), player("Bob")), 'player "Ann": route Brest-Paris (black) is already claimed by the same player'),
    ("route twice by two players", game(player("Ann", [["Paris", "Brest", "black"]]), player("Bob", [["Brest", "Paris", "black"]])), 'player "Bob": route Brest-Paris (black) is already claimed by "Ann"'),
    ("both sides of a double", game(player("Ann", [["Berlin", "Frankfurt", "red"], ["Berlin", "Frankfurt", "black"]]), player("Bob")), 'player "Ann": both sides of the double route Berlin-Frankfurt'),
    ("both gray sides by one player", game(*(player(n) for n in "BCD"), player("Ann", [["Dieppe", "London", "gray"]] * 2)), 'player "Ann": both sides of the double route Dieppe-London'),
    ("a double shared by two of three", game(player("Ann", [["Dieppe", "London", "gray"]]), player("Bob", [["Dieppe", "London", "gray"]]), player("Cy")), 'player "Bob": route Dieppe-London (gray): the other side is claimed by "Ann"'),
    ("a gray double named three times", game(*(player(n, [["Dieppe", "London", "gray"]]) for n in "ABC"), player("D")), 'player "C": route Dieppe-London (gray) is already claimed by "A"'),
    ("more than 45 trains", game(player("Ann"), player("Bob", ROUTES_OVER_45)), 'player "Bob": routes use 48 trains, more than the 45'),
    ("more than 3 stations", game(player("Ann", stations=["Wien", "Roma", "Riga", "Kyiv"]), player("Bob")), 'player "Ann": 4 stations, more than the 3'),
    ("two stations in a city", game(player("Ann", stations=["Wien"]), player("Bob", stations=["wien"])), 'player "Bob": a station in Wien is already built by "Ann"'),
    ("two stations of one player in a city", game(player("Ann", stations=["Wien", "Wien"]), player("Bob")), 'player "Ann": a station in Wien is already built by the same player'),
    ("unknown ticket", game(player("Ann"), player("Bob", tickets=[["Paris", "Roma"]])), 'player "Bob": unknown ticket Paris-Roma'),
    ("ticket held twice", game(player("Ann", tickets=[["Paris", "Wien"]]), player("Bob", tickets=[["Wien", "Paris"]])), 'player "Bob": ticket Paris-Wien (8) is already held by "Ann"'),
]


def assert_usage_error(code: int, out: str, err: str, words: str) -> None:
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("ttr score: "), err
    assert words in err, err


@pytest.mark.parametrize(("case", "document", "words"), BAD_GAMES, ids=[c for c, _, _ in BAD_GAMES])
def test_bad_game_exits_2_naming_the_problem(
    case: str, document: Any, words: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(["--json"], capsys, monkeypatch, json.dumps(document).encode())
    assert_usage_error(code, out, err, words)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "no game in the input"),
        (b'{"players": [', "unreadable JSON"),
        (b'{"players": [\n  {"name": "Ann"}\n', "unreadable JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "unreadable JSON"),
        (b'{"players": []}\x80', "not UTF-8"),
        (b"\xff\xfe{}", "not UTF-8"),
    ],
)
def test_unreadable_input_exits_2(
    data: bytes, words: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert_usage_error(*run([], capsys, monkeypatch, data), words)


def test_json_lines_errors_name_the_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = game(player("Ann"), player("Bob", [["Pariss", "Wien", "red"]]))
    text = json.dumps(TWO_EMPTY) + "\n" + json.dumps(bad) + "\n"
    assert_usage_error(*run([], capsys, monkeypatch, text.encode()), 'line 2: player "Bob": unknown city "Pariss"')
    text = json.dumps(TWO_EMPTY) + "\n\n{oops\n"
    assert_usage_error(*run([], capsys, monkeypatch, text.encode()), "line 3: unreadable JSON")


def test_oversized_input_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b" " * MAX_INPUT_BYTES + json.dumps(TWO_EMPTY).encode())
    assert_usage_error(*run([str(big)], capsys, monkeypatch), "larger than 4 MiB")


def test_unreadable_file_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert_usage_error(*run([str(tmp_path / "missing.json")], capsys, monkeypatch), "cannot read")
    assert_usage_error(*run([str(tmp_path)], capsys, monkeypatch), "cannot read")


def test_long_input_text_is_cut_short_in_messages(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    document = game(player("Ann"), player("Bob", stations=["X" * 10_000]))
    code, out, err = run([], capsys, monkeypatch, json.dumps(document).encode())
    assert_usage_error(code, out, err, "unknown city")
    assert len(err) < 200


# --------------------------------------------------------------------------
# The installed command.


def ttr_command() -> list[str]:
    """The `ttr` console script of this environment, else the module."""
    beside = Path(sys.executable).parent / "ttr"
    if beside.exists():
        return [str(beside)]
    found = shutil.which("ttr")
    return [found] if found else [sys.executable, "-m", "p2p_ttr.cli.main"]


def test_installed_command_scores_and_refuses() -> None:
    ok = subprocess.run(
        [*ttr_command(), "score", str(EXAMPLE)], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert ok.returncode == 0, ok.stderr
    assert "Final ranking" in ok.stdout and "Winner: Ann" in ok.stdout
    bad = subprocess.run(
        [*ttr_command(), "score", "--json", "-"],
        input=json.dumps(game(player("Ann"))),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip() == "ttr score: 2..5 players required, got 1"


def test_a_route_needs_no_colour_where_the_cities_have_one_route_or_one_colour(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = game(player("Ann", [["Brest", "Dieppe"], ["Dieppe", "London"]]), player("Bob", [["Dieppe", "London"]]),
                 player("Cy"), player("Di"))
    [result] = run_json(json.dumps(plain), capsys, monkeypatch)
    assert [p["routes"] for p in result["players"]] == [2 + 2, 2, 0, 0]  # Brest-Dieppe (orange 2), a gray side each


# --------------------------------------------------------------------------
# Switzerland's country tickets.


def swiss_way(*places: str) -> list[list[str]]:
    """The routes along ``places`` as the input names them, each with its colour."""
    board = load_game("switzerland").board
    return [[a, b, board.routes_between(a, b)[0].color] for a, b in zip(places, places[1:])]


def test_swiss_country_tickets_are_named_by_where_they_start(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A country ticket scores its highest destination reached, or loses its lowest (Bern-France 5; the France
    card's lowest is 5); the box's two France cards go one to each naming."""
    ann = player("Ann", swiss_way("Bern", "Fribourg", "Lausanne", "Geneve", "France (Geneve)"),
                 tickets=[["Bern"], ["france"]])
    played = json.dumps(game(ann, player("Bob", tickets=[["France"], ["Vaduz", "Zurich"]])))
    code, out, err = run(["--board", "switzerland", "--json"], capsys, monkeypatch, played.encode())
    assert code == 0, err
    [ann_score, bob_score] = json.loads(out)["players"]
    bern = "Bern-France/Deutschland/Osterreich/Italia (5/6/11/8)"
    france = "France-Deutschland/Osterreich/Italia (5/14/11)"
    assert ann_score["ticket_results"] == [{"from": "Bern", "ticket": bern, "points": 5, "completed": True},
                                           {"from": "France", "ticket": france, "points": -5, "completed": False}]
    assert bob_score["ticket_results"] == [{"from": "France", "ticket": france, "points": -5, "completed": False},
                                           {"a": "Zurich", "b": "Vaduz", "points": -6, "completed": False}]
    code, out, err = run(["--board", "switzerland"], capsys, monkeypatch, played.encode())
    assert code == 0 and f"ticket {bern} completed" in out and f"ticket {france} not completed" in out


@pytest.mark.parametrize(("tickets", "words"), [
    ([["Bern", "France"]], 'a country ticket is named by where it starts alone, as ["Bern"], not ["Bern", "France"]'),
    ([["Basel"]], 'no country ticket starts at "Basel": they start at France, Deutschland, Osterreich, Italia, '
                  'Bern, Chur, Zurich, Lugano'),
    ([["France"], ["France"], ["Osterreich"], ["France"]],
     'player "Ann": the box holds only 2 country tickets from France: one is named too often'),
])
def test_a_country_ticket_misnamed_is_refused_naming_it(
    tickets: list[list[str]], words: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    played = json.dumps(game(player("Ann", tickets=tickets), player("Bob")))
    assert_usage_error(*run(["--board", "switzerland"], capsys, monkeypatch, played.encode()), words)
    europe = json.dumps(game(player("Ann", tickets=[["Paris"]]), player("Bob")))  # a board without them
    assert_usage_error(*run([], capsys, monkeypatch, europe.encode()), '"tickets" must be a list of [city, city]')


def test_old_west_takes_the_route_points_scored_in_play_and_shows_what_the_markers_moved(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ann's Denver-Grand Junction (4 points) ran into Bob's cities; Bob's track shows 9.
    played = game(dict(player("Ann", [["Denver", "Grand Junction"]]), route_points=0),
                  dict(player("Bob", [["Pueblo", "Denver", "orange"]]), route_points=9))
    code, out, _ = run(["--board", "oldwest", "--json", "-"], capsys, monkeypatch, json.dumps(played).encode())
    ann, bob = json.loads(out)["players"]
    assert code == 0
    assert (ann["routes"], ann["city_markers"], ann["total"]) == (4, -4, 0)
    assert (bob["routes"], bob["city_markers"], bob["total"]) == (1, 8, 9)
    code, _, err = run(["--board", "oldwest", "-"], capsys, monkeypatch, json.dumps(TWO_EMPTY).encode())
    assert code == 2 and '"route_points" must be the route points the score track shows' in err
    code, _, err = run(["--board", "usa", "-"], capsys, monkeypatch, json.dumps(played).encode())
    assert code == 2 and 'unknown key "route_points"' in err


def test_alvin_and_dexter_halve_the_tickets_into_chaos_and_give_their_bonuses(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    sheet = {"monsters": ["paris", "Wien"], "players": [
        {"name": "Ann", "tickets": [["Edinburgh", "Paris"]], "monster_cards": [3, 0]},
        {"name": "Bob", "tickets": [["Paris", "Zagrab"]], "monster_cards": [3, 2]}]}
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(sheet).encode())))
    assert main(["score", "--json", "--with", "monsters"]) == 0
    players = json.loads(capsys.readouterr().out)["players"]
    assert [p["ticket_results"][0]["points"] for p in players] == [-3, -3]
    assert all(p["ticket_results"][0]["halved"] for p in players)
    assert [(p["monster_alvin"], p["monster_dexter"], p["total"]) for p in players] == [(15, 0, 24), (15, 15, 39)]


@pytest.mark.parametrize(("sheet", "refusal"), [
    ({"players": [{"name": "Ann"}, {"name": "Bob"}]}, '"monsters" must list where Alvin and Dexter stood'),
    ({"monsters": ["Paris", "Atlantis"], "players": [{"name": "Ann"}, {"name": "Bob"}]}, "unknown city 'Atlantis'"),
    ({"monsters": ["Paris", "Wien"], "players": [{"name": "Ann", "monster_cards": [21, 0]}, {"name": "Bob"}]},
     "each 0 to 20"),
    ({"monsters": ["Paris", "Wien"], "players": [{"name": "Ann", "monster_cards": [12, 0]},
                                                 {"name": "Bob", "monster_cards": [9, 0]}]},
     "more Alvin cards than his deck's 20"),
])
def test_alvin_and_dexter_written_down_wrong_are_refused_saying_what(
    sheet: dict[str, Any], refusal: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(sheet).encode())))
    assert main(["score", "--with", "monsters"]) == 2
    assert refusal in capsys.readouterr().err


def test_the_monsters_are_unknown_keys_where_they_are_not_played(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    sheet = {"monsters": ["Paris", "Wien"], "players": [{"name": "Ann"}, {"name": "Bob"}]}
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(sheet).encode())))
    assert main(["score"]) == 2
    assert "unknown key \"monsters\" in the game" in capsys.readouterr().err
