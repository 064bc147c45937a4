"""A refusal a peer sent us is worded from its code (client/refusalwords.py):
every code a host's lobby or a table refuses with has our words, a code we
do not know is said to be one, and the peer's own reason is at most a quoted
detail, shown safely."""

from __future__ import annotations

from p2p_ttr.client.exitwords import word_end
from p2p_ttr.client.netnotices import TableRefused
from p2p_ttr.client.networds import word_notice
from p2p_ttr.client.peerexits import HostRefusedUs, WatchRefused
from p2p_ttr.client.refusalwords import HOST_REFUSALS, TABLE_REFUSALS, host_refusal_words, table_refusal_words
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.errorcodes import ErrorCode
from p2p_ttr.table.errors import TableError

HOSTILE = "Eve\x1b]0;owned\x07\u202eevil"


def subclass_codes(base: type[EngineError] | type[TableError]) -> set[ErrorCode]:
    found, todo = set(), [base]
    while todo:
        cls = todo.pop()
        found.add(cls.code)
        todo.extend(cls.__subclasses__())
    return found


def test_every_code_a_table_refuses_with_has_words() -> None:
    assert set(TABLE_REFUSALS) == subclass_codes(EngineError) | subclass_codes(TableError)


def test_every_code_a_lobby_refuses_with_has_words() -> None:
    assert set(HOST_REFUSALS) == {ErrorCode.VERSION, ErrorCode.BAD_HELLO, ErrorCode.RELAYED, ErrorCode.BAD_NAME,
                                  ErrorCode.NAME_TAKEN, ErrorCode.FULL, ErrorCode.STARTED}


def test_a_code_off_the_wire_is_read_as_the_string_it_is() -> None:
    assert host_refusal_words("name_taken") == "our name is taken at its table: pick another with --name"
    assert table_refusal_words("out_of_turn") == "it was not ours to play"
    assert host_refusal_words("teapot") == "for a reason we do not know (teapot)"


def test_a_hostile_code_and_reason_reach_no_screen_raw() -> None:
    said = [word_end(HostRefusedUs(HOSTILE, HOSTILE), ()), word_end(WatchRefused("10.0.0.2:7311", HOSTILE, HOSTILE), ()),
            word_notice(TableRefused(HOSTILE, HOSTILE), ())]
    for words in said:
        assert "\x1b" not in words and "\x07" not in words and "\u202e" not in words, words
        assert words.count("Eve\\x1b]0;owned\\x07\\u202eevil") == 2, words  # the unknown code and the quoted reason
