"""Auditing a finished game's log from scratch (`ttr verify`).

1. Fold every entry into a fresh table with no secrets, as any peer would:
   framing, signatures, the hash chain (each message's head must be a head of
   the log before it), sequence numbers, every proof, every move's legality.
   The first entry refused is the first deviation, blamed on the seat that
   signed it (or on nobody, when the signature itself is bad).
2. The game must be complete: over, and every seat's secrets revealed.
3. The deck audit re-executes every shuffle, re-masking and mix from the
   revealed seeds, decrypts every deck epoch with the revealed exponents, and checks
   every share and every card that became public.
4. The final scores are recomputed from the folded game.

Independent proof checks (each chain's, slices of the share proofs) go to
a pool of worker processes, one per core (checkpool.py), while the fold goes
on, taken as passing; if any did not, the log is folded again in this
process checking each proof inline, which names the first bad entry exactly
as a single process does. The findings never depend on the pool.

A seat carried on from escrow never signs a reveal: the fold rebuilt its
secrets from the others' shares, and they stand for its reveal in the deck
audit (checked, as any reveal, against its key and seed commitment).
"""

from __future__ import annotations

from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from p2p_ttr.deck import (
    AuditReport,
    CardOpening,
    DeckCreation,
    MixCreation,
    Record,
    RemaskCreation,
    RemaskStep,
    SecretReveal,
    ShuffleStep,
    Transcript,
    audit,
    g_pow,
)
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.engine.outcome import final_score
from p2p_ttr.engine.scoring import GameScore
from p2p_ttr.engine.state import NeedMix, NeedShuffle
from p2p_ttr.errorcodes import ErrorCode

from .envelope import Envelope, check_signature, open_envelope, open_frame
from .errors import BadProof, TableError
from .messages import EUROPE_RULES_5, RULES, RULES_6, Audit, Forfeit, Keys, Message, Mix, Remask, Seating, Shares, Shuffle
from .cards import deck_ref
from .auditprefetch import AuditPrefetch
from .decoded import DecodedEntry, decode_entry
from .checkpool import CheckPool, pool_for
from .chains import Need
from .table import Table



@dataclass(frozen=True)
class Finding:
    """A reason the log does not verify."""

    entry: int | None  # index in the log (0 = the seating)
    seat: int | None  # the seat to blame, if one can be named
    code: ErrorCode
    reason: str

    def line(self) -> str:
        where = f"entry {self.entry}" if self.entry is not None else "the log"
        who = f"seat {self.seat}" if self.seat is not None else "no seat can be blamed"
        return f"{where}: {who}: {self.reason} [{self.code}]"


@dataclass(frozen=True)
class Verdict:
    """What ``ttr verify`` found: findings (empty when fair), the deck audit, the final score, and the folded
    table."""

    entries: int
    names: tuple[str, ...]
    findings: tuple[Finding, ...]
    deck: AuditReport | None
    score: GameScore | None
    table: Table
    # The log entry of each deck-audit record (the record's index in the
    # transcript is not the log's: a message may make several records).
    record_entries: tuple[int, ...] = ()

    def entry_of(self, record: int | None) -> int | None:
        """The log entry that made deck-audit record ``record``."""
        return self.record_entries[record] if record is not None and record < len(self.record_entries) else None

    def locate(self, record: int | None) -> str:
        """Where a deck-audit record came from, numbered as the log numbers
        its entries (0 = the seating). A card opening is not an entry: it is
        checked against the faces the folded game made public."""
        entry = self.entry_of(record)
        if entry is not None:
            return f"entry {entry}"
        return "entry -" if record is None else "public face"

    @property
    def fair(self) -> bool:
        return not self.findings and self.deck is not None and self.deck.ok

    @property
    def carried_on(self) -> tuple[tuple[int, int], ...]:
        """(entry, seat) of every carry-on: the entry completed the seat's escrow."""
        return tuple(sorted((entry, seat) for seat, entry in self.table.carried_on.items()))

    @property
    def conceded(self) -> bool:
        """The game ended early, conceded (fewer than two seats in play)."""
        return self.table.conceded

    @property
    def conceded_to(self) -> int | None:
        """The seat left in play when the game was conceded, ranked first; None if none."""
        return self.table.engine.conceded_to if self.table.engine is not None else None


