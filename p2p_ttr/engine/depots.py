"""Europe 1912's Warehouses and Depots, an expansion of any board
(``Rules.depots``; rules summary, "Warehouses and Depots (this can be played
with ANY Ticket to Ride map!)").

- Each player has ``Rules.depots`` depots and a warehouse of their colour.
  Before the first turn, from the last seat down (counter-clockwise), each
  places one depot on a city with neither a depot nor a station
  (``Phase.DEPOT_SETUP``); later, before the action of their turn, a player
  may place more as a free action. A depot never moves; a station never
  goes where a depot is, nor a depot where a station is.
- A turn that draws train cards first puts the top card of the deck, unseen
  by anyone, on a warehouse of the drawer's choice: the ``StockWarehouse``
  move, made before the draw (the rules' order: the top card leaves before
  the drawer's own card is dealt, and the choice is made knowing nothing the
  draw shows). Once stocked, the turn is a draw. With no card in the draw
  pile, or only the card the draw itself needs and nothing else to draw,
  nothing is placed.
- A turn with a claim whose route has a depot on an end ends with the
  claimer's choice (``Phase.WAREHOUSES``, ``EmptyWarehouses``): for each
  warehouse whose colour matches such a depot, take all its cards into the
  hand, giving one depot of the supply back to the box. The choice is
  offered only when there is one to make, so a claim with nothing to take
  ends the turn as anywhere.
- With no card in the draw pile nor the discards and a player out of
  depots, the warehouses' cards become the draw pile (see :func:`refilled`
  for why no new shuffle is needed).
- At the end, the most depots left in a supply earn ``Rules.depot_points``,
  to every player tied for it (none when every supply is empty).

The warehouse cards are the hidden-information core: each leaves the deck to
no one and later opens to one player (protocol.md §6, Warehouses). The engine
only moves references: a card on a warehouse is in no hand, so nobody owes a
share of it; emptied into a hand, the others owe the collector their shares
as for a card drawn blind.
"""

from __future__ import annotations

from dataclasses import replace

from .cards import CardRef, Deck
from .citymarkers import placing_order
from .depotstate import Depots
from .events import DrawBlind, DrawFaceUp, DrawThreeBlind, EmptyWarehouses, PlaceDepot, StockWarehouse
from .game import Game
from .mechanic import AfterClaim, ClaimTaken, Handles, Mechanic, TurnFlow
from .scoring import PlayerScore, ScorePart
from .state import GameState, Phase
from .turnkit import expect, expect_city, refuse

DRAWS = (DrawBlind, DrawFaceUp, DrawThreeBlind)
FREE_ACTIONS = (PlaceDepot, StockWarehouse)  # the moves that keep a turn open before its action


def at_start(game: Game, n_players: int) -> Depots | None:
    """The depots each player starts with; None where the game does not play them."""
    return Depots.at_start(n_players, game.rules.depots) if game.rules.depots else None


def first_placer(state: GameState) -> int | None:
    """Who places the first depot at set-up (the last seat), None where depots are not played."""
    return placing_order(state.n_players)[0] if state.depots is not None else None


def next_placer(state: GameState, player: int) -> int | None:
    """Who places a depot at set-up after ``player``; None when every player has."""
    order = placing_order(state.n_players)
    return None if player == order[-1] else order[order.index(player) + 1]


def occupied_problem(state: GameState, city: str) -> str | None:
    """Why no depot may go to ``city``: one stands there, or a station does."""
    depots = state.depots
    assert depots is not None
    owner = depots.owner(city)
    if owner is not None:
        return f"{city} already has a depot (player {owner}'s)"
    for p, ps in enumerate(state.players):
        if city in ps.stations:
            return f"{city} has a station (player {p}'s): a depot cannot stand with it"
    return None


def station_problem(state: GameState, city: str) -> str | None:
    """Why no station may be built in ``city`` because of a depot (None elsewhere)."""
    owner = None if state.depots is None else state.depots.owner(city)
    if owner is not None:
        return f"{city} has a depot (player {owner}'s): a station cannot stand with it"
    return None


def place_problem(state: GameState, player: int, city: str) -> str | None:
    """Why ``player`` may not put a depot on ``city`` now (the phase and turn are checked by the caller)."""
    depots = state.depots
    if depots is None:
        return f"{state.game.title} is played without depots"
    if state.phase is Phase.TURN and (state.cards_drawn or depots.stocked or depots.claimed):
        return "a depot is placed before the turn's action"
    if depots.supply[player] <= 0:
        return f"player {player} has no depot left"
    return occupied_problem(state, city)


