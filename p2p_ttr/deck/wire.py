"""Strict checks shared by every record's constructor and ``from_wire``.

Wire shapes are plain msgpack-friendly values: lists (tuples accepted), ints,
bytes and short ASCII strings. Each check raises :class:`MalformedWire` (or
:class:`InvalidElement` for group elements) with a message naming the field,
and nothing else, whatever garbage it is given.

Sizes and ranges:

* group element: 256-byte big-endian, canonical value in ``[2, Q]``;
* secret exponent: 32 bytes; proof response: 65 bytes; seed and digests: 32 bytes;
* seat: ``0 <= seat < MAX_SEATS``; epoch: ``0 <= epoch < 2^32``;
  card and position: ``0 <= n < MAX_DECK_SIZE``;
* deck name: 1-32 characters from ``[A-Za-z0-9_.-]``; game id: 1-64 bytes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from .errors import MalformedWire
from .group import ELEMENT_BYTES, check_element

MAX_SEATS: Final = 16
MAX_EPOCH: Final = 2**32 - 1
MAX_DECK_SIZE: Final = 1024
MAX_GAME_ID_BYTES: Final = 64
_DECK_NAME = re.compile(r"[A-Za-z0-9_.\-]{1,32}")


def expect_list(value: object, what: str, length: int | None = None) -> Sequence[object]:
    """A list or tuple, optionally of an exact length."""
    if not isinstance(value, (list, tuple)):
        raise MalformedWire(f"{what} must be a list, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise MalformedWire(f"{what} must have {length} items, got {len(value)}")
    return value


def expect_int(value: object, what: str, low: int, high: int) -> int:
    """An int (not a bool) with ``low <= value <= high``."""
    if type(value) is not int:
        raise MalformedWire(f"{what} must be an int, got {type(value).__name__}")
    if not low <= value <= high:
        raise MalformedWire(f"{what} is {value}, outside [{low}, {high}]")
    return value


def expect_bytes(value: object, what: str, size: int | None = None) -> bytes:
    """A ``bytes`` object, optionally of an exact size."""
    if type(value) is not bytes:
        raise MalformedWire(f"{what} must be bytes, got {type(value).__name__}")
    if size is not None and len(value) != size:
        raise MalformedWire(f"{what} must be {size} bytes, got {len(value)}")
    return value


def expect_element(value: object, what: str) -> int:
    """A group element from its 256-byte wire form."""
    raw = expect_bytes(value, what, ELEMENT_BYTES)
    return check_element(int.from_bytes(raw, "big"), what)


def expect_seat(value: object, what: str = "seat") -> int:
    return expect_int(value, what, 0, MAX_SEATS - 1)


def expect_epoch(value: object, what: str = "epoch") -> int:
    return expect_int(value, what, 0, MAX_EPOCH)


def expect_index(value: object, what: str) -> int:
    """A card id or a position within a deck."""
    return expect_int(value, what, 0, MAX_DECK_SIZE - 1)


def expect_deck_name(value: object, what: str = "deck name") -> str:
    if type(value) is not str:
        raise MalformedWire(f"{what} must be a str, got {type(value).__name__}")
    if not _DECK_NAME.fullmatch(value):
        raise MalformedWire(f"{what} {value!r} must be 1-32 characters of [A-Za-z0-9_.-]")
    return value


def expect_game_id(value: object, what: str = "game id") -> bytes:
    raw = expect_bytes(value, what)
    if not 1 <= len(raw) <= MAX_GAME_ID_BYTES:
        raise MalformedWire(f"{what} must be 1-{MAX_GAME_ID_BYTES} bytes, got {len(raw)}")
    return raw


def expect_uint_bytes(value: object, what: str, size: int) -> int:
    """A non-negative integer from exactly ``size`` big-endian bytes."""
    return int.from_bytes(expect_bytes(value, what, size), "big")
