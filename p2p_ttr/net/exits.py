"""The one way a peer's run ends early: an exit code and a message for the player.

Any part of a peer (the follower, the hand-over, the relay's parts) raises
``PeerExit``; the loop (node.py) catches it, says the message and returns
the code.
"""

from __future__ import annotations


class PeerExit(Exception):
    """Ends the peer's run with a process exit code and a message for the player."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
