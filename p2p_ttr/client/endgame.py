"""The end of a game in full: every point and where it came from."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

from p2p_ttr.engine.outcome import final_score
from p2p_ttr.engine.scoring import TIEBREAKS, PlayerScore, deciding_tiebreak, score_parts
from p2p_ttr.engine.state import GameState

from .scorewords import part_cell, part_heading, part_line
from .words import DASH, plural, ticket_name, who


def breakdown(state: GameState, names: tuple[str, ...], me: int | None = None) -> list[str]:
    """The final score: the ranking, how ties were broken, and for every
    player their routes, tickets, stations (and what each borrowed) and trail."""
    score = final_score(state)
    lines = ["FINAL SCORE" + (" (the game stalled: nobody could do anything)" if state.stalled else "")
             + (": the game was conceded" if state.conceded else ""), ""]
    if state.conceded:
        lines += [_conceded(state, names, me), ""]
    rules = state.game.rules
    parts = {p: score_parts(state.game, score.players[p]) for p in score.ranking}
    some = parts[score.ranking[0]]  # every player has the same parts, in the same order
    lines.append(f"{'':4}{'player':<14}{'total':>6}{'routes':>8}{'tickets':>9}"
                 + "".join(part_heading(part, rules) for part in some) + f"{'trail':>7}")
    for p in score.ranking:
        sc = score.players[p]
        # First whatever the points: the row says why, beside the points it beats.
        why = "  ◀ conceded" if p == state.conceded_to else ""
        lines.append(f"{score.places[p]:>2}. {names[p][:14]:<14}{sc.total:>6}{sc.routes:>8}{sc.tickets:>+9}"
                     + "".join(part_cell(part, rules) for part in parts[p])
                     + f"{sc.longest_path:>7}{why}")
    lines += _tiebreaks(score.ranking, score.players, names, rules.longest_path_bonus)
    for p in score.ranking:
        lines.append("")
        lines += _player(state, p, score.players[p], names, me)
    winners = [names[p] for p in score.ranking if score.places[p] == 1]
    best = score.players[score.ranking[0]].total
    if state.conceded_to is not None:
        lines += ["", f"{winners[0]} wins by concession ({plural(best, 'point')})."]
        return lines
    lines += ["", (f"{' and '.join(winners)} share the win" if len(winners) > 1 else f"{winners[0]} wins")
              + f" with {plural(best, 'point')}."]
    return lines


def _conceded(state: GameState, names: tuple[str, ...], me: int | None) -> str:
    """Why the ranking does not follow the points: the game was conceded to the last seat in play."""
    winner = state.conceded_to
    if winner is None:
        return ("Every seat had left (forfeited or carried on), so nobody won: the game is scored as it stood "
                "and ranked by the usual count.")
    return (f"The game was conceded to {who(winner, me, names)}, the last seat in play: the others left "
            "(forfeited, or were carried on). The last seat in play is ranked first whatever the points "
            "(protocol.md §6); the others are ranked by the usual count.")


LONGEST_PATH_TIEBREAK = TIEBREAKS[3]  # named by the board's own name for its longest-path bonus


def _tiebreaks(ranking: tuple[int, ...], players: tuple[PlayerScore, ...], names: tuple[str, ...],
               bonus: str = LONGEST_PATH_TIEBREAK) -> list[str]:
    """Why players equal on points are ranked as they are; ``bonus``: the
    game's name for the longest-path bonus, the last tie-break."""
    lines = []
    for ahead, behind in pairwise(ranking):
        a, b = players[ahead], players[behind]
        if a.total != b.total:
            continue
        rule = deciding_tiebreak(a, b)
        if rule == LONGEST_PATH_TIEBREAK:
            rule = bonus
        if rule is None:
            lines.append(f"    {names[ahead]} and {names[behind]} tie on every tie-break and share their place")
        else:
            lines.append(f"    {names[ahead]} and {names[behind]} tie on points; {names[ahead]} is ahead on {rule}")
    return lines


def _player(state: GameState, p: int, sc: PlayerScore, names: tuple[str, ...], me: int | None) -> list[str]:
    ps = state.players[p]
    board = state.game.board
    lengths = Counter(board.routes[r].length for r in ps.routes)
    parts = [f"{n}x{length}" for length, n in sorted(lengths.items())]
    lines = [f"{names[p]}: {plural(sc.total, 'point')}",
             f"  routes {sc.routes:>4}   {plural(len(ps.routes), 'route')}, "
             f"{plural(state.game.rules.trains - ps.trains, 'train')} placed"
             + (f" ({', '.join(parts)} cars)" if parts else "")]
    for result in sc.ticket_results:
        mark = "done  " if result.completed else "missed"
        halved = " (halved: a City in Chaos)" if result.halved else ""
        lines.append(f"  ticket {result.points:>+4}   {mark} {ticket_name(board.tickets[result.ticket])}{halved}")
    for city, route in sc.borrowed:
        if route is None:
            lent = "borrowing nothing"
        else:
            r = board.routes[route]
            owner = state.route_owner[route]
            lent = (f"borrowing {r.a}{DASH}{r.b} from "
                    f"{who(owner, me, names) if owner is not None else 'nobody'}")
        lines.append(f"  station       in {city}, {lent}")
    rules = state.game.rules
    lines += [part_line(part, sc, rules) for part in score_parts(state.game, sc)]
    return lines
