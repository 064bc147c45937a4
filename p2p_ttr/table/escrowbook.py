"""The escrow of an escrow game (protocol.md §6, Escrow): every seat's deal
of its key and seed, the requests to carry a silent seat on, the shares
handed over for it, and the seats carried on.

The book checks each escrow message against what the log holds and keeps
it; the table decides when to act on it (``ready`` -> carry the seat on)
and plays a carried-on seat exactly as a forfeited one. Nothing here is
secret: every value the book holds is in the log.

Shares are sealed to each recipient's seal key, which is never revealed: a
seat that leaves (forfeits, or is carried on) takes the shares it held with
it. So a seat can be carried on only while every seat it dealt to is still
in play (``request_problem``); after a first departure, nobody can be.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from p2p_ttr.deck import (
    BadEscrow,
    DeckError,
    EscrowDeal,
    SecretKey,
    Seed,
    SeedCommitment,
    check_escrow_share,
    check_seed,
    escrow_dealer_cheated,
    reconstruct_key,
)

from .errors import BadProof, Cheating, Malformed, NotExpected
from .messages import Escrow, EscrowComplaint, EscrowReveal

SEED_BYTES = 32  # a deck seed: what the seed deal's exponent must fit in


@dataclass(frozen=True)
class Carried:
    """A seat's secrets, rebuilt from every share of its deals."""

    seat: int
    key: SecretKey
    seed: Seed


@dataclass(frozen=True)
class DealerCheated:
    """Rebuilding showed the seat's own deal false (its seed deal is not the
    seed it committed to)."""

    seat: int
    reason: str


@dataclass(frozen=True)
class Blocked:
    """Why the ``silent`` seats cannot be carried on: ``gone`` left the game
    at entry ``gone_at``, taking its share of every seat's escrow with it;
    or (``gone`` None) they are silent at once, and carrying one on takes
    every other seat in play."""

    silent: tuple[int, ...]
    gone: int | None
    gone_at: int | None


