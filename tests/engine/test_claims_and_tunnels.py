"""Claiming routes: colours, locomotives, ferries, tunnels and double routes."""

from __future__ import annotations

import pytest
from engine_scenario import BOARD, hand_kinds, play, position, route

from p2p_ttr.engine.board import LOCOMOTIVE
from p2p_ttr.engine.errors import IllegalMove, OutOfTurn, UnknownCard
from p2p_ttr.engine.events import AbandonTunnel, ClaimRoute, DrawBlind, PayTunnel
from p2p_ttr.engine.moves import legal_actions
from p2p_ttr.engine.payments import Payment
from p2p_ttr.engine.rules import apply
from p2p_ttr.engine.state import Phase
from p2p_ttr.engine.view import view_for

L = LOCOMOTIVE
AMSTERDAM_ESSEN = route("Amsterdam", "Essen")  # yellow 3
DANZIG_WARSZAWA = route("Danzig", "Warszawa")  # gray 2
SARAJEVO_SOFIA = route("Sarajevo", "Sofia")  # gray tunnel 2
VENEZIA_ZURICH = route("Venezia", "Zurich")  # green tunnel 2
AMSTERDAM_LONDON = route("Amsterdam", "London")  # ferry 2, two locomotives
DIEPPE_LONDON = route("Dieppe", "London")  # ferry 2, one locomotive (double)
PARIS_FRANKFURT_ORANGE = route("Paris", "Frankfurt", "orange")
PARIS_FRANKFURT_WHITE = route("Paris", "Frankfurt", "white")


def _claim_with(hand: list[str], route_id: int, n_players: int = 2, **kw: object) -> tuple[object, object]:
    state, _ = position(n_players=n_players, hands={0: hand}, **kw)  # type: ignore[arg-type]
    return state, ClaimRoute(0, route_id, state.players[0].hand)


@pytest.mark.parametrize(
    "hand", [["yellow"] * 3, ["yellow", "yellow", L], ["yellow", L, L], [L, L, L]], ids=str
)
def test_rulebook_yellow_three(hand: list[str]) -> None:
    state, claim = _claim_with(hand, AMSTERDAM_ESSEN)
    after = play(state, claim)  # type: ignore[arg-type]
    assert after.route_owner[AMSTERDAM_ESSEN] == 0
    assert after.players[0].trains == 42 and after.players[0].hand == ()
    assert len(after.discard) == 3 and after.current == 1


@pytest.mark.parametrize("hand", [["red", "red"], ["yellow", L], [L, L]], ids=str)
def test_rulebook_gray_two(hand: list[str]) -> None:
    state, claim = _claim_with(hand, DANZIG_WARSZAWA)
    assert play(state, claim).route_owner[DANZIG_WARSZAWA] == 0  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("hand", "words"),
    [
        (["red"] * 3, "must be paid in yellow"),
        (["yellow", "yellow"], "needs 3 cards"),
        (["yellow", "yellow", "red"], "two different colours"),
    ],
)
def test_wrong_payments_are_refused(hand: list[str], words: str) -> None:
    state, claim = _claim_with(hand, AMSTERDAM_ESSEN)
    with pytest.raises(IllegalMove, match=words):
        apply(state, claim)  # type: ignore[arg-type]


def test_every_payment_is_offered_and_each_is_accepted() -> None:
    state, _ = position(hands={0: ["yellow"] * 3 + [L] * 3 + ["red"]})
    claims = [a for a in legal_actions(state, 0) if isinstance(a, ClaimRoute) and a.route == AMSTERDAM_ESSEN]
    paid = sorted(tuple(hand_kinds_of(state, a.cards)) for a in claims)
    assert paid == sorted(
        [("yellow",) * 3, (L, "yellow", "yellow"), (L, L, "yellow"), (L, L, L)]
    )
    for claim in claims:
        assert play(state, claim).route_owner[AMSTERDAM_ESSEN] == 0


def hand_kinds_of(state: object, refs: object) -> list[str]:
    return sorted(BOARD.card_kind(state.face(r)) for r in refs)  # type: ignore[attr-defined]


