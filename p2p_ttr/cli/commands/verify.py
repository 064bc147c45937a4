"""`ttr verify FILE`: audit a finished game's log from scratch."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from p2p_ttr.cli.registry import Command
from p2p_ttr.client.numbering import seat_number, seat_words, turn_number
from p2p_ttr.client.words import plural
from p2p_ttr.client.depotwords import warehouse_audit
from p2p_ttr.client.stocks import dummy_draw_words
from p2p_ttr.engine.scoring import score_parts
from p2p_ttr.errorcodes import ErrorCode
from p2p_ttr.net.receipts import blame_with_receipts, load_receipts
from p2p_ttr.net.store import StoreError
from p2p_ttr.table.logfile import LogFileError, read_log
from p2p_ttr.table.verify import Finding, Verdict, verify_entries


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", type=Path, help="the game log (written by `ttr selfplay --crypto --log` or by a peer; "
                        "a peer's `receipts` file beside it is used too)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the report")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per shuffle, share and card opened")


def run(args: argparse.Namespace) -> int:
    try:
        game_id, entries = read_log(args.log)
    except LogFileError as exc:
        print(f"ttr verify: {exc}")
        return UNREADABLE
    # A peer's game folder also holds the host's receipts: they tell an
    # altered file from a host that relayed an entry written on another log.
    # Too big a file is refused before it is read (it is no peer's).
    try:
        receipts = load_receipts(args.log, game_id)
    except StoreError as exc:
        print(f"ttr verify: {exc}")
        return 2
    verdict = blame_with_receipts(verify_entries(entries, workers=None), entries, receipts)  # every core
    if verdict.table.game_id is not None and verdict.table.game_id != game_id:
        print(f"ttr verify: {args.log}'s header names game {game_id.hex()[:8]}, but its seating opens game "
              f"{verdict.table.game_id.hex()[:8]}: the file mixes two games")
        return UNREADABLE
    if args.json:
        print(json.dumps(verdict_json(verdict)))
    else:
        print("\n".join(report_lines(verdict, args.verbose)))
    return exit_code(verdict)


# The exit codes, as --help and protocol.md §8 give them.
FAIR, DEVIATION, UNREADABLE, INCOMPLETE = 0, 1, 2, 3


def exit_code(v: Verdict) -> int:
    """0 fair; 1 a deviation (named at its entry, with its seat unless the
    bytes were altered); 3 a log that stops short of a complete game with
    nothing wrong in what it holds (a game under way, or a peer that left
    early: no seat is to blame for it)."""
    if v.fair:
        return FAIR
    return INCOMPLETE if all(f.code is ErrorCode.INCOMPLETE for f in v.findings) else DEVIATION


def audit_of(entries: list[bytes]) -> list[str]:
    """What `ttr verify` says of these entries (a log held in memory: a watcher's, a replay's), in one
    process: a watcher runs threads, and a fork from a threaded process may copy a lock some thread holds."""
    return [f"audit of the {len(entries)} entries:"] + ["  " + line for line in
                                                         report_lines(verify_entries(entries), False)]


def verdict_json(v: Verdict) -> dict[str, Any]:
    first = v.findings[0] if v.findings else None
    out: dict[str, Any] = {
        "fair": v.fair,
        "entries": v.entries,
        "players": list(v.names),
        "findings": [{"entry": f.entry, "seat": f.seat, "code": f.code, "reason": f.reason} for f in v.findings],
        "blame": None if first is None else {"entry": first.entry, "seat": first.seat},
        "forfeits": [{"seat": seat, "entry": entry} for seat, entry in sorted(v.table.forfeit_entries.items())],
        "carried_on": [{"seat": seat, "entry": entry} for entry, seat in v.carried_on],
        "conceded": v.conceded,
        "conceded_to": v.conceded_to,
        "handovers": [{"entry": h.index, "old_relay": h.old, "new_relay": h.new} for h in v.table.handovers],
    }
    if v.deck is not None:
        out["checked"] = {
            "keys": len(v.deck.keys),
            "proofs": sum(len(chain.proven) for chain in v.table.chains.values()),
            "shuffles": len(v.deck.shuffles),
            "decks": len(v.deck.decks),
            "shares": len(v.deck.shares),
            "openings": len(v.deck.openings),
        }
    if v.score is not None:
        out["scores"] = [p.total for p in v.score.players]
        out["winner"] = v.score.ranking[0]
    return out


def finding_words(f: Finding, v: Verdict) -> str:
    """A finding for a person: its entry, its seat numbered as every screen
    numbers it (client/numbering.py; the JSON keeps the log's 0-based id),
    and why. An incomplete log says the turn and whom it waits for in the
    same words."""
    where = f"entry {f.entry}" if f.entry is not None else "the log"
    who = seat_words(f.seat, v.names) if f.seat is not None else "no seat can be blamed"
    return f"{where}: {who}: {stalled_words(v) if stalled(f, v) else f.reason} [{f.code}]"


def stalled(f: Finding, v: Verdict) -> bool:
    """The finding that a log stops during play (its words are ours: stalled_words)."""
    table = v.table
    return (f.code is ErrorCode.INCOMPLETE and f.seat is None and table.engine is not None and table.seated
            and not table.finished)


def stalled_words(v: Verdict) -> str:
    table = v.table
    assert table.engine is not None
    names = tuple(s.name for s in table.seats)
    waiting = "; ".join(o.describe(names) for o in table.obligations()) or "nothing"
    return f"the log ends during the game (turn {turn_number(table.engine)}; waiting for: {waiting})"


def report_lines(v: Verdict, verbose: bool) -> list[str]:
    # Seats numbered as every screen numbers them (from 1: client/numbering.py).
    seats = ", ".join(seat_words(p, v.names) for p in range(len(v.names)))
    lines = [f"{v.entries} log entries; players: {seats or '(none)'}"]
    if v.deck is not None:
        d = v.deck
        proven = sum(len(chain.proven) for chain in v.table.chains.values())
        lines.append(
            f"checked {len(d.keys)} keys, {len(d.shuffles)} shuffle steps ({proven} proofs of shuffle or "
            f"re-masking), {len(d.decks)} deck epochs, {len(d.shares)} decryption shares, "
            f"{plural(len(d.openings), 'card')} opened"
        )
        if verbose:
            lines += list(d.lines(v.locate))  # numbered as the log numbers its entries
    for seat, entry in sorted(v.table.forfeit_entries.items()):
        lines.append(f"{v.names[seat]} forfeited at entry {entry}; the table played the seat from there "
                     "(the caretaker, protocol.md §6)")
    for entry, seat in v.carried_on:
        lines.append(f"{v.names[seat]} was carried on at entry {entry}: the others opened the seat's secrets "
                     "from escrow and the table played it from there (protocol.md §6, Escrow)")
    if v.conceded and v.score is not None:
        winner = v.conceded_to
        lines.append("the game was conceded: " + ("nobody was left playing" if winner is None else
                     f"{v.names[winner]} was the last one playing and is ranked first by concession"))
    for h in v.table.handovers:
        lines.append(f"the relay moved from {v.names[h.old]} (seat {seat_number(h.old)}) to {v.names[h.new]} "
                     f"(seat {seat_number(h.new)}) at entry {h.index}, with every other seat's follow request")
    if v.score is not None and v.table.game is not None:
        lines.append(f"the game: {v.table.game.title}")
        for place, p in enumerate(v.score.ranking, start=1):
            sc = v.score.players[p]
            parts = [f"routes {sc.routes}", f"tickets {sc.tickets:+}"]
            parts += [f"{part.title} {part.points}" for part in score_parts(v.table.game, sc)]
            lines.append(f"  {place}. {v.names[p]:<12} {sc.total:>4} {'point ' if sc.total == 1 else 'points'} "
                         f"({', '.join(parts)})")
        drawn = dummy_draw_words(v.table.engine) if v.table.engine is not None else None
        lines += [f"  {drawn}"] if drawn else []
        if v.table.engine is not None and v.table.audit_secret is not None:  # every card opens with the secrets
            lines += warehouse_audit(v.table.engine, lambda ref: v.table.shares.open(ref, {}), v.names)
    if v.fair:
        lines.append("VERIFIED: every signature, shuffle, share, move and score checks out.")
    else:
        if all(f.code is ErrorCode.INCOMPLETE for f in v.findings):
            lines.append(f"every one of the {v.entries} entries checks out: signatures, the hash chain, every proof "
                         "and every move; what is left needs the end of the game (every seat reveals its secrets, "
                         "then every shuffle is re-run from its seed and the scores are counted)")
        for f in v.findings:
            lines.append(f"NOT VERIFIED: {finding_words(f, v)}")
    return lines


COMMAND = Command(
    name="verify",
    help="audit a finished game's log: signatures, shuffles, shares, moves and scores",
    description="Re-execute a game log from scratch. Exit 0 if the game was fair; 1 for a deviation, named "
    "at the log entry of the first one with its seat (no seat when the file's bytes were altered, since nobody "
    "signed them); 2 if the file cannot be read or mixes two games; 3 if the log stops short of a complete game "
    "and nothing in what it holds is wrong (a game under way, or the log of a peer that left early).",
    add_arguments=add_arguments,
    run=run,
)
