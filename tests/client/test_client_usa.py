"""The client on another board: a USA 1910 game (no stations, no tunnels or
ferries, the Globetrotter in place of the Longest Path) is shown, completed,
refused and explained in its own words, from the game the view carries."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from usa_states import NAMES, first_usa, usa_1910, usa_states

from p2p_ttr.client.commands import tokens
from p2p_ttr.client.endgame import breakdown
from p2p_ttr.client.helptext import rules_page
from p2p_ttr.client.lastturn import LastTurns
from p2p_ttr.client.outcomes import Context, Play, Refuse, Show
from p2p_ttr.client.pagetext import lay_out
from p2p_ttr.client.panel import offered_lines, players_lines
from p2p_ttr.client.phrases import told, what_now
from p2p_ttr.client.styled import text_of
from p2p_ttr.client.verbs import complete, interpret
from p2p_ttr.client.words import leading_cities
from p2p_ttr.engine.boards import europe_game, load_game
from p2p_ttr.engine.outcome import final_score
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.view import view_for

from p2p_ttr.cli.plain import Human

USA = usa_1910().board


def ctx(state: GameState, seat: int = 0) -> Context:
    return Context(view_for(state, seat), seat, NAMES)


def texts(before: str, state: GameState, seat: int = 0) -> dict[str, str]:
    return {s.text: s.meta for s in complete(before, ctx(state, seat))}


def page(outcome: object, width: int = 100) -> str:
    assert isinstance(outcome, Show), outcome
    return "\n".join(lay_out(outcome.lines, width))


def a_turn() -> GameState:
    return first_usa(lambda s: s.phase is Phase.TURN and s.turn > 6 and not s.cards_drawn)


def test_the_panel_has_no_stations_column() -> None:
    view = view_for(a_turn(), 0)
    for width in (35, 60):
        rows = [text_of(line) for line in players_lines(view, 0, NAMES, width)]
        assert rows[0].rstrip().endswith(" pts trn crd tkt" + (" trl" if width == 60 else ""))
        assert " st" not in rows[0]
        for p, row in enumerate(rows[1:]):
            ps = view.players[p]
            counts = row.split()[-5 if width == 60 else -4:]
            assert counts[:4] == [counts[0], str(ps.trains), str(len(ps.hand)), str(len(ps.tickets))]


def test_completion_offers_the_boards_cities_and_routes() -> None:
    state = a_turn()
    assert set(texts("claim ", state)) == set(USA.cities)
    assert "Paris" not in texts("path 1 ", state)
    # A name of two words is offered in place of the words typed of it.
    assert {(s.text, s.start) for s in complete("claim new y", ctx(state))} == {("New York", len("new y"))}
    assert {s.text for s in complete("claim New ", ctx(state))} == {"New York", "New Orleans"}
    assert [(s.text, s.start) for s in complete("claim salt lake c", ctx(state))] == [("Salt Lake City", 11)]
    # After a city of two words, the cities its routes join.
    joined = texts("claim New York ", state)
    assert set(joined) == {USA.routes[r].other_end("New York") for r in USA.routes_at["New York"]}
    assert joined["Washington"].startswith(("black, 2 | orange, 2", "orange, 2 | black, 2"))
    assert set(texts("claim new york washington ", state)) >= {"black", "orange", "with"}


def test_no_station_command_column_or_hint() -> None:
    state = a_turn()
    commands = texts("", state)
    assert "station" not in commands and "pay" not in commands and "abandon" not in commands
    assert {"draw", "claim", "tickets", "keep", "path", "help"} <= set(commands)
    for line in ("station Denver", "s Denver", "station Paris"):
        outcome = interpret(line, ctx(state))
        assert isinstance(outcome, Refuse)
        assert outcome.reason.startswith("USA 1910 has no stations")
    assert isinstance(interpret("help station", ctx(state)), Refuse)
    assert texts("station ", state) == {}
    assert what_now(view_for(state, 0), 0) == "draw, claim or tickets"
    ps = view_for(state, 0).players[0]
    plain = Human(lambda _: None).render(view_for(state, 0), 0)
    assert f"trains {ps.trains}" in plain and "station" not in plain


def test_commands_read_the_boards_cities_of_several_words() -> None:
    state = a_turn()
    for line in ("claim new york washington", "claim Washington New York orange", "c newy wash with 2 black"):
        outcome = interpret(line, ctx(state))
        said = outcome.said if isinstance(outcome, Play) else getattr(outcome, "reason", "")
        assert "New York–Washington" in said or "Washington–New York" in said, (line, outcome)
    refused = interpret("claim Denver Paris", ctx(state))
    assert isinstance(refused, Refuse) and "no single city matches 'Paris'" in refused.reason
    assert isinstance(interpret("claim New York", ctx(state)), Refuse)


def test_the_log_tells_the_boards_routes_and_points() -> None:
    states = usa_states()
    lines = [line.text for before, after in zip(states, states[1:]) for line in told(before, after, None, NAMES)]
    claims = [line for line in lines if " claimed " in line]
    assert claims and all(any(city in line for city in USA.cities) for line in claims)
    five = [r for r in USA.routes if r.length == 5]
    assert USA.route_points[5] == 10 and five  # a length Europe has not
    assert not any("station" in line for line in lines)


def test_each_seats_last_turn_names_the_boards_routes() -> None:
    states = usa_states()
    turns, said = LastTurns(), set()
    for before, after in zip(states, states[1:]):
        turns = turns.after(before, after, None)
        said |= {turn.words() for turn in turns.turns if turn is not None}
    claims = [w for w in said if w.startswith("claimed ")]
    assert claims
    for words in claims:
        a, b = words.removeprefix("claimed ").split(", ")[0].split("–")
        assert USA.routes_between(a, b), words


def test_the_offer_says_the_games_keep_minimum() -> None:
    setup = first_usa(lambda s: s.phase is Phase.SETUP_TICKETS and bool(s.players[0].offered))
    view = view_for(setup, 0)
    assert text_of(offered_lines(view, 0, 60)[0]).startswith("OFFERED  keep 2 or more")
    mega = first_usa(lambda s: s.phase is Phase.SETUP_TICKETS and bool(s.players[0].offered), variant="mega")
    assert text_of(offered_lines(view_for(mega, 0), 0, 60)[0]).startswith("OFFERED  keep 3 or more")
    refused = interpret("keep 1", ctx(mega))
    assert isinstance(refused, Refuse) and refused.reason == "keep at least 3 tickets at the start of the game"


def test_the_final_score_shows_the_globetrotter() -> None:
    end = usa_states()[-1]
    score = final_score(end)
    lines = breakdown(end, NAMES)
    header = lines[2]
    assert header.split() == ["player", "total", "routes", "tickets", "globe", "trail"]
    winner = max(range(3), key=lambda p: score.players[p].completed_tickets)
    assert score.players[winner].globetrotter == 15
    row = next(line for line in lines[3:6] if NAMES[winner] in line)
    assert row.split()[2:] == [str(score.players[winner].total), str(score.players[winner].routes),
                               f"{score.players[winner].tickets:+}", "15", str(score.players[winner].longest_path)]
    assert any(line.startswith("  globe    15 ") and line.endswith("done: the Globetrotter") for line in lines)
    assert not any("station" in line or "express" in line.lower() for line in lines)


def test_rules_say_the_games_own_rules() -> None:
    state = a_turn()
    said = page(interpret("rules", ctx(state)))
    assert said.startswith("Ticket to Ride: USA 1910, in short")
    assert "the Globetrotter (15)" in " ".join(said.split())
    assert "2 to 5 players, each with 45 trains (no stations)" in " ".join(said.split())
    assert "Tickets not kept go under the pile." in " ".join(said.split())
    for absent in ("station not built", "build a station", "tunnel", "ferry", "Longest Path", "Express"):
        assert absent not in said
    assert "5, 6 cars score 1, 2, 4, 7, 10, 15 points" in " ".join(said.split())
    usa = load_game("usa")
    base = Context(view_for(usa_states(variant="")[-1], 0), 0, NAMES)
    said = " ".join(page(interpret("rules", base)).split())
    assert "wins the Longest Path (10)" in said and "Globetrotter" not in said
    assert "Ties: most tickets completed, then the Longest Path." in said


def test_help_names_the_boards_places_and_moves() -> None:
    state = a_turn()
    said = page(interpret("help", ctx(state)), 200)
    for absent in ("station", "pay [CARDS]", "abandon", "Paris", "Wien", "Lisboa"):
        assert absent not in said
    assert "draw three destination tickets (keep at least one)" in said
    assert "nothing can be drawn or claimed" in said
    # Every example that names places names the board's, and reads as a command.
    examples = [row.split("e.g. ", 1)[1] for row in said.splitlines() if "e.g. " in row]
    claims = [e for row in examples for e in row.split("   ") if e.startswith("claim ")]
    assert len(claims) == 3
    for example in claims:
        outcome = interpret(example, ctx(state))
        assert not (isinstance(outcome, Refuse) and "no single city" in outcome.reason), (example, outcome)


@given(st.lists(st.sampled_from(sorted(USA.cities)), min_size=1, max_size=2),
       st.lists(st.booleans(), min_size=8, max_size=8), st.sampled_from(["", "with 2 red 1 loco", "blue"]))
def test_cities_of_several_words_are_read_back(cities: list[str], upper: list[bool], after: str) -> None:
    """Typed in any case, a city's name in as many words as it has, the cities come back, then what follows."""
    words = tokens(" ".join(cities))
    words = [w.upper() if up else w.lower() for w, up in zip(words, upper + [False] * len(words))]
    assert leading_cities(USA, words + tokens(after), 2) == (cities, tokens(after))


def test_europes_rules_keep_their_words() -> None:
    """Europe's page says what it always said (and, first, the table: players, trains, stations, unkept tickets)."""
    said = " ".join(" ".join(lay_out(rules_page(europe_game()), 100)).split())
    for words in ("Ticket to Ride: Europe, in short",
                  "2 to 5 players, each with 45 trains and 3 stations. Tickets not kept go under the pile (at the "
                  "start: out of the game).",
                  "a face-up locomotive counts as both (and cannot be the second card);",
                  "a ferry needs its locomotives; a tunnel turns three cards from the deck",
                  "draw three destination tickets and keep at least one (at the start: keep at least two of the "
                  "four dealt);",
                  "build a station: the first costs 1 card, the second 2, the third 3, of one colour.",
                  "Routes score by length: 1, 2, 3, 4, 6, 8 cars score 1, 2, 4, 7, 15, 21 points.",
                  "In a game of 2 or 3, only one side of a double route can be claimed.",
                  "every station not built scores 4; the longest continuous trail of routes wins the European "
                  "Express (10). Ties: most tickets completed, then fewest stations built, then the Express."):
        assert words in said, words