def test_cards_must_be_in_the_hand_and_faces_known() -> None:
    state, _ = position(hands={0: ["yellow"] * 3, 1: ["yellow"] * 3})
    with pytest.raises(IllegalMove, match="not in player 0's hand"):
        apply(state, ClaimRoute(0, AMSTERDAM_ESSEN, state.players[1].hand))
    hidden = view_for(state, 1)  # player 1 cannot see player 0's cards
    with pytest.raises(UnknownCard):
        apply(hidden, ClaimRoute(0, AMSTERDAM_ESSEN, state.players[0].hand))


def test_not_enough_trains_and_taken_routes_are_refused() -> None:
    state, claim = _claim_with(["yellow"] * 3, AMSTERDAM_ESSEN, trains={0: 2})
    with pytest.raises(IllegalMove, match="needs 3 trains"):
        apply(state, claim)  # type: ignore[arg-type]
    state, claim = _claim_with(["yellow"] * 3, AMSTERDAM_ESSEN, owners={AMSTERDAM_ESSEN: 1})
    with pytest.raises(IllegalMove, match="already belongs to player 1"):
        apply(state, claim)  # type: ignore[arg-type]


def test_one_route_per_turn_and_no_claim_after_drawing() -> None:
    state, _ = position(hands={0: ["yellow"] * 6})
    after = play(state, ClaimRoute(0, AMSTERDAM_ESSEN, state.players[0].hand[:3]))
    with pytest.raises(OutOfTurn):
        apply(after, ClaimRoute(0, DANZIG_WARSZAWA, after.players[0].hand[:2]))
    drew = play(state, DrawBlind(0))
    with pytest.raises(IllegalMove, match="after drawing"):
        apply(drew, ClaimRoute(0, AMSTERDAM_ESSEN, state.players[0].hand[:3]))


def test_ferries_need_their_locomotives() -> None:
    state, claim = _claim_with(["red", "red"], AMSTERDAM_LONDON)
    with pytest.raises(IllegalMove, match="needs 2 locomotives"):
        apply(state, claim)  # type: ignore[arg-type]
    state, claim = _claim_with(["red", L], AMSTERDAM_LONDON)
    with pytest.raises(IllegalMove, match="needs 2 locomotives"):
        apply(state, claim)  # type: ignore[arg-type]
    state, claim = _claim_with([L, L], AMSTERDAM_LONDON)
    assert play(state, claim).route_owner[AMSTERDAM_LONDON] == 0  # type: ignore[arg-type]
    state, claim = _claim_with(["red", L], DIEPPE_LONDON)
    assert play(state, claim).route_owner[DIEPPE_LONDON] == 0  # type: ignore[arg-type]


@pytest.mark.parametrize("n_players", [4, 5])
def test_double_routes_with_four_or_more(n_players: int) -> None:
    state, _ = position(
        n_players=n_players,
        hands={0: ["white"] * 3, 1: ["white"] * 3},
        owners={PARIS_FRANKFURT_ORANGE: 0},
    )
    with pytest.raises(IllegalMove, match="already holds the other side"):
        apply(state, ClaimRoute(0, PARIS_FRANKFURT_WHITE, state.players[0].hand))
    other, _ = position(
        n_players=n_players, hands={1: ["white"] * 3}, owners={PARIS_FRANKFURT_ORANGE: 0}, current=1
    )
    assert play(other, ClaimRoute(1, PARIS_FRANKFURT_WHITE, other.players[1].hand)).route_owner[
        PARIS_FRANKFURT_WHITE
    ] == 1


@pytest.mark.parametrize("n_players", [2, 3])
def test_double_routes_close_with_two_or_three(n_players: int) -> None:
    state, _ = position(
        n_players=n_players, hands={1: ["white"] * 3}, owners={PARIS_FRANKFURT_ORANGE: 0}, current=1
    )
    claim = ClaimRoute(1, PARIS_FRANKFURT_WHITE, state.players[1].hand)
    assert claim not in legal_actions(state, 1)
    with pytest.raises(IllegalMove, match="only one side"):
        apply(state, claim)


# --- tunnels ---------------------------------------------------------------


def _tunnel(hand: list[str], turned: list[str], route_id: int, pay: int) -> object:
    state, _ = position(hands={0: hand}, draw_pile=turned + ["white"] * 3)
    first = state.players[0].hand[:pay]
    return play(state, ClaimRoute(0, route_id, first))


