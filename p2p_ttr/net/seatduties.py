"""Our seat's messages out: what the table says we owe, sent once we may.

``SeatDuties`` sends what our seat owes (``SeatPlayer.outbox``: keys,
shuffles, shares, the player's move...) only when we are caught up with
the relay and our earlier messages are all sequenced or refused; while our
seat relays, it sequences them itself. It keeps the messages sent and not
yet seen in the log (``pending``) to send again, byte for byte, after a
reconnection or a hand-over. It also sends what our seat says of itself:
where it accepts connections (``reach``), a forfeit, and, in an escrow
game, a request to carry a silent seat on.

It never reads a frame nor decides who relays.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from p2p_ttr.client.netnotices import (AskingCarryOn, CannotGoOn, CarriedOnUs, CarryOnTooLate, ForfeitConcedes,
                                       ForfeitSaid, ForfeitWord, Report, StoppedUnanswered, TableRefused)
from p2p_ttr.client.peerexits import ForfeitedEnded, ForfeitedGoesOn, KeepsRefusing
from p2p_ttr.errorcodes import ErrorCode
from p2p_ttr.table.envelope import open_envelope
from p2p_ttr.table.escrowbook import Blocked
from p2p_ttr.table.table import Table

from . import frames
from .exits import PeerExit
from .liveness import waiting_for
from .relay import Relay
from .replica import Replica
from .seqsig import entry_hash
from .trace import Trace
from .transport import local_ip_toward
from .uplink import Uplink

MAX_REFUSALS = 5
SILENT_NEWS_S = 5.0  # a relay's word on who is silent holds this long


def last_to_leave(table: Table) -> int | None:
    """The seat whose forfeit ended a conceded game (it stays to the end:
    ``SeatDuties.stays_to_the_end``); None if the game was not conceded by a
    forfeit (a seat carried on has no peer left to wait for)."""
    left = table.left  # forfeited or carried on -> the entry it left at
    if not table.conceded or not left:
        return None
    seat = max(left, key=lambda s: left[s])
    return None if seat in table.carried_on else seat


class SeatDuties:
    """Our seat's outgoing messages, and those sent but not yet sequenced."""

    def __init__(self, replica: Replica, uplink: Uplink, relay: Relay, report: Report, trace: Trace,
                 timeout: float, relay_timeout: float, advertise: tuple[str, int] | None = None,
                 check_for_fork: Callable[[], None] = lambda: None) -> None:
        """``advertise``: where the others dial us, if not where our ROUTER
        listens; ``check_for_fork``: the follower's (a refusal may show a fork)."""
        self.replica = replica
        self.uplink = uplink
        self.relay = relay
        self.report = report
        self.trace = trace
        self.timeout = timeout
        self.relay_timeout = relay_timeout
        self.advertise = advertise
        self.pending: dict[bytes, bytes] = {}  # hash -> envelope sent, not yet sequenced
        self.sent_at: dict[bytes, float] = {}  # hash -> when it last went to the relay
        self.resend = False
        self.recheck_outbox = False  # look at the outbox again even though the log did not grow
        self.refusals = 0
        self.forfeiting = False  # the player asked to leave for good
        self.told_carried = False
        self.silent: tuple[tuple[int, ...], float] = ((), 0.0)  # the relay's last word on silent seats, and when
        self._outbox_len = -1
        self._left_at: float | None = None  # when our forfeit was in our log (a relay waits for the others)
        self.check_for_fork = check_for_fork
        self._told_blocked: Blocked | None = None  # why the silent seats cannot be carried on, as last told
        # When we last saw each seat's signed word (an entry of our log it
        # signed), on our own clock: the relay's `silent` alone carries no
        # seat on (a relay that lies would have a live player's hand opened).
        self.clock: Callable[[], float] = time.monotonic
        self.signed_at: dict[int, float] = {}
        self.watching_since = self.clock()  # a seat we never saw sign is counted from here

    # ------------------------------------------------------------ the log moved

    def sequenced(self, raw: bytes) -> None:
        """An entry of the log: one of ours in flight, if it is in ``pending``."""
        digest = entry_hash(raw)
        self.signed_at[open_envelope(raw).seat] = self.clock()
        self.sent_at.pop(digest, None)
        if self.pending.pop(digest, None) is not None:
            self.refusals = 0

    def heard_silent(self, seats: tuple[int, ...]) -> None:
        """The relay's word: ``seats`` have been silent for the relay timeout (it holds ``SILENT_NEWS_S``)."""
        self.silent = (seats, time.monotonic())

    def look_again(self) -> None:
        """The player moved: ask our seat's outbox again even though the log did not grow."""
        self.recheck_outbox = True

    def send_again(self) -> None:
        """A new connection, or a new relay: what is in flight goes to it again at our next ``act``."""
        self.resend = True

    def heard_from(self, seat: int) -> None:
        """A signed word of ``seat`` outside the log (its follow request to a
        successor, shown or sent to us): it is alive, on our own clock."""
        self.signed_at[seat] = self.clock()

    def overdue(self, now: float, after: float) -> list[tuple[bytes, bytes, float]]:
        """Our messages the relay has had for more than ``after`` seconds
        without sequencing them: (digest, envelope, seconds)."""
        if self.replica.relaying:
            return []
        return [(d, raw, now - self.sent_at[d]) for d, raw in self.pending.items()
                if d in self.sent_at and now - self.sent_at[d] > after]

    def restart_clocks(self, now: float) -> None:
        """Every pending message counts as sent ``now`` (a new relay has it from now on)."""
        for digest in self.pending:
            self.sent_at[digest] = now

    def refused(self, digest: bytes, code: str, reason: str) -> bool:
        """The relay refused a message: ours, if it is pending (True then)."""
        raw = self.pending.pop(digest, None)
        if raw is None:
            return False
        self.sent_at.pop(digest, None)
        if open_envelope(raw).body[:1] == ["carry_on"]:
            # The seat came back (or the relay moved) before our request was
            # sequenced: refused as it should be, nothing wrong with us.
            self.report(CarryOnTooLate(reason))
            return True
        self.refusals += 1
        self.report(TableRefused(code, reason))
        if code == ErrorCode.UNKNOWN_HEAD:
            self.check_for_fork()  # we wrote on a log the host's table never had
        if self.refusals >= MAX_REFUSALS:
            raise PeerExit(1, KeepsRefusing())
        self.recheck_outbox = True
        return True

    def take_pending(self) -> list[bytes]:
        """Our messages in flight, now ours to sequence (we relay from now on)."""
        pending, self.pending = list(self.pending.values()), {}
        self.sent_at.clear()
        return pending

    def forget_pending(self) -> None:
        """Our log was cut back: what we sent on the dropped entries is gone with them."""
        self.pending.clear()
        self.sent_at.clear()
        self._outbox_len = -1

    # ------------------------------------------------------------------ sending

    def outgoing(self, raw: bytes) -> None:
        """One message of ours: sequenced here while we relay, else sent to the relay."""
        if self.replica.relaying:
            self.relay.sequencer.sequence(raw, None)
        else:
            digest = entry_hash(raw)
            self.pending[digest] = raw
            self.sent_at[digest] = time.monotonic()
            self.uplink.send(frames.Env(raw))

    def ready_to_send(self) -> bool:
        table = self.replica.table
        if table is None or self.replica.player is None:
            return False
        if self.replica.relaying:
            return not self.relay.catchup.gated
        # Only to the relay, once it welcomed us and we caught up with it.
        up = self.uplink
        return (up.welcomed and len(table.log) >= up.length and table.seated
                and up.seat in (None, table.relay) and not table.relay_gone)

    def act(self) -> None:
        """Send what our seat owes now, if we may."""
        table, player, store = self.replica.table, self.replica.player, self.replica.store
        if table is None or player is None:
            return
        seat = player.seat
        if seat is not None and seat in table.carried_on:
            # Told as soon as our log shows it, whoever we follow now (the
            # relay, or the successor we turned to while cut off).
            if not self.told_carried:
                self.told_carried = True
                self.report(CarriedOnUs(table.carried_on[seat]))
            return
        if seat is not None and seat in table.forfeited and self.stays_to_the_end():
            self.leave_a_conceded_game()
            return
        if not self.ready_to_send():
            return
        assert store is not None
        store.sync()  # everything we folded is on disk before we send anything
        if seat is not None and seat in table.forfeited:
            now = time.monotonic()
            self._left_at = self._left_at or now
            if table.relay == seat and not self.relay.catchup.everyone_has(len(table.log), table.in_play) \
                    and now - self._left_at < self.timeout:
                return  # we relayed: the others must hear of our forfeit from us before we go
            store.mark_left()
            raise PeerExit(0, ForfeitedGoesOn())  # the ending names the log
        if self.forfeiting and table.finished:
            # The game ended (or halted) before our forfeit went out: nothing to
            # forfeit now; our duties (the final reveal) go on as usual.
            self.forfeiting = False
            self.report(ForfeitSaid(ForfeitWord.TOO_LATE))
        owes_escrow = seat is not None and seat in table.escrowbook.owed_reveals(table.in_play)
        if self.forfeiting and not self.pending and seat is not None and seat in table.keys and player.peer \
                and not owes_escrow:  # (our shares of a seat being carried on go first: the fold wants them)
            self.outgoing(player.peer.forfeit())
            self.relay.flush()
            return
        if self.resend:
            self.resend = False
            self.restart_clocks(time.monotonic())  # (a new connection, or a new relay: its time starts now)
            for raw in list(self.pending.values()):
                self.uplink.send(frames.Env(raw))
        if self.pending:
            return
        self.say_where()
        self.ask_to_carry_on()
        for _ in range(1000):
            if len(table.log) == self._outbox_len and not self.recheck_outbox:
                return
            self._outbox_len, self.recheck_outbox = len(table.log), False
            out = player.outbox()
            for raw in out:
                if player.peer is not None:
                    self.trace.sent(raw, table, player.peer.seat)
                self.outgoing(raw)
            self.relay.flush()
            if not out or not self.replica.relaying:
                return

    def stays_to_the_end(self) -> bool:
        """Our seat forfeited and that ended the game (fewer than two seats in
        play: conceded, §6). The end is a few entries away (the shares of the
        seat left, every seat's audit), so we stay and follow the relay, the
        successor once it takes over, until our log holds them: the log we
        name then verifies. Where the others play on, our log stops at our
        forfeit and we say so."""
        table, seat = self.replica.table, self.replica.seat
        return (table is not None and seat is not None and seat in table.forfeited
                and (table.conceded or len(table.in_play) < 2))

    def leave_a_conceded_game(self) -> None:
        """Go once our log holds the whole conceded game (or after --timeout
        without it: the seat left stopped, and we say our log is short)."""
        table, store = self.replica.table, self.replica.store
        assert table is not None and store is not None
        now = time.monotonic()
        self._left_at = self._left_at or now
        if not table.complete and now - self._left_at < self.timeout:
            return
        store.sync()
        store.mark_left()
        if table.complete:
            store.mark_finished()
            # Our last words: the relay waits for us to hold the end (up to
            # its --timeout), and our next heartbeat would come too late.
            self.uplink.send(frames.reporting(len(table.log), table.head))
            raise PeerExit(0, ForfeitedEnded())  # the ending names the log
        raise PeerExit(0, ForfeitedEnded(self.timeout))

    def waits_for_the_last_to_leave(self, waited: float) -> bool:
        """We relay the end of a game conceded by a seat's forfeit: that seat
        follows us to the end (``stays_to_the_end``) and may reach us only
        now, so we wait for it to report holding the end, up to --timeout."""
        table = self.replica.table
        staying = last_to_leave(table) if table is not None else None
        return (self.replica.relaying and table is not None and staying is not None and staying != self.replica.seat
                and waited <= self.timeout and not self.relay.catchup.everyone_has(len(table.log), (staying,)))

    def ask_to_carry_on(self) -> None:
        """In an escrow game: ask to carry on each seat the table waits for
        that the relay has not heard for the relay timeout (we relay: our
        own count; else the relay's last ``silent``, and only for a seat
        whose last signed word we saw that long ago ourselves, on our own
        clock: the relay's word alone moves nothing). The seat's own next
        message cancels every request (it is back)."""
        table, player = self.replica.table, self.replica.player
        if table is None or player is None or player.peer is None or not table.escrow or table.finished:
            return
        me = player.seat
        if me is None or me not in table.in_play:
            return
        if self.replica.relaying:
            silent = self.relay.silent_seats(self.relay_timeout)
        else:
            seats, when = self.silent
            now = self.clock()
            silent = tuple(seat for seat in seats if now - when < SILENT_NEWS_S
                           and now - self.signed_at.get(seat, self.watching_since) >= self.relay_timeout)
        awaited = set(silent) & set(waiting_for(table, me))
        blocked = table.carry_on_blocked(awaited, silent)
        if blocked is not None:
            if blocked != self._told_blocked:
                self._told_blocked = blocked
                self.report(CannotGoOn(blocked))
            return
        for seat in sorted(awaited):
            if me in table.carry_on_requests.get(seat, frozenset()) or not table.can_carry_on(seat, me):
                continue
            self.report(AskingCarryOn(seat, self.relay_timeout))
            player.catch_up_seq()
            self.outgoing(player.peer.carry_on(seat))

    def say_where(self) -> None:
        """Put where we accept connections in the log (we may relay one day), once per address."""
        table, player = self.replica.table, self.replica.player
        if (self.replica.relaying or table is None or player is None or player.peer is None
                or self.relay.router.sock is None or player.seat is None or player.seat not in table.in_play
                or table.finished):
            return
        here = self.advertise or (local_ip_toward(self.uplink.address), self.relay.router.port)
        if table.reach.get(player.seat) != here:
            player.catch_up_seq()
            self.outgoing(player.peer.reach(*here))

    # ------------------------------------------------------------------ leaving

    def forfeit(self) -> None:
        """Leave for good. From the lobby we just leave; once the game has
        started we forfeit (after our keys, if they are not in yet: without
        them the others could never go on); after the end there is nothing
        to forfeit."""
        table, seat = self.replica.table, self.replica.seat
        if table is None or table.game_id is None or seat is None:
            self.uplink.send(frames.LeaveLobby())
            raise PeerExit(0, StoppedUnanswered(ongoing=False))
        if table.finished:
            self.report(ForfeitSaid(ForfeitWord.GAME_OVER))
            return
        others = [s for s in table.in_play if s != seat]
        if len(others) < 2:  # we leave fewer than two in play: the game is conceded (§6), nobody plays on
            self.report(ForfeitConcedes(others[0] if others else None))
        else:
            self.report(ForfeitSaid(ForfeitWord.GOES_ON, self.replica.relaying))
        self.forfeiting = True
        self.recheck_outbox = True
