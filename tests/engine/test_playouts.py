"""Whole games: invariants after every event, replicas that agree, determinism.

The replica run is the engine's side of the design's central promise: every
peer runs the same engine fed the same public events plus its own private
ones, and they all reach the same public state while each knows only what its
player may know.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_ttr.engine.boards import europe_game, every_game, load_game, parse_game_name
from p2p_ttr.engine.game import Game
from p2p_ttr.bots.base import Bot
from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.engine.board import europe
from p2p_ttr.engine.cards import CardRef, Deck
from p2p_ttr.engine.depots import warehouse_cards
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.engine.events import (
    BuildStation,
    ClaimRoute,
    Event,
    PayTunnel,
    Peek,
    Reveal,
    event_from_wire,
    to_wire,
)
from p2p_ttr.engine.outcome import final_score
from p2p_ttr.engine.rules import actors, apply, new_game
from p2p_ttr.engine.sharemoves import final_share_points
from p2p_ttr.engine.state import GameState, NeedReveal, Phase, public_digest
from p2p_ttr.engine.stockmarket import DUMMY
from p2p_ttr.engine.technologies import copies_left, technology_cards
from p2p_ttr.engine.techstate import RIGHT_OF_WAY
from p2p_ttr.engine.trackbeds import bed_map, supply
from p2p_ttr.engine.view import hidden_from, own_cards, view_for
from p2p_ttr.local.dealer import LocalDealer
from p2p_ttr.local.game import play_local_game

EUROPE = europe_game()

BOARD = europe()


def check_depots(state: GameState) -> None:
    """Warehouse cards are known to nobody; depots stand where no station does, one a city, never more than dealt."""
    depots = state.depots
    assert depots is not None
    assert not any(r in state.public or r in state.private for r in depots.cards())
    cities = [city for city, _ in depots.placed]
    assert len(cities) == len(set(cities)) and not set(cities) & {c for ps in state.players for c in ps.stations}
    for p, left in enumerate(depots.supply):
        assert 0 <= left and left + len(depots.cities_of(p)) <= state.game.rules.depots


def check_invariants(state: GameState, dealer: LocalDealer) -> None:
    """What must hold after every event of an omniscient game, on its board."""
    board, rules = state.game.board, state.game.rules
    # every train card (Europe: 110), each exactly once, somewhere
    zones: list[CardRef] = list(state.draw_pile) + list(state.discard)
    zones += [r for r in state.face_up if r is not None]
    for ps in state.players:
        zones += ps.hand
    if state.tunnel is not None:
        zones += state.tunnel.revealed
    zones += warehouse_cards(state)  # Europe 1912's warehouses, where played
    assert len(zones) == len(set(zones)) == board.n_cards
    faces = [dealer.face(r) for r in zones]
    assert sorted(faces) == list(range(board.n_cards))
    # every known face is the true face
    for ref, card in list(state.public.items()) + list(state.private.items()):
        assert dealer.face(ref) == card
    # table cards are public (or being revealed now); the draw pile is unknown to everyone
    turning = set(state.awaiting.refs) if isinstance(state.awaiting, NeedReveal) else set()
    for ref in state.discard + tuple(r for r in state.face_up if r is not None):
        assert ref in state.public or ref in turning
    assert not any(r in state.public or r in state.private for r in state.draw_pile)
    # trains and stations
    owners = Counter(o for o in state.route_owner if o is not None)
    for p, ps in enumerate(state.players):
        assert ps.trains + sum(board.routes[r].cars for r in ps.routes) == rules.trains  # (mountain X cars too)
        assert ps.trains >= 0 and 0 <= len(ps.stations) <= rules.stations
        assert ps.stations_left == rules.stations - len(ps.stations)
        # A route laid beside another player's trains (Right of Way) keeps its first owner.
        beside = [r for r in ps.routes if state.route_owner[r] != p]
        assert not beside or RIGHT_OF_WAY in rules.technologies
        assert owners[p] == len(ps.routes) - len(beside) and len(set(ps.routes)) == len(ps.routes)
        twins = {t for r in ps.routes for t in board.routes[r].parallel}
        assert not twins & set(ps.routes), "a player holds two tracks of a double or triple route"
    if not rules.both_sides_open(state.n_players):
        for r in board.routes:
            assert state.route_owner[r.id] is None or all(state.route_owner[t] is None for t in r.parallel)
    if state.technologies is not None:  # no technology held twice, nor more of one than the table had
        cards = technology_cards(state.game)
        for mine in state.technologies.held:
            assert len(set(mine)) == len(mine) and set(mine) <= set(cards)
        for name, card in cards.items():
            assert 0 <= copies_left(state, name) <= card.copies
    if state.track_beds is not None:
        check_track_beds(state)
    if state.markers is not None:
        check_city_markers(state)
    if state.depots is not None:
        check_depots(state)
    stations = [c for ps in state.players for c in ps.stations]
    assert len(stations) == len(set(stations))
    # tickets: 46, each in exactly one place (or out of the game)
    held = [r for ps in state.players for r in ps.tickets + ps.offered]
    assert len(held + list(state.ticket_pile)) == len(set(held) | set(state.ticket_pile))
    check_shares(state)
    # nobody's view holds another player's secrets
    for p in range(state.n_players):
        view = view_for(state, p)
        assert set(view.private) <= own_cards(state, p)
        assert not hidden_from(view, p)


def check_shares(state: GameState) -> None:
    """Pennsylvania's shares: each taken once, in number order, by a seat (or
    the two-player dummy, one beside each player's); the dummy's order deck
    closed until the end."""
    market, holdings = state.game.board.stock_market, state.shares
    if market is None or holdings is None:
        assert holdings is None
        return
    seats = set(range(state.n_players)) | ({DUMMY} if state.n_players == 2 else set())
    for company, holders in zip(market.companies, holdings.holders):
        assert len(holders) <= company.shares and set(holders) <= seats
    assert holdings.dummy_taken == tuple(sorted(holdings.held(DUMMY), key=holdings.dummy_taken.index))
    assert len(holdings.dummy_taken) <= sum(len(h) for h in holdings.holders) - len(holdings.dummy_taken)
    assert (holdings.pending is not None) == (state.phase is Phase.SHARES)
    assert len(holdings.dummy_order) == (market.dummy_cards if state.n_players == 2 else 0)
    if state.phase is not Phase.SCORING and not state.over:
        assert not any(r in state.public or r in state.private for r in holdings.dummy_order)


def check_track_beds(state: GameState) -> None:
    """France: every piece is on the board or in the supply; a piece lies on an
    unclaimed, uncut bed of its length; nothing cut is ever claimed; at 2-3
    players one pathway of a double or triple route at most is built."""
    beds, board = state.track_beds, state.game.board
    found = bed_map(state.game)
    assert beds is not None and found is not None
    on_board = Counter((color, board.routes[r].length) for r, color in beds.laid)
    assert on_board + supply(state) == Counter(found.pieces)
    for r, _ in beds.laid:
        assert r in found.beds and r not in beds.cut and state.route_owner[r] is None
    assert not [r for r in beds.cut if state.route_owner[r] is not None]
    assert len({r for r, _ in beds.laid}) == len(beds.laid)
    if not state.game.rules.both_sides_open(state.n_players):
        built = {r for r, _ in beds.laid} | {r for r in found.beds if state.route_owner[r] is not None}
        assert all(not set(board.routes[r].parallel) & built for r in built)


def check_city_markers(state: GameState) -> None:
    """Old West: at most ``city_markers`` each, one per city, none moved; every
    player's routes one network grown from their starting city; route points
    only from claims (never below what the claims could give none of)."""
    markers, board, rules = state.markers, state.game.board, state.game.rules
    assert markers is not None
    cities = [c for c, _ in markers.placed]
    assert len(cities) == len(set(cities))
    for p, ps in enumerate(state.players):
        mine = markers.cities_of(p)
        assert len(mine) <= rules.city_markers
        if ps.routes:
            start = markers.start_of(p)
            assert start is not None and start not in rules.no_start_cities
            reached = {start}
            left = set(ps.routes)
            while grown := {r for r in left if reached & set(board.routes[r].cities)}:
                reached |= {c for r in grown for c in board.routes[r].cities}
                left -= grown
            assert not left, "a route off its owner's network"
    if rules.alvin_city:  # Alvin the Alien: in his first city until captured, then in his holder's city
        if markers.alvin_holder is None:
            assert markers.alvin == rules.alvin_city and not any(markers.alvin_points)
        else:
            assert markers.alvin == "" or markers.owner(markers.alvin) == markers.alvin_holder
            assert all(points % rules.alvin_capture_points == 0 for points in markers.alvin_points)
    claimed = sum(board.route_points[board.routes[r].length] for ps in state.players for r in ps.routes)
    assert all(points >= 0 for points in markers.route_points)
    assert sum(markers.route_points) <= 2 * claimed  # each claim scores once, or for two ends at most


def check_final_score(state: GameState) -> None:
    score = final_score(state)
    board, rules = state.game.board, state.game.rules
    for ps, sc in zip(state.players, score.players):
        assert sc.total == (sc.routes + sc.tickets + sc.stations + sc.express + sc.globetrotter + sc.grand_tour
                            + sc.mountains + sc.most_cities + sum(part.points for part in sc.extra))
        assert sc.mountains == rules.mountain_car_points * sum(board.routes[r].mountain_x for r in ps.routes)
        assert sc.most_cities in (0, rules.most_cities_points)
        assert sc.routes == sum(board.route_points[board.routes[r].length] for r in ps.routes)
        assert sc.stations == rules.station_points * (rules.stations - len(ps.stations))
        assert sc.express in (0, rules.longest_path_points) and sc.globetrotter in (0, rules.globetrotter_points)
        assert len(sc.ticket_results) == len(ps.tickets)
    assert sorted(score.ranking) == list(range(state.n_players))
    if state.shares is not None:  # Pennsylvania: the majorities, with only the dummy's drawn shares
        assert [sc.extra[0].points for sc in score.players] == list(final_share_points(state))
        assert [sc.extra[0].count for sc in score.players] == [len(state.shares.held(p)) for p in
                                                               range(state.n_players)]
    if state.markers is not None:  # Old West: routes as claimed plus what markers moved is what was scored in play
        assert [sc.routes + sum(part.points for part in sc.extra if part.key == "city_markers")
                for sc in score.players] == list(state.markers.route_points)


# A mechanic's own invariants over one event: (state before, event, state after).
EventCheck = Callable[[GameState, Event, GameState], None]


def play_checked(n_players: int, seed: int, game: Game = EUROPE, check: EventCheck | None = None,
                 bots: Sequence[Bot] | None = None) -> GameState:
    """Play a whole game (random bots unless ``bots`` are given), checking the
    invariants (and ``check``) after every single event, and that every event
    goes through its wire form unchanged."""
    dealer = LocalDealer(seed)
    players = bots or [RandomBot(seed * 31 + p) for p in range(n_players)]
    state = new_game(game, n_players)
    for _ in range(20_000):
        if state.over:
            check_final_score(state)
            return state
        chance = dealer.answer(state)
        events: list[Event] = [chance] if chance else list(dealer.peeks(state))
        if not events:
            p = actors(state)[0]
            events = [players[p].choose(view_for(state, p), p)]
        for event in events:
            assert event_from_wire(to_wire(event), game) == event
            before, state = state, apply(state, event)
            if state.phase is not Phase.SETUP:
                check_invariants(state, dealer)
                if check is not None:
                    check(before, event, state)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("n_players", [2, 5])
def test_france_lays_its_track_pieces_and_keeps_every_invariant(n_players: int) -> None:
    state = play_checked(n_players, seed=n_players, game=load_game("france"))
    assert state.over and state.track_beds is not None and state.track_beds.cut


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_seeded_games_keep_every_invariant(n_players: int) -> None:
    state = play_checked(n_players, seed=n_players)
    assert state.over and not state.stalled


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n_players=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_random_games_keep_every_invariant(n_players: int, seed: int) -> None:
    assert play_checked(n_players, seed).over


@settings(max_examples=14, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.sampled_from([g.name for g in every_game() if g is not EUROPE]), data=st.data())
def test_every_board_conserves_its_cards_and_keeps_every_invariant(which: str, data: st.DataObject) -> None:
    game = load_game(*parse_game_name(which))
    n_players = data.draw(st.integers(game.rules.min_players, game.rules.max_players), label="players")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    assert play_checked(n_players, seed, game).over


@pytest.mark.parametrize("n_players", [2, 5])
def test_pennsylvania_keeps_its_shares_and_opens_the_dummy_order_at_the_end(n_players: int) -> None:
    state = play_checked(n_players, seed=7, game=load_game("pennsylvania"))
    assert state.shares is not None and any(state.shares.holders)
    assert bool(state.shares.dummy_taken) == (n_players == 2)
    assert all(r in state.public for r in state.shares.dummy_order)


def test_same_seed_same_game() -> None:
    bots = lambda: [RandomBot(p) for p in range(3)]  # noqa: E731
    a = play_local_game(EUROPE, 3, 99, bots())
    b = play_local_game(EUROPE, 3, 99, bots())
    assert a.events == b.events and public_digest(a.final) == public_digest(b.final)
    c = play_local_game(EUROPE, 3, 100, bots())
    assert public_digest(c.final) != public_digest(a.final)


def test_replaying_the_events_gives_the_same_state() -> None:
    game = play_local_game(EUROPE, 4, 5, [RandomBot(p) for p in range(4)])
    state = new_game(EUROPE, 4)
    for event in game.events:
        state = apply(state, event)
    assert state == game.final


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_replicas_with_only_their_own_knowledge_agree(n_players: int) -> None:
    """Each player's replica gets the public events and its own peeks only;
    cards are revealed to all just before they are played, as the table will."""
    seed = 40 + n_players
    dealer = LocalDealer(seed)
    bots = [RandomBot(seed + p) for p in range(n_players)]
    omni = new_game(EUROPE, n_players)
    replicas = [new_game(EUROPE, n_players) for _ in range(n_players)]

    def to_all(event: Event) -> None:
        nonlocal omni
        omni = apply(omni, event)
        for p in range(n_players):
            replicas[p] = apply(replicas[p], event)

    while not omni.over:
        chance = dealer.answer(omni)
        if chance is not None:
            to_all(chance)
            continue
        for peek in dealer.peeks(omni):
            omni = apply(omni, peek)
            replicas[peek.player] = apply(replicas[peek.player], peek)
        p = actors(omni)[0]
        assert actors(replicas[p]) == actors(omni)
        action = bots[p].choose(replicas[p], p)
        if isinstance(action, (ClaimRoute, BuildStation, PayTunnel)):
            shown = tuple((r, dealer.face(r)) for r in action.cards if r not in omni.public)
            if shown:
                to_all(Reveal(shown))
        to_all(action)
        digest = public_digest(omni)
        for q in range(n_players):
            assert public_digest(replicas[q]) == digest
            assert replicas[q].private == view_for(omni, q).private
    assert all(r.over for r in replicas)
    assert final_score(replicas[0]) == final_score(omni)


def test_refused_events_raise_engine_errors_and_leave_the_state_alone() -> None:
    game = play_local_game(EUROPE, 3, 8, [RandomBot(p) for p in range(3)])
    mid = new_game(EUROPE, 3)
    for event in game.events[: len(game.events) // 2]:
        mid = apply(mid, event)
    before = public_digest(mid)
    other = (actors(mid)[0] + 1) % 3 if actors(mid) else 0
    refused = 0
    for event in game.events:
        try:
            apply(mid, _as_player(event, other))
        except EngineError:
            refused += 1
    assert refused > 0 and public_digest(mid) == before


def _as_player(event: Event, player: int) -> Event:
    fields = {f: getattr(event, f) for f in event.__slots__}  # type: ignore[union-attr]
    if "player" in fields:
        fields["player"] = player
    return type(event)(**fields)


_refs = st.builds(
    CardRef,
    st.sampled_from(list(Deck)),
    st.integers(0, 3),
    st.integers(0, 5),
)
_wire_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 200) | st.text(max_size=8) | st.binary(max_size=8),
    lambda inner: st.lists(inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.lists(_wire_values, max_size=6), _wire_values))
def test_wire_decoding_rejects_garbage_with_a_named_error(data: object) -> None:
    try:
        event = event_from_wire(data)
    except EngineError:
        return
    assert event_from_wire(to_wire(event)) == event


def test_every_event_of_a_game_survives_the_wire() -> None:
    game = play_local_game(EUROPE, 5, 3, [RandomBot(p) for p in range(5)])
    kinds = set()
    for event in game.events:
        assert event_from_wire(to_wire(event)) == event
        kinds.add(type(event).__name__)
    assert {"Shuffled", "Reveal", "Peek", "DrawBlind", "ClaimRoute", "KeepTickets"} <= kinds


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_events_never_break_a_game(data: st.DataObject) -> None:
    """Fuzz the engine API: any event applied to any position either is refused
    with an EngineError or gives a state that still keeps the invariants."""
    seed = data.draw(st.integers(0, 3))
    game = _fuzz_games(seed)
    cut = data.draw(st.integers(0, len(game.events) - 1))
    state = new_game(EUROPE, 3)
    dealer = LocalDealer(seed)
    for event in game.events[:cut]:
        dealer.answer(state)  # keep the dealer's shuffles in step
        state = apply(state, event)
    wire = [
        data.draw(st.sampled_from([to_wire(e)[0] for e in game.events]))
    ] + data.draw(st.lists(st.one_of(st.integers(0, 5), st.lists(st.integers(0, 3), max_size=3)), max_size=3))
    try:
        event = event_from_wire(wire)
    except EngineError:
        return
    try:
        after = apply(state, event)
    except EngineError:
        return
    assert after.n_players == 3
    if isinstance(event, Peek) or isinstance(event, Reveal):
        return  # faces from the fuzzer are not the dealer's; nothing else to check
    if after.phase is not Phase.SETUP:
        check_invariants(after, dealer)


_FUZZ_CACHE: dict[int, object] = {}


def _fuzz_games(seed: int):  # type: ignore[no-untyped-def]
    if seed not in _FUZZ_CACHE:
        _FUZZ_CACHE[seed] = play_local_game(EUROPE, 3, seed, [RandomBot(p) for p in range(3)])
    return _FUZZ_CACHE[seed]
