"""From a typed command to what happens: an engine action, a question, or a
refusal that says why.

Moves are found among ``legal_actions`` of the player's own view, the same
list every peer checks a move against, so the client never offers a move
the table would refuse.
"""

from __future__ import annotations

from collections.abc import Callable

from p2p_ttr.engine.board import GRAY, Board, Route
from p2p_ttr.engine.events import (
    AbandonTunnel,
    Action,
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
)
from p2p_ttr.engine.depots import stock_due
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.rules import pass_problem
from p2p_ttr.engine.state import GameState, Phase

from . import explain
from .commands import Handler
from .depotmoves import warehouse_question
from .examples import example_words, number
from .helptext import rules_page
from .outcomes import (
    CANCEL,
    Ask,
    Choice,
    Context,
    EndMeans,
    Leave,
    Note,
    Outcome,
    Play,
    Redraw,
    Refuse,
    Refused,
    Show,
    ShowWay,
    Start,
    end_means,
)
from .paying import Option, PaySpec, pay_spec, payment_in, settle, tunnel_claim
from .tickets import ticket_rows, way_between
from .words import (
    DASH,
    cities_matching,
    kinds_matching,
    take_city,
    plural,
    route_name,
    ticket_name,
)


# --------------------------------------------------------------- handlers
# Each takes the words after its verb and the context; ``verbs`` registers them.

Move = Callable[[list[str], GameState, int, tuple[str, ...]], Outcome]
PlaceCheck = Callable[[list[str], GameState], None]


def move(handler: Move, places: PlaceCheck | None = None) -> Handler:
    """A move's handler: the game must be on and it must be ours to act. A
    city or route that does not exist is wrong whoever's turn it is
    (``places``): that is said first."""

    def run(words: list[str], ctx: Context) -> Outcome:
        view, seat = _in_game(ctx)
        if places is not None:
            places(words, view)
        problem = explain.turn_problem(view, seat, ctx.names)
        if problem is not None:
            raise Refused(problem)
        return handler(words, view, seat, ctx.names)

    return run


def _in_game(ctx: Context) -> tuple[GameState, int]:
    if ctx.view is None or ctx.seat is None:
        raise Refused("the game has not started yet")
    return ctx.view, ctx.seat


def route_places(words: list[str], view: GameState) -> None:
    board = view.game.board
    if len(words) >= 2:
        a, rest = _take_city(board, words)
        if rest:
            _routes_between(board, a, _take_city(board, rest)[0])


def station_places(words: list[str], view: GameState) -> None:
    if not view.game.rules.stations:  # whatever the city, whoever's turn it is
        raise Refused(explain.no_stations(view))
    if words:
        _take_city(view.game.board, words)


def on_rules(words: list[str], ctx: Context) -> Outcome:
    return Show("Rules", rules_page(ctx.game))


def on_wait(words: list[str], ctx: Context) -> Outcome:
    return Note("waiting longer")


def on_show(words: list[str], ctx: Context) -> Outcome:
    return Redraw()


def on_start(words: list[str], ctx: Context) -> Outcome:
    if ctx.view is not None:
        raise Refused("the game has started already")
    return Start()


def on_quit(words: list[str], ctx: Context) -> Outcome:
    return _leave("quit", ctx)


def on_end(words: list[str], ctx: Context) -> Outcome:
    return _leave("end", ctx)


def on_forfeit(words: list[str], ctx: Context) -> Outcome:
    return _leave("forfeit", ctx)


def on_path(words: list[str], ctx: Context) -> Outcome:
    view, seat = _in_game(ctx)
    return _path(words, view, seat)


FORFEIT_QUESTION = "Forfeit for good? Your hand is shown; the table plays your seat."
# With two players nobody is left to play against: the game ends, conceded (protocol.md §6).
FORFEIT_ENDS_QUESTION = "Forfeit for good? The game ends, conceded to the other."


