"""Colours for the style classes the screen uses (p2p_ttr/client/screen.py).

Every class also reads without colour (NO_COLOR, or a 1-bit terminal):
glyphs carry the route colours, digits the owners, reverse video the
highlights.
"""

from __future__ import annotations

from prompt_toolkit.styles import Style

CARD_COLOURS = {
    "purple": "ansimagenta",
    "blue": "ansiblue",
    "orange": "#ff8700",
    "white": "ansiwhite",
    "green": "ansigreen",
    "yellow": "ansiyellow",
    "black": "ansibrightblack",  # black on a dark terminal would vanish
    "red": "ansired",
    "gray": "ansigray",
    "locomotive": "ansicyan bold",
}
SEAT_COLOURS = ("ansired", "ansiblue", "ansigreen", "ansiyellow", "ansibrightblack", "ansiwhite")  # words.COLOURS


def build_style() -> Style:
    rules: dict[str, str] = {
        "header": "reverse",
        "header.title": "reverse bold",
        "header.you": "bold bg:ansigreen fg:ansiblack",
        "final": "bold bg:ansired fg:ansiwhite blink",
        "title": "bold underline",
        "dim": "fg:ansibrightblack",
        "rule": "fg:ansibrightblack",
        "legend": "fg:ansibrightblack",
        "status": "reverse",
        "echo": "",
        "refuse": "fg:ansired bold",
        "ask": "fg:ansiyellow bold",
        "warning": "fg:ansired bold",
        "turn": "bold",
        "you": "bold",
        "done": "fg:ansigreen",
        "todo": "fg:ansiyellow",
        "slot": "bold",
        "city": "bold",
        "monster": "bold fg:ansired",  # Alvin & Dexter: a City in Chaos
        "station": "bold",
        "claimed": "bold",
        "label": "",
        "label.ticket": "reverse bold",
        "label.done": "underline",
        "path": "reverse",
        "recent": "underline bold",  # what the others claimed since your turn (reverse is the path's)
        "note": "fg:ansibrightblack",
        "log.mine": "bold",
        "log.move": "",
        "log.final": "bold fg:ansired",
        "log.path": "fg:ansicyan",
        "log.forfeit": "bold fg:ansimagenta",
        "log.refused": "fg:ansired",
    }
    for colour, spec in CARD_COLOURS.items():
        rules[f"route.{colour}"] = spec.replace(" bold", "")
        rules[f"card.{colour}"] = spec
    for seat, colour in enumerate(SEAT_COLOURS):
        rules[f"owner.{seat}"] = f"fg:{colour} bold"
    return Style.from_dict(rules)