def test_rulebook_tunnel_two_red_one_red_turned_costs_one_more_red() -> None:
    state = _tunnel(["red", "red", "red", "blue"], ["red", "blue", "white"], SARAJEVO_SOFIA, 2)
    assert state.phase is Phase.TUNNEL and state.tunnel.extra == 1  # type: ignore[attr-defined]
    payments = [a for a in legal_actions(state, 0) if isinstance(a, PayTunnel)]  # type: ignore[arg-type]
    assert [hand_kinds_of(state, a.cards) for a in payments] == [["red"]]
    after = play(state, payments[0])  # type: ignore[arg-type]
    assert after.route_owner[SARAJEVO_SOFIA] == 0
    assert hand_kinds(after, 0) == ["blue"] and after.current == 1
    assert len(after.discard) == 3 + 3  # three paid, three turned


def test_rulebook_tunnel_two_green_one_locomotive_turned_costs_one_more() -> None:
    state = _tunnel(["green", "green", "green", L], [L, "red", "white"], VENEZIA_ZURICH, 2)
    assert state.tunnel.extra == 1  # type: ignore[attr-defined]
    options = {tuple(hand_kinds_of(state, a.cards)) for a in legal_actions(state, 0) if isinstance(a, PayTunnel)}  # type: ignore[arg-type]
    assert options == {("green",), (L,)}


def test_rulebook_tunnel_paid_in_locomotives_counts_only_locomotives() -> None:
    state = _tunnel([L, L, L, "red"], [L, "red", "red"], SARAJEVO_SOFIA, 2)
    assert state.tunnel.extra == 1  # type: ignore[attr-defined]
    with pytest.raises(IllegalMove, match="must be locomotives"):
        apply(state, PayTunnel(0, state.players[0].hand[3:]))  # type: ignore[attr-defined]
    after = play(state, PayTunnel(0, state.players[0].hand[2:3]))  # type: ignore[attr-defined]
    assert after.route_owner[SARAJEVO_SOFIA] == 0 and hand_kinds(after, 0) == ["red"]


def test_tunnel_with_nothing_matching_is_taken_at_once() -> None:
    state = _tunnel(["red", "red"], ["blue", "white", "green"], SARAJEVO_SOFIA, 2)
    assert state.route_owner[SARAJEVO_SOFIA] == 0 and state.current == 1  # type: ignore[attr-defined]


def test_giving_up_a_tunnel_returns_the_cards_and_ends_the_turn() -> None:
    state = _tunnel(["red", "red"], ["red", "red", "white"], SARAJEVO_SOFIA, 2)
    assert state.tunnel.extra == 2  # type: ignore[attr-defined]
    assert legal_actions(state, 0) == [AbandonTunnel(0)]  # type: ignore[arg-type]
    after = play(state, AbandonTunnel(0))  # type: ignore[arg-type]
    assert after.route_owner[SARAJEVO_SOFIA] is None and after.tunnel is None
    assert hand_kinds(after, 0) == ["red", "red"] and after.current == 1
    assert len(after.discard) == 3  # the turned cards
    # the cards shown for the tunnel stay known to everyone
    assert all(r in after.public for r in after.players[0].hand)


def test_tunnel_turns_fewer_cards_when_fewer_exist() -> None:
    state, _ = position(hands={0: ["red", "red", "red"]}, draw_pile=["red"], discard=[])
    state = play(state, ClaimRoute(0, SARAJEVO_SOFIA, state.players[0].hand[:2]))
    assert state.tunnel is not None and len(state.tunnel.revealed) == 1 and state.tunnel.extra == 1
    state, _ = position(hands={0: ["red", "red"]}, face_up=[None] * 5, draw_pile=[], discard=[])
    state = play(state, ClaimRoute(0, SARAJEVO_SOFIA, state.players[0].hand))
    assert state.route_owner[SARAJEVO_SOFIA] == 0  # nothing to turn: free


def test_tunnel_payment_cannot_reuse_the_first_cards() -> None:
    state = _tunnel(["red", "red", "red"], ["red", "white", "white"], SARAJEVO_SOFIA, 2)
    with pytest.raises(IllegalMove, match="already paid"):
        apply(state, PayTunnel(0, state.players[0].hand[:1]))  # type: ignore[attr-defined]


def test_payments_shape_is_what_apply_checks() -> None:
    assert Payment("red", 2, 1).describe() == "2 red + 1 locomotive"
    assert Payment(None, 0, 3).describe() == "3 locomotives"
