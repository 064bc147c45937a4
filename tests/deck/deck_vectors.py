"""The deck's test vectors (protocol.md §3, Test vectors), made by the
reference implementation: everything fixed, nothing random, every value a
verifier needs to recompute each hash, each proof and each seed-derived
step from scratch. ``python tests/deck/deck_vectors.py`` writes
``vectors/deck_v1.json`` (only when a format changes on purpose);
test_vectors.py checks that the file is what this code makes.

Conventions of the file: a value that has a wire form (a group element, a
response, a digest, a seed, the game id) is the hex of exactly those bytes;
an integer with no wire form (a challenge, an exponent, a DRBG output) is
``0x``-prefixed hex; a proof or a step is its wire list (§3) with bytes in
hex. Group elements are their wire form, min(x, p - x): the joint key too.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from p2p_ttr.deck import (
    G,
    P,
    Q,
    Ciphertext,
    EpochPosition,
    JointKey,
    SecretKey,
    Seed,
    announce_key,
    card_element,
    commit_seed,
    create_deck,
    deal_exponent,
    decrypt_with_exponent,
    decrypt_with_shares,
    escrow_complaint,
    escrow_dealer_cheated,
    escrow_image,
    make_share,
    prove_remask,
    prove_shuffle,
    remask_step,
    shuffle_step,
)
from p2p_ttr.deck.drbg import Drbg, fisher_yates
from p2p_ttr.deck.group import element_to_bytes
from p2p_ttr.deck.hashing import (
    DOMAIN_CARD,
    DOMAIN_REMASK,
    DOMAIN_REMASK_PROOF,
    DOMAIN_SHUFFLE,
    DOMAIN_SHUFFLE_PROOF,
    challenge,
    challenge_vector,
    encode_fields,
)
from p2p_ttr.deck.remaskproof import RemaskProof
from p2p_ttr.deck.shuffle import ChainStep, chain_input_digest, shuffle_witness
from p2p_ttr.deck.shuffleproof import ShuffleProof, generators, statement_digest
from p2p_ttr.deck.remask import remask_witness

VECTOR = Path(__file__).parent / "vectors" / "deck_v1.json"
GAME_ID = bytes(range(16))
SEATS = 3
EXPONENTS = (0x1111, 0x2222, 0x3333)
SEEDS = tuple(Seed(bytes([byte]) * 32) for byte in (0x5A, 0x5B, 0x5D))  # every chain moves its cards


def seeded(label: str) -> Any:
    """Deterministic stand-in for the OS generator (the provers' own randomness)."""
    counter = [0]

    def source(n: int) -> bytes:
        counter[0] += 1
        return hashlib.shake_256(f"p2p_ttr/vectors/{label}/{counter[0]}".encode()).digest(n)

    return source


def hexed(value: object) -> object:
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, (list, tuple)):
        return [hexed(v) for v in value]
    return value


def element(x: int) -> str:
    return element_to_bytes(x).hex()


def pairs(cts: Sequence[Ciphertext]) -> list[list[str]]:
    return [[element(a), element(b)] for a, b in cts]


