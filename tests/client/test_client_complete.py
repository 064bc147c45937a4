"""Completion as a pure function of the text before the cursor and the view."""

from __future__ import annotations

from client_states import NAMES, first
from engine_scenario import position, route

from p2p_ttr.client.verbs import complete
from p2p_ttr.client.outcomes import Context
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.view import view_for


def texts(before: str, state: GameState | None, seat: int = 0) -> dict[str, str]:
    context = Context(view_for(state, seat) if state else None, seat if state else None, NAMES)
    return {s.text: s.meta for s in complete(before, context)}


def test_verbs_complete_with_their_summary() -> None:
    state, _ = position(3)
    assert list(texts("cl", state)) == ["claim"]
    assert set(texts("", state)) >= {"draw", "claim", "tickets", "keep", "station", "path", "quit", "help"}
    assert texts("x ", state) == {}
    assert list(texts("help c", state)) == ["claim"]


def test_claim_completes_cities_then_routes_then_sides_and_cards() -> None:
    state, _ = position(3, hands={0: ["white"] * 3 + ["locomotive"]}, owners={route("Paris", "Brest"): 1})
    cities = list(texts("claim ", state).items())
    notes = [meta for _, meta in cities]
    assert ("Paris", "a route you can claim now") in cities and "" in notes
    assert notes == sorted(notes, key=lambda m: m == "")  # what can be claimed comes first
    joined = texts("claim paris ", state)
    assert joined["Frankfurt"].startswith("orange, 3") and "white, 3: you can claim it" in joined["Frankfurt"]
    assert joined["Brest"].endswith(": Bob's")
    assert joined["Zurich"].startswith("gray, 3, tunnel")
    assert "Moskva" not in joined
    assert list(texts("claim paris fr", state)) == ["Frankfurt"]
    sides = texts("claim paris frankfurt ", state)
    assert sides["orange"] == sides["white"] == "this side of the double route"
    assert sides["loco"] == "you hold 1" and "with" in sides


def test_draw_keep_station_and_path_arguments() -> None:
    state, _ = position(3, face_up=("red", "blue", "green", "locomotive", "black"), hands={0: ["red"]},
                        stations={1: ["Wien"]}, tickets={0: [0]})
    slots = texts("draw ", state)
    assert slots["deck"] and slots["2"] == "face-up blue" and slots["4"] == "face-up loco"
    stations = texts("station wi", state)
    assert stations == {"Wien": "has a station", "Wilno": "you can build here"}
    paths = texts("path ", state)
    assert paths["1"].endswith(")") and "off" in paths and "Paris" in paths
    setup = first(lambda s: s.phase is Phase.SETUP_TICKETS)
    offered = texts("keep 1 ", setup)
    assert "1" not in offered and "2" in offered and "–" in offered["2"]


def test_before_the_game_cities_still_complete() -> None:
    assert "Paris" in texts("claim pa", None)
    assert texts("draw ", None) == {}
