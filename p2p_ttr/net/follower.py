"""The follower: every frame from the peer our DEALER reaches (the relay, or
the successor we turned to), and above all each entry of the log.

An entry is taken only at the next index, only with the receipt of the
relay of that entry (its signature over index, previous head and entry
hash), and only if our table folds it; it is then stored with its receipt
and made durable before we act on it (seatduties.py syncs before sending).
A larger index makes us ask ``sync``; a different entry at an index we hold
is either a valid hand-over that cuts our log back (handover.py) or, signed
by its relay, a proof of equivocation that stops the game.

It also answers the challenge of each connection, and hears the lobby, the
pause, the relay's word on silent seats and its requests for our entries.

It never sends an envelope of ours (seatduties.py does) and never decides
that the relay is gone (handover.py does).
"""

from __future__ import annotations

import time
from typing import Protocol

from p2p_ttr.client.doorfacts import Door, DoorDetail, DoorKind, Dropped, Dropping
from p2p_ttr.client.livenessfacts import Dialled, OtherGaveUp, RelaySilence, SeatGaveUp
from p2p_ttr.client.netnotices import GameStarts, LobbyNow, LobbySaid, LobbyWord, NameTaken, Report
from p2p_ttr.client.peerexits import (CannotPlayThere, DifferentHost, Equivocated, HostRefusedUs, LobbyClosedByHost,
                                      OtherGameOpened, OtherProtocol, RefusedRelayEntry, StartedWithoutUs)
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.errorcodes import ErrorCode
from p2p_ttr.table.envelope import open_envelope
from p2p_ttr.table.errors import TableError
from p2p_ttr.table.identity import Identity
from p2p_ttr.table.table import Table

from . import frames
from .catchup import CatchUp
from .exits import PeerExit
from .frames import NET_VERSION, FrameError
from .gaveupsig import gave_up_signed, sign_gave_up
from .peerdoor import from_peer
from .liveness import HOST_SILENT_S, Presence
from .hellobind import hello_for
from .lobby import another_name
from .pause import Paused, pause_signed, paused_at
from .replica import Replica
from .resends import Resends
from .seatduties import SeatDuties
from .seqsig import EMPTY_HEAD, EquivocationProof, entry_hash, entry_signed, prev_head
from .store import GameStore
from .trace import Trace
from .uplink import Uplink

SYNC_EVERY_S = 0.5  # the least time between two `sync` asks
FORK_CHECK_S = 5.0  # the least time between two whole-log re-fetches at one log length (the relay serves
                    # a sync that goes back at most once per catchup.REWIND_S: an ask it coalesced comes again)


class FollowerHooks(Protocol):
    """What the follower asks of the peer it belongs to."""

    def open_game(self, game_id: bytes) -> None:
        """Set up (or reload) our replica of ``game_id``."""

    def relay_moved(self, old: int, new: int) -> None:
        """The log moved the relay from ``old`` to ``new``."""

    def hand_over_at(self, index: int, raw: bytes, sig: bytes) -> bool:
        """A hand-over at ``index`` where our log goes on without it: cut back to it (True), or not ours."""

    def joined_game(self) -> None:
        """The peer we reach welcomed us into our game: send again what is in flight."""

    def paused_by_host(self, paused: Paused) -> None:
        """The host stopped the game for now."""

    def refused_elsewhere(self, digest: bytes, code: str) -> None:
        """The relay refused a message that was not ours (one a seat showed us: witness.py)."""


