"""The game in words: the log of moves, what the table waits for, the end."""

from __future__ import annotations

import re
from pathlib import Path

from client_states import NAMES, FakeTable, a_turn_of, game_states
from engine_scenario import play, position, route

from p2p_ttr.cli.seat import end_page
from p2p_ttr.client.endgame import _tiebreaks, breakdown
from p2p_ttr.client.livenessfacts import Dialled, RelaySilence
from p2p_ttr.client.giveup import relay_silence_words
from p2p_ttr.client.phrases import changes, status_of, waiting_words
from p2p_ttr.client.snapshot import Publisher
from p2p_ttr.engine.cards import Deck
from p2p_ttr.engine.events import AbandonTunnel, ClaimRoute, DrawBlind, DrawFaceUp, Pass, PayTunnel
from p2p_ttr.engine.outcome import final_score
from p2p_ttr.engine.rules import apply
from p2p_ttr.engine.scoring import PlayerScore
from p2p_ttr.engine.state import GameState, Phase
from p2p_ttr.engine.view import view_for
from p2p_ttr.net.playerinput import Seen
from p2p_ttr.table.logfile import write_log
from p2p_ttr.table.obligations import Obligation, Owed


def told(states: tuple[GameState, ...], seat: int = 0) -> list[str]:
    lines: list[str] = []
    for before, after in zip(states, states[1:]):
        lines += changes(view_for(before, seat), view_for(after, seat), seat, NAMES)
    return lines


def test_claims_and_draws_in_words() -> None:
    state, cards = position(3, hands={0: ["orange"] * 3}, face_up=("red", "blue", "green", "yellow", "black"))
    claimed = play(state, ClaimRoute(0, route("Paris", "Frankfurt", "orange"), state.players[0].hand))
    assert changes(view_for(state, 1), view_for(claimed, 1), 1, NAMES) == [
        "Ann claimed Frankfurt–Paris (orange, 3) for 4 points"]
    assert changes(view_for(state, 0), view_for(claimed, 0), 0, NAMES)[0].startswith("You claimed Frankfurt–Paris")
    drew = play(state, DrawFaceUp(0, 1))
    assert changes(view_for(state, 1), view_for(drew, 1), 1, NAMES) == ["Ann took 1 blue from the face-up row"]
    blind = play(drew, DrawBlind(0))
    assert changes(view_for(drew, 1), view_for(blind, 1), 1, NAMES) == ["Ann drew 1 card from the deck"]


def test_a_whole_game_reads_as_a_story() -> None:
    lines = told(game_states())
    assert any(re.fullmatch(r"(You|Bob|Cid) claimed \w+–\w+ \(\w+, \d\) for \d+ points?", line) for line in lines)
    assert any(line.startswith("You drew") and "from the deck" in line for line in lines)  # our own faces
    assert any(re.fullmatch(r"(Bob|Cid) drew \d cards? from the deck", line) for line in lines)
    assert any(line.startswith("FINAL ROUND:") for line in lines)
    assert lines[-1] == "the game is over: every ticket is turned over for the final count"
    assert "everyone has chosen their tickets; you play first" in lines
    assert any(re.fullmatch(r"(Bob|Cid) kept \d tickets?(; returned \d)?", line) for line in lines)


def test_waiting_words() -> None:
    state, _ = position(3)
    view = view_for(state, 0)
    assert waiting_words([Obligation(1, Owed.SHARES, drawn=1, drawn_by=(0,))], view, 0, NAMES) == "waiting for Bob's share"
    assert waiting_words([Obligation(0, Owed.MOVE)], view, 0, NAMES) == "your move: draw, claim, tickets or station"
    assert waiting_words([Obligation(1, Owed.MOVE)], view, 0, NAMES) == "waiting for Bob's move"
    both = waiting_words([Obligation(1, Owed.SHARES), Obligation(2, Owed.SHARES)], view, 0, NAMES)
    assert both == "waiting for Bob and Cid to add their share to the cards being turned"
    assert waiting_words([Obligation(2, Owed.SHUFFLE, (Deck.TRAIN, 0))], None, 0, NAMES) == \
        "waiting for Cid to shuffle the deck"
    assert waiting_words([], view, 0, NAMES) == ""


