"""Where the relay moves: losing the relay, turning to its successor,
taking over, and an old relay's log cut back to a hand-over.

When the relay leaves (its seat forfeited, or, in an escrow game, silent
past the relay timeout), every replica names the same successor from its
log (the lowest seat in play other than the relay, table/relaying.py). The
others connect to it at the address its ``reach`` put in the log and send it
their signed follow requests; once every other seat in play follows it and
it holds every entry any of them holds, it takes over with a ``relay`` entry
(the fold checks it: unanimity, not silence, makes it legitimate). A seat
that turned alone shows its request to the others (witness.py), and a seat
shown a request of this term turns too (``shown_turn``): the relay moves
rather than a live seat being carried on.

An old relay that finds a valid hand-over at an index where its own log
goes on (it was away, or resumed) drops its entries from there: no seat in
play held them (each signed a request from a shorter log).

It never sequences anything but our own ``relay`` entry.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from p2p_ttr.client.netnotices import (EveryOtherLostRelay, HandOverWhileAway, RelayAnswersAgain, RelayLoss,
                                       RelayLost, RelayMoved, Report, Unreachable)
from p2p_ttr.client.peerexits import HidEntries, NoReceipt
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.table.envelope import open_envelope
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.messages import TakeOver
from p2p_ttr.table.messages import message_from_wire
from p2p_ttr.table.relaying import FollowRequest, follow_valid

from . import frames
from .catchup import Note
from .exits import PeerExit
from .relay import Relay
from .replica import Replica, fold_log
from .seatduties import SeatDuties
from .seqsig import entry_hash, entry_signed
from .trace import Trace
from .uplink import Uplink


class Succession:
    """Who relays next, as this peer sees it, and the moves that change it."""

    def __init__(self, replica: Replica, uplink: Uplink, relay: Relay, duties: SeatDuties, report: Report,
                 trace: Trace, relay_timeout: float, note: Note,
                 held_back: Callable[[float], bool] = lambda now: False,
                 moved: Callable[[], None] = lambda: None) -> None:
        """``note``: says whom we wait for, at a gentle pace; ``held_back``: a
        seat's message is held back by the relay, which answers (witness.py);
        ``moved``: told after each move of the relay."""
        self.replica = replica
        self.uplink = uplink
        self.relay = relay
        self.duties = duties
        self.report = report
        self.trace = trace
        self.relay_timeout = relay_timeout
        self.note = note
        self.turned = False  # the relay is gone: we turned to its successor (and sent it our request)
        # When we last heard the relay as we turned: the successor goes on with
        # it only on a frame that came after (silence shorter than some
        # threshold is no answer: with a relay timeout under HOST_SILENT_S it
        # said "answers again" the moment it turned, and flipped back and forth).
        self.heard_when_turned = 0.0
        self.request: frames.Follow | None = None  # our latest request to the successor, while we turned
        self.held_back = held_back
        self.moved = moved

    # ----------------------------------------------------------- losing the relay

    def relay_gone(self, now: float) -> bool:
        """The relay left the game, or the one we follow has been silent past the relay timeout."""
        table = self.replica.table
        if table is None or not table.seated or self.replica.relaying or table.complete:
            return False
        if table.relay_gone:
            return True
        # Silence, or a message it holds back, moves the relay only where the
        # game can go on without it: with escrow its seat can be carried on;
        # without, its shares are needed for every card, so we wait for it.
        return (table.escrow and self.uplink.seat in (None, table.relay)
                and (self.uplink.silent_for(now) > self.relay_timeout or self.held_back(now)))

    def turn(self, shown_by: int = -1) -> None:
        """The relay is gone: turn to its successor (or become it); ``shown_by``:
        the seat that showed us its request to the successor (-1: we lost it ourselves)."""
        table = self.replica.table
        assert table is not None
        new = table.successor
        why = (RelayLoss.OUT_OF_REACH if shown_by >= 0 else RelayLoss.LEFT if table.relay_gone
               else RelayLoss.HOLDS_BACK if self.uplink.silent_for(time.monotonic()) <= self.relay_timeout
               else RelayLoss.SILENT)
        lost = RelayLost(table.relay, why, new, new == self.replica.seat, self.relay_timeout, shown_by)
        if new is None:
            raise PeerExit(1, lost)
        self.turned = True
        self.heard_when_turned = self.uplink.heard
        self.trace.event("relay_lost", seat=self.replica.seat, relay=table.relay, forfeited=table.relay_gone)
        self.report(lost)
        if new == self.replica.seat:
            # We sign nothing by turning, so we keep listening to the old
            # relay: if it answers again before we take over, we go on with it.
            return
        self.turn_to(new)
        self.sign_request()  # our promise from now on, shown to the others even before the successor answers

    def turn_to(self, seat: int) -> None:
        """Connect to ``seat`` at the address it put in the log."""
        table = self.replica.table
        assert table is not None
        where = table.reach.get(seat)
        if where is None:
            self.report(Unreachable(seat))
            self.uplink.unreachable(seat)
            return
        self.uplink.connect(where[0], where[1], seat, watch_reach=False, our_length=len(table.log))

    def send_follow(self) -> None:
        """Once welcomed by the successor we turned to: our signed follow request."""
        if self.sign_request() and self.request is not None:
            self.uplink.send(self.request)

    def sign_request(self) -> bool:
        """Our request to the successor we turned to, for the log we hold now
        (``request``; witness.py shows it to the others). False: we did not
        turn to another seat."""
        table, player, up = self.replica.table, self.replica.player, self.uplink
        if not self.turned or table is None or player is None or player.peer is None:
            return False
        if up.seat is None or up.seat != table.successor or up.seat == self.replica.seat:
            return False
        request = player.peer.follow(table.relay, up.seat)
        self.request = frames.Follow(request.length, request.head, request.signature)
        return True

    def shown_turn(self, seat: int, request: FollowRequest) -> None:
        """Another seat shows us its signed request to the successor: it lost
        the relay and, for this term, signs nothing else (its promise). In an
        escrow game we turn too rather than let the relay's side carry a live
        seat on: the relay moves, nobody is carried on (protocol.md §9,
        Hand-over, "A seat that turned alone"). Turning is always safe: the
        fold asks why of no request."""
        table, me = self.replica.table, self.replica.seat
        if table is None or not table.seated or table.complete or not table.escrow or table.game_id is None \
                or self.replica.relaying or self.turned or me is None or me == table.successor:
            return
        if seat not in table.in_play or seat in (me, table.relay, table.successor) or table.successor is None:
            return
        if not follow_valid(table.seats[seat].identity, table.game_id, table.term, table.relay, table.successor,
                            request):
            return
        self.duties.heard_from(seat)  # alive: its signed word, on our own clock
        self.turn(shown_by=seat)

    # ------------------------------------------------------------- taking over

    def take_over(self, now: float) -> None:
        """We are the successor: take over once every other seat in play follows us."""
        table, player, store = self.replica.table, self.replica.player, self.replica.store
        if table is None or player is None or store is None or self.replica.relaying \
                or table.successor != self.replica.seat:
            return
        standby = self.relay.standby
        if not self.turned and standby.all_requested():
            # Every other seat in play lost the relay and turned to us: the
            # relay is gone for the game even if we still hear it.
            self.turned = True
            self.heard_when_turned = self.uplink.heard
            self.report(EveryOtherLostRelay(table.relay))
        elif self.turned and not table.relay_gone and self.uplink.heard > self.heard_when_turned \
                and not self.held_back(now) and not standby.all_requested():
            self.turned = False
            self.report(RelayAnswersAgain(table.relay))
        if not self.turned or not standby.ready_to_take_over(self.note):
            return
        last = len(table.log) - 1
        receipt = store.receipts().get(last, (b"", b""))[1]
        assert table.game_id is not None
        if not entry_signed(table.seats[table.relay].identity, table.game_id, last, table.prev_head(last),
                            table.log[last], receipt):
            raise PeerExit(1, NoReceipt(last))
        if not player.ready():
            return
        assert player.peer is not None
        player.catch_up_seq()
        old = table.relay
        standby.take_over(player.peer.take_relay(receipt, tuple(self.relay.requests.values())))
        self.relay.flush()
        self.handed_over(old, table.relay)

    def handed_over(self, old: int, new: int) -> None:
        """The log moved the relay from ``old`` to ``new``."""
        self.turned = False
        self.request = None
        self.relay.forget_requests()
        me = self.replica.seat
        self.report(RelayMoved(old, new, new == me))
        if new == me:
            self.uplink.disconnect()
            self.relay.relaying_from_now()  # the seats that have not found us yet get their time
            # What we sent the old relay and never saw sequenced: ours to
            # sequence now, signed again after our relay entry (which took the
            # next sequence number); one the table no longer takes is refused.
            peer = self.replica.player.peer if self.replica.player is not None else None
            for raw in self.duties.take_pending():
                if peer is not None:
                    self.relay.sequencer.sequence(peer.reseal(raw), None)
        elif self.uplink.seat != new:
            self.turn_to(new)
        self.duties.send_again()
        self.moved()

    def probe(self) -> None:
        """While we relay and hear no seat (after a resume, or cut off): ask
        our successor whether the relay moved without us. If its log holds a
        hand-over, its entries make us a follower (``hand_over_at``). So too
        when our own forfeit ended the game: the successor takes over, and we
        follow it until our log holds the end (``SeatDuties.stays_to_the_end``)."""
        table = self.replica.table
        if table is None or not table.seated or table.complete or self.uplink.sock is not None:
            return
        new = table.successor
        if new is None or new not in table.reach:
            return
        if self.relay.catchup.gated or self.relay.all_silent(self.relay_timeout) or self.duties.stays_to_the_end():
            host, port = table.reach[new]
            self.uplink.connect(host, port, new, watch_reach=False, our_length=len(table.log))

    # ------------------------------------------------------ an old relay's log

    def hand_over_at(self, index: int, raw: bytes, sig: bytes) -> bool:
        """A valid hand-over at ``index``, where our log goes on without it:
        we relayed entries there that no seat in play holds (every one of them
        signed a follow request from a shorter log), so nobody else saw them.
        Our log is cut back to ``index`` and goes on from the hand-over."""
        table, store = self.replica.table, self.replica.store
        assert table is not None and store is not None and table.game_id is not None
        try:
            envelope = open_envelope(raw)
            relay = message_from_wire(envelope.body)
        except (TableError, IndexError):
            return False
        me = self.replica.seat
        if not isinstance(relay, TakeOver) or relay.old != me or relay.old != table.relay_at(index - 1) \
                or not 0 <= envelope.seat < table.n:
            return False  # only the relay it replaces drops entries for a hand-over
        # Its receipt first (cheap), before folding our whole prefix again.
        if not entry_signed(table.seats[envelope.seat].identity, table.game_id, index, table.prev_head(index),
                            raw, sig):
            return False
        # What each seat of the hand-over said it held: the new relay, the
        # log it takes over from; each other seat, its request's length.
        claimed = {envelope.seat: index} | {r.seat: r.length for r in relay.requests}
        for later in table.log[index:]:
            written = open_envelope(later)
            seen = table.heads.index(written.head) if written.head in table.heads else 0
            if written.seat in claimed and seen > claimed[written.seat]:
                # That seat wrote an entry we dropped after applying more of
                # the log than it claims to hold: it hid entries from the
                # hand-over. (One it wrote before, sequenced by us and never
                # relayed when we crashed, is honest: it comes again.)
                raise PeerExit(1, HidEntries(written.seat, index, seen, store.log_path))
        prefix, _ = fold_log(store, table.log[:index])
        try:
            prefix.receive(raw)
        except (TableError, EngineError):
            return False
        dropped = len(table.log) - index
        store.cut(index)
        store.add_receipt(index, entry_hash(raw), sig)
        store.append(raw)
        store.sync()
        self.replica.use(prefix, store)
        self.uplink.rewind(len(prefix.log))
        self.duties.forget_pending()
        self.report(HandOverWhileAway(prefix.relay, index, dropped))
        self.handed_over(prefix.handovers[-1].old, prefix.relay)
        return True
