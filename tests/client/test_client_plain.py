"""The plain line prompt (`--plain`, scripts): the same questions as the full
screen before leaving for good, and the same words for a seat that left."""

from __future__ import annotations

from types import SimpleNamespace

from client_states import NAMES, FakeTable, a_turn_of
from engine_scenario import position

from p2p_ttr.cli.plain import Human
from p2p_ttr.client.outcomes import Leave

SEATS = tuple(SimpleNamespace(name=name) for name in NAMES)


def test_a_typed_forfeit_asks_before_it_acts() -> None:
    said: list[str] = []
    human = Human(said.append)
    state, _ = position(3)
    human.attach(FakeTable(state, seats=SEATS), 0)  # type: ignore[arg-type]
    human.command("forfeit")
    assert said[-1].startswith("Forfeit for good?") and "forfeit) yes" in said[-1]
    human.command("cancel")
    assert said[-1] == "cancelled"
    assert human.command("forfeit") is None  # asked again
    assert human.command("forfeit") == Leave(forfeit=True)  # the loop publishes our secrets and leaves


def test_a_forfeit_is_told_before_the_moves_the_table_makes_for_the_seat() -> None:
    before, after = a_turn_of(2)
    said: list[str] = []
    human = Human(said.append)
    table = FakeTable(before, seats=SEATS, in_play=(0, 1, 2))
    human.attach(table, 0)  # type: ignore[arg-type]
    human.tick()
    said.clear()
    table.forfeited[2] = object()
    table.in_play = (0, 1)  # two seats play on
    table.engine = after
    human.tick()
    human.tick()
    assert said[:3] == ["Cid forfeited: the table plays their seat from now on (their cards are shown)",
                        "the tunnel turned up 1 orange, 1 green and 1 blue: nothing more to pay",
                        "Cid claimed Angora–Constantinople (gray, 2) for 2 points"]
    assert sum("forfeited" in line for line in said) == 1
