"""The table on a shared screen: prompt_toolkit around the pure watch
screen (p2p_ttr/client/watchscreen.py), for `ttr watch` and `ttr replay`.

No input line: a watcher or a replay's viewer only looks, so every key
does one thing at once (the bottom line says which). ``Viewer`` is what
both share (the frame drawn from the latest snapshot, the log scrolled,
the last page, leaving); ``WatchScreen`` draws a watcher's snapshots, made
on the network thread; ``ReplayScreen`` steps through a replay's moves,
and plays them at a chosen speed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from prompt_toolkit.application import Application
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import Layout, Window

from p2p_ttr.client.replay import LogReplay
from p2p_ttr.client.screen import Page
from p2p_ttr.client.snapshot import Snapshot
from p2p_ttr.client.styled import Line
from p2p_ttr.client.watchscreen import WatchModel, render, scrolled

from .app import ScreenControl
from .style import build_style

SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)  # moves a second when playing
END_KEYS = "Enter or q leaves · PageUp/PageDown scroll"


class Viewer:
    """What a watcher's and a replay's screens share: the frame, the log
    scrolled, a page over the table, and leaving."""

    def __init__(self) -> None:
        self.page: Page | None = None
        self.ending: Page | None = None  # the last page: Enter or q leaves
        self.log_top: int | None = None
        self.size = (100, 30)
        self.app: Application[int] = Application(layout=Layout(Window(ScreenControl(self.draw))),
                                                 key_bindings=self.keys(), style=build_style(), full_screen=True)

    # ---------------------------------------------------------- what it shows

    def snapshot(self) -> Snapshot:
        raise NotImplementedError

    def mode(self) -> str:
        """The header's word for this screen."""
        raise NotImplementedError

    def hint(self) -> str:
        """The bottom line: what the keys do now."""
        raise NotImplementedError

    def model(self) -> WatchModel:
        return WatchModel(self.snapshot(), self.mode(), self.hint(), self.page, self.log_top)

    def draw(self, width: int, height: int) -> list[Line]:
        self.size = (width, height)
        return render(self.model(), width, height)

    # ------------------------------------------------------------------ keys

    def keys(self) -> KeyBindings:
        keys = KeyBindings()

        @keys.add("pageup")
        def _up(event: KeyPressEvent) -> None:
            self.scroll(-1)

        @keys.add("pagedown")
        def _down(event: KeyPressEvent) -> None:
            self.scroll(1)

        @keys.add("q")
        @keys.add("c-c")
        @keys.add("c-d")
        def _leave(event: KeyPressEvent) -> None:
            self.leave()

        @keys.add("enter", filter=Condition(lambda: self.ending is not None))
        def _done(event: KeyPressEvent) -> None:
            self.app.exit(result=0)

        @keys.add("escape", eager=True)
        def _close(event: KeyPressEvent) -> None:
            if self.page is not None and self.page is not self.ending:
                self.page = None

        return keys

    def scroll(self, pages: int) -> None:
        moved = scrolled(self.model(), *self.size, pages)
        if moved.page is not None and self.page is self.ending:
            self.ending = moved.page
        self.page, self.log_top = moved.page, moved.log_top

    def leave(self) -> None:
        self.app.exit(result=0)

    def finish(self, title: str, lines: list[str]) -> None:
        """The last page (the score and the audit, or why it stopped) until Enter or q."""
        self.ending = self.page = Page(title, tuple(lines), footer=END_KEYS)
        self.app.invalidate()


class WatchScreen(Viewer):
    """A watcher's screen: the snapshots the watch loop publishes."""

    def __init__(self, snapshot: Callable[[], Snapshot], stop: Callable[[], None]) -> None:
        """``snapshot``: the latest (any thread); ``stop``: ask the watch loop to stop."""
        self._snapshot = snapshot
        self._stop = stop
        super().__init__()

    def snapshot(self) -> Snapshot:
        return self._snapshot()

    def mode(self) -> str:
        return "watching"

    def hint(self) -> str:
        return "q leaves · PageUp/PageDown scroll the log"

    def leave(self) -> None:
        if self.ending is not None:
            self.app.exit(result=0)
        else:
            self._stop()  # the loop stops, and the last page comes