def test_publisher_snapshots_only_on_change_and_logs_the_moves() -> None:
    clock = [0.0]
    publisher = Publisher("join", clock=lambda: clock[0])
    table = FakeTable()
    states = game_states()
    assert publisher.update(table, 0, NAMES) is not None  # type: ignore[arg-type]
    assert publisher.update(table, 0, NAMES) is None  # type: ignore[arg-type]
    for i, state in enumerate(states[:400]):
        table.engine, table.log = state, [b""] * i
        publisher.update(table, 0, NAMES)  # type: ignore[arg-type]
    snap = publisher.snapshot
    assert snap.view is not None and snap.view.private.keys() <= set(states[399].players[0].hand
                                                                       + states[399].players[0].tickets
                                                                       + states[399].players[0].offered)
    moves = [text for _, text in snap.log]
    assert moves == told(states[:400])[: len(moves)] and len(moves) > 50
    table.owed = [Obligation(1, Owed.SHARES)]
    clock[0] += 5.0
    assert publisher.update(table, 0, NAMES) is not None  # type: ignore[arg-type]
    assert publisher.snapshot.status == "waiting for Bob's share (5 s)"
    publisher.note("a note from the loop")
    assert publisher.update(table, 0, NAMES) is not None  # type: ignore[arg-type]
    assert publisher.snapshot.log[-1] == ("class:note", "a note from the loop")


def test_a_forfeit_is_told_once_before_the_moves_the_table_makes_for_the_seat() -> None:
    before, after = a_turn_of(2)
    publisher = Publisher("join")
    table = FakeTable(before, in_play=(0, 1, 2))
    publisher.update(table, 0, NAMES)  # type: ignore[arg-type]
    assert publisher.snapshot.forfeited == ()
    table.forfeited[2] = object()  # its published secrets: the client reads only the seat
    table.in_play = (0, 1)  # two seats play on
    table.engine = after  # the caretaker has played the seat's turn
    snap = publisher.update(table, 0, NAMES)  # type: ignore[arg-type]
    assert snap is not None and snap.forfeited == (2,)
    assert snap.log == (
        ("class:log.forfeit", "Cid forfeited: the table plays their seat from now on (their cards are shown)"),
        ("class:log.move", "the tunnel turned up 1 orange, 1 green and 1 blue: nothing more to pay"),
        ("class:log.move", "Cid claimed Angora–Constantinople (gray, 2) for 2 points"))
    assert publisher.update(table, 0, NAMES) is None  # type: ignore[arg-type]  # said once
    resumed = Publisher("join").update(table, 2, NAMES)  # type: ignore[arg-type]  # the leaver's own replica
    assert resumed is not None and resumed.log == (
        ("class:log.forfeit", "You forfeited: the table plays your seat from now on (your cards are shown)"),)


def test_the_final_breakdown() -> None:
    final = game_states()[-1]
    lines = breakdown(final, NAMES, 0)
    text = "\n".join(lines)
    score = final_score(final)
    assert lines[0] == "FINAL SCORE"
    for p, name in enumerate(NAMES):
        assert f"{name}: {score.players[p].total} point" in text
    assert text.count("ticket ") >= sum(len(ps.tickets) for ps in final.players)
    assert "not built x 4" in text and "longest trail" in text and "the European Express" in text
    assert re.search(r"(Ann|Bob|Cid)( and \w+)* (wins|share the win) with \d+ points\.", lines[-1])


def test_tie_breaks_are_explained() -> None:
    def score(total: int, done: int, stations: int) -> PlayerScore:
        return PlayerScore(0, 0, 0, 0, total, 0, done, stations, (), ())
    players = (score(50, 3, 1), score(50, 2, 0), score(50, 2, 0))
    lines = _tiebreaks((0, 1, 2), players, NAMES)
    assert lines == ["    Ann and Bob tie on points; Ann is ahead on completed tickets",
                     "    Bob and Cid tie on every tie-break and share their place"]


