"""Benchmark of the mental-poker deck: shuffle chains, shares, private draws.

Run:  python bench/deck.py                      (backend from P2P_TTR_POWMOD,
      P2P_TTR_POWMOD=python python bench/deck.py  default gmpy2 if importable)

For 2..6 players (the largest table a game has: Old West's 6) it times a full shuffle chain of 110 cards (every seat's
step, input and output validation included), the "floor" (the same number
of fixed-base exponentiations done bare with the same tables, in the same
run), their ratio, and making and verifying one decryption share with its
proof. The 5- and 6-player entries add the private draw: the others' shares made (4 or 5), the drawer
verifying them and adding its own (``private_draw_ms``, everything on one
core, one after the other) and the latency when each peer makes its share
on its own machine (``private_draw_parallel_ms``). ``pow256_ms`` calibrates
the machine: one ``pow(4, e, p)`` with a 256-bit ``e``, and ``mulmod_us`` one
2048-bit ``x * y % p`` in pure Python (the unit every cost here is made of).

Each figure is the best of several runs (the least disturbed by whatever
else runs on the 2 cores); chain and floor runs alternate so both see the
same machine. The last line is one JSON object.
Budgets (pure Python, 2 cores): 5-player chain < 1.0 s and < 1.3x the floor;
private draw < 50 ms.

Proofs (``proofs`` in the JSON): one 110-card step's proof of shuffle, made
and checked (``make_s``, ``check_s``), each also as a ratio to its floor:
110 bare ``pow(base, e, p)`` with 256-bit ``e`` and variable bases, timed in
the same run. Targets with gmpy2: make <= 0.3 s, check <= 0.25 s. A re-mask
proof of 3 tickets is timed too.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable

from p2p_ttr.deck import (
    EpochPosition,
    JointKey,
    SecretKey,
    Seed,
    create_deck,
    current_backend,
    make_share,
    open_private,
    remask_step,
    shuffle_step,
    verify_share,
)
from p2p_ttr.deck.remaskproof import prove_remask, verify_remask
from p2p_ttr.deck.shuffleproof import prove_shuffle, verify_shuffle
from p2p_ttr.deck.fixedbase import generator_table
from p2p_ttr.deck.group import EXPONENT_BITS, G, P
from p2p_ttr.engine.limits import any_game_limits

CARDS = 110
RUNS = 5


def seconds(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def best_seconds(action: Callable[[], object], runs: int = RUNS) -> float:
    return min(seconds(action) for _ in range(runs))


def bench_players(players: int) -> dict[str, float | int]:
    game_id = secrets.token_bytes(16)
    keys = [SecretKey.generate(game_id, seat) for seat in range(players)]
    seeds = [Seed.generate() for _ in range(players)]
    joint = JointKey(game_id, tuple(key.public_key for key in keys))
    creation = create_deck("train", 0, range(CARDS))

    start = time.perf_counter()
    y_table = joint.table()
    tables_s = time.perf_counter() - start
    g_table = generator_table()

    final = creation.ciphertexts()

    def chain() -> None:
        nonlocal final
        current = creation.ciphertexts()
        for seat in range(players):
            current = shuffle_step(joint, seeds[seat], seat, "train", 0, current).ciphertexts
        final = current

    exponents = [secrets.randbits(EXPONENT_BITS) for _ in range(CARDS * players)]

    def floor() -> None:
        for r in exponents:
            g_table.raw_pow(r)
            y_table.raw_pow(r)

    runs = [(seconds(chain), seconds(floor)) for _ in range(RUNS)]
    shuffle_s = min(run[0] for run in runs)
    floor_s = min(run[1] for run in runs)

    codec = creation.codec()
    made = [
        make_share(keys[1], EpochPosition("train", 0, position), final[position]) for position in range(5)
    ]
    share_s = best_seconds(lambda: make_share(keys[1], EpochPosition("train", 0, 7), final[7]))
    verify_s = best_seconds(lambda: verify_share(joint, made[0], final[0]))
    result: dict[str, float | int] = {
        "players": players,
        "shuffle_s": round(shuffle_s, 4),
        "floor_s": round(floor_s, 4),
        "ratio": round(shuffle_s / floor_s, 3),
        "share_ms": round(share_s * 1e3, 2),
        "verify_ms": round(verify_s * 1e3, 2),
        "tables_s": round(tables_s, 4),
    }
    if players >= 5:
        positions = iter(range(10, CARDS))

        def private_draw() -> tuple[float, float]:
            position = next(positions)
            ref = EpochPosition("train", 0, position)
            start = time.perf_counter()
            shares = [make_share(keys[seat], ref, final[position]) for seat in range(1, players)]
            made_at = time.perf_counter()
            open_private(joint, keys[0], ref, final[position], shares, codec)
            done = time.perf_counter()
            return done - start, (made_at - start) / len(shares) + (done - made_at)

        draws = [private_draw() for _ in range(7)]
        result["private_draw_ms"] = round(min(d[0] for d in draws) * 1e3, 2)
        result["private_draw_parallel_ms"] = round(min(d[1] for d in draws) * 1e3, 2)
    return result


def bench_proofs() -> dict[str, float]:
    """One step's proof of shuffle of CARDS cards, made and checked, against the floor."""
    game_id = secrets.token_bytes(16)
    keys = [SecretKey.generate(game_id, seat) for seat in range(3)]
    joint = JointKey(game_id, tuple(key.public_key for key in keys))
    seed = Seed.generate()
    inputs = shuffle_step(joint, Seed.generate(), 0, "train", 0, create_deck("train", 0, range(CARDS)).ciphertexts()).ciphertexts
    step = shuffle_step(joint, seed, 1, "train", 0, inputs)
    proof = prove_shuffle(joint, seed, step, inputs)
    bases = [a for a, _ in inputs]
    exponents = [secrets.randbits(EXPONENT_BITS) for _ in range(CARDS)]
    powmod = current_backend().powmod

    def floor() -> None:
        for base, e in zip(bases, exponents):
            powmod(base, e, P)

    runs = [(seconds(lambda: prove_shuffle(joint, seed, step, inputs)),
             seconds(lambda: verify_shuffle(joint, step, inputs, proof)),
             seconds(floor)) for _ in range(RUNS)]
    make_s, check_s, floor_s = (min(run[k] for run in runs) for k in range(3))
    tickets = inputs[:3]
    remask = remask_step(joint, seed, 1, "tickets", 1, tickets)
    remask_made = prove_remask(joint, seed, remask, tickets)
    return {
        "cards": CARDS,
        "make_s": round(make_s, 4),
        "check_s": round(check_s, 4),
        "floor_s": round(floor_s, 4),
        "make_ratio": round(make_s / floor_s, 2),
        "check_ratio": round(check_s / floor_s, 2),
        "remask_make_ms": round(best_seconds(lambda: prove_remask(joint, seed, remask, tickets)) * 1e3, 2),
        "remask_check_ms": round(best_seconds(lambda: verify_remask(joint, remask, tickets, remask_made)) * 1e3, 2),
    }


