"""What the peer reports to its player (client/netnotices.py), in the words
networds.py gives it: one sample of every fact, worded as net/ wrote it
before it handed up facts; and nothing a peer sent reaches a screen raw."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest

from p2p_ttr.client.doorfacts import Door, DoorDetail, DoorKind, Dropped, Dropping, FirstAtDoor, MoreAtDoor
from p2p_ttr.client.livenessfacts import (Awaited, Dialled, OtherGaveUp, SeatGaveUp, Stall, StalledAsk, Waiting,
                                          WaitingFor, WaitingForFollowed, Why)
from p2p_ttr.client.netnotices import (AskingCarryOn, CannotGoOn, CarriedOnUs, CarryOnTooLate, EveryOtherLostRelay,
                                       FollowsUs, ForfeitConcedes, ForfeitSaid, ForfeitWord, GameReloaded,
                                       GameResumed, GameStarted, GameStarts, HandOverWhileAway, JoinedLobby,
                                       LeftLobby, LobbyNow, LobbySaid, LobbyWord, MetaRebuilt, MoreToJoin, NameTaken,
                                       Notice, OursHeldBack, OwnMessageRefused, Refetched, RelayAnswersAgain,
                                       RelayElsewhere, RelayHoldsBack, RelayLoss, RelayLost, RelayMoved,
                                       RelayingAgain, RollCall, SeatBack, SentNone, StartFailed, StoppedUnanswered,
                                       TableRefused, Unreachable, WaitsForPlace, WatchedHandOver, WatchedSilent,
                                       WatcherGone, WatcherJoined, WatcherLeft, WatchingFrom, WitnessRefused,
                                       WrongKey)
from p2p_ttr.client.exitwords import NOT_A_GAME, word_end
from p2p_ttr.client.networds import DOORS, DROPPINGS, LOBBY_WORDS, history_head, pauser_words, word_notice
from p2p_ttr.client.peerexits import (CannotPlayThere, DifferentHost, Equivocated, FollowedSilent, ForfeitedEnded,
                                      ForfeitedGoesOn, GaveUpHeldBack, GaveUpNotBack, GaveUpStalled, HidEntries,
                                      HostNotSeated, HostRefusedUs, HostResume, HostSwitched, KeepsRefusing,
                                      LobbyClosedByHost, LogLacksEntries, NoHostAt, NoHostSeen, NoReceipt,
                                      NoSeatAnswers, NotASeat, NothingAnswered, OtherGameOpened, OtherProtocol,
                                      OwnHandOverRefused, PeerEnd, PlayingAnother, RefusedRelayEntry,
                                      SignedEntryUnfolding, StartedWithoutUs, TooFewJoined, WatchRefused,
                                      WatchedEntryUnfolding)
from p2p_ttr.net.console import Console
from p2p_ttr.table.escrowbook import Blocked
from p2p_ttr.table.obligations import Owed

NAMES = ("Ann", "Bob", "Cy")
SAMPLES: list[tuple[Notice, str]] = [
    (RelayLost(0, RelayLoss.LEFT, 1), "the relay (Ann) left the game: turning to Bob, who relays next"),
    (RelayLost(0, RelayLoss.SILENT, 2, True, 20.0),
     "the relay (Ann) has been silent for 20 s: we relay next, once every other seat in play turns to us"),
    (RelayLost(0, RelayLoss.OUT_OF_REACH, 1, shown_by=2),
     "the relay (Ann) is out of Cy's reach (Cy turned to Bob and showed us its signed request): turning to Bob, "
     "who relays next"),
    (RelayLost(0, RelayLoss.HOLDS_BACK, None), "the relay (Ann) holds back a seat's message and no seat is left to relay"),
    (Unreachable(2), "Cy never said where it accepts connections: we cannot reach it"),
    (EveryOtherLostRelay(0), "every other seat lost the relay (Ann): we relay next"),
    (RelayAnswersAgain(0), "the relay (Ann) answers again: we go on with it"),
    (RelayMoved(0, 1), "the relay moved from Ann to Bob"),
    (RelayMoved(0, 1, True), "the relay moved from Ann to Bob: we relay from now on"),
    (HandOverWhileAway(1, 40, 1), "the relay moved to Bob at entry 40 while we were away: our 1 later entry, which "
                                  "no other seat held, is dropped; we play on from the hand-over"),
    (HandOverWhileAway(1, 40, 3), "the relay moved to Bob at entry 40 while we were away: our 3 later entries, which "
                                  "no other seat held, are dropped; we play on from the hand-over"),
    (RelayElsewhere(1), "the relay moved to Bob in this game: connecting there"),
    (RelayingAgain(), "we relayed this game when we stopped: relaying again, once every seat in play says how much "
                      "of the log it holds (or following the seat that relays now)"),
    (FollowsUs(2, 0), "Cy lost the relay (Ann) and follows us now"),
    (SeatBack(1, True), "Bob is back"),
    (SeatBack(1, False), "Bob reached us (we relay next if the relay is gone)"),
    (WaitsForPlace("Dee", NAMES), "Dee waits for a place: the lobby is full (Ann, Bob, Cy)"),
    (JoinedLobby("Bob", 2, 0), "Bob joined (2): press Enter to start"),
    (JoinedLobby("Bob", 2, 3), "Bob joined (2 of 3)"),
    (LeftLobby("Bob", ("Ann",)), "Bob left: 1 in the lobby (Ann)"),
    (LeftLobby("Bob", ("Ann", "Dee"), 5.0, "Dee"),
     "Bob left the lobby (silent for 5 s): 2 in the lobby (Ann, Dee), Dee took the place"),
    (RollCall(5.0), "the lobby is full: the game starts once every member answers (one silent for 5 s is dropped)"),
    (LobbyNow(("Ann", "Bob"), True, 3), "in the lobby: Ann, Bob (starting at 3)"),
    (LobbyNow(("Ann", "Bob"), False), "the lobby is full: you wait for a place (one frees if a member leaves or goes "
                                      "silent); in it: Ann, Bob"),
    (NameTaken("Root", "Root2"), "the name 'Root' is taken at this table: joining as 'Root2'"),
    (LobbySaid(LobbyWord.ESCROW_NEEDS_THREE), "escrow needs at least 3 players: wait for one more"),
    (LobbySaid(LobbyWord.NEEDS_TWO), "a game needs at least 2 players: wait for someone to join"),
    (LobbySaid(LobbyWord.CLOSED), "closed the lobby: no game was started"),
    (StartFailed(("Ann", "Bob")), "the game did not start: press Enter to start with Ann, Bob"),
    (StartFailed(("Ann",)), "the game did not start: wait for someone to join"),
    (MoreToJoin(2), "waiting for 2 more to join"),
    (GameStarted(bytes(16)), f"game {'0' * 32} started: Ann (red), Bob (blue), Cy (green)"),
    (GameStarts(1), "the game starts: you are seat 2 (blue); Ann (red), Bob (blue), Cy (green)"),
    (GameStarts(None), "the game starts: Ann, Bob, Cy"),
    (GameResumed("ab" * 16, 29), f"resumed game {'ab' * 16} at turn 29"),
    (GameReloaded(bytes.fromhex("3fa2c1d0") + bytes(12), None), "reloaded game 3fa2c1d0 before the first turn"),
    (MetaRebuilt(Path("games/x/meta.json")), "rebuilt games/x/meta.json from the log"),
    (StoppedUnanswered(True), "stopped before the host answered; our game is kept: the same command resumes it"),
    (StoppedUnanswered(False), "left the lobby before the game started"),
    (Refetched(1, 3, 5), "our log had lost entries 3-5: fetched them from Bob, with their relay's signature"),
    (SentNone(1, 12), "Bob said it holds 12 entries but sent none: we do not count it as following us"),
    (OwnMessageRefused("replay", "seat 1 already sent message 4"),
     "our own message was refused (replay): seat 1 already sent message 4"),
    (TableRefused("unknown_head", "no such head"),
     'the table refused our message: it was written on a log the relay does not hold (its words: "no such head")'),
    (TableRefused("bogus", ""), "the table refused our message: for a reason we do not know (bogus)"),
    (CarryOnTooLate("not expected"), 'our request to carry a seat on came too late: the seat came back, or the relay '
                                     'moved, first (its words: "not expected")'),
    (CarriedOnUs(17), "your seat was carried on by the others at entry 17: the others had not heard it for the relay "
                      "timeout (it was away, or cut off from the relay), so they opened its key from escrow and the "
                      "table plays it now; you watch the rest of the game"),
    (AskingCarryOn(1, 20.0), "Bob has been silent for 20 s: asking the others to carry their seat on (escrow)"),
    (CannotGoOn(Blocked((1, 2), None, None)),
     "the game cannot go on for now: Bob and Cy are silent at once, and carrying a seat on takes every other seat in "
     "play (escrow), so none of them can be while another is silent; it goes on if they come back (`end` stops "
     "here; `ttr verify` on the log audits what was played)"),
    (CannotGoOn(Blocked((1,), 2, 30)),
     "the game cannot go on for now: Bob is silent and cannot be carried on: Cy left the game at entry 30, taking "
     "its share of every seat's escrowed key with it (nobody else can open it); it goes on if that player comes "
     "back (`end` stops here; `ttr verify` on the log audits what was played)"),
    (ForfeitSaid(ForfeitWord.TOO_LATE), "the game is over before our forfeit went out: nothing to forfeit"),
    (ForfeitSaid(ForfeitWord.GAME_OVER), "the game is over: there is nothing to forfeit"),
    (ForfeitSaid(ForfeitWord.GOES_ON, True), "forfeiting: publishing our secrets so the game goes on; from now on "
                                             "the table plays our seat and the next seat relays"),
    (ForfeitConcedes(1), "forfeiting: publishing our secrets; that leaves Bob alone in play, so the game ends, "
                         "conceded to them"),
    (ForfeitConcedes(None), "forfeiting: publishing our secrets; that leaves nobody in play, so the game ends"),
    (WitnessRefused(1, "stale"), "the relay refused the message Bob showed us directly (stale): it was not the "
                                 "relay holding the game back"),
    (RelayHoldsBack(0, 1, 8.4, True), "the relay (Ann) holds back Bob's message: Bob sent it to us directly 8 s ago, "
                                      "and the relay, which answers, has not sequenced it: the game waits for the "
                                      "relay, not for Bob; the relay counts as gone (escrow): we turn to the next seat"),
    (OursHeldBack(0, 12.0), "the relay (Ann) has not sequenced our message for 12 s though it answers: we show it to "
                            "the other seats directly, so that they see it is the relay that holds the game back"),
    (WatcherJoined(2), "a watcher joined (2 watching)"),
    (WatcherLeft(WatcherGone.FLOODED, 20.0, 1), "a watcher sent more than 20 frames a second: it is no longer sent "
                                                "the game (1 watching)"),
    (WatcherLeft(WatcherGone.IDLE, 12.0, 16), "a watcher read nothing for 12 s and gave its place to a new watcher: "
                                              "it is no longer sent the game (16 watching)"),
    (WatcherLeft(WatcherGone.SILENT, 10.0, 0), "a watcher was silent for 10 s: it is no longer sent the game "
                                               "(0 watching)"),
    (WatchingFrom(1, True), "watching from Bob, who relays next"),
    (WatchedSilent("10.0.0.2:7311", 2), "10.0.0.2:7311 is silent: trying Cy"),
    (WrongKey("10.0.0.2:7311", 1), "10.0.0.2:7311 answers with a key that is not Bob's: trying another seat"),
    (WatchedHandOver(1, 40, 2), "the relay moved to Bob at entry 40: the 2 later entries we had, which no seat held, "
                                "are dropped"),
    (Dropped(Dropping.FOLLOW_UNSIGNED, 2), "dropped a follow request from Cy: it is not its signature for this "
                                           "relay term"),
    (Dropped(Dropping.CONFLICT_UNSIGNED, entry=7), "dropped a conflicting entry 7 its relay did not sign"),
    (Dropped(Dropping.FIRST_NO_SEATING, reason="bad body"), "dropped a first entry that is no seating (bad body)"),
    (FirstAtDoor(DoorKind(Door.HELLO_REFUSED, code="name_taken"), DoorDetail("taken", "Bob"), 10.0),
     "refused a hello (name_taken): 'Bob': taken (more like it are counted, and said every 10 s)"),
    (FirstAtDoor(DoorKind(Door.ENTRY_UNFOLDING, 1), DoorDetail("no", entry=9), 10.0),
     "dropped an entry from Bob that does not fold: entry 9: no (more like it are counted, and said every 10 s)"),
    (FirstAtDoor(DoorKind(Door.WRONG_SHAPE), DoorDetail(parts=3), 10.0),
     "dropped a message of a wrong shape: 3 parts, not 2 (more like it are counted, and said every 10 s)"),
    (FirstAtDoor(DoorKind(Door.DESCRIBE), DoorDetail(per_s=20.0), 10.0),
     "dropped a describe: more than 20 a second (more like it are counted, and said every 10 s)"),
    (MoreAtDoor(DoorKind(Door.BAD_FRAME), 12345, 10.2), "dropped a bad frame: 12,345 more in the last 10 s"),
    (OtherGaveUp(SeatGaveUp(1, Why.SILENT, (2,), 30), 2),
     "Bob gave up on the game and left: no heartbeat came from you for 30 seconds"),
    (WaitingFor((1,), Awaited.PLAY, 6), "waiting for Bob (6 s)"),
    (WaitingFor((1, 2), Awaited.PLAY, 31, ((1, 20),)), "no heartbeat from Bob (20 s); waiting for Bob, Cy (31 s)"),
    (WaitingFor((1,), Awaited.TURN_TO_US, 9), "waiting for Bob to turn to us (the relay is gone; we relay next) (9 s)"),
    (WaitingFor((1,), Awaited.SEND_HELD, 9), "waiting for Bob to send us the entries they hold (9 s)"),
    (WaitingFor((1,), Awaited.CATCH_UP, 9), "waiting for Bob to catch up with our log and ask again (9 s)"),
    (WaitingFor((1, 2), Awaited.SAY_HELD, 9),
     "waiting for Bob, Cy to say how much of the log they hold (a resumed host goes on only then) (9 s)"),
    (WaitingFor((1,), Awaited.HOLD_OUR_LOG, 9),
     "waiting for Bob to hold our log: its log differs from ours (the relay may have moved on) (9 s)"),
    (WaitingForFollowed(Dialled.HOST, None, "10.0.0.1:7311", 4), "waiting for the host at 10.0.0.1:7311 (4 s)"),
    (WaitingForFollowed(Dialled.HOST, 0, "10.0.0.1:7311", 4), "waiting for the host (Ann) at 10.0.0.1:7311 (4 s)"),
    (WaitingForFollowed(Dialled.RELAY, 1, "10.0.0.2:7311", 4), "waiting for the relay (Bob) at 10.0.0.2:7311 (4 s)"),
    (WaitingForFollowed(Dialled.NEXT_RELAY, 2, "10.0.0.3:7311", 4),
     "waiting for Cy (who relays next) at 10.0.0.3:7311 (4 s)"),
    (StalledAsk((Stall(1, Waiting.THINKING, (Owed.MOVE,), 40),), 40),
     "no progress for 40 seconds: Bob is thinking over a move. Type `wait` to keep waiting, or `end` to stop for now"),
]


@pytest.mark.parametrize(("notice", "words"), SAMPLES)
def test_each_fact_reads_as_the_peer_said_it(notice: Notice, words: str) -> None:
    assert word_notice(notice, NAMES) == words


def test_every_fact_of_the_vocabulary_has_a_sample() -> None:
    """A fact added to ``Notice`` without a sample here fails (mypy's assert_never fails one without words)."""
    assert {type(n) for n, _ in SAMPLES} == set(get_args(Notice))


HOSTILE = "Eve\x1b]0;owned\x07\x1b[2J\u202eevil"


@pytest.mark.parametrize("notice", [
    JoinedLobby(HOSTILE, 2, 0),  # a name a joiner sent
    LobbyNow((HOSTILE, "Ann"), True),  # names the host sent
    TableRefused("x", HOSTILE),  # a reason the relay sent
    FirstAtDoor(DoorKind(Door.BAD_FRAME), DoorDetail(HOSTILE), 10.0),  # an error quoting a frame, a fact inside a fact
    Dropped(Dropping.BAD_FRAME, reason=HOSTILE),
    WrongKey(HOSTILE, 0),  # an address from the log
    RelayMoved(0, 1),  # the names looked up (a lobby's, before the seating's checks)
])
def test_nothing_a_peer_sent_reaches_the_screen_raw(notice: Notice, capsys: pytest.CaptureFixture[str]) -> None:
    """Every string a fact carries, and every name it is worded with, shows
    its controls and format characters escaped (peerwords.shown), through the
    console that prints it as through the words alone."""
    names = (HOSTILE, HOSTILE)
    words = word_notice(notice, names)
    Console(quiet_stdout=False).report(notice, names)
    printed = capsys.readouterr().out
    for text in (words, printed):
        assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
        assert "\\x1b]0;owned\\x07\\x1b[2J\\u202eevil" in text


END_SAMPLES: list[tuple[PeerEnd, str]] = [
    (HostRefusedUs("full", "no room"), 'the host refused us: it is full (its words: "no room")'),
    (HostRefusedUs("started", "", "10.0.0.1:7311"),
     "the host refused us: the game has already started; to follow it without a seat: ttr watch 10.0.0.1:7311"),
    (OtherGameOpened("10.0.0.1:7311", None, bytes.fromhex("3fa2c1d0") + bytes(12), " --data-dir d"),
     "the host at 10.0.0.1:7311 opened a new game, but game 3fa2c1d0 with it is not finished: it was restarted "
     "without it. Ask the host to resume it (`ttr host` in the same data directory resumes it, or `ttr host --resume "
     "3fa2c1d0`); our copy is kept. `ttr join 10.0.0.1:7311 --new --data-dir d` joins the new game instead"),
    (OtherProtocol(3, 4), "the host speaks LAN protocol 3, we speak 4: update ttr"),
    (CannotPlayThere("10.0.0.1:7311", "usa", "1910", "unknown"),
     "cannot join the host at 10.0.0.1:7311: its game, usa 1910, cannot be played here: unknown"),
    (CannotPlayThere("10.0.0.2:7311", "mars", "", "unknown", watching=True),
     "cannot watch 10.0.0.2:7311: its game, mars, cannot be played here: unknown"),
    (DifferentHost(), "a different host answers at this address"),
    (DifferentHost("10.0.0.2:7311"), "a different host answers at 10.0.0.2:7311 than the one its beacon named"),
    (StartedWithoutUs(), "the game started without us"),
    (LobbyClosedByHost(), "the host closed its lobby before the game started"),
    (HostSwitched(), "the host switched to another game"),
    (HostNotSeated(), "this host is not a seat of our game"),
    (TooFewJoined(1, 3, 60.0), "only 1 of 3 players joined in 60 s"),
    (NothingAnswered("10.0.0.1:7311", 30.0),
     "nothing answered at 10.0.0.1:7311 in 30 s: is `ttr host` running there, on that port?"),
    (NoHostAt("10.0.0.1:7311", NoHostSeen.NOTHING_LISTENS),
     "nothing answered at 10.0.0.1:7311: is `ttr host` running there, on that port?"),
    (NoHostAt("10.0.0.1:80", NoHostSeen.NO_ZEROMQ),
     "10.0.0.1:80 is not a ttr game: it does not speak ZeroMQ (wrong address or port?)"),
    (NoHostAt("10.0.0.1:7311", NoHostSeen.NO_ANSWER),
     "10.0.0.1:7311 is not a ttr game: it speaks ZeroMQ but does not answer as a ttr host"),
    (RefusedRelayEntry(0, False, 12, "bad_move", "not your turn"),
     "the host (Ann) sequenced entry 12, which our table refuses (bad_move: not your turn): the host misbehaved; "
     "the game stops"),
    (Equivocated(1, True, 12, Path("proof.json")),
     "the relay (Bob) signed two different entries at index 12: it equivocated; the proof is in proof.json"),
    (HidEntries(2, 40, 42, Path("game.log")), "Cy took part in a hand-over at entry 40 while it held entries after it "
                                              "(it wrote one at entry 42): it hid them; the game stops here (our log: "
                                              "game.log)"),
    (NoReceipt(9), "we hold no receipt of entry 9 from the relay: we cannot take over"),
    (OwnHandOverRefused(), "our own hand-over entry was refused: we cannot relay"),
    (KeepsRefusing(), "the host keeps refusing our messages; stopping"),
    (LogLacksEntries(None, 30, 1), "our log (-) lacks entries from 30 on, which Bob holds, but Bob cannot send them "
                                   "with their relay's signature: this log cannot go on; a joiner's copy of the "
                                   "game's game.log can replace it"),
    (SignedEntryUnfolding(5, 1, "bad"), "entry 5, which we signed and Bob sent back, does not fold (bad): our log "
                                        "and its differ; the game stops here"),
    (FollowedSilent(Dialled.RELAY, 1, "10.0.0.2:7311", 120.0),
     "the relay (Bob) at 10.0.0.2:7311 has been silent for 120 s; run the same command again to resume"),
    (GaveUpStalled(30.0, (1, 2), Why.WITHHELD, (1,), 31, "game.log", HostResume(bytes.fromhex("3fa2c1d0") + bytes(12))),
     "no progress for 30 s (waiting for Bob, Cy): Bob stayed connected but withheld for 31 seconds what its software "
     "sends at once: giving up on the game; the log so far is game.log; resume it with `ttr host --resume 3fa2c1d0`"),
    (GaveUpHeldBack(30.0, 0), "no progress for 30 s: the relay (Ann) holds back a seat's message that seat showed us "
                              "directly; the game cannot go on without a relay that sequences it"),
    (GaveUpNotBack(30.0, HostResume(None)),
     "no progress for 30 s: not every seat came back after the restart; resume it with `ttr host --resume ?`"),
    (ForfeitedGoesOn(), "you forfeited this game; the others play on"),
    (ForfeitedEnded(), "you forfeited this game, and it ended with that"),
    (ForfeitedEnded(60.0), "you forfeited this game, and it ended with that; the end never reached us in 60 s, so "
                           "our log stops short of it"),
    (NoSeatAnswers(120.0, "10.0.0.2:7311"), "no seat of the game has answered for 120 s (last tried: 10.0.0.2:7311)"),
    (WatchRefused("10.0.0.2:7311", "full", "9 watch"), '10.0.0.2:7311 refused us: it is full (its words: "9 watch")'),
    (NotASeat("10.0.0.9:7311"), "10.0.0.9:7311 is not a seat of the game we watch"),
    (PlayingAnother("10.0.0.2:7311", bytes.fromhex("3fa2c1d0") + bytes(12)),
     "10.0.0.2:7311 is playing another game now; the one we watched (3fa2c1d0) stopped there"),
    (WatchedEntryUnfolding(7, 0, "bad"), "entry 7, sequenced by Ann, does not fold (bad): the relay misbehaved; we "
                                         "stop watching"),
]


@pytest.mark.parametrize(("end", "words"), END_SAMPLES)
def test_each_end_reads_as_the_peer_said_it(end: PeerEnd, words: str) -> None:
    assert word_end(end, NAMES) == words


def test_every_end_has_a_sample() -> None:
    assert {type(e) for e, _ in END_SAMPLES} == set(get_args(PeerEnd))


def test_the_last_words_of_a_run_are_worded_and_kept(capsys: pytest.CaptureFixture[str]) -> None:
    """A run that ends early says why once, and keeps the same words (``Seen.last_words``), unsafe text shown safely."""
    console = Console(quiet_stdout=False)
    assert console.last_words(WatchRefused("10.0.0.2:7311", "full", HOSTILE), NAMES) == capsys.readouterr().out.rstrip(
        "\n")
    words = console.last_words(RelayLost(0, RelayLoss.LEFT, None), (HOSTILE,))
    assert words == "the relay (Eve\\x1b]0;owned\\x07\\x1b[2J\\u202eevil) left the game and no seat is left to relay"


def test_who_paused_and_the_game_so_far_in_words() -> None:
    assert pauser_words(None) == "the host" and pauser_words("Bob") == "the relay (Bob)"
    assert pauser_words(HOSTILE) == "the relay (Eve\\x1b]0;owned\\x07\\x1b[2J\\u202eevil)"
    assert history_head(3, 3) == "the game so far:"
    assert history_head(200, 250) == "the game so far (the last 200 of 250 lines; `ttr verify` reads the whole log):"


def test_every_member_of_the_fixed_words_has_them() -> None:
    """The tables of fixed words (a door, a drop, the lobby's) miss no member, so no fact is unsayable."""
    assert set(DOORS) == set(Door) and set(DROPPINGS) == set(Dropping) and set(LOBBY_WORDS) == set(LobbyWord)
    assert set(NOT_A_GAME) == set(NoHostSeen) - {NoHostSeen.NOTHING_LISTENS}
