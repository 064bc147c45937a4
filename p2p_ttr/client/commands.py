"""The command language: what a verb is, and how a line is split into one.

Parsing here is syntax only: which verb, and the words after it. What the
words mean for the game (which route, which cards) depends on the player's
view and is ``resolve``'s job; ``verbs`` registers each command once, with its
help, its handler and its completion.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from p2p_ttr.engine.game import Game

from .outcomes import Context, Outcome


Handler = Callable[[list[str], Context], Outcome]  # the words after the verb -> what happens
Arguments = Callable[[list[str], Context], list[tuple[str, str]]]  # the words so far -> (next word, note)


def no_arguments(args: list[str], ctx: Context) -> list[tuple[str, str]]:
    return []


def in_every_game(game: Game) -> bool:
    return True


@dataclass(frozen=True)
class Verb:
    """One command, whole: its words and help, what it does (``run``) and
    what may follow it (``args``, for completion). ``verbs.VERBS`` lists them.
    Its examples and summary may name the game's places and numbers
    (``{a}``, ``{drawn}``: ``examples.example_words``); ``helptext`` fills them in."""

    name: str
    usage: str
    summary: str
    run: Handler
    examples: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    whole: bool = False  # typed in full only: no beginning of it stands for it ('st' stays station)
    args: Arguments = no_arguments
    played: Callable[[Game], bool] = in_every_game  # whether the game has this move (help and Tab offer it)


class Registry:
    """The verbs, found by name, alias or a unique beginning of a name."""

    def __init__(self, verbs: tuple[Verb, ...]) -> None:
        self.verbs = verbs
        self._by_word: dict[str, Verb] = {w: v for v in verbs for w in (v.name, *v.aliases)}
        assert len(self._by_word) == sum(1 + len(v.aliases) for v in verbs), "a word names two verbs"

    def __iter__(self) -> Iterator[Verb]:
        return iter(self.verbs)

    def find(self, word: str) -> Verb | None:
        """The verb ``word`` names: itself, an alias, or a unique beginning of a name."""
        key = word.lower()
        if key in self._by_word:
            return self._by_word[key]
        found = [v for v in self.verbs if v.name.startswith(key) and not v.whole]
        return found[0] if len(found) == 1 else None

    def parse(self, line: str) -> ParsedCommand | None:
        """The command on ``line`` (None for an empty line).

        Raises:
            ParseError: the first word names no verb.
        """
        words = line.split(None, 1)
        if not words:
            return None
        verb = self.find(words[0])
        if verb is None:
            raise ParseError(f"unknown command {words[0]!r} (help lists the commands)")
        rest = words[1].strip() if len(words) > 1 else ""
        return ParsedCommand(verb, tuple(tokens(rest)), rest)


# Cards may be written "2 red 1 loco", "2red", "red+loco": split numbers from words.
_TOKEN = re.compile(r"\d+|[^\s\d+,;]+")


class ParseError(ValueError):
    """The line is not a command; the message says so in a player's words."""


@dataclass(frozen=True)
class ParsedCommand:
    """A parsed line: the verb, the words after it, and those as typed (for a refusal to quote)."""

    verb: Verb
    words: tuple[str, ...]
    typed: str = ""


def tokens(text: str) -> list[str]:
    """The words of ``text``: 'Paris-Frankfurt' is two cities, '2red' a count and a colour."""
    return _TOKEN.findall(text.replace("-", " ").replace("–", " "))
