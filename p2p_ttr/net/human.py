"""A plain line-based prompt: enough to play until the full-screen client.

Commands map to engine actions through ``legal_actions``: the first legal
action that matches is taken (and said so when several payments fit).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from p2p_ttr.engine.board import europe
from p2p_ttr.engine.events import (
    AbandonTunnel,
    Action,
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    PayTunnel,
)
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.view import view_for
from p2p_ttr.table.table import Table

from .console import Forfeit, Quit

HELP = """commands:
  show                      the state: your hand, the face-up row, your tickets, routes you can claim
  draw                      draw a card from the deck        draw N   take face-up card N (1-5)
  claim CITY CITY [COLOUR]  claim a route                    station CITY [COLOUR]  build a station
  tickets                   draw destination tickets         keep N [N...]  keep offered tickets
  pay                       pay a tunnel's extra cards       abandon  give up the tunnel
  wait                      keep waiting after a timeout     end      stop here (the log stays on disk)
  forfeit                   leave for good: your cards are shown and the table plays your seat on"""


class Human:
    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say
        self.queued: Action | None = None
        self.table: Table | None = None
        self.seat: int | None = None
        self._our_move = False

    # The Decider the table's Peer calls.
    def choose(self, view: GameState, seat: int) -> Action | None:
        action, self.queued = self.queued, None
        return action

    def attach(self, table: Table | None, seat: int | None) -> None:
        self.table, self.seat = table, seat

    def tick(self) -> None:
        """Show the state when it becomes our move."""
        t, seat = self.table, self.seat
        if t is None or seat is None or t.engine is None or t.finished:
            return
        state = view_for(t.engine, seat)
        ps = t.engine.players[seat]
        ours = bool(legal_actions(state, seat)) and all(t.engine.face(r) is not None for r in ps.hand + ps.offered)
        if ours and not self._our_move:
            self.say(self.render(state, seat) + "\nyour move (help for commands)")
        self._our_move = ours

    def render(self, state: GameState, seat: int) -> str:
        board = europe()
        ps = state.players[seat]
        hand = Counter(board.card_kind(c) for r in ps.hand if (c := state.face(r)) is not None)
        row = [board.card_kind(c) if r is not None and (c := state.face(r)) is not None else "-" for r in state.face_up]
        lines = [
            f"hand: {', '.join(f'{k} x{n}' for k, n in sorted(hand.items())) or 'empty'}"
            f"   trains {ps.trains}, stations left {ps.stations_left}",
            "face-up: " + "  ".join(f"{i + 1}:{k}" for i, k in enumerate(row)),
        ]
        for label, refs in (("tickets", ps.tickets), ("offered", ps.offered)):
            shown = []
            for i, r in enumerate(refs):
                t = state.face(r)
                if t is not None:
                    tk = board.tickets[t]
                    shown.append(f"{i + 1}:{tk.a}-{tk.b} ({tk.points})")
            if shown:
                lines.append(f"{label}: " + "; ".join(shown))
        claims = sorted({f"{board.routes[a.route].a}-{board.routes[a.route].b} ({board.routes[a.route].color})"
                         for a in legal_actions(state, seat, ClaimRoute) if isinstance(a, ClaimRoute)})
        if claims:
            lines.append("you can claim: " + ", ".join(claims[:40]) + (" ..." if len(claims) > 40 else ""))
        return "\n".join(lines)

    def command(self, line: str) -> None:
        words = line.split()
        if not words:
            return
        verb, args = words[0].lower(), words[1:]
        if verb == "help":
            self.say(HELP)
            return
        if verb == "wait":
            self.say("waiting longer")
            return
        if verb == "forfeit":
            raise Forfeit()
        if verb == "end":
            raise Quit("game ended at the keyboard; the log stays on disk (`ttr verify` reads it)")
        t, seat = self.table, self.seat
        if t is None or seat is None or t.engine is None:
            self.say("the game has not started yet")
            return
        state = view_for(t.engine, seat)
        if verb == "show":
            self.say(self.render(state, seat))
            return
        legal = legal_actions(state, seat)
        if not legal:
            self.say("it is not your move")
            return
        try:
            matches = self._match(verb, args, legal, state)
        except ValueError as exc:
            self.say(str(exc))
            return
        if not matches:
            self.say(f"{line!r} is not a legal move now (help for commands)")
            return
        if len(matches) > 1:
            self.say(f"{len(matches)} payments fit; paying with the first")
        self.queued = matches[0]

    def _match(self, verb: str, args: list[str], legal: list[Action], state: GameState) -> list[Action]:
        board = europe()

        def city(name: str) -> str:
            found = [c for c in board.cities if c.lower() == name.lower()] or [
                c for c in board.cities if c.lower().startswith(name.lower())]
            if len(found) != 1:
                raise ValueError(f"no single city called {name!r}")
            return found[0]

        def colour_ok(cards: tuple[object, ...], colour: str | None) -> bool:
            if colour is None:
                return True
            kinds = {board.card_kind(c) for r in cards if (c := state.face(r)) is not None}  # type: ignore[arg-type]
            return colour.lower() in kinds

        if verb == "draw":
            if not args:
                return [a for a in legal if isinstance(a, DrawBlind)]
            if not args[0].isdigit():
                raise ValueError("draw N takes a face-up slot 1-5")
            return [a for a in legal if isinstance(a, DrawFaceUp) and a.slot == int(args[0]) - 1]
        if verb == "tickets":
            return [a for a in legal if isinstance(a, DrawTickets)]
        if verb == "keep":
            offered = state.players[self.seat or 0].offered
            try:
                want = {offered[int(n) - 1] for n in args}
            except (ValueError, IndexError):
                raise ValueError("keep takes the numbers of offered tickets, e.g. keep 1 3") from None
            return [a for a in legal if isinstance(a, KeepTickets) and set(a.keep) == want]
        if verb == "claim":
            if len(args) < 2:
                raise ValueError("claim CITY CITY [COLOUR]")
            a, b = city(args[0]), city(args[1])
            if not any({r.a, r.b} == {a, b} for r in board.routes):
                raise ValueError(f"there is no route between {a} and {b}")
            colour = args[2] if len(args) > 2 else None
            found: list[Action] = [x for x in legal if isinstance(x, ClaimRoute)
                     and {board.routes[x.route].a, board.routes[x.route].b} == {a, b} and colour_ok(x.cards, colour)]
            if not found:
                raise ValueError(f"you cannot claim {a}-{b} now: it is taken, or your hand cannot pay for it"
                                 + (f" in {colour}" if colour else "") + " (show lists what you can claim)")
            return found
        if verb == "station":
            if not args:
                raise ValueError("station CITY [COLOUR]")
            c = city(args[0])
            colour = args[1] if len(args) > 1 else None
            return [x for x in legal if isinstance(x, BuildStation) and x.city == c and colour_ok(x.cards, colour)]
        if verb == "pay":
            return [a for a in legal if isinstance(a, PayTunnel)]
        if verb == "abandon":
            return [a for a in legal if isinstance(a, AbandonTunnel)]
        raise ValueError(f"unknown command {verb!r} (help for commands)")
