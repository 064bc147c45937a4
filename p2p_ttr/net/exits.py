"""The one way a peer's run ends early: an exit code and what the player is told.

Any part of a peer (the follower, the hand-over, the relay's parts) raises
``PeerExit``; the loop (node.py) catches it, tells the player and returns
the code. What it tells is a typed fact (client/netnotices.py), worded where
it reaches the player, or still a sentence where no fact has been named yet.
"""

from __future__ import annotations

from p2p_ttr.client.netnotices import Notice


class PeerExit(Exception):
    """Ends the peer's run with a process exit code and what the player is told."""

    def __init__(self, code: int, told: str | Notice) -> None:
        super().__init__(told)
        self.code = code
        self.told = told
