"""The easy bot: a beginner with a rough plan and a beginner's habits.

It knows which routes its tickets need (the shared plan) but often ignores it:
it grabs face-up cards because it likes them, claims whatever it can afford
off its plan, pays every tunnel, keeps every ticket it is offered at times, and
draws more tickets late in the game, moves a monster at random now and then
(Alvin & Dexter). Each habit fires by chance (from the bot's
own seeded generator), so its games vary.
"""

from __future__ import annotations

from p2p_ttr.engine.board import LOCOMOTIVE
from p2p_ttr.engine.events import Action, ClaimRoute, DrawFaceUp, KeepTickets, PayTunnel
from p2p_ttr.engine.moves import claim_actions, draw_actions, tunnel_actions
from p2p_ttr.engine.rules import offer_rule
from p2p_ttr.engine.state import GameState, Phase

from .medium import PlanningBot, Situation, face_up_kind
from .monsterplay import random_monster_move

# How often each beginner habit wins over the plan.
KEEP_ALL_TICKETS = 0.25
OFF_PLAN_CLAIM = 0.2
GRAB_FACE_UP = 0.4
GRAB_LOCOMOTIVE = 0.5


class EasyBot(PlanningBot):
    """The shared plan, often ignored for a beginner's habits (see the module docstring)."""

    level = "easy"
    TICKET_MARGIN_SETUP = 0
    TICKET_MARGIN = 0
    TICKETS_WHEN_TRAINS = 8

    def keep_tickets(self, view: GameState, player: int) -> Action:
        offered = view.players[player].offered
        if self._rng.random() < KEEP_ALL_TICKETS:  # as many as the rules let keep (Mega Europe: one long)
            keep = next(offer_rule(view).keeps(offered))
            return KeepTickets(player, keep, tuple(r for r in offered if r not in keep))
        return super().keep_tickets(view, player)

    def turn(self, s: Situation) -> Action:
        if self._rng.random() < OFF_PLAN_CLAIM:
            claims = [a for a in claim_actions(s.view, s.player) if isinstance(a, ClaimRoute)]
            off_plan = [a for a in claims if a.route not in s.plan.routes]
            if off_plan:
                return self._rng.choice(off_plan)
        return super().turn(s)

    def monster_move(self, s: Situation) -> Action | None:
        # A beginner moves a monster now and then, anywhere a locomotive reaches.
        return random_monster_move(s.view, s.player, self._rng)

    def draw_card(self, s: Situation, second: bool) -> Action:
        face_up = [a for a in draw_actions(s.view, s.player) if isinstance(a, DrawFaceUp)]
        locos = [a for a in face_up if face_up_kind(s.view, a.slot) == LOCOMOTIVE]
        colours = [a for a in face_up if a not in locos]
        if locos and not second and self._rng.random() < GRAB_LOCOMOTIVE:
            return locos[0]
        if colours and self._rng.random() < GRAB_FACE_UP:
            # It likes the colours it already holds most of.
            return max(colours, key=lambda a: (s.hand[face_up_kind(s.view, a.slot)], self._rng.random()))
        return super().draw_card(s, second)

    def tunnel(self, s: Situation) -> Action:
        pays = tunnel_actions(s.view, s.player)
        if pays and isinstance(pays[0], PayTunnel):
            return pays[0]
        return super().tunnel(s)

    def wants_tickets(self, s: Situation) -> bool:
        # A beginner keeps drawing tickets even in the last round.
        return bool(s.view.ticket_pile) and s.me.trains >= self.TICKETS_WHEN_TRAINS and s.view.phase is Phase.TURN
