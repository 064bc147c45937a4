"""Network frames: one msgpack list per ZeroMQ message, ``[kind, field...]``.

Decoding is bounded: the raw size is checked first, then msgpack runs with
limits (no maps, no extension types, short strings, short arrays), then the
fields are checked against the kind's declaration (``p2p_ttr.codec``: each
frame is one frozen dataclass whose fields carry their bounds, in wire
order). Anything else raises ``FrameError`` and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

import msgpack

from p2p_ttr.client.hellofacts import OtherVersion
from p2p_ttr.client.hellowords import refusal_reason
from p2p_ttr.client.livenessfacts import Why
from p2p_ttr.codec import Bool, Bytes, EnumValue, Family, Int, List, Optional, Str, Trailing, Tuple, same
from p2p_ttr.engine.boards import MAX_NAME as MAX_GAME_NAME
from p2p_ttr.engine.boards import UnknownGame, playable_game
from p2p_ttr.table.envelope import GAME_ID_BYTES, HASH_BYTES, MAX_ENVELOPE_BYTES, MAX_SEATS, pack
from p2p_ttr.table.identity import PUBLIC_KEY_BYTES, SIGNATURE_BYTES
from p2p_ttr.table.logfile import MAX_ENTRIES
from p2p_ttr.table.messages import GAME_NAMED, MAX_NAME

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
# 10: the challenge names the game played (board, variant, digest): a peer
#     that cannot play it stops before its hello, never taking a lobby place;
#     give_up and gave_up carry the giving-up seat's own signature (gaveupsig.py);
#     the hello names (and signs) the address its connection was dialled to:
#     a relay between a joiner and the host is not admitted (hellobind.py)
# 11: a joiner that heard a beacon asks the host to describe its game
#     (describe), and lists it only once the key the beacon names signed the
#     description over the joiner's fresh nonce and dialled address (vouch.py)
NET_VERSION = 11
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


# The fields' kinds, with their bounds (protocol.md §9 names them so).
Version = Annotated[int, Int(0, 2**16)]
Index = Annotated[int, Int(0, MAX_ENTRIES)]  # an index into the log, or its length
Seconds = Annotated[int, Int(0, MAX_SECONDS)]
Signature = Annotated[bytes, Bytes(SIGNATURE_BYTES)]
PublicKey = Annotated[bytes, Bytes(PUBLIC_KEY_BYTES)]
ChallengeBytes = Annotated[bytes, Bytes(CHALLENGE_BYTES)]
EnvelopeBytes = Annotated[bytes, Bytes(1, MAX_ENVELOPE_BYTES)]
GameId = Annotated["bytes | None", Optional(Bytes(GAME_ID_BYTES))]
GameNamed = Annotated["tuple[str, str, bytes] | None", Trailing(GAME_NAMED)]  # None: no game yet
Names = Annotated["tuple[str, ...]", List(Str(1, MAX_NAME), MAX_SEATS, name="name")]
Code = Annotated[str, Str(1, 64)]
DialledIp = Annotated[str, Str(1, 64)]  # a numeric IPv4 or IPv6 address, checked by the host (hellobind.py)
Port = Annotated[int, Int(1, 65535)]
Reason = Annotated[str, Str(1, MAX_REASON)]
SEAT_NUMBER = Int(0, MAX_SEATS - 1)
SeatNumber = Annotated[int, SEAT_NUMBER]
SeatNumbers = Annotated["tuple[int, ...]", List(SEAT_NUMBER, MAX_SEATS, unique=same, name="seat")]
WhyGiven = Annotated["Why", EnumValue(Why)]


def _first(pair: tuple[int, int]) -> int:
    return pair[0]


# ------------------------------------------------------------ frames
# One frozen dataclass per kind; the fields in wire order. ``decode_to_host``
# and ``decode_to_peer`` check a frame against its declaration and return the
# typed value; ``encode_frame`` writes one.


@dataclass(frozen=True)
class Hi:
    """Please send a challenge (every LAN version reads this frame)."""

    version: Version
    KIND: ClassVar[str] = "hi"


@dataclass(frozen=True)
class Hello:
    """Admit me: my name and identity, the address I dialled to reach you,
    and my signature over the challenge and that address."""

    version: Version
    name: Annotated[str, Str(1, MAX_NAME)]
    identity: PublicKey
    challenge: ChallengeBytes
    dialled_ip: DialledIp
    dialled_port: Port
    signature: Signature
    KIND: ClassVar[str] = "hello"


@dataclass(frozen=True)
class Env:
    """A signed envelope to sequence."""

    envelope: EnvelopeBytes
    KIND: ClassVar[str] = "env"


@dataclass(frozen=True)
class Sync:
    """Send me every entry from this index on."""

    start: Index
    KIND: ClassVar[str] = "sync"


@dataclass(frozen=True)
class Ping:
    """A heartbeat, with how many entries the sender holds (both directions),
    and a seat's log head at that length (so that a resumed relay counts only
    a log that is a prefix of its own: catchup.py, ``gate_opens``)."""

    length: Index
    head: Annotated["bytes | None", Trailing(Bytes(HASH_BYTES))] = None
    KIND: ClassVar[str] = "ping"


def reporting(length: int, head: bytes) -> Ping:
    """A seat's heartbeat: its log's length and head (none for an empty log)."""
    return Ping(length, head if length else None)


@dataclass(frozen=True)
class LeaveLobby:
    """A lobby member goes: free its place now."""

    KIND: ClassVar[str] = "leave"


@dataclass(frozen=True)
class Have:
    """An entry the host asked for (``Fetch``), with the host's own signature of it."""

    index: Index
    envelope: EnvelopeBytes
    signature: Signature
    KIND: ClassVar[str] = "have"


