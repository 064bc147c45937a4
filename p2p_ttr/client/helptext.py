"""`help` and `rules`: the words a player reads when stuck."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from p2p_ttr.engine.board import Board
from p2p_ttr.engine.cards import Deck
from p2p_ttr.engine.game import Game, LocomotiveUse, Rules, Unkept
from p2p_ttr.engine.state import FACE_UP_SLOTS

from .commands import Verb
from .examples import example_words, number
from .laying import beds_rules, has_beds
from .depotmoves import depot_rules, has_depots
from .markerwords import has_markers, marker_rules
from .monsterwords import has_monsters, monster_rules
from .words import DASH
from .pagetext import KEEP, Block, Para, Term
from .stocks import share_rules

ORDINALS = ("first", "second", "third", "fourth", "fifth")

KEYS = (
    Para("Tab completes cities, routes, colours and slots; Up and Down walk the history; PageUp and PageDown "
         "scroll the log (or this page) by what it shows; Esc closes this page; Ctrl-C asks to quit."),
)

CARDS = (Para("CARDS: a colour and how many, and locomotives: `3 red`, `2 blue 1 loco`, `loco`. Left out, the "
              "client picks the payment using the fewest locomotives, and asks when two payments differ in "
              "colour."),)

def rules_page(game: Game) -> tuple[Block, ...]:
    """The rules of ``game`` in short, each said from its ``Rules`` and board:
    only the moves, routes and bonuses the game has."""
    rules, board = game.rules, game.board
    return (
        f"Ticket to Ride: {game.title}, in short",
        "",
        Para(_table(rules)),
        *(("", Para(marker_rules(game))) if has_markers(game) else ()),
        *(("", Para(monster_rules(game))) if has_monsters(game) else ()),
        *(("", Para(depot_rules(game))) if has_depots(game) else ()),
        "",
        "On your turn do one thing:",
        Para(_drawing(rules), 2),
        Para(_claiming(game), 2),
        Para(_tickets(rules), 2),
        *((Para(_station(rules), 2),) if rules.stations else ()),
        Para("Only when none of these is possible (nothing to draw, nothing your hand can pay for) do you pass "
             "(pass): your hand is shown to prove it."),
        "",
        Para(_route_points(board)),
        *((Para(beds_rules()),) if has_beds(game) else ()),
        *((Para(_one_side(rules)),) if any(r.twin is not None for r in board.routes) else ()),
        Para(f"When someone ends a turn with {rules.last_round_trains} trains or fewer, everyone (them too) plays "
             "one last turn."),
        Para(_scoring(rules)),
        *(Para(said) for said in share_rules(game)),
    )


def _table(rules: Rules) -> str:
    """'2 to 5 players, each with 45 trains and 3 stations. Tickets not kept go under the pile ...'."""
    stations = f" and {rules.stations} stations" if rules.stations else " (no stations)"
    kept, first = _unkept(rules.draw_tickets.unkept), _unkept(rules.setup_tickets.unkept)
    where = kept if kept == first else f"{kept} (at the start: {first})"
    return (f"{rules.min_players} to {rules.max_players} players, each with {rules.trains} trains{stations}. "
            f"Tickets not kept go {where}.")


_UNKEPT_WORDS = {
    Unkept.BOX: "out of the game",
    Unkept.BOTTOM: "under the pile",
    Unkept.BOTTOM_SHUFFLED: "under the pile, every player's shuffled together",
    Unkept.SHUFFLED_IN: "back into the pile, shuffled with all of it",
}


def _unkept(unkept: Unkept) -> str:
    return _UNKEPT_WORDS[unkept]


def _drawing(rules: Rules) -> str:
    row = f"draw two train cards: from the deck or the {number(FACE_UP_SLOTS)} face-up ones"
    if rules.face_up_locomotive_ends_draw:
        return row + "; a face-up locomotive counts as both (and cannot be the second card);"
    return row + ", a face-up locomotive as any other;"


def _claiming(game: Game) -> str:
    use = game.rules.locomotive_use
    text = ("claim a route: play as many cards of its colour as it is long (gray: any one colour); locomotives "
            "stand in for any colour" + ("" if use is LocomotiveUse.ANY else
                                         " on tunnels only" if use is LocomotiveUse.TUNNELS else
                                         " on tunnels and ferries only"))
    routes = game.board.routes
    if any(r.ferry_locomotives for r in routes):
        text += "; a ferry needs its locomotives"
        if game.rules.ferry_stand_in:
            text += f" (any {number(game.rules.ferry_stand_in)} cards stand in for each)"
    for route in routes:
        if route.stand_in:
            text += (f"; on {route.a}{DASH}{route.b} any {number(route.stand_in)} cards stand in for one card of "
                     "the colour you pay")
    if any(r.tunnel for r in routes):
        text += (f"; a tunnel turns {number(game.rules.tunnel_cards)} cards from the deck: each of your colour or "
                 "a locomotive asks one more card, which you pay (pay) or give the tunnel up (abandon)")
    if any(r.mountain_x for r in routes):
        text += ("; a mountain route takes one more of your trains for each X on it, sent to the Mountain "
                 "Crossing (no trains for them, no claim)")
    if game.rules.cards_per_locomotive:
        text += f"; any {number(game.rules.cards_per_locomotive)} cards may be paid as one locomotive"
    if game.rules.technologies:
        text += ("; at first only 1- and 2-space land routes within England can be claimed (and Southampton"
                 f"{DASH}New York, always): before your turn's action you may buy one technology (buy) with "
                 "locomotives to open regions, longer routes and ferries, or to score more")
    return text + ";"


def _tickets(rules: Rules) -> str:
    draw, setup = rules.draw_tickets, rules.setup_tickets
    long_most = setup.keep_most(Deck.LONG)
    limit = "" if long_most is None else f", at most {number(long_most)} of the {number(setup.dealt(Deck.LONG))} long"
    return (f"draw {number(draw.size)} destination tickets and keep at least {number(draw.keep_min)} (at the "
            f"start: keep at least {number(setup.keep_min)} of the {number(setup.size)} dealt{limit});")


def _station(rules: Rules) -> str:
    later = "".join(f", the {ORDINALS[n - 1]} {n}" for n in range(2, rules.stations + 1))
    return (f"build a station: the first costs 1 card{later}, of one colour. At the end each station lends you "
            "one rival route into its city, used by all of your tickets.")


def _route_points(board: Board) -> str:
    lengths = sorted(board.route_points)
    return (f"Routes score by length: {', '.join(map(str, lengths))} cars score "
            f"{', '.join(str(board.route_points[n]) for n in lengths)} points.")


def _one_side(rules: Rules) -> str:
    counts = [str(n) for n in range(rules.min_players, rules.both_sides_min_players)]
    if not counts:
        return "Both sides of a double route can be claimed, by two different players."
    said = " or ".join(counts) if len(counts) <= 2 else f"{counts[0]} to {counts[-1]}"
    return f"In a game of {said}, only one side of a double route can be claimed."


def _scoring(rules: Rules) -> str:
    parts = ["tickets joined by your routes score their points, the others lose them"]
    ties = ["most tickets completed"]
    if rules.stations:
        parts.append(f"every station not built scores {rules.station_points}")
        ties.append("fewest stations built")
    bonus = rules.longest_path_bonus
    if rules.longest_path_points:
        parts.append(f"the longest continuous trail of routes wins the {bonus} ({rules.longest_path_points})")
        ties.append("the " + ("Express" if bonus.endswith(" Express") else bonus))
    if rules.globetrotter_points:
        parts.append(f"the most tickets completed wins the Globetrotter ({rules.globetrotter_points})")
    if rules.grand_tour_points:
        steps = "/".join(str(p) for p in rules.grand_tour_points[1:])
        parts.append(f"the Grand Tour: tickets whose cities two paths of your own routes join, sharing no route, "
                     f"score {steps} for 1/2/3/4/{len(rules.grand_tour_points) - 1}+ of them")
    if rules.mountain_car_points:
        parts.append(f"each car a mountain route's X sends to the Mountain Crossing scores {rules.mountain_car_points}")
    if rules.most_cities_points:
        parts.append(f"the most cities in one network of your routes wins the {rules.most_cities_bonus} "
                     f"({rules.most_cities_points})")
    if rules.mountain_car_points:
        ties.append("most mountain routes")
    return f"Then: {'; '.join(parts)}. Ties: {', then '.join(ties)}."


def for_game(verb: Verb, game: Game) -> Verb:
    """``verb`` as ``game`` says it: its summary and examples with the game's places and numbers."""
    words = example_words(game)
    return replace(verb, summary=verb.summary.format_map(words),
                   examples=tuple(e.format_map(words) for e in verb.examples))


def verb_help(verb: Verb, game: Game) -> list[Block]:
    verb = for_game(verb, game)
    lines: list[Block] = [verb.usage, Para(verb.summary, 2)]
    if verb.aliases:
        lines.append(Para(f"also: {', '.join(verb.aliases)}", 2))
    if verb.examples != (verb.name,):
        lines.append(Para(_examples(verb), 2))
    return lines


def _examples(verb: Verb) -> str:
    """'e.g. draw   draw 3': a row may break between two examples, never inside one."""
    return "e.g. " + "   ".join(e.replace(" ", KEEP) for e in verb.examples)


def help_lines(verbs: Iterable[Verb], game: Game) -> list[Block]:
    """Every command ``game`` has, with its summary and examples."""
    lines: list[Block] = [
        Para("A unique beginning of a command or a city is enough: `cl {a_short} {b_short}` claims {a}-{b}."
             .format_map(example_words(game))), ""]
    for verb in (for_game(v, game) for v in verbs if v.played(game)):
        examples = (_examples(verb),) if verb.examples != (verb.name,) else ()
        lines.append(Term(verb.usage, (verb.summary, *examples)))
    return lines + ["", *CARDS, "", *KEYS]
