"""Doctored logs, as a forger would make them: entries changed, dropped or
added, then the whole log signed again with fresh identities (a seating of
new keys), every head re-chained. Such a log is as well signed as an honest
one; only what its entries say can betray it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from p2p_ttr.table.envelope import open_envelope, seal
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.logchain import EMPTY_HEAD, chain, genesis

Body = list[Any]


def bodies(entries: Sequence[bytes]) -> list[Body]:
    return [open_envelope(raw).body for raw in entries]


def resigned(entries: Sequence[bytes], replace: Mapping[int, Body | None] | None = None) -> list[bytes]:
    """``entries`` with the bodies of ``replace`` swapped in (None drops the
    entry), signed again by fresh identities: the seating names their keys;
    each entry keeps its seat and sequence number and is written at the new
    log's head at the same position as the head its original was written at."""
    replace = replace or {}
    seating = open_envelope(entries[0])
    game_id = seating.game_id
    identities = [Identity.generate() for _ in seating.body[3]]  # [kind, rules, game, players, escrow?]
    old_heads = {genesis(game_id): 0}
    head = genesis(game_id)
    for index, raw in enumerate(entries):
        head = chain(head, raw)
        old_heads[head] = index + 1
    dropped = [index for index, body in replace.items() if body is None]
    out: list[bytes] = []
    new_heads = [genesis(game_id)]
    for index, raw in enumerate(entries):
        envelope = open_envelope(raw)
        body = replace.get(index, envelope.body)
        if body is None:
            continue
        if index == 0:
            body = [*body[:3], [[name, i.public] for (name, _), i in zip(body[3], identities)], *body[4:]]
            written_at = EMPTY_HEAD
        else:
            # The same prefix in the new log: less the entries dropped from it.
            applied = old_heads[envelope.head]
            written_at = new_heads[applied - sum(1 for i in dropped if i < applied)]
        sealed = seal(identities[envelope.seat], game_id, envelope.seat, envelope.seq, written_at, body).raw
        out.append(sealed)
        new_heads.append(chain(new_heads[-1], sealed))
    return out
