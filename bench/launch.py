"""Launching a set of bot players on 127.0.0.1, as the benches do: a host and
N-1 joiners, each its own process with a trace file (`--trace`), from any
checkout (`root`), so that two commits are timed by the same script."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

COMMON = ["--as-bot", "--json", "--timeout", "60"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def read_trace(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main_module(root: Path) -> str:
    """The `ttr` entry point of ROOT (older commits kept it in cli/)."""
    return "p2p_ttr.cli.main" if (root / "p2p_ttr" / "cli" / "main.py").exists() else "cli.main"


def compile_sources(root: Path) -> None:
    """Byte-compile ROOT first, as `pip install` does: an editable checkout
    under PYTHONDONTWRITEBYTECODE would otherwise recompile every module in
    every process (~0.12 s each), which no installed copy does."""
    subprocess.run([sys.executable, "-m", "compileall", "-q",
                    *(str(d) for d in (root / "p2p_ttr", root / "cli") if d.exists())], check=True)


def player_argvs(port: int, players: int, tmp: Path) -> list[list[str]]:
    """Each player's `ttr` arguments: seat 0 hosts, the others join as Bot1..."""
    argvs = [["host", "--bind", "127.0.0.1", "--port", str(port), "--players", str(players)]]
    argvs += [["join", f"127.0.0.1:{port}", "--name", f"Bot{p}"] for p in range(1, players)]
    return [argv + ["--data-dir", str(tmp / f"p{p}"), "--trace", str(tmp / f"p{p}.trace"), *COMMON]
            for p, argv in enumerate(argvs)]


def launch(root: Path, argvs: list[list[str]], heads: dict[int, list[str]] | None = None,
           stdout: int = subprocess.DEVNULL) -> list[subprocess.Popen[bytes]]:
    """Start one process per argv from ROOT (`python -m` its entry point, or
    heads[p] + the module for player p)."""
    module = main_module(root)
    env = {**os.environ, "PYTHONPATH": str(root)}
    heads = heads or {}
    return [subprocess.Popen(heads.get(p, [sys.executable, "-m"]) + [module] + argv, cwd=root, env=env,
                             stdout=stdout, stderr=subprocess.DEVNULL)
            for p, argv in enumerate(argvs)]
