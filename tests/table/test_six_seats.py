"""Six seats where a game seats six (Old West), five where it seats five:
the seating, the envelope, the lobby's frames and the first steps of a
table of six, in process (a whole six-seat LAN game is in
tests/net/test_net_lan.py)."""

from __future__ import annotations

import pytest

from p2p_ttr.engine.boards import europe_game, load_game
from p2p_ttr.engine.limits import any_game_limits
from p2p_ttr.engine.rules import new_game
from p2p_ttr.net import frames
from p2p_ttr.table.envelope import MAX_SEATS, open_envelope, seal
from p2p_ttr.table.errors import Malformed
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.messages import Seat, Seating, message_from_wire
from p2p_ttr.table.table import Table

OLD_WEST = load_game("oldwest")
NAMES = ("Anna", "Boris", "Chiara", "Dmitri", "Elena", "Farid", "Gina")
IDS = [Identity.from_bytes(bytes([p + 1]) * 32) for p in range(7)]


def seats(n: int) -> tuple[Seat, ...]:
    return tuple(Seat(NAMES[p], IDS[p].public) for p in range(n))


def test_the_envelope_and_frames_hold_the_largest_table_any_game_has() -> None:
    assert MAX_SEATS == any_game_limits().max_players == OLD_WEST.rules.max_players == 6
    opened = open_envelope(seal(IDS[5], b"g" * 16, 5, 1, b"h" * 32, ["carry_on", 5]).raw)
    assert opened.seat == 5
    with pytest.raises(Malformed):
        open_envelope(seal(IDS[6], b"g" * 16, 6, 1, b"h" * 32, ["carry_on", 5]).raw)
    news = frames.LobbyNews(NAMES[:6], 6, False)
    assert frames.decode_to_peer(frames.encode_frame(news)) == news
    with pytest.raises(Exception, match="names"):
        frames.decode_to_peer(frames.encode_frame(frames.LobbyNews(NAMES[:7], 6, False)))


def test_a_seating_of_six_is_old_wests_and_no_five_seat_games() -> None:
    six = Seating(seats(6), game=OLD_WEST, escrow=True)
    assert message_from_wire(six.to_wire()) == six
    with pytest.raises(Malformed, match="Europe is for 2 to 5 players"):
        message_from_wire(Seating(seats(6), game=europe_game()).to_wire())
    with pytest.raises(Malformed):
        message_from_wire(Seating(seats(7), game=OLD_WEST).to_wire())


def test_a_table_of_six_folds_its_seating_and_every_seat_owes_its_keys() -> None:
    six = Seating(seats(6), game=OLD_WEST)
    game_id = b"s" * 16
    table = Table()
    table.receive(seal(IDS[0], game_id, 0, 1, b"\x00" * 32, six.to_wire()).raw)
    assert table.rejected == [] and table.game is OLD_WEST
    assert {o.seat for o in table.obligations()} == set(range(6))  # each of the six owes its keys
    assert new_game(OLD_WEST, 6).n_players == 6
