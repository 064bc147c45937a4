"""Optional timing trace for bench/lan.py: JSON lines of (wall time, event).
Holds no secrets: only event names, seats and durations."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from p2p_ttr.engine.events import DrawBlind
from p2p_ttr.table.envelope import open_envelope
from p2p_ttr.table.messages import Act, Message, ProveRemask, ProveShuffle, Remask, Shuffle, message_from_wire
from p2p_ttr.table.obligations import Owed
from p2p_ttr.table.table import Table


class Trace:
    """Timestamps of a peer's milestones for the benchmarks (bench/lan.py), one JSON line each; off unless --trace."""

    def __init__(self, path: Path | None) -> None:
        self.file = open(path, "a") if path is not None else None
        self._first_turn = False
        self._marks: set[str] = set()
        self.event("started")  # after the imports: how long a process takes to come up
        self._draw: tuple[float, int] | None = None  # when, cards known then
        self._handover = -1  # the index of the last hand-over seen
        self._moved = True
        self._carried = 0

    def event(self, name: str, **fields: Any) -> None:
        if self.file is not None:
            self.file.write(json.dumps({"t": time.time(), "event": name, **fields}) + "\n")
            self.file.flush()

    def sent(self, raw: bytes, table: Table, seat: int) -> None:
        if self.file is None:
            return
        try:
            message = message_from_wire(open_envelope(raw).body)
        except Exception:
            return
        if not self._first_turn:
            # The set-up's timeline (bench/lan.py --timeline): what this peer
            # sent when, each chain's steps and proofs named by their epoch.
            self.event("sent", kind=message.KIND, **_chain_of(message))
        if table.engine is None:
            return
        if isinstance(message, Act) and isinstance(message.action, DrawBlind):
            self._draw = (time.monotonic(), _known(table, seat))

    def folded(self, table: Table, seat: int | None) -> None:
        if self.file is None or table.engine is None or seat is None:
            return
        for mark, reached in (("seated", True), ("keys_in", table.joint is not None),
                              ("shuffled", bool(table.engine.players[seat].hand))):
            if reached and mark not in self._marks:
                self._marks.add(mark)
                self.event(mark)
        if not self._first_turn and any(o.what is Owed.MOVE for o in table.obligations()):
            self._first_turn = True
            # CPU seconds this process spent so far, interpreter start included:
            # what one peer pays for the setup on its own machine.
            self.event("first_turn", cpu=time.process_time())
        if table.handovers and table.handovers[-1].index != self._handover:
            self._handover = table.handovers[-1].index
            self.event("handed_over", seat=seat, index=self._handover)
            self._moved = False
        if len(table.carried_on) > self._carried:
            self._carried = len(table.carried_on)
            self.event("carried_on", seat=seat)  # a seat's key rebuilt from escrow
        if self._handover >= 0 and len(table.log) == self._handover + 2:
            self.event("entry_after_handover", seat=seat)  # the new relay sequences again
        if not self._moved and self._handover >= 0 and _is_act(table.log[-1]):
            self._moved = True  # the first move the new relay sequenced
            self.event("moved_after_handover", seat=seat)
        if self._draw is not None and _known(table, seat) > self._draw[1]:
            self.event("draw_known", seat=seat, latency=time.monotonic() - self._draw[0])
            self._draw = None


def _chain_of(message: Message) -> dict[str, Any]:
    match message:
        case Shuffle(step) | Remask(step):
            return {"deck": step.deck, "epoch": step.epoch}
        case ProveShuffle(proof) | ProveRemask(proof):
            return {"deck": proof.deck, "epoch": proof.epoch}
    return {}


def _is_act(raw: bytes) -> bool:
    try:
        return isinstance(message_from_wire(open_envelope(raw).body), Act)
    except Exception:
        return False


def _known(table: Table, seat: int) -> int:
    assert table.engine is not None
    return sum(1 for r in table.engine.players[seat].hand if table.engine.face(r) is not None)
