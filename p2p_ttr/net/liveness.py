"""Liveness: who we are waiting for, whether they are alive, and when to give up.

Liveness is not progress (design.md §4). A seat whose heartbeats reach the
relay is alive however long its player thinks: no peer gives up on a live
seat that owes only a move. Only two things end a wait:

- silence: the seat sent no heartbeat for our ``--timeout`` (the relay's
  word, ``silent``, tells every follower which seats it has not heard);
- a live seat that withholds, for our ``--timeout``, a duty its software
  does at once (keys, a shuffle, a proof, shares, the audit): it
  misbehaves, and is named.

``Presence`` keeps what we know of who is alive; ``watch`` looks at a
stalled table and returns a ``GiveUpVerdict`` when a scripted peer must give up
(a person is asked instead, and only offered `wait` where it can help).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass

from p2p_ttr.client.livenessfacts import Awaited, SeatGaveUp, Stall, StalledAsk, Waiting, WaitingFor, Why
from p2p_ttr.client.netnotices import Report
from p2p_ttr.client.peerexits import GaveUpHeldBack, GaveUpNotBack, GaveUpStalled, HostResume, PeerEnd
from p2p_ttr.table.obligations import Owed
from p2p_ttr.table.table import Table

from .frames import MAX_SECONDS

STALL_NOTE_S = 4.0  # say whom we wait for once the log has not grown for this long

HEARTBEAT_S = 1.0
HOST_SILENT_S = 3.0
SILENT_NEWS_S = 5.0  # the relay's word on who is silent holds this long (it comes every second)


def waiting_for(table: Table, me: int | None) -> list[int]:
    """The seats (other than ours) the table waits for now."""
    return sorted({o.seat for o in table.obligations() if o.seat != me})


class Presence:
    """Which seats are silent, as the relay sees it: its ``silent`` word (or,
    while we relay, our own count), and the seats that said they gave up.
    ``heard`` is called once a second with the seats the relay has not heard
    for its relay timeout, and for how long."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, relay_timeout: float = 20.0) -> None:
        self.clock = clock
        self.silent_since: dict[int, float] = {}  # seat -> since when it has been silent
        self.gave_up: dict[int, SeatGaveUp] = {}  # seat -> its word when it gave up (in this run)
        self.gave_up_at: dict[int, float] = {}  # seat -> when we were told
        # A seat that gave up leaves: the relay's word calls it silent within
        # its relay timeout (and the word's own delay). Heard past that, it is back.
        self.leaving_s = relay_timeout + SILENT_NEWS_S
        self._news_at: float | None = None

    def heard(self, silence: tuple[tuple[int, int], ...]) -> None:
        """The relay's word: these seats, (seat, seconds), have not been heard
        for that many seconds; every other seat has. The earliest start any
        word gave stands (a word's whole seconds and its way here only make
        a silence look shorter), so the seconds we show do not jitter. After a
        gap in the word (no relay heard, a hand-over) what we saw before is
        forgotten: a silence may have ended and begun again unseen."""
        now = self.clock()
        if self._news_at is None or now - self._news_at > SILENT_NEWS_S:
            self.silent_since.clear()
        for seat, seconds in silence:
            since = now - seconds
            self.silent_since[seat] = min(self.silent_since.get(seat, since), since)
        named = {seat for seat, _ in silence}
        for seat in list(self.silent_since):
            if seat not in named:
                del self.silent_since[seat]
        self._news_at = now

    def left(self, news: SeatGaveUp) -> None:
        self.gave_up[news.seat] = news
        self.gave_up_at[news.seat] = self.clock()

    def gone(self, seat: int) -> bool:
        """Whether ``seat`` gave up and has not come back. Its word, signed,
        holds while it may still be leaving and while the relay's fresh word
        calls it silent; once that word says it is heard, past the time a
        leaving seat takes to fall silent, it is back (resumed: a seat told
        to stop for now comes back by the same command). So a `gave_up` from
        an earlier run, replayed, or one its seat took back by resuming, makes
        nobody give up on a live seat. With no fresh word (we lost the relay,
        or it was the one that gave up) it holds."""
        if seat not in self.gave_up:
            return False
        now = self.clock()
        fresh = self._news_at is not None and now - self._news_at <= SILENT_NEWS_S
        heard = fresh and seat not in self.silent_since
        return not (heard and now - self.gave_up_at[seat] > self.leaving_s)

    def silent_for(self, seat: int) -> float | None:
        """How long ``seat`` has been silent (None: alive, or we cannot tell: no fresh word from the relay)."""
        now = self.clock()
        since = self.silent_since.get(seat)
        if since is None or self._news_at is None or now - self._news_at > SILENT_NEWS_S:
            return None
        return now - since


def silent_seats(presence: Presence, table: Table | None, me: int | None) -> tuple[tuple[int, int], ...]:
    """(seat, whole seconds) for each other seat the relay calls silent, for the status line."""
    out = []
    for seat in range(table.n if table is not None and table.seated else 0):
        silent = presence.silent_for(seat)
        if seat != me and silent is not None:
            out.append((seat, int(silent)))
    return tuple(out)