def verify_entries(entries: list[bytes], workers: int | None = 1) -> Verdict:
    """Verify a whole log. When every seat revealed a secret that matches its
    key, cards are opened with the joint secret, shares' values are checked by
    the deck audit against each seat's secret and their proofs in one batch at
    the end (fast, and a bad share cannot stop the fold before the audit names
    its seat). Otherwise, or if any of that fails, every proof is checked as
    the game went, which names the first bad entry.

    ``workers``: processes checking proofs (None: one per core, as `ttr
    verify` asks; the default 1 checks every proof in this process, as a
    peer, a watcher and the tests do: no fork). The verdict is the same
    whatever their number.

    A log whose seat 0 signed a seating under other rules (another rules
    version, protocol.md §5) is not judged: its moves follow rules this
    engine does not play. It gets the one finding ``other_rules``."""
    other = _other_rules(entries)
    if other is not None:
        return Verdict(len(entries), (), (other,), None, None, Table())
    # Decoded once for the secret, the deck records and a second pass (the fold decodes its own).
    opened = _open_all(entries)
    secret = _joint_secret(opened)
    pool = pool_for(len(entries), workers, _largest_shuffle(opened))
    prefetch = AuditPrefetch()
    if pool is not None and secret is not None:
        prefetch.start(pool, opened, secret)
    try:
        return _verify_log(entries, opened, secret, pool, prefetch)
    except (BrokenProcessPool, OSError):
        if pool is None:
            raise
        # The workers could not run (no fork here, or one was killed): the
        # same verdict from this process alone.
        return _verify_log(entries, opened, secret, None, AuditPrefetch())
    finally:
        if pool is not None:
            pool.close()


def _verify_log(entries: list[bytes], opened: list[DecodedEntry | None], secret: int | None,
                pool: CheckPool | None, prefetch: AuditPrefetch) -> Verdict:
    if secret is not None:
        verdict = _verify_pooled(entries, opened, secret, pool, prefetch)
        # With a pool, the share proofs were among the pool's checks.
        if verdict is not None and not verdict.findings and _same_secrets(verdict.table, secret) \
                and (pool is not None or _share_proofs_hold(verdict.table)):
            return verdict
        # Checking every proof as the game went names the first bad entry
        # exactly; it is slower, so only done when something is wrong.
    return _verify_pooled(entries, opened, None, pool, prefetch) or _verify(entries, opened, None, None, prefetch)


def _verify_pooled(entries: list[bytes], opened: list[DecodedEntry | None], secret: int | None,
                   pool: CheckPool | None, prefetch: AuditPrefetch) -> Verdict | None:
    """The fold with the proofs checked by ``pool``: the verdict if every one
    of them held, None if one did not (the caller folds again inline to name
    it). Without a pool, the inline fold's verdict."""
    verdict = _verify(entries, opened, secret, pool, prefetch)
    if pool is not None and not pool.holds():
        return None
    return verdict


def _largest_shuffle(opened: list[DecodedEntry | None]) -> int:
    return max((len(d.message.step.ciphertexts) for d in opened
                if d is not None and isinstance(d.message, (Shuffle, Mix))), default=0)


def _share_proofs_hold(table: Table) -> bool:
    """Every stored share's proof holds (the fast fold checked their values only)."""
    if table.joint is None:
        return True
    try:
        table.shares.check_every_proof(table.joint)
    except BadProof:
        return False
    return True


