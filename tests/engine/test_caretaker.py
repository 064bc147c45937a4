"""The caretaker (how a forfeited seat plays on) as a player of whole games."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import pytest
from engine_scenario import kind, play, position, route
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_ttr.bots.base import Bot
from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.engine.board import LOCOMOTIVE, europe
from p2p_ttr.engine.boards import europe_game, load_game
from p2p_ttr.engine.caretaker import caretaker_move
from p2p_ttr.engine.events import (
    AbandonTunnel,
    Action,
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
)
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.local.game import play_local_game

EUROPE = europe_game()

CITIES = europe().cities


class CheckedCaretaker:
    """Plays the caretaker's move and checks the policy's promises on the way."""

    def __init__(self) -> None:
        self.claims = 0

    def choose(self, view: GameState, player: int) -> Action:
        move = caretaker_move(view, player)
        assert move is not None
        assert move == caretaker_move(view, player)  # no hidden state, no randomness
        legal = legal_actions(view, player)
        assert move in legal
        if isinstance(move, BuildStation):  # only when nothing else is left to do
            assert not any(isinstance(a, (ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets)) for a in legal)
        assert not isinstance(move, AbandonTunnel)  # it only goes for a tunnel whose worst case it pays
        sure = [a for a in legal if isinstance(a, ClaimRoute) and pays_worst_case(view, player, a)]
        if sure:
            routes = europe().routes
            assert isinstance(move, ClaimRoute) and pays_worst_case(view, player, move)
            assert routes[move.route].length == max(routes[a.route].length for a in sure)
        elif isinstance(move, ClaimRoute):  # a tunnel it might not pay: only when no card can be drawn or turned
            assert not view.draw_pile and not view.discard
        self.claims += isinstance(move, ClaimRoute)
        if isinstance(move, KeepTickets):
            assert len(move.keep) == min(len(a.keep) for a in legal if isinstance(a, KeepTickets))
        return move


def pays_worst_case(view: GameState, player: int, claim: ClaimRoute) -> bool:
    """Whether what stays in hand after ``claim`` pays the most its tunnel can ask (3 more of the colour
    played, or locomotives; locomotives alone after locomotives alone). Any route that is not a tunnel does."""
    board = view.game.board
    if not board.routes[claim.route].tunnel:
        return True
    left = Counter(kind(view, r) for r in view.players[player].hand) - Counter(kind(view, r) for r in claim.cards)
    played = {kind(view, r) for r in claim.cards} - {LOCOMOTIVE}
    return left[LOCOMOTIVE] + sum(left[k] for k in played) >= view.game.rules.tunnel_cards


@pytest.mark.parametrize("n", [2, 3, 5])
def test_caretakers_play_whole_games_by_the_policy(n: int) -> None:
    bots = [CheckedCaretaker() for _ in range(n)]
    game = play_local_game(EUROPE, n, seed=n, bots=bots)
    assert game.final.over
    assert all(b.claims > 0 for b in bots)


def test_with_nothing_to_draw_or_claim_the_caretaker_builds_a_station_rather_than_pass() -> None:
    """Passing is for a player who can do nothing else (rules version 3): the
    caretaker builds in the first free city in board order, paid like a route."""
    state, _ = position(hands={0: ["red", "blue", "locomotive"]}, trains={0: 0}, stations={1: [CITIES[0]]},
                        face_up=[None] * 5, draw_pile=[], discard=[], ticket_pile=[])
    move = caretaker_move(state, 0)
    assert isinstance(move, BuildStation) and move.city == CITIES[1]
    assert [kind(state, r) for r in move.cards] in (["red"], ["blue"])  # no locomotive when a colour pays
    state, _ = position(hands={0: []}, trains={0: 0}, face_up=[None] * 5, draw_pile=[], discard=[], ticket_pile=[])
    assert caretaker_move(state, 0) == Pass(0)


ANGORA_CONSTANTINOPLE = route("Angora", "Constantinople")  # gray, 2, tunnel: the route of issue 43


def stuck_on_a_tunnel() -> GameState:
    """Issue 43's carried-on seat: its hand pays Angora-Constantinople's length (2 red) and nothing more,
    every other route is taken, and the deck turns a red for each tunnel."""
    owned = {r.id: 1 for r in europe().routes if r.id != ANGORA_CONSTANTINOPLE}
    state, _ = position(3, hands={0: ["red", "red"]}, trains={0: 40, 1: 40, 2: 40}, owners=owned,
                        face_up=["blue", "green", "yellow", "black", "white"],
                        draw_pile=["red", "purple", "orange"] * 4)
    return state


def test_the_caretaker_of_ttr_6_gives_the_same_tunnel_up_turn_after_turn_and_now_draws_instead() -> None:
    """The loop of issue 43, in process: under the old policy (``safe_tunnels=False``, still played for a
    game seated under ttr/6) the seat goes for the tunnel, the turned red asks one more red it lacks, it
    gives it up; the others play, and its next turn starts from the same hand: the same tunnel again."""
    state = stuck_on_a_tunnel()
    for _ in range(2):
        move = caretaker_move(state, 0, safe_tunnels=False)
        assert move is not None and isinstance(move, ClaimRoute) and move.route == ANGORA_CONSTANTINOPLE
        state = play(state, move)
        assert state.phase is Phase.TUNNEL and state.tunnel is not None and state.tunnel.extra == 1
        hand = state.players[0].hand
        state = play(state, caretaker_move(state, 0, safe_tunnels=False), DrawBlind(1), DrawBlind(1),
                     DrawBlind(2), DrawBlind(2))
        assert state.current == 0 and state.players[0].hand == hand and state.route_owner[ANGORA_CONSTANTINOPLE] is None
    # Now: 2 red would leave nothing for the tunnel's worst case (3 more red or locomotives), so it draws.
    state = stuck_on_a_tunnel()
    assert caretaker_move(state, 0) == DrawBlind(0)
    state, _ = position(3, hands={0: ["red"] * 4 + [LOCOMOTIVE]}, trains={0: 40, 1: 40, 2: 40},
                        owners={r.id: 1 for r in europe().routes if r.id != ANGORA_CONSTANTINOPLE})
    move = caretaker_move(state, 0)  # 3 left after paying 2: it goes for it, and pays whatever is turned
    assert isinstance(move, ClaimRoute) and move.route == ANGORA_CONSTANTINOPLE
    assert [kind(state, r) for r in move.cards] == ["red", "red"]


@dataclass
class CarriedOn:
    """A seat played by ``player`` until its ``at``-th decision, then by the caretaker (the table carried it
    on, maybe in the middle of its turn or of a tunnel); keeps what the seat held as each of its turns
    began (trains, stations left, tickets, cards in hand) and whether it passed."""

    player: Bot
    at: int
    decisions: int = 0
    turns: list[tuple[tuple[int, int, int, int], bool]] = field(default_factory=list)
    moves: list[Action] = field(default_factory=list)
    name: str = "carried on"

    def choose(self, view: GameState, seat: int) -> Action:
        self.decisions += 1
        if self.decisions <= self.at:
            return self.player.choose(view, seat)
        move = caretaker_move(view, seat)
        assert move is not None
        ps = view.players[seat]
        if view.phase is Phase.TURN and not view.cards_drawn:
            self.turns.append(((ps.trains, ps.stations_left, len(ps.tickets), len(ps.hand)), isinstance(move, Pass)))
        self.moves.append(move)
        return move


def moved_toward_the_end(before: tuple[int, int, int, int], after: tuple[int, int, int, int]) -> bool:
    """Trains or a station spent, a ticket kept, or the hand grown (it shrinks only by spending)."""
    (trains, stations, tickets, hand), (trains2, stations2, tickets2, hand2) = before, after
    return trains2 < trains or stations2 < stations or tickets2 > tickets or hand2 > hand


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=st.sampled_from(("europe", "switzerland", "nordic")), data=st.data())  # the boards with tunnels
def test_every_turn_the_caretaker_plays_moves_its_seat_toward_the_end(board: str, data: st.DataObject) -> None:
    """However a seat was played before the table carried it on, each of the caretaker's turns spends
    trains or a station, keeps a ticket or grows the hand, or is a pass (nothing else legal): a measure
    that cannot go on for ever, so the seat cannot loop. It never gives up a tunnel it went for (only
    one the player left undecided, as its first move)."""
    game = load_game(board)
    n = data.draw(st.integers(game.rules.min_players, game.rules.max_players), label="players")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    seat = data.draw(st.integers(0, n - 1), label="carried-on seat")
    carried = CarriedOn(RandomBot(seed), at=data.draw(st.integers(0, 40), label="carried on at"))
    bots: list[Bot] = [RandomBot(seed + p) for p in range(n)]
    bots[seat] = carried
    assert play_local_game(game, n, seed, bots, record=False).final.over
    assert carried.moves and not any(isinstance(m, AbandonTunnel) for m in carried.moves[1:])
    for (held, passed), (next_held, _) in zip(carried.turns, carried.turns[1:]):
        assert passed or moved_toward_the_end(held, next_held), carried.turns
