"""Where the screen's thread and the network thread meet.

The network loop (``Host.run`` / ``Node.run``) owns the table and runs on a
worker thread; the prompt_toolkit app runs on the main thread. They share
nothing mutable: the worker publishes immutable snapshots (``Publisher``),
the screen sends requests through a queue, and each request is acted on by
the worker inside the loop's own ``read_line``/``on_line`` callbacks, where
touching the table is safe.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from dataclasses import dataclass

from p2p_ttr.client.explain import stale_move_problem
from p2p_ttr.client.snapshot import Publisher
from p2p_ttr.client.words import ENDED, FORFEITED
from p2p_ttr.engine.events import Action
from p2p_ttr.engine.state import GameState
from p2p_ttr.net.console import Console, Forfeit, Quit
from p2p_ttr.net.loop import Seen

PLAY = "\x00play"  # the line read_line hands the loop for a request on_line carries out


@dataclass(frozen=True)
class Request:
    """From the screen to the network thread: a line for the loop itself
    (Enter starts a hosted game), a move to send, or leaving."""

    line: str | None = None
    action: Action | None = None
    leave: bool = False
    forfeit: bool = False


class TuiConsole(Console):
    """The loop's notes go to the screen's log, not to a terminal it owns."""

    def __init__(self, publisher: Publisher) -> None:
        super().__init__(quiet_stdout=False)
        self.publisher = publisher

    def say(self, text: str) -> None:
        for line in text.splitlines():
            self.publisher.note(line)

    def waiting(self, text: str) -> None:
        """The status line already says whom the table waits for, to the second."""


class Bridge:
    """Between the screen's thread and the network loop's: requests one way, snapshots the other."""

    def __init__(self, publisher: Publisher, seen: Callable[[], Seen] | None = None) -> None:
        self.publisher = publisher
        self.seen: Callable[[], Seen] = seen or Seen
        self.requests: queue.Queue[Request] = queue.Queue()
        self.queued: Action | None = None
        self._carrying: Request | None = None
        self.changed: Callable[[], None] = lambda: None  # wakes the screen (thread-safe)

    # ------------------------------------------------------------ screen side

    def send(self, request: Request) -> None:
        self.requests.put(request)

    # ------------------------------------------------------------ network side

    def choose(self, view: GameState, seat: int) -> Action | None:
        """The Decider: the move the player typed, once."""
        action, self.queued = self.queued, None
        return action

    def publish(self) -> None:
        now = self.seen()
        if self.publisher.update(now.table, now.seat, now.names, now.lobby) is not None:
            self.changed()

    def tick(self) -> None:
        self.publish()

    def read_line(self) -> str | None | bool:
        """The loop's input: False when nothing waits."""
        self.publish()
        try:
            request = self.requests.get_nowait()
        except queue.Empty:
            return False
        if request.line is not None:
            return request.line
        table = self.seen().table
        if request.leave and (table is None or table.engine is None):
            # A host in its lobby hands no line to on_line, and before the
            # deal there is no seat to forfeit: just leave, from here.
            raise Quit(ENDED)
        self._carrying = request
        return PLAY

    def on_line(self, line: str) -> None:
        request, self._carrying = self._carrying, None
        if request is None:
            return
        if request.leave:
            raise Forfeit(FORFEITED) if request.forfeit else Quit(ENDED)
        if request.action is not None:
            self._queue(request.action)

    def _queue(self, action: Action) -> None:
        """Queue the move if it is still legal: the screen chose it from a
        snapshot, and the table may have moved on since."""
        now = self.seen()
        table, seat = now.table, now.seat
        if table is None or table.engine is None or seat is None:
            return
        problem = stale_move_problem(table.engine, seat, action)
        if problem is not None:
            self.publisher.note(f"your move was not sent: the table moved on ({problem}); look again",
                                "class:log.refused")
            return
        self.queued = action
