"""LAN layer without processes: frames, the store, the sequencer signature,
equivocation detection, the lobby."""

from __future__ import annotations

import functools
import json
import os
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_ttr.client.netnotices import Notice
from p2p_ttr.client.exitwords import word_end
from p2p_ttr.client.networds import word_notice
from p2p_ttr.net import frames
from p2p_ttr.net.console import Console
from p2p_ttr.net.liveness import Progress
from p2p_ttr.net.frames import MAX_FRAME_BYTES, NET_VERSION, FrameError, decode, encode
from p2p_ttr.net.lobby import MAX_WAITING, Challenges, Lobby, HelloRefusal, sign_hello
from p2p_ttr.net.node import Node, NodeExit, NodeOptions
from p2p_ttr.net.seqsig import EMPTY_HEAD, EquivocationProof, entry_hash, entry_signed, prev_head, sign_entry
from p2p_ttr.net.store import DataDir, StoreError
from p2p_ttr.net.transport import format_address, parse_address
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.messages import Seat
from p2p_ttr.table.peer import Peer
from p2p_ttr.table.table import PeerSecrets, Table
from p2p_ttr.deck import SecretKey, Seed

HERE = ("127.0.0.1", 7311)  # the address a hello says it dialled (a fake router listens there)

GID = bytes(range(16))


# ---------------------------------------------------------------- frames


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=2048))
def test_garbage_frames_raise_only_frame_error(raw: bytes) -> None:
    for schema in (frames.TO_HOST, frames.TO_PEER):
        try:
            decode(raw, schema)
        except FrameError:
            pass


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1) | st.text(max_size=30) | st.binary(max_size=80),
                    lambda c: st.lists(c, max_size=6), max_leaves=20))
def test_structured_garbage_raises_only_frame_error(value: object) -> None:
    raw = frames.pack(["entry", value, value]) if not isinstance(value, list) else frames.pack(value)
    for schema in (frames.TO_HOST, frames.TO_PEER):
        try:
            decode(raw, schema)
        except FrameError:
            pass


def test_oversized_and_hostile_frames() -> None:
    with pytest.raises(FrameError, match="bytes"):
        decode(b"\x91" + b"\x00" * MAX_FRAME_BYTES, frames.TO_HOST)
    with pytest.raises(FrameError):
        decode(b"\xdd\xff\xff\xff\xff", frames.TO_HOST)  # a 4-billion-item array header
    with pytest.raises(FrameError):
        decode(b"\xdf\x00\x00\x00\x01\xa1a\x01", frames.TO_HOST)  # a map
    with pytest.raises(FrameError, match="unknown"):
        decode(encode("nope", 1), frames.TO_HOST)
    with pytest.raises(FrameError, match="malformed"):
        decode(encode("ping", -1), frames.TO_HOST)
    with pytest.raises(FrameError, match="malformed"):
        decode(encode("entry", 0, b"x", b"short"), frames.TO_PEER)


def test_frames_round_trip() -> None:
    assert decode(encode("ping", 7), frames.TO_HOST) == ("ping", [7])
    sig = b"s" * 64
    assert decode(encode("entry", 3, b"env", sig), frames.TO_PEER) == ("entry", [3, b"env", sig])
    assert decode(encode("welcome", -1, None, 0, ["a", "b"]), frames.TO_PEER)[1][1] is None


def test_parse_address() -> None:
    assert parse_address("192.168.1.5") == ("192.168.1.5", 7311)
    assert parse_address("localhost:9000") == ("localhost", 9000)
    assert parse_address("[::1]:9000") == ("::1", 9000)
    assert parse_address("[fe80::1]") == ("fe80::1", 7311)
    assert parse_address("game-box.lan.") == ("game-box.lan.", 7311)
    for bad, says in (("host:port", "not a port"), ("127.0.0.1:", "not a port"), ("127.0.0.1:47999:1", "brackets"),
                      ("::1", "brackets"), ("[::1", "closing"), ("[::1]x", r"\[IPV6\]:PORT"), ("[nope]:1", "IPv6"),
                      ("a b:1", "host name"), (":7311", "host name"), ("h:0", "not a port"), ("h:65536", "not a port"),
                      ("h:٣", "not a port"), ("", "HOST"), ("-x:1", "host name")):
        with pytest.raises(ValueError, match=says):
            parse_address(bad)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=40) | st.from_regex(r"\[?[0-9a-f:.\]]{0,12}(:[0-9]{0,6})?", fullmatch=True))
