"""Every command the player types, registered once: its name and aliases, its
help, what it does and what Tab offers after it. ``interpret`` turns a line
into what happens; ``complete`` offers what may come next.
"""

from __future__ import annotations

import re
from dataclasses import replace

from p2p_ttr.engine.game import Game
from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.sharemoves import plays_shares

from .commands import ParseError, ParsedCommand, Registry, Verb, tokens
from .complete import (
    Suggestion,
    claim_args,
    draw_args,
    keep_args,
    path_args,
    pay_args,
    starts,
    station_args,
)
from .helptext import for_game, help_lines, verb_help
from .markerwords import (
    alvin_args,
    alvin_move,
    has_alvin,
    has_markers,
    home_args,
    home_move,
    marker_args,
    marker_move,
)
from .monsterwords import dexter_args, dexter_move, has_monsters, monster_args, monster_move
from .monsterwords import alvin_args as monster_alvin_args
from .monsterwords import alvin_move as monster_alvin_move
from .network import map_args, on_map
from .outcomes import CANCEL, Ask, Context, Outcome, Refuse, Refused, Show
from .resolve import (
    abandon_move,
    claim_move,
    draw_move,
    keep_move,
    move,
    on_end,
    on_forfeit,
    on_path,
    on_quit,
    on_rules,
    on_show,
    on_start,
    on_wait,
    pass_move,
    pay_move,
    route_places,
    station_move,
    station_places,
    tickets_move,
)
from .depotmoves import depot_args, depot_move, empty_args, empty_move, has_depots, warehouse_args, warehouse_move
from .stocks import share_args, share_move
from .techbuy import (
    buy_args,
    buy_move,
    draw_three_move,
    finish_move,
    has_technologies,
    has_thermocompressor,
    has_water_tenders,
)
from .laying import has_beds, lay_args, lay_move
from .words import fold, most_words


def _help(words: list[str], ctx: Context) -> Outcome:
    if words:
        verb = VERBS.find(words[0])
        if verb is None:
            raise Refused(f"there is no command {words[0]!r}; help alone lists them all")
        if not verb.played(ctx.game):
            raise Refused(f"{ctx.game.title} has no {verb.name} command; help alone lists them all")
        return Show(f"help {verb.name}", tuple(verb_help(verb, ctx.game)))
    return Show("Commands", tuple(help_lines(VERBS, ctx.game)))


def _help_args(args: list[str], ctx: Context) -> list[tuple[str, str]]:
    return [(v.name, v.summary) for v in _played(ctx)] if not args else []


def _played(ctx: Context) -> list[Verb]:
    """The commands of the game being played, said as it says them."""
    return [for_game(v, ctx.game) for v in VERBS if v.played(ctx.game)]


