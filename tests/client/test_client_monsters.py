"""The client with Alvin & Dexter: alvin CITY, dexter CITY and monster NAME
CITY at set-up and before the turn's action, refusals in the rules' words
(a city too far names those in reach), Tab, what the turn waits for, the
log's words, the panel's line and the monsters on the map, the rules page
and the end page's halved tickets and bonuses."""

from __future__ import annotations

import sys
from pathlib import Path

from p2p_ttr.client.complete import Suggestion
from p2p_ttr.client.endgame import breakdown
from p2p_ttr.client.helptext import rules_page
from p2p_ttr.client.mapview import draw_map, geometry, marks_for
from p2p_ttr.client.outcomes import Context, Play, Refuse
from p2p_ttr.client.phrases import changes, what_now
from p2p_ttr.client.screen import ScreenModel, screen_text
from p2p_ttr.client.snapshot import Snapshot
from p2p_ttr.client.styled import text_of
from p2p_ttr.client.verbs import complete, interpret
from p2p_ttr.client.watchscreen import WatchModel
from p2p_ttr.client.watchscreen import screen_text as watch_text
from p2p_ttr.engine.board import LOCOMOTIVE
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.events import MoveMonster, PlaceMonster
from p2p_ttr.engine.monsters import Monsters
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.view import public_view, view_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from engine_scenario import play, position  # noqa: E402

GAME = load_game("europe", "monsters")
BOARD = GAME.board
NAMES = ("Ann", "Bob", "Cid")


def at(cities: tuple[str, str] = ("Paris", "Wien"), n: int = 2, **laid_out: object) -> GameState:
    state, _ = position(n, game=GAME, **laid_out)  # type: ignore[arg-type]
    return state.evolve(monsters=Monsters(cities=cities, cards=((0, 0),) * n))


def said(line: str, state: GameState, seat: int = 0) -> object:
    return interpret(line, Context(view_for(state, seat), seat, NAMES[:state.n_players]))


def tab(before: str, state: GameState, seat: int = 0) -> list[Suggestion]:
    return complete(before, Context(view_for(state, seat), seat, NAMES[:state.n_players]))


def test_at_set_up_alvin_and_dexter_place_the_monster_due() -> None:
    state = at(("", "")).evolve(phase=Phase.MONSTERS, current=1)
    assert what_now(view_for(state, 1), 1).startswith("place Alvin on any city: alvin CITY")
    played = said("alvin roma", state, 1)
    assert isinstance(played, Play) and played.action == PlaceMonster(1, "alvin", "Roma")
    refused = said("dexter roma", state, 1)
    assert isinstance(refused, Refuse) and "Dexter is not to be placed: Alvin is placed now" in refused.reason
    refused = said("draw", state, 1)
    assert isinstance(refused, Refuse) and "first place the monster (alvin CITY / dexter CITY)" in refused.reason
    placed = state.evolve(monsters=Monsters(("Roma", ""), ((0, 0), (0, 0))), current=0)
    played = said("monster dexter wien", placed)
    assert isinstance(played, Play) and played.action == PlaceMonster(0, "dexter", "Wien")
    refused = said("dexter roma", placed)
    assert isinstance(refused, Refuse) and "Roma has the other monster" in refused.reason


def test_a_move_pays_the_fewest_locomotives_that_reach_and_too_far_names_the_cities_in_reach() -> None:
    state = at(hands={0: [LOCOMOTIVE, LOCOMOTIVE, "red"]})
    locos = state.players[0].hand[:2]
    played = said("alvin wien", state)
    assert isinstance(played, Play) and played.action == MoveMonster(0, "alvin", "Wien", locos[:1])
    played = said("alvin moskva", state)
    assert isinstance(played, Play) and played.action == MoveMonster(0, "alvin", "Moskva", locos)
    refused = said("alvin sochi", state)
    assert isinstance(refused, Refuse) and "Sochi is more than 6 cities from Alvin in Paris; within 6: " in refused.reason
    one = at(hands={0: [LOCOMOTIVE]})
    refused = said("monster alvin athina", one)
    assert isinstance(refused, Refuse) and "within 3: Amsterdam, Barcelona" in refused.reason
    refused = said("alvin dieppe", at(hands={0: ["red"]}))
    assert isinstance(refused, Refuse) and "costs a locomotive card" in refused.reason