def test_any_address_text_parses_to_a_valid_pair_or_value_error(text: str) -> None:
    try:
        host, port = parse_address(text)
    except ValueError:
        return
    assert 0 < port < 65536 and host
    assert parse_address(format_address(host, port)) == (host, port)


@settings(max_examples=300, deadline=None)
@given(st.ip_addresses(), st.integers(1, 65535))
def test_every_ip_address_and_port_round_trips(address: object, port: int) -> None:
    host = str(address)
    assert parse_address(format_address(host, port)) == (host, port)


# ----------------------------------------------------------------- store


def test_identity_is_private_and_stable(tmp_path: Path) -> None:
    data = DataDir(tmp_path / "d")
    first = data.identity()
    assert DataDir(tmp_path / "d").identity().public == first.public
    mode = stat.S_IMODE(os.stat(tmp_path / "d" / "identity.key").st_mode)
    assert mode == 0o600
    (tmp_path / "d" / "identity.key").write_bytes(b"short")
    with pytest.raises(StoreError, match="corrupt"):
        DataDir(tmp_path / "d").identity()


def test_store_append_reload_and_torn_tail(tmp_path: Path) -> None:
    store = DataDir(tmp_path).game(GID)
    assert store.open() == []
    for i in range(5):
        store.append(b"entry %d" % i)
        store.add_receipt(i, b"h" * 32, b"s" * 64)
    store.close()
    with open(store.log_path, "ab") as f:
        f.write(b"\xc4\x40partial")  # a bin of 64 bytes cut short by a kill
    with open(store.receipts_path, "ab") as f:
        f.write(b"\x93\x05\xc4")  # a torn receipt
    again = DataDir(tmp_path).game(GID)
    assert again.open() == [b"entry %d" % i for i in range(5)]
    again.append(b"entry 5")
    again.add_receipt(5, b"h" * 32, b"t" * 64)
    again.close()
    from p2p_ttr.table.logfile import read_log

    assert read_log(store.log_path) == (GID, [b"entry %d" % i for i in range(6)])
    assert sorted(again.receipts()) == [0, 1, 2, 3, 4, 5]
    assert again.receipts()[5] == (b"h" * 32, b"t" * 64)


def test_store_secrets_private(tmp_path: Path) -> None:
    store = DataDir(tmp_path).game(GID)
    secrets = PeerSecrets(1, SecretKey.generate(GID, 1), Seed.generate())
    store.save_secrets(secrets)
    assert stat.S_IMODE(os.stat(store.secrets_path).st_mode) == 0o600
    loaded = store.load_secrets()
    assert loaded is not None and loaded.key.x == secrets.key.x and loaded.seed == secrets.seed
    assert "redacted" in repr(loaded)
    store.secrets_path.write_bytes(b"\x93\x01")
    with pytest.raises(StoreError, match="corrupt"):
        store.load_secrets()


def test_find_game_by_prefix(tmp_path: Path) -> None:
    data = DataDir(tmp_path)
    data.game(GID).open()
    data.game(b"\xff" * 16).open()
    assert data.find_game(GID.hex()[:4]).game_id == GID
    with pytest.raises(StoreError, match="no game"):
        data.find_game("abc")


# ------------------------------------------------------- sequencer signature


def test_sequencer_signature_binds_every_field() -> None:
    host = Identity.generate()
    sig = sign_entry(host, GID, 4, b"h" * 32, b"entry")
    assert entry_signed(host.public, GID, 4, b"h" * 32, b"entry", sig)
    assert not entry_signed(host.public, GID, 5, b"h" * 32, b"entry", sig)
    assert not entry_signed(host.public, GID, 4, b"g" * 32, b"entry", sig)
    assert not entry_signed(host.public, GID, 4, b"h" * 32, b"other", sig)
    assert not entry_signed(Identity.generate().public, GID, 4, b"h" * 32, b"entry", sig)


def test_equivocation_proof() -> None:
    host = Identity.generate()
    a, b = b"one entry", b"another entry"
    proof = EquivocationProof(host.public, GID, 2, b"h" * 32, a, sign_entry(host, GID, 2, b"h" * 32, a),
                              b, sign_entry(host, GID, 2, b"h" * 32, b))
    assert proof.valid()
    assert EquivocationProof.from_bytes(proof.to_bytes()) == proof
    forged = EquivocationProof(host.public, GID, 2, b"h" * 32, a, proof.first_sig, b, b"\0" * 64)
    assert not forged.valid()


