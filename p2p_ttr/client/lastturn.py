"""Each player's last turn, kept as the game goes, and told in a few words.

On a small screen the log has room for a few lines while the others write
several a round; this keeps, for every seat, what it did in its latest turn
("took blue, drew 1 card", "claimed Brindisi–Roma"), so the panel
can always show what happened since the player's own last turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2p_ttr.engine.board import Board
from p2p_ttr.engine.state import GameState

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
from .laying import LaidPiece
from .depotfacts import DepotPlaced, Emptied
from .markerfacts import Marked
from .monsterfacts import MonsterMoved
from .phrases import and_list
from .stocks import took_words
from .words import DASH, kind_name, plural

Moment = tuple[int, int]  # (the game's turn number, 0 setting up / 1 playing): when a fact happened


def moment_of(state: GameState) -> Moment:
    return (state.turn, 0 if state.phase in SETUP else 1)


@dataclass(frozen=True)
class Turn:
    """What one seat did in one turn (the one under way, or its latest)."""

    seat: int
    moment: Moment
    facts: tuple[Fact, ...]
    board: Board  # the game's, whose routes the facts name by id

    @property
    def claimed(self) -> tuple[int, ...]:
        return tuple(f.route for f in self.facts if isinstance(f, Claimed))

    @property
    def built(self) -> tuple[str, ...]:
        return tuple(f.city for f in self.facts if isinstance(f, Built))

    def words(self) -> str:
        """The turn in a few words, the deeds first: 'claimed Brindisi–Roma', 'took blue, drew 1 card'."""
        parts: list[str] = []
        parts += [f"claimed {_route(self.board, r)}" for r in self.claimed]
        parts += [f"built a station in {city}" for city in self.built]
        parts += [took_words(f.shares, f.dummy) for f in self.facts if isinstance(f, TookShares)]
        parts += [("started in " if f.start else "marker on ") + f.city for f in self.facts if isinstance(f, Marked)]
        parts += [f"{f.monster} to {f.city}" for f in self.facts if isinstance(f, MonsterMoved)]
        parts += [f"depot on {f.city}" for f in self.facts if isinstance(f, DepotPlaced)]
        parts += [f"took {f.count} from warehouse {f.owner + 1}" for f in self.facts if isinstance(f, Emptied)]
        given_up = [f.route for f in self.facts if isinstance(f, GaveUpTunnel)]
        # Few words: the longest tunnel's fit the 37 columns beside the players at 80x24.
        parts += [f"gave up tunnel {_route(self.board, r)}" for r in given_up]
        tried = [f for f in self.facts if isinstance(f, WentForTunnel) and f.route not in self.claimed + tuple(given_up)]
        turned = {f.route: f.extra for f in self.facts if isinstance(f, TunnelTurned)}
        parts += [f"tunnel {_route(self.board, f.route)}" + (f": {turned[f.route]} more" if f.route in turned else "")
                  for f in tried]
        parts += _draws(self.facts)
        parts += [f"laid {f.color} on {_route(self.board, f.route)}" for f in self.facts if isinstance(f, LaidPiece)]
        parts += _tickets(self.facts)
        if any(isinstance(f, Passed) for f in self.facts):
            parts.append("passed")
        return ", ".join(parts)


def _route(board: Board, r: int) -> str:
    route = board.routes[r]
    return f"{route.a}{DASH}{route.b}"


def _draws(found: tuple[Fact, ...]) -> list[str]:
    taken = [k for f in found if isinstance(f, TookFaceUp) for k in f.kinds]
    read = [k for f in found if isinstance(f, ReadOwn) for k in f.kinds]
    blind = sum(f.count for f in found if isinstance(f, DrewBlind))
    # Short, to fit a row of the panel: "took" is the face-up row's, "drew" the deck's.
    parts = []
    if taken:
        parts.append("took " + and_list([kind_name(k) for k in taken]))
    unread = blind - len(read)  # our own cards are named once read; the others' never are
    if read:
        parts.append("drew " + and_list([kind_name(k) for k in read] + ([plural(unread, "card")] if unread > 0 else [])))
    elif blind:
        parts.append(f"drew {plural(blind, 'card')}")
    return parts


def _tickets(found: tuple[Fact, ...]) -> list[str]:
    kept = [f for f in found if isinstance(f, KeptTickets)]
    drawn = any(isinstance(f, DrewTickets) for f in found)
    if kept:
        n = sum(f.count for f in kept)
        return [("kept " if kept[0].first else "drew tickets, kept ") + plural(n, "ticket")]
    return ["drew tickets, choosing"] if drawn else []


@dataclass(frozen=True)
class LastTurns:
    """Every seat's latest turn and the one before it (None: none yet)."""

    turns: tuple[Turn | None, ...] = ()
    previous: tuple[Turn | None, ...] = ()

    def of(self, seat: int) -> Turn | None:
        return self.turns[seat] if 0 <= seat < len(self.turns) else None

    def after(self, before: GameState, after: GameState, me: int | None) -> LastTurns:
        """These turns, with what happened between two views of the game."""
        grow = [None] * (after.n_players - len(self.turns))
        turns, previous = list(self.turns) + grow, list(self.previous) + grow
        moment = moment_of(before)
        for fact in facts(before, after, me):
            turn = turns[fact.seat]
            # Our own cards from the deck are read a moment after the draw, often after the turn:
            # they belong to the latest turn, the one that drew them.
            if turn is not None and (turn.moment == moment or isinstance(fact, ReadOwn)):
                turns[fact.seat] = Turn(fact.seat, turn.moment, turn.facts + (fact,), after.game.board)
            else:
                previous[fact.seat] = turn
                turns[fact.seat] = Turn(fact.seat, moment, (fact,), after.game.board)
        return LastTurns(tuple(turns), tuple(previous))

    def since(self, seat: int, me: int, now: GameState) -> bool:
        """Whether ``seat``'s latest turn came after ``me``'s last finished one."""
        theirs, mine = self.of(seat), self.of(me)
        if mine is not None and mine.moment == moment_of(now):
            mine = self.previous[me]  # ours is under way: since the one before it
        return theirs is not None and (mine is None or theirs.moment > mine.moment)

    def others_since(self, me: int, now: GameState) -> list[Turn]:
        """The others' latest turns that came after ``me``'s last finished one."""
        return [t for t in self.turns if t is not None and t.seat != me and self.since(t.seat, me, now)]
