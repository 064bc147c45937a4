"""What a networked peer tells its player, in words: one ``match`` over
netnotices.py's facts, the same on every front (the full screen's log, the
plain prompt, a bot's output, ``ttr watch``).

Every string a notice carries and every name is passed through the one
sanitiser (peerwords.py) first: a name or a reason a peer sent reaches no
screen raw, whichever part reported it.
"""

from __future__ import annotations

from typing import assert_never

from .doorfacts import Door, DoorDetail, DoorKind, Dropped, Dropping, FirstAtDoor, MoreAtDoor
from .giveup import gave_up_words, silence_words, stalled_prompt
from .livenessfacts import Awaited, Dialled, OtherGaveUp, StalledAsk, WaitingFor, WaitingForFollowed
from .netnotices import (AskingCarryOn, CannotGoOn, CarriedOnUs, CarryOnTooLate, EveryOtherLostRelay, FollowsUs,
                         ForfeitConcedes, ForfeitSaid, ForfeitWord, GameReloaded, GameResumed, GameStarted,
                         GameStarts, HandOverWhileAway, JoinedLobby, LeftLobby, LobbyNow, LobbySaid, LobbyWord,
                         MetaRebuilt, MoreToJoin, NameTaken, Notice, OursHeldBack, OwnMessageRefused, Refetched,
                         RelayAnswersAgain, RelayElsewhere, RelayHoldsBack, RelayLoss, RelayLost, RelayMoved,
                         RelayingAgain, RollCall, SeatBack, SentNone, StartFailed, StoppedUnanswered, TableRefused,
                         Unreachable, WaitsForPlace, WatchedHandOver, WatchedSilent, WatcherGone, WatcherJoined,
                         WatcherLeft, WatchingFrom, WitnessRefused, WrongKey)
from .numbering import seat_number, turn_point_words
from .peerwords import shown, words_shown
from .refusalwords import table_refusal_words, their_words
from .words import COLOURS, ESCROW_TRADE_OFF

MAX_DETAIL = 200  # a first drop's reason, cut (it may quote what a peer sent)

DOORS = {
    Door.BAD_FRAME: "dropped a bad frame",
    Door.WRONG_SHAPE: "dropped a message of a wrong shape",
    Door.BAD_FRAME_FOLLOWED: "dropped a bad frame from the peer we follow",
    Door.SECOND_HELLO: "dropped a second hello on an admitted connection",
    Door.HELLO_UNANSWERED: "dropped a hello that does not answer its connection's challenge",
    Door.HELLO_REFUSED: "refused a hello ({code})",
    Door.MESSAGE_REFUSED: "refused a message from {who} ({code})",
    Door.DESCRIBE_NO_GAME: "dropped a describe: we announce no game",
    Door.DESCRIBE: "dropped a describe",
    Door.FETCH_UNDER_WAY: "dropped a fetch while our last answer to it is under way",
    Door.CATCH_UP_DROPPED: "dropped the oldest catch-up under way (too many at once)",
    Door.ENTRY_UNSIGNED: "dropped an entry from {who} without its relay's signature",
    Door.ENTRY_RELAY_UNSIGNED: "dropped an entry whose relay's signature is not valid",
    Door.ENTRY_UNFOLDING: "dropped an entry from {who} that does not fold",
    Door.ELSE: "dropped or refused something else",
}

DROPPINGS = {
    Dropping.WATCH_ON_SEAT: "dropped a watch on a seat's connection",
    Dropping.WATCH_UNANSWERED: "dropped a watch that does not answer its connection's challenge",
    Dropping.FOLLOW_UNSIGNED: "dropped a follow request from {who}: it is not its signature for this relay term",
    Dropping.FOLLOW_NOT_PREFIX: "dropped a follow request from {who}: its log is not a prefix of ours",
    Dropping.PAUSE_UNSIGNED: "dropped a pause the host did not sign",
    Dropping.FIRST_MALFORMED: "dropped a malformed first entry from the host",
    Dropping.FIRST_NO_SEATING: "dropped a first entry that is no seating ({reason})",
    Dropping.SEATING_UNSIGNED: "dropped a seating its host did not sign",
    Dropping.ENTRY_UNSIGNED: "dropped entry {entry}: its relay's signature on it is not valid",
    Dropping.CONFLICT: "dropped a conflicting entry {entry}",
    Dropping.CONFLICT_UNSIGNED: "dropped a conflicting entry {entry} its relay did not sign",
    Dropping.HANDOVER_UNFOLDING: "dropped a hand-over at entry {entry} that does not fold",
    Dropping.BAD_FRAME: "dropped a bad frame: {reason}",
}