@dataclass(frozen=True)
class Follow:
    """The relay left: the sender follows the receiver, the next relay, from
    its log of ``length`` entries ending at ``head`` (its signed request)."""

    length: Annotated[int, Int(1, MAX_ENTRIES)]
    head: Annotated[bytes, Bytes(HASH_BYTES)]
    signature: Signature
    KIND: ClassVar[str] = "follow"


@dataclass(frozen=True)
class Challenge:
    """Fresh per connection; the game under way (None in the lobby), and the
    game played (board, variant, digest; left off by a peer with none yet),
    which the peer checks it can play before it answers."""

    version: Version
    host_identity: PublicKey
    challenge: ChallengeBytes
    game_id: GameId
    game: GameNamed = None
    KIND: ClassVar[str] = "challenge"


def unplayable(game: tuple[str, str, bytes] | None) -> str | None:
    """Why this peer cannot play the game a challenge names, in the engine's
    words (None: it can, or none is named)."""
    if game is None:
        return None
    board, variant, digest = game
    try:
        playable_game(board, variant, digest)
    except UnknownGame as exc:
        return str(exc)
    return None


@dataclass(frozen=True)
class Welcome:
    """Admitted: the seat (-1 in the lobby), the game, the log's length, the names."""

    seat: Annotated[int, Int(-1, MAX_SEATS - 1)]
    game_id: GameId
    length: Index
    names: Names
    KIND: ClassVar[str] = "welcome"


@dataclass(frozen=True)
class LobbyNews:
    """Who is in the lobby, how many the host waits for (0: until it says),
    and whether the game will escrow every seat's key (the joiner agrees to
    it by staying)."""

    names: Names
    wanted: Annotated[int, Int(0, MAX_SEATS)]
    escrow: Annotated[bool, Bool()]
    KIND: ClassVar[str] = "lobby"


@dataclass(frozen=True)
class NotAdmitted:
    """The host will not admit this connection: a code and a reason."""

    code: Code
    reason: Reason
    KIND: ClassVar[str] = "refused"


@dataclass(frozen=True)
class Entry:
    """A sequenced entry: its index, the envelope, the host's signature."""

    index: Index
    envelope: EnvelopeBytes
    signature: Signature
    KIND: ClassVar[str] = "entry"


@dataclass(frozen=True)
class Rejected:
    """The table refused the sender's envelope (by its hash): code and reason."""

    digest: Annotated[bytes, Bytes(HASH_BYTES)]
    code: Code
    reason: Reason
    KIND: ClassVar[str] = "rejected"


@dataclass(frozen=True)
class Fetch:
    """Send me your entries from this index on: my log lost them."""

    start: Index
    KIND: ClassVar[str] = "fetch"


@dataclass(frozen=True)
class Pause:
    """The host stops for now at this log length (signed: pause.py)."""

    length: Index
    signature: Signature
    KIND: ClassVar[str] = "pause"


@dataclass(frozen=True)
class Silent:
    """The seats the relay has not heard from for its relay timeout (their
    connection, pings included), each with the whole seconds it has not
    heard them for. A hint, not proof: see protocol.md §9."""

    silence: Annotated["tuple[tuple[int, int], ...]",
                       List(Tuple((("seat", SEAT_NUMBER), ("seconds", Int(0, MAX_SECONDS)))), MAX_SEATS, unique=_first)]
    KIND: ClassVar[str] = "silent"


@dataclass(frozen=True)
class GiveUp:
    """The sender gives up on the game and leaves: ``why``, waiting for the
    seats ``about``, after ``seconds``, signed by the sender's seat
    (gaveupsig.py; the relay passes it on as ``GaveUp``)."""

    why: WhyGiven
    about: SeatNumbers
    seconds: Seconds
    signature: Signature
    KIND: ClassVar[str] = "give_up"


@dataclass(frozen=True)
class GaveUp:
    """``seat`` gave up on the game: its ``GiveUp``, passed on by the relay to
    every connection with the seat's own signature (a peer believes only that)."""

    seat: SeatNumber
    why: WhyGiven
    about: SeatNumbers
    seconds: Seconds
    signature: Signature
    KIND: ClassVar[str] = "gave_up"


