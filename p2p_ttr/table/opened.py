"""Every hidden card of a finished game, opened with the secrets its audit
revealed (`ttr replay --open`).

Once every seat has revealed its exponent (its ``audit``, or a
``forfeit``), the joint secret X = sum of the exponents opens any card of
any deck epoch with one exponentiation, as the deck audit does: nobody's
share is needed any more. ``OpenFaces`` keeps the table folded from the
whole log (which holds every epoch's ciphertexts) and X, and gives any
moment of the game with every hand, ticket and offer face up.

It opens nothing without X, and X exists only once every secret is public.
"""

from __future__ import annotations

from dataclasses import replace

from p2p_ttr.deck import DeckError, decrypt_with_exponent
from p2p_ttr.engine.cards import CardRef
from p2p_ttr.engine.state import GameState

from .table import Table


class OpenFaces:
    """The faces of a finished game's cards, decrypted with its joint secret (each once)."""

    def __init__(self, table: Table, secret: int) -> None:
        """``table``: folded from the whole log; ``secret``: X, the sum of every seat's revealed exponent."""
        self.table = table
        self.secret = secret
        self._faces: dict[CardRef, int | None] = {}

    def face(self, ref: CardRef) -> int | None:
        """The card at ``ref`` (None: its epoch is not in the log, or it opens to no card of its deck)."""
        if ref not in self._faces:
            try:
                (plain,) = decrypt_with_exponent([self.table.ciphertext(ref)], self.secret)
                self._faces[ref] = self.table.codec(ref.deck).card(plain)
            except (KeyError, IndexError, DeckError):
                self._faces[ref] = None
        return self._faces[ref]

    def opened(self, state: GameState) -> GameState:
        """``state`` with every player's hand, tickets and offered tickets face up."""
        faces = dict(state.private)
        for ps in state.players:
            for ref in ps.hand + ps.tickets + ps.offered:
                if state.face(ref) is None:
                    card = self.face(ref)
                    if card is not None:
                        faces[ref] = card
        return replace(state, private=faces)