LOBBY_WORDS = {
    LobbyWord.ESCROW_ON: f"escrow is on: {ESCROW_TRADE_OFF}",
    LobbyWord.ESCROW_IN_LOBBY: f"this game uses escrow: {ESCROW_TRADE_OFF}; `end` leaves the lobby if you do not agree",
    LobbyWord.ESCROW_NEEDS_THREE: "escrow needs at least 3 players: wait for one more",
    LobbyWord.NEEDS_TWO: "a game needs at least 2 players: wait for someone to join",
    LobbyWord.CLOSED: "closed the lobby: no game was started",
}

CARRIED_ON_US = ("your seat was carried on by the others at entry {entry}: the others had not heard it for the "
                 "relay timeout (it was away, or cut off from the relay), so they opened its key from escrow and the "
                 "table plays it now; you watch the rest of the game")


def peer_name(seat: int | None, names: tuple[str, ...]) -> str:
    """A seat's name, or 'a peer' for a seat the names do not hold."""
    return names[seat] if seat is not None and 0 <= seat < len(names) else "a peer"


def word_notice(notice: Notice, names: tuple[str, ...]) -> str:
    """``notice`` in the player's words, with ``names`` (the seating's, or
    the lobby's before it) for the seats it names; nothing in it unsafe."""
    return _words(words_shown(notice), tuple(shown(n) for n in names))


def _words(notice: Notice, names: tuple[str, ...]) -> str:  # noqa: C901 - one case per fact, read down
    match notice:
        case RelayLost() | Unreachable() | EveryOtherLostRelay() | RelayAnswersAgain() | RelayMoved() \
                | HandOverWhileAway() | RelayElsewhere() | RelayingAgain() | FollowsUs() | SeatBack():
            return _relay_words(notice, names)
        case WaitsForPlace() | JoinedLobby() | LeftLobby() | RollCall() | LobbyNow() | NameTaken() | LobbySaid() \
                | StartFailed() | MoreToJoin():
            return _lobby_words(notice)
        case GameStarted(game_id):
            return f"game {game_id.hex()} started: {_coloured(names)}"
        case GameStarts(ours):
            if ours is None:
                return "the game starts: " + ", ".join(names)
            return f"the game starts: you are seat {seat_number(ours)} ({COLOURS[ours]}); {_coloured(names)}"
        case GameResumed(game, turn):
            return f"resumed game {game} {turn_point_words(turn)}"
        case GameReloaded(game_id, turn):
            return f"reloaded game {game_id.hex()[:8]} {turn_point_words(turn)}"
        case MetaRebuilt(path):
            return f"rebuilt {path} from the log"
        case StoppedUnanswered(ongoing):
            return ("stopped before the host answered; our game is kept: the same command resumes it" if ongoing
                    else "left the lobby before the game started")
        case Refetched(seat, first, last):
            return (f"our log had lost entries {first}-{last}: fetched them from {peer_name(seat, names)}, "
                    "with their relay's signature")
        case SentNone(seat, said):
            return f"{peer_name(seat, names)} said it holds {said} entries but sent none: we do not count it as following us"
        case OwnMessageRefused() | TableRefused() | CarryOnTooLate() | CarriedOnUs() | AskingCarryOn() \
                | CannotGoOn() | ForfeitSaid() | ForfeitConcedes():
            return _our_words(notice, names)
        case WitnessRefused(author, code):
            return (f"the relay refused the message {peer_name(author, names)} showed us directly ({code}): it was not "
                    "the relay holding the game back")
        case RelayHoldsBack(relay, author, seconds, escrow):
            by = peer_name(author, names)
            return (f"the relay ({peer_name(relay, names)}) holds back {by}'s message: {by} sent it to us directly "
                    f"{seconds:.0f} s ago, and the relay, which answers, has not sequenced it: the game waits for "
                    f"the relay, not for {by}" + ("; the relay counts as gone (escrow): we turn to the next seat"
                                                  if escrow else ""))
        case OursHeldBack(relay, seconds):
            return (f"the relay ({peer_name(relay, names)}) has not sequenced our message for {seconds:.0f} s though it "
                    "answers: we show it to the other seats directly, so that they see it is the relay that holds "
                    "the game back")
        case WatcherJoined() | WatcherLeft() | WatchingFrom() | WatchedSilent() | WrongKey() | WatchedHandOver():
            return _watch_words(notice, names)
        case Dropped(what, seat, entry, reason):
            return DROPPINGS[what].format(who=peer_name(seat, names), entry=entry, reason=reason)
        case FirstAtDoor(kind, detail, every_s):
            why = _door_detail(detail)
            return (f"{_door(kind, names)}{': ' + why[:MAX_DETAIL] if why else ''} (more like it are counted, "
                    f"and said every {every_s:.0f} s)")
        case MoreAtDoor(kind, count, span_s):
            return f"{_door(kind, names)}: {count:,} more in the last {span_s:.0f} s"
        case OtherGaveUp(news, me):
            return gave_up_words(news, names, me)
        case StalledAsk(stalls, seconds):
            return stalled_prompt(list(stalls), names, seconds)
        case WaitingFor(seats, awaited, seconds, silent):
            aside = silence_words(silent, names)
            return ((f"{aside}; " if aside else "") + f"waiting for {', '.join(peer_name(s, names) for s in seats)}"
                    f"{_awaited_words(awaited, len(seats))} ({seconds} s)")
        case WaitingForFollowed(dialled, seat, address, seconds):
            return f"waiting for {followed_words(dialled, seat, names)} at {address} ({seconds} s)"
        case _:
            assert_never(notice)


