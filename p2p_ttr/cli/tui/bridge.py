"""Where the screen's thread and the network thread meet.

The network loop (``Node.run``) owns the table and runs on a worker thread;
the prompt_toolkit app runs on the main thread. They share nothing mutable:
the worker publishes immutable snapshots (``Publisher``), the screen sends
the loop's own typed inputs (``Start``, ``PlayerMove``, ``Leave``) through a
queue, and the bridge is the loop's ``PlayerChannel``: the loop takes each
input on its own thread, where reading the table is safe.
"""

from __future__ import annotations

import queue
from collections.abc import Callable

from p2p_ttr.client.explain import stale_move_problem
from p2p_ttr.client.netnotices import Notice
from p2p_ttr.client.snapshot import Publisher
from p2p_ttr.engine.events import Action
from p2p_ttr.net.console import Console
from p2p_ttr.net.history import History
from p2p_ttr.client.outcomes import Leave
from p2p_ttr.net.playerinput import Input, PlayerMove, Seen

class TuiConsole(Console):
    """The loop's notes go to the screen's log, not to a terminal it owns."""

    def __init__(self, publisher: Publisher) -> None:
        super().__init__(quiet_stdout=False)
        self.publisher = publisher

    def say(self, text: str) -> None:
        for line in text.splitlines():
            self.publisher.note(line)

    def waiting(self, notice: Notice, names: tuple[str, ...]) -> None:
        """The status line already says whom the table waits for, to the second."""

    def resumed(self, history: History) -> None:
        super().resumed(history)
        self.publisher.resumed(history.turns)


class Bridge:
    """Between the screen's thread and the network loop's: typed inputs one
    way, snapshots the other. The loop's ``PlayerChannel``."""

    def __init__(self, publisher: Publisher, seen: Callable[[], Seen] | None = None) -> None:
        self.publisher = publisher
        self.seen: Callable[[], Seen] = seen or Seen
        self.inputs: queue.Queue[Input] = queue.Queue()
        self.changed: Callable[[], None] = lambda: None  # wakes the screen (thread-safe)

    # ------------------------------------------------------------ screen side

    def send(self, given: Input) -> None:
        self.inputs.put(given)

    # ------------------------------------------------------------ network side

    def publish(self) -> None:
        now = self.seen()
        if self.publisher.update(now.table, now.seat, now.names, now.lobby, now.ends, dict(now.silent),
                                 now.relay_silent) is not None:
            self.changed()

    def turned(self) -> None:
        self.publish()

    def take(self) -> Input | None:
        """The player's next input, or None: a move only while still legal
        (the screen chose it from a snapshot, and the table may have moved on
        since); before the deal there is no seat to forfeit, only to leave."""
        self.publish()
        try:
            given = self.inputs.get_nowait()
        except queue.Empty:
            return None
        table = self.seen().table
        match given:
            case Leave(forfeit=True) if table is None or table.engine is None:
                return Leave()
            case PlayerMove(action) if not self._still_legal(action):
                return None
        return given

    def _still_legal(self, action: Action) -> bool:
        now = self.seen()
        table, seat = now.table, now.seat
        if table is None or table.engine is None or seat is None:
            return False
        problem = stale_move_problem(table.engine, seat, action)
        if problem is not None:
            self.publisher.note(f"your move was not sent: the table moved on ({problem}); look again",
                                "class:log.refused")
            return False
        return True
