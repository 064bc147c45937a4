"""An outsider's deck arithmetic, written from protocol.md §3 alone.

Nothing of p2p_ttr is imported here or in outsider_log.py (a test checks):
the group, the field encoding, the hashes, the DRBG, the steps, and every
proof's equations are re-written from the text, with hashlib, hmac,
Python's pow (gmpy2's powmod when installed: the same function, faster) and
AES-GCM from ``cryptography``. Every equation is checked one by one, not in
a batch, so nothing here shares a shortcut with the reference.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

try:  # the same modular power, faster
    from gmpy2 import powmod as _powmod
except ImportError:  # pragma: no cover - pure Python
    _powmod = pow

# RFC 3526, section 3, the 2048-bit MODP group (id 14).
P = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74"
    "020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F1437"
    "4FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF05"
    "98DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB"
    "9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF695581718"
    "3995497CEA956AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF",
    16,
)
Q = (P - 1) // 2
G = 4
TAG = b"p2p_ttr/deck/v1/"

Pair = tuple[int, int]


class Refused(Exception):
    """A value or a proof that does not check out."""


# ------------------------------------------------------------ the group


def enc(x: int) -> int:
    """The written form of an element: min(x, p - x)."""
    x %= P
    return x if x <= Q else P - x


def power(base: int, exponent: int) -> int:
    """base^exponent mod p for exponent >= 0 (enc it before comparing)."""
    return int(_powmod(base, exponent, P))


def inverse(x: int) -> int:
    return pow(x, -1, P)


def product(values: Sequence[int]) -> int:
    out = 1
    for v in values:
        out = out * v % P
    return out


def same(x: int, y: int) -> bool:
    """Whether two computed values stand for the same element."""
    return enc(x) == enc(y)


def E(x: int) -> bytes:
    """256 bytes big-endian of a written value."""
    return x.to_bytes(256, "big")


def Es(values: Sequence[int]) -> bytes:
    return b"".join(E(v) for v in values)


def element(raw: object) -> int:
    """An element from the wire: 256 bytes holding a value in [2, q]."""
    if not isinstance(raw, bytes) or len(raw) != 256:
        raise Refused("an element is 256 bytes")
    x = int.from_bytes(raw, "big")
    if not 2 <= x <= Q:
        raise Refused("an element lies in [2, q]")
    return x


def uint(raw: object, size: int) -> int:
    if not isinstance(raw, bytes) or len(raw) != size:
        raise Refused(f"a response is {size} bytes")
    return int.from_bytes(raw, "big")


# ------------------------------------------------------------- hashing

Field = bytes | str | int


def F(*fields: Field) -> bytes:
    out = b""
    for field in fields:
        if isinstance(field, bytes):
            kind, body = b"B", field
        elif isinstance(field, str):
            kind, body = b"S", field.encode()
        else:
            assert field >= 0
            kind, body = b"I", field.to_bytes((field.bit_length() + 7) // 8, "big")
        out += kind + len(body).to_bytes(4, "big") + body
    return out


def sha(name: str, *fields: Field) -> bytes:
    return hashlib.sha256(F(TAG + name.encode(), *fields)).digest()


def ch(name: str, *fields: Field) -> int:
    return int.from_bytes(sha(name, *fields)[:16], "big")


def shake(name: str, n: int, *fields: Field) -> bytes:
    return hashlib.shake_256(F(TAG + name.encode(), *fields)).digest(n)


def sixteens(data: bytes) -> list[int]:
    return [int.from_bytes(data[i : i + 16], "big") for i in range(0, len(data), 16)]


def hash_to_group(name: str, *fields: Field) -> int:
    counter = 0
    while True:
        v = int.from_bytes(shake(name, 272, *fields, counter), "big") % P
        w = enc(v * v % P)
        if w not in (0, 1):
            return w
        counter += 1


def card(deck: str, card_id: int) -> int:
    return hash_to_group("card", deck, card_id)


def generator(i: int) -> int:
    return hash_to_group("generator", "shuffle-proof", i)


def genesis(game_id: bytes) -> bytes:
    return hashlib.sha256(b"p2p_ttr/log/v1/genesis" + game_id).digest()


# ---------------------------------------------- keys, commitments, shares


def key_proof_holds(game_id: bytes, seat: int, y: int, t: int, s: int) -> bool:
    c = ch("key-proof", game_id, seat, E(G), E(y), E(t))
    return same(power(G, s), t * power(y, c))


def seed_commitment(game_id: bytes, seat: int, seed: bytes) -> bytes:
    return sha("seed-commitment", seed, game_id, seat)


def share_challenge(game_id: bytes, seat: int, deck: str, epoch: int, pos: int, y: int, a: int, d: int,
                    t1: int, t2: int) -> int:
    return ch("share-proof", game_id, seat, deck, epoch, pos, E(G), E(y), E(a), E(d), E(t1), E(t2))


def share_proof_holds(game_id: bytes, seat: int, deck: str, epoch: int, pos: int, y: int, a: int, d: int,
                      t1: int, t2: int, s: int) -> bool:
    c = share_challenge(game_id, seat, deck, epoch, pos, y, a, d, t1, t2)
    return same(power(G, s), t1 * power(y, c)) and same(power(a, s), t2 * power(d, c))


def decrypt(pair: Pair, secret_sum: int) -> int:
    a, b = pair
    return enc(b * inverse(power(a, secret_sum)))


# ---------------------------------------------------- a step from a seed


def chain_input(inputs: Sequence[Pair]) -> bytes:
    """I = SHA256("chain-input"; E(a_0) E(b_0) E(a_1) …): what a shuffle step is made from."""
    return hashlib.sha256(F(TAG + b"chain-input", b"".join(E(a) + E(b) for a, b in inputs))).digest()


class StepDrbg:
    """K = HMAC(seed, tag, γ, j, D, e[, I]) (I for a shuffle); blocks HMAC(K, label, index, attempt, counter)."""

    def __init__(self, seed: bytes, kind: str, game_id: bytes, seat: int, deck: str, epoch: int,
                 inputs: Sequence[Pair] = ()) -> None:
        fields: list[Field] = [TAG + kind.encode(), game_id, seat, deck, epoch]
        if kind == "shuffle":
            fields.append(chain_input(inputs))
        self.key = hmac.digest(seed, F(*fields), hashlib.sha256)

    def block(self, label: str, index: int, attempt: int = 0, counter: int = 0) -> bytes:
        return hmac.digest(self.key, F(label, index, attempt, counter), hashlib.sha256)

    def r(self, label: str, index: int) -> int:
        attempt = 0
        while True:
            value = int.from_bytes(self.block(label, index, attempt), "big")
            if value:
                return value
            attempt += 1

    def permutation(self, n: int) -> list[int]:
        stream = _Bits(self)
        pi = list(range(n))
        for i in range(n - 1, 0, -1):
            j = stream.below(i + 1)
            pi[i], pi[j] = pi[j], pi[i]
        return pi


class _Bits:
    """S = sum of block k << 256k, read from the least significant bit up."""

    def __init__(self, drbg: StepDrbg) -> None:
        self.drbg, self.next_block, self.pool, self.have = drbg, 0, 0, 0

    def take(self, b: int) -> int:
        while self.have < b:
            self.pool |= int.from_bytes(self.drbg.block("permutation", self.next_block), "big") << self.have
            self.next_block += 1
            self.have += 256
        value = self.pool & ((1 << b) - 1)
        self.pool >>= b
        self.have -= b
        return value

    def below(self, n: int) -> int:
        b = (n - 1).bit_length()
        while True:
            v = self.take(b)
            if v < n:
                return v


def shuffle_step(seed: bytes, game_id: bytes, seat: int, deck: str, epoch: int, joint: int,
                 inputs: Sequence[Pair]) -> list[Pair]:
    drbg = StepDrbg(seed, "shuffle", game_id, seat, deck, epoch, inputs)
    pi = drbg.permutation(len(inputs))
    out = []
    for i, source in enumerate(pi):
        r = drbg.r("rerandomise", i)
        a, b = inputs[source]
        out.append((enc(a * power(G, r)), enc(b * power(joint, r))))
    return out


def remask_step(seed: bytes, game_id: bytes, seat: int, deck: str, epoch: int, joint: int,
                inputs: Sequence[Pair]) -> list[Pair]:
    drbg = StepDrbg(seed, "remask", game_id, seat, deck, epoch)
    rs = [drbg.r("remask", i) for i in range(len(inputs))]
    return [(enc(a * power(G, r)), enc(b * power(joint, r))) for (a, b), r in zip(inputs, rs)]


# ------------------------------------------------------------ the proofs


def pairs_bytes(pairs: Sequence[Pair]) -> bytes:
    return b"".join(E(a) + E(b) for a, b in pairs)


def statement(kind: str, joint: int, game_id: bytes, seat: int, deck: str, epoch: int,
              inputs: Sequence[Pair], outputs: Sequence[Pair]) -> bytes:
    return sha("chain-statement", kind, E(P), E(G), E(joint), game_id, seat, deck, epoch, len(inputs),
               pairs_bytes(inputs), pairs_bytes(outputs))


def shuffle_proof_holds(joint: int, game_id: bytes, seat: int, deck: str, epoch: int, inputs: Sequence[Pair],
                        outputs: Sequence[Pair], proof: list[Any]) -> bool:
    """The proof of shuffle's six equations, one by one; False if any fails or
    the proof is not well formed for this step."""
    try:
        p_deck, p_epoch, p_seat, c_raw, chain_raw, t_raw, t_hat_raw, s_raw, s_hat_raw, s_prime_raw = proof
        n = len(inputs)
        if (p_deck, p_epoch, p_seat) != (deck, epoch, seat) or len(outputs) != n:
            return False
        lists = (c_raw, chain_raw, t_hat_raw, s_hat_raw, s_prime_raw)
        if not all(isinstance(x, list) and len(x) == n for x in lists) or len(t_raw) != 5 or len(s_raw) != 4:
            return False
        c = [element(v) for v in c_raw]
        C = [element(v) for v in chain_raw]
        t1, t2, t3, t4a, t4b = (element(v) for v in t_raw)
        t_hat = [element(v) for v in t_hat_raw]
        s1, s2, s3, s4 = (uint(v, size) for v, size in zip(s_raw, (66, 256, 82, 82)))
        s_hat = [uint(v, 65) for v in s_hat_raw]
        s_prime = [uint(v, 49) for v in s_prime_raw]
    except (Refused, ValueError, TypeError):
        return False
    if s2 >= Q:
        return False
    x = statement("shuffle", joint, game_id, seat, deck, epoch, inputs, outputs)
    h = [generator(i) for i in range(n + 1)]
    u = sixteens(shake("shuffle-proof", 16 * n, "u", x, Es(c)))
    challenge = ch("shuffle-proof", "c", x, Es(c), Es(C), Es([t1, t2, t3, t4a, t4b]), Es(t_hat))
    U = 1
    for value in u:
        U = U * value % Q
    a_prime = product([power(a, uj) for (a, _), uj in zip(inputs, u)])
    b_prime = product([power(b, uj) for (_, b), uj in zip(inputs, u)])
    c_bar = product(c) * inverse(product(h[1:]))
    checks = [
        same(power(G, s1), t1 * power(c_bar, challenge)),
        same(power(G, s2), t2 * power(C[-1] * inverse(power(h[0], U)), challenge)),
        same(power(G, s3) * product([power(hi, sp) for hi, sp in zip(h[1:], s_prime)]),
             t3 * power(product([power(cj, uj) for cj, uj in zip(c, u)]), challenge)),
        same(product([power(a, sp) for (a, _), sp in zip(outputs, s_prime)]),
             t4a * power(a_prime, challenge) * power(G, s4)),
        same(product([power(b, sp) for (_, b), sp in zip(outputs, s_prime)]),
             t4b * power(b_prime, challenge) * power(joint, s4)),
    ]
    previous = h[0]
    for i in range(n):
        checks.append(same(power(G, s_hat[i]) * power(previous, s_prime[i]), t_hat[i] * power(C[i], challenge)))
        previous = C[i]
    return all(checks)


def remask_proof_holds(joint: int, game_id: bytes, seat: int, deck: str, epoch: int, inputs: Sequence[Pair],
                       outputs: Sequence[Pair], proof: list[Any]) -> bool:
    try:
        p_deck, p_epoch, p_seat, ta_raw, tb_raw, s_raw = proof
        if (p_deck, p_epoch, p_seat) != (deck, epoch, seat) or len(outputs) != len(inputs):
            return False
        ta, tb, s = element(ta_raw), element(tb_raw), uint(s_raw, 82)
    except (Refused, ValueError, TypeError):
        return False
    x = statement("remask", joint, game_id, seat, deck, epoch, inputs, outputs)
    u = sixteens(shake("remask-proof", 16 * len(inputs), "u", x))
    c = ch("remask-proof", "c", x, E(ta), E(tb))
    return (same(power(G, s) * product([power(a, c * ui) for (a, _), ui in zip(inputs, u)]),
                 ta * product([power(a, c * ui) for (a, _), ui in zip(outputs, u)]))
            and same(power(joint, s) * product([power(b, c * ui) for (_, b), ui in zip(inputs, u)]),
                     tb * product([power(b, c * ui) for (_, b), ui in zip(outputs, u)])))


# ---------------------------------------------------------------- escrow


def escrow_open(game_id: bytes, dealer: int, recipient: int, commitment: int, ephemeral: int, sealed: bytes,
                key_element: int) -> int | None:
    """The share sealed to ``recipient`` with K = ``key_element``; None if it does not open to C's exponent."""
    key = sha("escrow-key", game_id, dealer, recipient, E(ephemeral), E(key_element))
    associated = F(TAG + b"escrow-key", game_id, dealer, recipient, E(commitment))
    try:
        plain = AESGCM(key).decrypt(b"\0" * 12, sealed, associated)
    except InvalidTag:
        return None
    share = int.from_bytes(plain, "big")
    return share if share < Q and same(power(G, share), commitment) else None


def complaint_proof_holds(game_id: bytes, dealer: int, recipient: int, y: int, ephemeral: int, key_element: int,
                          c: int, z: int) -> bool:
    minus_c = (Q - c % Q) % Q
    t1 = enc(power(G, z) * power(y, minus_c))
    t2 = enc(power(ephemeral, z) * power(key_element, minus_c))
    return ch("escrow-complaint", game_id, dealer, recipient, E(y), E(ephemeral), E(key_element), E(t1), E(t2)) == c
