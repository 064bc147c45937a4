"""A tournament with some of the bots' constants changed: to scan a constant over the same games.

    python bench/tune.py --players 2 --games 400 --seed 2026 --bots expert,hard \\
        [--set hard.TRAIN_OPPORTUNITY=2.3] [--set ExpertBot.ENDGAME_TURNS=8] [--workers 2] \\
        [--board asia [--board-variant V]] [--progress 2> games.log]

The games are exactly ``ttr tournament``'s with the same players, games,
bots, seed and board (the same deals, seats rotating); only the constants named
differ, so a scan compares values on the same cards. ``--progress`` prints
``ttr tournament --progress``'s line per game on stderr, which
``bench/paired.py`` reads to compare two runs game by game. ``--set`` takes
``module.NAME=VALUE`` for a constant of a module of ``p2p_ttr.bots`` (hard,
medium, planning, expert, rollout, worlds, opponents) or ``Class.NAME=VALUE``
for a class attribute of a class defined there (``ExpertBot.PRIOR_MARGIN``:
a class that copied a module constant when it was defined keeps its copy, so
set the class's). The value is read as the type of the value it replaces
(a constant that is None takes ``none`` or a number). Every level sees the change, so
a constant shared by two levels (medium's, which hard inherits) changes
both. The workers are forked after the change, so they see it too. The last
line is one JSON object.

``--variant NAME=VALUE`` (repeatable) changes a constant of hard.py for one
level only: a copy of the module with the change is seated as the level
``variant`` (``--bots variant,hard``: the changed hard against hard as it is).
The copy is read afresh from hard.py, so a ``--set hard.NAME`` does not reach
it (a ``--set`` of medium or planning, which it imports, does).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import multiprocessing
import sys
import time
from types import ModuleType
from typing import Any

import p2p_ttr.bots.levels as levels
import p2p_ttr.local.tournament as tournament
from p2p_ttr.engine.boards import UnknownGame, load_game
from p2p_ttr.local.tournament import GameRecord, lineup_for, play_tournament

MODULES = ("hard", "medium", "planning", "expert", "rollout", "worlds", "opponents")


def modules() -> dict[str, ModuleType]:
    return {name: importlib.import_module(f"p2p_ttr.bots.{name}") for name in MODULES}


def owner_of(name: str, mods: dict[str, ModuleType]) -> object:
    """The module, or the class defined in one of ``mods``, called ``name``."""
    if name in mods:
        return mods[name]
    for module in mods.values():
        found = getattr(module, name, None)
        if isinstance(found, type) and found.__module__ == module.__name__:
            return found
    raise ValueError(f"no module or class {name!r} among p2p_ttr.bots.{{{','.join(MODULES)}}}")


def parse_value(text: str, old: object) -> object:
    """``text`` read as the type of ``old``."""
    if isinstance(old, bool):
        if text.lower() not in ("0", "1", "true", "false"):
            raise ValueError(f"{text!r} is not a truth value (0, 1, true, false)")
        return text.lower() in ("1", "true")
    if isinstance(old, int):
        return int(text)
    if isinstance(old, float):
        return float(text)
    if old is None:  # a constant that may be None (a horizon): none, or a whole number if it reads as one
        if text.lower() == "none":
            return None
        try:
            return int(text)
        except ValueError:
            return float(text)
    raise ValueError(f"only numbers and truth values can be set, not a {type(old).__name__}")


def apply_settings(settings: list[str]) -> dict[str, object]:
    """Set each ``owner.NAME=VALUE``; return what was set."""
    mods = modules()
    done: dict[str, object] = {}
    for setting in settings:
        key, sep, text = setting.partition("=")
        owner_name, dot, attr = key.partition(".")
        if not sep or not dot:
            raise ValueError(f"{setting!r}: expected owner.NAME=VALUE")
        owner = owner_of(owner_name, mods)
        if not hasattr(owner, attr):
            raise ValueError(f"{owner_name} has no {attr}")
        done[key] = set_constant(owner, attr, text, setting)
    return done


def set_constant(owner: object, attr: str, text: str, setting: str) -> object:
    """Set ``owner.attr`` to ``text`` read as the type it has; return the value."""
    try:
        value = parse_value(text, getattr(owner, attr))
    except ValueError as e:
        raise ValueError(f"{setting!r}: {e}") from e
    setattr(owner, attr, value)
    return value


def add_variant(settings: list[str]) -> dict[str, object]:
    """Register the level ``variant``: a fresh copy of hard.py with ``NAME=VALUE`` constants changed."""
    spec = importlib.util.find_spec("p2p_ttr.bots.hard")
    assert spec is not None and spec.origin is not None
    copy_spec = importlib.util.spec_from_file_location("p2p_ttr.bots.hard_variant", spec.origin)
    assert copy_spec is not None and copy_spec.loader is not None
    copy = importlib.util.module_from_spec(copy_spec)
    copy.__package__ = "p2p_ttr.bots"
    copy_spec.loader.exec_module(copy)
    done: dict[str, object] = {}
    for setting in settings:
        name, sep, text = setting.partition("=")
        if not sep or not hasattr(copy, name):
            raise ValueError(f"{setting!r}: expected NAME=VALUE for a constant of hard.py")
        done[f"variant.{name}"] = set_constant(copy, name, text, setting)
    factory = copy.HardBot
    levels._FACTORIES["variant"] = lambda seed, name: factory(seed, name)
    levels.LEVELS = tuple(levels._FACTORIES)
    setattr(tournament, "LEVELS", levels.LEVELS)  # its copy of the names it checks
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, choices=range(2, 6))
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--bots", default="hard,medium", help="bot levels, comma-separated, the one studied first")
    parser.add_argument("--set", action="append", default=[], metavar="OWNER.NAME=VALUE",
                        help="a constant to change (repeatable)")
    parser.add_argument("--variant", action="append", default=[], metavar="NAME=VALUE",
                        help="a constant of hard.py changed for the level 'variant' only (repeatable)")
    parser.add_argument("--workers", type=int, default=1, help="games played at once, one process each (default 1)")
    parser.add_argument("--board", default="europe", help="the board, as ttr tournament --board (default europe)")
    parser.add_argument("--board-variant", default="", help="the board's variant, as ttr tournament --variant")
    parser.add_argument("--progress", action="store_true", help="a line per game on stderr, as ttr tournament's")
    args = parser.parse_args()
    if args.workers > 1 and multiprocessing.get_start_method() != "fork":
        parser.error("--workers above 1 needs the fork start method (the workers must inherit the changes)")
    try:
        settings = apply_settings(args.set)
        if args.variant:
            settings |= add_variant(args.variant)
    except ValueError as e:
        parser.error(str(e))
    try:
        game = load_game(args.board, args.board_variant)
    except UnknownGame as e:
        parser.error(str(e))

    def progress(record: GameRecord) -> None:
        # ttr tournament --progress's words, which bench/paired.py reads
        winner = ", ".join(record.seats[p] for p, place in enumerate(record.places) if place == 1)
        scores = ", ".join(f"seat {p + 1} ({level}) {score}"
                           for p, (level, score) in enumerate(zip(record.seats, record.scores)))
        print(f"game {record.index + 1}/{args.games} (seed {record.seed}): {winner} won; {scores}",
              file=sys.stderr, flush=True)

    start = time.perf_counter()
    try:
        lineup = lineup_for([level.strip() for level in args.bots.split(",") if level.strip()], args.players)
        result = play_tournament(game, args.players, args.games, lineup, args.seed,
                                 on_game=progress if args.progress else None, workers=args.workers)
    except ValueError as e:
        parser.error(str(e))
    seconds = time.perf_counter() - start
    studied = result.levels[0]
    lo, hi = studied.win_interval()
    changed = " ".join(f"{k}={v}" for k, v in settings.items()) or "nothing changed"
    print(f"{changed}: {studied.level} wins {studied.win_rate:.2%} of {args.games} games "
          f"(95% {lo:.1%}-{hi:.1%}); average scores "
          + ", ".join(f"{s.level} {s.average(s.score):.1f}" for s in result.levels) + f"  [{seconds:.0f} s]")
    out: dict[str, Any] = {"bench": "tune", "set": settings, **result.to_json(),
                           "seconds": round(seconds, 1)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
