"""Fuzzing every decoder and validator a peer exposes: no input crashes a peer,
and a refused input changes nothing.

Already fuzzed elsewhere (not repeated here): deck records
(tests/deck/test_wire.py), engine events and actions
(tests/engine/test_playouts.py), network frames (tests/net/test_net_units.py),
single-byte changes to a whole log under `ttr verify`
(tests/table/test_verify.py). Here: envelopes; validly signed messages with
mutated bodies, fed to replicas at several points of a game; the host's and a
joiner's frame handlers in a running game; log files, stores, secrets,
equivocation proofs and hellos read from disk or the wire; the UDP beacons
any machine on the LAN can send to `ttr join`; `ttr verify` on reordered,
dropped and repeated entries.

``TTR_FUZZ_SCALE=N`` multiplies every example count (default 1, for CI).
"""

from __future__ import annotations

import copy
import functools
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import NAMES, FakeSocket, honest_game, replica, snapshot
from p2p_ttr.deck.group import Q
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.net import frames
from p2p_ttr.net.console import Console
from p2p_ttr.net.discovery import BEACON_MAGIC, BEACON_VERSION, MAX_BEACON_BYTES, Announcement, BeaconError, Heard
from p2p_ttr.net.discovery import parse as parse_beacon
from p2p_ttr.net.frames import NET_VERSION
from p2p_ttr.net.host import Host, HostOptions
from p2p_ttr.net.lobby import Lobby, HelloRefusal, sign_hello
from p2p_ttr.net.node import Node, NodeExit, NodeOptions
from p2p_ttr.net.seqsig import EquivocationProof, sign_entry
from p2p_ttr.net.store import DataDir, GameStore, StoreError
from p2p_ttr.table.envelope import open_envelope, pack, seal
from p2p_ttr.table.errors import Malformed, TableError
from p2p_ttr.table.identity import PUBLIC_KEY_BYTES, Identity
from p2p_ttr.table.logfile import LogFileError, header, parse_log
from p2p_ttr.table.logfile import entry as log_entry
from p2p_ttr.table.messages import MAX_NAME
from p2p_ttr.table.table import Table
from p2p_ttr.table.verify import verify_entries

HERE = ("127.0.0.1", 7311)  # the address a hello says it dialled (a fake router listens there)

SCALE = max(1, int(os.environ.get("TTR_FUZZ_SCALE", "1")))
CODES = {"malformed", "bad_signature", "wrong_game", "replay", "unknown_head", "not_expected", "bad_proof",
         "cheating", "out_of_turn", "illegal_move", "unknown_card", "bad_chance"}


