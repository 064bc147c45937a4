"""A table stalled on a seat, and a peer that gives up on the game, in the
player's words (design.md §4: liveness is not progress).

A seat the table waits for is one of four things (``Waiting``): alive and
owing a move (a person thinking: nobody ever gives up on it), alive and
owing a duty its software does at once (keys, a shuffle, a proof, shares,
the audit: withheld that long, it misbehaves), silent (no heartbeat: gone,
for now at least), or gone after saying it gave up. The network carries
these as typed values (``give_up`` and ``gave_up`` frames, protocol.md §9)
and the peer's liveness decides (net/liveness.py); the values are declared
with the peer's other facts (netnotices.py); this module only words them,
the same on every front.
"""

from __future__ import annotations

from collections.abc import Iterable

from p2p_ttr.table.obligations import Owed

from .livenessfacts import Dialled, RelaySilence, SeatGaveUp, Stall, Waiting, Why
from .numbering import seat_number
from .words import plural


def _name(seat: int, names: tuple[str, ...], me: int | None = None) -> str:
    if seat == me:
        return "you"
    return names[seat] if 0 <= seat < len(names) else f"seat {seat_number(seat)}"


def _names(seats: tuple[int, ...] | list[int], names: tuple[str, ...], me: int | None = None) -> str:
    words = [_name(s, names, me) for s in seats]
    if len(words) <= 1:
        return words[0] if words else "nobody"
    return ", ".join(words[:-1]) + " and " + words[-1]


def _owed(owed: tuple[Owed, ...]) -> str:
    duties = sorted({o.value for o in owed if o is not Owed.MOVE})
    return " and ".join(duties) or "move"


def relay_silence_words(silence: RelaySilence | None, names: tuple[str, ...]) -> str:
    """'no word from the host, Ann (33 s)', '' for None: said first on the status line."""
    if silence is None:
        return ""
    if silence.seat is None:
        who = f"the {silence.dialled.value}"
    elif silence.dialled is Dialled.NEXT_RELAY:
        who = f"{_name(silence.seat, names)}, who relays next"
    else:
        who = f"the {silence.dialled.value}, {_name(silence.seat, names)}"
    return f"no word from {who} ({silence.seconds} s)"


def silence_words(silent: Iterable[tuple[int, int]], names: tuple[str, ...]) -> str:
    """'no heartbeat from Bob (25 s), Cy (3 s)' for the (seat, seconds) given,
    '' for none: said before whom the table waits for, from the moment the
    relay calls them silent (a player thinking sends heartbeats; a stopped
    program or a cut network does not)."""
    said = ", ".join(f"{_name(seat, names)} ({seconds} s)" for seat, seconds in silent)
    return f"no heartbeat from {said}" if said else ""


def stall_words(stall: Stall, names: tuple[str, ...]) -> str:
    """One seat the table waits for, in a few words."""
    who = _name(stall.seat, names)
    match stall.waiting:
        case Waiting.THINKING:
            return f"{who} is thinking over a move"
        case Waiting.WITHHOLDING:
            return (f"{who} is connected but has not sent its {_owed(stall.owed)} for {plural(stall.seconds, 'second')}"
                    " (its software sends that at once: it may be stuck, or cheating)")
        case Waiting.SILENT:
            return f"{who} has sent no heartbeat for {plural(stall.seconds, 'second')} (its program stopped, or the " \
                   "network is down)"
        case Waiting.GAVE_UP:
            return f"{who} gave up on the game and left"


def stalled_prompt(stalls: list[Stall], names: tuple[str, ...], stalled_s: int) -> str:
    """The question a person is asked when the table has not moved for their
    timeout: `wait` is offered only where waiting can help (a seat silent or
    slow may come back; one that gave up comes back only when started again)."""
    said = "; ".join(stall_words(s, names) for s in stalls)
    head = f"no progress for {plural(stalled_s, 'second')}: {said}"
    if all(s.waiting is Waiting.GAVE_UP for s in stalls):
        return (f"{head}. The game cannot go on without them: type `end` to stop for now (resumed, it goes on "
                "once they are back)")
    return f"{head}. Type `wait` to keep waiting, or `end` to stop for now"


def giving_up_words(why: Why, about: tuple[int, ...], seconds: int, names: tuple[str, ...]) -> str:
    """Why we give up, for our own last words."""
    who = _names(about, names)
    if why is Why.WITHHELD:
        return (f"{who} stayed connected but withheld for {plural(seconds, 'second')} what its software sends at "
                "once: giving up on the game")
    return f"{who} sent no heartbeat for {plural(seconds, 'second')}: giving up on the game"


def gave_up_words(news: SeatGaveUp, names: tuple[str, ...], me: int | None) -> str:
    """Another peer gave up on the game (the relay passed its word on)."""
    who = _name(news.seat, names, me)
    about = _names(news.about, names, me)
    if news.why is Why.WITHHELD:
        reason = (f"{about} stayed connected but withheld for {plural(news.seconds, 'second')} what software "
                  "sends at once")
    else:
        reason = f"no heartbeat came from {about} for {plural(news.seconds, 'second')}"
    return f"{who} gave up on the game and left: {reason}"
