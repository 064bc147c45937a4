"""The plain line prompt: for scripts, pipes, and terminals too small or too
plain for the full-screen client.

Commands are the client's command language (p2p_ttr/client): they map onto
the legal actions of the player's own view, and every refusal says why.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable

from p2p_ttr.client import outcomes
from p2p_ttr.client.outcomes import Ask, Context, EndMeans, Outcome
from p2p_ttr.client.pagetext import lay_out
from p2p_ttr.client.phrases import changes, forfeits
from p2p_ttr.client.tickets import ticket_rows
from p2p_ttr.client.verbs import interpret
from p2p_ttr.client.words import card_kinds, kind_name, route_name, ticket_name
from p2p_ttr.engine.events import ClaimRoute
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.rules import hand_counts
from p2p_ttr.engine.state import GameState
from p2p_ttr.engine.view import view_for
from p2p_ttr.table.table import Table

from p2p_ttr.net.console import LineReader
from p2p_ttr.net.playerinput import Input, InputClosed, PlayerMove, Seen


PAGE_SIZE = (100, 24)  # help and the rules are laid out at the terminal's width; this, when there is none


class Human:
    """The plain line prompt: typed lines become moves through the client's command language."""

    def __init__(self, say: Callable[[str], None], hosting: bool = False) -> None:
        self.say = say
        self.hosting = hosting
        self.pending: Ask | None = None
        self.table: Table | None = None
        self.seat: int | None = None
        self.ends: EndMeans | None = None  # what `end` does now (the loop's owner knows)
        self._our_move = False
        self._engine: GameState | None = None
        self._before: GameState | None = None  # our view when the engine last changed
        self._forfeited: tuple[int, ...] = ()  # seats the table plays since they left

    def attach(self, table: Table | None, seat: int | None, ends: EndMeans | None = None) -> None:
        self.table, self.seat, self.ends = table, seat, ends

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.table.seats) if self.table is not None else ()

    def view(self) -> GameState | None:
        t, seat = self.table, self.seat
        if t is None or seat is None or t.engine is None:
            return None
        return view_for(t.engine, seat)

    def tick(self) -> None:
        """Tell what happened, and show the table when it becomes our move."""
        t, seat = self.table, self.seat
        if t is None or seat is None or t.engine is None:
            return
        forfeited = tuple(sorted(t.forfeited))
        if forfeited != self._forfeited:  # before the caretaker's moves
            for line in forfeits(self._forfeited, forfeited, seat, self.names, ended=len(t.in_play) < 2):
                self.say(line)
        self._forfeited = forfeited
        if t.engine is not self._engine:
            self._engine = t.engine
            now = view_for(t.engine, seat)
            for line in changes(self._before, now, seat, self.names) if self._before is not None else ():
                self.say(line)
            self._before = now
        state = self._before
        if state is None or t.finished:
            return
        ps = state.players[seat]
        ours = bool(legal_actions(state, seat)) and all(state.face(r) is not None for r in ps.hand + ps.offered)
        if ours and not self._our_move:
            self.say(self.render(state, seat) + "\nyour move (help for commands)")
        self._our_move = ours

    def render(self, state: GameState, seat: int) -> str:
        ps = state.players[seat]
        board = state.game.board
        counts = hand_counts(state, seat)
        row = [kind_name(board.card_kind(c)) if r is not None and (c := state.face(r)) is not None else "-"
               for r in state.face_up]
        lines = [
            "hand: " + (", ".join(f"{kind_name(k)} x{counts[k]}" for k in card_kinds(board) if counts.get(k))
                        or "empty")
            + f"   trains {ps.trains}" + (f", stations left {ps.stations_left}" if state.game.rules.stations else ""),
            "face-up: " + "  ".join(f"{i + 1}:{k}" for i, k in enumerate(row)),
        ]
        for label, refs in (("tickets", ps.tickets), ("offered", ps.offered)):
            rows = ticket_rows(state, seat, refs)
            if rows:
                lines.append(f"{label}: " + "; ".join(
                    f"{i + 1}:{ticket_name(r.ticket)}" + (" done" if r.done and label == "tickets" else "")
                    for i, r in enumerate(rows)))
        claims = sorted({route_name(board.routes[a.route])
                         for a in legal_actions(state, seat, ClaimRoute) if isinstance(a, ClaimRoute)})
        if claims:
            lines.append("you can claim: " + ", ".join(claims[:40]) + (" ..." if len(claims) > 40 else ""))
        return "\n".join(lines)

    def command(self, line: str) -> Input | None:
        """What a typed line asks of the loop, if anything (the rest is said here)."""
        if self.hosting and self.table is None and not line.strip():
            return outcomes.Start()  # Enter starts a hosted game, as on the full screen
        context = Context(self.view(), self.seat, self.names, self.hosting, ends=self.ends)
        outcome = interpret(line, context, self.pending)
        self.pending = None
        return self.act(outcome) if outcome is not None else None

    def act(self, outcome: Outcome) -> Input | None:
        match outcome:
            case outcomes.Play(action, text):
                self.say(text)
                return PlayerMove(action)
            case outcomes.Start() as start:
                return start
            case outcomes.Refuse(reason) | outcomes.Note(reason):
                self.say(reason)
            case outcomes.Ask():
                self.pending = outcome
                self.say(outcome.shown + "\n" + "\n".join(f"  {c.key}) {c.label}" for c in outcome.choices))
            case outcomes.Show(_, blocks):
                self.say("\n".join(lay_out(blocks, shutil.get_terminal_size(PAGE_SIZE).columns - 1)))
            case outcomes.ShowWay(_, lines):
                self.say("\n".join(lines))
            case outcomes.ShowNetwork(seat, lines):
                self.say("\n".join(lines) if seat is not None else
                         "map SEAT tells one player's network (the line prompt draws no map)")
            case outcomes.Redraw():
                state = self.view()
                self.say(self.render(state, self.seat) if state is not None and self.seat is not None
                         else "the game has not started yet")
            case outcomes.Leave() as leave:
                return leave
        return None


class PlainChannel:
    """The plain prompt as the loop's ``PlayerChannel``: lines from stdin,
    read on the loop's thread, become typed inputs."""

    def __init__(self, human: Human, reader: LineReader, seen: Callable[[], Seen]) -> None:
        self.human = human
        self.reader = reader
        self.seen = seen

    def _attach(self) -> None:
        now = self.seen()
        self.human.attach(now.table, now.seat, now.ends)

    def take(self) -> Input | None:
        line = self.reader.get()
        if line is None:
            return InputClosed()
        if line is False:
            return None
        assert isinstance(line, str)
        self._attach()
        return self.human.command(line)

    def turned(self) -> None:
        self._attach()
        self.human.tick()
