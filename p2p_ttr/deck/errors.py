"""The deck's typed errors.

Every error the deck raises is a :class:`DeckError`. The table layer maps the
branches to protocol error codes:

* :class:`InvalidInput` -- bytes or values received from outside are
  malformed (:class:`MalformedWire`) or are not group elements
  (:class:`InvalidElement`). Decoders raise nothing else.
* :class:`VerificationError` -- a well-formed contribution fails a
  cryptographic check. It names the seat that produced it.
* :class:`NotACard` -- a decryption is not a card of the deck.
* :class:`DeckUsageError` -- the caller asked for something impossible
  (wrong seat count, position out of range, missing shares).
* :class:`BackendUnavailable` -- the requested powmod backend cannot be used.
"""

from __future__ import annotations


class DeckError(Exception):
    """Base class of every error raised by ``p2p_ttr.deck``."""


class InvalidInput(DeckError):
    """A value received from outside cannot be used as it is."""


class MalformedWire(InvalidInput):
    """A wire record has the wrong shape, type, size or range."""


class InvalidElement(InvalidInput):
    """An integer is not the canonical encoding of a usable group element."""


class VerificationError(DeckError):
    """A well-formed contribution from ``seat`` fails a cryptographic check."""

    def __init__(self, message: str, *, seat: int | None = None) -> None:
        super().__init__(message)
        self.seat = seat


class InvalidKeyProof(VerificationError):
    """A public key comes without a valid proof of knowledge for this game and seat."""


class InvalidShareProof(VerificationError):
    """A decryption share does not match its player's key (Chaum-Pedersen fails)."""


class InvalidChainProof(VerificationError):
    """A shuffle or re-mask step's proof does not show that its output is a
    permutation (or, for a re-mask, the same order) of its input, re-encrypted."""


class CommitmentMismatch(VerificationError):
    """A revealed seed does not open the seat's commitment."""


class NotACard(DeckError):
    """A decrypted value is not the encoding of any card of the deck."""


class DeckUsageError(DeckError):
    """The caller asked for an operation that the deck state cannot support."""


class BackendUnavailable(DeckError):
    """The modular-exponentiation backend named by P2P_TTR_POWMOD cannot be used."""


class BadEscrow(VerificationError):
    """An escrow deal whose commitments do not make the dealer's key, or a
    share that does not open to its commitment."""
