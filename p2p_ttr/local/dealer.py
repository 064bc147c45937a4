"""A seeded dealer that plays chance for a game in one process.

It knows every card (it did the shuffling), answers the engine's requests for
shuffles and reveals, and shows each player the cards they drew. Its shuffles
come from ``random.Random(seed)``, so a seed replays the same game.
"""

from __future__ import annotations

import random

from p2p_ttr.engine.cards import CardRef
from p2p_ttr.engine.events import Chance, Mixed, Peek, Remasked, Reveal, Shuffled
from p2p_ttr.engine.state import GameState, NeedMix, NeedRemask, NeedReveal, NeedShuffle


class LocalDealer:
    """Plays chance for a one-process game from a seed: shuffles, deals and reveals, and shows each player its
    own cards."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._faces: dict[CardRef, int] = {}
        # Per player, the card tuples last shown in full: tuples are replaced,
        # never changed, so an identical object means nothing new to show.
        self._shown: dict[int, tuple[object, object, object]] = {}

    def face(self, ref: CardRef) -> int:
        return self._faces[ref]

    def answer(self, state: GameState) -> Chance | None:
        """The chance event ``state`` waits for, if any."""
        need = state.awaiting
        if isinstance(need, NeedShuffle):
            # Cards public before any shuffle (startinglocos.py's gifts) are known to the dealer too.
            self._faces.update(state.public)
            cards = list(need.cards)
            self._rng.shuffle(cards)
            for pos, card in enumerate(cards):
                self._faces[CardRef(need.deck, need.epoch, pos)] = card
            return Shuffled(need.deck, need.epoch)
        if isinstance(need, NeedRemask):
            for pos, old in enumerate(need.refs):
                self._faces[CardRef(need.deck, need.epoch, pos)] = self._faces[old]
            return Remasked(need.deck, need.epoch)
        if isinstance(need, NeedMix):
            faces = [self._faces[old] for old in need.refs]
            self._rng.shuffle(faces)
            for pos, card in enumerate(faces):
                self._faces[CardRef(need.deck, need.epoch, pos)] = card
            return Mixed(need.deck, need.epoch)
        if isinstance(need, NeedReveal):
            return Reveal(tuple((ref, self._faces[ref]) for ref in need.refs))
        return None

    def peeks(self, state: GameState) -> list[Peek]:
        """Show every player the cards they hold whose faces they do not know yet."""
        out = []
        for p, ps in enumerate(state.players):
            held = (ps.hand, ps.offered, ps.tickets)
            if self._shown.get(p) is not None and all(a is b for a, b in zip(held, self._shown[p])):
                continue
            unseen = [r for r in ps.hand + ps.offered + ps.tickets if state.face(r) is None]
            if unseen:
                out.append(Peek(p, tuple((r, self._faces[r]) for r in unseen)))
            else:
                self._shown[p] = held
        return out
