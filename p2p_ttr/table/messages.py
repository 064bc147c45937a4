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
    mix     = ["mix", shuffle_step, [card_ref, ...]]         a seat's step of a mix (hidden cards
                                                             shuffled together), and its cards
    shuffle_proof = ["shuffle_proof", shuffle_proof]         its proof, sent after the step
    remask_proof  = ["remask_proof", remask_proof]           the same for a re-masking step
    mix_proof     = ["mix_proof", shuffle_proof]             the same for a mix step
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

Each message is declared once, a frozen dataclass whose fields carry their
bounds (``p2p_ttr.codec``); ``MESSAGES`` is their registry by kind, and
encoding, decoding and protocol.md §5's grammar all follow from it. Decoding
validates every field (types, sizes, ranges, group membership) and raises
Malformed; the table then checks that the message is expected now. What
depends on the game played (players, cards, tickets returned at once) is read
from the engine's ``GameLimits`` given to the decoder: by default those every
game fits, since a message is read before its game is known.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeAlias, TypeGuard

from p2p_ttr.deck import EpochPosition as DeckRef
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
)
from p2p_ttr.codec import Bool, Bytes, Family, Foreign, Int, List, Mapped, OneOf, Raw, Record, Str, Trailing, Tuple
from p2p_ttr.engine.boards import MAX_NAME as MAX_GAME_NAME
from p2p_ttr.engine.boards import UnknownGame, europe_game, playable_game
from p2p_ttr.engine.game import Game
from p2p_ttr.engine.events import Action, event_from_wire, is_action, to_wire
from p2p_ttr.engine.limits import GameLimits, any_game_limits

from .envelope import HASH_BYTES, MAX_SEATS
from .errors import Malformed
from .identity import PUBLIC_KEY_BYTES, SIGNATURE_BYTES
from .names import lookalikes, valid_player_name
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
# 7: the caretaker goes for a tunnel only when its hand pays the worst the
# turned cards can ask (p2p_ttr.engine.caretaker: it could give the same
# tunnel up turn after turn). A seating of revision 6 (or 5) is played and
# verified with the caretaker of revision 6, so its logs replay as written.
RULES = "ttr/7"
RULES_6 = "ttr/6"
EUROPE_RULES_5 = "ttr-europe/5"
MAX_NAME = 24


def valid_name(name: object) -> TypeGuard[str]:
    """A player name (``names.name_problem`` says the rule: NFKC, 1..24
    characters judged by Unicode 3.2.0, nothing invisible, no list separator).
    One rule for the seating, the lobby and the beacon."""
    return valid_player_name(name)


GAME_DIGEST_BYTES = 32  # SHA-256 of the board data, variant and rules (Game.digest)
MAX_SHARES = 128
ESCROW_MIN_SEATS = 3  # with two, the other player alone would hold a seat's key
EXPONENT_BYTES = 256  # an escrowed share or image: a number below Q, or a group element
ESCROWED = ("key", "seed")  # what a deal escrows: the secret exponent, the shuffle seed


def _deck(cls: Any, doc: str) -> Foreign:
    """A deck record, which checks itself (its refusals are DeckErrors)."""
    return Foreign(cls, doc, (DeckError,))


def _number(doc: str, read: Any) -> Mapped:
    """A number below 2^2048 in 256 big-endian bytes, checked by ``read``."""
    return Mapped(Bytes(EXPONENT_BYTES), read, lambda n: n.to_bytes(EXPONENT_BYTES, "big"), doc, (DeckError, Malformed))


def _exponent(raw: bytes) -> int:
    number = int.from_bytes(raw, "big")
    if number >= Q:
        raise Malformed("an exponent below the group order")
    return number


def _element(raw: bytes) -> int:
    return check_element(int.from_bytes(raw, "big"), "seed image")


def _ip(text: str) -> str:
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        raise Malformed("a reach address is an IP address") from None


def _action(value: object) -> Action:
    event = event_from_wire(value)
    if not is_action(event):
        raise Malformed("an act carries a player action, not a chance event")
    return event  # type: ignore[return-value]


def _named_game(fields: tuple[str, str, bytes]) -> Game:
    """The game a seating names, if this peer has it with the same data and rules."""
    try:
        return playable_game(*fields)
    except UnknownGame as exc:
        raise Malformed(f"this peer cannot play that game: {exc}") from None


def game_fields(game: Game) -> tuple[str, str, bytes]:
    """How a game is named on the wire: board, variant, digest."""
    return game.board_name, game.variant, game.digest


