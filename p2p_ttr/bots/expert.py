"""The expert bot: the hard bot's judgement, checked by search over possible worlds.

The hard bot (the *prior*) proposes a move. Where a move weighs most and a
search can tell moves apart -- which tickets to keep (at the start and
later), and the last turns of the game, where every claim counts -- the
prior also proposes the alternatives worth a look (the other ticket choices
it rates best; every route the hand can claim, drawing, a station). The
expert then deals possible worlds consistent with what its seat has seen
(``worlds.determinize``: the other hands, their tickets and the piles guessed
from the cards it has not seen, opponents' tickets weighed by the routes
they built), plays each candidate in each world with the rules engine, and
plays the world on to the end with quick plan-following play for every seat
(``rollout``). Every candidate meets the same worlds and the same luck (the
same cards for the same seat, ``worlds.Streams``), so their final margins
(the seat's score less the best other score) compare world by world. The
prior's move stays unless another gains clearly: by more than PRIOR_MARGIN
points after a standard error is taken off.

Its randomness comes from its seed and the view (a hash of both), so the same
position with the same seed gives the same move, whatever the hidden cards are
and however often it is asked. The budget is counted in decisions played in
rollouts, so results reproduce; a wall-clock cap only guards against a
machine far slower than planned.
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from p2p_ttr.engine.errors import EngineError
from p2p_ttr.engine.events import Action, ClaimRoute, DrawBlind, DrawFaceUp, KeepTickets
from p2p_ttr.engine.moves import claim_actions
from p2p_ttr.engine.outcome import score_as_it_stands
from p2p_ttr.engine.rules import offer_rule
from p2p_ttr.engine.state import GameState, Phase, public_digest
from p2p_ttr.engine.view import own_cards

from .hard import HardBot
from .medium import legal_or_fallback
from .opponents import read_opponents
from .planning import points_for, ticket_ids, turns_left
from .rollout import RolloutPolicy, play_out
from .worlds import TICKET_EVIDENCE, Streams, act, determinize

# The budget of a search, in decisions played in rollouts (every seat's, summed
# over every candidate and world): BUDGET for the last turns, TICKET_BUDGET for
# a choice of tickets (rarer, and weightier); at least MIN_WORLDS worlds.
BUDGET = 3_000
TICKET_BUDGET = 5_000
MIN_WORLDS = 4
MAX_WORLDS = 400
# Turns a rollout plays before it is scored as it stands; None: to the end.
HORIZON: int | None = None
# The last turns: searched once the prior reckons this many turns are left.
ENDGAME_TURNS = 3.0
# At most this many ticket choices, and this many moves of a last turn, are searched.
TICKET_CANDIDATES = 4
ENDGAME_CANDIDATES = 10
# An alternative is played only if its mean gain over the prior's move, less
# CONFIDENCE standard errors, beats PRIOR_MARGIN points; after PRUNE_AFTER
# worlds, one whose gain plus PRUNE_CONFIDENCE standard errors is below zero
# gets no more worlds.
PRIOR_MARGIN = 1.0
CONFIDENCE = 1.0
PRUNE_CONFIDENCE = 2.0
PRUNE_AFTER = 4
# The safety net: no new world after this long. The budget is counted in
# decisions, not seconds, so that a seed replays the same game: the budgets
# above take about 1.5 s at most on the 2-core machine even when it is
# loaded, far under this.
WALL_CAP_S = 5.0


@dataclass
class Searched:
    """What the last search found: the candidates, their mean margins, the worlds dealt and the move chosen."""

    candidates: tuple[Action, ...]
    means: tuple[float, ...]
    worlds: int
    chosen: Action


class ExpertBot:
    """The hard bot's moves, checked by determinized rollouts where it matters (see the module docstring)."""

    level = "expert"
    SEARCH_TICKETS = True
    ENDGAME_TURNS = ENDGAME_TURNS
    PRIOR_MARGIN = PRIOR_MARGIN

    def __init__(
        self, seed: int, name: str | None = None, budget: int | None = None, min_worlds: int | None = None,
        horizon: int | None = None,
    ) -> None:
        """``budget``: decisions played in rollouts per search (default BUDGET,
        TICKET_BUDGET for tickets); ``min_worlds``: worlds dealt whatever the
        budget (default MIN_WORLDS); ``horizon``: turns a rollout plays before
        it is scored as it stands (default HORIZON; None: to the end)."""
        self.name = name or self.level
        self.seed = seed
        self.budget = budget
        self.min_worlds = MIN_WORLDS if min_worlds is None else min_worlds
        self.horizon = HORIZON if horizon is None else horizon
        self.prior = HardBot(seed, self.name)
        self.last: Searched | None = None

    def choose(self, view: GameState, player: int) -> Action:
        proposal = self.prior.choose(view, player)
        candidates = self.candidates(view, player, proposal)
        self.last = None
        if len(candidates) <= 1:
            return proposal
        return legal_or_fallback(view, player, self.search(view, player, candidates))

    # --- candidates ------------------------------------------------------------

    def candidates(self, view: GameState, player: int, proposal: Action) -> list[Action]:
        """The prior's move first, then the alternatives worth a search (none: no search)."""
        if view.phase in (Phase.SETUP_TICKETS, Phase.TICKETS):
            if not self.SEARCH_TICKETS:
                return [proposal]
            return _first(proposal, self.ticket_candidates(view, player), TICKET_CANDIDATES)
        if view.phase is not Phase.TURN or view.cards_drawn:
            return [proposal]
        if view.final_turns_left is None and turns_left(view, player) > self.ENDGAME_TURNS:
            return [proposal]
        s = self.prior.situation(view, player)
        by_route: dict[int, list[ClaimRoute]] = {}
        for a in claim_actions(view, player):
            if isinstance(a, ClaimRoute):
                by_route.setdefault(a.route, []).append(a)
        others: list[Action | None] = [
            self.prior.cheapest_payment(s, by_route[r], s.targets)
            for r in sorted(by_route, key=lambda r: (-points_for(view.game, r), r))
        ]
        if not isinstance(proposal, (DrawBlind, DrawFaceUp)):
            others.append(self.prior.draw_card(s, second=False))
        others.append(self.prior.best_now(s, stations=True))
        return _first(proposal, [a for a in others if a is not None], ENDGAME_CANDIDATES)

    def ticket_candidates(self, view: GameState, player: int) -> list[Action]:
        """Every choice of the tickets offered, the prior's favourites first."""
        me = view.players[player]
        costs = self.prior.route_costs(view, player)
        held = tuple(ticket_ids(view, me.tickets))
        rated: list[tuple[tuple[float, ...], KeepTickets]] = []
        for keep in offer_rule(view).keeps(me.offered):
            value = self.prior.ticket_choice_value(view, player, costs, held, tuple(ticket_ids(view, keep)))
            rated.append((value, KeepTickets(player, keep, tuple(r for r in me.offered if r not in keep))))
        rated.sort(key=lambda x: x[0], reverse=True)
        return [a for _, a in rated]

    # --- search ----------------------------------------------------------------

    def search(self, view: GameState, player: int, candidates: Sequence[Action]) -> Action:
        """Play every candidate in the same worlds with the same luck; keep the
        prior's move (the first) unless another beats it clearly (``pick``)."""
        rng = random.Random(self.view_seed(view, player))
        budget = self.budget
        if budget is None:
            budget = TICKET_BUDGET if view.phase in (Phase.SETUP_TICKETS, Phase.TICKETS) else BUDGET
        started = time.perf_counter()
        values: list[list[float]] = [[] for _ in candidates]
        alive = [True] * len(candidates)
        done = spent = 0
        weights = ticket_weights(view, player)
        while done < MAX_WORLDS and (done < self.min_worlds or spent < budget):
            if done and time.perf_counter() - started > WALL_CAP_S:
                break
            world_seed = rng.randrange(2**62)
            world = determinize(view, player, random.Random(world_seed), weights)
            for i, c in enumerate(candidates):
                if not alive[i]:
                    continue
                luck = random.Random(world_seed + 1)
                streams = Streams(random.Random(world_seed + 2), view.game, view.n_players)
                try:
                    after = act(world, c, luck, streams)
                except EngineError:
                    alive[i] = False
                    continue
                policy = RolloutPolicy(view.n_players, luck)
                end = play_out(after, policy, luck, self.horizon, streams)
                spent += policy.decisions + 1
                values[i].append(margin(end, player))
            done += 1
            if done >= PRUNE_AFTER:
                for i in range(1, len(candidates)):
                    if alive[i] and upper_gain(values[i], values[0]) < 0.0:
                        alive[i] = False  # clearly worse than the prior's move: no more worlds for it
            if not alive[0] or not any(alive[1:]):
                break
        chosen = candidates[self.pick(values, alive)]
        means = tuple(sum(v) / len(v) if v else -math.inf for v in values)
        self.last = Searched(tuple(candidates), means, done, chosen)
        return chosen

    def pick(self, values: Sequence[Sequence[float]], alive: Sequence[bool]) -> int:
        """The candidate whose gain over the prior's move (index 0), world by
        world, is largest at its lower bound (mean less CONFIDENCE standard
        errors), if that bound beats PRIOR_MARGIN; else the prior's move."""
        best, best_bound = 0, self.PRIOR_MARGIN
        if not alive[0]:
            best_bound = -math.inf  # the prior's move was refused in a world: any other will do
        for i in range(1, len(values)):
            if not alive[i] or not values[i] or len(values[i]) < len(values[0]):
                continue
            gains = [a - b for a, b in zip(values[i], values[0])]
            bound = sum(gains) / len(gains) - CONFIDENCE * spread(gains)
            if bound > best_bound:
                best, best_bound = i, bound
        return best

    def view_seed(self, view: GameState, player: int) -> int:
        """A seed from the bot's seed and everything the seat sees: the same view, the same search."""
        own = own_cards(view, player)
        mine = sorted((tuple(r), c) for r, c in view.private.items() if r in own)
        text = f"{self.seed}|{player}|{public_digest(view)}|{mine}"
        return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _first(proposal: Action, others: Sequence[Action], most: int) -> list[Action]:
    out = [proposal]
    for a in others:
        if len(out) >= most:
            break
        if a not in out:
            out.append(a)
    return out