def pauser_words(relay_name: str | None) -> str:
    """Who paused the game: 'the host', or 'the relay (Bob)' once the relay moved."""
    return "the host" if relay_name is None else f"the relay ({shown(relay_name)})"


def history_head(shown_lines: int, total: int) -> str:
    """The line before the game so far, on resuming: how much of it is shown."""
    return "the game so far" + (f" (the last {shown_lines} of {total} lines; `ttr verify` reads the whole log):"
                                if total > shown_lines else ":")


def followed_words(dialled: Dialled, seat: int | None, names: tuple[str, ...]) -> str:
    """Whom our DEALER reaches: 'the host', 'the host (Ann)', 'the relay (Bob)', 'Cy (who relays next)'."""
    if seat is None:
        return "the host"
    match dialled:
        case Dialled.NEXT_RELAY:
            return f"{peer_name(seat, names)} (who relays next)"
        case Dialled.RELAY:
            return f"the relay ({peer_name(seat, names)})"
        case Dialled.HOST:
            return f"the host ({peer_name(seat, names)})" if names else "the host"
        case _:
            assert_never(dialled)


def _awaited_words(awaited: Awaited, count: int) -> str:
    match awaited:
        case Awaited.PLAY:
            return ""
        case Awaited.TURN_TO_US:
            return " to turn to us (the relay is gone; we relay next)"
        case Awaited.SEND_HELD:
            return " to send us the entries they hold"
        case Awaited.CATCH_UP:
            return " to catch up with our log and ask again"
        case Awaited.SAY_HELD:
            return " to say how much of the log they hold (a resumed host goes on only then)"
        case Awaited.HOLD_OUR_LOG:
            return (" to hold our log: " + ("its log differs" if count == 1 else "their logs differ")
                    + " from ours (the relay may have moved on)")
        case _:
            assert_never(awaited)


def _coloured(names: tuple[str, ...]) -> str:
    return ", ".join(f"{n} ({COLOURS[i]})" for i, n in enumerate(names))


