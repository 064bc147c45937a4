"""Payments: the cards a player names, and choosing among the payments that fit.

When two payments fit and differ in more than the number of locomotives,
the client asks instead of guessing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from p2p_ttr.engine.board import GRAY, LOCOMOTIVE, Board, Route
from p2p_ttr.engine.rules import hand_counts
from p2p_ttr.engine.cards import CardRef
from p2p_ttr.engine.events import Action
from p2p_ttr.engine.payments import Payment, payment_of, route_payment
from p2p_ttr.engine.technologies import cards_paid_per_locomotive
from p2p_ttr.engine.state import GameState

from .explain import hand_words, kinds
from .outcomes import CANCEL, Ask, Choice, Outcome, Play, Refused
from .words import BOARD, kinds_matching, plural, route_name


@dataclass(frozen=True)
class PaySpec:
    """The cards a player named: `2 blue 1 loco`, `red`, `loco`."""

    colour: str | None = None
    colored: int | None = None
    locos: int | None = None
    some_locos: bool = False  # "loco" with no count: at least one

    @property
    def given(self) -> bool:
        return self.colour is not None or self.locos is not None or self.some_locos

    def fits(self, pay: Payment) -> bool:
        if self.colour is not None and (pay.color != self.colour or
                                        (self.colored is not None and pay.colored != self.colored)):
            return False
        if self.locos is not None and pay.locomotives != self.locos:
            return False
        return not (self.some_locos and not pay.locomotives)

    def words(self) -> str:
        parts = []
        if self.colour is not None:
            parts.append(f"{self.colored} {self.colour}" if self.colored is not None else self.colour)
        if self.locos is not None:
            parts.append(plural(self.locos, "locomotive"))
        elif self.some_locos:
            parts.append("locomotives")
        return " + ".join(parts)


_FILLER = {"with", "and", "card", "cards", "using", "pay", "paying"}


def pay_spec(words: Sequence[str], board: Board = BOARD) -> PaySpec:
    """The cards ``words`` name, in the colours of ``board`` (the game's)."""
    colour: str | None = None
    colored: int | None = None
    locos: int | None = None
    some = False
    count: int | None = None
    for word in words:
        if word.isdigit():
            count = int(word)
            continue
        if word.lower() in _FILLER:
            continue
        kinds = kinds_matching(board, word)
        if kinds == [GRAY]:
            raise Refused("gray is a route colour, not a card: pay with cards of one colour and locomotives")
        if len(kinds) != 1:
            raise Refused(f"{word!r} is not a card colour" + (f" (it could be {' or '.join(kinds)})" if kinds else ""))
        if kinds[0] == LOCOMOTIVE:
            if count is None:
                some = True
            else:
                locos = count
        else:
            if colour is not None and colour != kinds[0]:
                raise Refused(f"{colour} and {kinds[0]} cannot be played together: one colour and locomotives")
            colour, colored = kinds[0], count
        count = None
    if count is not None:
        raise Refused(f"{count} of what? Name the cards: e.g. `{count} red`")
    return PaySpec(colour, colored, locos, some)


@dataclass(frozen=True)
class Option:
    """One way to pay for a move, as the question lists it."""

    action: Action
    label: str  # short: the question names the route or city already
    locomotives: int
    said: str  # what the player is told once it is played
    pay: Payment | None = None


def payment_in(view: GameState, cards: tuple[CardRef, ...], route: Route | None = None, seat: int = 0) -> Payment:
    """The payment ``cards`` make: for ``route``, read as the engine reads a
    claim (cards standing in for others, ``seat``'s number of them)."""
    if route is not None:
        read = route_payment(view.game, route, kinds(view, cards), cards_paid_per_locomotive(view, seat))
        assert not isinstance(read, str), "legal payments are read as one"
        return read
    pay = payment_of(kinds(view, cards))
    assert pay is not None, "legal payments are of one colour"
    return pay


def settle(options: list[Option], question: str) -> Outcome:
    """Play the only option, or the only one with the fewest locomotives;
    otherwise ask which."""
    unique = list({o.label: o for o in options}.values())
    fewest = min(o.locomotives for o in unique)
    best = [o for o in unique if o.locomotives == fewest]
    if len(best) == 1:
        return Play(best[0].action, best[0].said)
    ordered = sorted(unique, key=lambda o: o.locomotives)
    choices = tuple(Choice(str(i + 1), o.label, Play(o.action, o.said)) for i, o in enumerate(ordered))
    return Ask(question, choices + (CANCEL,))


def tunnel_claim(view: GameState, seat: int, route: Route, option: Option, pay: Payment) -> Play | Ask:
    """A tunnel claimed with the cards its length needs: say first how many
    more it may ask for (each turned card of the colour played, or a
    locomotive, asks one) and what the hand holds beyond the payment to pay
    them. Where that is fewer than the most it may ask, ask before claiming."""
    asked = pay.color if pay.color is not None else LOCOMOTIVE
    counts = hand_counts(view, seat)
    spare = Counter({k: counts.get(k, 0) for k in {asked, LOCOMOTIVE}})
    spare[asked] -= pay.colored if pay.color is not None else pay.locomotives
    if pay.color is not None:
        spare[LOCOMOTIVE] -= pay.locomotives
    spare = +spare  # only what is left
    matching = f"{pay.color} cards or locomotives" if pay.color is not None else "locomotives"
    held = hand_words(view.game.board, spare) if spare else "none"
    turned = view.game.rules.tunnel_cards
    note = (f"{route_name(route)} is a tunnel: it turns {turned} cards and may ask for up to {turned} more "
            f"{matching}; beyond the {pay.describe()} you pay, you hold {held}")
    if sum(spare.values()) >= turned:
        return Play(option.action, f"{option.said} ({note.split(': ', 1)[1]})")
    return Ask(f"{note}. Claim it?", (Choice("claim", f"yes, with {pay.describe()}", Play(option.action, option.said)),
                                      CANCEL))
