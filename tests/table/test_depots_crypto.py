"""Europe 1912's warehouses over the mental-poker deck (protocol.md §6,
Warehouses): a card put on a warehouse leaves the deck to no one (no seat
releases a share of it, the drawer included) and later opens to one (the
player who empties the warehouse, by the others' shares, as a blind draw);
the warehouses refill the draw pile with their cards still closed; `ttr
verify` audits it all and blames a seat that sends a share of a warehouse
card, or empties a warehouse no depot of its claim reaches."""

from __future__ import annotations

import functools

from doctored_logs import bodies, resigned

from p2p_ttr.bots.random_bot import RandomBot
from p2p_ttr.cli.commands.verify import report_lines
from p2p_ttr.engine import depots
from p2p_ttr.engine.boards import load_game
from p2p_ttr.engine.cards import CardRef
from p2p_ttr.engine.events import EmptyWarehouses
from p2p_ttr.engine.state import GameState
from p2p_ttr.errorcodes import ErrorCode
from p2p_ttr.deck import make_share
from p2p_ttr.local.crypto_game import CryptoGame, play_crypto_game
from p2p_ttr.table.cards import deck_ref
from p2p_ttr.table.envelope import open_envelope
from p2p_ttr.table.messages import Audit, Shares, message_from_wire
from p2p_ttr.table.table import PeerSecrets, Table
from p2p_ttr.table.verify import verify_entries

DEPOTS = load_game("europe", "depots")
NAMES = ("Anna", "Boris", "Chiara")


@functools.cache
def three_seats() -> CryptoGame:
    """Random players use their depots freely, so supplies run out and the warehouses refill the deck."""
    return play_crypto_game(2, [RandomBot(20 + p) for p in range(3)], NAMES, game=DEPOTS)


@functools.cache
def folded() -> tuple[GameState, ...]:
    """The public game after each entry of the log, as any replica folds it (None before the keys: left out)."""
    table, states = Table(), []
    for raw in three_seats().log:
        table.receive(raw)
        assert table.engine is None or table.engine.depots is None or not any(
            table.shares.get(ref) for ref in table.engine.depots.cards()), "a share of a warehouse card"
        states.append(table.engine)
    return tuple(states)  # type: ignore[arg-type]


def acts(kind: str) -> list[int]:
    return [i for i, body in enumerate(bodies(three_seats().log)) if body[0] == "act" and body[1][0] == kind]


def test_a_game_with_warehouses_verifies_and_plays_every_part_of_them() -> None:
    verdict = verify_entries(three_seats().log)
    assert verdict.fair, [f.line() for f in verdict.findings]
    assert acts("warehouse") and acts("depot")
    taken = [i for i in acts("empty_warehouses") if bodies(three_seats().log)[i][1][2]]
    assert taken
    states = folded()
    refilled = [i for i in range(1, len(states)) if states[i - 1] is not None and states[i] is not None
                and any(r.epoch < states[i].epoch for r in states[i].draw_pile)]
    assert refilled, "the warehouses never became the draw pile"


def test_no_seat_ever_sends_a_share_of_a_card_on_a_warehouse() -> None:
    """Checked after every entry by ``folded``: no share of a card while it lies on a warehouse."""
    states = folded()
    assert max(len(s.depots.cards()) for s in states if s is not None and s.depots is not None) > 0


def first_known(seat: int | None, ref: CardRef) -> int | None:
    """The first entry after which ``seat``'s replica (None: one with no secret) knows the face of ``ref``."""
    log = three_seats().log
    table = Table(None if seat is None else PeerSecrets(seat, secret_of(log, seat).secret, secret_of(log, seat).seed))
    for index, raw in enumerate(log):
        table.receive(raw)
        if table.engine is not None and table.engine.face(ref) is not None:
            return index
    return None


def test_an_emptied_warehouse_opens_to_its_collector_alone() -> None:
    log = three_seats().log
    states = folded()
    entry = next(i for i in acts("empty_warehouses") if bodies(log)[i][1][2])
    collector, seats = bodies(log)[entry][1][1:3]
    card = states[entry - 1].depots.warehouses[seats[0]][0]  # type: ignore[union-attr]
    assert card in states[entry].players[collector].hand
    opened = first_known(collector, card)
    assert opened is not None and entry < opened
    public = first_known(None, card)
    assert public is None or opened < public
    for other in set(range(3)) - {collector}:
        assert first_known(other, card) == public  # the others see it only if it is played


def secret_of(log: list[bytes], seat: int) -> Audit:
    for raw in log:
        envelope = open_envelope(raw)
        if envelope.body[0] == "audit" and envelope.seat == seat:
            audit = message_from_wire(envelope.body)
            assert isinstance(audit, Audit)
            return audit
    raise AssertionError(f"seat {seat} revealed nothing")


def test_a_share_of_a_warehouse_card_sent_early_is_refused_and_its_author_blamed() -> None:
    log = three_seats().log
    stock = acts("warehouse")[0]
    table = Table()
    for raw in log[: stock + 1]:
        table.receive(raw)
    assert table.engine is not None and table.engine.depots is not None
    card: CardRef = table.engine.depots.cards()[0]
    entry = next(i for i in range(stock + 1, len(log)) if bodies(log)[i][0] == "shares")
    seat = open_envelope(log[entry]).seat
    early = make_share(secret_of(log, seat).secret, deck_ref(card), table.chains.ciphertext(card))
    verdict = verify_entries(resigned(log, {entry: Shares((early,)).to_wire()}))
    first = verdict.findings[0]
    assert (first.entry, first.seat, first.code) == (entry, seat, ErrorCode.NOT_EXPECTED)
    assert f"owes no share for card {card}" in first.reason


def test_emptying_a_warehouse_no_depot_of_the_claim_reaches_is_refused_and_the_player_blamed() -> None:
    log = three_seats().log
    states = folded()
    entry, seat = next((i, s) for i in acts("empty_warehouses") for s in range(3)
                       if s not in depots.reachable(states[i - 1], bodies(log)[i][1][1])
                       and states[i - 1].depots.warehouses[s])  # type: ignore[union-attr]
    player = bodies(log)[entry][1][1]
    forged = ["act", ["empty_warehouses", player, [seat]]]
    assert message_from_wire(forged).action == EmptyWarehouses(player, (seat,))  # type: ignore[attr-defined]
    verdict = verify_entries(resigned(log, {entry: forged}))
    first = verdict.findings[0]
    assert (first.entry, first.seat, first.code) == (entry, player, ErrorCode.ILLEGAL_MOVE)
    assert f"no route claimed this turn reaches a depot of player {seat}'s" in first.reason


def test_verify_says_which_cards_lay_on_which_warehouse() -> None:
    verdict = verify_entries(three_seats().log)
    lines = report_lines(verdict, verbose=False)
    assert verdict.table.engine is not None and verdict.table.engine.depots is not None
    taken = verdict.table.engine.depots.taken
    head = next(i for i, line in enumerate(lines) if line.startswith("warehouses: "))
    assert f"{len(taken)} warehouses emptied" in lines[head]
    collector, seat, refs = taken[0]
    first = lines[head + 1]
    assert first.startswith(f"  seat {collector + 1} {NAMES[collector]} took seat {seat + 1} {NAMES[seat]}'s warehouse: ")
    assert len(first.split(": ", 1)[1].split(", ")) == len(refs)
