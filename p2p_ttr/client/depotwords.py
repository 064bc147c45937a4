"""Europe 1912's warehouses and depots in words: the audit's account of the
warehouses (``ttr verify``), and the panel's line of them."""

from __future__ import annotations

from collections.abc import Callable

from p2p_ttr.engine.cards import CardRef
from p2p_ttr.engine.state import GameState

from .numbering import seat_words
from .words import kind_name, plural


def warehouse_audit(state: GameState, face: Callable[[CardRef], int], names: tuple[str, ...]) -> list[str]:
    """Which cards lay on which warehouse: each one emptied, by whom, and
    what was left at the end, every card named by ``face`` (the audit opens
    them all with the revealed secrets)."""
    depots = state.depots
    if depots is None:
        return []
    board = state.game.board

    def cards(refs: tuple[CardRef, ...]) -> str:
        return ", ".join(kind_name(board.card_kind(face(ref))) for ref in refs) or "nothing"

    lines = [f"  {seat_words(collector, names)} took {seat_words(seat, names)}'s warehouse: {cards(refs)}"
             for collector, seat, refs in depots.taken]
    lines += [f"  left on {seat_words(seat, names)}'s warehouse: {cards(refs)}"
              for seat, refs in enumerate(depots.warehouses) if refs]
    head = (f"warehouses: {plural(len(depots.taken), 'warehouse')} emptied; depots left "
            + ", ".join(f"{seat_words(p, names)} {left}" for p, left in enumerate(depots.supply)))
    return [head] + lines


def warehouse_counts(state: GameState) -> str:
    """The panel's line: each seat's depots left and the cards on its warehouse (public counts)."""
    depots = state.depots
    if depots is None:
        return ""
    return "depots/warehouse: " + "  ".join(f"{p + 1} {left}/{len(pile)}"
                                            for p, (left, pile) in enumerate(zip(depots.supply, depots.warehouses)))
