"""Time a whole in-process crypto game and the audit of its log.

    python bench/table.py [--players N] [--seed S]

Five peers in one process, each with its own keys and replica, exchange only
signed bytes (so every peer verifies every message: the game time is about N
times one peer's work). Then the log is verified from scratch, as `ttr verify`
does. Budget (design.md §5): verifying a finished 5-player game under 3 s.
The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time

from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.deck import current_backend
from p2p_ttr.local.crypto_game import play_crypto_game
from p2p_ttr.table.table import Table
from p2p_ttr.table.verify import verify_entries

VERIFY_BUDGET_S = 3.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    names = ("Anna", "Boris", "Chiara", "Dmitri", "Elena")[: args.players]
    start = time.perf_counter()
    game = play_crypto_game(args.seed, [RandomBot(args.seed + p) for p in range(args.players)], names)
    game_s = time.perf_counter() - start
    start = time.perf_counter()
    replica = Table()
    for raw in game.log:
        replica.receive(raw)
    fold_s = time.perf_counter() - start
    start = time.perf_counter()
    verdict = verify_entries(game.log)
    verify_s = time.perf_counter() - start
    assert verdict.fair, [f.line() for f in verdict.findings]
    # The part of verify that checks every share's proof in one batch, timed again alone.
    table = verdict.table
    assert table.joint is not None
    start = time.perf_counter()
    table.shares.check_every_proof(table.joint)
    proofs_s = time.perf_counter() - start
    size = sum(len(raw) for raw in game.log)
    print(f"{args.players} players, backend {current_backend().name}: {len(game.log)} messages, {size / 1e6:.1f} MB")
    print(f"  whole game, {args.players} peers in one process: {game_s:.2f} s")
    print(f"  one replica folding the log:          {fold_s:.2f} s")
    print(f"  ttr verify (fold + deck audit):       {verify_s:.2f} s "
          f"(budget {VERIFY_BUDGET_S:.0f} s: {'met' if verify_s < VERIFY_BUDGET_S else 'MISSED'})")
    print(f"    of which every share's proof, one batch: {proofs_s:.2f} s ({proofs_s / verify_s:.0%})")
    print(json.dumps({
        "bench": "table",
        "players": args.players,
        "backend": current_backend().name,
        "messages": len(game.log),
        "log_bytes": size,
        "game_s": round(game_s, 3),
        "fold_s": round(fold_s, 3),
        "verify_s": round(verify_s, 3),
        "share_proofs_s": round(proofs_s, 3),
    }))


if __name__ == "__main__":
    main()