def _leave(verb: str, ctx: Context) -> Outcome:
    started = ctx.view is not None
    # The question and its choices share one line of a 100-column screen: keep
    # them short (`help quit` says the rest).
    ends = ctx.ends or end_means(ctx.hosting, False)
    if ends is EndMeans.PAUSE_ALL:
        end = Choice("end", "stop for everyone" + (" (ttr host --resume)" if ctx.hosting else ""), Leave(False))
    elif ends is EndMeans.CARRIED_ON:  # escrow: nothing waits for a seat that is gone
        end = Choice("end", "go: the others carry your seat on", Leave(False))
    else:
        end = Choice("end", "for now (ttr join again comes back)", Leave(False))
    forfeit = Choice("forfeit", "for good", Leave(True))
    if verb == "end":
        return end.outcome
    if verb == "forfeit":
        if not started:
            raise Refused("there is no seat to forfeit before the game starts: end leaves the lobby")
        # No way back, so a typed forfeit asks first (quit's menu is that question already).
        question = FORFEIT_ENDS_QUESTION if ctx.view is not None and ctx.view.n_players == 2 else FORFEIT_QUESTION
        return Ask(question, (Choice("forfeit", "yes", Leave(True)), CANCEL))
    choices = (end, forfeit, CANCEL) if started else (end, CANCEL)
    return Ask("Leave the game?", choices)


# ------------------------------------------------------------------ moves


def _city(board: Board, word: str) -> str:
    found = cities_matching(board, word)
    if len(found) == 1:
        return found[0]
    if found:
        raise Refused(f"no single city matches {word!r}: it could be {', '.join(found)}")
    near = board.city_spelt_like(word)
    raise Refused(f"no single city matches {word!r}: " + (f"the map spells it {near}?" if near else
                                                          "there is no such city on the map"))


def _take_city(board: Board, words: list[str]) -> tuple[str, list[str]]:
    """The city the first words name (a name may be several words: 'New York') and the words after it."""
    taken = take_city(board, words)
    if taken is None:
        return _city(board, words[0]), words[1:]  # refused: the word names no single city
    return taken[0], words[taken[1]:]


def _of(legal: list[Action], kind: type[Action]) -> list[Action]:
    return [a for a in legal if isinstance(a, kind)]


def _require(view: GameState, seat: int, legal: list[Action], kind: type[Action], doing: str) -> list[Action]:
    found = _of(legal, kind)
    if not found:
        raise Refused(explain.phase_problem(view, seat, doing))
    return found


