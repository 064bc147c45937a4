"""How often we resend our log to the peer we follow when it asks (`fetch`).

A relay that lost its log's tail, or takes over from a shorter one, asks
its followers for the entries it lacks, and each sends them (`have`). An
asker could ask again at once, and again: `fetch 0` each time made a joiner
queue its whole log anew (half a core and hundreds of MiB within seconds).
So: at most one resend at a time, and a rate. We answer only the peer we
follow, so the asker is whoever that is now (not the connection: a peer can
send a new challenge on it at will).

A resend of B bytes keeps us busy for B / BYTES_PER_S seconds, at least
MIN_GAP_S and at most the relay's own pace of asking again for what it
still lacks (catchup.FETCH_EVERY_S): a `fetch` while we are busy is
dropped, since what it asks is on its way, and an honest relay that lost
some of it asks again when it may, and is answered then. A flood of
`fetch 0` costs us one resend of the log a second at most.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from .catchup import FETCH_EVERY_S

BYTES_PER_S = 2 << 20  # what a resend may take, on average, before another is answered
MIN_GAP_S = 1.0  # between two resends, however small


class Resends:
    """When the peer we follow may be sent our entries again."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._busy_until = float("-inf")  # when our last resend has had its time

    def may_resend(self) -> bool:
        """Whether a `fetch` is answered now (False: our last answer is under way)."""
        return self.clock() >= self._busy_until

    def resent(self, size: int) -> None:
        """We just queued ``size`` bytes of entries for the peer we follow."""
        self._busy_until = self.clock() + min(FETCH_EVERY_S, max(MIN_GAP_S, size / BYTES_PER_S))