@dataclass(frozen=True)
class Witness:
    """The sender's own signed envelope, sent to another seat directly: the
    relay, alive, has not sequenced it (protocol.md §9, Held back)."""

    envelope: EnvelopeBytes
    KIND: ClassVar[str] = "witness"


@dataclass(frozen=True)
class Describe:
    """Describe your game, signed over my fresh ``nonce`` and the address I
    dialled (a joiner that heard a beacon, before it lists the game: vouch.py)."""

    version: Version
    nonce: ChallengeBytes
    dialled_ip: DialledIp
    dialled_port: Port
    KIND: ClassVar[str] = "describe"


@dataclass(frozen=True)
class Described:
    """The host's game, in the words its beacon's listing shows, signed by the
    host's key over the asker's nonce and dialled address (vouch.py)."""

    name: Annotated[str, Str(1, MAX_NAME)]
    players: Annotated[int, Int(1, MAX_SEATS)]
    seats_free: Annotated[int, Int(0, MAX_SEATS)]
    game_id: GameId
    board: Annotated[str, Str(1, MAX_GAME_NAME)]
    variant: Annotated[str, Str(0, MAX_GAME_NAME)]
    signature: Signature
    KIND: ClassVar[str] = "described"


@dataclass(frozen=True)
class Watch:
    """Admit me as a watcher: no seat, no name, no key; it answers this
    connection's challenge, so that a pause can be signed for it."""

    version: Version
    challenge: ChallengeBytes
    KIND: ClassVar[str] = "watch"


@dataclass(frozen=True)
class Watching:
    """Admitted as a watcher: the game under way (None in the lobby) and the log's length."""

    game_id: GameId
    length: Index
    KIND: ClassVar[str] = "watching"


ToHost = Hi | Hello | Env | Sync | Ping | LeaveLobby | Have | Follow | Witness | GiveUp | Watch | Describe
ToPeer = (Challenge | Welcome | LobbyNews | NotAdmitted | Entry | Rejected | Ping | Fetch | Pause | Silent | GaveUp
          | Watching | Described)
Frame = ToHost | ToPeer


def _family(types: tuple[type[Any], ...]) -> Family[Any]:
    return Family(types, FrameError, unknown=lambda kind: f"unknown frame kind {kind[:24]!r}",
                  malformed=lambda kind, why: f"malformed {kind} frame ({why})")


# What a peer sends to the host, and what the host sends to a peer: each a
# mapping from kind to frame type.
TO_HOST: Family[ToHost] = _family((Hi, Hello, Env, Sync, Ping, LeaveLobby, Have, Follow, Witness, GiveUp, Watch,
                                   Describe))
TO_PEER: Family[ToPeer] = _family((Challenge, Welcome, LobbyNews, NotAdmitted, Entry, Rejected, Ping, Fetch, Pause,
                                   Silent, GaveUp, Watching, Described))


def decode_to_host(raw: bytes) -> ToHost:
    """A frame a peer sent the host.

    Raises:
        FrameError: as ``decode``.
    """
    return TO_HOST.decode(_unpack(raw))


def decode_to_peer(raw: bytes) -> ToPeer:
    """A frame the host sent a peer.

    Raises:
        FrameError: as ``decode``.
    """
    return TO_PEER.decode(_unpack(raw))


def encode_frame(frame: Frame) -> bytes:
    """The bytes of a typed frame.

    Raises:
        FrameError: it would be too large.
    """
    family: Family[Any] = TO_HOST if frame.KIND in TO_HOST else TO_PEER
    return encode(*family.encode(frame))


def encode(kind: str, *fields: Any) -> bytes:
    """A frame from its kind and fields, unchecked (``encode_frame`` for typed ones)."""
    raw = pack([kind, *fields])
    if len(raw) > MAX_FRAME_BYTES:
        raise FrameError(f"a {kind} frame of {len(raw)} bytes is too large")
    return raw


def decode(raw: bytes, family: Family[Any]) -> tuple[str, list[Any]]:
    """The kind and checked fields (as msgpack read them) of one frame.

    Raises:
        FrameError: not bytes, too large, not msgpack within the limits, not
            a list starting with a kind ``family`` knows, or a field that is
            off its declaration.
    """
    value = _unpack(raw)
    family.decode(value)
    return value[0], value[1:]


def _unpack(raw: bytes) -> list[Any]:
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
    return value


def other_version_words(version: int) -> str:
    """Why a peer of LAN ``version`` is refused: the ``refused`` frame's reason, worded by the client."""
    return refusal_reason(OtherVersion(version, NET_VERSION))


def clip(text: str) -> str:
    """A reason short enough for a frame."""
    return (text or "-")[:MAX_REASON]
