"""The bodies of game messages: small typed records with to_wire / from_wire.

    seating = ["seating", RULES, [[name, identity], ...], escrow?]
                                                             seat 0 opens the game; escrow
                                                             (a bool, absent = false): §6 Escrow
    keys    = ["keys", key_announcement, seed_commitment, seal_key?]
                                                             each seat, once; in an escrow
                                                             game with its seal key (§6)
    shuffle = ["shuffle", shuffle_step, [card, ...]]         a seat's step of a chain, and the
                                                             cards the chain shuffles
    remask  = ["remask", remask_step, [card_ref, ...]]       a seat's re-masking step, and the
                                                             cards the chain re-masks
    shuffle_proof = ["shuffle_proof", shuffle_proof]         its proof, sent after the step
    remask_proof  = ["remask_proof", remask_proof]           the same for a re-masking step
    shares  = ["shares", [decryption_share, ...]]            shares the author owes
    act     = ["act", engine_action]                         a move; the author's shares of
                                                             the hidden cards it plays follow
                                                             once the log holds it (§6)
    audit   = ["audit", seed, secret_key]                    after the game: reveal secrets
    forfeit = ["forfeit", seed, secret_key]                  leave for good mid-game: reveal
                                                             secrets, a bot plays on (§6)
    escrow  = ["escrow", deal_of_key, deal_of_seed, G^seed]  each seat of an escrow game, once
    escrow_complaint = ["escrow_complaint", "key"|"seed", complaint]
                                                             a recipient whose share does not open
    carry_on = ["carry_on", seat]                            ask to play a silent seat on
    escrow_reveal = ["escrow_reveal", seat, share_of_key, share_of_seed]
                                                             hand over our shares of its deal
    reach   = ["reach", ip, port]                            where this seat accepts the others
                                                             if it becomes the relay (§9)
    relay   = ["relay", old_relay, receipt, [request, ...]]  the new relay's first entry (§6)

Decoding validates every field (types, sizes, ranges, group membership) and
raises Malformed; the table then checks that the message is expected now.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from typing import Any, TypeAlias, TypeGuard

from p2p_ttr.deck import CardRef as DeckRef
from p2p_ttr.deck import (
    Q,
    Complaint,
    DeckError,
    EscrowDeal,
    DecryptionShare,
    KeyAnnouncement,
    RemaskProof,
    RemaskStep,
    SecretKey,
    Seed,
    SeedCommitment,
    ShuffleProof,
    ShuffleStep,
    check_element,
    expect_bytes,
    expect_int,
    expect_list,
)
from p2p_ttr.engine.boards import MAX_NAME as MAX_GAME_NAME
from p2p_ttr.engine.boards import UnknownGame, europe_game, load_game
from p2p_ttr.engine.errors import EngineError
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.events import Action, event_from_wire, is_action, to_wire

from .envelope import HASH_BYTES, MAX_SEATS
from .errors import Malformed
from .identity import PUBLIC_KEY_BYTES, SIGNATURE_BYTES
from .names import valid_player_name
from .relaying import FollowRequest

# 5: relay terms (a follow request binds the term and the exact log the
# hand-over continues; a carry-on request counts only in the term it was
# written in), escrow sealed to seal keys that are never revealed (no
# carry-on once a seat has left), and a chain step names the chain's input
# (shuffled cards, re-masked cards); 4: the conceded ending (fewer than two
# seats in play), escrow; 3: pass only with no other action (it shows the
# hand); 2: proven chains
# 6: the seating names the game played (board, variant, digest of its data:
# p2p_ttr.engine.boards), and the rules string names only this protocol's
# revision. A seating of revision 5 is Europe's standard game.
RULES = "ttr/6"
EUROPE_RULES_5 = "ttr-europe/5"
MAX_NAME = 24


def valid_name(name: object) -> TypeGuard[str]:
    """A player name (``names.name_problem`` says the rule: NFKC, 1..24
    characters judged by Unicode 3.2.0, nothing invisible, no list separator).
    One rule for the seating, the lobby and the beacon."""
    return valid_player_name(name)


GAME_DIGEST_BYTES = 32  # SHA-256 of the board data, variant and rules (Game.digest)
MAX_SHARES = 128
MAX_CARD = 109  # the highest card id of any deck (train cards 0..109)
MAX_REMASKED = 3  # tickets returned at once: at most 3 are drawn
ESCROW_MIN_SEATS = 3  # with two, the other player alone would hold a seat's key
EXPONENT_BYTES = 256  # an escrowed share or image: a number below Q, or a group element
ESCROWED = ("key", "seed")  # what a deal escrows: the secret exponent, the shuffle seed


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat of the game: the player's name and Ed25519 identity."""

    name: str
    identity: bytes  # Ed25519 public key


