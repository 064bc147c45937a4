"""Shuffling, private and public opening, playing from hand, and cheating caught."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_ttr.deck import (
    EpochPosition,
    DeckUsageError,
    DecryptionShare,
    G,
    InvalidElement,
    InvalidShareProof,
    JointKey,
    SecretKey,
    Seed,
    ShuffleStep,
    NotACard,
    create_deck,
    make_share,
    open_played_card,
    open_private,
    open_public,
    own_share,
    shuffle_permutation,
    shuffle_step,
    verify_share,
    verify_shares,
)
from p2p_ttr.deck.elgamal import decrypt_with_exponent, decrypt_with_shares
from p2p_ttr.deck.group import Q, exp, mul
from p2p_ttr.deck.remask import remask_step


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_after_every_shuffle_each_card_opens_to_its_value(game_of, seats: int) -> None:
    game = game_of(seats)
    creation = create_deck("train", 0, range(5))
    final = game.final(creation)
    codec = creation.codec()
    opened = []
    for position, ciphertext in enumerate(final):
        ref = EpochPosition("train", 0, position)
        shares = game.shares(creation, position, range(seats))
        opened.append(open_public(game.joint, ref, ciphertext, shares, codec))
    assert sorted(opened) == list(range(5))
    assert opened == game.cards(creation)


def test_a_step_permutes_as_its_seed_says_and_rerandomises_everything(game_of) -> None:
    game = game_of(3)
    creation = create_deck("train", 0, range(6))
    steps = game.chain(creation)
    codec = creation.codec()
    inputs = creation.ciphertexts()
    for seat, step in enumerate(steps):
        assert step.seat == seat and len(step.ciphertexts) == 6
        permutation = shuffle_permutation(game.game_id, game.seeds[seat], seat, "train", 0, inputs)
        before = [codec.card(m) for m in decrypt_with_exponent(inputs, game.secret_sum)]
        after = [codec.card(m) for m in decrypt_with_exponent(step.ciphertexts, game.secret_sum)]
        assert after == [before[permutation[i]] for i in range(6)]
        assert not set(step.ciphertexts) & set(inputs)  # every ciphertext is fresh
        again = shuffle_step(game.joint, game.seeds[seat], seat, "train", 0, inputs)
        assert again == step  # a function of the seed and the input alone
        inputs = step.ciphertexts
    other = shuffle_step(game.joint, Seed(bytes(32)), 0, "train", 0, creation.ciphertexts())
    assert other != steps[0]


def test_only_the_drawer_can_open_a_private_draw(game_of) -> None:
    game = game_of(3)
    creation = create_deck("train", 0, range(5))
    codec = creation.codec()
    ref = EpochPosition("train", 0, 2)
    ciphertext = game.final(creation)[2]
    published = game.shares(creation, 2, [1, 2])  # everyone but the drawer, seat 0
    card = open_private(game.joint, game.secrets[0], ref, ciphertext, published, codec)
    assert card == game.cards(creation)[2]
    ahead = own_share(game.secrets[0], ciphertext)  # may be prepared before the draw
    assert open_private(game.joint, game.secrets[0], ref, ciphertext, published, codec, own=ahead) == card
    # the published shares alone do not decrypt ...
    with pytest.raises(NotACard):
        codec.card(decrypt_with_shares(ciphertext, [s.share for s in published]))
    # ... and another seat cannot use them without the drawer's share
    with pytest.raises(DeckUsageError, match="needs shares from seats"):
        open_private(game.joint, game.secrets[1], ref, ciphertext, published, codec)


def test_a_card_played_from_hand_opens_for_everyone(game_of) -> None:
    game = game_of(3)
    creation = create_deck("train", 0, range(5))
    codec = creation.codec()
    ref = EpochPosition("train", 0, 4)
    ciphertext = game.final(creation)[4]
    draw_shares = game.shares(creation, 4, [0, 2])  # seat 1 drew it
    owner = make_share(game.secrets[1], ref, ciphertext)
    card = open_played_card(game.joint, ref, ciphertext, owner, draw_shares, codec)
    assert card == game.cards(creation)[4]
    forged = DecryptionShare(ref, 1, mul(owner.share, G), owner.t1, owner.t2, owner.response)
    with pytest.raises(InvalidShareProof, match="seat 1"):
        open_played_card(game.joint, ref, ciphertext, forged, draw_shares, codec)


def _tampered(original: DecryptionShare, **changes: object) -> DecryptionShare:
    return dataclasses.replace(original, **changes)  # type: ignore[arg-type]


@pytest.mark.parametrize("what", ["share", "t1", "t2", "response"])
def test_a_wrong_share_is_caught_and_blamed(game_of, what: str) -> None:
    game = game_of(3)
    creation = create_deck("train", 0, range(5))
    ref = EpochPosition("train", 0, 1)
    ciphertext = game.final(creation)[1]
    honest, cheat = game.shares(creation, 1, [1, 2])
    change = {"response": cheat.response + 1} if what == "response" else {
        what: mul(getattr(cheat, what), G)
    }
    bad = _tampered(cheat, **change)
    with pytest.raises(InvalidShareProof, match="seat 2") as caught:
        open_private(game.joint, game.secrets[0], ref, ciphertext, [honest, bad], creation.codec())
    assert caught.value.seat == 2


def test_a_share_proof_for_another_position_is_refused(game_of) -> None:
    game = game_of(2)
    creation = create_deck("train", 0, range(5))
    final = game.final(creation)
    (share_for_1,) = game.shares(creation, 1, [1])
    ref_2 = EpochPosition("train", 0, 2)
    # presented as is for position 2: it says it is for position 1
    with pytest.raises(InvalidShareProof, match="is for train/0/1"):
        open_private(game.joint, game.secrets[0], ref_2, final[2], [share_for_1], creation.codec())
    # relabelled as position 2: the proof is bound to position 1
    relabelled = _tampered(share_for_1, ref=ref_2)
    with pytest.raises(InvalidShareProof, match="seat 1"):
        verify_share(game.joint, relabelled, final[2])
    with pytest.raises(InvalidShareProof, match="seat 1"):
        verify_share(game.joint, relabelled, final[1])
    # same card in another epoch or deck name: also refused
    for ref in (EpochPosition("train", 1, 1), EpochPosition("tickets", 0, 1)):
        with pytest.raises(InvalidShareProof):
            verify_share(game.joint, _tampered(share_for_1, ref=ref), final[1])


def test_a_share_for_another_game_or_seat_is_refused(game_of) -> None:
    game = game_of(3)
    creation = create_deck("train", 0, range(5))
    ciphertext = game.final(creation)[0]
    (share,) = game.shares(creation, 0, [1])
    verify_share(game.joint, share, ciphertext)
    same_keys_other_game = JointKey(b"another-game", game.joint.public_keys)
    with pytest.raises(InvalidShareProof):
        verify_share(same_keys_other_game, share, ciphertext)
    with pytest.raises(InvalidShareProof, match="seat 2"):
        verify_share(game.joint, _tampered(share, seat=2), ciphertext)


def test_batch_verification_names_the_one_bad_share_among_many(game_of) -> None:
    game = game_of(3)
    creation = create_deck("train", 0, range(5))
    final = game.final(creation)
    items = [(share, final[p]) for p in range(3) for share in game.shares(creation, p, [0, 1, 2])]
    verify_shares(game.joint, items)
    bad_share, ciphertext = items[4]
    items[4] = (_tampered(bad_share, share=mul(bad_share.share, bad_share.share)), ciphertext)
    with pytest.raises(InvalidShareProof) as caught:
        verify_shares(game.joint, items)
    assert caught.value.seat == bad_share.seat
    verify_shares(game.joint, [])


def test_a_discard_pile_starts_a_new_epoch(game_of) -> None:
    game = game_of(2)
    reshuffled = create_deck("train", 1, [9, 2, 5])
    assert reshuffled.cards == (2, 5, 9)
    assert sorted(game.cards(reshuffled)) == [2, 5, 9]
    first = create_deck("train", 0, range(10))
    # the same cards in another epoch are shuffled differently and independently
    assert game.final(first)[0] not in game.final(reshuffled)


def test_elements_outside_the_group_are_refused_before_use(game_of) -> None:
    game = game_of(2)
    creation = create_deck("train", 0, range(3))
    good = list(game.final(creation))
    for bad in (0, Q + 1, 2**2048):
        with pytest.raises(InvalidElement):
            shuffle_step(game.joint, game.seeds[0], 0, "train", 0, [(bad, good[0][1]), *good[1:]])
        with pytest.raises(InvalidElement):
            ShuffleStep("train", 0, 1, ((good[0][0], bad), *good[1:]))
        with pytest.raises(InvalidElement):
            make_share(game.secrets[0], EpochPosition("train", 0, 0), (bad, good[0][1]))
    with pytest.raises(InvalidElement, match="identity"):
        ShuffleStep("train", 0, 1, ((1, good[0][1]),))


@settings(max_examples=12, deadline=None)
@given(
    seeds=st.lists(st.binary(min_size=32, max_size=32), min_size=1, max_size=4),
    cards=st.sets(st.integers(0, 109), min_size=1, max_size=6),
    epoch=st.integers(0, 3),
)
def test_any_chain_is_a_permutation_of_the_deck(
    seeds: list[bytes], cards: set[int], epoch: int
) -> None:
    game_id = b"property"
    secrets = [SecretKey(game_id, seat, 1000003 * (seat + 7)) for seat in range(len(seeds))]
    joint = JointKey(game_id, tuple(secret.public_key for secret in secrets))
    creation = create_deck("train", epoch, cards)
    expected = list(creation.cards)
    ciphertexts = creation.ciphertexts()
    for seat, seed in enumerate(seeds):
        step = shuffle_step(joint, Seed(seed), seat, "train", epoch, ciphertexts)
        permutation = shuffle_permutation(game_id, Seed(seed), seat, "train", epoch, ciphertexts)
        expected = [expected[i] for i in permutation]
        ciphertexts = step.ciphertexts
    codec = creation.codec()
    secret_sum = sum(secret.x for secret in secrets)
    assert [codec.card(m) for m in decrypt_with_exponent(ciphertexts, secret_sum)] == expected


def test_remasking_keeps_the_order_and_makes_old_shares_useless(game_of) -> None:
    game = game_of(3)
    creation = create_deck("train", 0, range(5))
    final = game.final(creation)
    returned = [final[4], final[1]]
    masked: Sequence[tuple[int, int]] = returned
    for seat in range(3):
        step = remask_step(game.joint, game.seeds[seat], seat, "train", 1, masked)
        assert step == remask_step(game.joint, game.seeds[seat], seat, "train", 1, masked)
        assert not set(step.ciphertexts) & set(masked)
        masked = step.ciphertexts
    codec = creation.codec()
    cards = game.cards(creation)
    assert [codec.card(m) for m in decrypt_with_exponent(masked, game.secret_sum)] == [
        cards[4], cards[1]
    ]
    # every seat's share of the old ciphertext no longer opens the card
    old_shares = [s.share for s in game.shares(creation, 4, range(3))]
    with pytest.raises(NotACard):
        codec.card(decrypt_with_shares(masked[0], old_shares))


@settings(max_examples=8, deadline=None)
@given(
    seat=st.integers(0, 2),
    position=st.integers(0, 4),
    delta=st.integers(1, 2**64),
    field=st.sampled_from(["share", "t1", "t2", "response", "position"]),
)
def test_any_share_verifies_and_any_tampering_fails(
    game_of, seat: int, position: int, delta: int, field: str
) -> None:
    game = game_of(3)
    creation = create_deck("train", 0, range(5))
    final = game.final(creation)
    (share,) = game.shares(creation, position, [seat])
    verify_share(game.joint, share, final[position])
    if field == "response":
        bad = _tampered(share, response=share.response + delta)
    elif field == "position":
        bad = _tampered(share, ref=EpochPosition("train", 0, (position + 1) % 5))
    else:
        bad = _tampered(share, **{field: mul(getattr(share, field), exp(G, delta))})
    with pytest.raises(InvalidShareProof) as caught:
        verify_share(game.joint, bad, final[position])
    assert caught.value.seat == seat
