"""The relay's terms as the log tells them: who relays now, each hand-over,
and where each seat accepts connections should it become the relay.

relaying.py states and checks a hand-over; this part keeps what the log's
hand-overs and ``reach`` messages made of the relay.
"""

from __future__ import annotations

from .envelope import open_envelope
from .errors import NotExpected, TableError
from .messages import TakeOver
from .relaying import HandedOver, check_handover, successor

MAX_REACH = 64  # a seat says where it is once per run of its peer: this many is plenty


class RelayTerms:
    """Seat 0 relays term 0; each hand-over in the log starts the next term."""

    def __init__(self) -> None:
        self.relay = 0
        self.handovers: list[HandedOver] = []
        self.reach: dict[int, tuple[str, int]] = {}  # seat -> where it accepts connections as a relay
        self._reach_sent: dict[int, int] = {}

    @property
    def term(self) -> int:
        """The relay's term: 0 for seat 0's, one more at each hand-over."""
        return len(self.handovers)

    @property
    def term_start(self) -> int:
        """How many entries the log held when this term began (after its ``relay`` entry)."""
        return self.handovers[-1].index + 1 if self.handovers else 0

    def successor(self, in_play: tuple[int, ...]) -> int | None:
        """The seat that relays next if the relay leaves now."""
        return successor(self.relay, in_play)

    def relay_at(self, index: int) -> int:
        """The seat that sequenced (signed the receipt of) entry ``index``: a
        hand-over entry is its new relay's."""
        relay = 0
        for handed in self.handovers:
            if handed.index <= index:
                relay = handed.new
        return relay

    def sequencer_of(self, raw: bytes, n: int) -> int:
        """The seat whose receipt the next entry ``raw`` must carry (``n``
        seats): the relay, or for a hand-over its author, the new relay.
        Which seat that is does not depend on whether the entry will fold."""
        try:
            envelope = open_envelope(raw)
            if envelope.body and envelope.body[0] == TakeOver.KIND:
                return envelope.seat if 0 <= envelope.seat < n else self.relay
        except TableError:
            pass
        return self.relay

    def note_reach(self, seat: int, ip: str, port: int) -> None:
        """``seat`` says where it accepts connections.

        Raises:
            NotExpected: it said so too often already.
        """
        sent = self._reach_sent.get(seat, 0)
        if sent >= MAX_REACH:
            raise NotExpected(f"seat {seat} already said where it is {MAX_REACH} times")
        self._reach_sent[seat] = sent + 1
        self.reach[seat] = (ip, port)

    def take_over(self, seat: int, message: TakeOver, index: int, *, movable: bool, in_play: tuple[int, ...],
                  identities: list[bytes], game_id: bytes, last: tuple[int, bytes, bytes], head: bytes) -> None:
        """The relay moves to ``seat`` with the log's entry ``index``, if the
        hand-over holds (relaying.check_handover says what it checks).

        Raises:
            NotExpected, BadSignature: it does not hold.
        """
        check_handover(seat, message.old, message.receipt, message.requests, relay=self.relay,
                       successor=self.successor(in_play), movable=movable, in_play=in_play, identities=identities,
                       game_id=game_id, term=self.term, last=last, head=head)
        self.handovers.append(HandedOver(index, message.old, seat))
        self.relay = seat