def stock_due(state: GameState) -> bool:
    """Whether a draw of train cards must first put a card on a warehouse now:
    at the start of a turn, with a card on the draw pile and, once it is gone,
    still something to draw (public facts: every replica decides alike)."""
    depots = state.depots
    if depots is None or state.phase is not Phase.TURN or state.cards_drawn or depots.stocked or depots.claimed:
        return False
    return bool(state.draw_pile) and (len(state.draw_pile) > 1 or bool(state.discard)
                                      or any(r is not None for r in state.face_up))


def stock_problem(state: GameState, seat: int) -> str | None:
    if state.depots is None:
        return f"{state.game.title} is played without warehouses"
    if not 0 <= seat < state.n_players:
        return f"there is no player {seat} at this table"
    if not stock_due(state):
        return "a card goes on a warehouse only before a draw of train cards, from a draw pile that has one"
    return None


def stocked(state: GameState, seat: int) -> GameState:
    """The top card of the draw pile on ``seat``'s warehouse, face down: nobody learns it."""
    assert state.depots is not None
    top, rest = state.draw_pile[0], state.draw_pile[1:]
    return state.evolve(draw_pile=rest, depots=state.depots.stock(seat, top))


def draw_problem(state: GameState, action: object) -> str | None:
    """Why ``action`` may not be played now because of the warehouses: a draw
    before its card went on a warehouse, or anything but a draw in the turn
    after it did (what follows a draw, France's track piece, still may)."""
    if state.depots is None:
        return None
    if isinstance(action, DRAWS) and stock_due(state):
        return "a draw of train cards first puts the top card of the deck on a warehouse (`warehouse SEAT`)"
    if state.depots.stocked and state.phase is Phase.TURN and not isinstance(action, DRAWS):
        return "a card went on a warehouse: this turn draws train cards"
    return None


def after_claim(state: GameState, claim: ClaimTaken) -> AfterClaim:
    """Remember the route claimed this turn: the warehouses it reaches may be emptied as the turn ends."""
    depots = state.depots
    if depots is None:
        return AfterClaim(state)
    return AfterClaim(state.evolve(depots=replace(depots, claimed=depots.claimed + (claim.route.id,))))


def reachable(state: GameState, player: int) -> tuple[int, ...]:
    """The seats whose warehouse ``player`` may empty as this turn ends: a
    depot of theirs on an end of a route claimed this turn, cards on their
    warehouse, and a depot in ``player``'s supply to give back."""
    depots = state.depots
    if depots is None or not depots.claimed or depots.supply[player] <= 0:
        return ()
    routes = state.game.board.routes
    seats = {owner for r in depots.claimed for city in routes[r].cities
             if (owner := depots.owner(city)) is not None}
    return tuple(sorted(s for s in seats if depots.warehouses[s]))


def empty_problem(state: GameState, player: int, seats: tuple[int, ...]) -> str | None:
    depots = state.depots
    assert depots is not None
    open_to = reachable(state, player)
    for seat in seats:
        if seat not in open_to:
            if not 0 <= seat < state.n_players:
                return f"there is no player {seat} at this table"
            if not depots.warehouses[seat]:
                return f"player {seat}'s warehouse is empty"
            return f"no route claimed this turn reaches a depot of player {seat}'s"
    if len(seats) > depots.supply[player]:
        return (f"emptying {len(seats)} warehouses gives back {len(seats)} depots; "
                f"player {player} has {depots.supply[player]}")
    return None


def emptied(state: GameState, player: int, seats: tuple[int, ...]) -> GameState:
    """The cards of ``seats``' warehouses in ``player``'s hand, a depot back to the box for each."""
    depots = state.depots
    assert depots is not None
    taken = tuple(ref for seat in seats for ref in depots.warehouses[seat])
    players = list(state.players)
    players[player] = replace(players[player], hand=players[player].hand + taken)
    return state.evolve(players=tuple(players), depots=depots.emptied(player, seats), phase=Phase.TURN)


def choice_due(state: GameState) -> Phase | None:
    """The phase of the warehouse choice, where the turn about to end first offers its player warehouses to empty."""
    return Phase.WAREHOUSES if reachable(state, state.current) else None


def turn_over(state: GameState) -> GameState:
    """The turn's warehouse facts forgotten as it ends."""
    depots = state.depots
    if depots is None or not (depots.stocked or depots.claimed):
        return state
    return state.evolve(depots=replace(depots, stocked=False, claimed=()))


