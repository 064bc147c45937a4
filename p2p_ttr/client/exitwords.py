"""Why a peer's run ended early, in the player's words: one ``match`` over
peerexits.py's facts, the last line a peer says (and ``Seen.last_words``).
Every string in a fact and every name passes the one sanitiser first."""

from __future__ import annotations

from typing import assert_never

from .giveup import giving_up_words
from .netnotices import Notice
from .networds import followed_words, peer_name, word_notice
from .peerexits import (CannotPlayThere, DifferentHost, Equivocated, FollowedSilent, ForfeitedEnded, ForfeitedGoesOn,
                        GaveUpHeldBack, GaveUpNotBack, GaveUpStalled, HidEntries, HostNotSeated, HostRefusedUs,
                        HostResume, HostSwitched, KeepsRefusing, LobbyClosedByHost, LogLacksEntries, NoHostAt,
                        NoHostSeen, NoReceipt, NoSeatAnswers, NotASeat, NothingAnswered, OtherGameOpened,
                        OtherProtocol, OwnHandOverRefused, PeerEnd, PlayingAnother, RefusedRelayEntry,
                        SignedEntryUnfolding, StartedWithoutUs, TooFewJoined, WatchRefused, WatchedEntryUnfolding)
from .peerwords import shown, words_shown
from .refusalwords import host_refusal_words, their_words
from .transportfacts import TransportTrouble
from .transportwords import transport_words


NOT_A_GAME = {  # how an address showed it is no ttr game; the player's next guess follows each
    NoHostSeen.HANDSHAKE_FAILED: "it failed the handshake of a ZeroMQ connection (wrong address or port?)",
    NoHostSeen.SAID_NOTHING: "it accepted the connection but said nothing: it does not speak ZeroMQ (wrong address or "
                             "port?)",
    NoHostSeen.CLOSED: "it closed the ZeroMQ connection (wrong address or port?)",
    NoHostSeen.NO_ZEROMQ: "it does not speak ZeroMQ (wrong address or port?)",
    NoHostSeen.NO_ANSWER: "it speaks ZeroMQ but does not answer as a ttr host",
}


def word_end(end: PeerEnd, names: tuple[str, ...]) -> str:
    """``end`` in words, seats named by ``names``; nothing in it unsafe."""
    return _words(words_shown(end), tuple(shown(n) for n in names))


Told = Notice | PeerEnd | TransportTrouble  # why a peer's run ends: a fact of its own, or its socket's trouble


def last_words(told: Told, names: tuple[str, ...]) -> str:
    """Why a run ended, in words."""
    if isinstance(told, Notice):
        return word_notice(told, names)
    return transport_words(told) if isinstance(told, TransportTrouble) else word_end(told, names)


def _resume_words(resume: HostResume | None) -> str:
    if resume is None:
        return ""
    return f"; resume it with `ttr host --resume {resume.game_id.hex()[:8] if resume.game_id else '?'}`"


def _relay_named(relay: int, moved: bool, names: tuple[str, ...]) -> str:
    """'the relay (Bob)' after a hand-over, 'the host (Ann)' before one, 'the host' before the seating."""
    if not names:
        return "the host"
    return f"the relay ({peer_name(relay, names)})" if moved else f"the host ({names[0]})"