class EscrowBook:
    """The escrow state of one game; empty and refusing everything when the
    seating did not ask for escrow."""

    def __init__(self, enabled: bool = False) -> None:
        """``enabled``: the seating asked every seat to escrow its secrets."""
        self.enabled = enabled
        self.deals: dict[int, Escrow] = {}
        self.requests: dict[int, set[int]] = {}  # target -> the seats that asked to carry it on
        # Targets every other seat in play asked for: handing over shares has
        # begun, so the target can no longer come back (each share handed over
        # brings the others closer to its key).
        self.carrying: set[int] = set()
        self.reveals: dict[int, dict[int, tuple[int, int]]] = {}  # target -> seat -> (key share, seed share)
        self.carried_on: dict[int, int] = {}  # seat -> index of the log entry that completed its carry-on
        self.back_at: dict[int, int] = {}  # seat -> index of its latest accepted message (it was heard then)

    # ------------------------------------------------------------ the deals

    def missing_deals(self, in_play: Collection[int]) -> tuple[int, ...]:
        """The seats in play whose deal is not in (none without escrow). A
        forfeited seat owes none: its secrets are public."""
        return tuple(s for s in sorted(in_play) if s not in self.deals) if self.enabled else ()

    def deal(self, seat: int, escrow: Escrow, game_id: bytes, key: int, seals: Mapping[int, int]) -> None:
        """Check and keep ``seat``'s deal: ``key``, its public key; ``seals``,
        every seat's seal key (the recipients).

        Raises:
            NotExpected: not an escrow game, keys missing, or dealt already.
            Malformed: the deals name another game or dealer.
            BadProof: a deal does not make its image or deals to the wrong seats.
        """
        if not self.enabled:
            raise NotExpected("this game was seated without escrow")
        if seat in self.deals:
            raise NotExpected(f"seat {seat} already dealt its escrow")
        for deal in (escrow.key, escrow.seed):
            if deal.game_id != game_id or deal.dealer != seat:
                raise Malformed("an escrow deals the author's own secrets for this game")
        try:
            escrow.key.check(key, seals)
            escrow.seed.check(escrow.seed_image, seals)
        except BadEscrow as exc:
            raise BadProof(str(exc)) from None
        self.deals[seat] = escrow

    def judge(self, seat: int, message: EscrowComplaint, seals: Mapping[int, int]) -> int:
        """The dealer a complaint by ``seat`` shows to have cheated (``seals``: every seat's seal key).

        Raises:
            NotExpected: no such deal, or a complaint for another recipient.
            BadProof: the complaint is false (its proof fails, or the share opens).
        """
        complaint = message.complaint
        if complaint.recipient != seat:
            raise NotExpected(f"seat {seat} can only complain of its own share")
        if complaint.dealer not in self.deals or complaint.dealer == seat:
            raise NotExpected(f"there is no escrow of seat {complaint.dealer} for seat {seat} to complain of")
        if not escrow_dealer_cheated(self._deal(complaint.dealer, message.secret), complaint, seals[seat]):
            raise BadProof(f"seat {seat}'s complaint is false: its share of seat {complaint.dealer}'s "
                           f"{message.secret} opens, or the complaint's proof fails")
        return complaint.dealer

    # ----------------------------------------------------------- carrying on

    def request_problem(self, seat: int | None, target: int, in_play: Collection[int], finished: bool,
                        left: Mapping[int, int] | None = None) -> str | None:
        """Why ``seat`` (None: anyone in play) may not ask to carry ``target``
        on now, or None. ``left``: the seats that left, and the entry each
        left at."""
        if not self.enabled:
            return "this game was seated without escrow: a seat that vanishes can only end the game"
        if finished:
            return "the game is over"
        if self.missing_deals(in_play):
            return "not every seat's escrow is in yet"
        if target not in in_play:
            return f"seat {target} is not in play"
        gone = sorted((entry, s) for s, entry in (left or {}).items() if s != target)
        if gone:
            entry, holder = gone[0]
            return (f"seat {holder} left the game at entry {entry}, taking its share of seat {target}'s escrow "
                    "with it (sealed to a key only it holds): escrow carries a seat on only with every seat "
                    "it dealt to, so no seat can be carried on any more")
        if target in self.carrying:
            return f"seat {target} is being carried on already"
        if seat is not None:
            if seat == target:
                return "a seat cannot ask to carry itself on"
            if seat in self.requests.get(target, ()):
                return f"seat {seat} already asked to carry seat {target} on"
        return None

    def blocked(self, awaited: Collection[int], silent: Collection[int], in_play: Collection[int], finished: bool,
                left: Mapping[int, int]) -> Blocked | None:
        """Why none of the ``awaited`` silent seats can be carried on (None:
        one can, or none is awaited): a seat left before (its shares left
        with it), or another seat in play is ``silent`` too (carrying one on
        takes every other seat in play, the other silent one too)."""
        targets = tuple(sorted(s for s in awaited if s in in_play))
        if not self.enabled or finished or not targets or self.missing_deals(in_play):
            return None
        gone = sorted((entry, s) for s, entry in left.items())
        if gone:
            return Blocked(targets, gone[0][1], gone[0][0])
        quiet = tuple(sorted(s for s in silent if s in in_play))
        return Blocked(quiet, None, None) if len(quiet) > 1 else None

    def request(self, seat: int, target: int, in_play: Collection[int], finished: bool,
                left: Mapping[int, int]) -> None:
        """Keep ``seat``'s request for ``target``.

        Raises:
            NotExpected: ``request_problem`` says why not.
        """
        problem = self.request_problem(seat, target, in_play, finished, left)
        if problem is not None:
            raise NotExpected(problem)
        self.requests.setdefault(target, set()).add(seat)

    def stale_request_problem(self, seat: int, target: int, written_after: int, term_start: int) -> str | None:
        """Why a request by ``seat`` to carry ``target`` on, written once its
        author had applied ``written_after`` entries, no longer counts (None:
        it does): it was written before the relay's term began at
        ``term_start`` entries, or before the target's latest message."""
        if written_after < term_start:
            # Asked of the relay before the last hand-over: each term counts its own requests.
            return f"seat {seat} asked to carry seat {target} on before the relay moved (at entry " \
                   f"{term_start - 1}): a request counts only in the relay's term it was written in"
        if written_after <= self.back_at.get(target, -1):
            # Written before the target's latest message: it was back by then.
            return f"seat {seat} asked to carry seat {target} on before seat {target}'s message at entry " \
                   f"{self.back_at[target]}: it was back by then"
        return None

    def new_term(self) -> None:
        """The relay moved: the requests of the last term count for nothing
        now (each term counts its own); handing over that began goes on."""
        self.requests = {t: asked for t, asked in self.requests.items() if t in self.carrying}

    def back(self, seat: int, index: int) -> None:
        """``seat`` signed a message the log accepted at ``index``: it is back,
        and the requests to carry it on lapse (unless handing over has begun);
        so does any request written before it, wherever it is sequenced."""
        self.back_at[seat] = index
        if seat not in self.carrying:
            self.requests.pop(seat, None)

    def settle(self, in_play: Collection[int]) -> bool:
        """Start handing over for every target that every other seat in play
        asked for; True if one started."""
        started = False
        for target, asked in sorted(self.requests.items()):
            if target not in self.carrying and target in in_play and set(in_play) - {target} <= asked:
                self.carrying.add(target)
                started = True
        return started

    def owed_reveals(self, in_play: Collection[int]) -> dict[int, tuple[int, ...]]:
        """seat -> the targets it owes its shares of, now."""
        owed: dict[int, list[int]] = {}
        for target in sorted(self.carrying):
            done = self.reveals.get(target, {})
            for seat in sorted(in_play):
                if seat != target and seat not in done:
                    owed.setdefault(seat, []).append(target)
        return {s: tuple(t) for s, t in owed.items()}

    def reveal(self, seat: int, message: EscrowReveal) -> None:
        """Check and keep ``seat``'s shares of a target's deals.

        Raises:
            NotExpected: no carry-on of that seat asks for them, or sent already.
            Cheating: a share is not its commitment's exponent (the author is named).
        """
        target = message.seat
        if target not in self.carrying:
            raise NotExpected(f"nobody is carrying seat {target} on")
        if seat == target or seat in self.reveals.get(target, {}):
            raise NotExpected(f"seat {seat} owes no share of seat {target}'s escrow")
        deal = self.deals[target]
        if not check_escrow_share(deal.key, seat, message.key_share):
            raise Cheating(f"seat {seat} handed over a false share of seat {target}'s key")
        if not check_escrow_share(deal.seed, seat, message.seed_share):
            raise Cheating(f"seat {seat} handed over a false share of seat {target}'s seed")
        self.reveals.setdefault(target, {})[seat] = (message.key_share, message.seed_share)

    def ready(self, keys: Mapping[int, int], commitments: Mapping[int, SeedCommitment],
              game_id: bytes) -> Carried | DealerCheated | None:
        """The lowest target every recipient handed its shares over for,
        rebuilt and checked against its public key and seed commitment
        (``keys``, ``commitments``: every seat's); None if none is."""
        for target in sorted(self.carrying):
            deal = self.deals[target]
            handed = self.reveals.get(target, {})
            if all(s.recipient in handed for s in deal.key.shares):
                return self._rebuild(target, handed, keys[target], commitments[target], game_id)
        return None

    def cannot_carry(self, seat: int) -> None:
        """Rebuilding ``seat`` showed its own deal false: nobody carries it on (the game halts)."""
        self.carrying.discard(seat)

    def carried(self, seat: int, index: int) -> None:
        self.carrying.discard(seat)
        self.requests.pop(seat, None)
        self.carried_on[seat] = index

    # ------------------------------------------------------------- internals

    def _deal(self, dealer: int, secret: str) -> EscrowDeal:
        escrow = self.deals[dealer]
        return escrow.key if secret == "key" else escrow.seed

    def _rebuild(self, target: int, handed: Mapping[int, tuple[int, int]], key: int, commitment: SeedCommitment,
                 game_id: bytes) -> Carried | DealerCheated:
        escrow = self.deals[target]
        key_shares = {s: v[0] for s, v in handed.items()}
        seed_shares = {s: v[1] for s, v in handed.items()}
        try:
            x = reconstruct_key(escrow.key, key_shares, key)
            number = reconstruct_key(escrow.seed, seed_shares, escrow.seed_image)
            if number >= 1 << (8 * SEED_BYTES):
                raise BadEscrow(f"seat {target}'s escrowed seed is not a seed")
            seed = Seed(number.to_bytes(SEED_BYTES, "big"))
            check_seed(game_id, commitment, seed)
        except DeckError as exc:
            return DealerCheated(target, f"seat {target}'s escrow is false: {exc}")
        return Carried(target, SecretKey(game_id, target, x), seed)
