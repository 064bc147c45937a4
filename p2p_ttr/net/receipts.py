"""What the host's receipts add to an audit.

An entry the fold refuses because its author wrote at a log head this log
never had (`unknown_head`) blames nobody on the log alone: the file may have
been altered there. A peer's receipts settle it: if the host (the relay of
that entry: seat 0 until a hand-over) signed this very
entry at this index after this very prefix, the file is as the host relayed
it, and the host sequenced an entry no honest host accepts (its author had
been shown another log). The host is then the seat to blame.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from p2p_ttr.errorcodes import ErrorCode
from p2p_ttr.table.verify import Verdict

from .seqsig import entry_hash, entry_signed, prev_head
from .store import GameStore


def load_receipts(log: Path, game_id: bytes) -> dict[int, tuple[bytes, bytes]]:
    """The receipts a peer kept beside ``log`` (in its game folder), if any;
    StoreError, naming the file, if it is bigger than any peer's can be
    (judged by its size, before it is read)."""
    return GameStore(log.parent, game_id).receipts()


def blame_with_receipts(verdict: Verdict, entries: list[bytes],
                        receipts: dict[int, tuple[bytes, bytes]]) -> Verdict:
    """``verdict`` with an unattributed `unknown_head` finding blamed on the
    host when the host's receipt vouches for that entry."""
    table = verdict.table
    if not table.seats or table.game_id is None:
        return verdict
    findings = []
    for f in verdict.findings:
        i = f.entry
        if (f.seat is None and f.code is ErrorCode.UNKNOWN_HEAD and i is not None and i < len(entries)
                and i <= len(table.log) and i in receipts):
            digest, sig = receipts[i]
            raw = entries[i]
            relay = table.relay_at(i)
            if digest == entry_hash(raw) and entry_signed(table.seats[relay].identity, table.game_id, i,
                                                          prev_head(table, i), raw, sig):
                f = replace(f, seat=relay, code=ErrorCode.HOST_SEQUENCED_INVALID,
                            reason=f"{f.reason}; the host signed this entry at this index, so it relayed an "
                                   "entry written on another log: it showed its author a different log")
        findings.append(f)
    return replace(verdict, findings=tuple(findings))