# A game by its names and digest, as written: the seating reads it as the Game
# (refusing one this peer cannot play); a challenge frame carries it as written.
GAME_NAMED = Tuple((("board", Str(1, MAX_GAME_NAME)), ("variant", Str(0, MAX_GAME_NAME)),
                    ("digest", Bytes(GAME_DIGEST_BYTES))))
GAME = Mapped(GAME_NAMED, _named_game, game_fields, f"[board, variant, digest({GAME_DIGEST_BYTES})]", (Malformed,))
SEAT_INDEX = Int(0, MAX_SEATS - 1)
REQUEST = Tuple((("seat", SEAT_INDEX), ("length", Int(1, 2**31 - 1)), ("head", Bytes(HASH_BYTES)),
                 ("signature", Bytes(SIGNATURE_BYTES))))


def _request(fields: tuple[int, int, bytes, bytes]) -> FollowRequest:
    return FollowRequest(*fields)


def _request_wire(request: FollowRequest) -> tuple[int, int, bytes, bytes]:
    return request.seat, request.length, request.head, request.signature


class Body:
    """A message body: ``to_wire`` writes it as its declaration says."""

    __slots__ = ()

    def to_wire(self) -> list[Any]:
        return MESSAGES.encode(self)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat of the game: the player's name and Ed25519 identity."""

    name: Annotated[str, Str(1, MAX_NAME, test=valid_name)]
    identity: Annotated[bytes, Bytes(PUBLIC_KEY_BYTES)]  # Ed25519 public key


@dataclass(frozen=True, slots=True)
class Seating(Body):
    """Seat 0's first message: the rules and the seats; it opens the game."""

    # On the wire first; keyword-only so that a seating is built from its seats.
    rules: Annotated[str, OneOf((RULES, RULES_6))] = field(default=RULES, kw_only=True)
    # The board, rules and variant played (protocol.md §5): named, with a digest of what this peer has.
    game: Annotated[Game, GAME] = field(default_factory=europe_game, kw_only=True)
    seats: Annotated[tuple[Seat, ...], List(Record(Seat), lambda g: g.max_players, lambda g: g.min_players)]
    # Every seat escrows its secrets among the others, so that they can carry
    # it on if it vanishes (protocol.md §6, Escrow). Written only when set:
    # a seating without it encodes as before escrow existed.
    escrow: Annotated[bool, Trailing(Bool())] = False
    KIND = "seating"

    def validate(self, limits: GameLimits) -> None:
        if len({s.name for s in self.seats}) != len(self.seats) or len({s.identity for s in self.seats}) != len(self.seats):
            raise Malformed("player names and identity keys must be unique")
        pair = lookalikes([s.name for s in self.seats])
        if pair is not None:  # a player could pose as the other: no screen could tell them apart
            raise Malformed(f"the names {pair[1]!r} ({ascii(pair[1])}) and {pair[0]!r} look the same: "
                            "a seating names each player so that every screen tells them apart")
        rules = self.game.rules
        if not rules.players_allowed(len(self.seats)):
            raise Malformed(f"{self.game.title} is for {rules.min_players} to {rules.max_players} players")
        if self.escrow and not ESCROW_MIN_SEATS <= len(self.seats) <= rules.max_players:
            raise Malformed(f"escrow needs {ESCROW_MIN_SEATS} to {rules.max_players} players: with two, the other "
                            "player alone would hold a seat's key")


@dataclass(frozen=True, slots=True)
class Keys(Body):
    """A seat's ElGamal key (with its proof) and its seed commitment; in an
    escrow game also its seal key (with its own proof): the key the others
    seal their escrow shares to, never revealed (protocol.md §6, Escrow)."""

    key: Annotated[KeyAnnouncement, _deck(KeyAnnouncement, "key_announcement")]
    commitment: Annotated[SeedCommitment, _deck(SeedCommitment, "seed_commitment")]
    seal: Annotated[KeyAnnouncement | None, Trailing(_deck(KeyAnnouncement, "seal_key"))] = None
    KIND = "keys"


@dataclass(frozen=True, slots=True)
class Shuffle(Body):
    """A seat's step of a shuffle chain, naming what the chain shuffles: the
    card ids of the epoch, ascending (the canonical deck seat 0 starts from).
    The fold refuses any other list; carried in the log so that an auditor
    knows each epoch's input without replaying the rules (protocol.md §3)."""

    step: Annotated[ShuffleStep, _deck(ShuffleStep, "shuffle_step")]
    cards: Annotated[tuple[int, ...], List(Int(0, lambda g: g.highest_card_id), lambda g: g.largest_deck, name="card")]
    KIND = "shuffle"

    def validate(self, limits: GameLimits) -> None:
        size = len(self.step.ciphertexts)
        if len(self.cards) != size:
            raise Malformed(f"a shuffle names one card per ciphertext: {size}, not {len(self.cards)}")
        if any(a >= b for a, b in zip(self.cards, self.cards[1:])):
            raise Malformed("a shuffle names its cards ascending, each once")