def test_the_last_page_of_the_full_screen(tmp_path: Path) -> None:
    table = FakeTable(game_states()[-1])
    table.complete = True
    title, lines = end_page(Seen(table, 0, NAMES), tmp_path / "game.log", 0)  # type: ignore[arg-type]
    assert title == "The end" and lines[0] == "FINAL SCORE" and "AUDIT" in lines
    assert lines[-1] == f"anyone can check it again: ttr verify {tmp_path / 'game.log'}"
    write_log(tmp_path / "game.log", bytes(16), [b"\x00"])  # a log there: the audit's lines too
    title, lines = end_page(Seen(table, 0, NAMES), tmp_path / "game.log", 0)  # type: ignore[arg-type]
    assert any(line.startswith("audit of the 1 entries played") for line in lines)
    assert "\n".join(lines).count(str(tmp_path / "game.log")) == 1, lines  # the page names the log once
    table.complete = False
    title, lines = end_page(Seen(table, 0, NAMES), tmp_path / "game.log", 1)  # type: ignore[arg-type]
    assert title == "The game stopped" and "ttr verify" in lines[-1]
    # Refused before any game (no log): why, in full, and no "None" for a log.
    why = "the host at 127.0.0.1:7311 opened a new game, but game 1234abcd with it is not finished: " * 2
    title, lines = end_page(Seen(stopped=why), None, 1)
    assert title == "Not in a game" and lines == [why]


def test_the_deck_duties_are_said_without_jargon() -> None:
    """What the table waits for, in a player's words: no 'prove', no 're-encrypt', no 'keys'."""
    for owed in (Owed.KEYS, Owed.SHUFFLE, Owed.REMASK, Owed.SHUFFLE_PROOF, Owed.REMASK_PROOF, Owed.SHARES):
        said = waiting_words([Obligation(1, owed)], None, 0, NAMES)
        assert said.startswith(f"waiting for {NAMES[1]}") and not any(
            jargon in said for jargon in ("prove", "encrypt", "keys", "fold", "_")), said
    mine = waiting_words([Obligation(0, Owed.SHUFFLE_PROOF)], None, 0, NAMES)
    assert mine == "your machine is working on its part of the deck"


def test_the_status_says_when_passing_is_all_that_is_left() -> None:
    nothing = {"face_up": [None] * 5, "draw_pile": [], "discard": [], "ticket_pile": []}
    stuck, _ = position(hands={0: ["red"]}, trains={0: 0}, stations={0: ["Paris", "Wien", "Roma"]}, **nothing)
    owed = [Obligation(0, Owed.MOVE)]
    assert waiting_words(owed, view_for(stuck, 0), 0, NAMES[:2]) == \
        "your move: nothing can be drawn, claimed or built: pass"
    able, _ = position(hands={0: ["red", "red"]}, **nothing)
    assert "pass" not in waiting_words(owed, view_for(able, 0), 0, NAMES[:2])
    after = play(stuck, Pass(0))
    assert "Ann passed: nothing left to draw, claim or build" in changes(stuck, after, 1, NAMES[:2])


def test_a_tunnel_that_asks_nothing_more_says_what_it_turned() -> None:
    """Seen at once (the claim and its turned cards in one update) or in two
    steps (the claim, then the turning): the turned cards are told, the paid
    ones are not, and the claim follows."""
    sarajevo_sofia = route("Sarajevo", "Sofia")
    state, _ = position(hands={0: ["red", "red"]}, draw_pile=["blue", "white", "green", "white", "white", "white"])
    claim = ClaimRoute(0, sarajevo_sofia, state.players[0].hand)
    after = play(state, claim)
    assert after.route_owner[sarajevo_sofia] == 0
    said = changes(view_for(state, 1), view_for(after, 1), 1, NAMES)
    assert said[0] == "the tunnel turned up 1 blue, 1 white and 1 green: nothing more to pay", said
    assert said[-1].startswith("Ann claimed Sarajevo–Sofia")
    asked = apply(state, claim)  # the claim alone: the table waits to turn the cards
    assert asked.tunnel is not None and asked.route_owner[sarajevo_sofia] is None
    said = changes(view_for(asked, 1), view_for(after, 1), 1, NAMES)
    assert "the tunnel turned up 1 blue, 1 white and 1 green: nothing more to pay" in said, said
    # A tunnel that asked one more red, paid, seen in one update: never "nothing more to pay".
    state, _ = position(hands={0: ["red", "red", "red"]}, draw_pile=["red", "blue", "white", "white", "white"])
    asked = play(state, ClaimRoute(0, sarajevo_sofia, state.players[0].hand[:2]))
    assert asked.phase is Phase.TUNNEL and asked.tunnel is not None and asked.tunnel.extra == 1
    paid = play(asked, PayTunnel(0, tuple(r for r in asked.players[0].hand if r not in asked.tunnel.cards)))
    assert paid.route_owner[sarajevo_sofia] == 0
    said = changes(view_for(state, 1), view_for(paid, 1), 1, NAMES)
    assert not any("nothing more to pay" in line for line in said), said


