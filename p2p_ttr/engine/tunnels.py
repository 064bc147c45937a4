"""Tunnels (``Route.tunnel``; the Europe rules, "Tunnels"): a claim of a tunnel
turns over ``Rules.tunnel_cards`` from the deck first (``StepTunnelReveal``,
then ``StepTunnelResolve``: rules.py's step queue runs them here); each that matches
the colour played, or is a locomotive, costs one more card of it
(``payments.tunnel_extra``). With none to pay the route is taken at once;
else the claimer pays the extra (``PayTunnel``) or gives the claim up
(``AbandonTunnel``), and the turned cards are discarded either way.
"""

from __future__ import annotations

from dataclasses import replace

from .cards import CardRef
from .drawpile import take_cards
from .errors import IllegalMove
from .events import AbandonTunnel, PayTunnel
from .mechanic import Handles, Mechanic, TurnFlow
from .payments import tunnel_extra, tunnel_payment_problem
from .state import GameState, NeedReveal, Phase, StepTunnelResolve, StepTunnelReveal, Tunnel
from .turnkit import expect, expect_in_hand, payment, publish, push, refuse


def claimed(state: GameState, route: int, cards: tuple[CardRef, ...], color: str | None) -> GameState:
    """A claim of the tunnel ``route`` paid with ``cards`` (as ``color``): the deck's cards are turned over first."""
    state = state.evolve(tunnel=Tunnel(route=route, cards=cards, color=color))
    return push(state, StepTunnelReveal(state.game.rules.tunnel_cards), StepTunnelResolve())


def turned_over(state: GameState, remaining: int) -> GameState:
    """The deck's top cards turned over for the tunnel being claimed."""
    tunnel = state.tunnel
    assert tunnel is not None
    state, turned, _ = take_cards(state, remaining, StepTunnelReveal)
    state = state.evolve(tunnel=replace(tunnel, revealed=tunnel.revealed + turned))
    if turned:
        state = state.evolve(awaiting=NeedReveal(turned))
    return state


def resolved(state: GameState, flow: TurnFlow) -> GameState:
    """The turned cards counted: the route taken at once, or the extra asked for."""
    board = state.game.board
    tunnel = state.tunnel
    assert tunnel is not None
    extra = tunnel_extra(tunnel.color, (board.card_kind(state.public[r]) for r in tunnel.revealed))
    if extra == 0:
        route = board.routes[tunnel.route]
        state = state.evolve(discard=state.discard + tunnel.revealed, tunnel=None)
        return flow.take_route(state, state.current, route, tunnel.cards)
    return state.evolve(tunnel=replace(tunnel, extra=extra), phase=Phase.TUNNEL)


def pay_tunnel(state: GameState, action: PayTunnel, flow: TurnFlow) -> GameState:
    """The tunnel's extra cards paid: the route is taken with everything played for it."""
    p, cards = action.player, action.cards
    expect(state, p, Phase.TUNNEL)
    tunnel = state.tunnel
    assert tunnel is not None
    expect_in_hand(state, p, cards)
    if set(cards) & set(tunnel.cards):
        raise IllegalMove("those cards are already paid for the tunnel")
    pay = payment(state, cards)
    refuse(tunnel_payment_problem(tunnel.color, tunnel.extra, pay))
    state = publish(state, cards)
    route = state.game.board.routes[tunnel.route]
    state = state.evolve(discard=state.discard + tunnel.revealed, tunnel=None, phase=Phase.TURN)
    return flow.take_route(state, p, route, tunnel.cards + cards)


def abandon_tunnel(state: GameState, action: AbandonTunnel, flow: TurnFlow) -> GameState:
    """The claim given up: the cards played stay in the hand, the turned ones are discarded, the turn ends."""
    expect(state, action.player, Phase.TUNNEL)
    assert state.tunnel is not None
    state = state.evolve(discard=state.discard + state.tunnel.revealed, tunnel=None, phase=Phase.TURN)
    return flow.end_turn(state)


MECHANIC = Mechanic(
    "tunnels",
    plays=lambda game: any(route.tunnel for route in game.board.routes),
    handlers=(Handles(PayTunnel, pay_tunnel), Handles(AbandonTunnel, abandon_tunnel)),
)