@dataclass(frozen=True, slots=True)
class Seating:
    """Seat 0's first message: the rules and the seats; it opens the game."""

    seats: tuple[Seat, ...]
    # Every seat escrows its secrets among the others, so that they can carry
    # it on if it vanishes (protocol.md §6, Escrow). Written only when set:
    # a seating without it encodes as before escrow existed.
    escrow: bool = False
    game: Game = field(default_factory=europe_game)  # the board, rules and variant played
    KIND = "seating"

    def to_wire(self) -> list[Any]:
        tail: list[Any] = [True] if self.escrow else []
        named = [self.game.board_name, self.game.variant, self.game.digest]
        return [self.KIND, RULES, named, [[s.name, s.identity] for s in self.seats], *tail]


def _seated_game(named: object) -> Game:
    """The game a seating names, if this peer has it with the same data."""
    board, variant, digest = expect_list(named, "game", 3)
    if not isinstance(board, str) or not isinstance(variant, str) or len(board) > MAX_GAME_NAME \
            or len(variant) > MAX_GAME_NAME:
        raise Malformed(f"a game is [board, variant, digest], the names at most {MAX_GAME_NAME} characters")
    digest = expect_bytes(digest, "game digest", GAME_DIGEST_BYTES)
    try:
        game = load_game(board, variant)
    except UnknownGame as exc:
        raise Malformed(f"this peer cannot play that game: {exc}") from None
    if game.digest != digest:
        raise Malformed(f"{game.title} differs here: the seating's board data or rules are not this peer's "
                        "(another version of p2p_ttr?)")
    return game


@dataclass(frozen=True, slots=True)
class Keys:
    """A seat's ElGamal key (with its proof) and its seed commitment; in an
    escrow game also its seal key (with its own proof): the key the others
    seal their escrow shares to, never revealed (protocol.md §6, Escrow)."""

    key: KeyAnnouncement
    commitment: SeedCommitment
    seal: KeyAnnouncement | None = None
    KIND = "keys"

    def to_wire(self) -> list[Any]:
        tail = [self.seal.to_wire()] if self.seal is not None else []
        return [self.KIND, self.key.to_wire(), self.commitment.to_wire(), *tail]


@dataclass(frozen=True, slots=True)
class Shuffle:
    """A seat's step of a shuffle chain, naming what the chain shuffles: the
    card ids of the epoch, ascending (the canonical deck seat 0 starts from).
    The fold refuses any other list; carried in the log so that an auditor
    knows each epoch's input without replaying the rules (protocol.md §3)."""

    step: ShuffleStep
    cards: tuple[int, ...]
    KIND = "shuffle"

    def to_wire(self) -> list[Any]:
        return [self.KIND, self.step.to_wire(), list(self.cards)]


@dataclass(frozen=True, slots=True)
class Remask:
    """A seat's step of a re-masking chain, naming what the chain re-masks:
    the returned tickets, in the order they go under the pile (each
    position's input is that card's ciphertext)."""

    step: RemaskStep
    sources: tuple[DeckRef, ...]
    KIND = "remask"

    def to_wire(self) -> list[Any]:
        return [self.KIND, self.step.to_wire(), [ref.to_wire() for ref in self.sources]]


@dataclass(frozen=True, slots=True)
class ProveShuffle:
    """A seat's proof that its shuffle step is a permutation and re-encryption of its input."""

    proof: ShuffleProof
    KIND = "shuffle_proof"

    def to_wire(self) -> list[Any]:
        return [self.KIND, self.proof.to_wire()]


@dataclass(frozen=True, slots=True)
class ProveRemask:
    """A seat's proof that its re-masking step re-encrypts its input in place."""

    proof: RemaskProof
    KIND = "remask_proof"

    def to_wire(self) -> list[Any]:
        return [self.KIND, self.proof.to_wire()]


@dataclass(frozen=True, slots=True)
class Shares:
    """A seat's decryption shares of cards it owes shares for."""

    shares: tuple[DecryptionShare, ...]
    KIND = "shares"

    def to_wire(self) -> list[Any]:
        return [self.KIND, [s.to_wire() for s in self.shares]]


