"""Why a host turns a hello away, in words for the one it turns away: one
``match`` over hellofacts.py's facts. These words go on the wire as the
``refused`` frame's reason (protocol.md §9), byte for byte as they always
have, so nothing here is escaped: the joiner's side shows them safely, as a
quoted detail beside its own words for the code (refusalwords.py), and the
host's own screen shows them through its drop notes' sanitiser."""

from __future__ import annotations

from typing import assert_never

from .hellofacts import (DialledElsewhere, DialledNoAddress, GameUnderWay, HelloProblem, HelloUnsigned,
                         HostsOwnIdentity, LobbyFull, NameInUse, NameLookalike, NameRefused, NoGameYet, OtherVersion,
                         StartedBeforePlace, WatchersFull)

PICK_ANOTHER = "pick another with --name"


def refusal_reason(problem: HelloProblem) -> str:  # noqa: C901 - one case per fact, read down
    """``problem`` in words for the joiner (the wire's reason, before its cut)."""
    match problem:
        case OtherVersion(version, ours):
            return f"this host speaks LAN protocol {ours}, you speak {version}: update ttr"
        case HelloUnsigned():
            return "your hello is not signed by your identity key"
        case NameRefused(rule):
            return f"{rule}: {PICK_ANOTHER}"
        case HostsOwnIdentity():
            return "that is the host's own identity"
        case NameInUse(name):
            return f"the name {name!r} is taken at this table: {PICK_ANOTHER}"
        case NameLookalike(name, other):
            return (f"the name {name!r} ({ascii(name)}) looks the same as {other!r}, already at this table: "
                    f"{PICK_ANOTHER}")
        case LobbyFull(capacity, waiting):
            return f"the game is full ({capacity} players, {waiting} waiting)"
        case GameUnderWay():
            return "the game has already started"
        case NoGameYet():
            return "no game here yet"
        case StartedBeforePlace():
            return "the game started before a place freed"
        case WatchersFull(count):
            return f"this table has {count} watchers already"
        case DialledNoAddress(ip):
            return f"your hello names {ip!r} as the address you dialled, which is no IP address"
        case DialledElsewhere(ip, port):
            where = f"[{ip}]:{port}" if ":" in ip else f"{ip}:{port}"
            return (f"you dialled {where}, which is not where this host listens: something between us passes your "
                    "connection on (a relay that answered a beacon, or a port forward); dial this host's own address")
        case _:
            assert_never(problem)