def _verify(entries: list[bytes], opened: list[DecodedEntry | None], secret: int | None,
            pool: CheckPool | None, prefetch: AuditPrefetch) -> Verdict:
    # The epochs the pool opens for the audit are decrypted ahead.
    table = Table(audit_secret=secret, eager_proofs=True, pool=pool, decrypted_ahead=prefetch.plaintext)
    refused: Finding | None = None
    records: list[Record] = []
    record_entry: list[int] = []
    for index, raw in enumerate(entries):
        before = table.chain_due()  # the chain the entry may extend
        derived = len(table.deck.derived_steps)
        carried = set(table.carried_on)
        try:
            table.receive(raw, opened[index])  # decoded once, by _open_all
        except (TableError, EngineError) as exc:
            refused = Finding(index, _blame(table, raw, exc), exc.code, str(exc))
            break
        decoded = opened[index]
        assert decoded is not None  # the table accepted it, so it decodes
        added = _deck_records(before, decoded.message)
        # Steps the fold took for forfeited seats, caused by this entry.
        for need, step in table.deck.derived_steps[derived:]:
            added += _chain_records(need, step)
        # Secrets rebuilt from escrow by this entry stand for the seat's reveal.
        for seat in sorted(set(table.carried_on) - carried):
            secrets = table.forfeited[seat]
            added.append(SecretReveal.of(secrets.key, secrets.seed))
        records += added
        record_entry += [index] * len(added)
    if pool is not None and secret is not None and table.joint is not None:
        # Every share's proof, which the fast fold did not check (the values
        # are the audit's): the workers check them during the audit below.
        pool.shares(table.joint, [(share, table.chains.ciphertext(ref)) for ref, by_seat in table.shares.items()
                                  for share in by_seat.values()])
    names = tuple(s.name for s in table.seats)
    findings = _found_in_play(table, refused)
    if not table.complete and refused is None:
        findings += _incomplete(table)
    if (findings and not (table.halted and table.complete)) or table.engine is None or table.game_id is None:
        return Verdict(len(entries), names, _in_log_order(findings), None, None, table, tuple(record_entry))
    for ref, card in sorted(table.engine.public.items()):
        if ref in table.shares:
            records.append(CardOpening(deck_ref(ref), card, min(table.shares[ref])))
    report = audit(Transcript(table.game_id, tuple(records)), precomputed=prefetch)
    for d in report.deviations:
        entry = record_entry[d.record] if d.record is not None and d.record < len(record_entry) else None
        findings.append(Finding(entry, d.seat, ErrorCode.DECK_AUDIT, f"{d.kind}: {d.detail}"))
    stopper = table.halting.stopper
    if stopper is not None and table.culprit is None and not report.deviations:
        # The reveal that halted the game found nothing the audit can confirm:
        # the halt is the stopper's deviation (an entry refused after it stays).
        without_cause = Finding(table.halted_at, stopper, ErrorCode.HALTED_WITHOUT_CAUSE,
                                f"seat {stopper} halted the game, but every shuffle, share and move checks out")
        findings = [without_cause if f.code is ErrorCode.HALTED else f for f in findings]
    score = final_score(table.engine) if table.engine.over else None
    return Verdict(len(entries), names, _in_log_order(findings), report, score, table, tuple(record_entry))


def _in_log_order(findings: list[Finding]) -> tuple[Finding, ...]:
    """The first deviation in log order leads (a false shuffle before the halt
    it caused, a false proof before the entries refused after its halt)."""
    return tuple(sorted(findings, key=lambda f: (f.entry is None, f.entry or 0, f.seat is None)))


def _found_in_play(table: Table, refused: Finding | None) -> list[Finding]:
    """What the fold itself found, ``refused`` being the first entry it
    refused (the fold stops there). A log may go on past its first deviation:
    a halt names its own cause (a false proof: the proof's seat and entry,
    before the entry that completed its chain and before any entry refused
    because the game was halted); a false proof whose chain never completed
    is found by checking the proofs the chain holds. Either comes before the
    refusal, which is listed too."""
    found: list[Finding] = []
    if table.halted is not None:
        found.append(Finding(table.halted_at, table.culprit, ErrorCode.HALTED, f"the game was halted: {table.halted}"))
    elif refused is not None:
        false = table.false_pending_proof()
        if false is not None:
            seat, entry, reason = false
            found.append(Finding(entry, seat, ErrorCode.BAD_PROOF, f"a false proof of a chain step: {reason}"))
    if refused is not None:
        found.append(refused)
    return found


def _open_all(entries: list[bytes]) -> list[DecodedEntry | None]:
    """Each entry's envelope and message, unchecked; None where it does not decode."""
    out: list[DecodedEntry | None] = []
    for raw in entries:
        try:
            out.append(decode_entry(raw))
        except TableError:
            out.append(None)
    return out


def joint_secret(entries: list[bytes]) -> int | None:
    """X = sum of the seats' revealed exponents, if the log reveals one per seat
    and each matches the key that seat announced; None otherwise."""
    return _joint_secret(_open_all(entries))


def _joint_secret(opened: list[DecodedEntry | None]) -> int | None:
    keys: dict[int, int] = {}
    revealed: dict[int, int] = {}
    seats = 0
    for decoded in opened:
        if decoded is None:
            continue
        envelope, message = decoded.envelope, decoded.message
        match message:
            case Seating(players):
                seats = len(players)
            case Keys(key, _):
                keys.setdefault(envelope.seat, key.public_key)
            case Audit(_, secret) | Forfeit(_, secret):
                revealed.setdefault(envelope.seat, secret.x)
    if not seats or sorted(revealed) != list(range(seats)) or sorted(keys) != list(range(seats)):
        return None
    if any(g_pow(revealed[s]) != keys[s] for s in range(seats)):
        return None
    return sum(revealed.values())