@dataclass(frozen=True, slots=True)
class Act:
    """A move. It carries no secret: when it plays hidden cards, its author
    sends its shares of them once the log holds the act (protocol.md §6), so
    a relay that refuses or drops the act learns nothing from it."""

    action: Action
    KIND = "act"

    def to_wire(self) -> list[Any]:
        return [self.KIND, to_wire(self.action)]


@dataclass(frozen=True, slots=True)
class Audit:
    """A seat's secrets (seed and exponent), revealed after the game for the audit."""

    seed: Seed
    secret: SecretKey
    KIND = "audit"

    def to_wire(self) -> list[Any]:
        return [self.KIND, self.seed.to_wire(), self.secret.to_wire()]


@dataclass(frozen=True, slots=True)
class Forfeit:
    """Like an audit, but during the game and without halting it: the seat
    leaves and the fold plays it from its now-public secrets."""

    seed: Seed
    secret: SecretKey
    KIND = "forfeit"

    def to_wire(self) -> list[Any]:
        return [self.KIND, self.seed.to_wire(), self.secret.to_wire()]


@dataclass(frozen=True, slots=True)
class Escrow:
    """A seat's secret exponent and shuffle seed, each dealt to every other
    seat (Feldman shares sealed to each recipient); ``seed_image`` is G^seed,
    what the seed deal's commitments multiply to."""

    key: EscrowDeal
    seed: EscrowDeal
    seed_image: int
    KIND = "escrow"

    def to_wire(self) -> list[Any]:
        return [self.KIND, self.key.to_wire(), self.seed.to_wire(), self.seed_image.to_bytes(EXPONENT_BYTES, "big")]


@dataclass(frozen=True, slots=True)
class EscrowComplaint:
    """A recipient shows that its share of a deal (``secret``: "key" or
    "seed") does not open: the key it was sealed with, proven its own."""

    secret: str
    complaint: Complaint
    KIND = "escrow_complaint"

    def to_wire(self) -> list[Any]:
        return [self.KIND, self.secret, self.complaint.to_wire()]


@dataclass(frozen=True, slots=True)
class CarryOn:
    """The author asks that ``seat``, silent too long, be carried on: once
    every other seat in play asks, they open its secrets from escrow."""

    seat: int
    KIND = "carry_on"

    def to_wire(self) -> list[Any]:
        return [self.KIND, self.seat]


@dataclass(frozen=True, slots=True)
class EscrowReveal:
    """The author's shares of ``seat``'s key and seed, in the clear: owed once
    every other seat in play asked to carry ``seat`` on."""

    seat: int
    key_share: int = field(repr=False)
    seed_share: int = field(repr=False)
    KIND = "escrow_reveal"

    def to_wire(self) -> list[Any]:
        return [self.KIND, self.seat, self.key_share.to_bytes(EXPONENT_BYTES, "big"),
                self.seed_share.to_bytes(EXPONENT_BYTES, "big")]


@dataclass(frozen=True, slots=True)
class Reach:
    """Where the author accepts the other peers' connections should it become
    the relay: an IP address (v4 or v6, as text) and a TCP port. A hint for
    finding it, not trust: whoever answers there must prove the seat's key."""

    ip: str
    port: int
    KIND = "reach"

    def to_wire(self) -> list[Any]:
        return [self.KIND, self.ip, self.port]


@dataclass(frozen=True, slots=True)
class Relay:
    """The new relay's first entry: the relay it replaces, that relay's
    receipt (signature) of the entry just before this one, and a follow
    request from every other seat in play (relaying.py)."""

    old: int
    receipt: bytes
    requests: tuple[FollowRequest, ...]
    KIND = "relay"

    def to_wire(self) -> list[Any]:
        return [self.KIND, self.old, self.receipt, [r.to_wire() for r in self.requests]]


Message: TypeAlias = (Seating | Keys | Shuffle | Remask | ProveShuffle | ProveRemask | Shares | Act | Audit
                      | Forfeit | Reach | Relay | Escrow | EscrowComplaint | CarryOn | EscrowReveal)


def _ip(value: object) -> str:
    if not (isinstance(value, str) and 0 < len(value) <= 45):
        raise Malformed("a reach address is an IP address")
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        raise Malformed("a reach address is an IP address") from None


