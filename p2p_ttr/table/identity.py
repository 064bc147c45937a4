"""Long-lived player identities: Ed25519 keys that sign every message.

The private key never appears in repr/str; ``to_bytes`` is for the client's
key file only.
"""

from __future__ import annotations

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

PUBLIC_KEY_BYTES = 32
SIGNATURE_BYTES = 64


class Identity:
    """A player's signing key."""

    __slots__ = ("_key", "public")

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key
        self.public: bytes = key.public_key().public_bytes_raw()

    @classmethod
    def generate(cls) -> Identity:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_bytes(cls, raw: bytes) -> Identity:
        return cls(Ed25519PrivateKey.from_private_bytes(raw))

    def to_bytes(self) -> bytes:
        return self._key.private_bytes_raw()

    def sign(self, data: bytes) -> bytes:
        return self._key.sign(data)

    def __repr__(self) -> str:
        return f"Identity(public={self.public.hex()[:16]}…, private=<redacted>)"


def signature_valid(public: bytes, signature: bytes, data: bytes) -> bool:
    """Whether ``signature`` is ``public``'s Ed25519 signature of ``data``."""
    if len(public) != PUBLIC_KEY_BYTES or len(signature) != SIGNATURE_BYTES:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, data)
    except (InvalidSignature, ValueError):
        return False
    return True