def _same_secrets(table: Table, secret: int) -> bool:
    return len(table.audits) == table.n and sum(a.secret.x for a in table.audits.values()) == secret


def _deck_records(before: Need | None, message: Message) -> list[Record]:
    """The deck-transcript records an accepted message contributes."""
    match message:
        case Keys(key, commitment):
            return [key, commitment]
        case Shuffle(step) | Remask(step) | Mix(step):
            assert before is not None
            return _chain_records(before, step)
        case Shares(shares):
            return list(shares)
        case Audit(seed, secret) | Forfeit(seed, secret):
            return [SecretReveal.of(secret, seed)]
    return []


def _chain_records(need: Need, step: ShuffleStep | RemaskStep) -> list[Record]:
    """A chain step, preceded by what its chain starts from when it is the first."""
    if step.seat != 0:
        return [step]
    if isinstance(need, NeedShuffle):
        return [DeckCreation(step.deck, step.epoch, need.cards), step]
    start = MixCreation if isinstance(need, NeedMix) else RemaskCreation
    return [start(step.deck, step.epoch, tuple(deck_ref(r) for r in need.refs)), step]


def _other_rules(entries: list[bytes]) -> Finding | None:
    """The finding for a log that seat 0 opened, signed, under rules other
    than this peer's; None otherwise (a forged seating is left to the fold)."""
    if not entries:
        return None
    try:
        envelope = open_envelope(entries[0])
    except TableError:
        return None
    body = envelope.body
    if (len(body) not in (3, 4, 5) or body[0] != Seating.KIND or not isinstance(body[1], str)
            or body[1] in (RULES, RULES_6, EUROPE_RULES_5)):
        return None
    try:
        check_signature(envelope, body[2][0][1])  # revisions before 6 have the players third
    except (TableError, TypeError, IndexError, ValueError):
        return None
    return Finding(0, None, ErrorCode.OTHER_RULES,
                   f"the game was played under the rules {body[1][:32]!r}; this version of p2p_ttr plays and "
                   f"verifies {RULES} (and {RULES_6}, {EUROPE_RULES_5}) only: verify the log with the version that "
                   "played it")


def _blame(table: Table, raw: bytes, exc: TableError | EngineError) -> int | None:
    """The seat that signed a refused entry; nobody if the signature is bad.

    An unknown head is not blamed either: the entry may be honest and an
    earlier entry altered (the host's signature on each sequenced entry will
    tell the two apart). A malformed entry is blamed on its seat only if that
    seat signed it for this game: a body that does not parse is the signer's
    own statement, while altered bytes carry no valid signature."""
    if exc.code in (ErrorCode.BAD_SIGNATURE, ErrorCode.WRONG_GAME, ErrorCode.UNKNOWN_HEAD):
        return None
    try:
        envelope = open_frame(raw)
    except TableError:
        return None
    if exc.code == ErrorCode.MALFORMED and not _signed_here(table, envelope):
        return None
    return envelope.seat


def _signed_here(table: Table, envelope: Envelope) -> bool:
    """``envelope`` is signed by its seat's identity, for this game."""
    if table.game_id is None or envelope.game_id != table.game_id or envelope.seat >= len(table.seats):
        return False
    try:
        check_signature(envelope, table.seats[envelope.seat].identity)
    except TableError:
        return False
    return True


def _incomplete(table: Table) -> list[Finding]:
    """Why the log is not complete; a seat that withholds its reveal while
    every other seat made its own is named."""
    if table.engine is None:
        return [Finding(None, None, ErrorCode.INCOMPLETE, "the log ends before the game started")]
    if not table.finished:
        waiting = "; ".join(o.describe() for o in table.obligations()) or "nothing"
        stalled = [Finding(None, None, ErrorCode.INCOMPLETE,
                           f"the log ends during the game (turn {table.engine.turn}; waiting for: {waiting})")]
        false = table.false_pending_proof()  # checked in play only with the chain's last proof
        if false is not None:
            seat, entry, reason = false
            stalled.insert(0, Finding(entry, seat, ErrorCode.BAD_PROOF, f"a false proof of a chain step: {reason}"))
        return stalled
    missing = [s for s in range(table.n) if s not in table.audits]
    if len(missing) < table.n:
        return [Finding(None, s, ErrorCode.WITHHELD_AUDIT, f"seat {s} never revealed its secrets; every other seat did")
                for s in missing]
    return [Finding(None, None, ErrorCode.INCOMPLETE, f"the log ends before seats {missing} revealed their secrets")]
