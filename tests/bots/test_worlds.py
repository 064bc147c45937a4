"""Possible worlds and rollouts: a world agrees with the seat's view, knows
every card, reads nothing the seat cannot see, and plays on to a legal end."""

from __future__ import annotations

import random
from collections import Counter

from positions import decision_points
from p2p_ttr.bots.rollout import RolloutPolicy, play_out
from p2p_ttr.bots.worlds import determinize, settle, train_refs
from p2p_ttr.engine.board import europe
from p2p_ttr.engine.cards import Deck
from p2p_ttr.engine.outcome import final_score
from p2p_ttr.engine.rules import actors
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.view import view_for

BOARD = europe()


def _positions(n_players: int, seed: int, every: int) -> list[GameState]:
    """Omniscient positions of a seeded medium game where someone must decide."""
    return [state for state, _ in decision_points(n_players, seed, every)]


def _ticket_refs(state: GameState) -> list:  # type: ignore[type-arg]
    refs = list(state.ticket_pile + state.long_pile)
    for ps in state.players:
        refs += ps.tickets + ps.offered
    return refs


def test_a_world_agrees_with_the_view_and_knows_every_card() -> None:
    for state in _positions(3, seed=2, every=20):
        seat = actors(state)[0]
        view = view_for(state, seat)
        world = determinize(view, seat, random.Random(1))
        # Everything public is the same, and so is everything the seat knows.
        assert world.evolve(private={}) == view.evolve(private={})
        for ref, card in view.private.items():
            assert world.face(ref) == card
        # Every train card is somewhere, exactly once.
        faces = [world.face(r) for r in train_refs(world)]
        assert None not in faces
        assert sorted(faces) == list(range(BOARD.n_cards))  # type: ignore[type-var]
        # Every ticket in play has a face of its own deck, none twice.
        tickets = {r: world.face(r) for r in _ticket_refs(world)}
        assert None not in tickets.values()
        assert len(set(tickets.values())) == len(tickets)
        for ref, ticket in tickets.items():
            assert ticket is not None and BOARD.tickets[ticket].long == (ref.deck is Deck.LONG)


def test_a_world_reads_only_what_the_seat_sees() -> None:
    """Dealt from the omniscient state or from the seat's view, with the same
    generator, the world is the same: nothing hidden from the seat is used."""
    for state in _positions(2, seed=5, every=25):
        seat = actors(state)[0]
        from_state = determinize(state, seat, random.Random(9))
        from_view = determinize(view_for(state, seat), seat, random.Random(9))
        assert from_state == from_view


def test_worlds_differ_in_what_the_seat_cannot_know() -> None:
    state = _positions(2, seed=7, every=30)[2]
    seat = actors(state)[0]
    other = 1 - seat
    view = view_for(state, seat)
    hands = {tuple(sorted(Counter(BOARD.card_kind(determinize(view, seat, random.Random(k)).face(r) or 0)
                                  for r in state.players[other].hand).items())) for k in range(10)}
    assert len(hands) > 1


def test_a_world_plays_on_to_a_legal_end() -> None:
    for state in _positions(2, seed=3, every=40) + _positions(4, seed=3, every=90):
        seat = actors(state)[0]
        rng = random.Random(4)
        world = settle(determinize(view_for(state, seat), seat, rng), rng)
        end = play_out(world, RolloutPolicy(state.n_players, rng), rng)
        assert end.phase is Phase.OVER and not end.stalled
        score = final_score(end)  # scoring re-checks every claim
        assert len(score.players) == state.n_players


def test_a_rollout_can_stop_after_some_turns() -> None:
    state = _positions(2, seed=3, every=40)[1]
    seat = actors(state)[0]
    rng = random.Random(4)
    world = determinize(view_for(state, seat), seat, rng)
    policy = RolloutPolicy(2, rng)
    end = play_out(world, policy, rng, turns=3)
    assert end.turn == world.turn + 3 and not end.over
    assert policy.decisions >= 3


def test_a_world_in_a_set_up_whose_returns_are_mixed_deals_them_and_plays_the_mix() -> None:
    """France: a rival's returns wait, unseen, for the others' choices; a world
    gives them faces, and once the seat's own choice is the last one the mix is
    played in the world, leaving every ticket once, under the undealt ones."""
    from p2p_ttr.bots.worlds import act
    from p2p_ttr.engine.boards import load_game
    from p2p_ttr.engine.events import KeepTickets
    from p2p_ttr.engine.rules import apply, new_game
    from p2p_ttr.local.dealer import LocalDealer

    game = load_game("france")
    dealer, state = LocalDealer(5), new_game(game, 2)
    while (chance := dealer.answer(state)) is not None or state.phase is Phase.SETUP:
        state = apply(state, chance) if chance is not None else apply(state, dealer.peeks(state)[0])
    for peek in dealer.peeks(state):
        state = apply(state, peek)
    offered = state.players[0].offered
    state = apply(state, KeepTickets(0, offered[:3], offered[3:]))
    assert state.returned == offered[3:]
    view = view_for(state, 1)
    world = determinize(view, 1, random.Random(3))
    assert all(world.face(r) is not None for r in view.returned)
    mine = world.players[1].offered
    after = act(world, KeepTickets(1, mine[:3], mine[3:]), random.Random(4))
    assert after.returned == () and after.ticket_epoch == 1
    faces = [after.face(r) for ps in after.players for r in ps.tickets] + [after.face(r) for r in after.ticket_pile]
    assert Counter(faces) == Counter(game.card_ids(Deck.TICKETS))
    assert [r.epoch for r in after.ticket_pile][-4:] == [1] * 4