def _permutation_blocks(drbg: Drbg, n: int) -> list[str]:
    """The permutation stream's blocks a step of n cards reads (enough for the example)."""
    return [drbg.block("permutation", k).hex() for k in range(max(1, (n * 8) // 256 + 1))]


def _shuffle_chain(joint: JointKey, deck: str, epoch: int, cards: tuple[int, ...]) -> dict[str, Any]:
    creation = create_deck(deck, epoch, cards)
    current: tuple[Ciphertext, ...] = creation.ciphertexts()
    steps = []
    for seat in range(SEATS):
        inputs = current
        step = shuffle_step(joint, SEEDS[seat], seat, deck, epoch, inputs)
        proof = prove_shuffle(joint, SEEDS[seat], step, inputs)
        permutation, rerandomisers = shuffle_witness(GAME_ID, SEEDS[seat], seat, deck, epoch, inputs)
        digest = chain_input_digest(inputs)
        drbg = Drbg(SEEDS[seat].value, DOMAIN_SHUFFLE, GAME_ID, seat, deck, epoch, digest)
        assert fisher_yates(len(inputs), drbg.stream("permutation")) == permutation
        steps.append({
            "seat": seat,
            "input": pairs(inputs),
            "derivation": {
                "input_digest": digest.hex(),
                "drbg_key": hmac_key(SEEDS[seat], DOMAIN_SHUFFLE, seat, deck, epoch, digest).hex(),
                "permutation_blocks": _permutation_blocks(drbg, len(inputs)),
                "permutation": list(permutation),
                "r": [hex(r) for r in rerandomisers],
            },
            "output": pairs(step.ciphertexts),
            "wire": hexed(step.to_wire()),
            "proof": _shuffle_proof(joint, step, inputs, proof),
        })
        current = step.ciphertexts
    return {
        "kind": "shuffle", "deck": deck, "epoch": epoch, "cards": list(cards), "steps": steps,
        "final_cards": _cards(deck, cards, current, joint),
    }


def _shuffle_proof(joint: JointKey, step: ChainStep, inputs: Sequence[Ciphertext], proof: ShuffleProof) -> dict[str, Any]:
    statement = statement_digest(joint, "shuffle", step, inputs)
    commitments = b"".join(element_to_bytes(c) for c in proof.commitments)
    u = challenge_vector(DOMAIN_SHUFFLE_PROOF, proof.size, "u", statement, commitments)
    parts = (proof.commitments, proof.chain, proof.t, proof.t_hat)
    c = challenge(DOMAIN_SHUFFLE_PROOF, "c", statement, *(b"".join(element_to_bytes(v) for v in part) for part in parts))
    return {"statement": statement.hex(), "u": [hex(v) for v in u], "c": hex(c), "wire": hexed(proof.to_wire())}


def _remask_proof(joint: JointKey, step: ChainStep, inputs: Sequence[Ciphertext], proof: RemaskProof) -> dict[str, Any]:
    statement = statement_digest(joint, "remask", step, inputs)
    u = challenge_vector(DOMAIN_REMASK_PROOF, len(inputs), "u", statement)
    c = challenge(DOMAIN_REMASK_PROOF, "c", statement, element_to_bytes(proof.ta), element_to_bytes(proof.tb))
    return {"statement": statement.hex(), "u": [hex(v) for v in u], "c": hex(c), "wire": hexed(proof.to_wire())}


def hmac_key(seed: Seed, domain: bytes, seat: int, deck: str, epoch: int, *more: bytes) -> bytes:
    return hmac.digest(seed.value, encode_fields(domain, GAME_ID, seat, deck, epoch, *more), hashlib.sha256)


def _cards(deck: str, cards: Sequence[int], cts: Sequence[Ciphertext], joint: JointKey) -> list[int]:
    table = {card_element(deck, c): c for c in cards}
    return [table[m] for m in decrypt_with_exponent(cts, sum(EXPONENTS))]


def _remask_chain(joint: JointKey, deck: str, epoch: int, sources: list[EpochPosition],
                  finals: dict[tuple[str, int], tuple[tuple[Ciphertext, ...], list[int]]]) -> dict[str, Any]:
    current = tuple(finals[(ref.deck, ref.epoch)][0][ref.position] for ref in sources)
    steps = []
    for seat in range(SEATS):
        inputs = current
        step = remask_step(joint, SEEDS[seat], seat, deck, epoch, inputs)
        proof = prove_remask(joint, SEEDS[seat], step, inputs)
        steps.append({
            "seat": seat,
            "input": pairs(inputs),
            "derivation": {
                "drbg_key": hmac_key(SEEDS[seat], DOMAIN_REMASK, seat, deck, epoch).hex(),
                "r": [hex(r) for r in remask_witness(GAME_ID, SEEDS[seat], seat, deck, epoch, len(inputs))],
            },
            "output": pairs(step.ciphertexts),
            "wire": hexed(step.to_wire()),
            "proof": _remask_proof(joint, step, inputs, proof),
        })
        current = step.ciphertexts
    expected = [finals[(ref.deck, ref.epoch)][1][ref.position] for ref in sources]
    assert _cards(deck, expected, current, joint) == expected
    return {"kind": "remask", "deck": deck, "epoch": epoch, "sources": [ref.to_wire() for ref in sources],
            "steps": steps, "final_cards": expected}


def vector_case() -> dict[str, Any]:
    secrets = [SecretKey(GAME_ID, seat, EXPONENTS[seat]) for seat in range(SEATS)]
    joint = JointKey(GAME_ID, tuple(s.public_key for s in secrets))
    seats = []
    for seat, secret in enumerate(secrets):
        announcement = announce_key(secret, seeded(f"key/{seat}"))
        announcement.verify(GAME_ID)
        c = challenge(b"p2p_ttr/deck/v1/key-proof", GAME_ID, seat, element_to_bytes(G),
                      element_to_bytes(announcement.public_key), element_to_bytes(announcement.commitment))
        seats.append({
            "seat": seat,
            "x": hexed(secret.to_wire()[2]),
            "key_announcement": hexed(announcement.to_wire()),
            "key_proof_c": hex(c),
            "seed": SEEDS[seat].value.hex(),
            "seed_commitment": hexed(commit_seed(GAME_ID, seat, SEEDS[seat]).to_wire()),
        })
    train = _shuffle_chain(joint, "train", 0, (0, 50, 100))
    tickets = _shuffle_chain(joint, "tickets", 0, (3, 17, 29))

    def final(chain: dict[str, Any]) -> tuple[tuple[Ciphertext, ...], list[int]]:
        last = chain["steps"][-1]["output"]
        return tuple((int(a, 16), int(b, 16)) for a, b in last), chain["final_cards"]

    finals = {("train", 0): final(train), ("tickets", 0): final(tickets)}
    remask = _remask_chain(joint, "tickets", 1, [EpochPosition("tickets", 0, 2), EpochPosition("tickets", 0, 0)], finals)
    ref = EpochPosition("train", 0, 0)
    ciphertext = finals[("train", 0)][0][0]
    shares = [make_share(secret, ref, ciphertext, seeded(f"share/{secret.seat}")) for secret in secrets]
    share_rows = []
    for share in shares:
        c = challenge(b"p2p_ttr/deck/v1/share-proof", GAME_ID, share.seat, ref.deck, ref.epoch, ref.position,
                      element_to_bytes(G), element_to_bytes(joint.public_key(share.seat)), element_to_bytes(ciphertext[0]),
                      element_to_bytes(share.share), element_to_bytes(share.t1), element_to_bytes(share.t2))
        share_rows.append({"wire": hexed(share.to_wire()), "c": hex(c)})
    opened = {card_element("train", c): c for c in (0, 50, 100)}[decrypt_with_shares(ciphertext, [s.share for s in shares])]
    assert opened == finals[("train", 0)][1][0]
    recipients = {seat: secret.public_key for seat, secret in enumerate(secrets)}
    deal = deal_exponent(GAME_ID, 0, EXPONENTS[0], recipients, seeded("escrow"))
    complaint = escrow_complaint(deal, secrets[1], seeded("complaint"))
    assert not escrow_dealer_cheated(deal, complaint, secrets[1].public_key)  # the share opens: a false complaint
    seed_int = int.from_bytes(SEEDS[0].value, "big")
    return {
        "about": __doc__.split("\n\n")[1].replace("\n", " ") if __doc__ else "",
        "group": {"p": hex(P), "q": hex(Q), "g": G},
        "field_encoding": {
            "fields": ["bytes p2p_ttr (7 ASCII bytes)", "str train", "int 0", "int 300"],
            "encoded": encode_fields(b"p2p_ttr", "train", 0, 300).hex(),
        },
        "game_id": GAME_ID.hex(),
        "log_genesis_head": hashlib.sha256(b"p2p_ttr/log/v1/genesis" + GAME_ID).hexdigest(),
        "seats": seats,
        "joint_key": element(joint.element),
        "joint_key_note": "the wire form min(Y, p - Y) of Y = y_0 y_1 y_2; the residue itself is its other "
                          "representative when it is larger than q",
        "secret_sum": hex(sum(EXPONENTS)),
        "card_elements": {
            deck: {str(c): element(card_element(deck, c)) for c in cards}
            for deck, cards in (("train", (0, 50, 100)), ("tickets", (3, 17, 29)))
        },
        "card_hash_input": encode_fields(DOMAIN_CARD, "train", 50, 0).hex(),
        "generators": [element(h) for h in generators(3)],
        "chains": [train, tickets, remask],
        "shares": {"ref": ref.to_wire(), "ciphertext": pairs([ciphertext])[0], "shares": share_rows,
                   "opened_card": opened},
        "escrow": {
            "dealer": 0,
            "exponent": hex(EXPONENTS[0]),
            "deal": hexed(deal.to_wire()),
            "seed_as_exponent": hex(seed_int),
            "seed_image": element(escrow_image(seed_int)),
            "complaint_by_seat_1": hexed(complaint.to_wire()),
            "complaint_verdict": "the proof holds and the share opens: a false complaint, refused",
        },
    }


if __name__ == "__main__":  # regenerate (only when a format changes on purpose)
    VECTOR.parent.mkdir(exist_ok=True)
    VECTOR.write_text(json.dumps(vector_case(), indent=1) + "\n")
