"""The successor's side of a hand-over, on our ROUTER.

While another seat relays, our ROUTER waits for the day the relay leaves
and we are its successor (the lowest seat in play other than the relay,
table/relaying.py): seats that lost the relay come to us with their signed
follow requests. ``Standby`` keeps the latest valid request of each, says
whether every other seat in play has turned to us and whether our log holds
everything any of them holds, and sequences our ``relay`` entry when the
hand-over (handover.py) decides to take over.

It never decides by itself that the relay is gone.
"""

from __future__ import annotations

from collections.abc import Callable

from p2p_ttr.client.doorfacts import Dropped, Dropping
from p2p_ttr.client.livenessfacts import Awaited
from p2p_ttr.client.netnotices import FollowsUs, Report
from p2p_ttr.client.peerexits import OwnHandOverRefused
from p2p_ttr.table.relaying import FollowRequest, follow_valid

from .admission import Admission
from .catchup import CatchUp, Note
from .exits import PeerExit
from .followrequests import FollowRequests
from .replica import Replica
from .sequencer import Sequencer


class Standby:
    """Follow requests to us, the successor, and our taking over."""

    def __init__(self, replica: Replica, admission: Admission, catchup: CatchUp, sequencer: Sequencer,
                 report: Report, requests: FollowRequests,
                 signed: Callable[[int], None] = lambda seat: None) -> None:
        self.replica = replica
        self.admission = admission
        self.catchup = catchup
        self.sequencer = sequencer
        self.report = report
        self.requests = requests  # seat -> its follow request to us (shared with catch-up)
        self.signed = signed  # a seat's signed word reached us (its request)

    def _successor_others(self) -> list[int] | None:
        """The seats in play other than the relay and us, if we are the successor and do not relay."""
        table = self.replica.table
        if table is None or not table.seated or self.replica.relaying or table.successor != self.replica.seat:
            return None
        return [s for s in table.in_play if s not in (table.relay, self.replica.seat)]

    def follow(self, rid: bytes, length: int, head: bytes, sig: bytes) -> bool:
        """A seat that lost the relay turns to us, its successor, with its
        signed request. False: we are not its successor (it may be showing
        us that it turned: handover.py)."""
        table, me = self.replica.table, self.replica.seat
        seat = self.admission.connections.seat_of(rid)
        others = self._successor_others()
        if table is None or table.game_id is None or others is None:
            return False
        if seat not in others:
            return True  # only a seat in play other than the relay asks (the fold takes no other request)
        assert me is not None
        request = FollowRequest(seat, length, head, sig)
        if not follow_valid(table.seats[seat].identity, table.game_id, table.term, table.relay, me, request):
            self.report(Dropped(Dropping.FOLLOW_UNSIGNED, seat))
            return True
        if length <= len(table.log) and table.heads[length] != head:
            self.report(Dropped(Dropping.FOLLOW_NOT_PREFIX, seat))
            return True
        if seat not in self.requests:
            self.report(FollowsUs(seat, table.relay))
        self.requests.keep(request)
        # Its signed word, every heartbeat: the seat is alive, so we never
        # ask to carry it on while it follows us (seatduties.py).
        self.signed(seat)
        self.catchup.requested_from(seat, length)
        self.catchup.fetch(rid, seat)
        return True

    def all_requested(self) -> bool:
        """Every seat in play but the relay and us sent us its follow request."""
        others = self._successor_others()
        return bool(others) and all(s in self.requests for s in others or ())

    def ready_to_take_over(self, note: Note) -> bool:
        """Every other seat in play follows us, and our log holds every entry any of them holds."""
        others = self._successor_others()
        table = self.replica.table
        if others is None or table is None:
            return False
        missing = [s for s in others if s not in self.requests]
        if missing:
            note(tuple(missing), Awaited.TURN_TO_US)
            return False
        if not self.catchup.caught_up_with_all(others, Awaited.SEND_HELD, note):
            return False
        # A request counts only for a hand-over at exactly its length (the
        # fold's rule): a seat whose log is shorter than ours catches up from
        # us (our ROUTER answers its sync) and asks again at our length.
        behind = [s for s in others if self.requests[s].length != len(table.log)]
        if behind:
            note(tuple(behind), Awaited.CATCH_UP)
            return False
        return True

    def take_over(self, handover: bytes) -> None:
        """Sequence our ``relay`` entry: from it on we relay."""
        if not self.sequencer.sequence(handover, None):
            raise PeerExit(1, OwnHandOverRefused())
        self.requests.spent()
        self.sequencer.release()