class Progress:
    """Tracks the time since the log last grew, and says so at a gentle pace."""

    def __init__(self, timeout: float, report: Report, waiting: Report,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """``report``: what the player must read (the timeout's question);
        ``waiting``: the repeated notes of whom the table waits for."""
        self.timeout = timeout
        self.report = report
        self.waiting = waiting
        self.clock = clock
        self.length = -1
        self.since = clock()
        self._next_note = self.since + 5.0

    def update(self, length: int) -> None:
        if length != self.length:
            self.length = length
            self.since = self.clock()
            self._next_note = self.since + 5.0

    @property
    def stalled_for(self) -> float:
        return self.clock() - self.since

    @property
    def timed_out(self) -> bool:
        return self.stalled_for >= self.timeout

    def note(self, seats: tuple[int, ...], awaited: Awaited, silent: tuple[tuple[int, int], ...] = ()) -> None:
        """Note that we wait for ``seats`` to do ``awaited`` every few seconds
        while stalled, with those ``silent`` (no heartbeat), as the status line does."""
        now = self.clock()
        if now >= self._next_note:
            self.waiting(WaitingFor(seats, awaited, int(now - self.since), silent))
            self._next_note = now + (5.0 if now - self.since < 30 else 15.0)

    def extend(self) -> None:
        self.since = self.clock()


@dataclass(frozen=True)
class GiveUpVerdict:
    """A scripted peer gives up: why, on which seats, after how long, and its last words."""

    why: Why
    about: tuple[int, ...]
    seconds: int
    told: PeerEnd  # our last words


def stalls(table: Table, me: int | None, presence: Presence, stalled_for: float) -> list[Stall]:
    """Each seat the table waits for, and what it is doing."""
    owed: dict[int, list[Owed]] = {}
    for o in table.obligations():
        if o.seat != me:
            owed.setdefault(o.seat, []).append(o.what)
    found = []
    for seat in sorted(owed):
        silent = presence.silent_for(seat)
        if presence.gone(seat):
            waiting, seconds = Waiting.GAVE_UP, stalled_for
        elif silent is not None:
            waiting, seconds = Waiting.SILENT, silent
        elif all(what is Owed.MOVE for what in owed[seat]):
            waiting, seconds = Waiting.THINKING, stalled_for
        else:
            waiting, seconds = Waiting.WITHHOLDING, stalled_for
        found.append(Stall(seat, waiting, tuple(owed[seat]), int(seconds)))
    return found


def watch(progress: Progress, table: Table, me: int | None, names: tuple[str, ...], scripted: bool,
          presence: Presence, log: str, then: HostResume | None = None) -> GiveUpVerdict | None:
    """One look at a running game, the same for the relay and a follower: say
    whom the table waits for while it is stalled; once it has stalled for the
    timeout, a scripted peer gives up (the verdict) on a seat silent that
    long or alive and withholding a duty, never on one thinking over a move;
    a person is asked instead (``then``: how the host resumes, for the last words)."""
    progress.update(len(table.log))
    if progress.stalled_for <= STALL_NOTE_S:
        return None
    waiting = waiting_for(table, me)
    if not waiting:
        return None
    silent = dict(silent_seats(presence, table, me))
    progress.note(tuple(waiting), Awaited.PLAY, tuple((s, silent[s]) for s in waiting if s in silent))
    if not progress.timed_out:
        return None
    timeout = progress.timeout
    blamed = [s for s in stalls(table, me, presence, progress.stalled_for)
              if s.waiting in (Waiting.WITHHOLDING, Waiting.GAVE_UP)
              or (s.waiting is Waiting.SILENT and s.seconds >= timeout)]
    if not blamed:
        return None  # only people thinking (or seats not silent for long enough yet): wait on
    if not scripted:
        progress.report(StalledAsk(tuple(blamed), int(progress.stalled_for)))
        progress.extend()
        return None
    withheld = [s for s in blamed if s.waiting is Waiting.WITHHOLDING]
    why = Why.WITHHELD if withheld else Why.SILENT
    chosen = withheld or blamed
    about = tuple(s.seat for s in chosen)
    seconds = min(max(s.seconds for s in chosen), MAX_SECONDS)  # what a give_up frame can carry
    return GiveUpVerdict(why, about, seconds, GaveUpStalled(timeout, tuple(waiting), why, about, seconds, log, then))


def host_decides(host_pid: int | None) -> bool:
    """We are a bot our host started (``host_pid``) and that host still runs
    (it is still our parent): it gives up or waits, never we (design.md §4:
    bots started by a host live as long as their host). Once it is gone, we
    give up as any scripted peer does."""
    return host_pid is not None and os.getppid() == host_pid


def held_back_verdict(relay: int, progress: Progress) -> GiveUpVerdict:
    """A scripted peer gives up on a live relay that holds back a message its
    author showed us directly (witness.py): the relay withholds, nobody else."""
    return GiveUpVerdict(Why.WITHHELD, (relay,), int(progress.stalled_for), GaveUpHeldBack(progress.timeout, relay))


def not_back_verdict(away: tuple[int, ...], progress: Progress, then: HostResume | None) -> GiveUpVerdict:
    """A resumed relay gives up on the seats that never came back to say what they hold."""
    return GiveUpVerdict(Why.SILENT, away, int(progress.stalled_for), GaveUpNotBack(progress.timeout, then))
