"""The secrets seats revealed, and the seats the fold plays from them.

A seat reveals its deck key and seed at the end (an audit), to leave
mid-game (a forfeit), or the others rebuild them from its escrow (carried
on). Each is checked against the key and seed commitment the seat
announced. A seat that left is played by the fold from then on: its
secrets count as its audit (forfeits.py says what the fold does for it).
"""

from __future__ import annotations

from p2p_ttr.deck import DeckError, SecretKey, Seed, check_seed

from .errors import Cheating, Malformed, NotExpected
from .keyring import KeyRing, PeerSecrets
from .messages import Audit, Forfeit


class Reveals:
    """Every seat's revealed secrets; which seats left, and at which entry they forfeited."""

    def __init__(self) -> None:
        self.audits: dict[int, Audit] = {}
        # Seats that left for good (forfeited, or carried on), with their
        # secrets: the fold computes their shares and chain steps and plays their moves.
        self.forfeited: dict[int, PeerSecrets] = {}
        self.forfeit_entries: dict[int, int] = {}  # seat -> index of its forfeit in the log

    def in_play(self, n: int) -> tuple[int, ...]:
        """The seats of ``n`` still played by their own peers: not forfeited (nor
        carried on, which the fold treats as forfeited), in seat order."""
        return tuple(s for s in range(n) if s not in self.forfeited)

    def check(self, seat: int, reveal: Audit | Forfeit, keyring: KeyRing, game_id: bytes) -> None:
        """Check that ``seat`` may reveal these secrets, and that they are its own.

        Raises:
            NotExpected: it revealed them already, or has no key yet.
            Malformed: the secret names another seat or game.
            Cheating: the secret is not its key, or the seed not the one it committed to.
        """
        if seat in self.audits:
            raise NotExpected(f"seat {seat} already revealed its secrets")
        if seat not in keyring.keys:
            raise NotExpected(f"seat {seat} has no key to reveal yet")
        if reveal.secret.seat != seat or reveal.secret.game_id != game_id:
            raise Malformed("a seat reveals its own secret for this game")
        if reveal.secret.public_key != keyring.keys[seat].public_key:
            raise Cheating(f"seat {seat} revealed a secret exponent that is not its key")
        try:
            check_seed(game_id, keyring.commitments[seat], reveal.seed)
        except DeckError as exc:
            raise Cheating(str(exc)) from None

    def audit(self, seat: int, audit: Audit) -> None:
        """Keep ``seat``'s checked reveal."""
        self.audits[seat] = audit

    def play_on(self, seat: int, key: SecretKey, seed: Seed) -> None:
        """From now on the fold plays ``seat`` from these secrets: they count as its audit."""
        self.audits[seat] = Audit(seed, key)
        self.forfeited[seat] = PeerSecrets(seat, key, seed)

    def forfeited_at(self, seat: int, index: int) -> None:
        """``seat``'s forfeit is the log's entry ``index``."""
        self.forfeit_entries[seat] = index
