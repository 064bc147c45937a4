"""The deck's cost on every board, as ratios against Europe measured in the same run.

    python bench/boards.py [--players N] [--runs R] [--seed S] [--only NAME ...]

A board's decks are its own (USA's Mega Game deals from 30 more tickets than
Europe, Mega Europe from 46 long and regular tickets), so the set-up's
shuffle chains and proofs, and a private draw, cost what the board's decks
cost. For each game (``every_game``; ``--only europe(variant=mega)`` picks
some) at min(N, the board's most seats) seats, and for Europe's standard
game at the same seats, it plays the set-up in process (the peers of
``p2p_ttr.local.crypto_game``, exchanging only signed bytes) until the first
move is owed, as ``bench/setup.py`` stops at the first turn, and times:

* ``setup_peer_s``: the CPU one peer pays for the set-up (making its own
  messages, checking and folding everyone's), the largest over the seats: what
  each pays on its own machine (budget, design.md §5: 2 s, process start
  included, which this leaves out);
* ``draw_ms``: a private draw of the train deck's last card on the set-up's
  real decks: every other seat's share made, then the drawer checking them and
  opening the card (one core, one after the other, as ``bench/deck.py``'s
  ``private_draw_ms``; budget 50 ms for 5 seats on loopback).

Each is the best of R runs, Europe and the board alternating so both see the
same machine; the ratios to Europe are what to compare between runs (this
VM's speed drifts). The load average is printed with the results. The last
line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import dataclass

from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.deck import current_backend, make_share, open_private
from p2p_ttr.engine.boards import europe_game, every_game
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.game import Game
from p2p_ttr.local.crypto_game import SeededSource
from p2p_ttr.table.cards import deck_ref
from p2p_ttr.table.envelope import GAME_ID_BYTES
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.messages import Seat
from p2p_ttr.table.obligations import Owed
from p2p_ttr.table.peer import Peer

DRAWS = 7  # private draws timed per set-up (the best is kept)
MAX_MESSAGES = 5_000  # a set-up needs a few dozen; more is a bug, not a slow machine


@dataclass(frozen=True)
class SetupCost:
    """One measured set-up of one game, and a private draw on its decks."""

    peer_s: float  # the most CPU one seat spent (its own messages and folding everyone's)
    messages: int
    log_bytes: int
    draw_ms: float


def seated_peers(game: Game, players: int, seed: int) -> list[Peer]:
    """The peers of a ``players``-seat game of ``game``, secrets from ``seed``, not yet past the seating."""
    sources = [SeededSource(b"p2p_ttr/bench/boards/%d/%d" % (seed, p)) for p in range(players)]
    identities = [Identity.from_bytes(src(32)) for src in sources]
    return [Peer(p, identities[p], RandomBot(seed + p).choose, sources[p]) for p in range(players)]


def measure_setup(game: Game, players: int, seed: int) -> SetupCost:
    """Play ``game``'s set-up among in-process peers until a move is owed, timing each seat's share of the work."""
    peers = seated_peers(game, players, seed)
    spent = [0.0] * players
    log_bytes = 0
    messages = 0

    def sequence(raw: bytes) -> None:
        nonlocal log_bytes, messages
        for p, peer in enumerate(peers):
            start = time.process_time()
            peer.table.receive(raw)
            spent[p] += time.process_time() - start
        log_bytes += len(raw)
        messages += 1

    seats = tuple(Seat(f"Seat{p}", peer.identity.public) for p, peer in enumerate(peers))
    first = peers[0].source
    assert first is not None
    start = time.process_time()
    opening = peers[0].open_game(seats, game_id=first(GAME_ID_BYTES), game=game)
    spent[0] += time.process_time() - start
    sequence(opening)
    table = peers[0].table
    while not any(o.what is Owed.MOVE for o in table.obligations()):
        if messages > MAX_MESSAGES:
            raise RuntimeError(f"{game.title}: no move owed after {messages} messages")
        sent = False
        for p, peer in enumerate(peers):
            start = time.process_time()
            out = peer.outbox()
            spent[p] += time.process_time() - start
            for raw in out:
                sequence(raw)
                sent = True
        if not sent:
            raise RuntimeError(f"{game.title}: the set-up stopped with no move owed")
    return SetupCost(max(spent), messages, log_bytes, private_draw_ms(peers, game))


def private_draw_ms(peers: list[Peer], game: Game) -> float:
    """Seat 0 draws the train deck's last card: the others' shares made, then checked and opened (best of DRAWS)."""
    table = peers[0].table
    assert table.joint is not None
    ref = CardRef(Deck.TRAIN, 0, game.deck_size(Deck.TRAIN) - 1)
    ciphertext = table.ciphertext(ref)
    codec = table.codec(Deck.TRAIN)
    keys = []
    for peer in peers:
        assert peer.table.me is not None
        keys.append(peer.table.me.key)
    best = float("inf")
    for _ in range(DRAWS):
        start = time.process_time()
        shares = [make_share(key, deck_ref(ref), ciphertext) for key in keys[1:]]
        open_private(table.joint, keys[0], deck_ref(ref), ciphertext, shares, codec)
        best = min(best, time.process_time() - start)
    return best * 1e3


def seats_for(game: Game, players: int) -> int:
    return max(game.rules.min_players, min(players, game.rules.max_players))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=5, help="seats (each board: at most its own most)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", nargs="*", default=None, help="game names as load_game takes them")
    args = parser.parse_args()
    europe = europe_game()
    games = [g for g in every_game() if g.name != europe.name and (args.only is None or g.name in args.only)]
    load_before = os.getloadavg()
    best: dict[tuple[str, int], SetupCost] = {}

    def keep(game: Game, seats: int, cost: SetupCost) -> None:
        old = best.get((game.name, seats))
        best[(game.name, seats)] = cost if old is None else SetupCost(
            min(old.peer_s, cost.peer_s), cost.messages, cost.log_bytes, min(old.draw_ms, cost.draw_ms))

    for run in range(args.runs):
        for game in games:
            seats = seats_for(game, args.players)
            for each in (europe, game):  # alternating, so both see the same machine
                keep(each, seats, measure_setup(each, seats, args.seed + run))
        print(f"run {run + 1}/{args.runs} done", flush=True)
    load_after = os.getloadavg()
    rows = []
    print(f"backend {current_backend().name}; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after")
    for game in games:
        seats = seats_for(game, args.players)
        mine, ref = best[(game.name, seats)], best[(europe.name, seats)]
        row = {
            "game": game.name,
            "title": game.title,
            "seats": seats,
            "cards": [game.deck_size(d) for d in Deck],
            "setup_peer_s": round(mine.peer_s, 3),
            "europe_setup_peer_s": round(ref.peer_s, 3),
            "setup_ratio": round(mine.peer_s / ref.peer_s, 3),
            "messages": mine.messages,
            "log_bytes": mine.log_bytes,
            "draw_ms": round(mine.draw_ms, 2),
            "europe_draw_ms": round(ref.draw_ms, 2),
            "draw_ratio": round(mine.draw_ms / ref.draw_ms, 3),
        }
        rows.append(row)
        print(f"{game.title:22} {seats} seats, decks {row['cards']}: set-up {row['setup_peer_s']:.2f} s a peer "
              f"(Europe {row['europe_setup_peer_s']:.2f} s, x{row['setup_ratio']:.2f}), "
              f"{mine.messages} messages, {mine.log_bytes / 1e6:.2f} MB; private draw {row['draw_ms']:.1f} ms "
              f"(Europe {row['europe_draw_ms']:.1f} ms, x{row['draw_ratio']:.2f})", flush=True)
    print(json.dumps({
        "bench": "boards",
        "backend": current_backend().name,
        "runs": args.runs,
        "load_before": round(load_before[0], 2),
        "load_after": round(load_after[0], 2),
        "results": rows,
    }))


if __name__ == "__main__":
    main()
