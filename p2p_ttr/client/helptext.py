"""`help` and `rules`: the words a player reads when stuck."""

from __future__ import annotations

from collections.abc import Iterable

from .commands import Verb
from .pagetext import KEEP, Block, Para, Term

KEYS = (
    Para("Tab completes cities, routes, colours and slots; Up and Down walk the history; PageUp and PageDown "
         "scroll the log (or this page) by what it shows; Esc closes this page; Ctrl-C asks to quit."),
)

CARDS = (Para("CARDS: a colour and how many, and locomotives: `3 red`, `2 blue 1 loco`, `loco`. Left out, the "
              "client picks the payment using the fewest locomotives, and asks when two payments differ in "
              "colour."),)

RULES: tuple[Block, ...] = (
    "Ticket to Ride: Europe, in short",
    "",
    "On your turn do one thing:",
    Para("draw two train cards: from the deck or the five face-up ones; a face-up locomotive counts as both "
         "(and cannot be the second card);", 2),
    Para("claim a route: play as many cards of its colour as it is long (gray: any one colour); locomotives "
         "stand in for any colour; a ferry needs its locomotives; a tunnel turns three cards from the deck: "
         "each of your colour or a locomotive asks one more card, which you pay (pay) or give the tunnel up "
         "(abandon);", 2),
    Para("draw three destination tickets and keep at least one (at the start: keep at least two of the four "
         "dealt);", 2),
    Para("build a station: the first costs 1 card, the second 2, the third 3, of one colour. At the end each "
         "station lends you one rival route into its city, used by all of your tickets.", 2),
    Para("Only when none of these is possible (nothing to draw, nothing your hand can pay for) do you pass "
         "(pass): your hand is shown to prove it."),
    "",
    Para("Routes score by length: 1, 2, 3, 4, 6, 8 cars score 1, 2, 4, 7, 15, 21 points."),
    Para("In a game of 2 or 3, only one side of a double route can be claimed."),
    Para("When someone ends a turn with 2 trains or fewer, everyone (them too) plays one last turn."),
    Para("Then: tickets joined by your routes score their points, the others lose them; every station not "
         "built scores 4; the longest continuous trail of routes wins the European Express (10). Ties: most "
         "tickets completed, then fewest stations built, then the Express."),
)


def verb_help(verb: Verb) -> list[Block]:
    lines: list[Block] = [verb.usage, Para(verb.summary, 2)]
    if verb.aliases:
        lines.append(Para(f"also: {', '.join(verb.aliases)}", 2))
    if verb.examples != (verb.name,):
        lines.append(Para(_examples(verb), 2))
    return lines


def _examples(verb: Verb) -> str:
    """'e.g. draw   draw 3': a row may break between two examples, never inside one."""
    return "e.g. " + "   ".join(e.replace(" ", KEEP) for e in verb.examples)


def help_lines(verbs: Iterable[Verb]) -> list[Block]:
    lines: list[Block] = [
        Para("A unique beginning of a command or a city is enough: `cl par fra` claims Paris-Frankfurt."), ""]
    for verb in verbs:
        examples = (_examples(verb),) if verb.examples != (verb.name,) else ()
        lines.append(Term(verb.usage, (verb.summary, *examples)))
    return lines + ["", *CARDS, "", *KEYS]