def test_node_detects_equivocation(tmp_path: Path) -> None:
    host, other = Identity.generate(), DataDir(tmp_path / "peer")
    me = other.identity()
    node = Node(NodeOptions(other, "127.0.0.1", 1, "P"), lambda v, s: None, Console(True))
    node.uplink.public = host.public
    seating = Peer(0, host, lambda v, s: None).open_game((Seat("H", host.public), Seat("P", me.public)), GID)
    node.follower.entry(0, seating, sign_entry(host, GID, 0, EMPTY_HEAD, seating))
    node.follower.entry(0, seating, sign_entry(host, GID, 0, EMPTY_HEAD, seating))  # a repeat is fine
    assert node.table is not None and len(node.table.log) == 1
    bad = Peer(0, host, lambda v, s: None).open_game((Seat("H", host.public), Seat("Q", me.public)), GID)
    node.follower.entry(0, bad, b"\0" * 64)  # unsigned: dropped
    with pytest.raises(NodeExit, match="equivocated"):
        node.follower.entry(0, bad, sign_entry(host, GID, 0, EMPTY_HEAD, bad))
    proofs = list((tmp_path / "peer" / "games" / GID.hex()).glob("equivocation-*.bin"))
    assert len(proofs) == 1 and EquivocationProof.from_bytes(proofs[0].read_bytes()).valid()


def test_node_detects_equivocation_later_in_the_log(tmp_path: Path) -> None:
    host, data = Identity.generate(), DataDir(tmp_path / "peer")
    node = Node(NodeOptions(data, "127.0.0.1", 1, "P"), lambda v, s: None, Console(True))
    node.uplink.public = host.public
    opener = Peer(0, host, lambda v, s: None)
    seating = opener.open_game((Seat("H", host.public), Seat("P", data.identity().public)), GID)
    node.follower.entry(0, seating, sign_entry(host, GID, 0, EMPTY_HEAD, seating))
    opener.table.receive(seating)
    prev = opener.table.head
    keys = opener.outbox()[0]
    node.follower.entry(1, keys, sign_entry(host, GID, 1, prev, keys))
    assert node.table is not None and len(node.table.log) == 2
    assert prev_head(node.table, 1) == prev
    opener.seq -= 1
    other = opener.outbox()[0]  # the host's keys again, freshly randomised: another entry 1
    assert other != keys
    with pytest.raises(NodeExit, match="index 1"):
        node.follower.entry(1, other, sign_entry(host, GID, 1, prev, other))


def test_node_refuses_badly_signed_entry(tmp_path: Path) -> None:
    host = Identity.generate()
    data = DataDir(tmp_path)
    node = Node(NodeOptions(data, "127.0.0.1", 1, "P"), lambda v, s: None, Console(True))
    node.uplink.public = host.public
    seating = Peer(0, host, lambda v, s: None).open_game((Seat("H", host.public), Seat("P", data.identity().public)), GID)
    node.follower.entry(0, seating, sign_entry(Identity.generate(), GID, 0, EMPTY_HEAD, seating))
    assert node.table is not None and node.table.log == []


# ----------------------------------------------------------------- lobby


