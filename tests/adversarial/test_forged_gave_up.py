"""A `gave_up` the seat it names did not sign (issue 42, item 6): the relay,
or anyone on the path, sent `gave_up` naming a seat thinking over a move;
every peer marked it gone for the rest of the run (a scripted peer then
gave the game up after `--timeout`) and every screen said that player had
given up. Now `give_up` and `gave_up` carry the giving-up seat's signature
over the game, its seat and its words (net/gaveupsig.py), and a word
without it, or signed by another key, the relay's included, changes nothing
and is said on no screen. In process: the frames are handed to a follower
and to a relay as their sockets would."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_net_parts import admit, game, seat

from p2p_ttr.client.livenessfacts import SeatGaveUp, Why
from p2p_ttr.net import frames
from p2p_ttr.net.gaveupsig import gave_up_statement, sign_gave_up
from p2p_ttr.table.identity import Identity


def test_a_gave_up_not_signed_by_its_seat_marks_nobody_gone_and_accuses_nobody(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Someone on the path tells Boris that Anna gave up: Anna, thinking, stays in the game."""
    node, _, _ = seat(tmp_path, 1, 20)
    table = node.table
    assert table is not None and table.game_id is not None
    anna, boris, stranger = game().peers[0].identity, game().peers[1].identity, Identity.generate()
    news = SeatGaveUp(0, Why.SILENT, (1,), 120)
    capsys.readouterr()

    def gave_up(why: Why, signature: bytes) -> bytes:
        return frames.encode_frame(frames.GaveUp(0, why, (1,), 120, signature))

    forged = [
        frames.encode("gave_up", 0, "silent", [1], 120),  # the unsigned form today's main believed
        gave_up(Why.SILENT, bytes(64)),
        gave_up(Why.SILENT, sign_gave_up(boris, table.game_id, news)),  # signed, by another seat's key
        gave_up(Why.SILENT, sign_gave_up(stranger, table.game_id, news)),
        gave_up(Why.SILENT, sign_gave_up(anna, bytes(16), news)),  # Anna's, from another game
        gave_up(Why.WITHHELD, sign_gave_up(anna, table.game_id, news)),  # Anna's, other words
    ]
    for raw in forged:
        node.follower.handle(raw)
    assert 0 not in node.presence.gave_up
    assert "gave up" not in capsys.readouterr().err
    node.follower.handle(gave_up(Why.SILENT, sign_gave_up(anna, table.game_id, news)))  # her own word
    assert node.presence.gave_up[0] == news
    assert "Anna gave up on the game" in capsys.readouterr().err


def test_the_relay_passes_on_no_give_up_its_seat_did_not_sign(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Someone on Boris's path forges his `give_up`: the relay neither marks
    him gone nor passes it on (every peer would drop it anyway)."""
    node, router, _ = seat(tmp_path, 0, 20)
    admit(node, router, b"\0b", 1)
    admit(node, router, b"\0c", 1)  # a second connection of the same seat, that will hear a gave_up
    table = node.table
    assert table is not None
    news = SeatGaveUp(1, Why.SILENT, (0,), 30)
    capsys.readouterr()
    for signature in (bytes(64), sign_gave_up(game().peers[0].identity, table.game_id, news)):
        node.relay.handle([b"\0b", frames.encode_frame(frames.GiveUp(Why.SILENT, (0,), 30, signature))])
    node.relay.handle([b"\0b", frames.encode("give_up", "silent", [0], 30)])  # main's unsigned form
    assert 1 not in node.presence.gave_up and router.to(b"\0c", "gave_up") == []
    assert "gave up" not in capsys.readouterr().err


def test_the_gave_up_statement_is_pinned() -> None:
    """The signed bytes never change by accident (a peer of another build
    would drop every honest word)."""
    statement = gave_up_statement(bytes(range(16)), SeatGaveUp(2, Why.WITHHELD, (0, 1), 300))
    assert statement.hex() == ("96c4127032705f7474722f676176652d75702f7631c410000102030405060708090a0b0c0d0e0f"
                               "02a87769746868656c64920001cd012c")
