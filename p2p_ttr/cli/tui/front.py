"""Runs a networked seat on the full screen: the loop on a worker thread,
the prompt_toolkit app on the main one."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

from p2p_ttr.client.pagetext import lay_out
from p2p_ttr.client.snapshot import Publisher
from p2p_ttr.net.console import Console
from p2p_ttr.net.playerinput import Ending, RunLoop, Seen
from p2p_ttr.table.peer import Decider

from .app import Client
from .bridge import Bridge, TuiConsole

JOIN_WAIT_S = 10.0  # for the loop to close its sockets after the screen is gone
UNWRAPPED = 1 << 16  # columns: lines printed to the terminal's scrollback are left for it to wrap


class TuiFront:
    """The full-screen client as a front: the screen on the main thread, the network loop on another."""

    def __init__(self, role: str, hosting: bool) -> None:
        self.publisher = Publisher(role)
        self.console: Console = TuiConsole(self.publisher)
        self.bridge = Bridge(self.publisher)
        self.decide: Decider | None = None  # moves come through the bridge
        self.hosting = hosting
        self.tells_ending = True

    def show_address(self, text: str) -> None:
        self.publisher.address = text

    def play(self, run: RunLoop, seen: Callable[[], Seen], ending: Ending) -> int:
        """Run the loop until it ends; re-raises what it raised (Quit, ...)
        once the screen is gone, so the caller handles both fronts alike."""
        self.bridge.seen = seen
        client = Client(self.bridge, self.hosting)
        self.bridge.changed = client.app.invalidate
        outcome: dict[str, object] = {}

        def work(loop: asyncio.AbstractEventLoop) -> None:
            page: tuple[str, list[str]] | None = None
            try:
                code = run(self.bridge)
                outcome["code"] = code
                self.bridge.publish()
                page = ending(code)
            except BaseException as exc:  # handed to the main thread, raised there
                outcome["error"] = exc
            if page is None:
                loop.call_soon_threadsafe(lambda: client.app.exit(result=1))
            else:
                title, lines = page
                self.publisher.stop(title)  # no more "waiting for Bob's share" under the end or a pause
                loop.call_soon_threadsafe(lambda: client.finish(title, lines))

        def start() -> None:
            threading.Thread(target=work, args=(asyncio.get_running_loop(),), name="ttr-loop", daemon=True).start()

        client.app.run(pre_run=start)
        if client.ending is not None:
            # Keep the end in the terminal's scrollback once the screen is gone.
            notes = [text for _, text in self.publisher.snapshot.log[-4:] if text not in client.ending.lines]
            # Each line whole: the terminal wraps it, and a command in it is copied in one piece.
            lines = lay_out(client.ending.lines, UNWRAPPED)
            print("\n".join([client.ending.title, *lines, "", *notes]), flush=True)
        error = outcome.get("error")
        if isinstance(error, BaseException):
            raise error
        code = outcome.get("code")
        return code if isinstance(code, int) else 1