def test_lobby_rules() -> None:
    host = Identity.generate()
    lobby = Lobby("H", host.public, capacity=3)
    nonce = b"n" * 32
    v = NET_VERSION
    a, b, c = Identity.generate(), Identity.generate(), Identity.generate()
    assert lobby.join(v, "A", a.public, nonce, sign_hello(a, "A", host.public, nonce, HERE), HERE)
    assert not lobby.join(v, "A", a.public, nonce, sign_hello(a, "A", host.public, nonce, HERE), HERE)  # a reconnect
    for wrong in (sign_hello(b, "B", host.public, b"x" * 32, HERE),  # signed another challenge
                  sign_hello(b, "B", Identity.generate().public, nonce, HERE),  # for another host
                  sign_hello(b, "Bee", host.public, nonce, HERE),  # another name
                  sign_hello(b, "B", host.public, nonce, ("127.0.0.1", 7312))):  # another address dialled
        with pytest.raises(HelloRefusal) as exc:
            lobby.join(v, "B", b.public, nonce, wrong, HERE)
        assert exc.value.code == "bad_hello"
    with pytest.raises(HelloRefusal) as exc:
        lobby.join(v, "A", b.public, nonce, sign_hello(b, "A", host.public, nonce, HERE), HERE)
    assert exc.value.code == "name_taken"
    with pytest.raises(HelloRefusal) as exc:
        lobby.join(v + 1, "B", b.public, nonce, sign_hello(b, "B", host.public, nonce, HERE), HERE)
    assert exc.value.code == "version"
    assert lobby.join(v, "B", b.public, nonce, sign_hello(b, "B", host.public, nonce, HERE), HERE)
    # Full: a joiner waits for a place, up to MAX_WAITING of them; then `full`.
    assert lobby.join(v, "C", c.public, nonce, sign_hello(c, "C", host.public, nonce, HERE), HERE)
    assert lobby.names == ["H", "A", "B"] and [n for n, _ in lobby.waiting] == ["C"]
    for i in range(MAX_WAITING - 1):
        w = Identity.generate()
        assert lobby.join(v, f"W{i}", w.public, nonce, sign_hello(w, f"W{i}", host.public, nonce, HERE), HERE)
    d = Identity.generate()
    with pytest.raises(HelloRefusal) as exc:
        lobby.join(v, "D", d.public, nonce, sign_hello(d, "D", host.public, nonce, HERE), HERE)
    assert exc.value.code == "full"
    with pytest.raises(HelloRefusal) as exc:  # a waiting name is taken too
        lobby.join(v, "C", d.public, nonce, sign_hello(d, "C", host.public, nonce, HERE), HERE)
    assert exc.value.code == "name_taken"
    assert lobby.take_waiting() is None  # no place free
    assert lobby.leave(a.public) == "A" and lobby.take_waiting() == "C" and lobby.names == ["H", "B", "C"]


def test_challenges_are_per_connection_fresh_and_single_use() -> None:
    challenges = Challenges(limit=3)
    one = challenges.issue(b"c1")
    assert len(one) == 32 and challenges.issue(b"c1") == one  # the same until used
    two = challenges.issue(b"c2")
    assert two != one
    assert not challenges.take(b"c2", one)  # another connection's challenge
    assert not challenges.take(b"c3", one)
    assert challenges.take(b"c1", one)
    assert not challenges.take(b"c1", one)  # used up
    assert challenges.issue(b"c1") != one  # a new one if asked again
    for conn in (b"c3", b"c4", b"c5"):
        challenges.issue(conn)
    assert len(challenges) == 3 and not challenges.take(b"c2", two)  # the oldest was forgotten


@functools.cache
def _two_seat_log() -> tuple[bytes, ...]:
    from p2p_ttr.bots.random_bot import RandomBot
    from p2p_ttr.local.crypto_game import play_crypto_game

    return tuple(play_crypto_game(1, [RandomBot(1), RandomBot(2)], ("Ann", "Bob")).log)


def _table_where(owes: str) -> tuple[Table, int]:
    """A 2-seat table folded up to the first entry where only seat 1 owes
    (a move, or a duty its software does at once), and that seat."""
    from p2p_ttr.table.obligations import Owed

    table = Table()
    for raw in _two_seat_log():
        table.receive(raw)
        owed = table.obligations()
        if owed and {o.seat for o in owed} == {1} and all((o.what is Owed.MOVE) == (owes == "move") for o in owed):
            return table, 1
    raise AssertionError(f"no moment where Bob owes only a {owes}")


def _progress(said: list[str], now: list[float]) -> Progress:
    """A Progress whose question and notes both land in ``said``, worded as a screen words them (Ann, Bob)."""
    def worded(notice: Notice) -> None:
        said.append(word_notice(notice, ("Ann", "Bob")))

    return Progress(30.0, worded, worded, clock=lambda: now[0])

def test_watch_never_gives_up_on_a_live_seat_that_thinks_over_a_move() -> None:
    """Liveness is not progress: Bob's heartbeats arrive (the relay does not
    call him silent) and he owes a move: a bot waits as long as it takes,
    and a person is never asked `wait` or `end`."""
    from p2p_ttr.net.liveness import Presence, watch

    table, bob = _table_where("move")
    now = [0.0]
    said: list[str] = []
    presence = Presence(clock=lambda: now[0])
    progress = _progress(said, now)
    for t in range(0, 3600, 7):
        now[0] = float(t)
        presence.heard(())  # the relay's word each second: nobody is silent
        assert watch(progress, table, 0, ("Ann", "Bob"), True, presence, "game.log") is None
        assert watch(progress, table, 0, ("Ann", "Bob"), False, presence, "game.log") is None
    assert said and all(line.startswith("waiting for Bob (") for line in said)  # only the notes


