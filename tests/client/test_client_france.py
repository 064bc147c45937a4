"""The client on France: the map draws an unbuilt track bed, a built one in
its piece's colour and a cut one each its own way (in characters, so
without colour too); `lay COLOUR CITY CITY` finds the piece among the legal
moves or says why not; the log, the panel, the prompt, help and the rules
page say the pieces."""

from __future__ import annotations

from client_states import NAMES
from engine_scenario import play, position

from p2p_ttr.client.laying import supply_lines
from p2p_ttr.client.mapview import BED_MARK, CLOSED, CUT_MARK, GLYPHS, draw_map, geometry, legend, marks_for
from p2p_ttr.client.outcomes import Context, Play, Refuse, Show
from p2p_ttr.client.pagetext import lay_out
from p2p_ttr.client.phrases import changes, what_now
from p2p_ttr.client.styled import plain, text_of
from p2p_ttr.client.verbs import interpret
from p2p_ttr.engine.board import Route
from p2p_ttr.engine.boards import europe_game, load_game
from p2p_ttr.engine.events import ClaimRoute, DrawBlind, LayTrack
from p2p_ttr.engine.laidpieces import TrackBeds
from p2p_ttr.engine.rules import apply
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.view import view_for

FRANCE = load_game("france")
BOARD = FRANCE.board


def bed(a: str, b: str) -> Route:
    return BOARD.routes_between(a, b)[0]


def turn() -> GameState:
    state, _ = position(3, game=FRANCE, hands={0: ["red", "red"]})
    return state.evolve(track_beds=TrackBeds())


def laying() -> GameState:
    """Seat 0 has drawn two cards and lays a piece now."""
    state = play(turn(), DrawBlind(0), DrawBlind(0))
    assert state.phase is Phase.LAY_TRACK
    return state


def ctx(state: GameState) -> Context:
    return Context(view_for(state, 0), 0, NAMES)


def own_cells(route: Route, width: int, height: int) -> list[tuple[int, int]]:
    """The cells of ``route``'s run no other route and no label shares."""
    geo = geometry(BOARD, width, height)
    others = {cell for r, run in geo.runs.items() if r != route.id for cell in run}
    labels = {(c + i, r) for (c, r), text in geo.labels.values() for i in range(-1, len(text) + 1)}
    return [cell for cell in geo.runs[route.id] if cell not in others and cell not in labels]


def drawn(state: GameState, route: Route) -> set[str]:
    rows = plain(draw_map(BOARD, marks_for(BOARD, view_for(state, 0), 0), 160, 45)).splitlines()
    cells = own_cells(route, 160, 45)
    assert cells, route.label
    return {rows[r][c] for c, r in cells}


def test_the_map_draws_an_unbuilt_a_built_and_a_cut_bed_apart_without_colour() -> None:
    amiens, lorient, angers = bed("Amiens", "Calais"), bed("Le Mans", "Lorient"), bed("Angers", "Rennes")
    state = turn()
    assert BED_MARK in drawn(state, amiens) and drawn(state, amiens) <= {BED_MARK, "·"}
    built = apply(laying(), LayTrack(0, amiens.id, "red"))
    assert GLYPHS["red"].upper() in drawn(built, amiens)
    cut = apply(laying(), LayTrack(0, lorient.id, "green"))
    assert drawn(cut, angers) == {CUT_MARK}
    assert {CUT_MARK, BED_MARK, "R", CLOSED}.isdisjoint(set(GLYPHS.values()))  # each reads apart from a colour
    said = text_of(legend(FRANCE))
    assert f"{BED_MARK}track bed" in said and f"{CUT_MARK}cut" in said
    assert "track bed" not in text_of(legend(europe_game()))


def test_lay_finds_the_piece_among_the_legal_moves() -> None:
    amiens = bed("Amiens", "Calais")
    done = interpret("lay red amiens calais", ctx(laying()))
    assert isinstance(done, Play) and done.action == LayTrack(0, amiens.id, "red")


def test_lay_says_why_not() -> None:
    def refused(line: str, state: GameState) -> str:
        out = interpret(line, ctx(state))
        assert isinstance(out, Refuse), out
        return out.reason

    assert "only right after drawing train cards" in refused("lay red Amiens Calais", turn())
    assert "lay COLOUR CITY CITY" in refused("lay red", laying())
    assert "not a colour of the pieces" in refused("lay loco Amiens Calais", laying())
    assert "no track bed between Paris and Orleans" in refused("lay red Paris Orleans", laying())
    cut = laying().evolve(track_beds=TrackBeds((), frozenset({bed("Angers", "Rennes").id})))
    assert "cut off by a track piece" in refused("lay red Angers Rennes", cut)
    assert "first lay a track piece" in refused("draw", laying())


def test_the_log_the_prompt_and_the_panel_say_the_pieces() -> None:
    before = laying()
    after = apply(before, LayTrack(0, bed("Le Mans", "Lorient").id, "green"))
    said = changes(view_for(before, 1), view_for(after, 1), 1, NAMES)
    assert "Ann laid a green track piece on Le Mans–Lorient (5), cutting Angers–Rennes, Nantes–Rennes" in said
    assert what_now(view_for(before, 0), 0).startswith("lay a track piece")
    rows = [text_of(line) for line in supply_lines(view_for(after, 0), 40, GLYPHS)]
    assert rows[0].startswith("TRACK PIECES") and " 5: p1 b1 o1 w1 y1 k1 r1" in rows  # the green 5 is laid
    assert supply_lines(view_for(position(2)[0], 0), 40, GLYPHS) == []  # Europe: no pieces


def test_help_and_the_rules_say_the_beds_only_on_france() -> None:
    france = interpret("help", ctx(turn()))
    assert isinstance(france, Show) and any("lay COLOUR CITY CITY" in str(b) for b in france.lines)
    europe = interpret("help", Context(view_for(position(2)[0], 0), 0, NAMES))
    assert isinstance(europe, Show) and not any("lay COLOUR" in str(b) for b in europe.lines)
    shown = interpret("rules", ctx(turn()))
    assert isinstance(shown, Show)
    text = " ".join(" ".join(lay_out(shown.lines, 100)).split())
    assert "Track beds (no colour) cannot be claimed until built" in text
    assert "when no piece fits any bed, you lay none" in text


def test_a_built_bed_is_told_claimed_in_its_pieces_colour() -> None:
    amiens = bed("Amiens", "Calais")
    state = turn().evolve(track_beds=TrackBeds(((amiens.id, "red"),)))
    after = play(state, ClaimRoute(0, amiens.id, state.players[0].hand))
    said = changes(view_for(state, 1), view_for(after, 1), 1, NAMES)
    assert "Ann claimed Amiens–Calais (red, 2) for 2 points" in said