class ReplayScreen(Viewer):
    """A replay's screen: one move at a time, or played at a speed."""

    def __init__(self, replay: LogReplay, at: int = 0, opened: bool = False, speed: float = 2.0,
                 the_end: Callable[[], tuple[str, list[str]]] | None = None) -> None:
        """``the_end``: the score and the audit (worked out when first asked)."""
        self.replay = replay
        self.at = at
        self.opened = opened and replay.can_open
        self.speed = speed
        self.playing = False
        self.typed = ""  # a turn number being typed
        self.the_end = the_end
        super().__init__()

    def snapshot(self) -> Snapshot:
        return self.replay.snapshot(self.at, self.opened)

    def mode(self) -> str:
        shown = " · every hand shown" if self.opened else ""
        return f"replay · {self.replay.where(self.at)}{shown}"

    def hint(self) -> str:
        if self.typed:
            return f"turn {self.typed}_ · Enter jumps there · Esc forgets it"
        play = f"space {'pauses' if self.playing else 'plays'} ({self.speed:g}/s, + -)"
        hands = " · o hides hands" if self.opened else " · o shows hands" if self.replay.can_open else ""
        return (f"→ ← move · ↑ ↓ turn · digits+Enter: turn N · Home End · {play}{hands} · "
                "e the score · q leaves")

    def go(self, at: int) -> None:
        self.at = max(0, min(len(self.replay.moves) - 1, at))
        self.log_top = None
        if self.at == len(self.replay.moves) - 1:
            self.playing = False

    def keys(self) -> KeyBindings:
        keys = super().keys()

        @keys.add("right")
        @keys.add("n")
        def _next(event: KeyPressEvent) -> None:
            self.go(self.at + 1)

        @keys.add("left")
        @keys.add("p")
        def _previous(event: KeyPressEvent) -> None:
            self.go(self.at - 1)

        @keys.add("down")
        def _next_turn(event: KeyPressEvent) -> None:
            self.go(self.replay.move_of_turn(self.replay.turn_of(self.at) + 1))

        @keys.add("up")
        def _previous_turn(event: KeyPressEvent) -> None:
            turn = self.replay.turn_of(self.at)
            start = self.replay.move_of_turn(turn)
            self.go(self.replay.move_of_turn(turn - 1) if start == self.at else start)

        @keys.add("home")
        def _first(event: KeyPressEvent) -> None:
            self.go(0)

        @keys.add("end")
        def _last(event: KeyPressEvent) -> None:
            self.go(len(self.replay.moves) - 1)

        @keys.add("space")
        def _play(event: KeyPressEvent) -> None:
            self.playing = not self.playing and self.at < len(self.replay.moves) - 1
            if self.playing:
                event.app.create_background_task(self.play())

        @keys.add("+")
        def _faster(event: KeyPressEvent) -> None:
            self.speed = next((s for s in SPEEDS if s > self.speed), SPEEDS[-1])

        @keys.add("-")
        def _slower(event: KeyPressEvent) -> None:
            self.speed = next((s for s in reversed(SPEEDS) if s < self.speed), SPEEDS[0])

        @keys.add("o")
        def _open(event: KeyPressEvent) -> None:
            self.opened = not self.opened and self.replay.can_open

        @keys.add("e")
        def _score(event: KeyPressEvent) -> None:
            self.toggle_score()

        for digit in "0123456789":
            @keys.add(digit)
            def _digit(event: KeyPressEvent) -> None:
                self.typed = (self.typed + event.data)[-4:]

        @keys.add("enter", filter=Condition(lambda: bool(self.typed)))
        def _jump(event: KeyPressEvent) -> None:
            self.go(self.replay.move_of_turn(int(self.typed)))
            self.typed = ""

        @keys.add("escape", filter=Condition(lambda: bool(self.typed)), eager=True)
        def _forget(event: KeyPressEvent) -> None:
            self.typed = ""

        return keys

    def toggle_score(self) -> None:
        """`e`: the score and the audit on a page; `e` again, the table."""
        if self.page is not None and self.page is not self.ending:
            self.page = None
        elif self.the_end is not None:
            title, lines = self.the_end()
            self.page = Page(title, tuple(lines), footer="e or Esc: back to the table · PageUp/PageDown scroll")

    async def play(self) -> None:
        """One move every 1/speed seconds while playing."""
        while self.playing:
            await asyncio.sleep(1.0 / self.speed)
            if not self.playing:
                return
            self.go(self.at + 1)
            self.app.invalidate()
