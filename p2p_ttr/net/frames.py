"""Network frames: one msgpack list per ZeroMQ message, ``[kind, field...]``.

Decoding is bounded: the raw size is checked first, then msgpack runs with
limits (no maps, no extension types, short strings, short arrays), then the
fields are checked against the kind's schema. Anything else raises
``FrameError`` and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from typing import Any, ClassVar

import msgpack

from p2p_ttr.client.giveup import Why
from p2p_ttr.table.envelope import GAME_ID_BYTES, HASH_BYTES, MAX_ENVELOPE_BYTES, MAX_SEATS, pack
from p2p_ttr.table.identity import PUBLIC_KEY_BYTES, SIGNATURE_BYTES
from p2p_ttr.table.logfile import MAX_ENTRIES
from p2p_ttr.table.messages import MAX_NAME

# 2: a challenge per connection, and the hello names the challenge it answers;
# 3: a lobby member says when it leaves, and a host fetches entries its log lost;
# 4: a host that stops for now tells its joiners (pause)
# 5: the relay can move: a seat tells the next relay it follows it (follow),
#    entries are signed by the relay of the moment, any seat may be welcomed
# 6: a seat shows another seat its own envelope the relay holds back (witness)
# 7: the relay says who is silent in every game (silent), and a peer that
#    gives up on the game says so, to every screen (give_up, gave_up)
# 8: a watcher (no seat, no secret) is admitted by a hello of its own (watch),
#    and follows the public log (watchers.py)
# 9: the relay's silent word says how long each seat has been silent
NET_VERSION = 9
CHALLENGE_BYTES = 32
MAX_FRAME_BYTES = MAX_ENVELOPE_BYTES + 1024
MAX_REASON = 400
MAX_SECONDS = 10**6  # a count of seconds on the wire (giving up, silence): 11 days
_LIMITS = dict(
    max_str_len=MAX_REASON * 4,
    max_bin_len=MAX_ENVELOPE_BYTES,
    max_array_len=16,
    max_map_len=0,
    max_ext_len=0,
)


class FrameError(ValueError):
    """A frame that is too large, not msgpack, or not a frame we know."""


Check = Callable[[Any], bool]


def _int(lo: int, hi: int) -> Check:
    return lambda v: type(v) is int and lo <= v <= hi


def _bin(size: int) -> Check:
    return lambda v: isinstance(v, bytes) and len(v) == size


def _str(max_len: int) -> Check:
    return lambda v: isinstance(v, str) and 0 < len(v) <= max_len


def _names(v: Any) -> bool:
    return isinstance(v, list) and len(v) <= MAX_SEATS and all(_str(MAX_NAME)(n) for n in v)


def _seats(v: Any) -> bool:
    return (isinstance(v, list) and len(v) <= MAX_SEATS and all(_int(0, MAX_SEATS - 1)(s) for s in v)
            and len(set(v)) == len(v))


def _why(v: Any) -> bool:
    return isinstance(v, str) and v in {w.value for w in Why}


_INDEX = _int(0, MAX_ENTRIES)
_SECONDS = _int(0, MAX_SECONDS)
_ENVELOPE: Check = lambda v: isinstance(v, bytes) and 0 < len(v) <= MAX_ENVELOPE_BYTES
_GAME_ID: Check = lambda v: v is None or _bin(GAME_ID_BYTES)(v)


def _silence(v: Any) -> bool:
    """[[seat, seconds]...]: distinct seats of a table, each with a bounded count of seconds."""
    return (isinstance(v, list) and len(v) <= MAX_SEATS
            and all(isinstance(p, list) and len(p) == 2 and _int(0, MAX_SEATS - 1)(p[0]) and _SECONDS(p[1])
                    for p in v)
            and len({p[0] for p in v}) == len(v))


# What a peer sends to the host.
TO_HOST: dict[str, tuple[Check, ...]] = {
    "hi": (_int(0, 2**16),),  # [version]: please send a challenge
    # version, name, identity key, the challenge it answers, signature
    "hello": (_int(0, 2**16), _str(MAX_NAME), _bin(PUBLIC_KEY_BYTES), _bin(CHALLENGE_BYTES), _bin(SIGNATURE_BYTES)),
    "env": (_ENVELOPE,),  # a signed envelope to sequence
    "sync": (_INDEX,),  # send me every entry from this index on
    "ping": (_INDEX,),  # heartbeat, with how many entries I have
    "leave": (),  # a lobby member goes: free its place now (the game has not started)
    "have": (_INDEX, _ENVELOPE, _bin(SIGNATURE_BYTES)),  # an entry the host asked for (fetch), with its signature
    # the relay left: I follow you from my log of this length ending at this head (signed, table/relaying.py)
    "follow": (_int(1, MAX_ENTRIES), _bin(HASH_BYTES), _bin(SIGNATURE_BYTES)),
    # I give up on the game, why, on which seats, after how many seconds (the relay tells everyone)
    "give_up": (_why, _seats, _SECONDS),
    # my signed envelope, which the relay has not sequenced though it is alive: see it yourself (witness.py)
    "witness": (_ENVELOPE,),
    # admit me as a watcher (no seat, no name, no key): the version and the challenge of this connection
    "watch": (_int(0, 2**16), _bin(CHALLENGE_BYTES)),
}
# What the host sends to a peer.
TO_PEER: dict[str, tuple[Check, ...]] = {
    # fresh per connection; the game under way (nil in the lobby), so that a
    # joiner of another game leaves before it says hello
    "challenge": (_int(0, 2**16), _bin(PUBLIC_KEY_BYTES), _bin(CHALLENGE_BYTES), _GAME_ID),
    "welcome": (_int(-1, MAX_SEATS - 1), _GAME_ID, _INDEX, _names),  # seat (-1: lobby), game, log length, names
    # who is in, how many the host waits for (0: until it says), whether the game will use escrow
    "lobby": (_names, _int(0, MAX_SEATS), lambda v: isinstance(v, bool)),
    "refused": (_str(64), _str(MAX_REASON)),  # code, reason
    "entry": (_INDEX, _ENVELOPE, _bin(SIGNATURE_BYTES)),  # index, envelope, host signature
    "rejected": (_bin(HASH_BYTES), _str(64), _str(MAX_REASON)),  # sha256(envelope), code, reason
    "ping": (_INDEX,),  # heartbeat, with the log length
    "fetch": (_INDEX,),  # send me your entries from this index on: my log lost them (after a crash)
    "pause": (_INDEX, _bin(SIGNATURE_BYTES)),  # the host stops for now at this log length (signed: pause.py)
    # the seats the relay has not heard for the relay timeout (every game), each with how long it has not
    "silent": (_silence,),
    "gave_up": (_int(0, MAX_SEATS - 1), _why, _seats, _SECONDS),  # that seat gave up: a give_up passed on
    "watching": (_GAME_ID, _INDEX),  # admitted as a watcher: the game (nil in the lobby), the log's length
}


# ------------------------------------------------------------ typed frames
# One frozen dataclass per kind; the fields in wire order. ``decode_to_host``
# and ``decode_to_peer`` check a frame against its schema above and return the
# typed value; ``encode_frame`` writes one.


@dataclass(frozen=True)
class Hi:
    """Please send a challenge (every LAN version reads this frame)."""

    version: int
    KIND: ClassVar[str] = "hi"


@dataclass(frozen=True)
class Hello:
    """Admit me: my name and identity, and my signature over the challenge."""

    version: int
    name: str
    identity: bytes
    challenge: bytes
    signature: bytes
    KIND: ClassVar[str] = "hello"


@dataclass(frozen=True)
class Env:
    """A signed envelope to sequence."""

    envelope: bytes
    KIND: ClassVar[str] = "env"


@dataclass(frozen=True)
class Sync:
    """Send me every entry from this index on."""

    start: int
    KIND: ClassVar[str] = "sync"


@dataclass(frozen=True)
class Ping:
    """A heartbeat, with how many entries the sender holds (both directions)."""

    length: int
    KIND: ClassVar[str] = "ping"


@dataclass(frozen=True)
class Leave:
    """A lobby member goes: free its place now."""

    KIND: ClassVar[str] = "leave"


@dataclass(frozen=True)
class Have:
    """An entry the host asked for (``Fetch``), with the host's own signature of it."""

    index: int
    envelope: bytes
    signature: bytes
    KIND: ClassVar[str] = "have"


