"""The full-screen client: prompt_toolkit around the pure screen.

One control draws the whole screen from ``p2p_ttr.client.screen.render``
(a pure function of the latest snapshot and of what the player has open);
below it, one input line with completion and history. Typed lines are
read by ``interpret`` against the snapshot; moves go to the network thread
through the bridge.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import cast

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import FloatContainer, HSplit, Layout, Window
from prompt_toolkit.layout.containers import Float
from prompt_toolkit.layout.controls import BufferControl, UIContent, UIControl
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.processors import BeforeInput

from p2p_ttr.client import outcomes
from p2p_ttr.client.lastturn import moment_of
from p2p_ttr.client.outcomes import Ask, Context, Outcome
from p2p_ttr.client.overview import overview
from p2p_ttr.client.screen import Echo, Page, ScreenModel, frame, render, scrolled
from p2p_ttr.client.styled import Line
from p2p_ttr.client.verbs import complete, interpret

from p2p_ttr.net.playerinput import PlayerMove

from .bridge import Bridge
from .style import build_style

PROMPT = "> "


class ScreenControl(UIControl):
    """Draws whatever ``draw(width, height)`` returns, at the window's size."""

    def __init__(self, draw: Callable[[int, int], list[Line]]) -> None:
        self.draw = draw

    def create_content(self, width: int, height: int) -> UIContent:
        # Our lines are prompt_toolkit's formatted text already: (style, text) pairs.
        lines = [cast(StyleAndTextTuples, line) for line in self.draw(width, height)]
        return UIContent(get_line=lambda i: lines[i] if i < len(lines) else [], line_count=len(lines),
                         show_cursor=False)

    def is_focusable(self) -> bool:
        return False


class GameCompleter(Completer):
    """Tab completion for the full screen, from the client's ``complete``."""

    def __init__(self, context: Callable[[], Context]) -> None:
        self.context = context

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        if not document.text_before_cursor.strip() and not complete_event.completion_requested:
            return  # an empty line pops no menu up by itself; Tab lists the commands
        for s in complete(document.text_before_cursor, self.context()):
            yield Completion(s.text, start_position=-s.start, display_meta=s.meta)


