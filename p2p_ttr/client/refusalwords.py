"""A refusal a peer sent us, worded from its code (issue 44).

A host that will not admit us (``refused``) and a relay whose table refused
our message (``rejected``) send a wire code and a reason. The reason is a
sentence the other side wrote: untrusted, and in the other side's words, so
the sentence the player reads is ours, from the code; the reason follows at
most as a quoted detail, shown safely. A code we do not know (a newer or a
hostile peer's) is said to be one. The frames stay as they are: the words
that go on the wire are net/'s and table/'s, for the other side's player.
"""

from __future__ import annotations

from p2p_ttr.errorcodes import ErrorCode

from .peerwords import shown

MAX_QUOTED = 200  # a peer's reason, cut: it is a detail, not the message

HOST_REFUSALS = {  # why a host (or a seat we watch from) will not admit us
    ErrorCode.VERSION: "it speaks another LAN protocol: update ttr",
    ErrorCode.BAD_HELLO: "our hello did not check out",
    ErrorCode.RELAYED: "our connection did not reach it directly (a relay or a port forward is in between): dial "
                       "its own address",
    ErrorCode.BAD_NAME: "it does not take our name: pick another with --name",
    ErrorCode.NAME_TAKEN: "our name is taken at its table: pick another with --name",
    ErrorCode.FULL: "it is full",
    ErrorCode.STARTED: "the game has already started",
}

TABLE_REFUSALS = {  # why the relay's table refused a message of ours
    ErrorCode.ENGINE_ERROR: "the rules refused it",
    ErrorCode.MALFORMED: "it was malformed",
    ErrorCode.OUT_OF_TURN: "it was not ours to play",
    ErrorCode.ILLEGAL_MOVE: "it breaks a rule of the game",
    ErrorCode.UNKNOWN_CARD: "it needs a card not yet revealed",
    ErrorCode.BAD_CHANCE: "it does not answer what the game waits for",
    ErrorCode.REJECTED: "it was refused",
    ErrorCode.BAD_SIGNATURE: "its signature did not verify",
    ErrorCode.WRONG_GAME: "it is for another game",
    ErrorCode.REPLAY: "its sequence number was used already",
    ErrorCode.UNKNOWN_HEAD: "it was written on a log the relay does not hold",
    ErrorCode.NOT_EXPECTED: "nobody owes it now",
    ErrorCode.BAD_PROOF: "a proof or share in it did not check out",
    ErrorCode.CHEATING: "it breaks the protocol",
}


def host_refusal_words(code: str) -> str:
    """What a host's refusal with ``code`` means."""
    return _meaning(HOST_REFUSALS, code)


def table_refusal_words(code: str) -> str:
    """What the relay's table refusing our message with ``code`` means."""
    return _meaning(TABLE_REFUSALS, code)


def _meaning(words: dict[ErrorCode, str], code: str) -> str:
    known = next((c for c in words if c == code), None)  # a code off the wire is any string
    return words[known] if known is not None else f"for a reason we do not know ({shown(code[:40])})"


def their_words(reason: str) -> str:
    """The other side's own reason, as a quoted detail ('' for none)."""
    return f' (its words: "{shown(reason[:MAX_QUOTED])}")' if reason else ""