@dataclass(frozen=True)
class Follow:
    """The relay left: the sender follows the receiver, the next relay, from
    its log of ``length`` entries ending at ``head`` (its signed request)."""

    length: int
    head: bytes
    signature: bytes
    KIND: ClassVar[str] = "follow"


@dataclass(frozen=True)
class Challenge:
    """Fresh per connection; the game under way (None in the lobby)."""

    version: int
    host_identity: bytes
    challenge: bytes
    game_id: bytes | None
    KIND: ClassVar[str] = "challenge"


@dataclass(frozen=True)
class Welcome:
    """Admitted: the seat (-1 in the lobby), the game, the log's length, the names."""

    seat: int
    game_id: bytes | None
    length: int
    names: tuple[str, ...]
    KIND: ClassVar[str] = "welcome"


@dataclass(frozen=True)
class LobbyNews:
    """Who is in the lobby, how many the host waits for (0: until it says),
    and whether the game will escrow every seat's key (the joiner agrees to
    it by staying)."""

    names: tuple[str, ...]
    wanted: int
    escrow: bool
    KIND: ClassVar[str] = "lobby"


@dataclass(frozen=True)
class Refused:
    """The host will not admit this connection: a code and a reason."""

    code: str
    reason: str
    KIND: ClassVar[str] = "refused"


