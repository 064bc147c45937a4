"""The one way a peer's run ends early: an exit code and what the player is told.

Any part of a peer (the follower, the hand-over, the relay's parts) raises
``PeerExit``; the loop (node.py) catches it, tells the player and returns
the code. What it tells is a typed fact (client/peerexits.py, a
netnotices.py fact, or the socket's trouble: client/transportfacts.py),
worded where it reaches the player (client/exitwords.py).
"""

from __future__ import annotations

from p2p_ttr.client.exitwords import Told, last_words


class PeerExit(Exception):
    """Ends the peer's run with a process exit code and what the player is told."""

    def __init__(self, code: int, told: Told) -> None:
        super().__init__(told)
        self.code = code
        self.told = told

    def __str__(self) -> str:
        """Its words with no seat named (the loop words it with the seating's
        names: Console.last_words); for a traceback or a test."""
        return last_words(self.told, ())