@dataclass(frozen=True, slots=True)
class Remask(Body):
    """A seat's step of a re-masking chain, naming what the chain re-masks:
    the returned tickets, in the order they go under the pile (each
    position's input is that card's ciphertext)."""

    step: Annotated[RemaskStep, _deck(RemaskStep, "remask_step")]
    sources: Annotated[tuple[DeckRef, ...], List(_deck(DeckRef, "card_ref"), lambda g: g.most_returned)]
    KIND = "remask"

    def validate(self, limits: GameLimits) -> None:
        size = len(self.step.ciphertexts)
        if not 0 < size <= limits.most_returned:
            raise Malformed(f"a remask step holds the 1..{limits.most_returned} returned tickets")
        if len(self.sources) != size:
            raise Malformed(f"a re-masking names one card per ciphertext: {size}, not {len(self.sources)}")
        if len(set(self.sources)) != len(self.sources):
            raise Malformed("a re-masking names each card once")


@dataclass(frozen=True, slots=True)
class Mix(Body):
    """A seat's step of a mix: hidden cards (the set-up's returned tickets,
    with what is left of their deck) permuted and re-encrypted together,
    naming the cards the chain starts from, in order (each position's input
    is that card's ciphertext). A shuffle step over ciphertexts, not over a
    canonical deck: its own kind, so that a step and a proof always say
    which chain they build (protocol.md §3)."""

    step: Annotated[ShuffleStep, _deck(ShuffleStep, "shuffle_step")]
    sources: Annotated[tuple[DeckRef, ...], List(_deck(DeckRef, "card_ref"), lambda g: g.largest_deck)]
    KIND = "mix"

    def validate(self, limits: GameLimits) -> None:
        size = len(self.step.ciphertexts)
        if len(self.sources) != size:
            raise Malformed(f"a mix names one card per ciphertext: {size}, not {len(self.sources)}")
        if len(set(self.sources)) != len(self.sources):
            raise Malformed("a mix names each card once")


@dataclass(frozen=True, slots=True)
class ProveShuffle(Body):
    """A seat's proof that its shuffle step is a permutation and re-encryption of its input."""

    proof: Annotated[ShuffleProof, _deck(ShuffleProof, "shuffle_proof")]
    KIND = "shuffle_proof"


@dataclass(frozen=True, slots=True)
class ProveRemask(Body):
    """A seat's proof that its re-masking step re-encrypts its input in place."""

    proof: Annotated[RemaskProof, _deck(RemaskProof, "remask_proof")]
    KIND = "remask_proof"


@dataclass(frozen=True, slots=True)
class ProveMix(Body):
    """A seat's proof that its mix step is a permutation and re-encryption of its input."""

    proof: Annotated[ShuffleProof, _deck(ShuffleProof, "shuffle_proof")]
    KIND = "mix_proof"


@dataclass(frozen=True, slots=True)
class Shares(Body):
    """A seat's decryption shares of cards it owes shares for."""

    shares: Annotated[tuple[DecryptionShare, ...], List(_deck(DecryptionShare, "decryption_share"), MAX_SHARES, 1)]
    KIND = "shares"


@dataclass(frozen=True, slots=True)
class Act(Body):
    """A move. It carries no secret: when it plays hidden cards, its author
    sends its shares of them once the log holds the act (protocol.md §6), so
    a relay that refuses or drops the act learns nothing from it."""

    action: Annotated[Action, Mapped(Raw(), _action, to_wire, "action")]
    KIND = "act"


@dataclass(frozen=True, slots=True)
class Audit(Body):
    """A seat's secrets (seed and exponent), revealed after the game for the audit."""

    seed: Annotated[Seed, _deck(Seed, "seed")]
    secret: Annotated[SecretKey, _deck(SecretKey, "secret_key")]
    KIND = "audit"


@dataclass(frozen=True, slots=True)
class Forfeit(Body):
    """Like an audit, but during the game and without halting it: the seat
    leaves and the fold plays it from its now-public secrets."""

    seed: Annotated[Seed, _deck(Seed, "seed")]
    secret: Annotated[SecretKey, _deck(SecretKey, "secret_key")]
    KIND = "forfeit"