def _request(value: object) -> FollowRequest:
    seat, length, head, signature = expect_list(value, "follow request", 4)
    if type(seat) is not int or not 0 <= seat < MAX_SEATS:
        raise Malformed("a follow request names a seat")
    if type(length) is not int or not 1 <= length < 2**31:
        raise Malformed("a follow request names a log length from 1")
    return FollowRequest(seat, length, expect_bytes(head, "log head", HASH_BYTES),
                         expect_bytes(signature, "signature", SIGNATURE_BYTES))


def _card_ids(value: object, size: int) -> tuple[int, ...]:
    """A shuffle's cards: one id per ciphertext of its step, ascending."""
    items = expect_list(value, "shuffled cards")
    if len(items) != size:
        raise Malformed(f"a shuffle names one card per ciphertext: {size}, not {len(items)}")
    cards = tuple(expect_int(card, "card", 0, MAX_CARD) for card in items)
    if any(a >= b for a, b in zip(cards, cards[1:])):
        raise Malformed("a shuffle names its cards ascending, each once")
    return cards


def _sources(value: object, size: int) -> tuple[DeckRef, ...]:
    """A re-masking's cards: one reference per ciphertext of its step, each once."""
    items = expect_list(value, "re-masked cards")
    if len(items) != size:
        raise Malformed(f"a re-masking names one card per ciphertext: {size}, not {len(items)}")
    refs = tuple(DeckRef.from_wire(item) for item in items)
    if len(set(refs)) != len(refs):
        raise Malformed("a re-masking names each card once")
    return refs


def _shares(value: object) -> tuple[DecryptionShare, ...]:
    items = expect_list(value, "shares")
    if not 0 < len(items) <= MAX_SHARES:
        raise Malformed(f"a message carries 1..{MAX_SHARES} shares")
    return tuple(DecryptionShare.from_wire(item) for item in items)


def _exponent(value: object, what: str) -> int:
    number = int.from_bytes(expect_bytes(value, what, EXPONENT_BYTES), "big")
    if number >= Q:
        raise Malformed(f"{what} is an exponent below the group order")
    return number


def _element(value: object, what: str) -> int:
    return check_element(int.from_bytes(expect_bytes(value, what, EXPONENT_BYTES), "big"), what)


def message_from_wire(body: list[Any]) -> Message:
    """Decode a message body; raise Malformed on anything off."""
    try:
        return _decode(body)
    except (DeckError, EngineError) as exc:
        raise Malformed(str(exc)) from None


