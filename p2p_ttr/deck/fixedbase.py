"""Fast exponentiation: fixed-base tables and multi-exponentiation.

Measured in CPython 3.11 on the 2-core target: a 2048-bit mulmod is ~10 us, a
squaring ~8 us, ``pow(g, e, p)`` for a 256-bit ``e`` ~2.8 ms.

* :class:`FixedBaseTable` -- the fixed-window method of Brickell, Gordon,
  McCurley and Wilson: store ``base^(d * 2^(8i))`` for every byte value ``d``
  and byte index ``i``; then ``base^e`` is one table lookup per non-zero byte
  of ``e`` and no squaring at all: 31 mulmods for a 256-bit exponent, ~9x
  cheaper than ``pow``. A row costs 256 mulmods and 256 numbers (~70 kB); the
  table grows by rows on demand, so a base only ever used with 256-bit
  exponents (the joint key) has 32 rows, and the generator, also used with
  the ~580-bit exponents of proofs and batch checks, grows to ~73. It stops
  at ``MAX_TABLE_BITS``: a longer exponent (a dishonest but revealable
  secret key of up to 2047 bits, keys.py) takes a plain ``pow`` instead of
  making every verifier build ~256 rows (~17 MB) for one number.
* :func:`multi_exp` -- Straus' simultaneous exponentiation ("Shamir's trick")
  with one sliding window per base: ``prod b_i^e_i`` costs one shared chain of
  ``max(bits(e_i))`` squarings plus ~``bits(e_i)/(w+1) + 2^(w-1)`` products
  per base, instead of a full chain per base. Batch verification of
  decryption shares is one call.
* :func:`powers_of_one_base` -- Yao's method for several exponents of one
  variable base: the ``base^(2^(k*j))`` are computed once (one squaring chain
  for the longest exponent) and each exponent then costs only
  ``digits + 2^(k+1)`` products. A share needs ``a^x`` and its proof ``a^w``.

All functions return canonical element encodings (see :mod:`.group`).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from .backend import Backend, current_backend
from .group import EXPONENT_BITS, G, P, Q, canonical

TABLE_WINDOW = 8
MAX_TABLE_BITS = 768
"""Tables never grow past this many exponent bits (96 rows); above, plain pow.
The longest exponent the protocol feeds a table is a proof response (<= 656 bits)."""


class FixedBaseTable:
    """Precomputed ``base^(d * 2^(w*i))`` for fast powers of one fixed base.

    Built for the backend current at construction time; the rows hold that
    backend's native numbers. Safe to share between threads: rows are only
    ever appended, under a lock.
    """

    __slots__ = ("base", "window", "backend", "_rows", "_mask", "_next", "_p", "_one", "_lock", "_max_rows")

    def __init__(
        self,
        base: int,
        *,
        bits: int = EXPONENT_BITS,
        window: int = TABLE_WINDOW,
        backend: Backend | None = None,
    ) -> None:
        self.base = base
        self.window = window
        self.backend = backend or current_backend()
        self._mask = (1 << window) - 1
        self._p = self.backend.native(P)
        self._one = self.backend.native(1)
        self._rows: list[list[int]] = []
        self._next = self.backend.native(base)  # base^(2^(w * len(rows)))
        self._lock = threading.Lock()  # rows are only appended, under the lock
        self._max_rows = max(-(-bits // window), -(-MAX_TABLE_BITS // window))
        self._grow(-(-bits // window))

    @property
    def rows(self) -> int:
        """How many window rows are built (exponents below 2^(rows*window) are fast)."""
        return len(self._rows)

    def _grow(self, rows: int) -> None:
        p, one = self._p, self._one
        with self._lock:
            while len(self._rows) < rows:
                b = self._next
                row = [one, b]
                acc = b
                for _ in range((1 << self.window) - 2):
                    acc = acc * b % p
                    row.append(acc)
                self._next = acc * b % p
                self._rows.append(row)

    def raw_pow(self, exponent: int) -> int:
        """``base^exponent mod P`` as a native residue (not canonical).

        The table grows if the exponent is longer than the rows built so far,
        up to ``MAX_TABLE_BITS``; a longer exponent takes a plain ``pow``.
        """
        w, mask = self.window, self._mask
        needed = -(-exponent.bit_length() // w)
        if needed > len(self._rows):
            if needed > self._max_rows:
                return self.backend.native(self.backend.powmod(self.backend.native(self.base), exponent, P))
            self._grow(needed)
        rows, p = self._rows, self._p
        acc = self._one
        i = 0
        first = True
        while exponent:
            digit = exponent & mask
            if digit:
                if first:
                    acc = rows[i][digit]
                    first = False
                else:
                    acc = acc * rows[i][digit] % p
            exponent >>= w
            i += 1
        return acc

    def pow(self, exponent: int) -> int:
        """``base^exponent`` as a canonical element."""
        return canonical(self.raw_pow(exponent))


_generator_tables: dict[str, FixedBaseTable] = {}


def generator_table() -> FixedBaseTable:
    """The (lazily built, per-backend) fixed-base table of the generator G."""
    backend = current_backend()
    table = _generator_tables.get(backend.name)
    if table is None:
        table = _generator_tables[backend.name] = FixedBaseTable(G, backend=backend)
    return table


def g_pow(exponent: int) -> int:
    """``G^exponent`` as a canonical element, through the generator table."""
    return generator_table().pow(exponent)


def _fixed_window_for(bits: int) -> int:
    """Window width minimising bits/w + 2^(w-1) products (fixed windows)."""
    return min(range(1, 8), key=lambda w: bits / w + (1 << (w - 1)))


def _odd_split(w: int) -> list[tuple[int, int]]:
    """For each w-bit digit d > 0: (trailing zeros t, index of the odd power d >> t)."""
    split = [(0, 0)]
    for d in range(1, 1 << w):
        t = (d & -d).bit_length() - 1
        split.append((t, (d >> t) >> 1))
    return split


_ODD_SPLITS = [_odd_split(w) for w in range(8)]


def multi_exp(terms: Sequence[tuple[int, int]]) -> int:
    """``prod base_i^exponent_i`` as a canonical element (Straus' method).

    Bases are encoded elements (or any residues mod P); exponents are >= 0.
    Each exponent is cut into fixed w-bit digits, each digit written as an
    odd number times a power of two, so only the odd powers of a base are
    precomputed and a digit is one product at the right place of the shared
    squaring chain. (Sliding windows would save ~15% of the products but cost
    a Python step per bit; with many bases the interpreter is the bottleneck.)
    """
    backend = current_backend()
    p = backend.native(P)
    if len(terms) >= PIPPENGER_MIN_TERMS:
        return _bucket_multi_exp(terms)
    top = max((e.bit_length() for _, e in terms), default=0)
    # events[j]: the odd powers to multiply in after the squaring that brings
    # the accumulator to bit j.
    events: list[list[int]] = [[] for _ in range(top)]
    for base, exponent in terms:
        if exponent == 0:
            continue
        w = _fixed_window_for(exponent.bit_length())
        b = backend.native(base)
        odd = [b]
        if w > 1:
            b2 = b * b % p
            for _ in range((1 << (w - 1)) - 1):
                odd.append(odd[-1] * b2 % p)
        split, mask, k = _ODD_SPLITS[w], (1 << w) - 1, 0
        while exponent:
            digit = exponent & mask
            if digit:
                t, index = split[digit]
                events[k + t].append(odd[index])
            exponent >>= w
            k += w
    acc = backend.native(1)
    started = False
    for position in range(top - 1, -1, -1):
        if started:
            acc = acc * acc % p
            for value in events[position]:
                acc = acc * value % p
        elif events[position]:
            first, *rest = events[position]
            acc, started = first, True
            for value in rest:
                acc = acc * value % p
    return canonical(acc)


def _combine_buckets(buckets: Sequence[int | None], p: int) -> int | None:
    """``prod_d buckets[d]^d`` (None for the empty product), as the product over
    d descending of the running product of the buckets from the top: two
    products per digit value, no exponentiation."""
    running: int | None = None
    total: int | None = None
    for d in range(len(buckets) - 1, 0, -1):
        bucket = buckets[d]
        if bucket is not None:
            running = bucket if running is None else running * bucket % p
        if running is not None:
            total = running if total is None else total * running % p
    return total


PIPPENGER_MIN_TERMS = 64
"""From this many bases on, :func:`multi_exp` uses buckets (Pippenger) instead of Straus."""


def _bucket_multi_exp(terms: Sequence[tuple[int, int]]) -> int:
    """Pippenger's bucket method: for each c-bit window of the exponents,
    from the top, multiply every base into the bucket of its digit (one
    product per base), then combine the buckets as prod_d bucket_d^d with two
    running products (2 * 2^c products), and raise the accumulator by 2^c.
    About (bits / c) * (n + 2^(c+1)) products for n bases, with no table per
    base: with hundreds of bases it does about half the products of Straus."""
    backend = current_backend()
    p = backend.native(P)
    # Longest exponents first, so that a window visits only the bases that reach it.
    items = sorted(((e.bit_length(), e, backend.native(b)) for b, e in terms if e), key=lambda t: -t[0])
    if not items:
        return canonical(1)
    top, n = items[0][0], len(items)
    c = min(range(2, 16), key=lambda w: -(-top // w) * (n + (1 << (w + 1))))
    mask = (1 << c) - 1
    acc = None
    for window in range(-(-top // c) - 1, -1, -1):
        shift = window * c
        if acc is not None:
            for _ in range(c):
                acc = acc * acc % p
        buckets: list[int | None] = [None] * (mask + 1)
        for bits, exponent, base in items:
            if bits <= shift:
                break
            digit = (exponent >> shift) & mask
            if digit:
                held = buckets[digit]
                buckets[digit] = base if held is None else held * base % p
        total = _combine_buckets(buckets, p)
        if total is not None:
            acc = total if acc is None else acc * total % p
    return canonical(acc if acc is not None else 1)


def powers_of_one_base(base: int, exponents: Sequence[int], digit_bits: int = 4) -> list[int]:
    """``[base^e for e in exponents]`` as canonical elements (Yao's method).

    Shares one squaring chain of ``max(bits(e))`` between all exponents.
    """
    backend = current_backend()
    p = backend.native(P)
    k = digit_bits
    mask = (1 << k) - 1
    digits = -(-max((e.bit_length() for e in exponents), default=0) // k)
    # radix_powers[j] = base^(2^(k*j))
    radix_powers = []
    power = backend.native(base)
    for j in range(digits):
        radix_powers.append(power)
        if j + 1 < digits:
            for _ in range(k):
                power = power * power % p
    results = []
    one = backend.native(1)
    for exponent in exponents:
        # buckets[d] = product of radix powers whose digit is d
        buckets: list[int | None] = [None] * (mask + 1)
        j = 0
        while exponent:
            d = exponent & mask
            if d:
                current = buckets[d]
                buckets[d] = radix_powers[j] if current is None else current * radix_powers[j] % p
            exponent >>= k
            j += 1
        total = _combine_buckets(buckets, p)
        results.append(canonical(total if total is not None else one))
    return results


LONG_EXPONENT_BITS = 640
"""Above this, :func:`product_is_one` raises the base alone (reduced mod Q)."""


def product_is_one(terms: dict[int, int]) -> bool:
    """Whether ``prod base^exponent == 1`` for signed exponents.

    Bases are encoded elements of the order-``Q`` group, so an exponent
    counts modulo ``Q``. Without inverses: the positive and the negative
    terms are two multi-exponentiations compared with each other; a base with
    a long exponent (a generator's, reduced mod ``Q``: ~2048 bits) is raised
    alone by the backend's ``powmod``, so that it does not lengthen the
    squaring chain every other base shares.
    """
    backend = current_backend()
    positive: list[tuple[int, int]] = []
    negative: list[tuple[int, int]] = []
    long_side = 1
    for base, exponent in terms.items():
        if exponent.bit_length() > LONG_EXPONENT_BITS:
            long_side = long_side * backend.powmod(base, exponent % Q, P) % P
        elif exponent > 0:
            positive.append((base, exponent))
        elif exponent < 0:
            negative.append((base, -exponent))
    return canonical(multi_exp(positive) * long_side % P) == multi_exp(negative)
