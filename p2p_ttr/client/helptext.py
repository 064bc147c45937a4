"""`help` and `rules`: the words a player reads when stuck."""

from __future__ import annotations

from collections.abc import Iterable

from .commands import Verb

KEYS = (
    "Tab completes cities, routes, colours and slots; Up and Down walk the history;",
    "PageUp and PageDown scroll the log; Esc closes this page; Ctrl-C asks to quit.",
)

CARDS = ("CARDS: a colour and how many, and locomotives: `3 red`, `2 blue 1 loco`, `loco`.",
         "Left out, the client picks the payment using the fewest locomotives, and asks when",
         "two payments differ in colour.")

RULES = (
    "Ticket to Ride: Europe, in short",
    "",
    "On your turn do one thing:",
    "  draw two train cards: from the deck or the five face-up ones; a face-up locomotive",
    "    counts as both (and cannot be the second card);",
    "  claim a route: play as many cards of its colour as it is long (gray: any one colour);",
    "    locomotives stand in for any colour; a ferry needs its locomotives;",
    "    a tunnel turns three cards from the deck: each of your colour or a locomotive asks",
    "    one more card, which you pay (pay) or give the tunnel up (abandon);",
    "  draw three destination tickets and keep at least one (at the start: keep at least two",
    "    of the four dealt);",
    "  build a station: the first costs 1 card, the second 2, the third 3, of one colour.",
    "    At the end each station lends you one rival route into its city, used by all of your",
    "    tickets.",
    "Only when none of these is possible (nothing to draw, nothing your hand can pay for)",
    "  do you pass (pass): your hand is shown to prove it.",
    "",
    "Routes score by length: 1, 2, 3, 4, 6, 8 cars score 1, 2, 4, 7, 15, 21 points.",
    "In a game of 2 or 3, only one side of a double route can be claimed.",
    "When someone ends a turn with 2 trains or fewer, everyone (them too) plays one last turn.",
    "Then: tickets joined by your routes score their points, the others lose them; every",
    "station not built scores 4; the longest continuous trail of routes wins the",
    "European Express (10). Ties: most tickets completed, then fewest stations built, then the Express.",
)


def verb_help(verb: Verb) -> list[str]:
    lines = [f"{verb.usage}", f"  {verb.summary}"]
    if verb.aliases:
        lines.append(f"  also: {', '.join(verb.aliases)}")
    if verb.examples != (verb.name,):
        lines.append("  e.g. " + "   ".join(verb.examples))
    return lines


def help_lines(verbs: Iterable[Verb]) -> list[str]:
    verbs = tuple(verbs)
    width = max(len(v.usage) for v in verbs) + 2
    lines = ["A unique beginning of a command or a city is enough: `cl par fra` claims Paris-Frankfurt.", ""]
    for verb in verbs:
        lines.append(f"{verb.usage:<{width}}{verb.summary}")
        if verb.examples != (verb.name,):
            lines.append(f"{'':<{width}}e.g. " + "   ".join(verb.examples))
    return lines + ["", *CARDS, "", *KEYS]