class Client:
    """The screen's own state (the page open, the echo, a highlighted path)
    and what a typed line does to it."""

    def __init__(self, bridge: Bridge, hosting: bool) -> None:
        self.bridge = bridge
        self.hosting = hosting
        self.echo = Echo("type a command (help lists them; Tab completes)")
        self.pending: Ask | None = None
        self.page: Page | None = None
        self.highlight: frozenset[int] = frozenset()
        self.focus: int | None = None  # the seat whose network the map shows alone
        self.log_top: int | None = None  # the log's first row shown; None: its end
        self.size = (100, 29)  # the screen's, as last drawn: a scroll moves by what it shows
        self.ending: Page | None = None  # the last page: Enter leaves
        self._our_move = False
        self._started = False
        self.buffer = Buffer(completer=GameCompleter(self.context), history=InMemoryHistory(), multiline=False,
                             complete_while_typing=True, accept_handler=self._accept)
        self.app: Application[int] = Application(layout=self._layout(), key_bindings=self._keys(),
                                                 style=build_style(), full_screen=True)

    # ---------------------------------------------------------------- layout

    def _layout(self) -> Layout:
        screen = Window(ScreenControl(self.draw))
        line = Window(BufferControl(self.buffer, input_processors=[BeforeInput(PROMPT)]), height=1)
        menu = Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=10, scroll_offset=1))
        return Layout(FloatContainer(HSplit([screen, line]), floats=[menu]), focused_element=line)

    def draw(self, width: int, height: int) -> list[Line]:
        snap = self.bridge.publisher.snapshot
        if snap.our_move and not self._our_move:
            self.app.output.bell()
        self._our_move = snap.our_move
        if snap.started and not self._started:
            # What was said in the lobby ("the game has not started yet") is stale now.
            self.echo = Echo("the game has started: type a command (help lists them; Tab completes)",
                             said_at=moment_of(snap.view) if snap.view is not None else None)
        self._started = snap.started
        self.size = (width, height)
        return render(self.model(), width, height)

    def model(self) -> ScreenModel:
        """What the screen shows now."""
        return ScreenModel(self.bridge.publisher.snapshot, self.echo, self.highlight, self.page, self.log_top,
                           self.focus)

    def has_map(self) -> bool:
        """Whether the screen, at its size, has room for the map."""
        parts = frame(self.model(), *self.size)
        return parts is not None and parts.with_map

    def context(self) -> Context:
        snap = self.bridge.publisher.snapshot
        return Context(snap.view, snap.seat, snap.names, self.hosting, self.pending, snap.ends)

    # ------------------------------------------------------------------ keys

    def _keys(self) -> KeyBindings:
        keys = KeyBindings()

        @keys.add("escape", eager=True)
        def _close(event: KeyPressEvent) -> None:
            self.close_page()

        @keys.add("pageup")
        def _up(event: KeyPressEvent) -> None:
            self._scroll(-1)

        @keys.add("pagedown")
        def _down(event: KeyPressEvent) -> None:
            self._scroll(1)

        @keys.add("q", filter=Condition(lambda: self.ending is not None and not self.buffer.text))
        def _leave(event: KeyPressEvent) -> None:
            self.app.exit(result=0)  # the last page says "Enter or q leaves"

        @keys.add("c-c")
        @keys.add("c-d")
        def _quit(event: KeyPressEvent) -> None:
            if self.ending is not None:
                self.app.exit(result=0)
            else:
                self.run_line("quit")

        return keys

    def close_page(self) -> None:
        """Esc: the page open closes (not the last one: Enter leaves it), and the line typed is cleared."""
        if self.page is not None and self.ending is None:
            self.page = None
        self.buffer.reset()

    def _scroll(self, pages: int) -> None:
        """The open page, else the log, by as many rows as the screen shows of it."""
        moved = scrolled(self.model(), *self.size, pages)
        if self.ending is not None and self.page is self.ending:
            self.ending = moved.page
        self.page = moved.page
        self.log_top = moved.log_top

    # ----------------------------------------------------------------- lines

    def _accept(self, buffer: Buffer) -> bool:
        self.run_line(buffer.text)
        return False  # clear the line (it is kept in the history)

    def run_line(self, line: str) -> None:
        if self.ending is not None:
            self.app.exit(result=0)
            return
        snap = self.bridge.publisher.snapshot
        if not line.strip() and snap.role == "host" and not snap.started:
            self.apply(outcomes.Start())
            return
        pending, self.pending = self.pending, None
        outcome = interpret(line, self.context(), pending)
        if outcome is not None:
            self.apply(outcome)

    def apply(self, outcome: Outcome) -> None:
        self._answer(outcome)
        view = self.bridge.publisher.snapshot.view
        if view is not None and isinstance(outcome, outcomes.Play):
            # A move's answer ("claiming Wien–Budapest") holds at the moment it
            # answered: once the game moves on, it goes. A refusal or a note
            # stays until the next command: the others' turns must not wipe
            # the reason before it is read.
            self.echo = replace(self.echo, said_at=moment_of(view))

    def _answer(self, outcome: Outcome) -> None:
        match outcome:
            case outcomes.Play(action, text):
                self.bridge.send(PlayerMove(action))
                self.echo = Echo(text, "class:echo")
                self.page = None
            case outcomes.Refuse(reason):
                self.echo = Echo(reason, "class:refuse")
            case outcomes.Note(text):
                self.echo = Echo(text)
            case outcomes.Ask():
                self.pending = outcome
                self.echo = Echo(outcome.shown, "class:ask", tuple((c.key, c.label) for c in outcome.choices))
            case outcomes.Show(title, lines):
                self.page = Page(title, lines)
                self.echo = Echo(f"{title}: Esc closes", of_page=True)
            case outcomes.ShowWay(routes, lines):
                self.highlight = routes
                self.page = None
                for text in lines:
                    self.bridge.publisher.note(text, "class:log.path")
                if not routes:
                    self.echo = Echo(lines[0])
                elif self.has_map():
                    self.echo = Echo("the way is lit up on the map and told in the log")
                else:  # no map at this size: the words are all there is
                    self.echo = Echo(lines[0] if len(lines) == 1 else "each way is told in the log below")
            case outcomes.ShowNetwork(seat, lines):
                self.focus = seat
                self.page = None
                if seat is None:
                    self.echo = Echo("the map shows every player's routes again" if self.has_map()
                                     else "map SEAT tells one player's network (a map shows from 100x30 up)")
                elif self.has_map():
                    self.echo = Echo(f"alone on the map: {lines[0]} (map all shows everyone's)")
                else:
                    self.echo = Echo("; ".join(lines))
            case outcomes.Redraw():
                self.log_top = None
                self._show_table()
            case outcomes.Start() as start:
                if self.bridge.publisher.snapshot.role == "host":
                    self.bridge.send(start)
                    self.echo = Echo("starting the game")
                else:
                    self.echo = Echo("the host starts the game; you play once it does", "class:refuse")
            case outcomes.Leave(forfeit) as leave:
                self.bridge.send(leave)
                self.echo = Echo("forfeiting your seat..." if forfeit else "leaving...")

    def _show_table(self) -> None:
        """`show`: everything the panel has no room for, on a page."""
        snap = self.bridge.publisher.snapshot
        if snap.view is None or snap.seat is None:
            self.page = None
            self.echo = Echo("the game has not started yet")
            return
        self.page = Page("Your table", overview(snap.view, snap.seat, snap.names, snap.forfeited))
        self.echo = Echo("your table: Esc closes", of_page=True)

    # ------------------------------------------------------------------ end

    def finish(self, title: str, lines: list[str]) -> None:
        """The game is over (or stopped): show ``lines`` until Enter."""
        self.ending = self.page = Page(title, tuple(lines), footer="Enter or q leaves · PageUp/PageDown scroll")
        self.echo = Echo("press Enter to leave")
        self.app.invalidate()