class Follower:
    """Checks, folds and stores what the peer we follow sends."""

    def __init__(self, replica: Replica, uplink: Uplink, duties: SeatDuties, catchup: CatchUp,
                 identity: Identity, name: str, report: Report, trace: Trace,
                 ongoing: list[GameStore], hooks: FollowerHooks, presence: Presence, renames: bool = False,
                 host_key: bytes | None = None, data_flag: str = "") -> None:
        """``data_flag``: ` --data-dir DIR` when ours is not the default one (for the commands we print)."""
        self.replica = replica
        self.uplink = uplink
        self.duties = duties
        self.catchup = catchup
        self.identity = identity
        self.name = name
        self.report = report
        self.trace = trace
        self.ongoing = ongoing  # our unfinished games with this host: we join no other while one is under way
        self.hooks = hooks
        self.presence = presence  # who is alive, as the relay says (liveness.py)
        self.lobby_names: tuple[str, ...] = ()  # who is in, as the host last said before the start
        self.renames = renames  # our name is a default: one taken at the table is changed, not refused
        self.host_key = host_key  # the key our beacon listing confirmed at this address (None: not from a beacon)
        self.told_escrow = False
        self.data_flag = data_flag
        self._fork_checked = (-1, 0.0)  # the log length at which we last re-fetched the log for a fork, and when
        self._last_sync = 0.0
        self._told_less = -1  # the last log length, shorter than ours, the peer we reach said it holds
        self.resends = Resends()  # how often we answer a fetch: at most one resend at a time, and a rate

    # ------------------------------------------------------------- frames

    def handle(self, raw: bytes) -> None:
        up = self.uplink
        try:
            frame = from_peer(raw)
        except FrameError as exc:
            self.catchup.drops.drop(DoorKind(Door.BAD_FRAME_FOLLOWED), DoorDetail(str(exc)))
            return
        up.heard_now()
        table = self.replica.table
        match frame:
            case frames.Challenge(version, public, challenge, game_id, game):
                self.challenged(version, public, challenge, game_id, game)
            case frames.NotAdmitted(code, reason) if code == ErrorCode.NAME_TAKEN and self.renames and table is None:
                # Our name was no choice of the player's (the login name): take
                # a distinct one rather than stop; a new hello on this connection.
                new = another_name(self.name)
                self.report(NameTaken(self.name, new))
                self.name = new
                up.forget_challenge()
                up.send(frames.Hi(NET_VERSION))
            case frames.NotAdmitted(code, reason):
                started = code == ErrorCode.STARTED and self.replica.table is None
                raise PeerExit(1, HostRefusedUs(code, reason, self.uplink.where if started else None))
            case frames.Welcome(_, game_id, log_len, names):
                up.welcomed_at(log_len)
                if game_id is None:
                    self.not_a_new_game()
                    self.lobby_said(names)  # a welcome and the lobby's news may say the same
                else:
                    if table is not None and table.game_id != game_id:
                        raise PeerExit(1, self.other_game(game_id))
                    self.hooks.open_game(game_id)
                    assert self.replica.table is not None
                    if self.replica.relaying or self.holds_less(log_len):
                        # We relay and probe our successor (resumed, or cut
                        # off), or the seat we reach holds less than we do: it
                        # may have taken over at an index we hold, with a log
                        # no longer than ours (we sequenced entries nobody
                        # received, and its game stalled soon after). Asked
                        # from our length it would send nothing and each
                        # would wait for the other; the whole log shows the
                        # fork, whatever this connection's predecessors asked.
                        self._fork_checked = (-1, 0.0)
                        self.check_for_fork()
                    else:
                        up.send(frames.Sync(len(self.replica.table.log)))
                    self.hooks.joined_game()
            case frames.LobbyNews(names, wanted, escrow):
                if escrow and not self.told_escrow:
                    self.told_escrow = True
                    self.report(LobbySaid(LobbyWord.ESCROW_IN_LOBBY))
                self.lobby_said(names, wanted)
                # Answered at once: the host's roll call before the seating
                # waits for every member's word (admission.all_answered).
                up.send(frames.Ping(0))
            case frames.Entry(index, envelope, signature):
                if up.public is not None:
                    self.entry(index, envelope, signature)
            case frames.Rejected(digest, code, reason):
                if not self.duties.refused(digest, code, reason):
                    self.hooks.refused_elsewhere(digest, code)
            case frames.Ping(length):
                up.holds_at_least(length)
                if table is not None and length > len(table.log) and time.monotonic() - self._last_sync > 2.0:
                    self.sync(len(table.log))
                elif table is not None and up.welcomed and self.holds_less(length) and length != self._told_less:
                    # Each new shorter length it says (its heartbeat, or its
                    # answer to a sync past its end) is one whole-log ask: an
                    # earlier one may have been coalesced or lost, and then
                    # nobody would ever send the entry where the logs part.
                    self._told_less = length
                    self._fork_checked = (-1, 0.0)
                    self.check_for_fork()
            case frames.Fetch(start):
                self.send_held(start)
            case frames.Pause(length, signature):
                self.host_paused(length, signature)
            case frames.Silent(silence):
                self.duties.heard_silent(tuple(seat for seat, _ in silence))
                if not self.replica.relaying:  # the word of the relay we follow; while we relay, ours
                    self.presence.heard(silence)
            case frames.GaveUp(seat, why, about, seconds, signature):
                if table is not None and table.seated and seat < table.n and all(s < table.n for s in about):
                    news = SeatGaveUp(seat, why, about, seconds)
                    if not gave_up_signed(table.seats[seat].identity, signature, table.game_id, news):
                        return  # the relay's, or the path's, word alone: it names nobody gone
                    self.presence.left(news)
                    self.report(OtherGaveUp(news, self.replica.seat))

    def lobby_said(self, names: tuple[str, ...], wanted: int = 0) -> None:
        """Who is in the lobby, on our screen when it changes. Our name not
        among them: the lobby was full when we came, and we wait for a place
        (the host gives us the first that frees; lobby.py)."""
        if names != self.lobby_names:
            self.report(LobbyNow(names, self.name in names, wanted))
        self.lobby_names = names

    def give_up(self, news: SeatGaveUp) -> None:
        """Our own seat gives up on the game: we tell the relay, signed, and it tells every screen."""
        table = self.replica.table
        signature = sign_gave_up(self.identity, table.game_id if table is not None else None, news)
        self.uplink.send(frames.GiveUp(news.why, news.about, news.seconds, signature))

    def challenged(self, version: int, public: bytes, challenge: bytes, game_id: bytes | None,
                   game: tuple[str, str, bytes] | None) -> None:
        """A challenge: answered with our signed hello, once per connection, if
        it is the peer we expect and the game we play, and a game we can play."""
        up, table = self.uplink, self.replica.table
        if version != NET_VERSION:
            raise PeerExit(1, OtherProtocol(version, NET_VERSION))
        if game is not None and (why := frames.unplayable(game)) is not None:  # before our hello: no lobby place
            raise PeerExit(1, CannotPlayThere(up.where, game[0], game[1], why))
        ours = {g.game_id for g in self.ongoing} | ({table.game_id} if table is not None else set())
        if ours and game_id not in ours:  # never join another game while ours is under way: say why
            raise PeerExit(1, self.other_game(game_id))
        expected = self.expected_key()
        if expected is not None and public != expected:
            raise PeerExit(1, DifferentHost())
        if challenge != up.challenge:  # a new connection's: answer it once (a repeat is the same one)
            up.answered(challenge, public)
            up.send(hello_for(self.identity, self.name, public, challenge, (up.address, up.port)))

    def expected_key(self) -> bytes | None:
        """The key that must answer where our DEALER points (None: whoever hosts the game we join; before
        the seating, the one the beacon listing confirmed there)."""
        table = self.replica.table
        if table is None or not table.seats:
            return self.host_key
        return table.seats[self.uplink.seat if self.uplink.seat is not None else 0].identity

    # ------------------------------------------------------------- entries

    def signer(self, table: Table, raw: bytes) -> bytes | None:
        """The key whose receipt entry ``raw`` must carry at the end of ``table``'s log."""
        if not table.seated:
            return self.uplink.public
        return table.seats[table.sequencer_of(raw)].identity

    def entry(self, index: int, raw: bytes, sig: bytes) -> None:
        """One entry of the log from the peer we follow: checked, folded, stored."""
        assert self.uplink.public is not None
        if self.replica.table is None:
            if index != 0:
                self.sync(0)
                return
            try:
                self.hooks.open_game(open_envelope(raw).game_id)
            except TableError:
                self.report(Dropped(Dropping.FIRST_MALFORMED))
                return
        table, store = self.replica.table, self.replica.store
        assert table is not None and store is not None
        game_id = table.game_id if table.game_id is not None else open_envelope(raw).game_id
        if index < len(table.log):
            if entry_hash(table.log[index]) != entry_hash(raw):
                self.conflict(index, raw, sig)
            return
        if index > len(table.log):
            self.sync(len(table.log))
            return
        prev = table.head if table.log else EMPTY_HEAD
        key = self.signer(table, raw)
        if key is None or not entry_signed(key, game_id, index, prev, raw, sig):
            self.catchup.drops.drop(DoorKind(Door.ENTRY_RELAY_UNSIGNED), DoorDetail(entry=index))
            # The relay may have signed it after another prefix than ours: it
            # showed us a fork. Fetching the whole log again lets conflict()
            # find the two signed entries at one index (once per length).
            self.check_for_fork()
            return
        relay_before, gone_before = table.relay, table.relay_gone
        try:
            table.receive(raw)
        except (TableError, EngineError) as exc:
            raise PeerExit(1, RefusedRelayEntry(*self.relay_seat(), index, str(exc.code), str(exc)))
        if index == 0:
            self.seated()
        store.add_receipt(index, entry_hash(raw), sig)
        store.append(raw)  # durable (store.sync) before we act on it: see SeatDuties.act
        if self.replica.relaying and self.uplink.seat is not None:
            # A resumed relay's log lost this entry; the successor it looked
            # for sent it back under our own receipt (as a fetch would).
            self.catchup.fetched_from(self.uplink.seat, index)
        self.duties.sequenced(raw)
        self.trace.folded(table, self.replica.seat)
        self.uplink.holds_at_least(len(table.log))
        if table.relay_gone and not gone_before:
            # The relay forfeited: it stops once every seat holds its forfeit,
            # and we are about to turn away from it. Tell it now.
            self.uplink.send(frames.reporting(len(table.log), table.head))
        if table.relay != relay_before:
            self.hooks.relay_moved(relay_before, table.relay)

    def seated(self) -> None:
        """The seating (entry 0) is in: it names our seat, or the game started without us."""
        if self.replica.player is not None and self.replica.seat is None:
            raise PeerExit(1, StartedWithoutUs())
        seat = self.replica.seat
        if seat is not None:
            self.report(GameStarts(seat))

    def dialled(self) -> tuple[Dialled, int | None]:
        """Whom our DEALER reaches, and its seat (None: not known yet, before
        the seating). Until a hand-over sends us elsewhere (``uplink.seat``)
        we reach the address we were given: the host, seat 0."""
        table, seat = self.replica.table, self.uplink.seat
        if table is None or not table.seats:
            return Dialled.HOST, None
        if seat is None:
            return Dialled.HOST, 0
        if seat == table.relay:
            return (Dialled.RELAY if table.handovers else Dialled.HOST), seat
        return Dialled.NEXT_RELAY, seat

    def followed(self) -> tuple[Dialled, int | None]:
        """Whom our DEALER reaches, as the player is told: its seat None until a hand-over names one."""
        dialled, seat = self.dialled()
        return dialled, seat if self.uplink.seat is not None else None

    def relay_silence(self) -> RelaySilence | None:
        """The peer we follow, once it has sent nothing for HOST_SILENT_S (the
        status line says so first); None while it talks, or while we relay."""
        up = self.uplink
        if up.sock is None or self.replica.relaying:
            return None
        silent = up.quiet_for()
        if silent <= HOST_SILENT_S:
            return None
        dialled, seat = self.dialled()
        return RelaySilence(dialled, seat, int(silent))

    def relay_seat(self) -> tuple[int, bool]:
        """The seat that sequences what we follow, and whether a hand-over moved
        the relay there (else it is the host), for the words of its misdeeds."""
        table = self.replica.table
        return (self.uplink.seat if self.uplink.seat is not None else 0,
                table is not None and bool(table.handovers))

    # ---------------------------------------------------------------- forks

    def conflict(self, index: int, raw: bytes, sig: bytes) -> None:
        """Another entry at an index we hold: a hand-over that cuts our log
        back, or, signed by the relay of that index, its equivocation."""
        table, store = self.replica.table, self.replica.store
        assert table is not None and store is not None and table.game_id is not None
        prev = prev_head(table, index)
        relay = table.relay_at(index)
        if self.hooks.hand_over_at(index, raw, sig):
            return
        key = table.seats[relay].identity
        if not entry_signed(key, table.game_id, index, prev, raw, sig):
            self.report(Dropped(Dropping.CONFLICT_UNSIGNED, entry=index))
            return
        mine = store.receipts().get(index)
        if mine is None:
            return
        proof = EquivocationProof(key, table.game_id, index, prev, table.log[index], mine[1], raw, sig)
        if proof.valid():
            path = store.save_proof(index, proof.to_bytes())
            raise PeerExit(1, Equivocated(*self.relay_seat(), index, path))

    def check_for_fork(self) -> None:
        """Fetch the whole log again: a conflicting entry in it shows a fork
        or a hand-over we missed (``conflict``). Once per log length, and
        again after ``FORK_CHECK_S`` if the log has not moved since."""
        table = self.replica.table
        now = time.monotonic()
        if table is not None and (self._fork_checked[0] != len(table.log)
                                  or now - self._fork_checked[1] >= FORK_CHECK_S):
            self._fork_checked = (len(table.log), now)
            self._last_sync = 0.0
            self.sync(0)

    def holds_less(self, length: int) -> bool:
        """The peer we reach says it holds ``length`` entries, fewer than we
        do, and we are not its follower in our own log's term: we relay (and
        probe our successor), or it is not the relay our log names. Then only
        the whole log shows whether it moved the relay at an index we hold
        (a relay whose log lost its tail, the one our log names, fetches
        what it lacks from us instead: catchup.py)."""
        table = self.replica.table
        if table is None or not table.seated or length >= len(table.log):
            return False
        reached = self.uplink.seat if self.uplink.seat is not None else 0  # None: the host we joined at
        return self.replica.relaying or reached != table.relay

    def sync(self, start: int) -> None:
        now = time.monotonic()
        if now - self._last_sync > SYNC_EVERY_S:
            self._last_sync = now
            self.uplink.send(frames.Sync(start))

    def send_held(self, start: int) -> None:
        """The relay lacks the tail of the log (it lost it in a crash, or it
        takes over from a shorter log) and asks for it: send our entries from
        ``start`` with their relays' signatures from our receipts."""
        table, store = self.replica.table, self.replica.store
        if table is None or store is None or not start < len(table.log):
            return
        if not self.resends.may_resend():
            self.catchup.drops.drop(DoorKind(Door.FETCH_UNDER_WAY))
            return
        receipts = store.receipts()
        size = 0
        for index in range(start, len(table.log)):
            sig = receipts.get(index, (b"", b""))[1]
            if len(sig) != 64:
                break  # no receipt from here on (it was never fsync'ed): the relay will say so
            self.uplink.send(frames.Have(index, table.log[index], sig))
            size += len(table.log[index])
        self.resends.resent(size)

    # ------------------------------------------------------- lobby and pause

    def host_paused(self, length: int, sig: bytes) -> None:
        """The host stops for now. Signed over the challenge we answered on
        this connection: nobody else can stop us, nor replay a pause of
        another connection or game. We keep everything and stop; the log we
        have not caught up with yet comes when the game resumes."""
        table, up = self.replica.table, self.uplink
        game_id = table.game_id if table is not None else None
        if up.public is None or up.challenge is None or not pause_signed(up.public, sig, up.challenge, game_id,
                                                                         length):
            self.report(Dropped(Dropping.PAUSE_UNSIGNED))
            return
        if table is None or game_id is None:
            raise PeerExit(0, LobbyClosedByHost())
        self.hooks.paused_by_host(paused_at(table, ours=False))

    def not_a_new_game(self) -> None:
        """The host put us in its lobby: fine for a first join, never while a
        game of ours with it is under way (the host restarted without it)."""
        if self.replica.table is not None or self.ongoing:
            self.uplink.send(frames.LeaveLobby())
            raise PeerExit(1, self.other_game(None))

    def other_game(self, opened: bytes | None) -> OtherGameOpened:
        """The host opened ``opened`` (None: a new game) while ours with it is under way."""
        table = self.replica.table
        mine = (table.game_id if table is not None and table.game_id is not None
                else self.ongoing[0].game_id if self.ongoing else None)
        return OtherGameOpened(self.uplink.where, opened, mine, self.data_flag)