def _relay_words(notice: RelayLost | Unreachable | EveryOtherLostRelay | RelayAnswersAgain | RelayMoved
                 | HandOverWhileAway | RelayElsewhere | RelayingAgain | FollowsUs | SeatBack,
                 names: tuple[str, ...]) -> str:
    match notice:
        case RelayLost(relay, why, successor, we_relay_next, silent_s, shown_by):
            lost = f"the relay ({peer_name(relay, names)}) {_loss_words(why, silent_s, shown_by, successor, names)}"
            if successor is None:
                return f"{lost} and no seat is left to relay"
            if we_relay_next:
                return f"{lost}: we relay next, once every other seat in play turns to us"
            return f"{lost}: turning to {peer_name(successor, names)}, who relays next"
        case Unreachable(seat):
            return f"{peer_name(seat, names)} never said where it accepts connections: we cannot reach it"
        case EveryOtherLostRelay(relay):
            return f"every other seat lost the relay ({peer_name(relay, names)}): we relay next"
        case RelayAnswersAgain(relay):
            return f"the relay ({peer_name(relay, names)}) answers again: we go on with it"
        case RelayMoved(old, new, ours):
            return f"the relay moved from {peer_name(old, names)} to {peer_name(new, names)}" + (
                ": we relay from now on" if ours else "")
        case HandOverWhileAway(relay, index, dropped):
            one = dropped == 1
            return (f"the relay moved to {peer_name(relay, names)} at entry {index} while we were away: our {dropped} "
                    f"later entr{'y' if one else 'ies'}, which no other seat held, {'is' if one else 'are'} dropped; "
                    "we play on from the hand-over")
        case RelayElsewhere(relay):
            return f"the relay moved to {peer_name(relay, names)} in this game: connecting there"
        case RelayingAgain():
            return ("we relayed this game when we stopped: relaying again, once every seat in play says how much "
                    "of the log it holds (or following the seat that relays now)")
        case FollowsUs(seat, relay):
            return f"{peer_name(seat, names)} lost the relay ({peer_name(relay, names)}) and follows us now"
        case SeatBack(seat, relaying):
            return (f"{peer_name(seat, names)} is back" if relaying
                    else f"{peer_name(seat, names)} reached us (we relay next if the relay is gone)")
        case _:
            assert_never(notice)


def _loss_words(why: RelayLoss, silent_s: float, shown_by: int, successor: int | None,
                names: tuple[str, ...]) -> str:
    match why:
        case RelayLoss.LEFT:
            return "left the game"
        case RelayLoss.HOLDS_BACK:
            return "holds back a seat's message"
        case RelayLoss.SILENT:
            return f"has been silent for {silent_s:.0f} s"
        case RelayLoss.OUT_OF_REACH:
            by = peer_name(shown_by, names)
            return f"is out of {by}'s reach ({by} turned to {peer_name(successor, names)} and showed us its signed request)"
        case _:
            assert_never(why)


def _lobby_words(notice: WaitsForPlace | JoinedLobby | LeftLobby | RollCall | LobbyNow | NameTaken | LobbySaid
                 | StartFailed | MoreToJoin) -> str:
    match notice:
        case WaitsForPlace(name, lobby):
            return f"{name} waits for a place: the lobby is full ({', '.join(lobby)})"
        case JoinedLobby(name, count, wanted):
            return f"{name} joined ({count}" + (f" of {wanted})" if wanted else "): press Enter to start")
        case LeftLobby(name, lobby, silent_s, taken):
            why = f"left the lobby (silent for {silent_s:.0f} s)" if silent_s else "left"
            return (f"{name} {why}: {len(lobby)} in the lobby ({', '.join(lobby)})"
                    + (f", {taken} took the place" if taken else ""))
        case RollCall(silent_s):
            return f"the lobby is full: the game starts once every member answers (one silent for {silent_s:.0f} s " \
                   "is dropped)"
        case LobbyNow(names, placed, wanted):
            where = ("in the lobby" if placed else "the lobby is full: you wait for a place (one frees if a member "
                     "leaves or goes silent); in it")
            return f"{where}: {', '.join(names)}" + (f" (starting at {wanted})" if wanted else "")
        case NameTaken(name, new):
            return f"the name {name!r} is taken at this table: joining as {new!r}"
        case LobbySaid(word):
            return LOBBY_WORDS[word]
        case StartFailed(names):
            return ("the game did not start: press Enter to start with " + ", ".join(names) if len(names) >= 2
                    else "the game did not start: wait for someone to join")
        case MoreToJoin(count):
            return f"waiting for {count} more to join"
        case _:
            assert_never(notice)


