"""The set-up's returned tickets shuffled together (``Unkept.BOTTOM_SHUFFLED``,
France) or into the whole remaining deck (``Unkept.SHUFFLED_IN``, Old West):
every player's returns are gathered, and once the last player has chosen one
``NeedMix`` asks for them (Old West: with the deck's never-dealt tickets) to
be permuted and re-encrypted as the ticket deck's next epoch, which goes
under the deck (France) or is the whole deck (Old West). Rules summary:
"Shuffle all discards together and put on bottom of the deck" (France),
"Shuffle ALL discards into the deck before the game starts" (Old West)."""

from __future__ import annotations

from collections import Counter

from engine_scenario import ScenarioDealer, play
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.events import KeepTickets, Mixed
from p2p_ttr.engine.errors import BadChance
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.rules import actors, apply, new_game
from p2p_ttr.engine.state import GameState, NeedMix, Phase
from p2p_ttr.local.dealer import LocalDealer

import pytest

FRANCE = load_game("france")
OLD_WEST = load_game("oldwest")


def _keep_three_each(game: Game, n: int, dealer: ScenarioDealer) -> tuple[GameState, GameState, list[CardRef]]:
    """Every player keeps their first three tickets: the state before the last
    choice, the state after it (the mix asked for, not answered), and every
    return in seat order."""
    state = play(new_game(game, n), dealer=dealer)
    returned: list[CardRef] = []
    for p in range(n - 1):
        offered = state.players[p].offered
        state = play(state, KeepTickets(p, offered[:3], offered[3:]), dealer=dealer)
        returned += offered[3:]
    offered = state.players[n - 1].offered
    returned += offered[3:]
    return state, apply(state, KeepTickets(n - 1, offered[:3], offered[3:])), returned


def test_france_a_return_waits_for_the_others_and_nobody_waits_for_it() -> None:
    state = play(new_game(FRANCE, 3), dealer=ScenarioDealer())
    offered = state.players[0].offered
    after = apply(state, KeepTickets(0, offered[:4], offered[4:]))
    assert after.awaiting is None and after.steps == ()
    assert after.returned == offered[4:]
    assert actors(after) == (1, 2)  # the others choose on: no re-masking to wait for


def test_france_the_returns_of_every_player_go_under_the_deck_shuffled_together() -> None:
    dealer = ScenarioDealer()
    before, asked, returned = _keep_three_each(FRANCE, 3, dealer)
    pile = before.ticket_pile
    assert len(pile) == FRANCE.deck_size(Deck.TICKETS) - 15
    need = asked.awaiting
    assert need == NeedMix(Deck.TICKETS, 1, tuple(returned))  # seat 0's two, seat 1's, seat 2's
    assert asked.returned == ()
    done = play(asked, dealer=dealer)
    # The never-dealt tickets keep their order on top; the six returned, a new epoch, lie under them.
    assert done.ticket_pile == pile + tuple(CardRef(Deck.TICKETS, 1, i) for i in range(6))
    assert done.ticket_epoch == 1
    # In the order the mix made (the scenario dealer reverses), never the one they were returned in.
    bottom = [dealer.face(done, r) for r in done.ticket_pile[-6:]]
    assert bottom == [FRANCE.card_ids(Deck.TICKETS).start + r.pos for r in reversed(returned)]
    # Nobody's replica still knows a returned ticket by its old reference.
    assert not set(returned) & (set(done.private) | set(done.public))
    assert done.phase is Phase.TURN and actors(done) == (0,)


def test_old_west_the_whole_deck_is_made_again_from_the_undealt_tickets_and_the_returns() -> None:
    dealer = ScenarioDealer()
    before, asked, returned = _keep_three_each(OLD_WEST, 3, dealer)
    pile = before.ticket_pile
    need = asked.awaiting
    assert need == NeedMix(Deck.TICKETS, 1, pile + tuple(returned))
    done = play(asked, dealer=dealer)
    size = OLD_WEST.deck_size(Deck.TICKETS) - 9  # 15 dealt, 9 kept
    assert done.ticket_pile == tuple(CardRef(Deck.TICKETS, 1, i) for i in range(size))
    faces = [dealer.face(done, r) for r in done.ticket_pile]
    assert faces == [r.pos for r in reversed(pile + tuple(returned))]
    # Then the starting cities, from the last seat down, as on a board with no mix.
    assert done.phase is Phase.START_CITY and actors(done) == (2,)


def test_a_game_waits_for_the_mix_and_only_its_own_answer_is_taken() -> None:
    _, asked, _ = _keep_three_each(OLD_WEST, 2, ScenarioDealer())
    assert actors(asked) == ()
    with pytest.raises(BadChance, match="no mix of tickets epoch 2"):
        apply(asked, Mixed(Deck.TICKETS, 2))


def test_no_returns_no_mix() -> None:
    state = play(new_game(FRANCE, 2), dealer=ScenarioDealer())
    for p in range(2):
        offered = state.players[p].offered
        state = apply(state, KeepTickets(p, offered, ()))
    assert state.awaiting is None and state.ticket_epoch == 0 and state.phase is Phase.TURN


@settings(max_examples=40, deadline=None)
@given(board=st.sampled_from(("france", "oldwest")), seed=st.integers(0, 2**16), data=st.data())
def test_tickets_are_conserved_through_the_set_up(board: str, seed: int, data: st.DataObject) -> None:
    game = load_game(board)
    n = data.draw(st.integers(game.rules.min_players, game.rules.max_players), label="players")
    dealer = LocalDealer(seed)
    state = new_game(game, n)
    while state.phase in (Phase.SETUP, Phase.SETUP_TICKETS) or state.awaiting is not None:
        chance = dealer.answer(state)
        if chance is not None:
            state = apply(state, chance)
            continue
        if state.phase is not Phase.SETUP_TICKETS:
            break
        p = data.draw(st.sampled_from(actors(state)), label="chooser")
        offered = state.players[p].offered
        keep = data.draw(st.sampled_from(list(game.rules.setup_tickets.keeps(offered))), label="keep")
        state = apply(state, KeepTickets(p, keep, tuple(r for r in offered if r not in keep)))
    held = [dealer.face(r) for ps in state.players for r in ps.tickets]
    pile = [dealer.face(r) for r in state.ticket_pile]
    assert Counter(held + pile) == Counter(game.card_ids(Deck.TICKETS))
    assert state.returned == () and state.ticket_epoch == (1 if len(held) < 5 * n else 0)
    if board == "oldwest" and state.ticket_epoch:
        assert {r.epoch for r in state.ticket_pile} == {1}  # the whole deck made again
    elif state.ticket_epoch:
        returned = 5 * n - len(held)
        assert [r.epoch for r in state.ticket_pile] == [0] * (len(pile) - returned) + [1] * returned