def test_a_tunnel_the_table_decides_in_the_update_that_turns_it_says_what_it_turned() -> None:
    """A seat the table plays answers its tunnel in the entry that turns the cards (issue 43: 'went for the
    tunnel' then 'gave up the tunnel', never what it turned): the turned cards are told as a player's are,
    what they asked included, before the giving up or the claim."""
    angora = route("Angora", "Constantinople")
    for hand, answer, last in ((["red", "red"], "gave up", "Ann gave up the tunnel Angora–Constantinople"),
                               (["red", "red", "red"], "paid", "Ann claimed Angora–Constantinople (gray, 2)")):
        state, _ = position(3, hands={0: hand}, draw_pile=["red", "purple", "orange", "white", "white"])
        went = apply(state, ClaimRoute(0, angora, state.players[0].hand[:2]))  # the table waits to turn them
        turned = play(went)
        assert turned.phase is Phase.TUNNEL and turned.tunnel is not None and turned.tunnel.extra == 1
        extra = tuple(r for r in turned.players[0].hand if r not in turned.tunnel.cards)
        done = play(turned, PayTunnel(0, extra) if answer == "paid" else AbandonTunnel(0))
        assert changes(view_for(state, 1), view_for(went, 1), 1, NAMES) == [
            "Ann went for the tunnel Angora–Constantinople (gray, 2, tunnel)"]
        said = changes(view_for(went, 1), view_for(done, 1), 1, NAMES)
        assert said[0] == "the tunnel turned up 1 red, 1 purple and 1 orange: Ann must pay 1 more or give it up"
        assert said[1].startswith(last) and len(said) == 2, said


def test_the_status_says_which_awaited_seat_sends_no_heartbeat() -> None:
    """A seat we wait for that the relay calls silent is not thinking: the
    status says so first (a narrow screen cuts the end of the line); a
    silent seat we do not wait for, or our own move, adds nothing."""
    state, _ = position(3)
    view = view_for(state, 0)
    bob_moves = [Obligation(1, Owed.MOVE)]
    assert status_of(bob_moves, view, 0, NAMES, {1: 25}).aside == "no heartbeat from Bob (25 s)"
    both = status_of([Obligation(1, Owed.SHARES), Obligation(2, Owed.SHARES)], view, 0, NAMES, {2: 3, 1: 25})
    assert both.aside == "no heartbeat from Bob (25 s), Cid (3 s)"
    assert status_of(bob_moves, view, 0, NAMES, {2: 25}).aside == ""
    assert status_of(bob_moves, view, 0, NAMES).aside == ""
    assert status_of([Obligation(0, Owed.MOVE)], view, 0, NAMES, {1: 25}).aside == ""
    clock = [0.0]
    publisher = Publisher("join", clock=lambda: clock[0])
    table = FakeTable(state)
    table.owed = bob_moves
    publisher.update(table, 0, NAMES)  # type: ignore[arg-type]
    clock[0] += 30.0
    publisher.update(table, 0, NAMES, silent={1: 22})  # type: ignore[arg-type]
    assert publisher.snapshot.status == "no heartbeat from Bob (22 s); waiting for Bob's move (30 s)"
    clock[0] += 1.0
    publisher.update(table, 0, NAMES)  # type: ignore[arg-type]  # heard again
    assert publisher.snapshot.status == "waiting for Bob's move (31 s)"


