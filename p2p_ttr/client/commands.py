"""The command language: one registry of verbs drives parsing, help and completion.

Parsing here is syntax only: which verb, and the words after it. What the
words mean for the game (which route, which cards) depends on the player's
view and is ``resolve``'s job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Verb:
    name: str
    usage: str
    summary: str
    examples: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    whole: bool = False  # typed in full only: no beginning of it stands for it ('st' stays station)


VERBS: tuple[Verb, ...] = (
    Verb("draw", "draw [1-5 | COLOUR]", "take a train card: from the deck, or face-up slot N",
         ("draw", "draw 3", "draw loco"), ("d",)),
    Verb("claim", "claim CITY CITY [COLOUR] [with CARDS]", "claim a route; name the colour of a double route",
         ("claim Paris Frankfurt", "claim par fra white", "claim Essen Berlin with 2 blue 2 loco"), ("c",)),
    Verb("tickets", "tickets", "draw three destination tickets (keep at least one)", ("tickets",), ("t",)),
    Verb("keep", "keep N [N...] | keep all", "keep the offered tickets you name, return the rest",
         ("keep 1 3", "keep all"), ("k",)),
    Verb("station", "station CITY [with CARDS]", "build a station: it borrows one rival route out of CITY",
         ("station Wien", "station Roma with 2 red"), ("s",)),
    Verb("pay", "pay [CARDS]", "pay the extra cards a tunnel asks for", ("pay", "pay 1 loco")),
    Verb("abandon", "abandon", "give up the tunnel: your cards come back, the turn ends", ("abandon",),
         ("giveup",)),
    Verb("pass", "pass", "end your turn doing nothing: only when nothing can be drawn, claimed or built "
         "(your hand is shown to prove it)", ("pass",)),
    Verb("path", "path [N | CITY CITY | off]", "show the shortest way to finish ticket N over open routes",
         ("path", "path 2", "path Lisboa Danzig", "path off"), ("p",)),
    Verb("start", "start", "start the game now (the host, in the lobby; Enter does the same)", ("start",),
         whole=True),
    Verb("show", "show", "your table in full: hand, face-up row, each ticket's way, the routes your hand pays for",
         ("show",)),
    Verb("rules", "rules", "a summary of the rules", ("rules",)),
    Verb("help", "help [COMMAND]", "the commands, with examples", ("help", "help claim"), ("?", "h")),
    Verb("wait", "wait", "keep waiting for a slow player after a timeout", ("wait",)),
    Verb("quit", "quit", "leave the game (asks first: end for now, or forfeit your seat)", ("quit",), ("exit", "q")),
    Verb("end", "end", "stop here; the log stays on disk and the same command resumes", ("end",)),
    Verb("forfeit", "forfeit", "leave for good (asks first): your cards are shown, the table plays your seat",
         ("forfeit",)),
)

_BY_WORD: dict[str, Verb] = {w: v for v in VERBS for w in (v.name, *v.aliases)}
# Cards may be written "2 red 1 loco", "2red", "red+loco": split numbers from words.
_TOKEN = re.compile(r"\d+|[^\s\d+,;]+")


class ParseError(ValueError):
    """The line is not a command; the message says so in a player's words."""


@dataclass(frozen=True)
class Command:
    verb: Verb
    words: tuple[str, ...]


def tokens(text: str) -> list[str]:
    """The words of ``text``: 'Paris-Frankfurt' is two cities, '2red' a count and a colour."""
    return _TOKEN.findall(text.replace("-", " ").replace("–", " "))


def find_verb(word: str) -> Verb | None:
    """The verb ``word`` names: itself, an alias, or a unique beginning of a name."""
    key = word.lower()
    if key in _BY_WORD:
        return _BY_WORD[key]
    found = [v for v in VERBS if v.name.startswith(key) and not v.whole]
    return found[0] if len(found) == 1 else None


def parse(line: str) -> Command | None:
    """The command on ``line`` (None for an empty line); ParseError if none."""
    words = line.split(None, 1)
    if not words:
        return None
    verb = find_verb(words[0])
    if verb is None:
        raise ParseError(f"unknown command {words[0]!r} (help lists the commands)")
    return Command(verb, tuple(tokens(words[1])) if len(words) > 1 else ())
