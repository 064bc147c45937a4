"""Auditing a finished game's log from scratch (`ttr verify`).

1. Fold every entry into a fresh table with no secrets, as any peer would:
   framing, signatures, the hash chain (each message's head must be a head of
   the log before it), sequence numbers, every proof, every move's legality.
   The first entry refused is the first deviation, blamed on the seat that
   signed it (or on nobody, when the signature itself is bad).
2. The game must be complete: over, and every seat's secrets revealed.
3. The deck audit re-executes every shuffle and re-masking from the revealed
   seeds, decrypts every deck epoch with the revealed exponents, and checks
   every share and every card that became public.
4. The final scores are recomputed from the folded game.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2p_ttr.deck import (
    AuditReport,
    CardOpening,
    DeckCreation,
    Record,
    SecretReveal,
    Transcript,
    audit,
)
from p2p_ttr.deck.remask import RemaskCreation, RemaskStep
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.engine.outcome import final_score
from p2p_ttr.engine.scoring import GameScore
from p2p_ttr.engine.state import NeedRemask, NeedShuffle

from .envelope import open_envelope
from .errors import TableError
from .messages import Act, Audit, Keys, Remask, Shares, Shuffle, message_from_wire
from .table import DECK_NAMES, Table, deck_ref


@dataclass(frozen=True)
class Finding:
    """A reason the log does not verify."""

    entry: int | None  # index in the log (0 = the seating)
    seat: int | None  # the seat to blame, if one can be named
    code: str
    reason: str

    def line(self) -> str:
        where = f"entry {self.entry}" if self.entry is not None else "the log"
        who = f"seat {self.seat}" if self.seat is not None else "no seat can be blamed"
        return f"{where}: {who}: {self.reason} [{self.code}]"


@dataclass(frozen=True)
class Verdict:
    entries: int
    names: tuple[str, ...]
    findings: tuple[Finding, ...]
    deck: AuditReport | None
    score: GameScore | None
    table: Table

    @property
    def fair(self) -> bool:
        return not self.findings and self.deck is not None and self.deck.ok


def verify_entries(entries: list[bytes]) -> Verdict:
    table = Table()
    findings: list[Finding] = []
    records: list[Record] = []
    for index, raw in enumerate(entries):
        before = _chain_context(table)
        try:
            envelope = table.receive(raw)
        except (TableError, EngineError) as exc:
            findings.append(Finding(index, _blame(table, raw, exc), exc.code, str(exc)))
            break
        records += _deck_records(table, before, envelope.seat, envelope.body)
    names = tuple(s.name for s in table.seats)
    if not findings and not table.complete:
        findings.append(Finding(None, None, "incomplete", _incomplete(table)))
    if findings or table.engine is None or table.game_id is None:
        return Verdict(len(entries), names, tuple(findings), None, None, table)
    for ref, card in sorted(table.engine.public.items()):
        if ref in table.shares:
            records.append(CardOpening(deck_ref(ref), card, min(table.shares[ref])))
    report = audit(Transcript(table.game_id, tuple(records)))
    for d in report.deviations:
        findings.append(Finding(None, d.seat, "deck_audit", f"{d.kind}: {d.detail}"))
    return Verdict(len(entries), names, tuple(findings), report, final_score(table.engine), table)


def _chain_context(table: Table) -> NeedShuffle | NeedRemask | None:
    """What deck chain (if any) the next entry may extend, before it is applied."""
    return table._need_chain()


def _deck_records(table: Table, before: NeedShuffle | NeedRemask | None, seat: int, body: list[object]) -> list[Record]:
    """The deck-transcript records an accepted message contributes."""
    message = message_from_wire(body)  # type: ignore[arg-type]
    match message:
        case Keys(key, commitment):
            return [key, commitment]
        case Shuffle(step):
            assert isinstance(before, NeedShuffle)
            first = [DeckCreation(step.deck, step.epoch, before.cards)] if step.seat == 0 else []
            return [*first, step]
        case Remask(deck, epoch, cts):
            assert isinstance(before, NeedRemask)
            first = (
                [RemaskCreation(DECK_NAMES[deck], epoch, tuple(deck_ref(r) for r in before.refs))]
                if seat == 0
                else []
            )
            return [*first, RemaskStep(DECK_NAMES[deck], epoch, seat, cts)]
        case Shares(shares) | Act(_, shares):
            return list(shares)
        case Audit(seed, secret):
            return [SecretReveal.of(secret, seed)]
    return []


def _blame(table: Table, raw: bytes, exc: Exception) -> int | None:
    """The seat that signed a refused entry; nobody if the signature is bad."""
    if getattr(exc, "code", "") in ("bad_signature", "malformed", "wrong_game"):
        return None
    try:
        return open_envelope(raw).seat
    except TableError:
        return None


def _incomplete(table: Table) -> str:
    if table.engine is None:
        return "the log ends before the game started"
    if not table.engine.over:
        return f"the log ends during the game (turn {table.engine.turn})"
    missing = [s for s in range(table.n) if s not in table.audits]
    return f"the log ends before seats {missing} revealed their secrets"
