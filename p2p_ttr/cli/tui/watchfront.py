"""`ttr watch` and `ttr replay` on the full screen.

A watcher's loop (p2p_ttr/net/watcher.py) runs on a worker thread and
publishes immutable snapshots through ``WatchChannel``; the screen
(viewer.py) runs on the main thread and draws the latest. A replay has no
loop: its moves are worked out before the screen opens. Either way the
last page (the score and the audit, or why it stopped) is kept in the
terminal's scrollback once the screen is gone.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

from p2p_ttr.client.pagetext import lay_out
from p2p_ttr.client.replay import LogReplay
from p2p_ttr.client.snapshot import Publisher
from p2p_ttr.net.console import Console
from p2p_ttr.client.outcomes import Leave
from p2p_ttr.net.playerinput import Ending, Input, RunLoop, Seen

from .bridge import TuiConsole
from .viewer import ReplayScreen, Viewer, WatchScreen

UNWRAPPED = 1 << 16  # columns: lines printed to the scrollback are left for the terminal to wrap


class WatchChannel:
    """The watch loop's channel (on its thread): it publishes what it sees,
    and says when the viewer asked to stop."""

    def __init__(self, publisher: Publisher, seen: Callable[[], Seen]) -> None:
        self.publisher = publisher
        self.seen = seen
        self.stop = threading.Event()
        self.changed: Callable[[], None] = lambda: None  # wakes the screen (thread-safe)

    def publish(self) -> None:
        now = self.seen()
        if self.publisher.update(now.table, None, now.names) is not None:
            self.changed()

    def take(self) -> Input | None:
        self.publish()
        return Leave() if self.stop.is_set() else None

    def turned(self) -> None:
        self.publish()


class WatchOnScreen:
    """A watcher on the full screen: its console notes go to the screen's log."""

    def __init__(self) -> None:
        self.publisher = Publisher("watch")
        self.console: Console = TuiConsole(self.publisher)

    def watch(self, run: RunLoop, seen: Callable[[], Seen], ending: Ending) -> int:
        """Run the watch loop until it ends, then show its last page; re-raises what it raised."""
        channel = WatchChannel(self.publisher, seen)
        screen = WatchScreen(lambda: self.publisher.snapshot, channel.stop.set)
        channel.changed = screen.app.invalidate
        outcome: dict[str, object] = {}

        def work(loop: asyncio.AbstractEventLoop) -> None:
            try:
                code = outcome["code"] = run(channel)
                channel.publish()
                title, lines = ending(code)
                self.publisher.stop(title)  # the status under the last page waits for nobody
            except BaseException as exc:  # handed to the main thread, raised there
                outcome["error"] = exc
                loop.call_soon_threadsafe(lambda: screen.app.exit(result=1))
                return
            loop.call_soon_threadsafe(lambda: screen.finish(title, lines))

        def start() -> None:
            threading.Thread(target=work, args=(asyncio.get_running_loop(),), name="ttr-watch", daemon=True).start()

        screen.app.run(pre_run=start)
        keep_in_scrollback(screen)
        error = outcome.get("error")
        if isinstance(error, BaseException):
            raise error
        code = outcome.get("code")
        return code if isinstance(code, int) else 1


def replay_on_screen(replay: LogReplay, at: int, opened: bool, speed: float,
                     the_end: Callable[[], tuple[str, list[str]]]) -> int:
    screen = ReplayScreen(replay, at, opened, speed, the_end)
    screen.app.run()
    return 0


def keep_in_scrollback(screen: Viewer) -> None:
    if screen.ending is not None:
        # Each line whole: the terminal wraps it, and a command in it is copied in one piece.
        print("\n".join([screen.ending.title, *lay_out(screen.ending.lines, UNWRAPPED)]), flush=True)
