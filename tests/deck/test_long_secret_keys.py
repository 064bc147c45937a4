"""Every key the key proof accepts can be revealed.

The Schnorr proof's response is an integer of 65 bytes, so it also proves
keys whose secret is far longer than an honest key's 256 bits (up to ~390
bits). A seat announcing such a key must still be able to reveal it (and so
be audited); otherwise it could announce one and dodge the blame for
whatever it did, its reveal being "malformed"."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import pytest

from p2p_ttr.deck import G, MalformedWire, RandomSource, SecretKey, SecretReveal, Seed, announce_key
from p2p_ttr.deck.fixedbase import MAX_TABLE_BITS, FixedBaseTable, generator_table
from p2p_ttr.deck.group import ELEMENT_BYTES, EXPONENT_BYTES, P, Q, canonical, exp
from p2p_ttr.deck.keys import expect_secret_exponent, secret_exponent_to_bytes

GID = b"long-key-game-id"


def long_x(label: str, bits: int = 390) -> int:
    """An exponent of exactly ``bits`` bits."""
    digest = hashlib.shake_256(label.encode()).digest(64)
    return (1 << (bits - 1)) | (int.from_bytes(digest, "big") % (1 << (bits - 1)))


def test_a_390_bit_key_has_a_valid_proof_and_can_be_revealed(seeded: Callable[[str], RandomSource]) -> None:
    x = long_x("a")
    assert x.bit_length() == 390
    rows = generator_table().rows
    key = SecretKey(GID, 1, x)
    # A seeded nonce: with a fresh one, about one challenge in 64 is small
    # enough that the response stays under 2**512 (the suite failed so once).
    announcement = announce_key(key, seeded("long-key-proof"))
    announcement.verify(GID)  # the proof accepts it: so must the reveal
    assert announcement.response >= 2**512  # it needed the room of the 65-byte response
    assert key.public_key == announcement.public_key == exp(G, x) == canonical(pow(G, x, P))
    wire = key.to_wire()
    assert len(wire[2]) == ELEMENT_BYTES  # 256 bytes: it does not fit in 32
    back = SecretKey.from_wire(wire)
    assert back == key and back.x == x and back.public_key == announcement.public_key
    reveal = SecretReveal.of(key, Seed(bytes(range(32))))
    assert SecretReveal.from_wire(reveal.to_wire()).x == x
    assert generator_table().rows <= max(rows, -(-MAX_TABLE_BITS // 8))


def test_the_largest_key_is_revealable_without_growing_the_generator_table() -> None:
    rows = generator_table().rows
    key = SecretKey(GID, 0, Q - 1)
    assert SecretKey.from_wire(key.to_wire()) == key
    assert key.public_key == exp(G, Q - 1)
    assert generator_table().rows == rows <= -(-MAX_TABLE_BITS // 8)


def test_honest_keys_stay_256_bit_and_32_bytes() -> None:
    key = SecretKey.generate(GID, 2)
    assert 0 < key.x < 2**256 and len(key.to_wire()[2]) == EXPONENT_BYTES
    assert SecretKey.from_wire(key.to_wire()) == key
    assert len(secret_exponent_to_bytes(2**256 - 1)) == EXPONENT_BYTES
    assert len(secret_exponent_to_bytes(2**256)) == ELEMENT_BYTES


@pytest.mark.parametrize("x", [0, Q, Q + 1, P - 1, -1])
def test_exponents_out_of_range_are_refused(x: int) -> None:
    with pytest.raises(MalformedWire):
        SecretKey(GID, 0, x)
    with pytest.raises(MalformedWire):
        SecretReveal(0, Seed(bytes(32)), x)


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (bytes(32), "zero"),
        (bytes(256), "zero"),
        (Q.to_bytes(256, "big"), r"\[1, q\)"),
        ((P - 1).to_bytes(256, "big"), r"\[1, q\)"),
        (b"\xff" * 256, r"\[1, q\)"),
        ((5).to_bytes(256, "big"), "below 2\\^256 must be sent as 32 bytes"),  # one encoding per value
        ((2**256 - 1).to_bytes(256, "big"), "below 2\\^256"),
        (long_x("b").to_bytes(64, "big"), "32 or 256 bytes"),
        (b"\x01" * 33, "32 or 256 bytes"),
        (b"\x01" * 257, "32 or 256 bytes"),
    ],
)
def test_bad_secret_exponents_on_the_wire_are_refused(raw: bytes, words: str) -> None:
    with pytest.raises(MalformedWire, match=words):
        expect_secret_exponent(raw)
    with pytest.raises(MalformedWire, match=words):
        SecretKey.from_wire([GID, 0, raw])
    with pytest.raises(MalformedWire, match=words):
        SecretReveal.from_wire([0, bytes(32), raw])


def test_a_fixed_base_table_stops_growing_and_still_computes() -> None:
    table = FixedBaseTable(G, bits=256)
    assert table.rows == 32
    for e in (2**300 + 7, 2**MAX_TABLE_BITS - 1, 2**MAX_TABLE_BITS, Q - 1, P + 5):
        assert table.pow(e) == canonical(pow(G, e, P))
    assert table.rows == MAX_TABLE_BITS // 8  # grown up to the limit, not for 2047 bits


def test_a_seat_with_a_long_key_plays_reveals_and_is_audited() -> None:
    """A whole game where seat 1 announced a 390-bit key: its shares and its
    final reveal are accepted like anyone's, and `ttr verify` audits the log
    (before, its reveal was malformed: it could never be audited)."""
    from p2p_ttr.bots.random_bot import RandomBot
    from p2p_ttr.local.crypto_game import play_crypto_game
    from p2p_ttr.table.peer import Peer
    from p2p_ttr.table.table import PeerSecrets
    from p2p_ttr.table.verify import verify_entries

    class LongKeyPeer(Peer):
        def _secrets(self) -> PeerSecrets:
            if self.table.me is None:
                assert self.table.game_id is not None
                key = SecretKey(self.table.game_id, self.seat, long_x(f"seat {self.seat}"))
                self.table.me = PeerSecrets(self.seat, key, Seed.generate(self.source))
            return self.table.me

    game = play_crypto_game(17, [RandomBot(17), RandomBot(18)], ("Ann", "Bob"), peer_types=[Peer, LongKeyPeer])
    assert all(p.table.complete and p.table.halted is None for p in game.peers)
    long_key = game.peers[1].table.me
    assert long_key is not None and long_key.key.x.bit_length() == 390
    assert game.peers[0].table.audits[1].secret == long_key.key  # revealed, and received by seat 0
    verdict = verify_entries(game.log)
    assert verdict.fair, [f.line() for f in verdict.findings]
