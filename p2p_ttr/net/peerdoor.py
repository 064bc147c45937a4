"""The one door for frames from the peer we dialled (the host, the relay we
follow, the seat we watch): decoded, then every string in them made safe to
show (``client/peerwords.py``). Every reader of such frames (the follower,
the watcher, the witness) comes through here, so no word a peer chose
reaches a screen or a log raw, whichever print it ends in."""

from __future__ import annotations

from p2p_ttr.client.peerwords import words_shown

from . import frames


def from_peer(raw: bytes) -> frames.ToPeer:
    """The frame in ``raw``, its words shown safely; FrameError as ``frames.decode_to_peer``."""
    return words_shown(frames.decode_to_peer(raw))