def _decode(body: list[Any]) -> Message:
    kind = body[0]
    if kind == Seating.KIND:
        if len(body) < 2 or body[1] not in (RULES, EUROPE_RULES_5):
            rules = body[1] if len(body) > 1 else None
            raise Malformed(f"unknown rules {str(rules)[:32]!r}; this peer plays {RULES} (and reads {EUROPE_RULES_5})")
        if body[1] == EUROPE_RULES_5:
            # Before the boards: no game field, Europe's standard game.
            if len(body) not in (3, 4):
                raise Malformed("a seating is [kind, rules, players] or [kind, rules, players, escrow]")
            _, _, players, *tail = body
            game = europe_game()
        else:
            if len(body) not in (4, 5):
                raise Malformed("a seating is [kind, rules, game, players] or [kind, rules, game, players, escrow]")
            _, _, named, players, *tail = body
            game = _seated_game(named)
        escrow = tail[0] if tail else False
        if tail and escrow is not True:
            # One encoding per seating: the flag is written only when true (protocol.md §5).
            raise Malformed("a seating's escrow flag is written only when true")
        rows = expect_list(players, "players")
        if not game.rules.players_allowed(len(rows)) or len(rows) > MAX_SEATS:
            raise Malformed(f"{game.title} is for {game.rules.min_players} to {game.rules.max_players} players")
        seats = []
        for row in rows:
            name, identity = expect_list(row, "player", 2)
            if not valid_name(name):
                raise Malformed(f"a player name is 1..{MAX_NAME} printable characters, no space at either end")
            seats.append(Seat(name, expect_bytes(identity, "identity key", PUBLIC_KEY_BYTES)))
        if len({s.name for s in seats}) != len(seats) or len({s.identity for s in seats}) != len(seats):
            raise Malformed("player names and identity keys must be unique")
        if escrow and not ESCROW_MIN_SEATS <= len(seats) <= MAX_SEATS:
            raise Malformed(f"escrow needs {ESCROW_MIN_SEATS} to {MAX_SEATS} players: with two, the other "
                            "player alone would hold a seat's key")
        return Seating(tuple(seats), escrow, game)
    if kind == Keys.KIND:
        items = expect_list(body, "keys")
        if len(items) not in (3, 4):
            raise Malformed("keys are [kind, key, seed commitment] or [kind, key, seed commitment, seal key]")
        _, key, commitment, *seal = items
        return Keys(KeyAnnouncement.from_wire(key), SeedCommitment.from_wire(commitment),
                    KeyAnnouncement.from_wire(seal[0]) if seal else None)
    if kind == Shuffle.KIND:
        _, step, cards = expect_list(body, "shuffle", 3)
        shuffle = ShuffleStep.from_wire(step)
        return Shuffle(shuffle, _card_ids(cards, len(shuffle.ciphertexts)))
    if kind == Remask.KIND:
        _, step, sources = expect_list(body, "remask", 3)
        remask = RemaskStep.from_wire(step)
        if not 0 < len(remask.ciphertexts) <= MAX_REMASKED:
            raise Malformed(f"a remask step holds the 1..{MAX_REMASKED} returned tickets")
        return Remask(remask, _sources(sources, len(remask.ciphertexts)))
    if kind == ProveShuffle.KIND:
        _, proof = expect_list(body, "shuffle proof", 2)
        return ProveShuffle(ShuffleProof.from_wire(proof))
    if kind == ProveRemask.KIND:
        _, proof = expect_list(body, "remask proof", 2)
        return ProveRemask(RemaskProof.from_wire(proof))
    if kind == Shares.KIND:
        _, shares = expect_list(body, "shares", 2)
        return Shares(_shares(shares))
    if kind == Act.KIND:
        _, action = expect_list(body, "act", 2)
        event = event_from_wire(action)
        if not is_action(event):
            raise Malformed("an act carries a player action, not a chance event")
        return Act(event)  # type: ignore[arg-type]
    if kind == Audit.KIND:
        _, seed, secret = expect_list(body, "audit", 3)
        return Audit(Seed.from_wire(seed), SecretKey.from_wire(secret))
    if kind == Forfeit.KIND:
        _, seed, secret = expect_list(body, "forfeit", 3)
        return Forfeit(Seed.from_wire(seed), SecretKey.from_wire(secret))
    if kind == Escrow.KIND:
        _, key, seed, image = expect_list(body, "escrow", 4)
        return Escrow(EscrowDeal.from_wire(key), EscrowDeal.from_wire(seed), _element(image, "seed image"))
    if kind == EscrowComplaint.KIND:
        _, secret, complaint = expect_list(body, "escrow complaint", 3)
        if secret not in ESCROWED:
            raise Malformed(f"an escrow complaint is about the {' or the '.join(ESCROWED)}")
        return EscrowComplaint(str(secret), Complaint.from_wire(complaint))
    if kind == CarryOn.KIND:
        _, seat = expect_list(body, "carry on", 2)
        return CarryOn(expect_int(seat, "seat", 0, MAX_SEATS - 1))
    if kind == EscrowReveal.KIND:
        _, seat, key_share, seed_share = expect_list(body, "escrow reveal", 4)
        return EscrowReveal(expect_int(seat, "seat", 0, MAX_SEATS - 1), _exponent(key_share, "share of the key"),
                            _exponent(seed_share, "share of the seed"))
    if kind == Reach.KIND:
        _, ip, port = expect_list(body, "reach", 3)
        if type(port) is not int or not 0 < port < 65536:
            raise Malformed("a reach port is 1..65535")
        return Reach(_ip(ip), port)
    if kind == Relay.KIND:
        _, old, receipt, requests = expect_list(body, "relay", 4)
        if type(old) is not int or not 0 <= old < MAX_SEATS:
            raise Malformed("a relay message names the old relay's seat")
        items = expect_list(requests, "follow requests")
        if len(items) >= MAX_SEATS:
            raise Malformed(f"a relay message carries at most {MAX_SEATS - 1} follow requests")
        parsed = tuple(_request(item) for item in items)
        if len({r.seat for r in parsed}) != len(parsed):
            raise Malformed("one follow request per seat")
        return Relay(old, expect_bytes(receipt, "receipt", SIGNATURE_BYTES), parsed)
    raise Malformed(f"unknown message kind {str(kind)[:32]!r}")