def test_the_status_says_first_when_the_peer_we_follow_sends_nothing() -> None:
    """The relay (or the host, or the seat that relays next) sends nothing,
    heartbeats included: no move can be sequenced, so the status line says
    so first, on our own move too (what we send now waits for it), and
    before the seats it calls silent."""
    state, _ = position(3)
    view = view_for(state, 0)
    host = RelaySilence(Dialled.HOST, 0, 8)
    assert relay_silence_words(host, NAMES) == "no word from the host, Ann (8 s)"
    assert relay_silence_words(RelaySilence(Dialled.HOST, None, 4), NAMES) == "no word from the host (4 s)"
    assert relay_silence_words(RelaySilence(Dialled.RELAY, 2, 9), NAMES) == "no word from the relay, Cid (9 s)"
    assert relay_silence_words(RelaySilence(Dialled.NEXT_RELAY, 2, 9), NAMES) == "no word from Cid, who relays next (9 s)"
    assert relay_silence_words(None, NAMES) == ""
    ours = status_of([Obligation(1, Owed.MOVE)], view, 1, NAMES, None, host)
    assert ours.our_move and ours.aside == "no word from the host, Ann (8 s)"
    both = status_of([Obligation(2, Owed.MOVE)], view, 1, NAMES, {2: 30}, host)
    assert both.aside == "no word from the host, Ann (8 s); no heartbeat from Cid (30 s)"
    clock = [100.0]
    publisher = Publisher("join", clock=lambda: clock[0])
    table = FakeTable(state)
    table.owed = [Obligation(1, Owed.MOVE)]
    publisher.update(table, 1, NAMES)  # type: ignore[arg-type]
    assert publisher.snapshot.status.startswith("your move")
    clock[0] += 5.0
    publisher.update(table, 1, NAMES, relay_silent=RelaySilence(Dialled.HOST, 0, 5))  # type: ignore[arg-type]
    assert publisher.snapshot.status.startswith("no word from the host, Ann (5 s); your move")


def test_before_the_seating_a_silent_host_is_said_on_the_status_line() -> None:
    """A joiner dialling a host that does not answer is told so on the
    status line, to the second (not by a log note repeated every 5 s)."""
    clock = [100.0]
    publisher = Publisher("join", clock=lambda: clock[0])
    publisher.update(None, None, ())
    assert publisher.snapshot.status == ""
    clock[0] += 1.0
    publisher.update(None, None, (), relay_silent=RelaySilence(Dialled.HOST, None, 7))
    assert publisher.snapshot.status == "no word from the host (7 s)"
    clock[0] += 1.0
    publisher.update(None, None, ())  # it answered
    assert publisher.snapshot.status == ""


def test_once_the_loop_stopped_the_status_waits_for_nobody() -> None:
    """After the end (or a pause) nothing is awaited: not 'waiting for Bob's
    share' under the last page, however the table stood."""
    state, _ = position(3)
    clock = [100.0]
    publisher = Publisher("join", clock=lambda: clock[0])
    table = FakeTable(state, owed=[Obligation(1, Owed.SHARES)])
    publisher.update(table, 0, NAMES)  # type: ignore[arg-type]
    assert publisher.snapshot.status == "waiting for Bob's share"
    assert publisher.stop("Paused").status == "Paused"
    clock[0] += 10.0
    publisher.update(table, 0, NAMES)  # type: ignore[arg-type]
    assert publisher.snapshot.status == "Paused" and not publisher.snapshot.our_move


def test_two_views_across_a_turn_tell_the_moves_in_the_order_they_were_played() -> None:
    """Two views that span the end of one seat's turn and the next seat's
    move (a seat the table plays draws its second card as the next player's
    entries come in, so one update holds both): the seat whose turn it was
    comes first, whatever the seat numbers ('Cid drew 1 card / Ann claimed
    ... / Cid drew 1 card' told Ann's claim in the middle of Cid's turn)."""
    states = game_states()
    found = 0
    for i in range(1, len(states) - 2):
        before = states[i]
        if before.phase is not Phase.TURN or before.current != 2 or before.cards_drawn != 1:
            continue
        later = next((j for j in range(i + 1, min(i + 12, len(states)))
                      if states[j].current == 0 and len(states[j].players[0].routes) > len(before.players[0].routes)),
                     None)
        if later is None or len(states[later].players[2].hand) <= len(before.players[2].hand):
            continue
        lines = changes(before, states[later], None, NAMES)
        cid = next(k for k, line in enumerate(lines) if line.startswith(f"{NAMES[2]} "))
        ann = next(k for k, line in enumerate(lines) if line.startswith(f"{NAMES[0]} claimed"))
        assert cid < ann, lines
        found += 1
    assert found, "the game has no second card of seat 3 followed by a claim of seat 1"
