"""The follow requests to us, the successor: the latest valid one of each
seat that turned to us, which the hand-over entry carries.

The relay's side shares one ``FollowRequests`` among its parts, and each
changes it only through a method that says why: the standby keeps a seat's
request (standby.py), catch-up drops one whose seat cannot send what it says
it holds (catchup.py), and the requests are spent once the relay moves
(handover.py, through relay.py). Everyone else reads it as a mapping."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from p2p_ttr.table.relaying import FollowRequest


class FollowRequests(Mapping[int, FollowRequest]):
    """Seat -> its latest valid follow request to us."""

    def __init__(self) -> None:
        self._by_seat: dict[int, FollowRequest] = {}

    def __getitem__(self, seat: int) -> FollowRequest:
        return self._by_seat[seat]

    def __iter__(self) -> Iterator[int]:
        return iter(self._by_seat)

    def __len__(self) -> int:
        return len(self._by_seat)

    def keep(self, request: FollowRequest) -> None:
        """A seat's valid request: it follows us from now on (its latest replaces the one before)."""
        self._by_seat[request.seat] = request

    def drop(self, seat: int) -> None:
        """``seat`` said it holds more than it could send us: it has not turned to us after all."""
        self._by_seat.pop(seat, None)

    def spent(self) -> None:
        """The relay moved (to us, or elsewhere): the requests of its term are spent."""
        self._by_seat.clear()