def fuzz(examples: int) -> Any:
    return settings(max_examples=examples * SCALE, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ------------------------------------------------------------- strategies

WORDS = ["seating", "keys", "shuffle", "remask", "mix", "shuffle_proof", "remask_proof", "mix_proof", "shares", "act",
         "audit", "forfeit", "escrow", "escrow_complaint", "carry_on", "escrow_reveal", "key", "seed",
         "train", "tickets", "long",
         "claim", "draw_blind", "draw_face_up", "pay_tunnel", "keep_tickets", "station", "pass", "reveal", "peek",
         "ttr-europe/1", "ttr-europe/2", "Paris", ""]
leaf = st.one_of(
    st.none(), st.booleans(), st.floats(allow_nan=False),
    st.integers(-(2**63), 2**64 - 1),
    st.sampled_from([0, 1, -1, 4, 5, 40, 45, 46, 100, 101, 109, 110, 2**16, 2**31, 2**32, 2**63 - 1]),
    st.binary(max_size=80),
    st.sampled_from([bytes(16), bytes(32), bytes(64), bytes(65), bytes(256), b"\xff" * 256,
                     (Q + 1).to_bytes(256, "big"), (2).to_bytes(256, "big")]),
    st.text(max_size=12), st.sampled_from(WORDS),
)
value = st.recursive(leaf, lambda inner: st.lists(inner, max_size=5), max_leaves=12)


def paths(v: Any, at: tuple[int, ...] = ()) -> Iterator[tuple[int, ...]]:
    yield at
    if isinstance(v, list):
        for i, item in enumerate(v):
            yield from paths(item, at + (i,))


def leaves(v: Any) -> Iterator[Any]:
    if isinstance(v, list):
        for item in v:
            yield from leaves(item)
    else:
        yield v


def mutate(data: st.DataObject, body: list[Any]) -> list[Any]:
    """``body`` with one to three random changes deep inside it."""
    body = copy.deepcopy(body)
    for _ in range(data.draw(st.integers(1, 3))):
        inside = [p for p in paths(body) if p]
        if not inside:
            break
        where = data.draw(st.sampled_from(inside))
        parent: Any = body
        for i in where[:-1]:
            parent = parent[i]
        i, old = where[-1], parent[where[-1]]
        op = data.draw(st.sampled_from(["replace", "delete", "duplicate", "nudge", "nudge", "swap", "swap",
                                        "borrow", "borrow", "borrow"]))
        if op == "replace":
            parent[i] = data.draw(value)
        elif op == "delete":
            del parent[i]
        elif op == "duplicate":
            parent.insert(i, copy.deepcopy(old))
        elif op == "swap":
            parent[i], parent[-1] = parent[-1], old
        elif op == "borrow":  # a value of the same type from elsewhere in the body: well-formed, wrong
            same = [x for x in leaves(body) if type(x) is type(old) and x != old]
            parent[i] = data.draw(st.sampled_from(same)) if same else data.draw(value)
        elif type(old) is int:
            parent[i] = old + data.draw(st.sampled_from([-1, 1, 2**255]))
        elif isinstance(old, bytes) and old:
            k = data.draw(st.integers(0, len(old) - 1))
            parent[i] = old[:k] + bytes([old[k] ^ data.draw(st.integers(1, 255))]) + old[k + 1:]
        else:
            parent[i] = data.draw(value)
    return body


# Points of the honest game to fuzz at: the first shuffle, its steps in and
# their proofs due (a mutated proof reaches the proof check), the first deal,
# a re-masking's proofs due, the middle, late, the end.
POINTS = (3, 5, 20, 71, 195, 340, 390)


@functools.cache
def bases(seat: int | None) -> dict[int, Table]:
    """Seat's replica at each point (one fold, a copy at each point)."""
    table, log, out = replica(seat, 0), honest_game().log, {}
    for i in range(max(POINTS) + 1):
        if i in POINTS:
            out[i] = copy.deepcopy(table)
        if i < len(log):
            table.receive(log[i])
    return out


def base(seat: int | None, point: int) -> Table:
    return bases(seat)[point]


def forged(data: st.DataObject, table: Table) -> bytes:
    """A message signed by a real seat of the game, at a real head, with a mutated body."""
    game = honest_game()
    nearby = game.log[max(1, len(table.log) - 3): len(table.log) + 3]
    source = data.draw(st.sampled_from(nearby if data.draw(st.booleans()) else game.log[1:]))
    env = open_envelope(source)
    body = mutate(data, env.body) if data.draw(st.integers(0, 9)) else data.draw(st.lists(value, min_size=1, max_size=4))
    seat = data.draw(st.sampled_from([env.seat] * 3 + [0, 1]))
    ok = table.last_seq.get(seat, 0) + 1
    seq = data.draw(st.sampled_from([ok] * 6 + [0, 1, 2**31, 2**40]))
    head = data.draw(st.sampled_from([table.head] * 6 + [table.heads[0] if table.heads else table.head, bytes(32)]))
    assert table.game_id is not None
    try:
        return seal(game.peers[seat].identity, table.game_id, seat, seq, head, body).raw
    except (TypeError, ValueError, OverflowError):  # msgpack cannot pack it: send the body as bytes
        return seal(game.peers[seat].identity, table.game_id, seat, 1, head, [repr(body)[:200]]).raw


def refused_cleanly(table: Table, raw: bytes) -> bool:
    """Feed ``raw``; True if refused (with a known code, changing nothing)."""
    before, rejected = snapshot(table), len(table.rejected)
    try:
        table.receive(raw)
    except (TableError, EngineError) as exc:
        assert exc.code in CODES, exc
        assert snapshot(table) == before and len(table.rejected) == rejected + 1
        return True
    return False


# ------------------------------------------------------------ envelopes


@fuzz(200)
@given(st.one_of(st.binary(max_size=600), value.map(lambda v: pack(v))))
def test_envelope_decoding_raises_only_malformed(raw: bytes) -> None:
    try:
        open_envelope(raw)
    except Malformed:
        pass


@fuzz(100)
@given(st.data())
def test_flipped_bytes_of_real_entries_are_refused_cleanly(data: st.DataObject) -> None:
    point = data.draw(st.sampled_from(POINTS))
    table = base(data.draw(st.sampled_from([0, 1, None])), point)  # a refusal changes nothing: no copy
    log = honest_game().log
    raw = bytearray(log[min(point, len(log) - 1)])
    for k in data.draw(st.sets(st.integers(0, len(raw) - 1), min_size=1, max_size=4)):
        raw[k] ^= data.draw(st.integers(1, 255))
    cut = data.draw(st.sampled_from([len(raw), len(raw) - 1, len(raw) // 2]))
    assert refused_cleanly(table, bytes(raw[:cut]))


@fuzz(200)
@given(st.data())
def test_signed_messages_with_mutated_bodies_never_crash_a_replica(data: st.DataObject) -> None:
    """The deepest fuzz: the signature, sequence number and head are right, so
    every mutated body reaches the message decoder, the table's checks, the
    share proofs and the engine."""
    table = copy.deepcopy(base(data.draw(st.sampled_from([0, 1, None])), data.draw(st.sampled_from(POINTS))))
    raw = forged(data, table)
    if not refused_cleanly(table, raw):
        assert table.log[-1] == raw  # accepted: then it was a valid message (a mutation can make one)
        if table.halted is not None and table.culprit is not None:  # a well-formed but false chain proof
            assert table.culprit == open_envelope(raw).seat and table.halted_at == len(table.log) - 1


# ---------------------------------------------------------- host and joiner


def _data_dir(identity: Identity) -> DataDir:
    data = DataDir(Path(tempfile.mkdtemp(prefix="ttr-fuzz-")))
    (data.path / "identity.key").write_bytes(identity.to_bytes())
    return data


SEAT1_CONN = b"\x00seat1"  # the connection seat 1 said its hello on


@functools.cache
def running_host() -> Host:
    """The host (seat 0) of the honest game at its middle, seat 1 connected."""
    game = honest_game()
    host = Host(HostOptions(_data_dir(game.peers[0].identity), NAMES[0]), lambda v, s: None, Console(True))
    host.relay.router.sock = FakeSocket()  # type: ignore[assignment]
    table = base(0, 195)
    assert table.game_id is not None
    store = host.options.data.game(table.game_id)
    store.open()
    host.use_table(table, store)
    host.relay.admission.connections.admit(SEAT1_CONN, game.peers[1].identity.public, 1, b"c" * 32)
    return host


def frame_for(data: st.DataObject, kinds: list[str], envelope: bytes) -> bytes:
    choice = data.draw(st.integers(0, 3))
    if choice == 0:
        return data.draw(st.binary(max_size=300))
    kind = data.draw(st.sampled_from(kinds + ["nope"]))
    if choice == 1:
        fields = data.draw(st.lists(value, max_size=4))
    else:
        fields = [envelope] if kind in ("env", "entry") and choice == 2 else data.draw(st.lists(leaf, max_size=4))
    try:
        return pack([kind, *fields])
    except (TypeError, ValueError, OverflowError):
        return pack([kind])


@fuzz(100)
@given(st.data())
def test_the_host_survives_any_frame_from_a_seated_peer_or_a_stranger(data: st.DataObject) -> None:
    host = running_host()
    table = host.table
    assert table is not None
    rid = data.draw(st.sampled_from([SEAT1_CONN, b"\x00" + bytes(4), b"x"]))
    raw = frame_for(data, list(frames.TO_HOST), forged(data, table))
    before, sent = snapshot(table), len(host.relay.router.sock.sent)  # type: ignore[attr-defined]
    parts = data.draw(st.sampled_from([[rid, raw], [rid, raw, raw], [raw]]))
    host.relay.handle(parts)
    relayed = [p for p in host.relay.router.sock.sent[sent:] if frames.decode(p[1], frames.TO_PEER)[0] == "entry"]  # type: ignore[attr-defined]
    if not relayed and not host.relay.router.queued:
        assert snapshot(table) == before
    host.relay.router.queued.clear()


@functools.cache
def joiner_setup() -> tuple[Table, DataDir]:
    game = honest_game()
    return base(1, 195), _data_dir(game.peers[1].identity)


@fuzz(100)
@given(st.data())
def test_a_joiner_survives_any_frame_from_its_host(data: st.DataObject) -> None:
    """Anything the host sends is dropped, or stops the joiner with a reason
    (NodeExit: a refusal, or a host-signed entry its table refuses); nothing
    else escapes, and nothing is folded that the table refuses."""
    game = honest_game()
    table, dir_ = joiner_setup()
    node = Node(NodeOptions(dir_, "127.0.0.1", 1, NAMES[1]), lambda v, s: None, Console(True))
    node.uplink.sock = FakeSocket()  # type: ignore[assignment]
    node.uplink.public = game.peers[0].identity.public
    node.replica.table = copy.deepcopy(table)
    assert node.table.game_id is not None
    node.replica.store = dir_.game(node.table.game_id)
    node.store.open()
    node.uplink.welcomed, node.uplink.challenge = True, b"n" * 32
    envelope = forged(data, node.table)
    raw = frame_for(data, list(frames.TO_PEER), envelope)
    if data.draw(st.booleans()):  # a well-formed entry, signed by the host, at the next index
        index = len(node.table.log)
        raw = pack(["entry", index, envelope, sign_entry(game.peers[0].identity, node.table.game_id, index,
                                                          node.table.head, envelope)])
    before = snapshot(node.table)
    try:
        node.handle(raw)
    except NodeExit:
        assert snapshot(node.table) == before
    finally:
        node.store.close()


# ------------------------------------------------------ files and hellos


@fuzz(150)
@given(st.data())
def test_log_files_raise_only_log_file_error(data: st.DataObject) -> None:
    log = honest_game().log[:6]
    good = header(bytes(16)) + b"".join(log_entry(e) for e in log)
    raw = data.draw(st.one_of(st.binary(max_size=400), value.map(pack)))
    if data.draw(st.booleans()):
        k = data.draw(st.integers(0, len(good)))
        raw = good[:k] + raw + good[k + len(raw):]
    try:
        parse_log(raw)
    except LogFileError:
        pass


@fuzz(80)
@given(st.data())
def test_a_damaged_game_folder_is_read_or_refused_with_a_reason(data: st.DataObject) -> None:
    gid = bytes(range(16))
    folder = GameStore(Path(tempfile.mkdtemp(prefix="ttr-fuzz-")) / gid.hex(), gid)
    folder.path.mkdir(parents=True)
    good = header(gid) + b"".join(log_entry(e) for e in honest_game().log[:4])
    k = data.draw(st.integers(0, len(good)))
    folder.log_path.write_bytes(good[:k] + data.draw(st.binary(max_size=60)) if data.draw(st.booleans()) else good[:k])
    folder.receipts_path.write_bytes(data.draw(st.one_of(st.binary(max_size=100), value.map(pack))))
    folder.secrets_path.write_bytes(data.draw(st.one_of(st.binary(max_size=100), value.map(pack))))
    try:
        entries = folder.open()
        assert all(isinstance(e, bytes) for e in entries)
        folder.receipts()
        folder.close()
    except StoreError:
        pass
    try:
        folder.load_secrets()
    except StoreError:
        pass


@fuzz(150)
@given(st.one_of(st.binary(max_size=400), st.lists(value, max_size=10).map(pack),
                 st.lists(leaf, min_size=9, max_size=9).map(lambda v: pack(["p2p_ttr-equivocation", *v[1:]]))))
def test_equivocation_proofs_raise_only_malformed(raw: bytes) -> None:
    try:
        proof = EquivocationProof.from_bytes(raw)
    except Malformed:
        return
    assert proof.valid() in (True, False)


@fuzz(100)
@given(version=st.one_of(st.just(NET_VERSION), st.integers(0, 2**16)), name=st.text(max_size=30),
       nonce=st.sampled_from([b"n" * 32, b"m" * 32]), signed=st.booleans(), public=st.binary(min_size=32, max_size=32))
def test_hellos_are_admitted_or_refused_with_a_code(version: int, name: str, nonce: bytes, signed: bool,
                                                    public: bytes) -> None:
    who, host = Identity.generate(), Identity.generate()
    lobby = Lobby("H", host.public, capacity=3)
    sig = sign_hello(who, name, host.public, nonce, HERE) if signed else bytes(64)
    try:
        lobby.join(version, name, who.public if signed else public, b"n" * 32, sig, HERE)
    except HelloRefusal as refusal:
        assert refusal.code in ("version", "bad_hello", "bad_name", "name_taken", "full")


# ---------------------------------------------------------------- beacons


def near_beacon(data: st.DataObject) -> list[Any]:
    """A beacon's fields, valid or with one to three changes: the shapes a
    decoder is likeliest to get wrong (a port of 0 or 65536, true for 1, a
    31- or 33-byte key, a version-2 beacon's words)."""
    good = [BEACON_MAGIC, BEACON_VERSION, data.draw(st.integers(1, 65535)),
            data.draw(st.sampled_from([bytes(PUBLIC_KEY_BYTES), b"\xff" * PUBLIC_KEY_BYTES]))]
    if data.draw(st.booleans()):
        return mutate(data, good)
    near = st.one_of(leaf, st.sampled_from([0, 6, 65535, 65536, True, False, 1.0, BEACON_VERSION + 1, 2, "", "Ann"]),
                     st.text(min_size=MAX_NAME - 1, max_size=MAX_NAME + 1), st.binary(min_size=31, max_size=33))
    good[data.draw(st.integers(0, len(good) - 1))] = data.draw(near)
    return good


def packed(fields: list[Any]) -> bytes:
    try:
        return pack(fields)
    except (TypeError, ValueError, OverflowError):  # msgpack cannot pack a nudged int: send its text
        return pack([repr(fields)[:200]])


@fuzz(300)
@given(st.data())
def test_beacons_decode_to_a_valid_pointer_or_beacon_error(data: st.DataObject) -> None:
    """Anyone on the LAN can send `ttr join` a datagram: it is read as a port
    and a key, as a real beacon says them, or it is dropped (BeaconError);
    nothing else escapes the decoder."""
    choice = data.draw(st.integers(0, 3))
    if choice == 0:
        raw = data.draw(st.binary(max_size=MAX_BEACON_BYTES + 8))
    elif choice == 1:
        raw = data.draw(value.map(pack))
    else:
        raw = packed(near_beacon(data))
        if choice == 3:  # cut short, or with bytes after it
            k = data.draw(st.integers(0, len(raw)))
            raw = raw[:k] + data.draw(st.binary(max_size=MAX_BEACON_BYTES)) if data.draw(st.booleans()) else raw[:k]
    try:
        heard = parse_beacon(raw, "10.0.0.2")
    except BeaconError:
        return
    assert isinstance(heard, Heard) and type(heard.port) is int and 1 <= heard.port <= 65535
    assert type(heard.host_key) is bytes and len(heard.host_key) == PUBLIC_KEY_BYTES
    # what we heard is what a host could have sent
    assert Announcement("Ann", heard.port, 1, 0, heard.host_key).beacon() == pack([BEACON_MAGIC, BEACON_VERSION,
                                                                                   heard.port, heard.host_key])


# ---------------------------------------------------------------- verify


@fuzz(30)
@given(st.data())
def test_verify_never_crashes_on_reordered_dropped_or_repeated_entries(data: st.DataObject) -> None:
    log = list(honest_game().log[:40])
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(log) - 1))
        op = data.draw(st.sampled_from(["drop", "repeat", "swap", "foreign"]))
        if op == "drop":
            del log[i]
        elif op == "repeat":
            log.insert(data.draw(st.integers(0, len(log))), log[i])
        elif op == "swap":
            j = data.draw(st.integers(0, len(log) - 1))
            log[i], log[j] = log[j], log[i]
        else:
            log[i] = data.draw(st.binary(max_size=100))
    verdict = verify_entries(log)
    assert not verdict.fair and verdict.findings


def test_the_campaign_above_reached_every_kind_of_message() -> None:
    kinds = {open_envelope(raw).kind for raw in honest_game().log}
    assert kinds >= {"seating", "keys", "shuffle", "remask", "shuffle_proof", "remask_proof", "shares", "act", "audit"}