def _words(end: PeerEnd, names: tuple[str, ...]) -> str:  # noqa: C901 - one case per fact, read down
    match end:
        case HostRefusedUs(code, reason, watch_at):
            return f"the host refused us: {host_refusal_words(code)}" + (
                f"; to follow it without a seat: ttr watch {watch_at}" if watch_at is not None else "") + their_words(
                reason)
        case OtherGameOpened(address, opened, ours, data_flag):
            what = f"game {opened.hex()[:8]}" if opened is not None else "a new game"
            mine = f"game {ours.hex()[:8]}" if ours is not None else "our game"
            return (f"the host at {address} opened {what}, but {mine} with it is not finished: it was restarted "
                    f"without it. Ask the host to resume it (`ttr host` in the same data directory resumes it, or "
                    f"`ttr host --resume {mine.split()[-1]}`); our copy is kept. `ttr join {address} --new"
                    f"{data_flag}` joins the new game instead")
        case OtherProtocol(version, ours):
            return f"the host speaks LAN protocol {version}, we speak {ours}: update ttr"
        case CannotPlayThere(address, board, variant, reason, watching):
            where = f"watch {address}" if watching else f"join the host at {address}"
            return f"cannot {where}: its game, {board}{f' {variant}' if variant else ''}, cannot be played here: {reason}"
        case DifferentHost(beacon_named):
            return "a different host answers at " + (
                "this address" if beacon_named is None else f"{beacon_named} than the one its beacon named")
        case StartedWithoutUs():
            return "the game started without us"
        case LobbyClosedByHost():
            return "the host closed its lobby before the game started"
        case HostSwitched():
            return "the host switched to another game"
        case HostNotSeated():
            return "this host is not a seat of our game"
        case TooFewJoined(count, wanted, timeout_s):
            return f"only {count} of {wanted} players joined in {timeout_s:.0f} s"
        case NothingAnswered(address, timeout_s):
            return f"nothing answered at {address} in {timeout_s:.0f} s: is `ttr host` running there, on that port?"
        case NoHostAt(address, NoHostSeen.NOTHING_LISTENS):
            return f"nothing answered at {address}: is `ttr host` running there, on that port?"
        case NoHostAt(address, seen):
            return f"{address} is not a ttr game: {NOT_A_GAME[seen]}"
        case RefusedRelayEntry(relay, moved, index, code, reason):
            return (f"{_relay_named(relay, moved, names)} sequenced entry {index}, which our table refuses "
                    f"({code}: {reason}): the host misbehaved; the game stops")
        case Equivocated(relay, moved, index, proof):
            return (f"{_relay_named(relay, moved, names)} signed two different entries at index {index}: "
                    f"it equivocated; the proof is in {proof}")
        case HidEntries(seat, index, seen, log):
            return (f"{peer_name(seat, names)} took part in a hand-over at entry {index} while it held entries after "
                    f"it (it wrote one at entry {seen}): it hid them; the game stops here (our log: {log})")
        case NoReceipt(entry):
            return f"we hold no receipt of entry {entry} from the relay: we cannot take over"
        case OwnHandOverRefused():
            return "our own hand-over entry was refused: we cannot relay"
        case KeepsRefusing():
            return "the host keeps refusing our messages; stopping"
        case LogLacksEntries(log, start, seat):
            who = peer_name(seat, names)
            return (f"our log ({log if log is not None else '-'}) lacks entries from {start} on, which {who} holds, "
                    f"but {who} cannot send them with their relay's signature: this log cannot go on; a joiner's "
                    "copy of the game's game.log can replace it")
        case SignedEntryUnfolding(index, seat, reason):
            return (f"entry {index}, which we signed and {peer_name(seat, names)} sent back, does not fold "
                    f"({reason}): our log and its differ; the game stops here")
        case FollowedSilent(dialled, seat, address, timeout_s):
            return (f"{followed_words(dialled, seat, names)} at {address} has been silent for {timeout_s:.0f} s; "
                    "run the same command again to resume")
        case GaveUpStalled(timeout_s, waiting, why, about, seconds, log, resume):
            return (f"no progress for {timeout_s:.0f} s (waiting for {', '.join(peer_name(s, names) for s in waiting)}):"
                    f" {giving_up_words(why, about, seconds, names)}; the log so far is {log}{_resume_words(resume)}")
        case GaveUpHeldBack(timeout_s, relay):
            return (f"no progress for {timeout_s:.0f} s: the relay ({peer_name(relay, names)}) holds back a seat's "
                    "message that seat showed us directly; the game cannot go on without a relay that sequences it")
        case GaveUpNotBack(timeout_s, resume):
            return f"no progress for {timeout_s:.0f} s: not every seat came back after the restart{_resume_words(resume)}"
        case ForfeitedGoesOn():
            return "you forfeited this game; the others play on"
        case ForfeitedEnded(short_s):
            return "you forfeited this game, and it ended with that" + (
                f"; the end never reached us in {short_s:.0f} s, so our log stops short of it" if short_s else "")
        case NoSeatAnswers(timeout_s, dialled):
            return f"no seat of the game has answered for {timeout_s:.0f} s (last tried: {dialled})"
        case WatchRefused(dialled, code, reason):
            return f"{dialled} refused us: {host_refusal_words(code)}{their_words(reason)}"
        case NotASeat(address):
            return f"{address} is not a seat of the game we watch"
        case PlayingAnother(dialled, game_id):
            return f"{dialled} is playing another game now; the one we watched ({game_id.hex()[:8]}) stopped there"
        case WatchedEntryUnfolding(index, relay, reason):
            return (f"entry {index}, sequenced by {peer_name(relay, names)}, does not fold ({reason}): the relay "
                    "misbehaved; we stop watching")
        case _:
            assert_never(end)