def draw_move(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    legal = legal_actions(view, seat)
    if stock_due(view):  # Europe 1912's warehouses: the deck's top card goes on one first; ask which
        return warehouse_question(view, seat, names, " ".join(["draw", *words]),
                                  lambda stocked: draw_move(words, stocked, seat, names))
    if not _of(legal, DrawBlind) and not _of(legal, DrawFaceUp):
        raise Refused(explain.phase_problem(view, seat, "draw a train card"))
    if not words or words[0].lower() in ("deck", "blind", "top", "pile"):
        return _pick(legal, DrawBlind(seat), explain.draw_problem(view, None), "drawing from the deck")
    if words[0].isdigit():
        slot = int(words[0]) - 1
        kind = _face_up_kind(view, slot)
        return _pick(legal, DrawFaceUp(seat, slot), explain.draw_problem(view, slot),
                     f"taking {kind} from slot {slot + 1}")
    kinds = kinds_matching(view.game.board, words[0])
    if len(kinds) != 1:
        raise Refused(f"draw takes a face-up slot 1-5 or a colour on the face-up row, not {words[0]!r}")
    slots = [s for s, ref in enumerate(view.face_up) if ref is not None and _face_up_kind(view, s) == kinds[0]]
    if not slots:
        raise Refused(f"no {kinds[0]} card is face up")
    for slot in slots:
        if DrawFaceUp(seat, slot) in legal:
            return Play(DrawFaceUp(seat, slot), f"taking {kinds[0]} from slot {slot + 1}")
    raise Refused(explain.draw_problem(view, slots[0]) or f"you cannot take the face-up {kinds[0]} now")


def _face_up_kind(view: GameState, slot: int) -> str:
    ref = view.face_up[slot] if 0 <= slot < len(view.face_up) else None
    card = view.face(ref) if ref is not None else None
    return view.game.board.card_kind(card) if card is not None else "a card"


def _pick(legal: list[Action], action: Action, problem: str | None, said: str) -> Outcome:
    if action in legal:
        return Play(action, said)
    raise Refused(problem or "that is not a legal move now")


def tickets_move(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    legal = legal_actions(view, seat)
    problem = explain.tickets_problem(view)
    if problem is not None and view.phase is Phase.TURN and not view.cards_drawn:
        raise Refused(problem)
    (action,) = _require(view, seat, legal, DrawTickets, "draw destination tickets")
    return Play(action, "drawing destination tickets")


def keep_move(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    offered = view.players[seat].offered
    if not offered:
        raise Refused(f"you have no tickets to choose from (tickets draws {number(view.game.rules.draw_tickets.size)})")
    legal = _require(view, seat, legal_actions(view, seat), KeepTickets, "keep tickets")
    rows = ticket_rows(view, seat, offered)
    if [w.lower() for w in words] == ["all"]:
        want = set(offered)
    else:
        try:
            picks = {int(w) for w in words}
        except ValueError:
            raise Refused("keep takes the numbers of the offered tickets, e.g. keep 1 3, or keep all") from None
        if not picks or not picks <= set(range(1, len(offered) + 1)):
            raise Refused(f"{plural(len(offered), 'ticket is', 'tickets are')} offered: "
                          f"keep takes numbers from 1 to {len(offered)}")
        want = {offered[i - 1] for i in picks}
    for action in legal:
        assert isinstance(action, KeepTickets)
        if set(action.keep) == want:
            kept = [ticket_name(r.ticket) for r, ref in zip(rows, offered) if ref in want]
            return Play(action, "keeping " + ", ".join(kept))
    start = view.phase is Phase.SETUP_TICKETS
    raise Refused(f"keep at least {plural(explain.keep_least(view, seat), 'ticket')}"
                  + (" at the start of the game" if start else "") + explain.long_most(view, seat))


def claim_move(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    board = view.game.board
    two = "name the route's two cities: claim CITY CITY (e.g. claim {a} {b})".format_map(example_words(view.game))
    if len(words) < 2:
        raise Refused(two)
    a, after = _take_city(board, words)
    if not after:  # one city of several words: 'claim New York'
        raise Refused(two)
    b, rest = _take_city(board, after)
    routes = _routes_between(board, a, b)
    if rest and rest[0].lower() != "with":
        named = kinds_matching(board, rest[0])
        sides = [r for r in routes if r.color in named]
        if sides:
            routes, rest = sides, rest[1:]
        elif len(named) == 1 and all(r.color != GRAY for r in routes):
            colours = " or ".join(r.color for r in routes)
            raise Refused(f"{a}{DASH}{b} is {colours}, not {named[0]}")
    spec = pay_spec(rest, board)
    problems = [explain.route_problem(view, seat, r, names) for r in routes]
    open_routes = [r for r, p in zip(routes, problems) if p is None]
    if not open_routes:
        raise Refused("; ".join(dict.fromkeys(p for p in problems if p)))
    legal = _require(view, seat, legal_actions(view, seat), ClaimRoute, "claim a route")
    ids = {r.id for r in open_routes}
    options = []
    for action in legal:
        assert isinstance(action, ClaimRoute)
        if action.route in ids:
            route = board.routes[action.route]
            pay = payment_in(view, action.cards, route, seat)
            if spec.fits(pay):
                # Both sides of a double route open: the side's colour tells them apart.
                label = pay.describe() if len(ids) == 1 else f"{route.color} side, {pay.describe()}"
                options.append(Option(action, label, pay.locomotives,
                                      f"claiming {route_name(route)} with {pay.describe()}", pay))
    if not options:
        raise Refused(_cannot_pay(spec, route_name(open_routes[0]), explain.payment_problem(view, seat, *open_routes)))
    asked = route_name(open_routes[0]) if len(open_routes) == 1 else f"{a}{DASH}{b}"
    outcome = settle(options, f"How do you pay for {asked}?")
    if not open_routes[0].tunnel:
        return outcome
    if isinstance(outcome, Ask):
        return Ask(outcome.question + f" (a tunnel: it may ask for up to {view.game.rules.tunnel_cards} more of the "
                   "colour you pay "
                   "with, or locomotives)", outcome.choices)
    chosen = next(o for o in options if isinstance(outcome, Play) and o.action == outcome.action)
    assert isinstance(chosen.action, ClaimRoute) and chosen.pay is not None
    return tunnel_claim(view, seat, board.routes[chosen.action.route], chosen, chosen.pay)


def _routes_between(board: Board, a: str, b: str) -> list[Route]:
    routes = list(board.routes_between(a, b))
    if not routes:
        near = sorted({board.routes[r].other_end(a) for r in board.routes_at[a]})
        raise Refused(f"there is no route between {a} and {b}; from {a} routes go to {', '.join(near)}")
    return routes


def _cannot_pay(spec: PaySpec, what: str, problem: str) -> str:
    return f"{spec.words()} cannot pay for {what}: {problem}" if spec.given else problem


def station_move(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    if not words:
        raise Refused("name the city: station CITY (e.g. station {station})".format_map(example_words(view.game)))
    city, rest = _take_city(view.game.board, words)
    spec = pay_spec(rest, view.game.board)
    problem = explain.station_problem(view, seat, city, names)
    if problem is not None:
        raise Refused(problem)
    legal = legal_actions(view, seat)
    if not _of(legal, BuildStation) and view.cards_drawn == 0 and view.phase is Phase.TURN:
        raise Refused(explain.station_payment_problem(view, seat))
    legal = _require(view, seat, legal, BuildStation, "build a station")
    options = []
    for action in legal:
        assert isinstance(action, BuildStation)
        if action.city == city:
            pay = payment_in(view, action.cards)
            if spec.fits(pay):
                options.append(Option(action, pay.describe(), pay.locomotives,
                                      f"building a station in {city} with {pay.describe()}"))
    if not options:
        raise Refused(_cannot_pay(spec, f"a station in {city}", explain.station_payment_problem(view, seat)))
    return settle(options, f"How do you pay for the station in {city}?")


def pay_move(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    if view.tunnel is None or view.phase is not Phase.TUNNEL:
        raise Refused("there is no tunnel to pay for")
    spec = pay_spec(words, view.game.board)
    options = []
    for action in _of(legal_actions(view, seat), PayTunnel):
        assert isinstance(action, PayTunnel)
        pay = payment_in(view, action.cards)
        if spec.fits(pay):
            options.append(Option(action, pay.describe(), pay.locomotives, f"paying the tunnel with {pay.describe()}"))
    if not options:
        raise Refused(_cannot_pay(spec, "the tunnel", explain.tunnel_payment_problem(view, seat)))
    return settle(options, "Which cards pay for the tunnel?")


def abandon_move(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    if view.tunnel is None or view.phase is not Phase.TUNNEL:
        raise Refused("there is no tunnel to give up")
    route = view.game.board.routes[view.tunnel.route]
    return Play(AbandonTunnel(seat), f"giving up the tunnel {route.a}{DASH}{route.b}")


def pass_move(words: list[str], view: GameState, seat: int, names: tuple[str, ...]) -> Outcome:
    if view.phase is not Phase.TURN or view.cards_drawn:
        raise Refused(explain.phase_problem(view, seat, "pass"))
    problem = pass_problem(view, seat)
    if problem is not None:
        raise Refused(f"you cannot pass: {problem} (a pass is for a turn with nothing else to do)")
    return Play(Pass(seat), "passing: your hand is shown to prove there is nothing else to do")


# ------------------------------------------------------------------ paths


def _path(words: list[str], view: GameState, seat: int) -> Outcome:
    if words and words[0].lower() in ("off", "clear", "none"):
        return ShowWay(frozenset(), ("the path is no longer shown",))
    rows = ticket_rows(view, seat)
    if len(words) >= 2:
        board = view.game.board
        a, rest = _take_city(board, words)
        if rest:
            way = way_between(view, seat, a, _take_city(board, rest)[0])
            return ShowWay(frozenset(way.routes), tuple(way.lines()))
    if words:
        if not words[0].isdigit() or not 1 <= int(words[0]) <= len(rows):
            raise Refused(f"path takes a ticket number from 1 to {len(rows)} (as listed), or two cities"
                          if rows else "you hold no tickets yet: path CITY CITY shows any way")
        rows = [rows[int(words[0]) - 1]]
    else:
        rows = [r for r in rows if not r.done] or rows
    if not rows:
        raise Refused("you hold no tickets yet: path CITY CITY shows the way between any two cities")
    routes: set[int] = set()
    lines: list[str] = []
    for row in rows:
        way = way_between(view, seat, row.ticket.a, row.ticket.b)
        routes.update(way.routes)
        lines += way.lines(row.ticket.points)
    return ShowWay(frozenset(routes), tuple(lines))
