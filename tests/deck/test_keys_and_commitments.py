"""Keys with proofs of knowledge, the joint key, and seed commitments."""

from __future__ import annotations

import pytest

from p2p_ttr.deck import (
    CommitmentMismatch,
    DeckUsageError,
    G,
    InvalidKeyProof,
    JointKey,
    KeyAnnouncement,
    P,
    SecretKey,
    Seed,
    announce_key,
    check_seed,
    commit_seed,
)
from p2p_ttr.deck.group import canonical, exp, inverse, mul


def test_announced_keys_verify_and_combine(game_of) -> None:
    game = game_of(3)
    for secret, announcement in zip(game.secrets, game.announcements):
        announcement.verify(game.game_id)
        assert announcement.public_key == exp(G, secret.x) == secret.public_key
    joint = game.joint
    assert joint.element == canonical(exp(G, game.secret_sum))
    assert joint.seats == 3 and joint.public_key(2) == game.announcements[2].public_key


def test_a_proof_replayed_for_another_game_is_refused(game_of) -> None:
    announcement = game_of(2).announcements[0]
    with pytest.raises(InvalidKeyProof, match="seat 0"):
        announcement.verify(b"another-game")


def test_a_proof_replayed_for_another_seat_is_refused(game_of) -> None:
    game = game_of(2)
    stolen = game.announcements[0]
    replayed = KeyAnnouncement(1, stolen.public_key, stolen.commitment, stolen.response)
    with pytest.raises(InvalidKeyProof, match="seat 1") as caught:
        replayed.verify(game.game_id)
    assert caught.value.seat == 1
    with pytest.raises(InvalidKeyProof):
        JointKey.from_announcements(game.game_id, [game.announcements[0], replayed])


def test_a_rogue_key_without_knowledge_is_refused(game_of, seeded) -> None:
    """y = G^x / y_other would give the attacker the joint secret; no proof exists."""
    game = game_of(2)
    attacker = SecretKey.generate(game.game_id, 1, seeded("rogue"))
    rogue = mul(attacker.public_key, inverse(game.announcements[0].public_key))
    honest_proof = announce_key(attacker, seeded("rogue-proof"))  # a proof for G^x only
    forged = KeyAnnouncement(1, rogue, honest_proof.commitment, honest_proof.response)
    with pytest.raises(InvalidKeyProof, match="no valid proof of knowledge"):
        JointKey.from_announcements(game.game_id, [game.announcements[0], forged])
    # had it been accepted, the joint key would be the attacker's own key
    assert JointKey(game.game_id, (game.announcements[0].public_key, rogue)).element == (
        attacker.public_key
    )


def test_a_tampered_response_is_refused(game_of) -> None:
    game = game_of(2)
    good = game.announcements[1]
    bad = KeyAnnouncement(good.seat, good.public_key, good.commitment, good.response + 1)
    with pytest.raises(InvalidKeyProof):
        bad.verify(game.game_id)


def test_joint_key_needs_seats_0_to_n_minus_1_once(game_of) -> None:
    game = game_of(3)
    with pytest.raises(DeckUsageError, match="seats must be 0..n-1"):
        JointKey.from_announcements(game.game_id, game.announcements[1:])
    with pytest.raises(DeckUsageError, match="two keys"):
        JointKey.from_announcements(game.game_id, [game.announcements[0]] * 2)
    with pytest.raises(DeckUsageError, match="no seat 7"):
        game.joint.public_key(7)


def test_seed_commitments_open_only_with_the_same_seed_game_and_seat(seeded) -> None:
    seed = Seed.generate(seeded("seed"))
    commitment = commit_seed(b"game", 2, seed)
    check_seed(b"game", commitment, seed)
    other = Seed(bytes(32))
    with pytest.raises(CommitmentMismatch, match="seat 2") as caught:
        check_seed(b"game", commitment, other)
    assert caught.value.seat == 2
    with pytest.raises(CommitmentMismatch):
        check_seed(b"other game", commitment, seed)
    assert commit_seed(b"game", 3, seed).digest != commitment.digest


def test_secret_key_generation_is_injectable_and_in_range(seeded) -> None:
    one = SecretKey.generate(b"g", 0, seeded("k"))
    two = SecretKey.generate(b"g", 0, seeded("k"))
    assert one == two and 0 < one.x < 2**256
    assert one.public_key == canonical(pow(G, one.x, P))
    assert SecretKey.generate(b"g", 0).x != SecretKey.generate(b"g", 0).x
