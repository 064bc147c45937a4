"""`fetch 0` from whoever a joiner follows, over and over (issue 42, item 5):
each one made the joiner queue its whole log again. Now at most one resend
is under way at a time, and a rate: counted in the frames queued on the
joiner's connection, on a clock of the test's own."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "net"))

from test_net_parts import seat  # noqa: E402

from p2p_ttr.net import resends  # noqa: E402
from p2p_ttr.net.frames import encode  # noqa: E402

HELD = 40


class Clock:
    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now


def test_a_flood_of_fetch_0_is_answered_with_one_resend_at_a_time_and_at_a_rate(tmp_path: Path) -> None:
    node, _, dealer = seat(tmp_path, 1, HELD)
    clock = Clock()
    node.follower.resends.clock = clock
    seconds, per_second = 20, 100
    for tick in range(seconds * per_second):  # 100 `fetch 0` a second for 20 s
        clock.now = 500.0 + tick / per_second
        node.follower.handle(encode("fetch", 0))
    haves = [f for k, f in dealer.sent if k == "have"]
    # One whole log at once, then at most one more each MIN_GAP_S: 20 resends, not 2000.
    assert len(haves) <= HELD * (seconds / resends.MIN_GAP_S + 1)
    assert len(haves) >= HELD  # the first was answered in full
    assert [f[0] for f in haves[:HELD]] == list(range(HELD))


def test_a_fetch_while_the_last_answer_is_under_way_is_dropped_and_answered_later(tmp_path: Path) -> None:
    node, _, dealer = seat(tmp_path, 1, HELD)
    clock = Clock()
    node.follower.resends.clock = clock
    node.follower.handle(encode("fetch", 30))
    assert [f[0] for k, f in dealer.sent if k == "have"] == list(range(30, HELD))
    dealer.sent.clear()
    for _ in range(50):
        node.follower.handle(encode("fetch", 0))  # at once: the whole log again, 50 times
    assert not [f for k, f in dealer.sent if k == "have"]
    clock.now += resends.MIN_GAP_S  # the relay asks again at its own pace: answered
    node.follower.handle(encode("fetch", 35))
    assert [f[0] for k, f in dealer.sent if k == "have"] == list(range(35, HELD))
