"""Final scoring: routes, tickets with stations, the Express and the ranking."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from p2p_ttr.engine.boards import europe_game
from p2p_ttr.engine.board import europe
from p2p_ttr.engine.scoring import (
    ClaimError,
    PlayerClaims,
    PlayerScore,
    best_borrowing,
    borrowable_routes,
    check_claims,
    connected,
    deciding_tiebreak,
    longest_trail,
    rank_key,
    route_points,
    score_game,
    ticket_outcomes,
)

EUROPE = europe_game()

BOARD = europe()


def route(a: str, b: str, color: str | None = None, side: int | None = None) -> int:
    """The id of the route a-b (of ``color``); ``side`` (0 or 1) picks one side
    of a double that colour does not tell apart."""
    matches = [r.id for r in BOARD.routes_between(a, b) if color is None or r.color == color]
    if side is None:
        assert len(matches) == 1, f"{a}-{b} {color} names {len(matches)} routes"
        return matches[0]
    return matches[side]


def ticket(a: str, b: str) -> int:
    return next(t.id for t in BOARD.tickets if {t.a, t.b} == {a, b})


def claims(
    routes: Sequence[int] = (), stations: Sequence[str] = (), tickets: Sequence[int] = ()
) -> PlayerClaims:
    return PlayerClaims(tuple(routes), tuple(stations), tuple(tickets))


EMPTY = claims()


# --------------------------------------------------------------------------
# Route points and connectivity.


@pytest.mark.parametrize(
    ("a", "b", "length", "points"),
    [
        ("Amsterdam", "Bruxelles", 1, 1),
        ("Barcelona", "Madrid", 2, 2),
        ("Brest", "Paris", 3, 4),
        ("Athina", "Brindisi", 4, 7),
        ("Budapest", "Kyiv", 6, 15),
        ("Petrograd", "Stockholm", 8, 21),
    ],
)
def test_route_points_follow_the_table(a: str, b: str, length: int, points: int) -> None:
    r = route(a, b)
    assert BOARD.routes[r].length == length
    assert route_points(BOARD, [r]) == points


def test_route_points_add_up_and_count_each_route_once() -> None:
    rs = [route("Petrograd", "Stockholm"), route("Brest", "Paris"), route("Amsterdam", "Bruxelles")]
    assert route_points(BOARD, rs) == 21 + 4 + 1
    assert route_points(BOARD, rs + rs) == 26
    assert route_points(BOARD, []) == 0


def test_connected_follows_only_the_given_routes() -> None:
    chain = [route("Paris", "Frankfurt", "orange"), route("Frankfurt", "Berlin", "red")]
    assert connected(BOARD, chain, "Paris", "Berlin")
    assert connected(BOARD, chain, "Berlin", "Paris")
    assert not connected(BOARD, chain, "Paris", "Wien")
    assert not connected(BOARD, chain[:1], "Paris", "Berlin")
    assert connected(BOARD, [], "Wien", "Wien")


def test_ticket_completed_through_a_chain_and_failed_otherwise() -> None:
    me = claims(
        routes=[route("Brest", "Paris"), route("Paris", "Marseille")],
        tickets=[ticket("Brest", "Marseille"), ticket("Paris", "Wien")],
    )
    results = ticket_outcomes(BOARD, me)
    assert [(t.completed, t.points) for t in results] == [(True, 7), (False, -8)]


# --------------------------------------------------------------------------
# Longest trail.

PARIS_FRANKFURT = route("Paris", "Frankfurt", "orange")  # 3
FRANKFURT_BRUXELLES = route("Frankfurt", "Bruxelles")  # 2
BRUXELLES_PARIS = route("Bruxelles", "Paris", "red")  # 2
TRIANGLE = [PARIS_FRANKFURT, FRANKFURT_BRUXELLES, BRUXELLES_PARIS]


def test_longest_trail_of_one_route_is_its_length() -> None:
    assert longest_trail(BOARD, [route("Petrograd", "Stockholm")]) == 8
    assert longest_trail(BOARD, []) == 0


def test_longest_trail_goes_round_a_loop_and_down_a_tail() -> None:
    # Munchen -2- Frankfurt -3- Paris -2- Bruxelles -2- Frankfurt: Frankfurt twice.
    assert longest_trail(BOARD, [*TRIANGLE, route("Frankfurt", "Munchen")]) == 9


def test_longest_trail_of_a_loop_with_three_tails_takes_one_tail() -> None:
    # Tails at each corner: Brest-Paris 3, Frankfurt-Munchen 2, Bruxelles-Amsterdam 1.
    # Best: Brest -3- Paris -2- Bruxelles -2- Frankfurt -3- Paris (the loop, one tail).
    tails = [route("Brest", "Paris"), route("Frankfurt", "Munchen"), route("Amsterdam", "Bruxelles")]
    assert longest_trail(BOARD, [*TRIANGLE, *tails]) == 10


def test_longest_trail_of_a_y_takes_the_two_longest_arms() -> None:
    arms = [
        [route("Frankfurt", "Paris", "orange"), route("Paris", "Brest")],  # 6
        [route("Frankfurt", "Berlin", "red"), route("Berlin", "Warszawa", "yellow")],  # 7
        [route("Frankfurt", "Munchen")],  # 2
    ]
    assert longest_trail(BOARD, [r for arm in arms for r in arm]) == 13


def test_longest_trail_of_a_figure_eight_uses_everything() -> None:
    second_loop = [route("Frankfurt", "Essen"), route("Essen", "Berlin"), route("Berlin", "Frankfurt", "red")]
    assert longest_trail(BOARD, TRIANGLE + second_loop) == 7 + 7


def test_longest_trail_of_disconnected_pieces_is_the_best_piece() -> None:
    iberia = [route("Lisboa", "Madrid"), route("Madrid", "Barcelona")]  # 5
    assert longest_trail(BOARD, [*iberia, route("Petrograd", "Stockholm")]) == 8
    assert longest_trail(BOARD, [*iberia, route("Amsterdam", "Bruxelles")]) == 5


def test_longest_trail_counts_the_two_sides_of_a_double_as_two_routes() -> None:
    both = [route("Berlin", "Frankfurt", "red"), route("Berlin", "Frankfurt", "black")]
    assert longest_trail(BOARD, both) == 6
    assert longest_trail(BOARD, [*both, route("Frankfurt", "Munchen")]) == 8
    assert longest_trail(BOARD, [both[0], both[0]]) == 3  # a repeated id is one route


def test_longest_trail_in_a_dense_mesh_is_exact() -> None:
    # Many short routes round the Channel: a graph with many odd cities and loops.
    mesh = [
        route("Paris", "Dieppe"), route("Dieppe", "Bruxelles"), route("Bruxelles", "Paris", "red"),
        route("Dieppe", "London", side=0), route("London", "Amsterdam"),
        route("Amsterdam", "Bruxelles"), route("Amsterdam", "Frankfurt"),
        route("Frankfurt", "Bruxelles"), route("Paris", "Frankfurt", "orange"),
        route("Amsterdam", "Essen"), route("Essen", "Frankfurt"), route("Brest", "Dieppe"),
        route("Essen", "Berlin"), route("Berlin", "Frankfurt", "red"),
    ]
    assert longest_trail(BOARD, mesh) == reference_longest_trail(mesh)


def reference_longest_trail(routes: Sequence[int]) -> int:
    """Plain edge-simple DFS from every city: slow but obviously right."""
    ids = list(dict.fromkeys(routes))

    def walk(city: str, used: frozenset[int]) -> int:
        best = 0
        for r in ids:
            road = BOARD.routes[r]
            if r not in used and city in road.cities:
                best = max(best, road.length + walk(road.other_end(city), used | {r}))
        return best

    cities = {c for r in ids for c in BOARD.routes[r].cities}
    return max((walk(c, frozenset()) for c in cities), default=0)


# --------------------------------------------------------------------------
# Stations.

# Ann's network: Paris-Frankfurt-Munchen-Wien and Munchen-Zurich.
ANN_NETWORK = [
    route("Paris", "Frankfurt", "orange"),
    route("Frankfurt", "Munchen"),
    route("Munchen", "Wien"),
    route("Munchen", "Zurich"),
]
WIEN_ZAGRAB = route("Wien", "Zagrab")
WIEN_BUDAPEST = route("Wien", "Budapest", "red")


def test_station_borrows_the_route_that_completes_the_bigger_ticket() -> None:
    ann = claims(
        ANN_NETWORK,
        stations=["Wien"],
        tickets=[ticket("Zurich", "Budapest"), ticket("Paris", "Zagrab")],  # 6 via Budapest, 7 via Zagrab
    )
    bob = claims([WIEN_BUDAPEST, WIEN_ZAGRAB])
    score = score_game(EUROPE, [ann, bob]).players[0]
    assert score.borrowed == (("Wien", WIEN_ZAGRAB),)
    assert [(t.completed, t.points) for t in score.ticket_results] == [(False, -6), (True, 7)]
    assert score.tickets == 1 and score.completed_tickets == 1
    assert score.stations == 2 * 4 and score.stations_built == 1


def test_one_borrowed_route_completes_two_tickets() -> None:
    south = [route("Zagrab", "Venezia"), route("Venezia", "Roma"), route("Roma", "Brindisi")]
    ann = claims(
        ANN_NETWORK + south,
        stations=["Wien"],
        tickets=[ticket("Paris", "Zagrab"), ticket("Zurich", "Brindisi")],
    )
    bob = claims([WIEN_BUDAPEST, WIEN_ZAGRAB])
    score = score_game(EUROPE, [ann, bob]).players[0]
    assert score.borrowed == (("Wien", WIEN_ZAGRAB),)
    assert score.tickets == 7 + 6 and score.completed_tickets == 2


def test_station_with_nothing_to_borrow_borrows_nothing() -> None:
    ann = claims(ANN_NETWORK, stations=["Lisboa"], tickets=[ticket("Paris", "Zagrab")])
    bob = claims([WIEN_ZAGRAB])
    score = score_game(EUROPE, [ann, bob]).players[0]
    assert score.borrowed == (("Lisboa", None),)
    assert score.tickets == -7
    assert borrowable_routes(BOARD, "Lisboa", ann.routes, bob.routes) == ()


def test_station_borrows_nothing_when_no_borrowing_helps() -> None:
    ann = claims(ANN_NETWORK, stations=["Wien"], tickets=[ticket("Paris", "Wien")])  # already done
    bob = claims([WIEN_BUDAPEST, WIEN_ZAGRAB])
    assert score_game(EUROPE, [ann, bob]).players[0].borrowed == (("Wien", None),)


def test_station_never_borrows_its_owners_route() -> None:
    ann = claims([WIEN_ZAGRAB], stations=["Wien"], tickets=[ticket("Paris", "Zagrab")])
    bob = claims([route("Paris", "Zurich")])
    score = score_game(EUROPE, [ann, bob]).players[0]
    assert score.borrowed == (("Wien", None),)


def test_two_stations_chain_through_a_city_neither_owner_reaches() -> None:
    # Ann: Paris-Frankfurt and, apart, Wien-Budapest. Bob: Frankfurt-Munchen-Wien.
    # Paris-Wien needs both stations: Frankfurt borrows Frankfurt-Munchen, Wien Munchen-Wien.
    frankfurt_munchen, munchen_wien = route("Frankfurt", "Munchen"), route("Munchen", "Wien")
    ann = claims(
        [PARIS_FRANKFURT, WIEN_BUDAPEST],
        stations=["Frankfurt", "Wien"],
        tickets=[ticket("Paris", "Wien")],
    )
    bob = claims([frankfurt_munchen, munchen_wien])
    score = score_game(EUROPE, [ann, bob]).players[0]
    assert score.borrowed == (("Frankfurt", frankfurt_munchen), ("Wien", munchen_wien))
    assert score.tickets == 8


def test_equally_good_choices_take_the_lowest_route_id() -> None:
    # Zurich-Budapest: Ann reaches Wien; her station in Budapest may borrow either
    # side of Budapest-Wien (Bob and Cy have one each): the same result either way.
    ann = claims(
        [route("Zurich", "Munchen"), route("Munchen", "Wien")],
        stations=["Budapest"],
        tickets=[ticket("Zurich", "Budapest")],
    )
    red, white = route("Budapest", "Wien", "red"), route("Budapest", "Wien", "white")
    bob, cy, di = claims([white]), claims([red]), claims()
    score = score_game(EUROPE, [ann, bob, cy, di]).players[0]
    assert score.borrowed == (("Budapest", min(red, white)),)


# --------------------------------------------------------------------------
# The European Express.


def test_express_goes_to_every_player_with_the_longest_trail() -> None:
    ann = claims([route("Petrograd", "Stockholm")])  # 8
    bob = claims([route("Budapest", "Kyiv"), route("Kyiv", "Wilno")])  # 8
    cy = claims([route("Palermo", "Smyrna")])  # 6
    result = score_game(EUROPE, [ann, bob, cy])
    assert [p.express for p in result.players] == [10, 10, 0]
    assert [p.longest_path for p in result.players] == [8, 8, 6]


def test_nobody_gets_the_express_without_routes() -> None:
    result = score_game(EUROPE, [EMPTY, EMPTY])
    assert [p.express for p in result.players] == [0, 0]
    assert [p.total for p in result.players] == [12, 12]


# --------------------------------------------------------------------------
# Ranking and tie-breaks.


def test_most_points_wins() -> None:
    result = score_game(EUROPE, [EMPTY, claims([route("Brest", "Paris")]), claims(stations=["Roma"])])
    assert result.ranking == (1, 0, 2)
    assert result.places == (2, 1, 3)


def test_points_tie_broken_by_completed_tickets() -> None:
    # Ann: 6 route points + ticket 5 + 12 + Express (trail 5) = 33, one ticket done.
    ann = claims([route("Rostov", "Sochi"), route("Sochi", "Erzurum")], tickets=[ticket("Rostov", "Erzurum")])
    # Bob: 2 + 4 + 4 + 1 = 11 route points + 12 + Express (trail 5) = 33, no ticket.
    bob = claims([
        route("Smolensk", "Moskva"), route("Kyiv", "Smolensk"),
        route("Lisboa", "Madrid"), route("Amsterdam", "Bruxelles"),
    ])
    result = score_game(EUROPE, [bob, ann])
    assert [p.total for p in result.players] == [33, 33]
    assert result.ranking == (1, 0) and result.places == (2, 1)
    assert deciding_tiebreak(result.players[1], result.players[0]) == "completed tickets"


def test_then_fewer_stations_built_wins() -> None:
    ann = claims([route("Brest", "Paris")])  # 4 + 12 + 10
    bob = claims([route("Cadiz", "Madrid"), route("Athina", "Sofia")], stations=["Roma"])  # 8 + 8 + 10
    result = score_game(EUROPE, [bob, ann])
    assert [p.total for p in result.players] == [26, 26]
    assert result.ranking == (1, 0)
    assert deciding_tiebreak(result.players[1], result.players[0]) == "fewer stations"


def test_then_the_express_wins() -> None:
    ann = claims([route("Petrograd", "Stockholm")])  # 21 + 12 + 10
    bob = claims([route("Budapest", "Kyiv"), route("Palermo", "Smyrna"), route("Amsterdam", "Bruxelles")])  # 31 + 12
    result = score_game(EUROPE, [bob, ann])
    assert [p.total for p in result.players] == [43, 43]
    assert result.ranking == (1, 0) and result.places == (2, 1)
    assert deciding_tiebreak(result.players[1], result.players[0]) == "European Express"


def test_a_full_tie_shares_the_place() -> None:
    result = score_game(EUROPE, [claims(stations=["Roma"]), EMPTY, EMPTY])
    assert result.ranking == (1, 2, 0)
    assert result.places == (3, 1, 1)
    assert deciding_tiebreak(result.players[1], result.players[2]) is None


# --------------------------------------------------------------------------
# Impossible claims.


@pytest.mark.parametrize(
    ("game", "player", "words"),
    [
        ([EMPTY], None, "2..5 players"),
        ([EMPTY] * 6, None, "2..5 players"),
        ([claims([999]), EMPTY], 0, "unknown route id"),
        ([claims([0, 0]), EMPTY], 0, "already claimed by the same player"),
        ([claims([0]), claims([0])], 1, "already claimed by player 0"),
        ([claims([16, 17]), EMPTY, EMPTY, EMPTY], 0, "both sides"),
        ([claims([16]), claims([17]), EMPTY], 1, "2 or 3 players"),
        ([claims(stations=["Roma", "Wien", "Riga", "Kyiv"]), EMPTY], 0, "4 stations"),
        ([claims(stations=["Roma", "Roma"]), EMPTY], 0, "station in Roma"),
        ([claims(stations=["Roma"]), claims(stations=["Roma"])], 1, "station in Roma"),
        ([claims(stations=["Rome"]), EMPTY], 0, "unknown city"),
        ([claims(tickets=[46]), EMPTY], 0, "unknown ticket"),
        ([claims(tickets=[3]), claims(tickets=[3])], 1, "already held by player 0"),
    ],
)
def test_impossible_claims_are_refused(
    game: list[PlayerClaims], player: int | None, words: str
) -> None:
    with pytest.raises(ClaimError, match=words) as caught:
        score_game(EUROPE, game)
    assert caught.value.player == player


def test_more_than_45_trains_is_refused() -> None:
    heavy = [r.id for r in BOARD.routes if r.length >= 4 and r.twin is None]
    assert sum(BOARD.routes[r].length for r in heavy) > EUROPE.rules.trains
    with pytest.raises(ClaimError, match="trains"):
        check_claims(EUROPE, [claims(heavy), EMPTY])


def test_double_routes_are_shared_with_four_players() -> None:
    check_claims(EUROPE, [claims([16]), claims([17]), EMPTY, EMPTY])  # no error


def test_the_error_message_uses_the_names_given() -> None:
    with pytest.raises(ClaimError, match='already claimed by "Ann"'):
        check_claims(EUROPE, [claims([0]), claims([0])], ['"Ann"', '"Bob"'])


# --------------------------------------------------------------------------
# Properties over random legal games.


# Western and central Europe: dense enough that stations and tickets interact.
REGION = frozenset({
    "Paris", "Frankfurt", "Bruxelles", "Amsterdam", "Essen", "Berlin", "Munchen", "Wien",
    "Zurich", "Venezia", "Roma", "Marseille", "Dieppe", "London", "Brest", "Zagrab",
    "Budapest", "Kobenhavn", "Danzig", "Warszawa", "Pamplona", "Barcelona", "Madrid",
})
REGION_ROUTES = [r.id for r in BOARD.routes if set(r.cities) <= REGION]
REGION_TICKETS = [t.id for t in BOARD.tickets if {t.a, t.b} <= REGION]


@st.composite
def legal_games(draw: st.DrawFn, regional: bool = False) -> list[PlayerClaims]:
    """2..5 players with disjoint routes (at most 45 cars each, doubles by the
    rules), distinct station cities (at most 3 each) and distinct tickets;
    ``regional``: all in REGION, densely claimed."""
    n = draw(st.integers(2, 3 if regional else 5))
    player = st.integers(0, n - 1)
    cities = sorted(REGION) if regional else BOARD.cities
    all_tickets = REGION_TICKETS if regional else range(len(BOARD.tickets))
    if regional:  # every route offered to someone, so networks are big
        order = draw(st.permutations(REGION_ROUTES))
        takers = draw(st.lists(player, min_size=len(order), max_size=len(order)))
        wanted = list(zip(order, takers))
    else:
        wanted = draw(st.lists(st.tuples(st.integers(0, len(BOARD.routes) - 1), player), max_size=70))
    routes: list[list[int]] = [[] for _ in range(n)]
    cars = [0] * n
    owner: dict[int, int] = {}
    for r, p in wanted:
        road = BOARD.routes[r]
        twin = owner.get(road.twin) if road.twin is not None else None
        if r in owner or cars[p] + road.length > EUROPE.rules.trains:
            continue
        if twin == p or (twin is not None and n < 4):
            continue
        routes[p].append(r)
        owner[r] = p
        cars[p] += road.length
    built = draw(st.lists(st.tuples(st.sampled_from(cities), player), max_size=3 * n))
    stations: list[list[str]] = [[] for _ in range(n)]
    for city, p in dict(built).items():  # one station per city
        if len(stations[p]) < 3:
            stations[p].append(city)
    held = draw(st.lists(st.tuples(st.sampled_from(all_tickets), player), max_size=12))
    tickets: list[list[int]] = [[] for _ in range(n)]
    for t, p in dict(held).items():  # one holder per ticket
        tickets[p].append(t)
    return [claims(routes[p], stations[p], tickets[p]) for p in range(n)]


FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(legal_games())
def test_scores_are_the_sum_of_their_parts(game: list[PlayerClaims]) -> None:
    result = score_game(EUROPE, game)
    longest = max(p.longest_path for p in result.players)
    for claim, score in zip(game, result.players):
        assert score.total == score.routes + score.tickets + score.stations + score.express
        assert score.routes == route_points(BOARD, claim.routes)
        assert score.tickets == sum(t.points for t in score.ticket_results)
        assert score.completed_tickets == sum(t.completed for t in score.ticket_results)
        assert [t.ticket for t in score.ticket_results] == list(claim.tickets)
        assert score.stations == 4 * (3 - len(claim.stations))
        assert [city for city, _ in score.borrowed] == list(claim.stations)
        assert score.longest_path == longest_trail(BOARD, claim.routes)
        assert score.express == (EUROPE.rules.longest_path_points if longest and score.longest_path == longest else 0)
    assert sorted(result.ranking) == list(range(len(game)))
    keys = [rank_key(result.players[i]) for i in result.ranking]
    assert keys == sorted(keys)
    assert min(result.places) == 1
    for i, j in itertools.combinations(range(len(game)), 2):
        same = rank_key(result.players[i]) == rank_key(result.players[j])
        assert (result.places[i] == result.places[j]) == same


@st.composite
def station_puzzles(draw: st.DrawFn) -> list[PlayerClaims]:
    """A dense regional game where player 0's stations stand at the ends of
    opponents' routes that join two of their pieces, and their tickets are
    still open: the station choice matters."""
    game = draw(legal_games(regional=True))
    me = game[0]
    mine = {c for r in me.routes for c in BOARD.routes[r].cities}

    def apart(a: str, b: str) -> bool:
        return a in mine and b in mine and not connected(BOARD, me.routes, a, b)

    opponents = [r for c in game[1:] for r in c.routes]
    bridges = sorted({c for r in opponents if apart(*BOARD.routes[r].cities) for c in BOARD.routes[r].cities})
    stations = draw(st.lists(st.sampled_from(bridges), max_size=3, unique=True)) if bridges else []
    open_tickets = [t.id for t in BOARD.tickets if apart(t.a, t.b)]
    tickets = draw(st.lists(st.sampled_from(open_tickets), max_size=6, unique=True)) if open_tickets else []
    others = [PlayerClaims(c.routes, (), ()) for c in game[1:]]
    return [PlayerClaims(me.routes, tuple(stations), tuple(tickets)), *others]


@settings(FAST, max_examples=200)
@given(st.one_of(legal_games(), station_puzzles(), station_puzzles()))
def test_borrowing_is_the_first_best_of_all_assignments(game: list[PlayerClaims]) -> None:
    for me, claim in enumerate(game):
        opponents = [r for i, c in enumerate(game) if i != me for r in c.routes]
        chosen = best_borrowing(BOARD, claim, opponents)
        assert chosen == reference_borrowing(claim, opponents)
        event(f"stations borrow {sum(r is not None for r in chosen)} routes")


def reference_borrowing(claim: PlayerClaims, opponents: Sequence[int]) -> tuple[int | None, ...]:
    """Every assignment in tie-break order, scored from scratch; the first best."""
    choices = [
        [None, *borrowable_routes(BOARD, city, claim.routes, opponents)] for city in claim.stations
    ]
    best: tuple[int | None, ...] = (None,) * len(claim.stations)
    best_key = (-10**9, 0)
    for choice in itertools.product(*choices):
        results = ticket_outcomes(BOARD, claim, choice)
        key = (sum(t.points for t in results), sum(t.completed for t in results))
        if key > best_key:
            best, best_key = tuple(choice), key
    return best


@FAST
@given(legal_games(regional=True))
def test_borrowing_never_hurts_and_uses_only_opponents_routes(game: list[PlayerClaims]) -> None:
    result = score_game(EUROPE, game)
    for me, (claim, score) in enumerate(zip(game, result.players)):
        alone = ticket_outcomes(BOARD, claim)
        assert score.tickets >= sum(t.points for t in alone)
        for city, r in score.borrowed:
            if r is not None:
                assert city in BOARD.routes[r].cities
                assert r not in claim.routes
                assert any(r in c.routes for i, c in enumerate(game) if i != me)


route_sets = st.lists(st.integers(0, len(BOARD.routes) - 1), max_size=12, unique=True)


@FAST
@given(route_sets)
def test_longest_trail_matches_plain_search(routes: list[int]) -> None:
    assert longest_trail(BOARD, routes) == reference_longest_trail(routes)


@FAST
@given(legal_games())
def test_longest_trail_is_bounded_by_the_cars_owned(game: list[PlayerClaims]) -> None:
    for claim in game:
        trail = longest_trail(BOARD, claim.routes)
        assert trail <= sum(BOARD.routes[r].length for r in claim.routes)
        if claim.routes:
            assert trail >= max(BOARD.routes[r].length for r in claim.routes)


@FAST
@given(st.integers(0, len(BOARD.routes) - 1))
def test_a_single_route_is_its_own_longest_trail(r: int) -> None:
    assert longest_trail(BOARD, [r]) == BOARD.routes[r].length


@FAST
@given(route_sets, st.integers(0, len(BOARD.routes) - 1))
def test_adding_a_route_never_lowers_points_or_trail(routes: list[int], extra: int) -> None:
    more = [*routes, extra]
    assert route_points(BOARD, more) >= route_points(BOARD, routes)
    assert longest_trail(BOARD, more) >= longest_trail(BOARD, routes)


@FAST
@given(route_sets, st.sampled_from(BOARD.cities), st.sampled_from(BOARD.cities))
def test_connectivity_is_symmetric(routes: list[int], a: str, b: str) -> None:
    assert connected(BOARD, routes, a, b) == connected(BOARD, routes, b, a)
    if any(a in BOARD.routes[r].cities and b in BOARD.routes[r].cities for r in routes):
        assert connected(BOARD, routes, a, b)


def test_deciding_tiebreak_names_the_first_difference() -> None:
    base = PlayerScore(10, 0, 12, 0, 22, 3, 1, 0, (), ())
    fewer = PlayerScore(10, -1, 12, 0, 21, 3, 1, 0, (), ())
    assert deciding_tiebreak(base, fewer) == "points"
    assert deciding_tiebreak(base, base) is None