@dataclass(frozen=True)
class Entry:
    """A sequenced entry: its index, the envelope, the host's signature."""

    index: int
    envelope: bytes
    signature: bytes
    KIND: ClassVar[str] = "entry"


@dataclass(frozen=True)
class Rejected:
    """The table refused the sender's envelope (by its hash): code and reason."""

    digest: bytes
    code: str
    reason: str
    KIND: ClassVar[str] = "rejected"


@dataclass(frozen=True)
class Fetch:
    """Send me your entries from this index on: my log lost them."""

    start: int
    KIND: ClassVar[str] = "fetch"


@dataclass(frozen=True)
class Pause:
    """The host stops for now at this log length (signed: pause.py)."""

    length: int
    signature: bytes
    KIND: ClassVar[str] = "pause"


@dataclass(frozen=True)
class Silent:
    """The seats the relay has not heard from for its relay timeout (their
    connection, pings included), each with the whole seconds it has not
    heard them for. A hint, not proof: see protocol.md §9."""

    silence: tuple[tuple[int, int], ...]  # (seat, seconds)
    KIND: ClassVar[str] = "silent"


@dataclass(frozen=True)
class GiveUp:
    """The sender gives up on the game and leaves: ``why``, waiting for the
    seats ``about``, after ``seconds`` (the relay passes it on as ``GaveUp``)."""

    why: Why
    about: tuple[int, ...]
    seconds: int
    KIND: ClassVar[str] = "give_up"

    def __post_init__(self) -> None:
        object.__setattr__(self, "why", Why(self.why))  # read off the wire as a str


@dataclass(frozen=True)
class GaveUp:
    """``seat`` gave up on the game: its ``GiveUp``, passed on by the relay to every connection."""

    seat: int
    why: Why
    about: tuple[int, ...]
    seconds: int
    KIND: ClassVar[str] = "gave_up"

    def __post_init__(self) -> None:
        object.__setattr__(self, "why", Why(self.why))


@dataclass(frozen=True)
class Witness:
    """The sender's own signed envelope, sent to another seat directly: the
    relay, alive, has not sequenced it (protocol.md §9, Held back)."""

    envelope: bytes
    KIND: ClassVar[str] = "witness"


@dataclass(frozen=True)
class Watch:
    """Admit me as a watcher: no seat, no name, no key; it answers this
    connection's challenge, so that a pause can be signed for it."""

    version: int
    challenge: bytes
    KIND: ClassVar[str] = "watch"


