"""A malicious `ttr join` or `ttr host` process, for the LAN adversarial tests.

    python evil.py join CHEAT REPORT [ttr join arguments...]
    python evil.py host CHEAT REPORT [ttr host arguments...]

It runs the real command with its Node or Host swapped for a cheating one:

* join battery   -- plays its seat honestly, and at every chance also sends the
                    cheats of ``BATTERY`` (malicious.py), each once, on the
                    real connection; REPORT gets the host's answer to each
                    (JSON: cheat -> refusal code).
* join withhold  -- plays until the deck is built, then never sends another
                    message (but stays connected and answers heartbeats).
* host equivocate -- seats 0 and relays like any host, but sends seat 1 a
                    different (validly signed) version of its own keys
                    message at index 1 than the one in its log.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from malicious import CHEATS, Malicious
from p2p_ttr.deck import announce_key, commit_seed
from p2p_ttr.engine.rules import actors
from p2p_ttr.net import frames
from p2p_ttr.net.host import Host
from p2p_ttr.net.node import Node
from p2p_ttr.net.sequencer import Sequencer
from p2p_ttr.net.seqsig import entry_hash, prev_head, sign_entry
from p2p_ttr.table.envelope import open_envelope, pack, seal
from p2p_ttr.table.messages import Keys
from p2p_ttr.table.obligations import Owed

# Cheats whose refusal code cannot depend on what the other seats do meanwhile.
BATTERY = (
    "act_for_another_seat", "illegal_claim", "claim_with_undrawn_cards", "claim_with_anothers_cards",
    "claim_with_a_false_share", "wrong_share", "share_for_another_position", "unowed_share", "forged_signature",
    "stripped_signature", "zeroed_signature", "replay_own_message", "replay_earlier_turn",
    "message_from_another_game", "unknown_head", "second_seating", "second_key",
    "shuffle_dropping_a_card", "seed_not_committed", "exponent_not_our_key", "garbage_bytes",
    "truncated_envelope", "unknown_message_kind", "oversized_envelope", "proof_of_the_wrong_kind",
)
# Only on our own move, with nothing else owed: then nothing changes under them.
# (claim_with_a_false_share needs no such care: it is sent while the table
# waits for our shares of our own act, before we send the honest ones.)
ON_OUR_MOVE = {"illegal_claim", "claim_with_undrawn_cards", "claim_with_anothers_cards"}
# Never answered: the host drops the frame before it reaches the table.
DROPPED = {"oversized_envelope"}


class BatteryNode(Node):
    report: Path

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sent: dict[bytes, str] = {}
        self.answers: dict[str, str] = {}

    def _our_move(self, seat: int) -> bool:
        table = self.table
        assert table is not None
        owed = table.obligations()
        return len(owed) == 1 and owed[0].seat == seat and owed[0].what is Owed.MOVE

    def act(self) -> None:
        table, player = self.table, self.player
        if table is not None and player is not None and self.uplink.welcomed and len(table.log) >= self.uplink.length \
                and table.game_id is not None and player.ready() and player.seat is not None:
            seat = player.seat
            honest = player.peer.seq if player.peer is not None else 0
            m = Malicious(seat, self.identity, table, min_seq=honest + 1)
            done = set(self.sent.values())
            for name in BATTERY:
                if name in done or (name in ON_OUR_MOVE and not self._our_move(seat)):
                    continue
                if name == "act_for_another_seat" and (table.engine is None or seat in actors(table.engine)):
                    continue
                raw = CHEATS[name].forge(m)
                if raw is None:
                    continue
                self.sent[entry_hash(raw)] = name
                self.uplink.sock.send(pack(["env", raw]))  # not frames.encode: it would refuse the oversized one
                if name in DROPPED:
                    self.answers[name] = "dropped"
                self._write()
        super().act()

    def handle(self, raw: bytes) -> None:
        try:
            kind, f = frames.decode(raw, frames.TO_PEER)
        except frames.FrameError:
            kind, f = "", []
        if kind == "rejected" and f[0] in self.sent:
            self.answers[self.sent[f[0]]] = f[1]
            self._write()
            return
        super().handle(raw)

    def _write(self) -> None:
        self.report.write_text(json.dumps(self.answers, sort_keys=True))


class WithholdingNode(Node):
    def act(self) -> None:
        if self.table is not None and self.table.engine is not None and self.table.engine.draw_pile:
            return  # owes shares from here on, and never sends them
        super().act()


class EquivocatingSequencer(Sequencer):
    def sequence(self, raw: bytes, author: bytes | None) -> bool:
        table = self.replica.table
        ok = super().sequence(raw, author)
        if not ok or table is None or len(table.log) != 2 or author is not None or table.game_id is None:
            return ok
        # Index 1 is our keys message: give seat 1 another, validly signed, version of it.
        env = open_envelope(raw)
        me = table.me
        assert me is not None
        other = Keys(announce_key(me.key), commit_seed(table.game_id, 0, me.seed)).to_wire()
        alt = seal(self.identity, table.game_id, 0, env.seq, env.head, other).raw
        sig = sign_entry(self.identity, table.game_id, 1, prev_head(table, 1), alt)
        victim = self.admission.connections.conn.get(table.seats[1].identity)
        self.router.queued = [[rid, frames.encode("entry", 1, alt, sig) if rid == victim else frame]
                              for rid, frame in self.router.queued]
        return ok


class SharesWithholdingSequencer(Sequencer):
    """Sequences a seat's act, takes the shares that play its cards, and never
    sequences them (it has read the cards; the game stalls on the author)."""

    def sequence(self, raw: bytes, author: bytes | None) -> bool:
        table = self.replica.table
        pending = table.pending_act if table is not None else None
        if author is not None and pending is not None and open_envelope(raw).seat == pending.seat \
                and open_envelope(raw).body[0] == "shares":
            self.trace.event("withheld", seat=pending.seat)
            return False  # not sequenced, not refused: held back
        return super().sequence(raw, author)


class SharesWithholdingHost(Host):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.relay.sequencer.__class__ = SharesWithholdingSequencer


class EquivocatingHost(Host):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.relay.sequencer.__class__ = EquivocatingSequencer  # the same sequencer, lying to seat 1 once


def main(argv: list[str]) -> int:
    from p2p_ttr.cli.main import main as ttr  # runs the patched modules: `run` looks Node/Host up when called

    role, cheat, report, rest = argv[0], argv[1], Path(argv[2]), argv[3:]
    if role == "join":
        import p2p_ttr.cli.commands.join as command

        node: type[Node] = {"battery": BatteryNode, "withhold": WithholdingNode}[cheat]
        if node is BatteryNode:
            BatteryNode.report = report
        command.Node = node  # type: ignore[misc]
        return ttr(["join", *rest])
    import p2p_ttr.cli.commands.host as host_command

    host_command.Host = {"equivocate": EquivocatingHost, "withhold_shares": SharesWithholdingHost}[cheat]  # type: ignore[misc]
    return ttr(["host", *rest])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
