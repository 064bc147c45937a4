"""The end of a game in full: every point and where it came from."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

from p2p_ttr.engine.game import Rules
from p2p_ttr.engine.outcome import final_score
from p2p_ttr.engine.scoring import TIEBREAKS, PlayerScore, deciding_tiebreak
from p2p_ttr.engine.state import GameState

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
    lines.append(f"{'':4}{'player':<14}{'total':>6}{'routes':>8}{'tickets':>9}"
                 + (f"{'stations':>10}" if rules.stations else "")
                 + (f"{bonus_word(rules):>9}" if rules.longest_path_points else "")
                 + (f"{'globe':>8}" if rules.globetrotter_points else "")
                 + (f"{'tour':>6}" if rules.grand_tour_points else "")
                 + (f"{'mount':>7}" if rules.mountain_car_points else "")
                 + (f"{'explor':>7}" if rules.most_cities_points else "") + f"{'trail':>7}")
    for p in score.ranking:
        sc = score.players[p]
        # First whatever the points: the row says why, beside the points it beats.
        why = "  ◀ conceded" if p == state.conceded_to else ""
        lines.append(f"{score.places[p]:>2}. {names[p][:14]:<14}{sc.total:>6}{sc.routes:>8}{sc.tickets:>+9}"
                     + (f"{sc.stations:>10}" if rules.stations else "")
                     + (f"{sc.express:>9}" if rules.longest_path_points else "")
                     + (f"{sc.globetrotter:>8}" if rules.globetrotter_points else "")
                     + (f"{sc.grand_tour:>6}" if rules.grand_tour_points else "")
                     + (f"{sc.mountains:>7}" if rules.mountain_car_points else "")
                     + (f"{sc.most_cities:>7}" if rules.most_cities_points else "")
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


def bonus_word(rules: Rules) -> str:
    """The longest-path bonus in a word, for a column: 'express' (the European Express), 'path' (the Longest Path)."""
    return rules.longest_path_bonus.split()[-1].lower()


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
        lines.append(f"  ticket {result.points:>+4}   {mark} {ticket_name(board.tickets[result.ticket])}")
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
    if rules.stations:
        unbuilt = rules.stations - len(ps.stations)
        lines.append(f"  stations {sc.stations:>2}   {plural(unbuilt, 'station')} not built x {rules.station_points}")
    if rules.longest_path_points:
        bonus = rules.longest_path_bonus
        express = f"the {bonus} +{rules.longest_path_points}" if sc.express else f"no {bonus}"
        lines.append(f"  {bonus_word(rules):<7} {sc.express:>3}   longest trail {plural(sc.longest_path, 'car')}: {express}")
    if rules.globetrotter_points:
        globetrotter = f"the Globetrotter +{sc.globetrotter}" if sc.globetrotter else "no Globetrotter"
        lines.append(f"  globe   {sc.globetrotter:>3}   {plural(sc.completed_tickets, 'ticket')} done: {globetrotter}")
    if rules.grand_tour_points:
        lines.append(f"  tour    {sc.grand_tour:>3}   the Grand Tour: "
                     + (f"+{sc.grand_tour}" if sc.grand_tour else "no ticket joined by two separate paths"))
    if rules.mountain_car_points:
        cars = sc.mountains // rules.mountain_car_points
        lines.append(f"  mount   {sc.mountains:>3}   {plural(cars, 'car')} to the Mountain Crossing "
                     f"({plural(sc.mountain_routes, 'mountain route')})")
    if rules.most_cities_points:
        bonus = rules.most_cities_bonus
        explorer = f"the {bonus} +{sc.most_cities}" if sc.most_cities else f"no {bonus}"
        lines.append(f"  explor  {sc.most_cities:>3}   largest network {plural(sc.network_cities, 'city', 'cities')}: "
                     f"{explorer}")
    return lines