def test_tab_offers_the_monsters_and_the_cities_in_reach_with_their_price() -> None:
    state = at(hands={0: [LOCOMOTIVE, LOCOMOTIVE]})
    assert [s.text for s in tab("monster ", state)] == ["alvin", "dexter"]
    offered = {s.text: s.meta for s in tab("alvin ", state)}
    assert offered["Dieppe"] == "1 city away: 1 locomotive" and offered["Moskva"] == "6 cities away: 2 locomotives"
    assert "Sochi" not in offered
    assert any(s.text == "dexter" for s in tab("de", state))


def test_the_log_the_panel_and_the_map_show_the_monsters() -> None:
    state = at(hands={0: [LOCOMOTIVE]}, n=3)
    moved = play(state, MoveMonster(0, "dexter", "Budapest", state.players[0].hand))
    assert "Ann took a card of Dexter and moved him to Budapest" in changes(
        view_for(state, 1), view_for(moved, 1), 1, NAMES)
    snap = Snapshot(role="join", seat=1, names=NAMES, game="3fa2c1d0aa", view=view_for(moved, 1), log=(), status="")
    text = screen_text(ScreenModel(snap), 120, 40)
    panel = " ".join(row.split("│")[-1].strip() for row in text.splitlines())
    assert "monsters Alvin Paris; Dexter Budapest (card up: Ann); cards A/D: Ann 0/1" in panel
    nodes = geometry(BOARD, 120, 30).nodes
    rows = [text_of(line) for line in draw_map(BOARD, marks_for(BOARD, view_for(moved, 0), 0), 120, 30)]
    assert [rows[nodes[c][1]][nodes[c][0]] for c in ("Paris", "Budapest")] == ["A", "D"]


def test_the_rules_page_says_the_monsters() -> None:
    page = " ".join(str(block) for block in rules_page(GAME))
    assert "City in Chaos" in page and "2 for up to 6" in page


def test_the_log_tells_a_placing_and_the_end_page_the_halved_tickets_and_the_bonuses() -> None:
    placing = at(("", "")).evolve(phase=Phase.MONSTERS, current=1)
    placed = play(placing, PlaceMonster(1, "alvin", "Roma"))
    assert "Bob put Alvin on Roma: a City in Chaos" in changes(view_for(placing, 0), view_for(placed, 0), 0, NAMES[:2])
    edinburgh_paris = next(t.id for t in BOARD.tickets if {t.a, t.b} == {"Edinburgh", "Paris"})
    state = at(tickets={0: [edinburgh_paris]})
    over = state.evolve(phase=Phase.OVER, public={**state.public, **state.private},
                        monsters=Monsters(("Paris", "Wien"), ((2, 0), (1, 1))))
    lines = breakdown(over, NAMES[:2])
    assert any(line.startswith("  ticket   -3   missed Edinburgh") and line.endswith("(halved: a City in Chaos)")
               for line in lines)
    assert "  alvin    15   2 Alvin cards: the most" in lines and "  alvin     0   1 Alvin card: not the most" in lines
    assert "  dexter   15   1 Dexter card: the most" in lines and "  dexter    0   0 Dexter cards: none taken" in lines


def test_a_watcher_sees_the_monsters_on_the_map_and_in_the_panel() -> None:
    state = at(("Paris", "Budapest"))
    snap = Snapshot(role="watch", seat=None, names=NAMES[:2], game="3fa2c1d0aa", view=public_view(state), log=(),
                    status="")
    text = watch_text(WatchModel(snap), 120, 40)
    panel = " ".join(row.split("│")[-1].strip() for row in text.splitlines())
    assert "monsters Alvin Paris; Dexter Budapest" in panel and "card up" not in panel
    assert marks_for(BOARD, public_view(state), None).monsters == ("Paris", "Budapest")