def _our_words(notice: OwnMessageRefused | TableRefused | CarryOnTooLate | CarriedOnUs | AskingCarryOn | CannotGoOn
               | ForfeitSaid | ForfeitConcedes, names: tuple[str, ...]) -> str:
    match notice:
        case OwnMessageRefused(code, reason):
            return f"our own message was refused ({code}): {reason}"
        case TableRefused(code, reason):
            return f"the table refused our message: {table_refusal_words(code)}{their_words(reason)}"
        case CarryOnTooLate(reason):
            return ("our request to carry a seat on came too late: the seat came back, or the relay moved, first"
                    + their_words(reason))
        case CarriedOnUs(entry):
            return CARRIED_ON_US.format(entry=entry)
        case AskingCarryOn(seat, silent_s):
            return (f"{peer_name(seat, names)} has been silent for {silent_s:.0f} s: asking the others to carry their "
                    "seat on (escrow)")
        case CannotGoOn(blocked):
            silent = " and ".join(peer_name(s, names) for s in blocked.silent)
            many = len(blocked.silent) > 1
            if blocked.gone is None:
                why = (f"{silent} are silent at once, and carrying a seat on takes every other seat in play "
                       "(escrow), so none of them can be while another is silent")
            else:
                why = (f"{silent} {'are' if many else 'is'} silent and cannot be carried on: "
                       f"{peer_name(blocked.gone, names)} left the game at entry {blocked.gone_at}, taking its share of "
                       "every seat's escrowed key with it (nobody else can open it)")
            return (f"the game cannot go on for now: {why}; it goes on if {'they come' if many else 'that player comes'}"
                    " back (`end` stops here; `ttr verify` on the log audits what was played)")
        case ForfeitSaid(word, relaying):
            return _forfeit_words(word, relaying)
        case ForfeitConcedes(alone):
            return "forfeiting: publishing our secrets; that leaves " + (
                f"{peer_name(alone, names)} alone in play, so the game ends, conceded to them" if alone is not None
                else "nobody in play, so the game ends")
        case _:
            assert_never(notice)


def _forfeit_words(word: ForfeitWord, relaying: bool) -> str:
    match word:
        case ForfeitWord.TOO_LATE:
            return "the game is over before our forfeit went out: nothing to forfeit"
        case ForfeitWord.GAME_OVER:
            return "the game is over: there is nothing to forfeit"
        case ForfeitWord.GOES_ON:
            return ("forfeiting: publishing our secrets so the game goes on; from now on the table plays our seat"
                    + (" and the next seat relays" if relaying else ""))
        case _:
            assert_never(word)


def _watch_words(notice: WatcherJoined | WatcherLeft | WatchingFrom | WatchedSilent | WrongKey | WatchedHandOver,
                 names: tuple[str, ...]) -> str:
    match notice:
        case WatcherJoined(count):
            return f"a watcher joined ({count} watching)"
        case WatcherLeft(why, limit, count):
            return f"a watcher {_gone_words(why, limit)}: it is no longer sent the game ({count} watching)"
        case WatchingFrom(seat, next_):
            return f"watching from {peer_name(seat, names)}, who relays" + (" next" if next_ else "")
        case WatchedSilent(dialled, seat):
            return f"{dialled} is silent: trying {peer_name(seat, names)}"
        case WrongKey(dialled, seat):
            return f"{dialled} answers with a key that is not {peer_name(seat, names)}'s: trying another seat"
        case WatchedHandOver(relay, index, dropped):
            return (f"the relay moved to {peer_name(relay, names)} at entry {index}: the {dropped} later entries we had, "
                    "which no seat held, are dropped")
        case _:
            assert_never(notice)


def _gone_words(why: WatcherGone, limit: float) -> str:
    match why:
        case WatcherGone.FLOODED:
            return f"sent more than {limit:.0f} frames a second"
        case WatcherGone.IDLE:
            return f"read nothing for {limit:.0f} s and gave its place to a new watcher"
        case WatcherGone.SILENT:
            return f"was silent for {limit:.0f} s"
        case _:
            assert_never(why)


def _door(kind: DoorKind, names: tuple[str, ...]) -> str:
    return DOORS[kind.door].format(who=peer_name(kind.seat, names), code=kind.code)


def _door_detail(detail: DoorDetail) -> str:
    """Why the first of ``kind`` was dropped, from what its detail holds."""
    if detail.name is not None:
        return f"{detail.name!r}: {detail.reason}"
    if detail.entry >= 0:
        return f"entry {detail.entry}" + (f": {detail.reason}" if detail.reason else "")
    if detail.parts >= 0:
        return f"{detail.parts} parts, not 2"
    if detail.per_s >= 0:
        return f"more than {detail.per_s:.0f} a second"
    return detail.reason
