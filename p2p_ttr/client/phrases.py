"""The game in words: what just happened, and what the table waits for.

Moves are read off the difference between two views of the game, so the log
needs nothing but the states the client already has: a route that gained an
owner was claimed, a hand that gained a face-up card took it. A player's
own view knows their cards, so their log says which cards they drew.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from p2p_ttr.engine.board import LOCOMOTIVE
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.rules import pass_problem
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.table.obligations import Obligation, Owed

from .giveup import relay_silence_words, silence_words
from .livenessfacts import RelaySilence
from .happened import (
    SETUP,
    Built,
    Claimed,
    DrewBlind,
    DrewTickets,
    Fact,
    GaveUpTunnel,
    KeptTickets,
    Passed,
    ReadOwn,
    TookFaceUp,
    TookShares,
    TunnelTurned,
    WentForTunnel,
    facts,
)
from .examples import doable
from .explain import keep_least, long_most
from .laying import LaidPiece, laid_words, what_to_lay
from .depotfacts import DepotPlaced, Emptied, Stocked
from .depotmoves import DEPOT_WAITING, depot_now
from .markerfacts import AlvinTaken, Marked, PointsMoved
from .markerwords import marker_now, marker_waiting
from .monsterfacts import MonsterMoved
from .monsterwords import monster_now, monster_waiting
from .numbering import seat_number
from .stocks import share_prompt, took_words
from .words import DASH, color_words, plural, route_name, route_points, ticket_name, who, whose


def cards_words(found: Iterable[str]) -> str:
    """'2 red and a locomotive'."""
    counts = Counter(found)
    parts = [("a locomotive" if n == 1 else f"{n} locomotives") if kind == LOCOMOTIVE else f"{n} {kind}"
             for kind, n in counts.items()]
    return and_list(parts) or "nothing"


def and_list(parts: Sequence[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


class Kind(Enum):
    """What a line of the move log is about, for the screen to style it."""

    MINE = "mine"  # a move of the player who reads it
    MOVE = "move"  # anyone else's move, or the table's
    FINAL = "final"  # the final round begins


@dataclass(frozen=True)
class Told:
    """One line of the move log: its words and what it is about."""

    text: str
    kind: Kind = Kind.MOVE


def changes(before: GameState, after: GameState, me: int | None, names: tuple[str, ...]) -> list[str]:
    """What happened between two views of one game, in words (see ``told``)."""
    return [line.text for line in told(before, after, me, names)]


def told(before: GameState, after: GameState, me: int | None, names: tuple[str, ...]) -> list[Told]:
    """What happened between two views of one game, in the order a player
    would tell it, each line marked with what it is about."""
    lines: list[Told] = []
    # Our own cards from the deck are told once read, by name (ReadOwn), not when drawn.
    moves = [f for f in facts(before, after, me) if not (isinstance(f, DrewBlind) and f.seat == me)]
    lines += [Told(sentence(f, me, names, after.game), Kind.MINE if f.seat == me else Kind.MOVE)
              for f in moves if not isinstance(f, Passed)]
    # After the last choice, which it follows from (or Alvin & Dexter's placing, which follows that).
    if (before.phase in SETUP or before.phase is Phase.MONSTERS) and after.phase is Phase.TURN:
        lines.append(Told(f"everyone has chosen their tickets; {who(after.current, me, names)} "
                          f"{'play' if after.current == me else 'plays'} first"))
    if before.final_turns_left is None and after.final_turns_left is not None:
        last = before.current
        have = "have" if last == me else "has"
        lines.append(Told(f"FINAL ROUND: {who(last, me, names, True)} {have} "
                          f"{plural(after.players[last].trains, 'train')} left; everyone plays one last turn",
                          Kind.FINAL))
    lines += [Told(sentence(f, me, names, after.game), Kind.MINE if f.seat == me else Kind.MOVE)
              for f in moves if isinstance(f, Passed)]
    if before.epoch >= 0 and after.epoch > before.epoch:
        lines.append(Told("the discard pile was shuffled into a new deck"))
    if after.phase in (Phase.SCORING, Phase.OVER) and before.phase not in (Phase.SCORING, Phase.OVER):
        lines.append(Told(conceded_words(after, me, names) if after.conceded
                          else "nobody can do anything more: the game ends" if after.stalled
                          else "the game is over: every ticket is turned over for the final count", Kind.FINAL
                          if after.conceded else Kind.MOVE))
    return lines


def sentence(fact: Fact, me: int | None, names: tuple[str, ...], game: Game) -> str:
    """One fact of ``game`` as a line of the log: 'Bob claimed Paris–Frankfurt (orange, 3) for 4 points'."""
    name = who(fact.seat, me, names, True)
    board = game.board
    match fact:
        case Claimed(route=r, color=color):
            route = board.routes[r]
            return (f"{name} claimed {route.a}{DASH}{route.b} ({color or color_words(route)}, {route.length}) "
                    f"for {plural(route_points(board, route), 'point')}")
        case Built(city=city):
            return f"{name} built a station in {city}"
        case TookFaceUp(kinds=taken):
            return f"{name} took {cards_words(taken)} from the face-up row"
        case ReadOwn(kinds=read):
            return f"{name} drew {cards_words(read)} from the deck"
        case DrewBlind(count=n):
            return f"{name} drew {plural(n, 'card')} from the deck"
        case DrewTickets(count=n):
            return f"{name} drew {plural(n, 'destination ticket')}"
        case KeptTickets(count=n, returned=back, tickets=named):
            what = and_list([ticket_name(board.tickets[t]) for t in named]) if named else plural(n, "ticket")
            return f"{name} kept {what}" + (f"; returned {back}" if back > 0 else "")
        case WentForTunnel(route=r):
            return f"{name} went for the tunnel {route_name(board.routes[r])}"
        case TunnelTurned(kinds=turned, extra=0):
            return f"the tunnel turned up {cards_words(turned)}: nothing more to pay"
        case TunnelTurned(kinds=turned, extra=extra):
            return (f"the tunnel turned up {cards_words(turned)}: {who(fact.seat, me, names)} must pay {extra} more "
                    "or give it up")
        case GaveUpTunnel(route=r):
            return f"{name} gave up the tunnel {board.routes[r].a}{DASH}{board.routes[r].b}"
        case TookShares(shares=shares, dummy=dummy):
            return f"{name} {took_words(shares, dummy)}"
        case LaidPiece():
            return laid_words(fact, name, board)
        case Marked(city=city, start=True):
            return f"{name} started in {city} (a city marker)"
        case Marked(city=city):
            return f"{name} put a city marker on {city}"
        case PointsMoved(route=r, points=points, scorers=scorers):
            owners = and_list([who(s, me, names) for s in dict.fromkeys(scorers)])
            twice = " twice" if len(set(scorers)) < len(scorers) else ""
            route = board.routes[r]
            return (f"the {plural(points, 'point')} of {route.a}{DASH}{route.b} went{twice} to {owners} "
                    "(city markers on its ends)")
        case AlvinTaken(points=0, city=city):
            return f"{name} took Alvin the Alien to {city}"
        case AlvinTaken(points=points, city=city):
            return (f"{name} captured Alvin the Alien for {plural(points, 'point')}"
                    + (f" and took him to {city}" if city else ""))
        case MonsterMoved(monster=monster, city=city, placed=True):
            return f"{name} put {monster} on {city}: a City in Chaos"
        case MonsterMoved(monster=monster, city=city):
            return f"{name} took a card of {monster} and moved him to {city}"
        case DepotPlaced(city=city):
            return f"{name} put a depot on {city}"
        case Stocked(owner=owner, count=count):
            return (f"{name} put {'the top card' if count == 1 else plural(count, 'card')} of the deck, unseen, "
                    f"on {_warehouse_of(owner, fact.seat, me, names)}")
        case Emptied(owner=owner, count=count):
            return (f"{name} took the {plural(count, 'card')} of {_warehouse_of(owner, fact.seat, me, names)} "
                    "(a depot back to the box)")
        case Passed():
            return f"{name} passed: nothing left to {'draw, claim or build' if game.rules.stations else 'draw or claim'}"


def _warehouse_of(owner: int, actor: int, me: int | None, names: tuple[str, ...]) -> str:
    """'Bob's warehouse', 'your warehouse', or the actor's own: 'their own warehouse' ('your own' for you)."""
    if owner == actor:
        return "your own warehouse" if owner == me else "their own warehouse"
    return f"{whose(owner, me, names)} warehouse"


def conceded_words(state: GameState, me: int | None, names: tuple[str, ...]) -> str:
    """How a conceded game ended, and who won by it."""
    winner = state.conceded_to
    if winner is None:
        return ("the game is conceded: nobody is left playing their own seat; it is scored as it stands "
                "(every ticket is turned over)")
    wins = "win" if winner == me else "wins"
    return (f"the game is conceded: {who(winner, me, names)} {'are' if winner == me else 'is'} the last one "
            f"playing and {wins} by concession; the others are ranked by the usual count")


def forfeits(before: Collection[int], after: Collection[int], me: int | None, names: tuple[str, ...],
             carried: Collection[int] = (), ended: bool = False) -> list[str]:
    """Seats that forfeited, or were carried on (``carried``), between two
    looks at the table. The views cannot tell: a forfeit is the table's
    business (it plays the seat from then on), so the client compares the
    table's forfeited seats instead. ``ended``: that left fewer than two
    seats in play, so the table plays no seat on: the game ends."""
    lines = []
    for p in sorted(set(after) - set(before)):
        their = "your" if p == me else "their"
        if p in carried:
            owner = "Your" if p == me else whose(p, me, names)  # a name stays as its player wrote it
            lines.append(f"{owner} seat is carried on: the others opened "
                         f"{'your' if p == me else 'its'} key from escrow; the table plays it from now on "
                         f"({their} cards are shown)")
        elif ended:  # fewer than two seats in play: nobody plays on (the conceded end is told next)
            lines.append(f"{who(p, me, names, True)} forfeited ({their} cards are shown)")
        else:
            lines.append(f"{who(p, me, names, True)} forfeited: the table plays {their} seat from now on "
                         f"({their} cards are shown)")
    return lines


def carry_on_asks(before: Mapping[int, Collection[int]], after: Mapping[int, Collection[int]],
                  in_play: Collection[int], me: int | None, names: tuple[str, ...]) -> list[str]:
    """New requests to carry a silent seat on, and requests that lapsed
    because the seat came back, between two looks at the table."""
    lines = []
    for target, asked in sorted(after.items()):
        needed = len(set(in_play) - {target})
        for n, seat in enumerate(sorted(set(asked) - set(before.get(target, ()))), start=len(before.get(target, ())) + 1):
            ask = "ask" if seat == me else "asks"
            lines.append(f"{who(seat, me, names, True)} {ask} to carry on {whose(target, me, names)} seat "
                         f"({n} of {needed})")
    for target in sorted(set(before) - set(after)):
        if target in in_play:
            back = "are" if target == me else "is"
            lines.append(f"{who(target, me, names, True)} {back} back: the requests to carry "
                         f"{'your' if target == me else 'their'} seat on lapse")
    return lines


# ------------------------------------------------------------------ waiting


def what_now(view: GameState, seat: int) -> str:
    """What the player at ``seat`` is to do now."""
    if view.phase is Phase.SETUP_TICKETS:
        return f"keep at least {keep_least(view, seat)} of your first tickets{long_most(view, seat)} (keep N N ...)"
    if view.phase is Phase.TICKETS:
        return f"keep at least {keep_least(view, seat)} of the tickets drawn{long_most(view, seat)} (keep N ...)"
    if view.phase is Phase.TUNNEL and view.tunnel is not None:
        return f"pay {view.tunnel.extra} more for the tunnel, or abandon it"
    if view.phase is Phase.SHARES:
        return share_prompt(view, seat)
    if view.phase is Phase.LAY_TRACK:
        return what_to_lay()
    marking = marker_now(view, seat) or monster_now(view, seat) or depot_now(view, seat)
    if marking is not None:
        return marking
    if view.cards_drawn:
        return "take your second card (draw, or draw N)"
    stations = view.game.rules.stations > 0
    if pass_problem(view, seat) is None:
        return f"nothing can be {doable(view.game)}: pass"
    return "draw, claim, tickets or station" if stations else "draw, claim or tickets"


_DOING = {
    Owed.KEYS: "to set up their part of the deck",
    Owed.SHUFFLE: "to shuffle the deck",
    Owed.REMASK: "to hide the returned tickets again",
    Owed.SHUFFLE_PROOF: "to show that their shuffle was fair",
    Owed.REMASK_PROOF: "to show that they hid the returned tickets fairly",
    Owed.MIX: "to shuffle the returned tickets into the deck",
    Owed.MIX_PROOF: "to show that they shuffled the returned tickets fairly",
    Owed.SHARES: "to add their share to the cards being turned",
    Owed.AUDIT: "to reveal their secrets for the audit",
    Owed.ESCROW: "to escrow their secrets with the others",
    Owed.ESCROW_SHARE: "to hand over their share of the escrow of a seat carried on",
}


@dataclass(frozen=True)
class Status:
    """The status line: its words, and whether it asks us to move or says
    whom the table waits for."""

    text: str
    our_move: bool = False
    waiting: bool = False
    aside: str = ""  # which of the awaited seats send no heartbeat (said before the rest)


def status_of(owed: Sequence[Obligation], view: GameState | None, me: int | None,
              names: tuple[str, ...], silent: Mapping[int, int] | None = None,
              relay_silent: RelaySilence | None = None) -> Status:
    """The status line, from who owes what now; ``silent``: seconds without a
    heartbeat of each seat the relay calls silent (a seat we wait for that is
    silent is no longer thinking: its program stopped or its network is down);
    ``relay_silent``: the peer we follow has sent nothing for a while (said
    first, on our move too: a move sent now waits for it)."""
    relay = relay_silence_words(relay_silent, names)
    if view is not None and any(o.seat == me and o.what is Owed.MOVE for o in owed) and me is not None:
        return Status(waiting_words(owed, view, me, names), our_move=True, aside=relay)
    awaited = sorted({o.seat for o in owed if o.seat != me})
    seats = silence_words([(seat, silent[seat]) for seat in awaited if silent and seat in silent], names)
    aside = "; ".join(a for a in (relay, seats) if a)
    return Status(waiting_words(owed, view, me, names), waiting=bool(awaited), aside=aside)


def waiting_words(owed: Sequence[Obligation], view: GameState | None, me: int | None,
                  names: tuple[str, ...]) -> str:
    """'your move: ...', 'waiting for Bob's share', from who owes what now."""
    if view is not None and any(o.seat == me and o.what is Owed.MOVE for o in owed) and me is not None:
        return "your move: " + what_now(view, me)
    others = [o for o in owed if o.seat != me]
    if not others:
        return "your machine is working on its part of the deck" if owed else ""  # (no duty's code name)
    by_what: dict[Owed, list[str]] = {}
    for o in others:
        by_what.setdefault(o.what, [])
        name = names[o.seat] if o.seat < len(names) else f"seat {seat_number(o.seat)}"
        if name not in by_what[o.what]:
            by_what[o.what].append(name)
    parts = []
    for what, people in by_what.items():
        if what is Owed.MOVE:
            parts.append(_move_words(view, people))
        elif what is Owed.SHARES and len(people) == 1:
            parts.append(f"{people[0]}'s share")
        else:
            parts.append(f"{and_list(people)} {_DOING[what]}")
    return "waiting for " + "; ".join(parts)


def _move_words(view: GameState | None, people: list[str]) -> str:
    if view is not None and view.phase is Phase.SETUP_TICKETS:
        return f"{and_list(people)} to choose their first tickets"
    if view is not None and view.phase is Phase.TICKETS:
        return f"{and_list(people)} to choose tickets"
    if view is not None and view.phase is Phase.TUNNEL:
        return f"{and_list(people)} to pay for the tunnel or give it up"
    if view is not None and view.phase is Phase.SHARES:
        return f"{and_list(people)} to choose a share"
    marking = (marker_waiting(view, and_list(people)) or monster_waiting(view, and_list(people))
               if view is not None else None)
    if view is not None and view.phase in DEPOT_WAITING:
        marking = f"{and_list(people)} {DEPOT_WAITING[view.phase]}"
    if marking is not None:
        return marking
    return f"{and_list(people)}'s move" if len(people) == 1 else f"{and_list(people)} to move"