@dataclass(frozen=True, slots=True)
class Escrow(Body):
    """A seat's secret exponent and shuffle seed, each dealt to every other
    seat (Feldman shares sealed to each recipient); ``seed_image`` is G^seed,
    what the seed deal's commitments multiply to."""

    key: Annotated[EscrowDeal, _deck(EscrowDeal, "escrow_deal")]
    seed: Annotated[EscrowDeal, _deck(EscrowDeal, "escrow_deal")]
    seed_image: Annotated[int, _number("seed_image(256)", _element)]
    KIND = "escrow"


@dataclass(frozen=True, slots=True)
class EscrowComplaint(Body):
    """A recipient shows that its share of a deal (``secret``: "key" or
    "seed") does not open: the key it was sealed with, proven its own."""

    secret: Annotated[str, OneOf(ESCROWED)]
    complaint: Annotated[Complaint, _deck(Complaint, "complaint")]
    KIND = "escrow_complaint"


@dataclass(frozen=True, slots=True)
class CarryOn(Body):
    """The author asks that ``seat``, silent too long, be carried on: once
    every other seat in play asks, they open its secrets from escrow."""

    seat: Annotated[int, SEAT_INDEX]
    KIND = "carry_on"


@dataclass(frozen=True, slots=True)
class EscrowReveal(Body):
    """The author's shares of ``seat``'s key and seed, in the clear: owed once
    every other seat in play asked to carry ``seat`` on."""

    seat: Annotated[int, SEAT_INDEX]
    key_share: Annotated[int, _number("share_of_x(256)", _exponent)] = field(repr=False)
    seed_share: Annotated[int, _number("share_of_seed(256)", _exponent)] = field(repr=False)
    KIND = "escrow_reveal"


@dataclass(frozen=True, slots=True)
class Reach(Body):
    """Where the author accepts the other peers' connections should it become
    the relay: an IP address (v4 or v6, as text) and a TCP port. A hint for
    finding it, not trust: whoever answers there must prove the seat's key."""

    ip: Annotated[str, Mapped(Str(1, 45), _ip, str, "ip")]
    port: Annotated[int, Int(1, 65535)]
    KIND = "reach"


@dataclass(frozen=True, slots=True)
class TakeOver(Body):
    """The new relay's first entry: the relay it replaces, that relay's
    receipt (signature) of the entry just before this one, and a follow
    request from every other seat in play (relaying.py)."""

    old: Annotated[int, SEAT_INDEX]
    receipt: Annotated[bytes, Bytes(SIGNATURE_BYTES)]
    requests: Annotated[tuple[FollowRequest, ...], List(Mapped(REQUEST, _request, _request_wire, "request"),
                                                        MAX_SEATS - 1)]
    KIND = "relay"

    def validate(self, limits: GameLimits) -> None:
        if len({r.seat for r in self.requests}) != len(self.requests):
            raise Malformed("one follow request per seat")


Message: TypeAlias = (Seating | Keys | Shuffle | Remask | Mix | ProveShuffle | ProveRemask | ProveMix | Shares | Act
                      | Audit | Forfeit | Reach | TakeOver | Escrow | EscrowComplaint | CarryOn | EscrowReveal)
MESSAGES: Family[Message] = Family(
    (Seating, Keys, Shuffle, Remask, Mix, ProveShuffle, ProveRemask, ProveMix, Shares, Act, Audit, Forfeit, Reach,
     TakeOver, Escrow, EscrowComplaint, CarryOn, EscrowReveal), Malformed,
    unknown=lambda kind: f"unknown message kind {kind[:32]!r}", malformed=lambda kind, why: f"a {kind} message: {why}")


def message_from_wire(body: list[Any], limits: GameLimits | None = None) -> Message:
    """Decode a message body within ``limits`` (None: those every game we have
    fits); raise Malformed on anything off."""
    return MESSAGES.decode(_as_revision_6(body), any_game_limits() if limits is None else limits)


def _as_revision_6(body: list[Any]) -> list[Any]:
    """A seating written before the boards (rules ``ttr-europe/5``: no game
    field) as the seating of Europe's standard game it is, under the rules
    of revision 6 it was played by; any other body as it is. Only the value
    is rewritten: signatures cover the bytes as logged."""
    if isinstance(body, list) and len(body) > 1 and body[0] == Seating.KIND:
        if body[1] == EUROPE_RULES_5:
            return [Seating.KIND, RULES_6, list(game_fields(europe_game())), *body[2:]]  # a list, as decoded
        if body[1] not in (RULES, RULES_6):  # the revision first, before anything it decides the shape of
            raise Malformed(f"unknown rules {str(body[1])[:32]!r}; this peer plays {RULES} "
                            f"(and reads {RULES_6}, {EUROPE_RULES_5})")
    return body