def test_watch_gives_up_on_a_seat_that_withholds_a_duty_and_names_it() -> None:
    """Bob is alive but owes a duty his software does at once (his keys): at
    the timeout a person is asked (wait may help: it may be slow), a bot gives up naming him."""
    from p2p_ttr.client.livenessfacts import Why
    from p2p_ttr.net.liveness import Presence, watch

    table, bob = _table_where("duty")
    now = [0.0]
    said: list[str] = []
    presence = Presence(clock=lambda: now[0])
    progress = _progress(said, now)
    assert watch(progress, table, 0, ("Ann", "Bob"), False, presence, "game.log") is None and said == []
    now[0] = 6.0
    watch(progress, table, 0, ("Ann", "Bob"), False, presence, "game.log")
    assert said == ["waiting for Bob (6 s)"]
    now[0] = 31.0
    assert watch(progress, table, 0, ("Ann", "Bob"), False, presence, "game.log") is None
    assert "Bob is connected but has not sent its" in said[-1] and "Type `wait` to keep waiting, or `end`" in said[-1]
    now[0] = 62.0
    stop = watch(progress, table, 0, ("Ann", "Bob"), True, presence, "game.log")
    assert stop is not None and stop.why is Why.WITHHELD and stop.about == (bob,)
    words = word_end(stop.told, ("Ann", "Bob"))
    assert "no progress for 30 s (waiting for Bob)" in words and "game.log" in words


def test_watch_gives_up_on_a_silent_seat_only_after_the_timeout_of_silence() -> None:
    """Bob owes a move but sends no heartbeat (the relay says he is silent):
    he is gone, and a bot gives up once he has been silent for the timeout."""
    from p2p_ttr.client.livenessfacts import SeatGaveUp, Why
    from p2p_ttr.net.liveness import Presence, watch

    table, bob = _table_where("move")
    now = [0.0]
    said: list[str] = []
    presence = Presence(clock=lambda: now[0])
    progress = _progress(said, now)
    watch(progress, table, 0, ("Ann", "Bob"), True, presence, "game.log")
    now[0] = 31.0
    presence.heard(((bob, 20),))  # silent for 20 s, says the relay: 20 < 30
    assert watch(progress, table, 0, ("Ann", "Bob"), True, presence, "game.log") is None
    assert said[-1] == "no heartbeat from Bob (20 s); waiting for Bob (31 s)"  # the note says so at once
    now[0] = 41.0
    presence.heard(((bob, 30),))
    stop = watch(progress, table, 0, ("Ann", "Bob"), True, presence, "game.log")
    assert stop is not None and stop.why is Why.SILENT and stop.about == (bob,) and stop.seconds == 30
    # A person is asked, and `wait` is offered: he may come back.
    assert watch(progress, table, 0, ("Ann", "Bob"), False, presence, "game.log") is None
    assert "Bob has sent no heartbeat for 30 seconds" in said[-1] and "`wait`" in said[-1]
    # Once he said he gave up, waiting cannot help: only `end` is offered.
    presence.left(SeatGaveUp(bob, Why.SILENT, (0,), 120))
    now[0] = 80.0
    presence.heard(((bob, 69),))
    watch(progress, table, 0, ("Ann", "Bob"), False, presence, "game.log")
    assert "Bob gave up on the game and left" in said[-1] and "`wait`" not in said[-1] and "`end`" in said[-1]
    # Old news from the relay (none for 5 s) says nothing: no verdict on it.
    now[0] = 200.0
    fresh = Presence(clock=lambda: now[0])
    fresh.heard(((bob, 20),))
    now[0] = 300.0
    assert fresh.silent_for(bob) is None


