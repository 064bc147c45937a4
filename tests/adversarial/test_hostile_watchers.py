"""Sixteen fake watchers that only ping (issue 42, item 8): they held every
watcher slot, and a real `ttr watch` was told the table is full. A slot is
now kept by reading (a count of entries held that grows, up to what the
watcher was sent), not by pings: a new watcher takes the slot of the one
that read least recently once it read nothing for IDLE_S; watchers that
read keep theirs."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "net"))

from test_net_watchers import watch, watching  # noqa: E402

from p2p_ttr.net import watchers  # noqa: E402
from p2p_ttr.net.frames import encode  # noqa: E402

FAKES = [b"\0fake%d" % i for i in range(watchers.MAX_WATCHERS)]


def test_sixteen_watchers_that_only_ping_give_their_slots_to_one_that_reads(tmp_path: Path) -> None:
    node, router, clock = watching(tmp_path)
    for rid in FAKES:
        watch(node, router, rid)
    for _ in range(30):  # half a minute of a ping a second each, claiming what they like but reading nothing
        clock.now += 1
        node.relay.flush()  # they are sent the log, as any watcher
        node.relay.beat()
        for i, rid in enumerate(FAKES):
            node.relay.handle([rid, encode("ping", 0 if i % 2 else 5000)])  # nothing, or more than exists
    assert set(node.relay.watchers.conns) == set(FAKES)  # alive: none forgotten as silent

    watch(node, router, b"\0real")
    assert not router.to(b"\0real", "refused")
    assert b"\0real" in node.relay.watchers.conns and len(node.relay.watchers.conns) == watchers.MAX_WATCHERS
    assert router.to(b"\0real", "watching")
    # It reads: asks from 0, is sent the log, says it holds it.
    node.relay.handle([b"\0real", encode("sync", 0)])
    node.relay.flush()
    assert [e[0] for e in router.to(b"\0real", "entry")] == list(range(40))
    clock.now += 1
    node.relay.handle([b"\0real", encode("ping", 40)])
    # A fake that claimed more than exists had read no more than it was sent, and reads nothing after:
    # each new watcher takes a fake's slot, never the reader's.
    for n in range(watchers.MAX_WATCHERS - 1):
        clock.now += 1
        watch(node, router, b"\0new%d" % n)
        assert not router.to(b"\0new%d" % n, "refused")
        assert b"\0real" in node.relay.watchers.conns
    assert not set(FAKES) & set(node.relay.watchers.conns)


def test_watchers_that_read_keep_their_slots_and_one_more_is_refused(tmp_path: Path) -> None:
    node, router, clock = watching(tmp_path)
    readers = [b"\0r%d" % i for i in range(watchers.MAX_WATCHERS)]
    for rid in readers:
        watch(node, router, rid)
        node.relay.handle([rid, encode("sync", 0)])
    node.relay.flush()
    clock.now += watchers.IDLE_S - 1
    for rid in readers:
        node.relay.handle([rid, encode("ping", 40)])  # each took the whole log: read just now
    clock.now += watchers.IDLE_S - 1
    watch(node, router, b"\0late")
    assert router.to(b"\0late", "refused") == [["full", f"this table has {watchers.MAX_WATCHERS} watchers already"]]
    assert set(node.relay.watchers.conns) == set(readers)
