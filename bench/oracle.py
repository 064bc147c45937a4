"""What hidden information costs the expert: the expert told its opponents' hands and tickets.

    python bench/oracle.py [--players 2] [--games 200] [--seed 2026] [--bots expert,hard] [--whole] [--workers 2]

A diagnostic, not a bot: the games are exactly ``ttr tournament``'s with the
same arguments, but every world the expert's search deals holds the
opponents' true hands and tickets (the cards of the pile, and those not yet
shown to anyone, are still guessed; the luck of later draws is the search's
own, as always). The hard prior still sees only its seat's view. Compared
with the same tournament played straight, it says how much of the expert's
distance from its goal lies in guessing the hidden cards and how much in
judging the positions it plays out. The last line is one JSON object.

``--whole`` tells the search everything the dealer has decided: every world
is the true game, the order of the pile included (the luck of the search's
blind draws is the pile's own; only a reshuffle of the discards, not yet
made, is guessed). What it cannot know is how the opponents will play: its
rollouts play them by the rollout policy. A bound on what better worlds
could ever give the search as it judges.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import time
from collections.abc import Callable
from typing import Any

import p2p_ttr.bots.expert as expert
import p2p_ttr.local.dealer as local_dealer
import p2p_ttr.local.game as local_game
from p2p_ttr.engine.cards import CardRef
from p2p_ttr.engine.state import GameState
from p2p_ttr.local.tournament import play_tournament

# The state the dealer's game stands at, as the last bot was shown it (one
# game at a time per process: each worker plays its games one by one).
_TRUE_STATE: list[GameState] = []
_DEALER: list[local_dealer.LocalDealer] = []  # the dealer of the game under way (--whole)
# The two names the oracle replaces, where they are looked up: the local
# game's view of the state for a bot, and the expert's dealer of worlds.
_real_view_for: Callable[[GameState, int], GameState] = getattr(local_game, "view_for")
_real_determinize: Callable[..., GameState] = getattr(expert, "determinize")


def _view_for_remembering(state: GameState, player: int) -> GameState:
    _TRUE_STATE[:] = [state]
    return _real_view_for(state, player)


def _true_faces(seat: int) -> dict[CardRef, int]:
    """The faces of the other seats' hands and tickets that someone at the table knows."""
    state = _TRUE_STATE[0]
    out: dict[CardRef, int] = {}
    for q, ps in enumerate(state.players):
        if q != seat:
            for ref in ps.hand + ps.tickets + ps.offered:
                card = state.face(ref)
                if card is not None:
                    out[ref] = card
    return out


def _determinize_told(view: GameState, seat: int, rng: random.Random, *args: Any, **kwargs: Any) -> GameState:
    """A world dealt as the expert deals it, around the opponents' true cards."""
    told = _true_faces(seat)
    known = dict(view.public)
    known.update(told)
    # Dealt as if the told cards were public (so nothing else takes their
    # faces), then they are written into the world as the cards held.
    world = _real_determinize(view.evolve(public=known), seat, rng, *args, **kwargs)
    return world.evolve(public=view.public, private={**world.private, **told})


class _RememberedDealer(local_dealer.LocalDealer):
    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        _DEALER[:] = [self]


def _determinize_whole(view: GameState, seat: int, rng: random.Random, *args: Any, **kwargs: Any) -> GameState:
    """The true game, every face the dealer has shuffled known (``rng`` unused: every world is the truth)."""
    state = _TRUE_STATE[0]
    faces = getattr(_DEALER[0], "_faces")
    return state.evolve(private={**state.private, **faces})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, choices=range(2, 6))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--bots", default="expert,hard", help="bot levels, comma-separated, the expert first")
    parser.add_argument("--whole", action="store_true",
                        help="tell the search the whole game (the pile's order too), not only the opponents' cards")
    parser.add_argument("--workers", type=int, default=1, help="games played at once, one process each (default 1)")
    args = parser.parse_args()
    if args.workers > 1 and multiprocessing.get_start_method() != "fork":
        parser.error("--workers above 1 needs the fork start method (the workers must inherit the oracle)")
    setattr(local_game, "view_for", _view_for_remembering)
    setattr(expert, "determinize", _determinize_told)
    if args.whole:
        setattr(local_game, "LocalDealer", _RememberedDealer)
        setattr(expert, "determinize", _determinize_whole)
        setattr(expert, "Streams", lambda rng, n_players: None)  # blind draws take the true pile's top
    levels = [level.strip() for level in args.bots.split(",") if level.strip()]
    if not levels or levels[0] != "expert":
        parser.error("--bots must name the expert first: it is the seat told the others' cards")
    start = time.perf_counter()
    result = play_tournament(args.players, args.games, levels, args.seed, workers=args.workers)
    seconds = time.perf_counter() - start
    studied = result.levels[0]
    lo, hi = studied.win_interval()
    told = "the whole game" if args.whole else "its opponents' cards"
    print(f"the expert told {told}: {studied.level} wins {studied.win_rate:.2%} of {args.games} games "
          f"(95% {lo:.1%}-{hi:.1%}); average scores "
          + ", ".join(f"{s.level} {s.average(s.score):.1f}" for s in result.levels) + f"  [{seconds:.0f} s]")
    out: dict[str, Any] = {"bench": "oracle", "whole": args.whole, **result.to_json(), "seconds": round(seconds, 1)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
