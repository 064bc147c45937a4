"""Player names: the one rule a name must pass, and when two look the same.

A name is shown beside every move, so a name that reads as another's (or as
two) lets a player pose as someone: "A\\u034fnn" (an invisible combining
grapheme joiner), "Ann\\u3164" (a Hangul filler, drawn as nothing), a
Cyrillic "\\u0410nn", "Ann, Bob". So a name is:

- 1..24 characters, no space at either end;
- in NFKC form, so that one text has one spelling (no ligatures, no
  full-width letters, no decomposed accents);
- only characters that draw: none of Unicode's control, format, surrogate,
  private-use, unassigned or separator characters but the ASCII space, none
  of the default-ignorable ones (drawn as nothing: fillers, joiners,
  variation selectors), no combining mark at the start or after a space;
- no separator that reads as a list (``,`` ``;`` and their kin in other
  scripts).

Every replica must accept the same seating, so the rule is judged by
Unicode 3.2.0 (``unicodedata.ucd_3_2_0``, in every Python) and fixed lists,
never by the running Python's own Unicode.

Two acceptable names *look the same* when their ``skeleton`` is equal: NFKC,
the common Latin homoglyphs of Cyrillic and Greek letters (and of ``0``,
``1``, ``I``) mapped to the Latin letter, then lower case. The lobby refuses
a joiner whose name looks like a name already at the table, and says which;
a seating naming two seats that look the same is malformed, on every replica
alike: lower case is taken from the running Python only where it maps a
character of Unicode 3.2.0 to characters of 3.2.0 (an accepted name holds no
other), which Unicode's case stability keeps the same in every version; a
mapping added later to a newer character (Cherokee's lower case, 8.0) is
not followed.
"""

from __future__ import annotations

import unicodedata
from typing import TypeGuard

MAX_NAME = 24
UCD = unicodedata.ucd_3_2_0

# Not drawn as a glyph: Unicode's "Other" and "Separator" categories.
UNPRINTABLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"})
COMBINING = frozenset({"Mn", "Mc", "Me"})

# Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties): drawn as
# nothing whatever their category (U+034F and U+3164 are a mark and a letter).
IGNORABLE_RANGES = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)

# Separators that make one name read as a list of names (NFKC already maps
# the full-width and small forms to the ASCII ones).
LIST_SEPARATORS = frozenset(",;\u060c\u061b\u3001\u2e32\u2e41\u2e4c\u2e4e\u204f")

# Letters that look like a Latin letter, mapped to it (lower case, after NFKC
# and before case folding: an upper-case Cyrillic or Greek letter folds to
# its own lower case, so both are listed).
HOMOGLYPHS = str.maketrans({
    # Cyrillic
    "\u0430": "a", "\u0410": "a", "\u0432": "b", "\u0412": "b", "\u0435": "e", "\u0415": "e",
    "\u0451": "\u00eb", "\u0401": "\u00eb", "\u043a": "k", "\u041a": "k", "\u043c": "m", "\u041c": "m",
    "\u043d": "h", "\u041d": "h", "\u043e": "o", "\u041e": "o", "\u0440": "p", "\u0420": "p",
    "\u0441": "c", "\u0421": "c", "\u0442": "t", "\u0422": "t", "\u0443": "y", "\u0423": "y",
    "\u0445": "x", "\u0425": "x", "\u0456": "i", "\u0406": "l", "\u0457": "\u00ef", "\u0458": "j",
    "\u0408": "j", "\u0455": "s", "\u0405": "s", "\u0501": "d", "\u051b": "q", "\u051d": "w",
    "\u04bb": "h", "\u04ba": "h", "\u04cf": "l", "\u04c0": "l",
    # Greek
    "\u03b1": "a", "\u0391": "a", "\u03b2": "b", "\u0392": "b", "\u03b5": "e", "\u0395": "e",
    "\u03b7": "h", "\u0397": "h", "\u03b9": "i", "\u0399": "l", "\u03ba": "k", "\u039a": "k",
    "\u03bc": "m", "\u039c": "m", "\u03bd": "v", "\u039d": "n", "\u03bf": "o", "\u039f": "o",
    "\u03c1": "p", "\u03a1": "p", "\u03c4": "t", "\u03a4": "t", "\u03c5": "u", "\u03a5": "y",
    "\u03c7": "x", "\u03a7": "x", "\u03b6": "z", "\u0396": "z", "\u03f2": "c", "\u03f9": "c",
    # Latin look-alikes of one another
    "0": "o", "1": "l", "I": "l", "|": "l",
})


def ignorable(ch: str) -> bool:
    code = ord(ch)
    return any(lo <= code <= hi for lo, hi in IGNORABLE_RANGES)


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot be a player's name, or None if it can."""
    if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
        return f"a name is 1 to {MAX_NAME} characters"
    if name[0] == " " or name[-1] == " ":
        return "a name has no space at either end"
    previous = " "
    for ch in name:
        if ch in LIST_SEPARATORS:
            return f"a name holds no {ch!r}: it would read as a list of names"
        if ignorable(ch) or (ch != " " and UCD.category(ch) in UNPRINTABLE):
            return f"a name holds only characters that are drawn, not {ascii(ch)}"
        if UCD.category(ch) in COMBINING and previous == " ":
            return f"a name does not start a word with a combining mark ({ascii(ch)})"
        previous = ch
    if UCD.normalize("NFKC", name) != name:
        return "a name is written in one way only (Unicode NFKC: no ligatures, full-width or decomposed letters)"
    return None


def valid_player_name(name: object) -> TypeGuard[str]:
    """Whether ``name`` passes ``name_problem``: the one rule for the seating, the lobby and the beacon."""
    return name_problem(name) is None


def _lower(ch: str) -> str:
    """``ch`` in lower case, where every Python since Unicode 3.2.0 says the same."""
    low = ch.lower()
    return low if all(UCD.category(c) != "Cn" for c in low) else ch


def skeleton(name: str) -> str:
    """What ``name`` looks like: two names with one skeleton read as the same name."""
    return "".join(map(_lower, UCD.normalize("NFKC", UCD.normalize("NFKC", name).translate(HOMOGLYPHS))))


def lookalikes(names: list[str]) -> tuple[str, str] | None:
    """Two of ``names`` that read as the same name (the first such pair), if any."""
    for i, name in enumerate(names):
        other = looks_like(name, names[:i])
        if other is not None:
            return other, name
    return None


def looks_like(name: str, others: list[str]) -> str | None:
    """The first of ``others`` that reads as ``name``, if any."""
    shape = skeleton(name)
    return next((other for other in others if skeleton(other) == shape), None)