def test_a_relay_that_claims_a_long_silence_cannot_hurry_a_give_up() -> None:
    """The relay's seconds are a hint (protocol.md §9): a relay that says a
    live Bob has been silent for 11 days changes the words on the screen,
    but a scripted peer still gives up on him only once the table itself
    has stalled for its own --timeout, and says no more than a frame carries."""
    from p2p_ttr.net.frames import MAX_SECONDS
    from p2p_ttr.net.liveness import Presence, watch

    table, bob = _table_where("move")
    now = [0.0]
    said: list[str] = []
    presence = Presence(clock=lambda: now[0])
    progress = _progress(said, now)
    watch(progress, table, 0, ("Ann", "Bob"), True, presence, "game.log")
    for t in range(1, 30):
        now[0] = float(t)
        presence.heard(((bob, MAX_SECONDS),))
        assert watch(progress, table, 0, ("Ann", "Bob"), True, presence, "game.log") is None
    now[0] = 31.0
    presence.heard(((bob, MAX_SECONDS),))
    stop = watch(progress, table, 0, ("Ann", "Bob"), True, presence, "game.log")
    assert stop is not None and stop.about == (bob,) and stop.seconds == MAX_SECONDS  # capped: the frame carries it


def test_verify_blames_the_host_for_an_entry_it_signed_on_another_log(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An entry written at a head this log never had blames nobody on the log
    alone; with the host's receipt for that very entry, the host is to blame."""
    from p2p_ttr.cli.main import main
    from p2p_ttr.bots.random_bot import RandomBot
    from p2p_ttr.local.crypto_game import play_crypto_game
    from p2p_ttr.net.store import GameStore
    from p2p_ttr.table.envelope import open_envelope, seal
    from p2p_ttr.table.table import Table

    g = play_crypto_game(2, [RandomBot(1), RandomBot(2)], ("Ann", "Bob"))
    host = g.peers[0].identity
    k = 40
    table = Table()
    for raw in g.log[:k]:
        table.receive(raw)
    real = open_envelope(g.log[k])
    # The author's real message, as if written on a fork the host showed it.
    forked = seal(g.peers[real.seat].identity, real.game_id, real.seat, real.seq, b"\x42" * 32, real.body).raw
    entries = g.log[:k] + [forked]
    gid = real.game_id
    store = GameStore(tmp_path / "game", gid)
    store.open()
    for i, raw in enumerate(entries):
        store.append(raw)
        store.add_receipt(i, entry_hash(raw), sign_entry(host, gid, i, prev_head(table, i) if i < k else table.head,
                                                          raw))
    store.close()
    assert main(["verify", "--json", str(store.log_path)]) == 1
    blame = json.loads(capsys.readouterr().out)
    assert blame["blame"] == {"entry": k, "seat": 0}
    assert blame["findings"][0]["code"] == "host_sequenced_invalid"
    # Without a receipt for it, nobody can be blamed: the file may have been altered.
    (tmp_path / "game" / "receipts").unlink()
    assert main(["verify", "--json", str(store.log_path)]) == 1
    assert json.loads(capsys.readouterr().out)["blame"] == {"entry": k, "seat": None}


def test_a_joiner_keeps_who_is_in_the_lobby(tmp_path: Path) -> None:
    node = Node(NodeOptions(DataDir(tmp_path), "127.0.0.1", 1, "P"), lambda v, s: None, Console(True))
    node.handle(encode("lobby", ["Host", "P", "Ann"], 0, False))
    assert node.lobby_names == ("Host", "P", "Ann")


def test_one_process_per_data_directory(tmp_path: Path) -> None:
    first, second = DataDir(tmp_path), DataDir(tmp_path)
    first.claim()
    first.claim()  # again from the same holder: fine
    with pytest.raises(StoreError, match=f"in use by another ttr \\(pid {os.getpid()}\\)"):
        second.claim()


def test_the_addresses_offered_to_friends() -> None:
    from p2p_ttr.cli.botseats import bot_host
    from p2p_ttr.cli.commands.host import join_addresses
    from p2p_ttr.net.transport import local_addresses

    found = local_addresses()
    assert found[-1] == "127.0.0.1" and len(set(found)) == len(found)
    assert not any(a.startswith("127.") or a == "0.0.0.0" for a in found[:-1])
    assert join_addresses("0.0.0.0") == found
    assert join_addresses("10.1.2.3") == ["10.1.2.3"] and bot_host("10.1.2.3") == "10.1.2.3"
    assert bot_host("0.0.0.0") == "127.0.0.1"


@pytest.mark.parametrize("name", ["Ann", "Jean Luc", "Zoë", "李", "x" * 24])
def test_names_that_are_fine(name: str) -> None:
    from p2p_ttr.table.messages import valid_name

    assert valid_name(name)


@pytest.mark.parametrize("name", ["", " Ann", "Ann ", "x" * 25, "Jean\u00a0Luc", "A\u200bnn", "A\x9bnn", "A\nB", 7,
                                  "Ann \U0001f600", "A\u00adnn", "A\ue000nn", "A\U000e0001"])
def test_names_that_are_refused_everywhere_alike(name: object) -> None:
    """Whatever Unicode the peer's Python knows: a character assigned after
    Unicode 3.2.0 (an emoji), a soft hyphen, private use, a tag character."""
    from p2p_ttr.table.messages import valid_name

    assert not valid_name(name)


def test_a_forfeit_asked_after_the_end_is_dropped_not_a_crash(tmp_path: Path) -> None:
    from p2p_ttr.bots.random_bot import RandomBot
    from p2p_ttr.local.crypto_game import play_crypto_game
    from p2p_ttr.net.store import GameStore

    g = play_crypto_game(3, [RandomBot(1), RandomBot(2)], ("Ann", "Bob"))
    host = g.peers[0].identity
    data = DataDir(tmp_path)
    (data.path / "identity.key").write_bytes(g.peers[1].identity.to_bytes())
    node = Node(NodeOptions(data, "127.0.0.1", 1, "Bob"), lambda v, s: None, Console(True))
    node.uplink.public = host.public
    gid = g.peers[0].table.game_id
    assert gid is not None
    me = g.peers[1].table.me
    assert me is not None
    GameStore(data.path / "games" / gid.hex(), gid).save_secrets(me)
    try:
        for i, raw in enumerate(g.log):
            prev = node.table.head if node.table is not None and node.table.log else EMPTY_HEAD
            node.follower.entry(i, raw, sign_entry(host, gid, i, prev, raw))
        assert node.table is not None and node.table.complete
        node.uplink.welcomed, node.duties.forfeiting = True, True
        node.act()  # the game is over: nothing to forfeit, and no ValueError
        assert node.duties.forfeiting is False and node.duties.pending == {}
    finally:
        if node.store is not None:
            node.store.close()


def test_every_typed_frame_reads_back_as_itself_and_an_unknown_kind_is_refused() -> None:
    from p2p_ttr.client.livenessfacts import Why
    from p2p_ttr.net import frames as f

    sig, key, digest, gid = b"s" * 64, b"k" * 32, b"d" * 32, b"g" * 16
    to_host = [f.Hi(4), f.Hello(4, "Ann", key, b"c" * 32, "10.0.0.2", 7311, sig), f.Env(b"envelope"), f.Sync(3),
               f.Ping(7), f.LeaveLobby(), f.Have(2, b"envelope", sig), f.Follow(40, digest, sig),
               f.GiveUp(Why.WITHHELD, (2,), 120, sig), f.GiveUp(Why.SILENT, (0, 3), 0, sig)]
    to_peer = [f.Challenge(4, key, b"c" * 32, None), f.Challenge(4, key, b"c" * 32, gid),
               f.Welcome(-1, None, 0, ("Host", "Ann")), f.Welcome(1, gid, 12, ("Host", "Ann")),
               f.LobbyNews(("Host",), 3, False), f.LobbyNews(("Host",), 0, True), f.NotAdmitted("full", "the game is full"), f.Entry(5, b"envelope", sig),
               f.Rejected(digest, "replay", "seat 1 already sent message 3"), f.Ping(9), f.Fetch(4), f.Pause(12, sig),
               f.Silent(()), f.Silent(((0, 21), (3, 400))), f.GaveUp(1, Why.SILENT, (0,), 121, sig)]
    for frame in to_host:
        assert f.decode_to_host(f.encode_frame(frame)) == frame
    for frame in to_peer:
        assert f.decode_to_peer(f.encode_frame(frame)) == frame
    with pytest.raises(f.FrameError, match="unknown frame kind"):
        f.decode_to_host(f.encode_frame(f.Fetch(1)))  # a host never takes a fetch
    with pytest.raises(f.FrameError, match="malformed"):
        f.decode_to_peer(f.encode("welcome", 1, gid))
    # The silent word: distinct seats of a table, each with a bounded count of seconds.
    for bad in (f.encode("silent", [[1, 20], [1, 21]]), f.encode("silent", [[6, 20]]), f.encode("silent", [1, 3]),
                f.encode("silent", [[1]]), f.encode("silent", [[1, 20, 0]]), f.encode("silent", [[1, -1]]),
                f.encode("silent", [[1, 10**6 + 1]]), f.encode("silent", [[0, 20]] * 7)):
        with pytest.raises(f.FrameError, match="malformed"):
            f.decode_to_peer(bad)
    with pytest.raises(f.FrameError, match="malformed"):
        f.decode_to_host(f.encode("follow", 0, digest, sig))  # a request names a log of at least the seating
    # Giving up: a reason we know, seats of a table, a bounded count of seconds.
    for bad in (f.encode("give_up", "bored", [1], 3, sig), f.encode("give_up", "silent", [7], 3, sig),
                f.encode("give_up", "silent", [1], -1, sig), f.encode("give_up", "silent", [1], 10**7, sig),
                f.encode("give_up", "silent", [1], 3), f.encode("give_up", "silent", [1], 3, b"s" * 63)):
        with pytest.raises(f.FrameError, match="malformed"):
            f.decode_to_host(bad)
    given = f.decode_to_peer(f.encode("gave_up", 2, "withheld", [1], 9, sig))
    assert isinstance(given, f.GaveUp) and given.why is Why.WITHHELD and given.about == (1,)


def test_silent_seats_are_the_others_the_relay_calls_silent_while_its_word_is_fresh() -> None:
    """What the status line is told: each other seat the relay's word calls
    silent, with its whole seconds (the word says how long the relay has
    not heard it); nothing once the word is stale, nor before the seating."""
    from p2p_ttr.net.liveness import Presence, silent_seats

    table, _ = _table_where("move")
    now = [100.0]
    presence = Presence(clock=lambda: now[0])
    presence.heard(((0, 20), (1, 20)))  # we are seat 0: our own silence is not for our status line
    now[0] = 103.5
    assert silent_seats(presence, table, 0) == ((1, 23),)
    assert silent_seats(presence, table, None) == ((0, 23), (1, 23))  # no seat of our own (not seated yet)
    assert silent_seats(presence, Table(), 0) == () and silent_seats(presence, None, 0) == ()  # no game yet
    now[0] = 110.0  # no word from the relay for 10 s: we cannot tell
    assert silent_seats(presence, table, 0) == ()
    presence.heard(())
    assert silent_seats(presence, table, 0) == ()


def test_a_follower_that_hears_of_a_silence_late_shows_all_of_it_without_jitter() -> None:
    """A follower that connects (or resumes) while Bob has been silent for
    five minutes shows five minutes, not the relay timeout; a later word
    whose whole seconds or way here make the silence look shorter does not
    shorten it; once Bob is heard again (not in the word) and then silent
    again, or after a gap in the relay's word, his silence counts afresh."""
    from p2p_ttr.net.liveness import Presence, silent_seats

    table, bob = _table_where("move")
    now = [1000.0]
    presence = Presence(clock=lambda: now[0])
    presence.heard(((bob, 300),))
    assert silent_seats(presence, table, 0) == ((bob, 300),)
    now[0] = 1001.9
    presence.heard(((bob, 300),))  # sent a second later, but it took 0.9 s to arrive (and whole seconds)
    assert silent_seats(presence, table, 0) == ((bob, 301),)  # the earlier start stands
    now[0] = 1010.0
    presence.heard(())  # Bob is back
    assert silent_seats(presence, table, 0) == ()
    now[0] = 1040.0
    presence.heard(((bob, 21),))
    assert silent_seats(presence, table, 0) == ((bob, 21),)
    # No word for a while (the relay stopped, or moved): Bob may have come
    # back and gone again unseen, so the old start is forgotten, not kept.
    now[0] = 1100.0
    presence.heard(((bob, 25),))
    assert silent_seats(presence, table, 0) == ((bob, 25),)


def test_the_seat_a_conceded_game_waits_for_is_the_last_to_leave_by_forfeit() -> None:
    """The relay finishing a conceded game waits for the seat whose forfeit
    ended it (it follows to the end); not for one that left long before,
    nor for a seat carried on (no peer of it is left to wait for)."""
    from types import SimpleNamespace
    from typing import Any

    from p2p_ttr.net.seatduties import last_to_leave

    def table(conceded: bool, forfeits: dict[int, int], carried: dict[int, int]) -> Any:
        return SimpleNamespace(conceded=conceded, left={**forfeits, **carried}, carried_on=carried)

    assert last_to_leave(table(True, {0: 22}, {})) == 0
    assert last_to_leave(table(True, {2: 40, 0: 90}, {})) == 0
    assert last_to_leave(table(True, {2: 40}, {0: 90})) is None  # carried on last: nobody to wait for
    assert last_to_leave(table(False, {2: 40}, {})) is None
