"""The halt and its blame: when the log leads somewhere no honest deck can.

A card in two places, a false proof, a false escrow share: the game stops,
and only the secret reveals that let the audit find the cheater are still
accepted. The fold names the seat when it can prove it (``culprit``); a
seat that stops the game by revealing its secrets mid-game is the
``stopper``, and the audit must then find a cheat, or the blame is its.
A false shuffle only this replica's own cards show is a ``suspicion``:
the peer makes it public by revealing its secrets, which halts every
replica alike.
"""

from __future__ import annotations


class Halting:
    """Whether the game halted, why, at which entry, and whom that blames."""

    def __init__(self) -> None:
        self.reason: str | None = None
        self.at: int | None = None  # the entry that proves it
        self.culprit: int | None = None  # the seat the fold itself proved to have cheated, if any
        self.stopper: int | None = None  # the seat whose mid-game reveal halted the game
        self.suspicion: str | None = None  # only this replica's: its own cards prove a shuffle false

    def halt(self, reason: str, culprit: int | None, at: int) -> None:
        """Stop the game at entry ``at``, naming ``culprit`` if the fold proved it."""
        self.reason, self.at, self.culprit = reason, at, culprit

    def stopped_by(self, seat: int, at: int) -> None:
        """``seat`` revealed its secrets mid-game (an honest peer does so only on proof of cheating)."""
        self.halt(f"seat {seat} stopped the game and revealed its secrets", None, at)
        self.stopper = seat

    def suspect(self, reason: str | None) -> None:
        """Keep the first thing our own cards proved false (``reason`` None: nothing did)."""
        self.suspicion = self.suspicion or reason
