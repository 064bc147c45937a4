"""The share book: every decryption share in the log, and opening cards with them.

A card opens when every seat's share of it is known: published in the log,
or computed from a forfeited seat's revealed secret. Proofs of shares that
open a card to all are checked when they arrive; the others (a private
draw's) when the shares are first used, so that only the drawer pays for
them on the draw's critical path (protocol.md §6).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TypeVar, overload

from p2p_ttr.deck import (
    CardCodec,
    Ciphertext,
    DeckError,
    DecryptionShare,
    JointKey,
    SecretKey,
    decrypt_with_exponent,
    decrypt_with_shares,
    own_share,
    verify_shares,
)
from p2p_ttr.engine.cards import CardRef, Deck

from .errors import BadProof, Cheating, Malformed, NotExpected

T = TypeVar("T")


class ShareBook(Mapping[CardRef, dict[int, DecryptionShare]]):
    """The shares stored so far, by card then seat, and which of their proofs
    this replica has not checked yet.

    ``audit_secret``: the joint secret of a finished game (``ttr verify``):
    cards are opened with it, and no proof is checked on arrival (the deck
    audit checks every share's value against its seat's secret, and
    ``check_every_proof`` every proof at the end, in one batch). ``eager_proofs``: check
    every proof on arrival."""

    def __init__(self, ciphertext: Callable[[CardRef], Ciphertext], codec: Callable[[Deck], CardCodec],
                 audit_secret: int | None = None, eager_proofs: bool = False,
                 decrypted_ahead: Callable[[Ciphertext, int], int | None] | None = None) -> None:
        """``ciphertext``: a card's ciphertext in the log; ``codec``: how a deck's opened cards are read (the
        game's cards). ``decrypted_ahead``, with ``audit_secret``: faces decrypted ahead (the deck audit's
        opened epochs, `ttr verify`'s workers), by ciphertext and secret; None where a card was not, which
        is then decrypted here."""
        self._ciphertext = ciphertext
        self._codec = codec
        self.audit_secret = audit_secret
        self.eager_proofs = eager_proofs
        self.decrypted_ahead = decrypted_ahead
        self._shares: dict[CardRef, dict[int, DecryptionShare]] = {}
        # Stored shares whose proofs this replica has not checked yet (card -> seats).
        self.unchecked: dict[CardRef, set[int]] = {}

    def __getitem__(self, ref: CardRef) -> dict[int, DecryptionShare]:
        return self._shares[ref]

    def __iter__(self) -> Iterator[CardRef]:
        return iter(self._shares)

    def __len__(self) -> int:
        return len(self._shares)

    @overload
    def get(self, ref: CardRef, /) -> dict[int, DecryptionShare] | None: ...
    @overload
    def get(self, ref: CardRef, default: dict[int, DecryptionShare] | T, /) -> dict[int, DecryptionShare] | T: ...

    def get(self, ref: CardRef, default: object = None, /) -> object:
        # The dict's own get: Mapping's (a lookup inside try/except) was a
        # quarter of a fold's bookkeeping, called for every card held by
        # every seat at every share (obligations.owed_shares).
        return self._shares.get(ref, default)

    def store(self, joint: JointKey, seat: int, shares: Iterable[tuple[DecryptionShare, CardRef]],
              owed: set[CardRef], public: set[CardRef]) -> None:
        """Check and store ``seat``'s shares (each with its card); each must be
        owed now. Proofs of shares of ``public`` cards (about to be opened to
        all) are checked now, the others' when first used (``check_stored``).

        Raises:
            Malformed: a share names another seat, or comes twice.
            NotExpected: a share nobody owes.
            BadProof: a proof checked now fails.
        """
        pairs = list(shares)
        for share, ref in pairs:
            if share.seat != seat:
                raise Malformed("a share carries its author's seat")
            if ref not in owed:
                raise NotExpected(f"seat {seat} owes no share for card {ref} now")
        if len({ref for _, ref in pairs}) != len(pairs):
            raise Malformed("the same share is sent twice")
        now = [(s, r) for s, r in pairs if self.eager_proofs or r in public]
        if self.audit_secret is None and now:
            try:
                verify_shares(joint, [(s, self._ciphertext(r)) for s, r in now])
            except DeckError as exc:
                raise BadProof(str(exc)) from None
        for share, ref in pairs:
            self._shares.setdefault(ref, {})[seat] = share
            if self.audit_secret is None and not (self.eager_proofs or ref in public):
                self.unchecked.setdefault(ref, set()).add(seat)

    def check_stored(self, joint: JointKey | None, refs: Iterable[CardRef]) -> None:
        """Check the proofs of the stored shares of ``refs`` not checked yet.

        Raises:
            BadProof: one is false (they all stay unchecked).
        """
        todo = [(self._shares[r][s], r) for r in refs for s in sorted(self.unchecked.get(r, ()))]
        if not todo:
            return
        assert joint is not None
        try:
            verify_shares(joint, [(share, self._ciphertext(r)) for share, r in todo])
        except DeckError as exc:
            raise BadProof(f"a share stored earlier is false: {exc}") from None
        for _, r in todo:
            self.unchecked.pop(r, None)

    def check_every_proof(self, joint: JointKey) -> None:
        """Check the proof of every share stored, in one batch: what a replica
        checking every proof on arrival would have checked (``ttr verify``'s
        fast path opens cards by value and must still refuse a share whose
        value is right and whose proof is not).

        Raises:
            BadProof: one is false (which one is for the entry-by-entry fold to name).
        """
        items = [(share, self._ciphertext(ref)) for ref, by_seat in self._shares.items()
                 for share in by_seat.values()]
        try:
            verify_shares(joint, items)
        except DeckError as exc:
            raise BadProof(f"a share stored is false: {exc}") from None

    def forget_unchecked(self, seat: int) -> None:
        """``seat`` forfeited: its shares are computed from its secret from now
        on, so its published ones are never used (nor checked)."""
        for seats in self.unchecked.values():
            seats.discard(seat)

    def sharers(self, ref: CardRef, forfeited: Iterable[int]) -> set[int]:
        """The seats whose share of ``ref`` is known: published, or computable
        from a forfeited seat's secret."""
        return set(self._shares.get(ref, {})) | set(forfeited)

    def open(self, ref: CardRef, forfeited: Mapping[int, SecretKey], own: tuple[int, int] | None = None) -> int:
        """The face of ``ref`` from every seat's share: the published ones, the
        forfeited seats' (always computed from their secrets, even where they
        had published one: protocol.md §6, Forfeit) and ``own`` = (our seat,
        our share) if given.

        Raises:
            Cheating: the result is no card of its deck, which proves a
                shuffle or share false.
        """
        ciphertext = self._ciphertext(ref)
        try:
            if self.audit_secret is not None:
                ahead = None if self.decrypted_ahead is None else self.decrypted_ahead(ciphertext, self.audit_secret)
                (plain,) = (ahead,) if ahead is not None else decrypt_with_exponent([ciphertext], self.audit_secret)
            else:
                have = self._shares.get(ref, {})
                parts = [have[s].share for s in sorted(have) if s not in forfeited]
                mine = None
                if own is not None:
                    mine, share = own
                    parts.append(share)
                parts += [own_share(key, ciphertext) for s, key in sorted(forfeited.items()) if s != mine]
                plain = decrypt_with_shares(ciphertext, parts)
            return self._codec(ref.deck).card(plain)
        except DeckError:
            raise Cheating(
                f"card {ref} decrypts to no card of its deck: a shuffle or share was false "
                "(run `ttr verify` on the log to find the seat)"
            ) from None