def main() -> None:
    backend = current_backend().name
    exponent = secrets.randbits(EXPONENT_BITS)
    pow256_ms = best_seconds(lambda: pow(G, exponent, P), runs=20) * 1e3
    x, y = secrets.randbelow(P), secrets.randbelow(P)
    mulmod_us = best_seconds(lambda: [x * y % P for _ in range(100)], runs=20) * 1e4
    start = time.perf_counter()
    generator_table().raw_pow(1 << 600)  # the rows proofs and batches use
    g_table_s = time.perf_counter() - start
    print(f"backend {backend}; pow(4, 256-bit e, p) = {pow256_ms:.2f} ms; "
          f"2048-bit mulmod (pure Python) = {mulmod_us:.1f} us; "
          f"generator table built in {g_table_s:.3f} s")
    results = []
    for players in range(2, any_game_limits().max_players + 1):  # up to Old West's 6
        r = bench_players(players)
        results.append(r)
        line = (
            f"{players} players: shuffle chain of {CARDS} cards {r['shuffle_s']:.3f} s, "
            f"floor {r['floor_s']:.3f} s, ratio {r['ratio']:.2f}; "
            f"share {r['share_ms']:.1f} ms, verify {r['verify_ms']:.1f} ms; "
            f"Y table {r['tables_s']:.3f} s"
        )
        if "private_draw_ms" in r:
            line += (
                f"; private draw {r['private_draw_ms']:.1f} ms "
                f"({r['private_draw_parallel_ms']:.1f} ms with shares made in parallel)"
            )
        print(line, flush=True)
    proofs = bench_proofs()
    print(f"proof of shuffle, {CARDS} cards: make {proofs['make_s']:.3f} s ({proofs['make_ratio']:.1f}x the floor), "
          f"check {proofs['check_s']:.3f} s ({proofs['check_ratio']:.1f}x); floor ({CARDS} bare 256-bit "
          f"exponentiations) {proofs['floor_s']:.3f} s; re-mask of 3: make {proofs['remask_make_ms']:.1f} ms, "
          f"check {proofs['remask_check_ms']:.1f} ms", flush=True)
    print(json.dumps({
        "proofs": proofs,
        "bench": "deck",
        "backend": backend,
        "pow256_ms": round(pow256_ms, 3),
        "mulmod_us": round(mulmod_us, 2),
        "generator_table_s": round(g_table_s, 3),
        "results": results,
    }))


if __name__ == "__main__":
    main()