@dataclass(frozen=True)
class Watching:
    """Admitted as a watcher: the game under way (None in the lobby) and the log's length."""

    game_id: bytes | None
    length: int
    KIND: ClassVar[str] = "watching"


ToHost = Hi | Hello | Env | Sync | Ping | Leave | Have | Follow | Witness | GiveUp | Watch
ToPeer = Challenge | Welcome | LobbyNews | Refused | Entry | Rejected | Ping | Fetch | Pause | Silent | GaveUp | Watching
Frame = ToHost | ToPeer
_TO_HOST_TYPES: dict[str, type[Any]] = {t.KIND: t for t in (Hi, Hello, Env, Sync, Ping, Leave, Have,
                                                                         Follow, Witness, GiveUp, Watch)}
_TO_PEER_TYPES: dict[str, type[Any]] = {t.KIND: t for t in (Challenge, Welcome, LobbyNews, Refused, Entry, Rejected,
                                                             Ping, Fetch, Pause, Silent, GaveUp, Watching)}


def _frozen(value: Any) -> Any:
    return tuple(_frozen(v) for v in value) if isinstance(value, list) else value


def _typed(types: dict[str, type[Any]], kind: str, fields: list[Any]) -> Any:
    # Lists (and lists in them) become tuples: a frame is a frozen value.
    return types[kind](*(_frozen(f) for f in fields))


def decode_to_host(raw: bytes) -> ToHost:
    """A frame a peer sent the host.

    Raises:
        FrameError: as ``decode``.
    """
    kind, fields = decode(raw, TO_HOST)
    frame: ToHost = _typed(_TO_HOST_TYPES, kind, fields)
    return frame


def decode_to_peer(raw: bytes) -> ToPeer:
    """A frame the host sent a peer.

    Raises:
        FrameError: as ``decode``.
    """
    kind, fields = decode(raw, TO_PEER)
    frame: ToPeer = _typed(_TO_PEER_TYPES, kind, fields)
    return frame


def encode_frame(frame: Frame) -> bytes:
    """The bytes of a typed frame.

    Raises:
        FrameError: it would be too large.
    """
    values = [getattr(frame, f.name) for f in dataclass_fields(frame)]
    return encode(frame.KIND, *(list(v) if isinstance(v, tuple) else v for v in values))


def encode(kind: str, *fields: Any) -> bytes:
    """A frame from its kind and fields, unchecked (``encode_frame`` for typed ones)."""
    raw = pack([kind, *fields])
    if len(raw) > MAX_FRAME_BYTES:
        raise FrameError(f"a {kind} frame of {len(raw)} bytes is too large")
    return raw


def decode(raw: bytes, schema: dict[str, tuple[Check, ...]]) -> tuple[str, list[Any]]:
    """The kind and checked fields of one frame.

    Raises:
        FrameError: not bytes, too large, not msgpack within the limits, not
            a list starting with a kind ``schema`` knows, or a field that fails
            its check.
    """
    if not isinstance(raw, bytes):
        raise FrameError("a frame is bytes")
    if len(raw) > MAX_FRAME_BYTES:
        raise FrameError(f"frame of {len(raw)} bytes (at most {MAX_FRAME_BYTES})")
    try:
        value = msgpack.unpackb(raw, raw=False, strict_map_key=True, use_list=True, **_LIMITS)
    except Exception as exc:  # the C unpacker raises many kinds on hostile input
        raise FrameError(f"not valid msgpack ({type(exc).__name__})") from None
    if not isinstance(value, list) or not value or not isinstance(value[0], str):
        raise FrameError("a frame is a list that starts with its kind")
    kind, fields = value[0], value[1:]
    checks = schema.get(kind)
    if checks is None:
        raise FrameError(f"unknown frame kind {kind[:24]!r}")
    if len(fields) != len(checks) or not all(check(f) for check, f in zip(checks, fields)):
        raise FrameError(f"malformed {kind} frame")
    return kind, fields


def clip(text: str) -> str:
    """A reason short enough for a frame."""
    return (text or "-")[:MAX_REASON]