def refill_due(state: GameState) -> bool:
    """No card in the draw pile nor the discards, a player out of depots and
    cards on the warehouses: they become the draw pile."""
    depots = state.depots
    return (depots is not None and not state.draw_pile and not state.discard
            and any(depots.warehouses) and min(depots.supply) == 0)


def refilled(state: GameState) -> GameState:
    """The warehouses' cards as the draw pile, seat by seat, each in the order put down.

    The rules shuffle them; the deck protocol needs no new shuffle for it.
    Each card is still encrypted under every seat's key and no share of it
    was ever published, so no peer knows any of them; and the order they
    came off the deck in is one of a shuffle that every seat took part in
    and proved, so given all a peer knows, every order of these cards is
    equally likely already, and a new shuffle would leave it so (protocol.md
    §6, Warehouses). Nobody steers it: a drawer chose a warehouse for a card
    nobody could see. The cards keep their references (deck, epoch,
    position): drawn again, they open as any blind draw.

    ``epoch_colored`` is raised to the number of train cards, an upper
    bound: which of these cards are locomotives is known to nobody, so
    ``drawpile.colored_in_reach`` counts them all as possible (never less than
    the truth, as it must)."""
    depots = state.depots
    assert depots is not None
    cards = depots.cards()
    return state.evolve(draw_pile=cards, epoch_colored=state.game.deck_size(Deck.TRAIN),
                        depots=replace(depots, warehouses=((),) * state.n_players))


def warehouse_cards(state: GameState) -> tuple[CardRef, ...]:
    """Every card on a warehouse (none where depots are not played)."""
    return () if state.depots is None else state.depots.cards()


def depot_parts(state: GameState, scores: tuple[PlayerScore, ...]) -> tuple[tuple[ScorePart, ...], ...]:
    """Every player's Depots part (() where depots are not played): the most
    depots left unused earn ``Rules.depot_points``, to each player tied for
    it; its count is the player's depots left (engine/endparts.py's scorer)."""
    depots = state.depots
    if depots is None:
        return ()
    most = max(depots.supply)
    points = state.game.rules.depot_points
    return tuple((ScorePart("depots", "Depots", points if left == most and most > 0 else 0, left),)
                 for left, _ in zip(depots.supply, scores, strict=True))


# ---------------------------------------------------------------------------
# The moves, and the hooks into the turn (mechanic.py)


def first_depot_due(state: GameState) -> GameState | None:
    """As the set-up ends: the first depot to place, by the last seat (None where depots are not played)."""
    first = first_placer(state)
    return None if first is None else state.evolve(phase=Phase.DEPOT_SETUP, current=first)


def place_depot(state: GameState, action: PlaceDepot, flow: TurnFlow) -> GameState:
    """A depot on a city: at set-up, the next player places theirs (then the first turn begins); in a
    turn, a free action before the turn's action."""
    setup = state.phase is Phase.DEPOT_SETUP
    expect(state, action.player, Phase.DEPOT_SETUP, Phase.TURN)
    expect_city(state, action.city)
    refuse(place_problem(state, action.player, action.city))
    assert state.depots is not None
    state = state.evolve(depots=state.depots.place(action.city, action.player))
    if not setup:
        return state
    after = next_placer(state, action.player)
    return state.evolve(phase=Phase.TURN, current=0) if after is None else state.evolve(current=after)


def stock_warehouse(state: GameState, action: StockWarehouse, flow: TurnFlow) -> GameState:
    """The deck's top card onto a warehouse, before the turn's draw."""
    expect(state, action.player, Phase.TURN)
    refuse(stock_problem(state, action.seat))
    return stocked(state, action.seat).evolve(passes=0)


def empty_warehouses(state: GameState, action: EmptyWarehouses, flow: TurnFlow) -> GameState:
    """The claimer's warehouse choice made: the turn ends."""
    expect(state, action.player, Phase.WAREHOUSES)
    refuse(empty_problem(state, action.player, action.seats))
    return flow.end_turn(emptied(state, action.player, action.seats))


MECHANIC = Mechanic(
    "depots",
    plays=lambda game: game.rules.depots > 0,
    handlers=(Handles(PlaceDepot, place_depot), Handles(StockWarehouse, stock_warehouse),
              Handles(EmptyWarehouses, empty_warehouses)),
    refuses=draw_problem,
    after_claim=after_claim,
    before_turn_ends=choice_due,
    turn_over=turn_over,
    at_start=lambda state: state.evolve(depots=at_start(state.game, state.n_players)),
    set_up=first_depot_due,
)