def ticket_weights(view: GameState, player: int) -> dict[int, dict[int, float]]:
    """Per opponent, how much likelier than another each unseen ticket is,
    from the share of its path the opponent has built (``read_opponents``)."""
    out: dict[int, dict[int, float]] = {}
    for guess in read_opponents(view, player).guesses:
        out.setdefault(guess.opponent, {})[guess.ticket] = 1.0 + TICKET_EVIDENCE * guess.chance
    return out


def spread(gains: Sequence[float]) -> float:
    """The standard error of the mean of ``gains``."""
    n = len(gains)
    if n < 2:
        return math.inf
    mean = sum(gains) / n
    return math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1) / n)


def upper_gain(values: Sequence[float], prior: Sequence[float]) -> float:
    """An optimistic bound on a candidate's gain over the prior's move, from the worlds both were played in."""
    gains = [a - b for a, b in zip(values, prior)]
    if len(gains) < 2:
        return math.inf
    return sum(gains) / len(gains) + PRUNE_CONFIDENCE * spread(gains)


def margin(world: GameState, player: int) -> float:
    """``player``'s score less the best other score, as the world stands (its end, or where a rollout stopped)."""
    score = score_as_it_stands(world, public_only=False)
    mine = score.players[player].total
    return float(mine - max(p.total for q, p in enumerate(score.players) if q != player))
