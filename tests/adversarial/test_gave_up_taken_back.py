"""A `gave_up` that no longer holds: its seat came back, or it is replayed.

Found thinking like a cheater against the signed give_up (issue 42, item
6's fix): the signature says who gave up, not when. On main a seat named in
a signed `gave_up` stayed "gave up" on every peer for the rest of the run,
even once it was back (a seat told to stop for now resumes by the same
command) and thinking over its move, and a scripted peer gave the game up
after its `--timeout`. And whoever recorded that word (the relay, anyone on
the path) could replay it in a later run while the seat played, with the
same effect. Now a gave_up holds while its seat may still be leaving and
while the relay's word calls it silent; heard past that, it is back
(net/liveness.py, ``Presence.gone``). In process: the frames are handed to
a follower as its socket would, on a clock the test moves.
"""

from __future__ import annotations

from pathlib import Path

from test_net_parts import game, seat

from p2p_ttr.client.livenessfacts import SeatGaveUp, Waiting, Why
from p2p_ttr.net import frames
from p2p_ttr.net.gaveupsig import sign_gave_up
from p2p_ttr.net.liveness import stalls

RELAY_TIMEOUT_S = 20.0


def test_a_seat_that_gave_up_and_came_back_is_waited_for_not_given_up_on(tmp_path: Path) -> None:
    node, _, _ = seat(tmp_path, 1, 21)  # seat 0, Anna, owes a move: a person thinking
    table = node.table
    assert table is not None and table.game_id is not None
    now = [1000.0]
    presence = node.presence
    presence.clock, presence.leaving_s = (lambda: now[0]), RELAY_TIMEOUT_S + 5.0
    target = 0
    assert {(o.seat, o.what.name) for o in table.obligations()} == {(target, "MOVE")}
    news = SeatGaveUp(target, Why.SILENT, (1,), 120)
    word = frames.encode_frame(frames.GaveUp(target, news.why, news.about, news.seconds,
                                             sign_gave_up(game().peers[target].identity, table.game_id, news)))

    def relay_says(*silent: tuple[int, int]) -> None:
        node.follower.handle(frames.encode_frame(frames.Silent(silent)))

    def waiting() -> Waiting:
        (stall,) = [s for s in stalls(table, 1, presence, 0.0) if s.seat == target]
        return stall.waiting

    def at(t: float) -> None:
        now[0] = 1000.0 + t

    relay_says()
    assert waiting() is Waiting.THINKING
    node.follower.handle(word)  # it gave up, and leaves
    at(1)
    relay_says()  # not silent yet: its connection only just closed
    assert waiting() is Waiting.GAVE_UP
    at(22)
    relay_says((target, 21))
    assert waiting() is Waiting.GAVE_UP
    at(60)
    relay_says()  # resumed by the same command: the relay hears it again
    assert waiting() is Waiting.THINKING
    at(100)
    node.follower.handle(word)  # the same signed word, replayed while it plays
    relay_says()
    assert waiting() is Waiting.GAVE_UP  # for as long as a seat leaving takes to fall silent
    at(126)
    relay_says()
    assert waiting() is Waiting.THINKING
    at(140)  # no fresh word from the relay (we lost it): the word holds
    assert presence.gone(target)