def _alvin(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    """``alvin CITY``: Alvin & Dexter's alien where they are played, else Old West's captured Alvin."""
    if view.monsters is not None:
        return monster_alvin_move(words, view, seat, names)
    return alvin_move(words, view, seat, names)


def _alvin_args(args: list[str], ctx: Context) -> list[tuple[str, str]]:
    if ctx.view is not None and ctx.view.monsters is not None:
        return monster_alvin_args(args, ctx)
    return alvin_args(args, ctx)


def _has_stations(game: Game) -> bool:
    return game.rules.stations > 0


def _has_tunnels(game: Game) -> bool:
    return any(route.tunnel for route in game.board.routes)


VERBS = Registry((
    Verb("draw", "draw [1-5 | COLOUR]", "take a train card: from the deck, or face-up slot N{draw_first}",
         move(draw_move),
         ("draw", "draw 3", "draw loco"), ("d",), args=draw_args),
    Verb("claim", "claim CITY CITY [COLOUR] [with CARDS]", "claim a route; name the colour of a double route",
         move(claim_move, route_places),
         ("claim {a} {b}", "claim {a_short} {b_short} {side}", "claim {c} {d} with {pay}"), ("c",),
         args=claim_args),
    Verb("tickets", "tickets", "draw {drawn} destination tickets (keep at least {kept})", move(tickets_move),
         ("tickets",), ("t",)),
    Verb("keep", "keep N [N...] | keep all", "keep the offered tickets you name, return the rest", move(keep_move),
         ("keep 1 3", "keep all"), ("k",), args=keep_args),
    Verb("station", "station CITY [with CARDS]", "build a station: it borrows one rival route out of CITY",
         move(station_move, station_places), ("station {station}", "station {station2} with 2 red"), ("s",),
         args=station_args, played=_has_stations),
    Verb("home", "home CITY", "place your starting city marker: every route you claim grows from it",
         move(home_move), ("home {station}",), whole=True, args=home_args, played=has_markers),
    Verb("marker", "marker CITY [with CARDS] | marker none",
         "after a claim, a city marker on an end of the route: the points of later routes into it are yours",
         move(marker_move), ("marker {station}", "marker none"), whole=True, args=marker_args, played=has_markers),
    Verb("alvin", "alvin CITY", "{alvin_does}", move(_alvin), ("alvin {station}",), whole=True,
         args=_alvin_args, played=lambda game: has_alvin(game) or has_monsters(game)),
    Verb("dexter", "dexter CITY", "Alvin & Dexter: place Dexter at set-up, or move him before your turn's "
         "action (1 locomotive: up to 3 cities away, 2: up to 6)", move(dexter_move), ("dexter {station}",),
         whole=True, args=dexter_args, played=has_monsters),
    Verb("monster", "monster alvin|dexter CITY", "Alvin & Dexter: place or move a monster (alvin CITY and "
         "dexter CITY say the same)", move(monster_move), ("monster dexter {station}",), whole=True,
         args=monster_args, played=has_monsters),
    Verb("depot", "depot CITY", "put a depot on a city: before the first turn, or before your turn's action",
         move(depot_move), ("depot {station}",), whole=True, args=depot_args, played=has_depots),
    Verb("warehouse", "warehouse SEAT", "before a draw: the deck's top card, unseen, on that seat's warehouse",
         move(warehouse_move), ("warehouse 2", "warehouse me"), whole=True, args=warehouse_args,
         played=has_depots),
    Verb("empty", "empty SEAT [SEAT] | empty none", "after a claim into a depot: take every card of that "
         "seat's warehouse, a depot back to the box for each", move(empty_move), ("empty 2", "empty none"),
         args=empty_args, played=has_depots),
    Verb("pay", "pay [CARDS]", "pay the extra cards a tunnel asks for", move(pay_move), ("pay", "pay 1 loco"),
         args=pay_args, played=_has_tunnels),
    Verb("abandon", "abandon", "give up the tunnel: your cards come back, the turn ends", move(abandon_move),
         ("abandon",), ("giveup",), played=_has_tunnels),
    Verb("take", "take COMPANY [COMPANY] | take none", "after a claim beside railroad logos: take the next "
         "share of one of those companies (with two players, a second one for the dummy), or none",
         move(share_move), ("take PRR", "take PRR NYC", "take none"), args=share_args, played=plays_shares),
    Verb("buy", "buy TECHNOLOGY", "before your turn's action, buy a technology with locomotives (any "
         "{per_locomotive} cards for each)", move(buy_move), ("buy wales", "buy stoker"), args=buy_args,
         played=has_technologies),
    Verb("draw3", "draw3", "draw three cards from the deck as your whole draw (Water Tenders)",
         move(draw_three_move), ("draw3",), whole=True, played=has_water_tenders),
    Verb("done", "done", "end your turn after one claim, without the Thermocompressor's second",
         move(finish_move), ("done",), whole=True, played=has_thermocompressor),
    Verb("lay", "lay COLOUR CITY CITY", "lay a track piece on the bed between two cities, after drawing cards",
         move(lay_move), ("lay red Amiens Calais",), args=lay_args, played=has_beds),
    Verb("pass", "pass", "end your turn doing nothing: only when nothing can be {doable} "
         "(your hand is shown to prove it)", move(pass_move), ("pass",)),
    Verb("path", "path [N | CITY CITY | off]", "show the shortest way to finish ticket N over open routes",
         on_path, ("path", "path 2", "path {far} {far2}", "path off"), ("p",), args=path_args),
    Verb("map", "map [SEAT | all]", "one player's network alone on the map (their {network}, said in words "
         "too); map all shows everyone's again", on_map, ("map 2", "map Bob", "map all"), args=map_args),
    Verb("start", "start", "start the game now (the host, in the lobby; Enter does the same)", on_start,
         ("start",), whole=True),
    Verb("show", "show", "your table in full: hand, face-up row, each ticket's way, the routes your hand pays for",
         on_show, ("show",)),
    Verb("rules", "rules", "a summary of the rules", on_rules, ("rules",)),
    Verb("help", "help [COMMAND]", "the commands, with examples", _help, ("help", "help claim"), ("?", "h"),
         args=_help_args),
    Verb("wait", "wait", "keep waiting for a slow player after a timeout", on_wait, ("wait",)),
    Verb("quit", "quit", "leave the game (asks first: end for now, or forfeit your seat)", on_quit, ("quit",),
         ("exit", "q")),
    Verb("end", "end", "stop here; the log stays on disk and the same command resumes", on_end, ("end",)),
    Verb("forfeit", "forfeit", "leave for good (asks first): your cards are shown, the table plays your seat",
         on_forfeit, ("forfeit",)),
))


def find_verb(word: str) -> Verb | None:
    """The verb ``word`` names: itself, an alias, or a unique beginning of a name."""
    return VERBS.find(word)


def parse(line: str) -> ParsedCommand | None:
    """The command on ``line`` (None for an empty line).

    Raises:
        ParseError: the first word names no command.
    """
    return VERBS.parse(line)


def interpret(line: str, ctx: Context, pending: Ask | None = None) -> Outcome | None:
    """What ``line`` means now. ``pending`` is the question last asked: a line
    that answers it picks that choice; an empty line takes its default
    choice, where it has one; an empty line without one, or a number that is
    no choice, asks it again (the latter saying so); any other line is a
    command. None for an empty line when nothing is asked. Never raises for
    what a player types: a line that is no command, or a move the rules or
    the moment refuse, is a ``Refuse`` that says why."""
    if pending is not None:
        picked = answer(pending, line)
        if picked is not None:
            return picked
        key = line.strip()
        if not key and pending.default:  # Enter takes the answer the question offers as its default
            return answer(pending, pending.default)
        if not key:
            return replace(pending, retry="")  # an empty line: the question stays asked
        if key.isdigit():  # meant as an answer, but no choice has that number: ask again, saying so
            return replace(pending, retry=f"{key} is not one of the choices (1-{len(pending.choices)}, or cancel):")
    try:
        command = parse(line)
        if command is None:
            return None
        return command.verb.run(list(command.words), replace(ctx, typed=command.typed))
    except (ParseError, Refused) as exc:
        return Refuse(str(exc))


def answer(ask: Ask, line: str) -> Outcome | None:
    """The outcome of the choice ``line`` picks (its key or number), if any."""
    key = line.strip().lower()
    for i, choice in enumerate(ask.choices):
        if key in (choice.key, str(i + 1)) or (choice.key == CANCEL.key and key in ("c", "no", "n")):
            return choice.outcome
    return None


def complete(before: str, ctx: Context) -> list[Suggestion]:
    """What may come at the cursor, given the text ``before`` it: the answers
    to the question asked and the commands on an empty line, else what fits
    after the verb typed."""
    words = before.split()
    typing = "" if not words or before[-1:].isspace() else words[-1]
    done = words[:-1] if typing else words
    if not done:
        # The answers to the question asked come first: Tab on an empty line lists them.
        asked = ctx.asked.choices if ctx.asked is not None else ()
        answers = [Suggestion(c.key, len(typing), c.label) for c in asked if c.key.startswith(typing.lower())]
        return answers + [Suggestion(v.name, len(typing), v.summary) for v in _played(ctx)
                          if v.name.startswith(typing.lower()) and v.name not in {c.key for c in asked}]
    verb = find_verb(done[0])
    if verb is None:
        return []
    found: dict[str, str] = {}
    for text, meta in verb.args(tokens(" ".join(done[1:])), ctx):
        if starts(text, typing):
            found.setdefault(text, meta)  # the first note is the one that matters here
    suggested = [Suggestion(text, len(typing), meta) for text, meta in found.items()]
    return _names_of_several_words(before, done, verb, ctx) + suggested


def _names_of_several_words(before: str, done: list[str], verb: Verb, ctx: Context) -> list[Suggestion]:
    """Names of more than one word ('New York') whose first words are typed
    already ('claim new y'): offered in place of all of them."""
    begins = [m.start() for m in re.finditer(r"\S+", before)]
    out: list[Suggestion] = []
    # The words of the name typed before the cursor's ('Salt Lake C': two); none on a board of one-word names.
    for k in range(1, min(most_words(ctx.game.board), len(done))):
        tail = before[begins[len(done) - k]:]
        for text, meta in verb.args(tokens(" ".join(done[1:len(done) - k])), ctx):
            if " " in text and starts(text, tail) and fold(text) != fold(tail):
                out.append(Suggestion(text, len(tail), meta))
    return out
