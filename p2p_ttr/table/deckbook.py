"""The deck's book: every deck epoch's chain, every decryption share, and
the cards they open.

The chains (chains.py) make each epoch's ciphertexts; the shares
(sharebook.py) open them. This part keeps both, with the chain steps the
fold derived for forfeited seats, and opens a card from every seat's share:
published, computed from a forfeited seat's revealed key, or (for our own
cards) our own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from p2p_ttr.deck import CardCodec, Ciphertext, DecryptionShare, JointKey, RemaskStep, ShuffleStep, own_share
from p2p_ttr.deck import EpochPosition as DeckRef
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.events import Peek
from p2p_ttr.engine.state import GameState

from .cards import engine_deck
from .chains import ChainBook, Need, Progress
from .errors import Malformed, NotExpected
from .keyring import PeerSecrets
from .sharebook import ShareBook

if TYPE_CHECKING:  # a pool is `ttr verify`'s; a player's process never loads multiprocessing
    from .checkpool import CheckPool


class DeckBook:
    """The chains and the shares of one game, and opening cards with them.

    ``audit_secret``, ``eager_proofs`` and ``decrypted_ahead``: see
    ``ShareBook``; ``pool``: see ``ChainBook``."""

    def __init__(self, codec: Callable[[Deck], CardCodec], audit_secret: int | None = None,
                 eager_proofs: bool = False, pool: CheckPool | None = None,
                 decrypted_ahead: Callable[[Ciphertext, int], int | None] | None = None) -> None:
        """``codec``: how a deck's opened cards are read (the game's cards)."""
        self.chains = ChainBook(pool)
        self.shares = ShareBook(self.chains.ciphertext, codec, audit_secret, eager_proofs, decrypted_ahead)
        # Chain steps the fold derived for forfeited seats, with the chain
        # they extend, in order (verify hands them to the deck audit).
        self.derived_steps: list[tuple[Need, ShuffleStep | RemaskStep]] = []

    def derive_step(self, need: Need, seat: int, step: ShuffleStep | RemaskStep) -> Progress:
        """Take the forfeited ``seat``'s step, computed by the fold from its seed (proven so)."""
        self.derived_steps.append((need, step))
        return self.chains.add_step(need, seat, seat, step.ciphertexts, proven=True)

    def engine_ref(self, ref: DeckRef) -> CardRef:
        """The engine's name of the card a share names.

        Raises:
            Malformed: there is no such deck.
            NotExpected: there is no such card (yet).
        """
        deck = engine_deck(ref.deck)
        if deck is None:
            raise Malformed(f"there is no deck {ref.deck!r}")
        engine_ref = CardRef(deck, ref.epoch, ref.position)
        if not self.chains.holds(engine_ref):
            raise NotExpected(f"there is no card {engine_ref}")
        return engine_ref

    def store_shares(self, joint: JointKey, seat: int, shares: tuple[DecryptionShare, ...], owed: set[CardRef],
                     public: set[CardRef]) -> None:
        """Check and keep ``seat``'s shares (see ``ShareBook.store``)."""
        pairs = [(share, self.engine_ref(share.ref)) for share in shares]
        self.shares.store(joint, seat, pairs, owed, public)

    def sharers(self, ref: CardRef, forfeited: Iterable[int]) -> set[int]:
        """The seats whose share of ``ref`` is known: published, or computable
        from a forfeited seat's secret."""
        return self.shares.sharers(ref, forfeited)

    def open(self, ref: CardRef, forfeited: Mapping[int, PeerSecrets], mine: tuple[int, int] | None = None) -> int:
        """The face of ``ref`` from every seat's share (``mine``: our seat and our
        own share, for a card only we may read).

        Raises:
            Cheating: the result is no card, which proves a shuffle false.
        """
        return self.shares.open(ref, {s: f.key for s, f in forfeited.items()}, mine)

    def peek(self, engine: GameState, me: PeerSecrets, forfeited: Mapping[int, PeerSecrets],
             joint: JointKey | None) -> Peek | None:
        """Our own cards whose every other share is in, opened for our eyes
        only (None: none is ready). The others' proofs are checked first,
        before we trust the cards.

        Raises:
            TableError: a false share or shuffle that only we can see.
        """
        ps = engine.players[me.seat]
        others = set(range(len(engine.players))) - {me.seat}
        ready = [r for r in ps.hand + ps.offered
                 if engine.face(r) is None and others <= self.sharers(r, forfeited)]
        if not ready:
            return None
        self.shares.check_stored(joint, ready)
        faces = [(r, self.open(r, forfeited, (me.seat, own_share(me.key, self.chains.ciphertext(r)))))
                 for r in ready]
        return Peek(me.seat, tuple(faces))
