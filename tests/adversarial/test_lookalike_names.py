"""Names that look like others (issue 42, item 7): "A\\u034fnn", "Ann\\u3164",
a Cyrillic "\\u0410nn" and "Ann, Bob" all sat beside Ann. Now a name passes
one rule (table/names.py: NFKC, only characters that draw, no separator
that reads as a list), judged by Unicode 3.2.0 so that every replica
accepts the same seating; and a name that looks like one already in the
lobby is refused, with words that say which."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2p_ttr.net.frames import NET_VERSION
from p2p_ttr.net.lobby import Lobby, HelloRefusal, sign_hello
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.messages import valid_name
from p2p_ttr.table.names import MAX_NAME, name_problem, skeleton

HERE = ("127.0.0.1", 7311)  # the address a hello says it dialled (a fake router listens there)

HOST = Identity.generate()
NONCE = b"n" * 32
FINE = ["Ann", "Anna", "Boris", "Bot1", "Zo\u00eb", "Jos\u00e9 Mar\u00eda", "O'Brien", "Jean-Luc", "\u6771\u4eac",
        "\u0410\u043d\u043d\u0430", "\u0391\u03bb\u03ad\u03be\u03b7\u03c2", "\u0939\u093f\u0928\u094d\u0926\u0940"]


def join(lobby: Lobby, name: str) -> bool:
    who = Identity.generate()
    return lobby.join(NET_VERSION, name, who.public, NONCE, sign_hello(who, name, HOST.public, NONCE, HERE), HERE)


@pytest.mark.parametrize("name,why", [
    ("A\u034fnn", "drawn"),  # a combining grapheme joiner, drawn as nothing
    ("Ann\u3164", "drawn"),  # a Hangul filler: a letter, drawn as nothing
    ("Ann\u200b", "drawn"),  # a zero-width space
    ("Ann, Bob", "list"),
    ("Ann; Bob", "list"),
    ("Ann\u3001Bob", "list"),  # the ideographic comma
    ("Ann\uff0cBob", "NFKC"),  # a full-width comma: not in its one form (NFKC makes it a comma)
    ("\ufb01ona", "NFKC"),  # the ligature fi
    ("Zoe\u0308", "NFKC"),  # a decomposed e-diaeresis
    ("\u0301Ann", "combining"),
    ("Ann \u0301Bob", "combining"),
])
def test_a_name_that_hides_or_lists_is_refused_everywhere_with_why(name: str, why: str) -> None:
    assert not valid_name(name)  # the seating, the lobby and the beacon
    problem = name_problem(name)
    assert problem is not None and why in problem
    with pytest.raises(HelloRefusal) as exc:
        join(Lobby("Host", HOST.public), name)
    assert exc.value.code == "bad_name" and why in exc.value.reason


@pytest.mark.parametrize("name", FINE)
def test_names_in_any_script_pass(name: str) -> None:
    assert valid_name(name) and name_problem(name) is None


@pytest.mark.parametrize("name", ["\u0410nn", "\u0430nn", "ANN", "ann", "\u0391nn", "Ann"])
def test_a_name_that_looks_like_one_in_the_lobby_is_refused_and_says_which(name: str) -> None:
    lobby = Lobby("Host", HOST.public)
    assert join(lobby, "Ann")
    with pytest.raises(HelloRefusal) as exc:
        join(lobby, name)
    assert exc.value.code == "name_taken"
    assert "'Ann'" in exc.value.reason
    if name != "Ann":
        assert "looks the same as 'Ann'" in exc.value.reason and ascii(name) in exc.value.reason
    assert lobby.names == ["Host", "Ann"]


def test_lookalikes_of_latin_letters_share_a_skeleton() -> None:
    assert skeleton("\u0420\u0430\u0443\u0441") == skeleton("Payc") == "payc"  # Cyrillic Р а у с
    assert skeleton("\u0392\u03bf\u0392") == skeleton("BoB")  # Greek Beta omicron Beta
    assert skeleton("BiII") == skeleton("Bill")  # capital i's read as l's
    assert skeleton("1an") == skeleton("Ian") == skeleton("lan")
    assert skeleton("J0e") == skeleton("Joe")
    assert skeleton("Anna") != skeleton("Anne")


def test_a_host_names_are_judged_too() -> None:
    lobby = Lobby("Ann", HOST.public)
    with pytest.raises(HelloRefusal) as exc:
        join(lobby, "\u0410nn")
    assert "looks the same as 'Ann'" in exc.value.reason


@given(st.text(max_size=MAX_NAME + 2))
def test_the_rule_never_fails_and_an_accepted_name_draws_in_every_unicode(name: str) -> None:
    problem = name_problem(name)  # never raises, whatever the text
    if problem is None:
        assert valid_name(name) and 0 < len(name) <= MAX_NAME
        assert unicodedata.ucd_3_2_0.normalize("NFKC", name) == name
        assert not any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in name)
        assert "," not in name and ";" not in name
        assert skeleton(name) == skeleton(name)


@pytest.mark.parametrize("name", ["A\u034fnn", "Ann\u3164", "Ann, Bob"])
def test_a_seating_with_such_a_name_is_refused_by_every_replica(name: str) -> None:
    from p2p_ttr.table.errors import Malformed
    from p2p_ttr.table.messages import RULES, Seat, Seating, message_from_wire

    fine = Seating((Seat("Ann", bytes(32)), Seat("Bob", b"\1" * 32)))
    assert message_from_wire(fine.to_wire()) == fine
    with pytest.raises(Malformed, match="name"):
        message_from_wire(["seating", RULES, fine.to_wire()[2], [["Ann", bytes(32)], [name, b"\1" * 32]]])


@pytest.mark.parametrize("pair", [("Ann", "\u0410nn"), ("Ann", "ANN"), ("Bill", "BiII"), ("Joe", "J0e"),
                                  ("\u0392ob", "Bob")])
def test_a_seating_naming_two_lookalike_seats_is_malformed_on_every_replica(pair: tuple[str, str]) -> None:
    """A host that writes the seating itself (no lobby to refuse the second
    name) seats two players no screen could tell apart: every replica
    refuses it, and says which two names and why."""
    from p2p_ttr.table.errors import Malformed
    from p2p_ttr.table.messages import RULES, Seat, Seating, message_from_wire

    first, second = pair
    fine = Seating((Seat(first, bytes(32)), Seat("Cy", b"\1" * 32)))
    with pytest.raises(Malformed) as exc:
        message_from_wire(["seating", RULES, fine.to_wire()[2], [[first, bytes(32)], [second, b"\1" * 32]]])
    assert f"{second!r} ({ascii(second)}) and {first!r} look the same" in str(exc.value)
    assert "tells them apart" in str(exc.value)


def test_lower_case_is_taken_only_where_every_python_agrees() -> None:
    """The skeleton decides whether a seating folds, so it may not depend on
    the running Python's Unicode: a lower case that leads out of Unicode
    3.2.0 (Cherokee's, added in 8.0) is not followed."""
    assert skeleton("\u13a0") == "\u13a0"  # CHEROKEE LETTER A: its lower case U+AB70 is from Unicode 8.0
    assert skeleton("\u00c9mile") == skeleton("\u00e9mile")
