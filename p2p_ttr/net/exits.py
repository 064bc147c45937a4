"""The one way a peer's run ends early: an exit code and what the player is told.

Any part of a peer (the follower, the hand-over, the relay's parts) raises
``PeerExit``; the loop (node.py) catches it, tells the player and returns
the code. What it tells is a typed fact (client/peerexits.py, or a
netnotices.py fact), worded where it reaches the player; a string only
where an error below already says it in words.
"""

from __future__ import annotations

from p2p_ttr.client.exitwords import last_words
from p2p_ttr.client.netnotices import Notice
from p2p_ttr.client.peerexits import PeerEnd


class PeerExit(Exception):
    """Ends the peer's run with a process exit code and what the player is told."""

    def __init__(self, code: int, told: str | Notice | PeerEnd) -> None:
        super().__init__(told)
        self.code = code
        self.told = told

    def __str__(self) -> str:
        """Its words with no seat named (the loop words it with the seating's
        names: Console.last_words); for a traceback or a test."""
        return last_words(self.told, ())
